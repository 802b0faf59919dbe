/**
 * One advisory record OSV cannot serve (`GET /v1/vulns/{id}` answers 500, or a body that is not
 * JSON) makes unchecked only the package OSV's batch listed it for (src/sources/osv/query.ts): in
 * an audit of three packages — advisory A listed for the first, B for the second, none for the
 * third — the first keeps its advisory, the third is clean, and only the second is INCOMPLETE,
 * with the reason naming B. The audit is incomplete (exit 3) for that one package.
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { CVSS_CRITICAL, CVSS_MODERATE, lockProject, osvRecord, parseAudit, serveOsv, useAuditServer, type AuditServerOptions, type SyntheticPackage } from './audit-helpers.js';

const P1: SyntheticPackage = { name: 'nerq-audit-advised', version: '1.0.0' };
const P2: SyntheticPackage = { name: 'nerq-audit-unread', version: '1.0.0' };
const P3: SyntheticPackage = { name: 'nerq-audit-clean', version: '1.0.0' };
const PACKAGES = [P1, P2, P3];
/** A moderate advisory: it does not fail the default policy, so the audit's outcome is only incomplete. */
const A = osvRecord('GHSA-test-mode-0001', [P1.name], CVSS_MODERATE);
const B = osvRecord('GHSA-test-crit-0002', [P2.name], CVSS_CRITICAL);
const B_PATH = `/osv/v1/vulns/${B.id as string}`;

let server: FixtureServer;
let project: string;
/** How B's record answers in the current test. */
let fault: 'status-500' | 'malformed' = 'status-500';

const options: AuditServerOptions = {
  // Declared before serveOsv's routes, so it answers B's record in their place.
  before: (started) => started.route('GET', B_PATH, (_req, res) => {
    if (fault === 'status-500') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"message":"internal"}');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": "GHSA-test-crit-0002", "affected": [');
    }
  }),
  packages: PACKAGES,
  advisories: [A, B],
};
useAuditServer(options, (started, dirs) => {
  server = started;
  project = lockProject(dirs, PACKAGES.map((p) => ({ ...p, direct: true })), server);
});

describe('an audit where one advisory record cannot be read', () => {
  it.each([
    ['a 500', 'status-500', /500/],
    ['a malformed body', 'malformed', /malformed JSON/],
  ] as const)('B answering %s: only the package B was listed for is incomplete; the others keep their answers', async (_label, mode, cause) => {
    fault = mode;
    const result = await runCli(['audit', project, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    const entries = new Map(report.entries.map((e) => [e.subject.name, e]));
    expect(PACKAGES.map((p) => [p.name, entries.get(p.name)?.policy.status])).toEqual([
      [P1.name, 'pass'],
      [P2.name, 'incomplete'],
      [P3.name, 'pass'],
    ]);
    expect(report.summary).toMatchObject({ total: 3, passed: 2, incomplete: 1, failed: 0, errors: 0 });
    expect(report.outcome).toEqual({ result: 'incomplete', exitCode: 3, allowIncomplete: false });

    const unread = entries.get(P2.name);
    expect(unread?.policy.failures.map((f) => [f.rule, f.checks])).toEqual([['not-checked', ['malicious-package', 'known-vulnerabilities']]]);
    const osvOf = (name: string) => entries.get(name)?.report.sources.find((source) => source.id === 'vulnerabilities');
    expect(osvOf(P2.name)?.status).toBe('unavailable');
    expect(osvOf(P2.name)?.reason).toMatch(new RegExp(`^OSV: advisory ${B.id as string} could not be read: `));
    expect(osvOf(P2.name)?.reason).toMatch(cause);

    // The first keeps its advisory; the third is known clean — neither is made unknown by B.
    expect([osvOf(P1.name), osvOf(P3.name)].map((source) => source?.status)).toEqual(['ok', 'ok']);
    expect(entries.get(P1.name)?.report.advisories.map((a) => a.id)).toEqual([A.id]);
    expect(entries.get(P3.name)?.report.advisories).toEqual([]);
    expect(entries.get(P3.name)?.report.checks.find((c) => c.id === 'known-vulnerabilities')?.status).toBe('pass');

    const sources = report.warnings.filter((w) => w.code === 'source-unavailable');
    expect(sources.map((w) => [w.details.source, w.details.packages])).toEqual([['vulnerabilities', 1]]);
  });
});

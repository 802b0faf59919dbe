/**
 * A repository's dependency set may hold an npm package, a crate and a Go module of the same name
 * and version. Each is asked of OSV in its own ecosystem's batch, and each advisory keeps the
 * ecosystem it was matched in: two records that share an alias (one CVE filed for the npm package
 * and the crate) stay two findings, in the source, the vulnerable-dependencies check and the
 * report. The OSV records are synthetic (OSV is not reachable to record Go or crates.io ones);
 * their shape is the recorded npm records' (fixtures/http/osv/v1/vulns).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import vulnerableDependencies from '../../src/checks/vulnerable-dependencies.js';
import { buildReport } from '../../src/report/build.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import type { Sources } from '../../src/evidence/schema.js';
import { repositoryVulnerabilities } from '../../src/pipeline/vulnerabilities-for.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { dependencyFacts, evidence } from '../support/evidence-builder.js';
import { startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { outcomeOf } from '../checks/check-table.js';
import { runContextFor, testHttpClient } from './helpers.js';

const QUERYBATCH = '/osv/v1/querybatch';
/** Synthetic records: one CVE, filed for the npm package and for the crate of the same name. */
const NPM_ID = 'GHSA-synt-h000-0001';
const CRATE_ID = 'RUSTSEC-2099-0001';
const CVE = 'CVE-2099-0001';

function record(id: string, aliases: string[], ecosystem: string, fixed: string) {
  return {
    id,
    aliases,
    summary: `Synthetic advisory ${id}`,
    published: '2099-01-01T00:00:00Z',
    modified: '2099-01-02T00:00:00Z',
    database_specific: { severity: 'HIGH' },
    affected: [{ package: { name: 'shared-name', ecosystem }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }] }],
  };
}

let server: FixtureServer;
let http: HttpClient;

beforeEach(async () => {
  server = await startFixtureServer();
  http = testHttpClient();
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

/** OSV answers by the ecosystem each query names: the npm record for npm, the crate's for crates.io, none for Go. */
function osv(status = 200): void {
  server.route('POST', QUERYBATCH, (_req, res, { body }) => {
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{"error":"unavailable"}');
      return;
    }
    const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { ecosystem: string } }[] }).queries;
    const idOf: Record<string, string> = { npm: NPM_ID, 'crates.io': CRATE_ID };
    const results = queries.map((q) => {
      const id = idOf[q.package.ecosystem];
      return id === undefined ? {} : { vulns: [{ id, modified: '2099-01-02T00:00:00Z' }] };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results }));
  });
  server.expect('GET', `/osv/v1/vulns/${NPM_ID}`, { body: record(NPM_ID, [CVE], 'npm', '1.0.1') });
  server.expect('GET', `/osv/v1/vulns/${CRATE_ID}`, { body: record(CRATE_ID, [CVE], 'crates.io', '1.0.2') });
}

const entry = (ecosystem: 'npm' | 'cargo' | 'go', file: string) => ({
  name: 'shared-name',
  range: '1.0.0',
  version: '1.0.0',
  reason: null,
  securityHolding: false,
  ecosystem,
  dev: false,
  path: [],
  file,
});

const set: Sources['dependencies'] = {
  status: 'ok',
  facts: dependencyFacts({
    dependencies: [entry('npm', 'package-lock.json'), entry('cargo', 'Cargo.lock'), entry('go', 'go.mod')],
    unpinned: [],
    lockfiles: ['package-lock.json', 'Cargo.lock', 'go.mod'],
  }),
};

/** The ecosystem each OSV batch asked in, with its queries as `name@version`. */
const batches = (): string[] =>
  server.requests
    .filter((r) => r.path === QUERYBATCH)
    .flatMap((r) => (JSON.parse(r.body) as { queries: { package: { name: string; ecosystem: string }; version: string }[] }).queries.map((q) => `${q.package.ecosystem}:${q.package.name}@${q.version}`))
    .sort();

describe('one name and version in three ecosystems', () => {
  test('each is asked in its own ecosystem; the two advisories sharing a CVE stay two findings, each with its ecosystem', async () => {
    osv();
    const result = await repositoryVulnerabilities(runContextFor(http, server, new Date('2099-02-01T00:00:00Z')), set);
    expect(batches()).toEqual(['Go:shared-name@1.0.0', 'crates.io:shared-name@1.0.0', 'npm:shared-name@1.0.0']);
    if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
    const found = (result.facts.dependencyAdvisories ?? []).map((a) => [a.ecosystem, a.id, a.package, a.version, a.fixed]);
    expect(found.sort()).toEqual([
      ['cargo', CRATE_ID, 'shared-name', '1.0.0', '1.0.2'],
      ['npm', NPM_ID, 'shared-name', '1.0.0', '1.0.1'],
    ]);

    const run = outcomeOf(vulnerableDependencies, evidence({ dependencies: set.facts, vulnerabilities: result.facts }));
    const data = run.data ?? {};
    expect(run.messageId).toBe('repository-vulnerable');
    expect(data.affected).toBe(2);
    expect([...(data.ids as string[])].sort()).toEqual([NPM_ID, CRATE_ID].sort());
    // The set spans ecosystems: each finding names the one it is in.
    expect([...(data.details as string[])].sort()).toEqual([
      `crates.io: shared-name@1.0.0 (${CRATE_ID} fixed in 1.0.2)`,
      `npm: shared-name@1.0.0 (${NPM_ID} fixed in 1.0.1)`,
    ]);

    // The report lists both, told apart by `ecosystem`.
    const report = buildReport(evidence({ dependencies: set.facts, vulnerabilities: result.facts }), { checks: CHECKS, gate: DEFAULT_GATE });
    expect(report.advisories.map((a) => [a.ecosystem, a.id]).sort()).toEqual([
      ['cargo', CRATE_ID],
      ['npm', NPM_ID],
    ]);
  });

  test('the crates.io batch failing: only the crate is unknown; the npm advisory and the clean Go answer stand, and no check calls the set clean', async () => {
    server.expect('GET', `/osv/v1/vulns/${NPM_ID}`, { body: record(NPM_ID, [CVE], 'npm', '1.0.1') });
    // The crates.io batch answers 503 (every retry); the npm and Go batches answer.
    server.route('POST', QUERYBATCH, (_req, res, { body }) => {
      const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { ecosystem: string } }[] }).queries;
      if (queries.some((q) => q.package.ecosystem === 'crates.io')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":"unavailable"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: queries.map((q) => (q.package.ecosystem === 'npm' ? { vulns: [{ id: NPM_ID, modified: '2099-01-02T00:00:00Z' }] } : {})) }));
    });
    const result = await repositoryVulnerabilities(runContextFor(http, server, new Date('2099-02-01T00:00:00Z')), set);
    if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}: ${result.reason}`);
    expect((result.facts.dependencyAdvisories ?? []).map((a) => [a.ecosystem, a.id])).toEqual([['npm', NPM_ID]]);
    expect(result.facts.dependenciesQueried).toBe(2);
    expect(result.facts.dependencyAdvisoriesUnknown?.map((u) => [u.ecosystem, u.packages])).toEqual([['crates.io', 1]]);

    const ev = evidence({ dependencies: set.facts, vulnerabilities: result.facts });
    const vulnerable = outcomeOf(vulnerableDependencies, ev);
    expect(vulnerable.messageId).toBe('repository-vulnerable');
    expect(vulnerable.data?.ids).toEqual([NPM_ID]);
    expect(vulnerable.data?.osvUnknownEcosystems).toEqual(['crates.io']);
    const report = buildReport(ev, { checks: CHECKS, gate: DEFAULT_GATE });
    expect(report.checks.find((c) => c.id === 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-osv-partial' });
    expect(report.advisories.map((a) => a.id)).toEqual([NPM_ID]);
    // What OSV could not answer for holds the verdict below YES, as an unreachable database does.
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('danger-unchecked');
  });

  test('OSV failing: the source is unavailable, never clean', async () => {
    osv(503);
    const result = await repositoryVulnerabilities(runContextFor(http, server, new Date('2099-02-01T00:00:00Z')), set);
    expect(result.status).toBe('unavailable');
  });
});

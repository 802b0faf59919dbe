/**
 * A lockfile that pins a release npm has since removed for being malicious (pipeline/
 * removed-malicious.ts, docs/security.md): the audit's one OSV batch names it, so the entry is
 * `NO — DO NOT USE` and the run fails (exit 1) instead of reporting it not found (exit 3);
 * without such a record it stays not evaluated.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { CVSS_CRITICAL, osvRecord, packageLockV3, parseAudit, serveOsv, serveSynthetic, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const KEPT = { name: 'nerq-audit-kept', version: '1.0.0' };
const REMOVED = 'nerq-audit-removed';
const dirs = new TempDirs();
let server: FixtureServer | undefined;

afterEach(async () => {
  if (server !== undefined) {
    expectNoUnexpected(server);
    await server.close();
  }
  server = undefined;
  dirs.cleanUp();
});

/** The registry serves the removed package at 1.0.0 only; the lockfile pins its 1.0.1. */
async function project(records: Record<string, unknown>[]): Promise<string> {
  requireBuiltCli();
  server = await startFixtureServer();
  serveSynthetic(server, KEPT);
  serveSynthetic(server, { name: REMOVED, version: '1.0.0' });
  serveOsv(server, records);
  server.fallback('GET', '/github/', { status: 503, body: 'down' });
  const { lock, manifest } = packageLockV3([{ ...KEPT, direct: true }, { name: REMOVED, version: '1.0.1', direct: true }], server.url('npm'));
  return dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
}

const entryOf = (report: ReturnType<typeof parseAudit>, name: string) => report.entries.find((e) => e.report.target.name === name);

describe('a pinned release npm removed', () => {
  it('named by a malicious-package record: NO — DO NOT USE, the policy fails, exit 1', async () => {
    const malicious = { ...osvRecord('MAL-2026-3003', [REMOVED], CVSS_CRITICAL), affected: [{ package: { ecosystem: 'npm', name: REMOVED }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }] };
    const dir = await project([malicious]);
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    const removed = entryOf(report, REMOVED);
    expect(removed?.report.verdictCode).toBe('do-not-use');
    expect(removed?.report.target.version).toBe('1.0.1');
    expect(removed?.policy.status).toBe('fail');
    expect(entryOf(report, KEPT.name)?.policy.status).toBe('pass');
    expect(report.outcome.exitCode).toBe(1);
  });

  it('with no such record: not evaluated (version-not-found), exit 3', async () => {
    const dir = await project([]);
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const removed = entryOf(parseAudit(result.stdout), REMOVED);
    expect(removed?.report.error?.code).toBe('version-not-found');
    expect(removed?.policy.status).toBe('error');
  });
});

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
async function project(records: Record<string, unknown>[], files: Record<string, string> = {}): Promise<string> {
  requireBuiltCli();
  server = await startFixtureServer();
  serveSynthetic(server, KEPT);
  serveSynthetic(server, { name: REMOVED, version: '1.0.0' });
  serveOsv(server, records);
  server.fallback('GET', '/github/', { status: 503, body: 'down' });
  const { lock, manifest } = packageLockV3([{ ...KEPT, direct: true }, { name: REMOVED, version: '1.0.1', direct: true }], server.url('npm'));
  return dirs.project({ 'package-lock.json': lock, 'package.json': manifest, ...files });
}

const entryOf = (report: ReturnType<typeof parseAudit>, name: string) => report.entries.find((e) => e.report.target.name === name);

const MALICIOUS = {
  ...osvRecord('MAL-2026-3003', [REMOVED], CVSS_CRITICAL),
  affected: [{ package: { ecosystem: 'npm', name: REMOVED }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }],
};

describe('a pinned release npm removed', () => {
  it('named by a malicious-package record: NO — DO NOT USE, the policy fails, exit 1', async () => {
    const dir = await project([MALICIOUS]);
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

  it('an ignore entry naming it is not applied: still exit 1, with an ignore-refused warning', async () => {
    const policy = { ignore: [{ package: REMOVED, reason: 'vetted', expires: '2027-12-31' }] };
    const dir = await project([MALICIOUS], { '.nerqrc.json': JSON.stringify(policy) });
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    expect(entryOf(report, REMOVED)?.policy).toMatchObject({ status: 'fail', ignoredBy: null });
    expect(report.summary).toMatchObject({ failed: 1, ignored: 0 });
    expect(report.warnings.filter((w) => w.code === 'ignore-refused').map((w) => w.details)).toEqual([
      { index: 0, package: REMOVED, target: `${REMOVED}@1.0.1` },
    ]);
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

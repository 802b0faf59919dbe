/**
 * A lockfile that pins a release npm has since removed for being malicious (pipeline/
 * removed-malicious.ts, docs/security.md): the audit's one OSV batch names it, so the entry is
 * `NO — DO NOT USE` and the run fails (exit 1) instead of reporting it not found (exit 3);
 * without such a record it stays not evaluated. A project PyPI removed whole, named by a range
 * or no version (in a requirements file, or to `nerq check`), is asked about by name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { ReportSchema } from '../../src/report/schema.js';
import { runCli } from '../support/run-cli.js';
import { CVSS_CRITICAL, osvRecord, packageLockV3, parseAudit, recordedOsvRecord, serveOsv, serveSynthetic, TempDirs } from './audit-helpers.js';
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

/**
 * PyPI removes a malicious project whole (its page 404s) while a requirements file still names it
 * by a range or bare: the package is asked about by name, with no version, and a malicious-package
 * record affecting every version (the recorded MAL-2023-1578, aiohtt) fails the run.
 */
describe('a requirements file naming a project PyPI removed', () => {
  async function requirements(text: string, osv: (s: FixtureServer) => void): Promise<string> {
    requireBuiltCli();
    server = await startFixtureServer();
    server.fallback('GET', '/pypi/', { status: 404, body: '{"message": "Not Found"}' });
    server.fallback('GET', '/github/', { status: 503, body: 'down' });
    osv(server);
    return dirs.project({ 'requirements.txt': text });
  }
  const queries = () => (server?.requests ?? []).filter((r) => r.method === 'POST' && r.path === '/osv/v1/query').map((r) => JSON.parse(r.body) as unknown);

  it.each(['aiohtt>=2.0\n', 'aiohtt\n'])('%j, a malicious-package record for every version: NO — DO NOT USE, exit 1, one OSV query', async (text) => {
    const dir = await requirements(text, (s) => serveOsv(s, [recordedOsvRecord('MAL-2023-1578')]));
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    const removed = entryOf(report, 'aiohtt');
    expect(removed?.report.verdictCode).toBe('do-not-use');
    expect(removed?.report.caps.map((c) => c.id)).toContain('malicious');
    expect(removed?.report.checks.find((c) => c.id === 'malicious-package')?.score).toBe(0);
    expect(removed?.report.target).toMatchObject({ ecosystem: 'pypi', version: null });
    expect(removed?.policy.status).toBe('fail');
    expect(report.outcome.exitCode).toBe(1);
    expect(queries()).toEqual([{ package: { name: 'aiohtt', ecosystem: 'PyPI' } }]);
  });

  it('no record for the project: not evaluated (not-found), exit 3', async () => {
    const dir = await requirements('colourama>=0.1\n', (s) => serveOsv(s, [recordedOsvRecord('MAL-2023-1578')]));
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const removed = entryOf(parseAudit(result.stdout), 'colourama');
    expect(removed?.report.error?.code).toBe('not-found');
    expect(removed?.policy.status).toBe('error');
    expect(queries()).toHaveLength(1);
  });

  it('OSV down (503): not evaluated (not-found), exit 3', async () => {
    const dir = await requirements('aiohtt>=2.0\n', (s) => s.fallback('POST', '/osv/', { status: 503, body: 'down' }));
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    expect(entryOf(parseAudit(result.stdout), 'aiohtt')?.report.error?.code).toBe('not-found');
  });
});

describe('nerq check of a project PyPI removed', () => {
  async function removedProject(records: Record<string, unknown>[]): Promise<FixtureServer> {
    requireBuiltCli();
    const s = await startFixtureServer();
    server = s;
    s.fallback('GET', '/pypi/', { status: 404, body: '{"message": "Not Found"}' });
    serveOsv(s, records);
    return s;
  }

  it('no version, a malicious-package record for every version: NO — DO NOT USE, exit 1, one OSV query', async () => {
    const s = await removedProject([recordedOsvRecord('MAL-2023-1578')]);
    const result = await runCli(['check', 'pypi:aiohtt', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(1);
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    expect(report.target).toMatchObject({ ecosystem: 'pypi', name: 'aiohtt', version: null, purl: 'pkg:pypi/aiohtt' });
    expect(s.requests.filter((r) => r.path.startsWith('/osv/')).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /osv/v1/query']);
    expect(report.checks.find((c) => c.id === 'known-vulnerabilities')).toMatchObject({ status: 'unknown', messageId: 'no-version' });
    const text = await runCli(['check', 'pypi:aiohtt', '--no-color'], { server: s });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('MAL-2023-1578  MALICIOUS  affects every version');
  });

  it('no such record: not found, exit 3', async () => {
    const s = await removedProject([]);
    const result = await runCli(['check', 'pypi:aiohtt', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(3);
    expect(ReportSchema.parse(JSON.parse(result.stdout)).error?.code).toBe('not-found');
  });
});

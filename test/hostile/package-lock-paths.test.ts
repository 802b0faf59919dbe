/**
 * Hostile world: package-lock entries npm installs that a reader could skip (docs/security.md,
 * "Lockfile injection"). A known-malicious release locked plainly fails the run (exit 1). The
 * same entry under a key npm reads as the same path (`node_modules/x/`, `node_modules/./x`,
 * `node_modules/y/../x`, …) fails just the same; one under a key npm cannot be said to read as
 * any install path in the project (a backslash, a path out of `node_modules`, a path two keys
 * name) or without a version (`npm ci` re-resolves it from the registry) is unplaced code:
 * the run is incomplete (exit 3), never passed on a note. A `dev: true` flag on a package the
 * project's production dependencies need does not let `--omit dev` leave it out: npm computes
 * dev-ness from the dependency graph and installs it.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { integritiesOf, osvRecord, CVSS_CRITICAL, parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const EVIL: SyntheticPackage = { name: 'nerq-lock-evil', version: '4.1.0' };
const MALICIOUS = { ...osvRecord('MAL-2099-2201', [EVIL.name], CVSS_CRITICAL), affected: [{ package: { ecosystem: 'npm', name: EVIL.name }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }] };

const dirs = new TempDirs();
let server: FixtureServer;
let entry: Record<string, unknown>;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, [MALICIOUS]);
  serveSynthetic(server, EVIL);
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  entry = { version: EVIL.version, resolved: `${server.url('npm')}/${EVIL.name}/-/${EVIL.name}-${EVIL.version}.tgz`, integrity: integritiesOf(EVIL)[EVIL.version]! };
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

async function audit(packages: Record<string, unknown>, group = 'dependencies', flags: string[] = []) {
  const dir = dirs.make();
  const root = { name: 'app', version: '1.0.0', [group]: { [EVIL.name]: `^${EVIL.version}` } };
  writeIn(dir, 'package.json', JSON.stringify(root));
  writeIn(dir, 'package-lock.json', JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages: { '': root, ...packages } }, null, 2));
  const run = await runHostile(['audit', dir, '--json', '--timeout', '30', ...flags], { server });
  const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
  expectCleanStderr(run.stderr, context);
  return { run, report: parseAudit(run.stdout), context };
}

const KEY = `node_modules/${EVIL.name}`;

describe('a package-lock key npm reads as the plain install path', () => {
  const keys = [KEY, `${KEY}/`, `node_modules//${EVIL.name}`, `node_modules/./${EVIL.name}`, `${KEY}/.`, `${KEY}//`, `node_modules/x/../${EVIL.name}`];
  it.concurrent.for(keys)('%j: the malicious release is audited and fails, exit 1', { timeout: CLI_TEST_TIMEOUT_MS }, async (key, { task, expect }) => {
    noteCases(task);
    const { run, report, context } = await audit({ [key]: entry });
    expect(run.code, context).toBe(1);
    expect(report.entries.find((e) => e.subject.name === EVIL.name)?.policy.status, context).toBe('fail');
  });
});

describe('a package-lock entry npm installs from where nerq cannot tell', () => {
  // The entry is known only once the server runs: each case builds its packages then.
  const cases: [string, () => Record<string, unknown>][] = [
    ['a backslash key', () => ({ [`node_modules\\${EVIL.name}`]: entry })],
    ['a key out of the project', () => ({ [`node_modules/../../${EVIL.name}`]: entry })],
    ['two keys for one path', () => ({ [KEY]: entry, [`${KEY}/`]: entry })],
    ['no version, with its resolved', () => ({ [KEY]: { resolved: entry.resolved, integrity: entry.integrity } })],
    ['no version, nothing else', () => ({ [KEY]: {} })],
  ];
  it.concurrent.for(cases)('%s: an unvouched entry, the run incomplete, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, packages], { task, expect }) => {
    noteCases(task);
    const { run, report, context } = await audit(packages());
    expect(run.code, context).toBe(3);
    expect(report.warnings.map((w) => w.code), context).toContain('unvouched-remote');
  });
});

describe('--omit dev and a dev flag the dependency graph contradicts', () => {
  it.concurrent.for([
    ['declared in dependencies, flagged dev', 1, 'dependencies'],
    ['declared in optionalDependencies, flagged dev', 1, 'optionalDependencies'],
    ['declared in devDependencies, flagged dev (honest)', 0, 'devDependencies'],
  ] as const)('%s: exit %s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, code, group], { task, expect }) => {
    noteCases(task);
    const { run, report, context } = await audit({ [KEY]: { ...entry, dev: true } }, group, ['--omit', 'dev']);
    expect(run.code, context).toBe(code);
    expect(report.entries.some((e) => e.subject.name === EVIL.name), context).toBe(code === 1);
  });
});

/**
 * Hostile world: the policy a pull request can rewrite. In pull-request mode
 * (`--changed-since REF`) the checkout is the pull request's, policy file included: the change
 * that adds a bad dependency can also add an ignore entry for it or lower `minScore`. The policy
 * is read as it is at the base revision, the change is reported as a finding of its own (the
 * run fails), and `--policy-from-head` keeps the checkout's policy for teams that want it.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { packageLockV3, parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const KEPT: SyntheticPackage = { name: 'nerq-policy-kept', version: '1.0.0' };
const ADDED: SyntheticPackage = { name: 'nerq-policy-added', version: '2.0.0' };

const STRICT = { minScore: 99 };
const IGNORES_ADDED = { minScore: 99, ignore: [{ package: ADDED.name, reason: 'looks fine to me' }] };
const LAX = { minScore: 0, failOn: 'no' };

const dirs = new TempDirs();
let server: FixtureServer;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, KEPT);
  serveSynthetic(server, ADDED);
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Nerq Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: repo, GIT_CONFIG_NOSYSTEM: '1' },
  }).toString();
}

function lockfiles(packages: SyntheticPackage[]): Record<string, string> {
  const { lock, manifest } = packageLockV3(packages.map((p) => ({ ...p, direct: true })), server.url('npm'));
  return { 'package-lock.json': lock, 'package.json': manifest };
}

/**
 * A repository whose commit `base` locks KEPT with `basePolicy` (`.nerqrc.json`, or none), and
 * whose checkout adds ADDED and holds `headPolicy` (or none).
 */
function pullRequest(basePolicy: object | null, headPolicy: object | null, options: { baseAsSymlink?: string } = {}): string {
  const repo = dirs.project(lockfiles([KEPT]));
  if (options.baseAsSymlink !== undefined) symlinkSync(options.baseAsSymlink, path.join(repo, '.nerqrc.json'));
  else if (basePolicy !== null) writeIn(repo, '.nerqrc.json', JSON.stringify(basePolicy));
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  git(repo, 'tag', 'base');
  for (const [name, content] of Object.entries(lockfiles([KEPT, ADDED]))) writeIn(repo, name, content);
  rmSync(path.join(repo, '.nerqrc.json'), { force: true });
  if (headPolicy !== null) writeIn(repo, '.nerqrc.json', JSON.stringify(headPolicy));
  return repo;
}

async function audit(repo: string, ...args: string[]) {
  const run = await runHostile(['audit', repo, '--changed-since', 'base', '--json', '--timeout', '30', ...args], { server });
  expectCleanStderr(run.stderr, run.stderr);
  return run;
}

const added = (stdout: string) => parseAudit(stdout).entries.find((e) => e.subject.name === ADDED.name);
const policyChanged = (stdout: string) => parseAudit(stdout).warnings.filter((w) => w.code === 'policy-changed').map((w) => w.message);

describe('the policy at the base revision decides, and a change is a finding', () => {
  it.concurrent('an ignore entry the pull request adds for its own new dependency does not apply', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(STRICT, IGNORES_ADDED));
    expect(run.code, run.stderr).toBe(1);
    expect(added(run.stdout)?.policy.status).toBe('fail');
    expect(added(run.stdout)?.policy.failures.map((f) => f.rule)).toContain('min-score');
    expect(policyChanged(run.stdout)).toEqual([expect.stringMatching(/changes ignore in the policy \(\.nerqrc\.json\)/)]);
    expect(run.stderr).toMatch(/^nerq: policy-changed: /m);
  });

  it.concurrent('a minScore and failOn the pull request lowers do not apply', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(STRICT, LAX));
    expect(run.code, run.stderr).toBe(1);
    expect(added(run.stdout)?.policy.failures.map((f) => f.rule)).toContain('min-score');
    expect(policyChanged(run.stdout)).toEqual([expect.stringMatching(/changes failOn, minScore in the policy/)]);
  });

  it.concurrent('a policy the pull request deletes still applies', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(STRICT, null));
    expect(run.code, run.stderr).toBe(1);
    expect(parseAudit(run.stdout).policySource).toBe('.nerqrc.json');
    expect(added(run.stdout)?.policy.failures.map((f) => f.rule)).toContain('min-score');
    expect(policyChanged(run.stdout)).toEqual([expect.stringMatching(/removes the policy/)]);
  });

  it.concurrent('a policy the pull request adds is reported, and the defaults apply', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(null, IGNORES_ADDED));
    expect(run.code, run.stderr).toBe(1);
    expect(parseAudit(run.stdout).policySource).toBeNull();
    expect(added(run.stdout)?.policy.status).not.toBe('ignored');
    expect(policyChanged(run.stdout)).toEqual([expect.stringMatching(/adds a policy/)]);
  });

  it.concurrent('a policy that is a symbolic link at the base is not followed: bad input', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(null, STRICT, { baseAsSymlink: '/etc/hostname' }));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^nerq: \.nerqrc\.json: not a regular file at base/);
  });

  it.concurrent('an unchanged policy: no finding, and it applies', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(IGNORES_ADDED, IGNORES_ADDED));
    expect(added(run.stdout)?.policy.status).toBe('ignored');
    expect(policyChanged(run.stdout)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
  });

  it.concurrent('--policy-from-head: the checkout\'s policy applies, as before', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(pullRequest(STRICT, IGNORES_ADDED), '--policy-from-head');
    expect(added(run.stdout)?.policy.status).toBe('ignored');
    expect(policyChanged(run.stdout)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
  });
});

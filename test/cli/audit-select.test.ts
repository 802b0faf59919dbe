/**
 * Choosing what an audit evaluates, through the built CLI with the request log as the
 * proof: `--changed-since <ref>` in a temporary git repository evaluates only what was added or
 * changed since the ref; `--direct` only direct dependencies; `--omit dev` only production ones.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { kindOf, osvQueries, packageLockV3, parseAudit, serveSynthetic, useAuditServer, writeIn, type LockEntry, type SyntheticPackage } from './audit-helpers.js';
import { expectUsageError } from './helpers.js';

const pkg = (name: string, version: string): SyntheticPackage => ({ name: `nerq-audit-${name}`, version });

let server: FixtureServer;

const dirs = useAuditServer({}, (started) => {
  server = started;
});

/** Run `nerq audit` and return the result with the requests it sent. */
async function audit(args: string[], cwd?: string) {
  const before = server.requests.length;
  const result = await runCli(['audit', ...args], { server, ...(cwd === undefined ? {} : { cwd }) });
  return { ...result, requests: server.requests.slice(before) };
}

/** The packages whose packuments a run fetched, sorted. */
const fetched = (requests: typeof server.requests) =>
  requests
    .filter((r) => kindOf(r) === 'packument-full')
    .map((r) => decodeURIComponent(r.path.slice('/npm/'.length)))
    .sort();

const evaluated = (stdout: string) =>
  parseAudit(stdout)
    .entries.map((e) => `${e.subject.name}@${e.subject.version}`)
    .sort();

function lockfiles(entries: LockEntry[]): Record<string, string> {
  const { lock, manifest } = packageLockV3(entries, server.url('npm'));
  return { 'package-lock.json': lock, 'package.json': manifest };
}

describe('--changed-since', () => {
  const KEPT = pkg('kept', '1.0.0');
  const BUMPED_BEFORE = pkg('bumped', '1.0.0');
  const BUMPED = pkg('bumped', '1.1.0');
  const ADDED = pkg('added', '2.0.0');
  let repo: string;

  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Nerq Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: repo, GIT_CONFIG_NOSYSTEM: '1' },
    }).toString();

  beforeAll(() => {
    for (const p of [KEPT, BUMPED, ADDED]) serveSynthetic(server, p);
    // The base commit locks kept@1.0.0 and bumped@1.0.0; the working tree bumps one and adds one.
    repo = dirs.project(lockfiles([KEPT, BUMPED_BEFORE].map((p) => ({ ...p, direct: true }))));
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    git('tag', 'base');
    for (const [name, content] of Object.entries(lockfiles([KEPT, BUMPED, ADDED].map((p) => ({ ...p, direct: true }))))) writeIn(repo, name, content);
  });

  it('evaluates only what was added or changed since the ref', async () => {
    const result = await audit(['--changed-since', 'base', '--json'], repo);
    expect(result.code, result.stderr).toBe(0);
    expect(evaluated(result.stdout)).toEqual([`${ADDED.name}@2.0.0`, `${BUMPED.name}@1.1.0`]);
    // The request log: only their packuments, and OSV asked about them alone.
    expect(fetched(result.requests)).toEqual([ADDED.name, BUMPED.name]);
    const batches = osvQueries(result.requests);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.map((q) => `${q.package.name}@${q.version}`).sort()).toEqual([`${ADDED.name}@2.0.0`, `${BUMPED.name}@1.1.0`]);
  });

  it('at HEAD of an unchanged tree nothing is evaluated and nothing is asked', async () => {
    git('stash', '-q');
    try {
      const result = await audit(['--changed-since', 'HEAD', '--json'], repo);
      expect(result.code, result.stderr).toBe(0);
      expect(parseAudit(result.stdout).summary.total).toBe(0);
      expect(result.requests).toEqual([]);
    } finally {
      git('stash', 'pop', '-q');
    }
  });

  it('a ref that is not a revision is bad input, before any request', async () => {
    const result = await audit(['--changed-since', 'no-such-branch', '--json'], repo);
    expectUsageError(result);
    expect(result.stderr).toBe('nerq: --changed-since: "no-such-branch" is not a revision of this repository\n');
    expect(result.requests).toEqual([]);
  });

  it('outside a git repository it is bad input too', async () => {
    const dir = dirs.project(lockfiles([{ ...KEPT, direct: true }]));
    const result = await audit([dir, '--changed-since', 'HEAD']);
    expectUsageError(result);
    expect(result.stderr).toBe('nerq: --changed-since: the audited directory is not in a git repository\n');
    expect(result.requests).toEqual([]);
  });
});

describe('--direct and --omit dev', () => {
  const DIRECT_PROD = pkg('direct-prod', '3.0.0');
  const DIRECT_DEV = pkg('direct-dev', '1.5.0');
  const TRANSITIVE_PROD = pkg('transitive-prod', '0.8.0');
  const TRANSITIVE_DEV = pkg('transitive-dev', '4.2.1');
  let project: string;

  beforeAll(() => {
    for (const p of [DIRECT_PROD, DIRECT_DEV, TRANSITIVE_PROD, TRANSITIVE_DEV]) serveSynthetic(server, p);
    project = dirs.project(
      lockfiles([
        { ...DIRECT_PROD, direct: true },
        { ...DIRECT_DEV, direct: true, dev: true },
        { ...TRANSITIVE_PROD },
        { ...TRANSITIVE_DEV, dev: true },
      ]),
    );
  });

  it.each([
    ['(all)', [], [DIRECT_DEV, DIRECT_PROD, TRANSITIVE_DEV, TRANSITIVE_PROD]],
    ['--direct', ['--direct'], [DIRECT_DEV, DIRECT_PROD]],
    ['--omit dev', ['--omit', 'dev'], [DIRECT_PROD, TRANSITIVE_PROD]],
    ['--direct --omit dev', ['--direct', '--omit', 'dev'], [DIRECT_PROD]],
  ])('%s', async (_label, flags, expected) => {
    const result = await audit([project, ...flags, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const names = expected.map((p) => p.name).sort();
    expect(evaluated(result.stdout)).toEqual(expected.map((p) => `${p.name}@${p.version}`).sort());
    expect(fetched(result.requests)).toEqual(names);
    expect(osvQueries(result.requests)[0]?.map((q) => q.package.name).sort()).toEqual(names);
  });

  it('--omit accepts only dev', async () => {
    const result = await audit([project, '--omit', 'optional']);
    expectUsageError(result);
    expect(result.stderr).toBe('nerq: --omit accepts only dev\n');
    expect(result.requests).toEqual([]);
  });
});

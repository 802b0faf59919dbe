/**
 * `nerq audit` over a monorepo whose lockfile pulls dependencies from a git repository and a
 * tarball URL no registry vouches for (README.md, "Exit codes"; docs/security.md): the run is
 * INCOMPLETE (exit 3) with an `unvouched-remote` finding per entry at its line, in every format,
 * without the credentials the URLs carry; `--allow-incomplete` or a policy ignore entry naming
 * the package accepts them (an expired one fails the run); the workspace links and `file:`
 * dependencies — the project's own code — never change the exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { packageLockV3, parseAudit, useAuditServer, type SyntheticPackage } from './audit-helpers.js';

const TOKEN = 'ghp_unvouchedR3moteT0ken';
const SHA = '0123456789abcdef0123456789abcdef01234567';
const PACKAGES: SyntheticPackage[] = [{ name: 'nerq-audit-first', version: '1.0.0' }];

let server: FixtureServer;

/** The monorepo: a registry package, two workspaces, a `file:` dependency, and (unless `localOnly`) a git and a tarball-URL dependency. */
function monorepo(files: Record<string, string> = {}, localOnly = false): string {
  const { lock, manifest } = packageLockV3(PACKAGES.map((p) => ({ ...p, direct: true })), server.url('npm'));
  const lockJson = JSON.parse(lock) as { packages: Record<string, Record<string, unknown>> };
  const root = JSON.parse(manifest) as Record<string, unknown> & { dependencies: Record<string, string> };
  const remoteSpecs = localOnly
    ? {}
    : { helper: `git+https://ci:${TOKEN}@github.com/acme/helper.git#v1`, tarred: `https://ci:${TOKEN}@files.example.com/tarred-1.0.0.tgz` };
  const dependencies = { ...root.dependencies, ...remoteSpecs, local: 'file:vendor/local', 'lib-a': '*' };
  const rootEntry = { ...lockJson.packages[''], workspaces: ['packages/*'], dependencies };
  const packages: Record<string, unknown> = {
    '': rootEntry,
    ...Object.fromEntries(Object.entries(lockJson.packages).filter(([key]) => key !== '')),
    'node_modules/lib-a': { resolved: 'packages/lib-a', link: true },
    'node_modules/lib-b': { resolved: 'packages/lib-b', link: true },
    'node_modules/local': { resolved: 'vendor/local', link: true },
    'packages/lib-a': { name: 'lib-a', version: '1.0.0', dependencies: { 'lib-b': '*' } },
    'packages/lib-b': { name: 'lib-b', version: '1.0.0' },
    'vendor/local': { name: 'local', version: '1.0.0' },
    ...(localOnly
      ? {}
      : {
          'node_modules/helper': { version: '1.0.0', resolved: `git+https://ci:${TOKEN}@github.com/acme/helper.git#${SHA}` },
          'node_modules/tarred': { version: '1.0.0', resolved: `https://ci:${TOKEN}@files.example.com/tarred-1.0.0.tgz`, integrity: 'sha512-dGFycmVk' },
        }),
  };
  return dirs.project({
    'package-lock.json': `${JSON.stringify({ ...lockJson, packages }, null, 2)}\n`,
    'package.json': `${JSON.stringify({ ...root, workspaces: ['packages/*'], dependencies }, null, 2)}\n`,
    'packages/lib-a/package.json': `${JSON.stringify({ name: 'lib-a', version: '1.0.0', dependencies: { 'lib-b': 'workspace:*' } })}\n`,
    'packages/lib-b/package.json': `${JSON.stringify({ name: 'lib-b', version: '1.0.0' })}\n`,
    'vendor/local/package.json': `${JSON.stringify({ name: 'local', version: '1.0.0' })}\n`,
    ...files,
  });
}

/** The line of the root package.json declaring `name`: in a workspace project an entry is reported where a manifest declares it, as packages are. */
const declaredAt = (dir: string, name: string): number => readFileSync(path.join(dir, 'package.json'), 'utf8').split('\n').findIndex((l) => l.includes(`"${name}": `)) + 1;

const dirs = useAuditServer({ packages: PACKAGES }, (started) => {
  server = started;
});

const policy = (ignore: unknown[]) => ({ '.nerqrc.json': `${JSON.stringify({ ignore }, null, 2)}\n` });

describe('nerq audit with dependencies from a git repository or URL', () => {
  it('JSON: incomplete (exit 3), one unvouched-remote finding per entry at its line with its host; the registry package passes; local entries are notes', async () => {
    const dir = monorepo();
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    expect(report.outcome).toEqual({ result: 'incomplete', exitCode: 3, allowIncomplete: false });
    expect(report.summary).toMatchObject({ total: 1, passed: 1, failed: 0, errors: 0, incomplete: 0 });
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host, w.details.file, w.details.line])).toEqual([
      ['helper', 'github.com', 'package.json', declaredAt(dir, 'helper')],
      ['tarred', 'files.example.com', 'package.json', declaredAt(dir, 'tarred')],
    ]);
    expect(report.unvouched?.map((u) => [u.name, u.status, u.source])).toEqual([
      ['helper', 'unvouched', `git+https://github.com/acme/helper.git#${SHA}`],
      ['tarred', 'unvouched', 'https://files.example.com/tarred-1.0.0.tgz'],
    ]);
    // No note repeats a finding; the workspace links and the file: dependency say nothing that changes the outcome.
    expect(report.warnings.filter((w) => w.code === 'input-note' && /"(helper|tarred)"/.test(w.message))).toEqual([]);
    // Nothing is asked of the git host or the tarball host.
    expect(server.requests.some((r) => r.path.includes('nerq-audit-first'))).toBe(true);
    expect(server.requests.filter((r) => /helper|tarred/.test(r.path))).toEqual([]);
  });

  it.each([
    ['table', []],
    ['markdown', ['--format', 'markdown']],
    ['sarif', ['--format', 'sarif']],
    ['json', ['--json']],
  ])('%s: exit 3, names both entries, and no credential appears', async (format, args) => {
    const dir = monorepo();
    const result = await runCli(['audit', dir, ...args], { server, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code, result.stderr).toBe(3);
    const out = `${result.stdout}${result.stderr}`;
    expect(out.includes(TOKEN), format).toBe(false);
    expect(out.includes('ci:'), format).toBe(false);
    expect(out, format).toContain('github.com');
    expect(out, format).toContain('files.example.com');
    expect(out, format).toMatch(/package\.json/);
    if (format === 'sarif') {
      const sarif = JSON.parse(result.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region?: { startLine: number } } }[] }[] }[] };
      const results = sarif.runs[0]!.results.filter((r) => r.ruleId === 'policy/unvouched-remote');
      expect(results.map((r) => r.locations[0]?.physicalLocation.region?.startLine)).toEqual([declaredAt(dir, 'helper'), declaredAt(dir, 'tarred')]);
      expect(results.map((r) => (r.locations[0]?.physicalLocation as { artifactLocation?: { uri: string } }).artifactLocation?.uri)).toEqual(['package.json', 'package.json']);
    }
    if (format === 'table' || format === 'markdown') expect(result.stdout).toContain('INCOMPLETE');
  });

  it('--allow-incomplete: exit 0, the entries still listed as unvouched', async () => {
    const result = await runCli(['audit', monorepo(), '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(report.unvouched?.map((u) => u.status)).toEqual(['unvouched', 'unvouched']);
  });

  it('a policy ignore entry naming each package (reason required): exit 0, listed as ignored with the reason', async () => {
    const dir = monorepo(policy([
      { package: 'helper', reason: 'our fork, reviewed at each bump', expires: '2099-12-31' },
      { package: 'npm:tarred', reason: 'vendor build, checksum pinned' },
    ]));
    const result = await runCli(['audit', dir, '--json'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.unvouched?.map((u) => [u.name, u.status, u.ignoredBy?.reason])).toEqual([
      ['helper', 'ignored', 'our fork, reviewed at each bump'],
      ['tarred', 'ignored', 'vendor build, checksum pinned'],
    ]);
    expect(report.warnings.filter((w) => w.code.startsWith('unvouched-remote')).map((w) => w.code)).toEqual(['unvouched-remote-ignored', 'unvouched-remote-ignored']);
  });

  it('an ignore entry for one of them leaves the other unvouched (exit 3); an expired one fails the run (exit 1)', async () => {
    const one = await runCli(['audit', monorepo(policy([{ package: 'helper', reason: 'reviewed' }])), '--json'], { server });
    expect(one.code, one.stderr).toBe(3);
    expect(parseAudit(one.stdout).unvouched?.map((u) => [u.name, u.status])).toEqual([['helper', 'ignored'], ['tarred', 'unvouched']]);
    const expired = await runCli(['audit', monorepo(policy([{ package: 'helper', reason: 'reviewed', expires: '2020-01-01' }, { package: 'tarred', reason: 'reviewed' }])), '--json'], { server });
    expect(expired.code, expired.stderr).toBe(1);
    const report = parseAudit(expired.stdout);
    expect(report.unvouched?.map((u) => [u.name, u.status])).toEqual([['helper', 'unvouched'], ['tarred', 'ignored']]);
    expect(report.warnings.map((w) => w.code)).toContain('ignore-expired');
  });

  it('--omit dev leaves out a remote entry the lockfile marks dev-only', async () => {
    const dir = monorepo();
    const file = path.join(dir, 'package-lock.json');
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, Record<string, unknown>> };
    lock.packages['node_modules/helper'] = { ...lock.packages['node_modules/helper'], dev: true };
    // npm counts a package dev only where the graph agrees with the flag: the root declares helper for development.
    const { helper, ...dependencies } = lock.packages['']!.dependencies as Record<string, string>;
    lock.packages[''] = { ...lock.packages[''], dependencies, devDependencies: { helper } };
    writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
    const all = await runCli(['audit', dir, '--json'], { server });
    expect(parseAudit(all.stdout).unvouched?.map((u) => u.name)).toEqual(['helper', 'tarred']);
    const prod = await runCli(['audit', dir, '--json', '--omit', 'dev'], { server });
    expect(prod.code, prod.stderr).toBe(3);
    expect(parseAudit(prod.stdout).unvouched?.map((u) => u.name)).toEqual(['tarred']);
  });

  it('workspace links and file: dependencies alone never change the exit code', async () => {
    const result = await runCli(['audit', monorepo({}, true), '--json'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.outcome.result).toBe('pass');
    expect(report.unvouched).toBeUndefined();
    expect(report.warnings.filter((w) => w.code.startsWith('unvouched'))).toEqual([]);
  });
});

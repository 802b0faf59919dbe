/**
 * The published package: the right files, and a packed `bin` that runs outside the source
 * tree with nothing but Node (registry installs do not run `prepare`, and the runtime
 * dependencies are bundled into dist/).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, REPO_ROOT } from '../support/run-cli.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

const npmCli = process.env.npm_execpath;
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

function npm(args: string[], cwd: string): string {
  // Run npm with the Node that runs the tests; fall back to `npm` on PATH.
  return npmCli
    ? execFileSync(process.execPath, [npmCli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } })
    : execFileSync('npm', args, { cwd, encoding: 'utf8' });
}

describe('npm pack', () => {
  let dir: string;
  let unpacked: string;
  let server: FixtureServer;

  beforeAll(async () => {
    expect(existsSync(path.join(REPO_ROOT, 'dist', 'cli.js')), 'dist/cli.js missing: run `npm run build`').toBe(true);
    dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-pack-'));
    const out = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], REPO_ROOT)) as { filename: string }[];
    execFileSync('tar', ['-xzf', path.join(dir, out[0]!.filename), '-C', dir]);
    unpacked = path.join(dir, 'package');
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ships dist/, bin/, the schema, README and licence, and nothing of the source tree', () => {
    const files = (JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], REPO_ROOT)) as { files: { path: string }[] }[])[0]!.files
      .map((f) => f.path)
      .sort();
    expect(files).toContain('bin/nerq.js');
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('dist/THIRD-PARTY-LICENSES.txt');
    expect(files).toContain('schema/report.schema.json');
    expect(files).toContain('README.md');
    expect(files).toContain('LICENSE');
    // The reference docs ship (SARIF rules link to this version's docs/checks.md).
    expect(files).toContain('docs/checks.md');
    expect(files.filter((f) => f.startsWith('docs/') && !f.endsWith('.md'))).toEqual([]);
    expect(files.filter((f) => /^(src|test|fixtures|bench|scripts)\//.test(f) || f === 'tsconfig.json')).toEqual([]);
  });

  const env = (home: string, extra: Record<string, string> = {}) => ({
    PATH: path.dirname(process.execPath),
    HOME: home,
    NO_COLOR: '1',
    NERQ_NOW: '2026-11-30T00:00:00Z',
    ...extra,
  });

  it('the packed bin prints its version outside the source tree, with no node_modules and no network', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-pack-home-'));
    try {
      expect(existsSync(path.join(unpacked, 'node_modules'))).toBe(false);
      const result = spawnSync(process.execPath, [path.join(unpacked, 'bin', 'nerq.js'), '--version'], { cwd: home, env: env(home), encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe(pkg.version);
      expect(result.status).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('the packed bin runs a whole check (every runtime dependency is bundled)', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-pack-home-'));
    server.expect('GET', '/npm/nerq-fixture-bare').expect('GET', '/npm/nerq-fixture-bare/-/nerq-fixture-bare-1.0.0.tgz');
    server.expect('GET', '/npm-api/downloads/point/last-week/nerq-fixture-bare', { status: 404, body: '{"error":"package nerq-fixture-bare not found"}' });
    server.expect('GET', '/npm-api/downloads/point/last-year/nerq-fixture-bare', { status: 404, body: '{"error":"package nerq-fixture-bare not found"}' });
    server.expect('POST', '/osv/v1/querybatch', { status: 200, body: '{"results":[{}]}' });
    try {
      // Asynchronous: the fixture server answers from this very process.
      const result = await promisify(execFile)(process.execPath, [path.join(unpacked, 'bin', 'nerq.js'), 'check', 'nerq-fixture-bare', '--json'], {
        cwd: home,
        encoding: 'utf8',
        // Every endpoint on the loopback server (cliEnv): nothing may reach for the internet.
        env: env(home, cliEnv(home, { server })),
      }).catch((error: { stdout: string }) => error);
      const report = JSON.parse(result.stdout) as { target: { name: string }; score: number | null; sources: { id: string; status: string }[] };
      expect(report.target.name).toBe('nerq-fixture-bare');
      expect(typeof report.score).toBe('number');
      expect(report.sources.find((s) => s.id === 'vulnerabilities')?.status).toBe('ok');
      expectNoUnexpected(server);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

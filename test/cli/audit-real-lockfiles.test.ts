/**
 * `nerq audit` end to end on real lockfiles (fixtures/lockfiles/real/, see fixtures/PROVENANCE.md),
 * against a loopback registry whose answers are synthesised from the lockfile itself: every
 * release it pins is published with the very integrity (and sha1) the lockfile pins. On such data
 * the lockfile checks must find nothing — no lockfile injection, no dependency confusion — and a
 * single tampered pin must be found, alone.
 *
 * The pins are parsed independently of nerq's readers (test/lockfiles/real-pins.ts), so that the
 * served registry does not echo what nerq read.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, type RouteHandler } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { packageLockPins, yarnClassicPins, type Pin } from '../lockfiles/real-pins.js';
import { kindOf, parseAudit, serveOsv, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const REAL = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real');
const LOCK_RULES = ['lockfile-injection', 'dependency-confusion'];

/**
 * The registry the pins describe, under `/npm/` (full packuments) and `/npm-public/`
 * (abbreviated): each release with the lockfile's integrity and sha1, its tarball under `/npm/`.
 */
function serveRegistryOf(server: FixtureServer, pins: readonly Pin[]): void {
  const byName = new Map<string, Pin[]>();
  for (const pin of pins) {
    const list = byName.get(pin.name) ?? [];
    if (!list.some((p) => p.version === pin.version)) list.push(pin);
    byName.set(pin.name, list);
  }
  const packument = (name: string, registry: string): Record<string, unknown> | null => {
    const releases = byName.get(name);
    if (releases === undefined) return null;
    const file = (version: string) => `${registry}/${name}/-/${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
    const versions = Object.fromEntries(
      releases.map((p) => [
        p.version,
        {
          name,
          version: p.version,
          license: 'MIT',
          dist: { ...(p.integrity === null ? {} : { integrity: p.integrity }), ...(p.shasum === null ? {} : { shasum: p.shasum }), tarball: file(p.version) },
        },
      ]),
    );
    const time = Object.fromEntries(releases.map((p) => [p.version, '2025-06-01T00:00:00.000Z']));
    // The last pinned release is `latest` (which one does not matter to the lockfile checks).
    return { name, 'dist-tags': { latest: releases.at(-1)!.version }, versions, time: { created: '2025-06-01T00:00:00.000Z', modified: '2025-06-01T00:00:00.000Z', ...time } };
  };
  const handler =
    (prefix: string): RouteHandler =>
    (req, res, { url }) => {
      const rest = decodeURIComponent(url.pathname.slice(prefix.length + 2));
      const doc = rest.includes('/-/') ? null : packument(rest, server.url('npm'));
      res.writeHead(doc === null ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc ?? { error: 'Not found' }));
      void req;
    };
  server.routePrefix('GET', '/npm/', handler('npm'));
  server.routePrefix('GET', '/npm-public/', handler('npm-public'));
  server.fallback('GET', '/npm-api/', { status: 404 });
  serveOsv(server, []);
}

/** The policy rules each package fails, for the lockfile rules only: `name@version rule`. */
function lockFindings(report: ReturnType<typeof parseAudit>): string[] {
  return report.entries.flatMap((e) => e.policy.failures.filter((f) => LOCK_RULES.includes(f.rule)).map((f) => `${e.subject.name}@${e.subject.version} ${f.rule}`));
}

/** The exit code the report's own summary calls for (docs/checks.md: 3 incomplete, 1 a failure, else 0). */
const exitFor = (report: ReturnType<typeof parseAudit>): number => (report.summary.errors + report.summary.incomplete > 0 ? 3 : report.summary.failed > 0 ? 1 : 0);

const dirs = new TempDirs();
const servers: FixtureServer[] = [];

beforeAll(() => requireBuiltCli());

afterEach(async () => {
  for (const server of servers.splice(0)) {
    expectNoUnexpected(server);
    await server.close();
  }
});

afterAll(() => dirs.cleanUp());

async function server(): Promise<FixtureServer> {
  const started = await startFixtureServer();
  servers.push(started);
  return started;
}

/** A copy of `real/<fixture>` with `{{REGISTRY}}` → `registry`, and `edit` applied to `lockfile`. */
function projectCopy(fixture: string, lockfile: string, registry: string, edit: (text: string) => string = (t) => t): string {
  const dir = dirs.make('nerq-real-audit-');
  cpSync(path.join(REAL, fixture), dir, { recursive: true });
  const file = path.join(dir, lockfile);
  writeFileSync(file, edit(readFileSync(file, 'utf8').replaceAll('{{REGISTRY}}', registry)));
  return dir;
}

describe('nerq audit of a real package-lock.json v3 with workspaces (modelcontextprotocol/servers)', () => {
  const text = readFileSync(path.join(REAL, 'modelcontextprotocol__servers', 'package-lock.json'), 'utf8');
  const pins = packageLockPins(text);

  it('finds no lockfile injection and no dependency confusion on the honest lockfile', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy('modelcontextprotocol__servers', 'package-lock.json', main.url('npm'));
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    // python3: 284 distinct name@version under node_modules/ (the 4 workspace links excluded).
    expect(new Set(pins.map((p) => `${p.name}@${p.version}`)).size).toBe(284);
    expect(report.summary.total).toBe(284);
    expect(lockFindings(report)).toEqual([]);
    expect(result.code, result.stderr).toBe(exitFor(report));
    // Scoped names were asked for with their encoded slash, each once.
    expect(main.requests.filter((r) => r.path === '/npm/@modelcontextprotocol%2fsdk' && kindOf(r) === 'packument-full')).toHaveLength(1);
  });

  it('finds the one pin whose integrity is not the registry release, and only it', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const zod = pins.find((p) => p.name === 'zod')!;
    const other = `sha512-${Buffer.alloc(64, 9).toString('base64')}`;
    const dir = projectCopy('modelcontextprotocol__servers', 'package-lock.json', main.url('npm'), (t) => t.replace(zod.integrity!, other));
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    expect(lockFindings(report)).toEqual([`zod@${zod.version} lockfile-injection`]);
    expect(result.code, result.stderr).toBe(exitFor(report));
    expect(result.code).not.toBe(0);
  });
});

describe('nerq audit of a real yarn classic lockfile (honojs/hono benchmarks/jsx)', () => {
  const text = readFileSync(path.join(REAL, 'honojs__hono', 'benchmarks', 'jsx', 'yarn.lock'), 'utf8');
  const pins = yarnClassicPins(text);

  it('resolved from the configured registry: no finding', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy(path.join('honojs__hono', 'benchmarks', 'jsx'), 'yarn.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    // 62 entries, every one with `integrity sha512-…` and a `#<sha1>` resolved.
    expect(pins).toHaveLength(62);
    expect(pins.filter((p) => p.integrity === null || p.shasum === null)).toEqual([]);
    expect(report.summary.total).toBe(62);
    expect(lockFindings(report)).toEqual([]);
    expect(result.code, result.stderr).toBe(exitFor(report));
  });

  it("resolved from another origin serving the public registry's bytes (as yarn's own registry alias does): no dependency confusion", async () => {
    // yarn classic writes its own registry host into `resolved`, not the one npm is configured
    // with; the bytes it pins are the public registry's. A second origin stands for that host.
    const main = await server();
    const alias = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy(path.join('honojs__hono', 'benchmarks', 'jsx'), 'yarn.lock', alias.url('npm'));
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    expect(report.summary.total).toBe(62);
    expect(lockFindings(report)).toEqual([]);
    expect(result.code, result.stderr).toBe(exitFor(report));
    expect(alias.requests).toEqual([]);
  });

  it('resolved from another origin pinning other bytes than the public release: flagged', async () => {
    const main = await server();
    const alias = await server();
    serveRegistryOf(main, pins);
    const typescript = pins.find((p) => p.name === 'typescript')!;
    const other = `sha512-${Buffer.alloc(64, 9).toString('base64')}`;
    const dir = projectCopy(path.join('honojs__hono', 'benchmarks', 'jsx'), 'yarn.lock', alias.url('npm'), (t) =>
      t.replace(typescript.integrity!, other).replace(`#${typescript.shasum!}`, ''),
    );
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    expect(lockFindings(report).sort()).toEqual([`typescript@${typescript.version} dependency-confusion`, `typescript@${typescript.version} lockfile-injection`]);
    expect(result.code).toBe(1);
  });
});

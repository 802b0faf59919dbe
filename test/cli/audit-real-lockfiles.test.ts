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
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer, type RouteHandler } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { packageLockPins, pnpmPins, uvRegistryPins, yarnBerryPins, yarnClassicPins, type Pin, type UvPin } from '../lockfiles/real-pins.js';
import { kindOf, parseAudit, serveOsv, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const REAL = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real');
const LOCK_RULES = ['lockfile-injection', 'dependency-confusion'];

/**
 * The registry the pins describe, under `/npm/` (full packuments) and `/npm-public/`
 * (abbreviated): each release with the lockfile's integrity and sha1, its tarball under `/npm/`.
 * `notPublic`: names the public registry (`/npm-public/`) does not have.
 */
function serveRegistryOf(server: FixtureServer, pins: readonly Pin[], notPublic: (name: string) => boolean = () => false): void {
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
      const doc = rest.includes('/-/') || (prefix === 'npm-public' && notPublic(rest)) ? null : packument(rest, server.url('npm'));
      res.writeHead(doc === null ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc ?? { error: 'Not found' }));
      void req;
    };
  server.routePrefix('GET', '/npm/', handler('npm'));
  server.routePrefix('GET', '/npm-public/', handler('npm-public'));
  // Download counts, as every published package has them (one per name, bulk or single).
  server.routePrefix('GET', '/npm-api/downloads/point/', (req, res) => {
    // `/npm-api/downloads/point/<period>/<name>[,<name>…]`, a scoped name with its slash.
    const rest = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice('/npm-api/downloads/point/'.length);
    const names = rest.slice(rest.indexOf('/') + 1).split(',');
    const count = (n: string) => ({ downloads: 10_000, start: '2025-11-22', end: '2025-11-28', package: n });
    res.writeHead(byName.has(names[0] ?? '') || names.length > 1 ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(names.length > 1 ? Object.fromEntries(names.map((n) => [n, byName.has(n) ? count(n) : null])) : count(names[0] ?? '')));
  });
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
const server = useFixtureServers();

beforeAll(() => requireBuiltCli());

afterAll(() => dirs.cleanUp());

/** A copy of `real/<fixture>` with `{{REGISTRY}}` → `registry` (lockfile and package.json), and `edit` applied to `lockfile`. */
function projectCopy(fixture: string, lockfile: string, registry: string, edit: (text: string) => string = (t) => t): string {
  const dir = dirs.make('nerq-real-audit-');
  cpSync(path.join(REAL, fixture), dir, { recursive: true });
  const file = path.join(dir, lockfile);
  writeFileSync(file, edit(readFileSync(file, 'utf8').replaceAll('{{REGISTRY}}', registry)));
  const manifest = path.join(dir, 'package.json');
  if (existsSync(manifest)) writeFileSync(manifest, readFileSync(manifest, 'utf8').replaceAll('{{REGISTRY}}', registry));
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
    // Every release is the registry's own, nothing else fails the default policy: a pass.
    expect(result.code).toBe(0);
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
    expect(report.summary).toMatchObject({ total: 284, failed: 1 });
    expect(result.code, result.stderr).toBe(1);

    // The finding is about the pin, not the declaration: zod is declared by a workspace
    // (src/everything/package.json) and pinned at `"node_modules/zod": {` of the lockfile.
    const pinLine = text.split('\n').findIndex((l) => l.trim() === '"node_modules/zod": {') + 1;
    const manifestLine = readFileSync(path.join(REAL, 'modelcontextprotocol__servers', 'src', 'everything', 'package.json'), 'utf8').split('\n').findIndex((l) => l.includes('"zod"')) + 1;
    expect(pinLine).toBeGreaterThan(0);
    const entry = report.entries.find((e) => e.subject.name === 'zod')!;
    expect(entry.subject.declaredIn[0]).toMatchObject({ file: 'src/everything/package.json', line: manifestLine });
    expect(entry.policy.failures[0]).toMatchObject({ rule: 'lockfile-injection', at: { file: 'package-lock.json', line: pinLine } });
    // SARIF (as GitHub code scanning reads it): the result points at that lockfile line, relative to the repository root.
    const sarif = await runCli(['audit', dir, '--format', 'sarif'], { server: main });
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; properties: { package: string }; locations: { physicalLocation: unknown }[] }[] }[] }).runs[0]!.results;
    const zodResult = results.find((r) => r.properties.package === 'zod');
    expect(zodResult?.ruleId).toBe('policy/lockfile-injection');
    expect(zodResult?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'package-lock.json' }, region: { startLine: pinLine } } }]);
  });
});

describe('nerq audit of a real yarn berry lockfile whose scope comes from GitHub Packages (flex-development/aggregate-error-ponyfill)', () => {
  const fixture = 'flex-development__aggregate-error-ponyfill';
  const text = readFileSync(path.join(REAL, fixture, 'yarn.lock'), 'utf8');
  const pins = yarnBerryPins(text);
  // The seven @flex-development packages package.json declares, all fetched from an `__archiveUrl` on npm.pkg.github.com.
  const ARCHIVED_DIRECT = ['@flex-development/commitlint-config@1.0.1', '@flex-development/esm-types@1.0.0', '@flex-development/mkbuild@1.0.0-alpha.20', '@flex-development/mlly@1.0.0-alpha.15', '@flex-development/pathe@1.0.3', '@flex-development/tsconfig-utils@1.1.2', '@flex-development/tutils@6.0.0-alpha.10'];

  it('archive URLs on the configured registry\'s host: each package audited as the release it names, no finding', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    // Edit, said here: the fixture server stands in for GitHub Packages (`https%3A%2F%2Fnpm.pkg.github.com` → its origin, encoded as yarn writes it).
    const dir = projectCopy(fixture, 'yarn.lock', main.url('npm'), (t) => t.replaceAll('https%3A%2F%2Fnpm.pkg.github.com', encodeURIComponent(main.url('npm'))));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main });
    const report = parseAudit(result.stdout);
    // python3 json: 2 dependencies + 77 devDependencies, every one an npm: resolution.
    expect(report.summary.total, result.stderr).toBe(79);
    const ids = report.entries.map((e) => `${e.subject.name}@${e.subject.version}`);
    expect(ids.filter((id) => id.startsWith('@flex-development/')).sort()).toEqual(ARCHIVED_DIRECT);
    expect(lockFindings(report)).toEqual([]);
    expect(result.code, result.stderr).toBe(exitFor(report));
    // Before, each of the seven was an unvouched remote and the run INCOMPLETE (exit 3). The git
    // dependency @ardatan/sync-fetch is transitive: --direct leaves it out. Nothing else fails.
    expect(report.unvouched ?? []).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('archive URLs on a host npm is not configured for (the lockfile and .yarnrc.yml as recorded): each of those packages fails with lockfile-injection', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy(fixture, 'yarn.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main });
    const report = parseAudit(result.stdout);
    expect(report.summary.total, result.stderr).toBe(79);
    expect(lockFindings(report).filter((f) => f.endsWith(' lockfile-injection')).map((f) => f.slice(0, -' lockfile-injection'.length)).sort()).toEqual(ARCHIVED_DIRECT);
    // The project's own .yarnrc.yml names npm.pkg.github.com for the scope: untrusted, not followed.
    expect((report as unknown as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toContain('yarnrc-ignored');
    expect(result.code, result.stderr).toBe(1);
  });

  // The project names GitHub Packages for its scope in its recorded .yarnrc.yml
  // (`npmScopes.flex-development.npmRegistryServer`, with `npmAuthToken: ${GITHUB_TOKEN:-$PAT_BOT}`).
  // A second fixture server stands for GitHub Packages: another origin than the registry's. Edit,
  // said here: the archive URLs name its origin (encoded as yarn writes it).
  const YARN_TOKEN = 'SECRET-YARNRC-TOKEN-5a1f0c';
  /** Edit of the recorded .yarnrc.yml, said here: the fixture server's origin for GitHub Packages, a literal token for its variable. */
  const editProjectYarnrc = (dir: string, origin: string): void => {
    const file = path.join(dir, '.yarnrc.yml');
    const recorded = readFileSync(file, 'utf8');
    expect(recorded).toContain('npmRegistryServer: https://npm.pkg.github.com');
    expect(recorded).toContain('npmAuthToken: ${GITHUB_TOKEN:-$PAT_BOT}');
    writeFileSync(file, recorded.replace('https://npm.pkg.github.com', origin).replace('${GITHUB_TOKEN:-$PAT_BOT}', YARN_TOKEN));
  };
  const yarnrc = (origin: string) => ['npmScopes:', '  flex-development:', `    npmRegistryServer: "${origin}"`, `    npmAuthToken: "${YARN_TOKEN}"`, `npmAuthIdent: "${YARN_TOKEN}-ident"`, ''].join('\n');
  // The public registry does not have the scope (as for a scope only a private registry holds):
  // the names exist only where the archive URLs point, so no dependency confusion either.
  const scoped = (name: string) => name.startsWith('@flex-development/');
  async function githubPackagesSetUp(notPublic: (name: string) => boolean = scoped) {
    const main = await server();
    const packages = await server();
    serveRegistryOf(main, pins, notPublic);
    const dir = projectCopy(fixture, 'yarn.lock', main.url('npm'), (t) => t.replaceAll('https%3A%2F%2Fnpm.pkg.github.com', encodeURIComponent(packages.url())));
    return { main, packages, dir };
  }
  const injected = (report: ReturnType<typeof parseAudit>) => lockFindings(report).filter((f) => f.endsWith(' lockfile-injection'));
  const warningCodes = (report: ReturnType<typeof parseAudit>) => (report as unknown as { warnings: { code: string }[] }).warnings.map((w) => w.code);

  it("the scope's registry in the user's ~/.yarnrc.yml vouches its archive URLs: no finding, exit 0, the token never shown", async () => {
    const { main, packages, dir } = await githubPackagesSetUp();
    const home = dirs.make('nerq-yarn-user-');
    writeFileSync(path.join(home, '.yarnrc.yml'), yarnrc(packages.url()));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main, env: { HOME: home } });
    const report = parseAudit(result.stdout);
    expect(report.summary.total, result.stderr).toBe(79);
    expect(lockFindings(report)).toEqual([]);
    // The project's own (recorded) .yarnrc.yml is still not followed: it is said, and changes nothing.
    expect(warningCodes(report).filter((c) => c.startsWith('yarnrc-'))).toEqual(['yarnrc-ignored']);
    expect(result.code, result.stderr).toBe(0);
    // Vouching a host fetches nothing from it: metadata still comes from npm's registry.
    expect(packages.requests).toEqual([]);
    const sarif = await runCli(['audit', dir, '--format', 'sarif', '--direct'], { server: main, env: { HOME: home } });
    const table = await runCli(['audit', dir, '--direct'], { server: main, env: { HOME: home } });
    for (const run of [result, sarif, table]) expect(run.stdout + run.stderr).not.toContain(YARN_TOKEN);
    expect(sarif.code).toBe(0);
  });

  it("the same, with the scope's releases also on the public registry (as they are today): no lockfile injection, but dependency confusion", async () => {
    // The public registry publishes these very releases (tutils 6.0.0-alpha.10's shasum is the
    // sha1 its archive URL ends with), but a yarn berry pin carries no tarball hash to compare,
    // and the metadata nerq reads comes from npm's registry, not from the archive URLs' host.
    const { main, packages, dir } = await githubPackagesSetUp(() => false);
    const home = dirs.make('nerq-yarn-user-');
    writeFileSync(path.join(home, '.yarnrc.yml'), yarnrc(packages.url()));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main, env: { HOME: home } });
    const report = parseAudit(result.stdout);
    expect(injected(report)).toEqual([]);
    expect(lockFindings(report).map((f) => f.slice(0, -' dependency-confusion'.length)).sort()).toEqual(ARCHIVED_DIRECT);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(YARN_TOKEN);
  });

  it("the scope's registry only in the project's (recorded) .yarnrc.yml: not followed without --trust-project-npmrc (a yarnrc-ignored warning, exit 1)", async () => {
    const { main, packages, dir } = await githubPackagesSetUp();
    editProjectYarnrc(dir, packages.url());
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main });
    const report = parseAudit(result.stdout);
    expect(injected(report).map((f) => f.slice(0, -' lockfile-injection'.length)).sort()).toEqual(ARCHIVED_DIRECT);
    expect(warningCodes(report)).toContain('yarnrc-ignored');
    expect(result.stderr).toMatch(/^nerq: warning: the audited project's \.yarnrc\.yml sets npmScopes\.flex-development\.npmRegistryServer: ignored \(pass --trust-project-npmrc/m);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(YARN_TOKEN);
    expect(packages.requests).toEqual([]);
  });

  it("the project's (recorded) .yarnrc.yml with --trust-project-npmrc: its scope registry vouches the archive URLs, exit 0, the token in no output", async () => {
    const { main, packages, dir } = await githubPackagesSetUp();
    editProjectYarnrc(dir, packages.url());
    const result = await runCli(['audit', dir, '--json', '--direct', '--trust-project-npmrc'], { server: main });
    const report = parseAudit(result.stdout);
    expect(report.summary.total, result.stderr).toBe(79);
    expect(lockFindings(report)).toEqual([]);
    expect(warningCodes(report).filter((c) => c.startsWith('yarnrc-'))).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    const sarif = await runCli(['audit', dir, '--format', 'sarif', '--direct', '--trust-project-npmrc'], { server: main });
    const markdown = await runCli(['audit', dir, '--format', 'markdown', '--direct', '--trust-project-npmrc'], { server: main });
    for (const run of [result, sarif, markdown]) expect(run.stdout + run.stderr).not.toContain(YARN_TOKEN);
    expect(sarif.code).toBe(0);
    // No request carries it either: a yarnrc's credentials are never read.
    expect([...main.requests, ...packages.requests].filter((r) => JSON.stringify(r.headers).includes(YARN_TOKEN))).toEqual([]);
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
    // Every release is the registry's own, nothing else fails the default policy: a pass.
    expect(result.code).toBe(0);
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
    // Every release is the registry's own, nothing else fails the default policy: a pass.
    expect(result.code).toBe(0);
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
    // Both findings come from the lockfile entry (its `resolved` names the other origin): located there.
    const entryLine = text.split('\n').findIndex((l) => /^"?typescript@/.test(l)) + 1;
    expect(entryLine).toBeGreaterThan(0);
    const failures = report.entries.find((e) => e.subject.name === 'typescript')!.policy.failures.filter((f) => LOCK_RULES.includes(f.rule));
    expect(failures.map((f) => [f.rule, f.at])).toEqual([
      ['lockfile-injection', { file: 'yarn.lock', line: entryLine }],
      ['dependency-confusion', { file: 'yarn.lock', line: entryLine }],
    ]);
  });
});

/**
 * PyPI as the pins describe it: each project's JSON (`/pypi/<name>/json`) and release JSON
 * (`/pypi/<name>/<version>/json`) with the lockfile's files and sha256 digests; nothing else
 * (the simple index, provenance, pypistats) is known.
 */
function servePypiOf(server: FixtureServer, pins: readonly UvPin[]): void {
  // uv forks its resolution by environment: one name may be pinned at several versions (sphinx 8.1.3 and 8.2.3).
  const byName = new Map<string, UvPin[]>();
  for (const pin of pins) byName.set(pin.name, [...(byName.get(pin.name) ?? []), pin]);
  const files = (pin: UvPin) =>
    pin.files.map((f) => ({
      filename: f.filename,
      packagetype: f.packagetype,
      size: f.size,
      digests: { sha256: f.sha256 },
      upload_time_iso_8601: '2025-06-01T00:00:00.000000Z',
      yanked: false,
      yanked_reason: null,
    }));
  const info = (pin: UvPin) => ({ name: pin.name, version: pin.version, summary: `${pin.name} (as its lockfile pins it)`, license: 'MIT', requires_dist: null, project_urls: null, yanked: false });
  server.routePrefix('GET', '/pypi/pypi/', (_req, res, { url }) => {
    const [name, second, third] = url.pathname.slice('/pypi/pypi/'.length).split('/');
    const releases = byName.get(name ?? '') ?? [];
    const latest = releases.at(-1);
    const pinned = releases.find((p) => p.version === second);
    const body =
      latest === undefined
        ? null
        : second === 'json'
          ? { info: info(latest), releases: Object.fromEntries(releases.map((p) => [p.version, files(p)])), urls: files(latest), vulnerabilities: [] }
          : pinned !== undefined && third === 'json'
            ? { info: info(pinned), urls: files(pinned), vulnerabilities: [] }
            : null;
    res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'Not Found' }));
  });
  server.fallback('GET', '/pypi/', { status: 404 });
  server.fallback('GET', '/pypistats/', { status: 404 });
  serveOsv(server, []);
}

describe('nerq audit of a real uv.lock (pallets/flask)', () => {
  const pins = uvRegistryPins(readFileSync(path.join(REAL, 'pallets__flask', 'uv.lock'), 'utf8'));

  it('evaluates every registry package the lockfile pins, as direct/dev as the project declares it', async () => {
    const main = await server();
    servePypiOf(main, pins);
    const dir = projectCopy('pallets__flask', 'uv.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json'], { server: main });
    const report = parseAudit(result.stdout);
    // python3 tomllib: 82 [[package]] with a registry source (flask itself is the editable project).
    expect(pins).toHaveLength(82);
    expect(report.inputs).toEqual([{ file: 'uv.lock', format: 'uv.lock' }]);
    expect(new Set(report.entries.map((e) => `${e.subject.ecosystem}:${e.subject.name}@${e.subject.version}`))).toEqual(new Set(pins.map((p) => `pypi:${p.name}@${p.version}`)));
    expect(report.unvouched ?? []).toEqual([]);
    // Every one evaluated (sphinx and sphinx-autobuild at both of their pinned versions too).
    expect(report.summary).toMatchObject({ total: 82, errors: 0, incomplete: 0 });
    const subject = (name: string) => report.entries.find((e) => e.subject.name === name)?.subject;
    expect(subject('werkzeug')).toMatchObject({ version: '3.1.8', direct: true, dev: false });
    expect(subject('pytest')).toMatchObject({ version: '9.0.2', direct: true, dev: true });
    expect(result.code, result.stderr).toBe(exitFor(report));
  });

  it('--direct --omit dev: the dependencies flask declares, its extras included', async () => {
    const main = await server();
    servePypiOf(main, pins);
    const dir = projectCopy('pallets__flask', 'uv.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct', '--omit', 'dev'], { server: main });
    const report = parseAudit(result.stdout);
    // flask's `dependencies` (blinker, click, itsdangerous, jinja2, markupsafe, werkzeug) and its
    // `optional-dependencies` (async: asgiref, dotenv: python-dotenv), production roots as
    // src/lockfiles/uv-lock.ts documents; the dev-dependencies groups are left out.
    expect(report.entries.map((e) => e.subject.name).sort()).toEqual(['asgiref', 'blinker', 'click', 'itsdangerous', 'jinja2', 'markupsafe', 'python-dotenv', 'werkzeug']);
    expect(result.code, result.stderr).toBe(exitFor(report));
  });
});

describe("nerq audit of a real yarn classic lockfile with aliases, git, URL and file dependencies (npm/arborist's yarn-stuff)", () => {
  const text = readFileSync(path.join(REAL, 'npm__arborist', 'test', 'fixtures', 'yarn-stuff', 'yarn.lock'), 'utf8');
  const pins = yarnClassicPins(text);
  const fixture = path.join('npm__arborist', 'test', 'fixtures', 'yarn-stuff');

  /** The audit of the fixture resolved from `alias` (another origin than the registry), after `edit`. */
  async function audit(edit: (text: string) => string = (t) => t) {
    const main = await server();
    const alias = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy(fixture, 'yarn.lock', alias.url('npm'), edit);
    const result = await runCli(['audit', dir, '--json'], { server: main });
    return { result, report: parseAudit(result.stdout), alias };
  }

  const expectIncompleteOnlyForRemotes = (result: { code: number; stderr: string }, report: ReturnType<typeof parseAudit>, alias: FixtureServer) => {
    // abbrev@1.1.1 (for abbrev, pinned, reg) and abbrev@1.0.9 (for old), both direct.
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version} ${e.subject.direct} ${e.policy.status}`).sort()).toEqual(['abbrev@1.0.9 true pass', 'abbrev@1.1.1 true pass']);
    expect(lockFindings(report)).toEqual([]);
    // The git, GitHub and URL dependencies are unvouched: the run is incomplete (exit 3), for them alone.
    expect((report.unvouched ?? []).map((u) => `${u.name} ${u.host}`).sort()).toEqual(['full-git-url github.com', 'ghshort github.com', 'remote 127.0.0.1']);
    expect(result.code, result.stderr).toBe(3);
    expect(alias.requests).toEqual([]);
  };

  it('pins with integrity lines (sha512, and sha1 for abbrev 1.0.9): no lockfile finding', async () => {
    const { result, report, alias } = await audit();
    expectIncompleteOnlyForRemotes(result, report, alias);
  });

  it("pins by resolved's #sha1 only (as yarn before 1.10 wrote them): no lockfile finding either", async () => {
    const { result, report, alias } = await audit((t) => t.replace(/^ {2}integrity .*\n/gm, ''));
    expectIncompleteOnlyForRemotes(result, report, alias);
  });
});

/**
 * vitejs/vite's direct production dependencies, 54 name@version (python3 + PyYAML): declared by an
 * importer (any group; not `link:` or `file:`) and reached from an importer's dependencies or
 * optionalDependencies through `snapshots` (peer variants of one version taken together).
 */
const EXPECTED_VITE_PROD_DIRECT = [
  '@babel/core@7.29.7',
  '@babel/parser@7.29.8',
  '@babel/plugin-transform-dynamic-import@7.29.7',
  '@babel/plugin-transform-modules-systemjs@7.29.8',
  '@babel/preset-env@7.29.7',
  '@babel/runtime@7.29.7',
  '@jridgewell/remapping@2.3.5',
  '@jridgewell/trace-mapping@0.3.31',
  '@node-rs/bcrypt@1.10.8',
  '@tailwindcss/postcss@4.3.3',
  '@tailwindcss/vite@4.3.3',
  '@vue/shared@3.5.41',
  'autoprefixer@10.5.4',
  'babel-plugin-polyfill-corejs3@0.14.2',
  'babel-plugin-polyfill-regenerator@0.6.8',
  'baseline-browser-mapping@2.11.14',
  'birpc@0.2.19',
  'browserslist-to-esbuild@2.1.1',
  'browserslist@4.28.8',
  'chokidar@3.6.0',
  'clipboard@2.0.11',
  'convert-source-map@2.0.0',
  'core-js@3.50.0',
  'esbuild@0.28.2',
  'escape-html@1.0.3',
  'etag@1.8.1',
  'express@5.2.1',
  'fsevents@2.3.3',
  'lightningcss@1.33.0',
  'magic-string@1.2.0',
  'normalize.css@8.0.1',
  'obug@1.0.2',
  'oxc-parser@0.144.0',
  'phoenix@1.8.11',
  'picocolors@1.1.1',
  'picomatch@4.0.5',
  'postcss-load-config@6.0.1',
  'postcss@8.5.26',
  'react-dom@19.2.8',
  'react@19.2.8',
  'regenerator-runtime@0.14.1',
  'rolldown@1.2.4',
  'slash@3.0.0',
  'slash@5.1.0',
  'systemjs@6.15.1',
  'tailwindcss@3.4.19',
  'tailwindcss@4.3.3',
  'tinyglobby@0.2.17',
  'tinyspy@2.2.0',
  'tsx@4.23.12',
  'typescript@6.0.3',
  'url@0.11.4',
  'vue@3.5.41',
  'vuex@4.1.0',
];

describe('nerq audit of a real pnpm 9 lockfile with file: folders and patched packages (vitejs/vite)', () => {
  const pins = pnpmPins(readFileSync(path.join(REAL, 'vitejs__vite', 'pnpm-lock.yaml'), 'utf8')).filter((p) => !p.version.startsWith('file:'));

  it('--direct --omit dev: the production roots are audited; the file: folders are local notes, not unvouched; the patches are noted', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy('vitejs__vite', 'pnpm-lock.yaml', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct', '--omit', 'dev'], { server: main });
    const report = parseAudit(result.stdout);
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`).sort()).toEqual(EXPECTED_VITE_PROD_DIRECT);
    expect(report.entries.filter((e) => !e.subject.direct || e.subject.dev)).toEqual([]);
    expect(report.unvouched ?? []).toEqual([]);
    expect(lockFindings(report)).toEqual([]);
    // A project patch is named (by the package and patch file) in an input note, whichever entries the flags keep.
    expect(report.warnings.filter((w) => w.code === 'input-note' && w.message.includes('"patches/sirv@3.0.2.patch"')).map((w) => w.details)).toEqual([{ file: 'pnpm-lock.yaml' }]);
    expect(result.code, result.stderr).toBe(exitFor(report));
    expect(result.code).toBe(0);
  });
});

describe('nerq audit of a real uv.lock with workspace members and a git dependency (pydantic/pydantic-ai)', () => {
  const pins = uvRegistryPins(readFileSync(path.join(REAL, 'pydantic__pydantic-ai', 'uv.lock'), 'utf8'));

  it('--direct: the git dependency is unvouched (incomplete, exit 3); the editable members are not audited', async () => {
    const main = await server();
    servePypiOf(main, pins);
    const dir = projectCopy('pydantic__pydantic-ai', 'uv.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main });
    const report = parseAudit(result.stdout);
    expect((report.unvouched ?? []).map((u) => [u.status, u.name, u.host, u.direct, u.dev])).toEqual([['unvouched', 'strict-no-cover', 'github.com', true, true]]);
    expect(report.warnings.filter((w) => w.code === 'unvouched-remote')).toHaveLength(1);
    const names = new Set(report.entries.map((e) => e.subject.name));
    for (const member of ['clai', 'pydantic-ai', 'pydantic-ai-examples', 'pydantic-ai-slim', 'pydantic-evals', 'pydantic-graph', 'strict-no-cover']) expect(names.has(member)).toBe(false);
    expect(result.code, result.stderr).toBe(3);
  });

  it('--direct --omit dev: the dev-group git dependency is left out, and nothing else holds the run', async () => {
    const main = await server();
    servePypiOf(main, pins);
    const dir = projectCopy('pydantic__pydantic-ai', 'uv.lock', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct', '--omit', 'dev'], { server: main });
    const report = parseAudit(result.stdout);
    expect(report.unvouched ?? []).toEqual([]);
    expect(report.entries.filter((e) => e.subject.dev)).toEqual([]);
    expect(result.code, result.stderr).toBe(exitFor(report));
  });
});

describe('nerq audit of a real package-lock.json v2 with a git+ssh dependency (jitsi/lib-jitsi-meet)', () => {
  const pins = packageLockPins(readFileSync(path.join(REAL, 'jitsi__lib-jitsi-meet', 'package-lock.json'), 'utf8')).filter((p) => !p.version.startsWith('git'));

  it('--direct: the registry roots pass with no lockfile finding; the git dependency is unvouched (exit 3)', async () => {
    const main = await server();
    serveRegistryOf(main, pins);
    const dir = projectCopy('jitsi__lib-jitsi-meet', 'package-lock.json', main.url('npm'));
    const result = await runCli(['audit', dir, '--json', '--direct'], { server: main });
    const report = parseAudit(result.stdout);
    // python3 json: the root's 17 dependencies and 29 devDependencies, less the git one.
    expect(report.summary.total).toBe(45);
    expect(lockFindings(report)).toEqual([]);
    expect((report.unvouched ?? []).map((u) => [u.status, u.name, u.host, u.direct, u.dev])).toEqual([['unvouched', 'strophejs-plugin-stream-management', 'github.com', true, false]]);
    expect(result.code, result.stderr).toBe(3);
  });
});

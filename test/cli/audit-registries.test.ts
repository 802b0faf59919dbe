/**
 * The audited tree is untrusted: a registry its own `.npmrc` sets is not followed
 * unless `--trust-project-npmrc` (a warning otherwise, and the user's registry is used), and a
 * credential in it is never sent anywhere. A package resolving from a private registry whose
 * name also exists on the public one is flagged as possible dependency confusion.
 *
 * Two fixture servers: `main` (every endpoint, the user's registry, and the "public" registry
 * under /npm-public) and `second` (the other registry).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import {
  abbreviatedPackument,
  integritiesOf,
  kindOf,
  packageLockV3,
  parseAudit,
  serveOsv,
  serveSynthetic,
  TempDirs,
  writeIn,
  type SyntheticPackage,
} from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const LEFT: SyntheticPackage = { name: 'nerq-audit-left', version: '2.1.0' };
const RIGHT: SyntheticPackage = { name: 'nerq-audit-right', version: '1.4.2' };
const PROJECT_TOKEN = 'npm_projectSecretToken0123456789abcdef';
const USER_TOKEN = 'npm_userCorpToken0123456789abcdef';

const dirs = new TempDirs();
const server = useFixtureServers();

beforeAll(() => requireBuiltCli());

afterEach(() => dirs.cleanUp());

/** A HOME whose `.npmrc` (the user's own configuration, trusted) holds `lines`. */
function userHome(lines: string[]): string {
  const home = dirs.make('nerq-user-');
  writeIn(home, '.npmrc', `${lines.join('\n')}\n`);
  return home;
}

/** A project locking `packages` (resolved from `registry`), with `files` beside the lockfile. */
function project(packages: SyntheticPackage[], registry: string, files: Record<string, string> = {}): string {
  const { lock, manifest } = packageLockV3(packages.map((p) => ({ name: p.name, version: p.version, direct: true })), registry);
  return dirs.project({ 'package-lock.json': lock, 'package.json': manifest, ...files });
}

const noAuth = (s: FixtureServer) => s.requests.filter((r) => r.headers.authorization !== undefined).map((r) => `${r.method} ${r.path}`);

describe('an untrusted .npmrc in the audited directory', () => {
  async function setUp() {
    const main = await server();
    const second = await server();
    for (const pkg of [LEFT, RIGHT]) {
      serveSynthetic(main, pkg);
      serveSynthetic(second, pkg, { stats: main });
    }
    serveOsv(main, []);
    const npmrc = [
      `registry=${second.url('npm')}/`,
      `//127.0.0.1:${second.port}/npm/:_authToken=${PROJECT_TOKEN}`,
      `//127.0.0.1:${main.port}/:_authToken=${PROJECT_TOKEN}`,
    ].join('\n');
    const dir = project([LEFT, RIGHT], main.url('npm'), { '.npmrc': `${npmrc}\n` });
    // The user's registry comes from their own ~/.npmrc (NERQ_NPM_REGISTRY unset).
    const env = { NERQ_NPM_REGISTRY: '', HOME: userHome([`registry=${main.url('npm')}/`]) };
    return { main, second, dir, env };
  }

  it('run from the audited directory: not followed, a warning, the second server receives nothing', async () => {
    const { main, second, dir, env } = await setUp();
    const result = await runCli(['audit', '--json'], { server: main, env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^nerq: warning: the audited project's \.npmrc sets registry: ignored \(pass --trust-project-npmrc to follow it\)/m);
    expect(second.requests).toEqual([]);
    expect(main.requests.filter((r) => kindOf(r) === 'packument-full').map((r) => r.path).sort()).toEqual([`/npm/${LEFT.name}`, `/npm/${RIGHT.name}`]);
    expect(noAuth(main)).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain(PROJECT_TOKEN);
    expect(parseAudit(result.stdout).summary).toMatchObject({ total: 2, passed: 2 });
  });

  it('named as an argument from elsewhere: not followed either, with the same warning', async () => {
    const { main, second, dir, env } = await setUp();
    const result = await runCli(['audit', dir, '--json'], { server: main, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/the audited project's \.npmrc sets registry: ignored/);
    expect(second.requests).toEqual([]);
    expect(noAuth(main)).toEqual([]);
  });

  /** A checkout: a repository root holding the .npmrc, the audited project's `files` (copied from `dir`) in app/. */
  function checkout(dir: string, second: FixtureServer, files: string[]): string {
    const root = dirs.project({ 'package.json': '{ "name": "monorepo", "private": true }\n', '.git/HEAD': 'ref: refs/heads/main\n' });
    writeIn(root, '.npmrc', `registry=${second.url('npm')}/\n//127.0.0.1:${second.port}/npm/:_authToken=${PROJECT_TOKEN}\n`);
    for (const name of files) writeIn(root, `app/${name}`, readFileSync(path.join(dir, name), 'utf8'));
    return root;
  }

  it('a subdirectory audited from the checkout root: the root .npmrc is untrusted too', async () => {
    const { main, second, dir, env } = await setUp();
    // app/ has no package.json: npm would take the root's .npmrc as the project's.
    const root = checkout(dir, second, ['package-lock.json']);
    const result = await runCli(['audit', 'app', '--json'], { server: main, env, cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/the audited project's \.npmrc sets registry: ignored/);
    expect(second.requests).toEqual([]);
    expect(noAuth(main)).toEqual([]);
  });

  it('a subdirectory with its own package.json: the root .npmrc is not its configuration', async () => {
    const { main, second, dir, env } = await setUp();
    const root = checkout(dir, second, ['package-lock.json', 'package.json']);
    const result = await runCli(['audit', 'app', '--json', '--trust-project-npmrc'], { server: main, env, cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(second.requests).toEqual([]);
    expect(noAuth(main)).toEqual([]);
    expect(parseAudit(result.stdout).summary).toMatchObject({ total: 2, passed: 2 });
  });

  it('with --trust-project-npmrc: its registry is followed, its token still sent nowhere', async () => {
    const { main, second, dir, env } = await setUp();
    // The public registry does not know these names: no dependency confusion to flag.
    for (const pkg of [LEFT, RIGHT]) main.expect('GET', `/npm-public/${pkg.name}`, { status: 404 });
    const result = await runCli(['audit', '--json', '--trust-project-npmrc'], { server: main, env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/warning/);
    expect(second.requests.filter((r) => kindOf(r) === 'packument-full').map((r) => r.path).sort()).toEqual([`/npm/${LEFT.name}`, `/npm/${RIGHT.name}`]);
    expect(second.requests.filter((r) => kindOf(r) === 'tarball')).toHaveLength(2);
    expect(main.requests.filter((r) => r.path.startsWith('/npm/'))).toEqual([]);
    expect(noAuth(second)).toEqual([]);
    expect(noAuth(main)).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain(PROJECT_TOKEN);
  });
});

describe('dependency confusion', () => {
  const INTERNAL: SyntheticPackage = { name: '@corp/internal-lib', version: '1.2.0' };
  const PRIVATE_ONLY: SyntheticPackage = { name: '@corp/private-only', version: '0.9.1' };

  /** `@corp` from `second` (the user's own ~/.npmrc, with its token); everything else from `main`. */
  async function setUp() {
    const main = await server();
    const second = await server();
    serveSynthetic(second, INTERNAL, { stats: main });
    serveSynthetic(second, PRIVATE_ONLY, { stats: main });
    serveSynthetic(main, LEFT);
    serveOsv(main, []);
    const home = userHome([`@corp:registry=${second.url('npm')}/`, `//127.0.0.1:${second.port}/npm/:_authToken=${USER_TOKEN}`]);
    const dir = project([INTERNAL, PRIVATE_ONLY, LEFT], main.url('npm'));
    return { main, second, dir, env: { HOME: home } };
  }

  it('a private scoped package whose name the public registry also serves fails the policy', async () => {
    const { main, second, dir, env } = await setUp();
    // The public registry knows @corp/internal-lib — someone else's package, published at 9.9.9.
    const squatter: SyntheticPackage = { name: INTERNAL.name, version: '9.9.9' };
    main.expect('GET', '/npm-public/@corp%2finternal-lib', { body: abbreviatedPackument(squatter, integritiesOf(squatter)) });
    main.expect('GET', '/npm-public/@corp%2fprivate-only', { status: 404 });
    const result = await runCli(['audit', dir, '--json'], { server: main, env });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    expect(report.summary).toMatchObject({ total: 3, failed: 1, passed: 2 });
    const [first] = report.entries;
    expect(first?.subject.name).toBe(INTERNAL.name);
    expect(first?.policy.status).toBe('fail');
    expect(first?.policy.failures.map((f) => f.rule)).toEqual(['dependency-confusion']);
    expect(first?.policy.failures[0]?.message).toMatch(
      new RegExp(`possible dependency confusion: @corp/internal-lib resolves from 127\\.0\\.0\\.1:${second.port} but the name also exists on the public npm registry`),
    );
    // The public registry was asked for the scoped names only, for the abbreviated document, without a credential.
    const publicAsked = main.requests.filter((r) => kindOf(r) === 'npm-public');
    expect(publicAsked.map((r) => r.path).sort()).toEqual(['/npm-public/@corp%2finternal-lib', '/npm-public/@corp%2fprivate-only']);
    for (const r of publicAsked) expect(r.headers.accept).toMatch(/^application\/vnd\.npm\.install-v1\+json/);
    expect(noAuth(main)).toEqual([]);
    // The user's token went to their private registry (its own origin) and nowhere else.
    expect(second.requests.length).toBeGreaterThan(0);
    for (const r of second.requests) expect(r.headers.authorization, r.path).toBe(`Bearer ${USER_TOKEN}`);
    expect(result.stdout + result.stderr).not.toContain(USER_TOKEN);
  });

  it('a private registry mirroring the public package (same version, same bytes) is not flagged', async () => {
    const { main, dir, env } = await setUp();
    // The public registry serves exactly what the private one does: a mirror, not a confusion.
    main.expect('GET', '/npm-public/@corp%2finternal-lib', { body: abbreviatedPackument(INTERNAL, integritiesOf(INTERNAL)) });
    main.expect('GET', '/npm-public/@corp%2fprivate-only', { status: 404 });
    const result = await runCli(['audit', dir, '--json'], { server: main, env });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.entries.flatMap((e) => e.policy.failures.map((f) => f.rule))).toEqual([]);
  });

  it('NERQ_NPM_REGISTRY on one server, NERQ_NPM_PUBLIC_REGISTRY on another that knows the name: flagged', async () => {
    const main = await server();
    const second = await server();
    serveSynthetic(second, LEFT, { stats: main });
    serveOsv(main, []);
    const other: SyntheticPackage = { name: LEFT.name, version: '7.0.0' };
    main.expect('GET', `/npm-public/${LEFT.name}`, { body: abbreviatedPackument(other, integritiesOf(other)) });
    const dir = project([LEFT], second.url('npm'));
    const result = await runCli(['audit', dir, '--json'], { server: main, env: { NERQ_NPM_REGISTRY: `${second.url('npm')}/` } });
    expect(result.code, result.stderr).toBe(1);
    const [entry] = parseAudit(result.stdout).entries;
    expect(entry?.policy.failures.map((f) => f.rule)).toEqual(['dependency-confusion']);
  });

  it('the public registry refusing connections: not passed but not checked, and the outage named as the public registry, not the user\'s', async () => {
    const main = await server();
    const second = await server();
    serveSynthetic(second, LEFT, { stats: main });
    serveOsv(main, []);
    const dir = project([LEFT], second.url('npm'));
    // Port 9 (discard) refuses the connection.
    const env = { NERQ_NPM_REGISTRY: `${second.url('npm')}/`, NERQ_NPM_PUBLIC_REGISTRY: 'http://127.0.0.1:9/npm-public/' };
    const result = await runCli(['audit', dir, '--json'], { server: main, env });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    const [entry] = report.entries;
    expect(entry?.policy.status).toBe('incomplete');
    expect(entry?.policy.failures.map((f) => [f.rule, f.checks ?? null])).toEqual([['not-checked', ['dependency-confusion']]]);
    const down = report.warnings.filter((w) => w.code === 'service-unreachable');
    expect(down.map((w) => [w.details.host, w.details.services, w.details.checks])).toEqual([['127.0.0.1:9', ['npm-public-registry'], ['dependency-confusion']]]);
    // The user's registry answered: no outage of it is reported.
    expect(down.flatMap((w) => w.details.services)).not.toContain('npm-registry');
  });
});

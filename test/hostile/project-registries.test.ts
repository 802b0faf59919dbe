/**
 * Hostile world: the registry the audited project's own configuration names (docs/security.md,
 * "The audited tree is untrusted"). nerq does not follow a registry that only the audited
 * `.npmrc` or `.yarnrc.yml` sets (nor bun's `bunfig.toml`, ever) — but the package manager that installs the checkout does: a
 * lockfile entry pinning no URL is fetched from the project's
 * registry, and so is one on the public registry (npm's `replace-registry-host` default moves it
 * there). A pull request that adds `registry=` (or `npmRegistryServer:`) and drops the hash
 * installs whatever that host serves under a name nerq audited from the user's registry. Such a
 * pin, without a hash the registry publishes for the release, leaves the package incomplete
 * (exit 3) naming the host; with the registry's hash, or with no project registry, it passes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { integritiesOf, parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { berryLock, pnpmV9Lock } from '../support/lock-texts.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { UNRESOLVABLE_ORIGIN } from './support/faults.js';
import { noteCases } from './support/metrics.js';
import { REPO_ROOT } from '../support/run-cli.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-project-registry', version: '4.1.0' };
const SCOPED: SyntheticPackage = { name: '@nerq-scope/project-registry', version: '2.0.1' };
/** yarn's own public registry, the endpoints' default (src/sources/endpoints.ts). */
const YARN_PUBLIC = 'https://registry.yarnpkg.com';
/** A real-shaped `.yarnrc.yml` naming yarn's public registry by default and for the scope `nerq-scope` (fixtures/PROVENANCE.md). */
const YARNPKG_YARNRC = readFileSync(path.join(REPO_ROOT, 'fixtures', 'install-settings', 'yarnpkg-registry.yarnrc.yml'), 'utf8');
const EVIL_HOST = new URL(UNRESOLVABLE_ORIGIN).host;

const dirs = new TempDirs();
let server: FixtureServer;
let registry: string;
let publicRegistry: string;
let trustedIntegrity: string;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, TRUSTED);
  serveSynthetic(server, SCOPED);
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  registry = server.url('npm');
  publicRegistry = server.url('npm-public');
  trustedIntegrity = integritiesOf(TRUSTED)[TRUSTED.version]!;
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

async function audit(files: Record<string, string>, env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = dirs.make();
  for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
  return runHostile(['audit', dir, '--json', '--timeout', '30'], { server, ...(env === undefined ? {} : { env }) });
}

/** That `run` left the package `name` incomplete (exit 3, `not-checked` by `lockfile-injection`), naming `host`; the context its assertions print. */
function expectIncomplete(expect: ExpectStatic, run: { code: number; stdout: string; stderr: string }, label: string, name: string, host: string): string {
  const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
  expect(run.code, context).toBe(3);
  const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === name);
  expect(entry?.policy.status, context).toBe('incomplete');
  expect(entry?.policy.failures[0], context).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
  expect(entry?.policy.failures[0]?.message, context).toContain(host);
  return context;
}

const MANIFEST = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } });
const NPMRC = { '.npmrc': `registry=${UNRESOLVABLE_ORIGIN}/\n` };
const tarball = (base: string) => `${base}/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`;

/** The package locked as `pin` says (no `resolved`, a registry one; an integrity or none), under the project configuration `config`. */
const LOCKS: Record<string, (pin: { resolved?: string; integrity?: string }, config: Record<string, string>) => Record<string, string>> = {
  'package-lock v3': (pin, config) => ({
    ...config,
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, ...pin } } }),
  }),
  'pnpm v9': (pin, config) => ({
    ...config,
    'package.json': MANIFEST,
    'pnpm-lock.yaml': pnpmV9Lock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: TRUSTED.version, resolution: `{${pin.integrity === undefined ? '' : `integrity: '${pin.integrity}'`}}` }),
  }),
};

describe("a lockfile pin fetched from the registry the project's .npmrc names", () => {
  const cases: [label: string, format: string, pin: () => { resolved?: string; integrity?: string }][] = [
    ['package-lock v3, no resolved, no integrity', 'package-lock v3', () => ({})],
    ['package-lock v3, resolved on the public registry (npm moves it to the configured one), no integrity', 'package-lock v3', () => ({ resolved: tarball(publicRegistry) })],
    ['pnpm v9, resolution {}', 'pnpm v9', () => ({})],
  ];
  it.concurrent.for(cases)('%s: incomplete (exit 3), naming the host', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, format, pin], { task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS[format]!(pin(), NPMRC));
    expectIncomplete(expect, run, label, TRUSTED.name, EVIL_HOST);
  });

  it.concurrent.for(Object.keys(LOCKS))("%s: the registry's hash pinned (npm checks the bytes): audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS[format]!({ integrity: trustedIntegrity }, NPMRC));
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.policy.status, `${format}: ${run.stderr}`).toBe('pass');
    expect(run.code, format).toBe(0);
  });

  it.concurrent.for(Object.keys(LOCKS))('%s: no hash, no project registry (the user\'s registry serves it): audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS[format]!({}, {}));
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.policy.status, `${format}: ${run.stderr}`).toBe('pass');
    expect(run.code, format).toBe(0);
  });

  it("package-lock v3, resolved on the user's registry (npm fetches it as written), no integrity: audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['package-lock v3']!({ resolved: tarball(registry) }, NPMRC));
    expect(run.code, run.stderr).toBe(0);
  });

  it("package-lock v3, no hash, under a .npmrc naming the public registry: audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['package-lock v3']!({}, { '.npmrc': `registry=${publicRegistry}\n` }));
    expect(run.code, run.stderr).toBe(0);
  });

  it("a scoped registry for another scope leaves the package's pin alone: exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['package-lock v3']!({}, { '.npmrc': `@other:registry=${UNRESOLVABLE_ORIGIN}/\n` }));
    expect(run.code, run.stderr).toBe(0);
  });

  // npm's replace-registry-host decides which `resolved` hosts npm swaps for the configured registry.
  const userHost = () => new URL(registry).hostname;
  it.concurrent.for([
    ['always (every host swapped), resolved on the user\'s registry', (): string => 'replace-registry-host=always\n', (): string => tarball(registry), undefined],
    ['naming the user\'s registry host, resolved there', (): string => `replace-registry-host=${userHost()}\n`, (): string => tarball(registry), undefined],
    ['the user\'s own always (npm_config_replace_registry_host), resolved on the user\'s registry', (): string => '', (): string => tarball(registry), { npm_config_replace_registry_host: 'always' }],
  ] as const)("package-lock v3, no hash, the project's .npmrc registry and replace-registry-host %s: incomplete (exit 3), naming the host", { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, setting, resolved, env], { task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['package-lock v3']!({ resolved: resolved() }, { '.npmrc': `registry=${UNRESOLVABLE_ORIGIN}/\n${setting()}` }), env);
    expectIncomplete(expect, run, label, TRUSTED.name, EVIL_HOST);
  });

  it("package-lock v3, no hash, resolved on the public registry under replace-registry-host=never (npm fetches it as written): audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['package-lock v3']!({ resolved: tarball(publicRegistry) }, { '.npmrc': `registry=${UNRESOLVABLE_ORIGIN}/\nreplace-registry-host=never\n` }));
    expect(run.code, run.stderr).toBe(0);
  });

  it('pnpm v9, resolution {}, under replace-registry-host=never (an npm setting; a pin with no URL has no host to keep): incomplete (exit 3)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(LOCKS['pnpm v9']!({}, { '.npmrc': `registry=${UNRESOLVABLE_ORIGIN}/\nreplace-registry-host=never\n` }));
    expect(run.code, run.stderr).toBe(3);
  });
});

describe("a bun.lock under the registry the project's bunfig.toml names (nerq never follows it)", () => {
  const SECRET = 'bunfig-s3cret-token';
  const bunLock = (integrity: string) => ({
    'package.json': MANIFEST,
    'bun.lock': JSON.stringify({ lockfileVersion: 1, workspaces: { '': { name: 'app', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } } }, packages: { [TRUSTED.name]: [`${TRUSTED.name}@${TRUSTED.version}`, '', {}, integrity] } }),
  });
  const configs: [label: string, files: Record<string, string>][] = [
    ['[install] registry, a URL with credentials', { 'bunfig.toml': `[install]\nregistry = "${UNRESOLVABLE_ORIGIN.replace('//', `//user:${SECRET}@`)}/"\n` }],
    ['[install.registry] table with a token', { 'bunfig.toml': `[install.registry]\nurl = "${UNRESOLVABLE_ORIGIN}/"\ntoken = "${SECRET}"\n` }],
    ['the project .npmrc (bun reads it too)', NPMRC],
  ];
  it.concurrent.for(configs)('%s, no integrity: incomplete (exit 3), naming the host, never the token', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files], { task, expect }) => {
    noteCases(task);
    const run = await audit({ ...bunLock(''), ...files });
    const context = expectIncomplete(expect, run, label, TRUSTED.name, EVIL_HOST);
    expect(run.stdout + run.stderr, context).not.toContain(SECRET);
  });

  it("the registry's hash pinned: audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit({ ...bunLock(trustedIntegrity), 'bunfig.toml': `[install]\nregistry = "${UNRESOLVABLE_ORIGIN}/"\n` });
    expect(run.code, run.stderr).toBe(0);
  });

  it('no integrity, no bunfig.toml: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(bunLock(''));
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("a yarn berry lockfile under a .yarnrc.yml that names a registry", () => {
  const lock = berryLock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: TRUSTED.version, resolution: `${TRUSTED.name}@npm:${TRUSTED.version}`, checksum: '10c0/0123456789abcdef' });

  it('the checksum is of yarn\'s own archive, no hash the registry publishes: incomplete (exit 3), naming the host', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit({ 'package.json': MANIFEST, 'yarn.lock': lock, '.yarnrc.yml': `npmRegistryServer: "${UNRESOLVABLE_ORIGIN}"\n` });
    expectIncomplete(expect, run, '', TRUSTED.name, EVIL_HOST);
  });

  it('without the .yarnrc.yml: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit({ 'package.json': MANIFEST, 'yarn.lock': lock });
    expect(run.code, run.stderr).toBe(0);
  });

  // Real projects name the public registry (or the user's own) in their .yarnrc.yml: yarn goes nowhere nerq does not read.
  it.for([
    ['the public registry', () => publicRegistry],
    ["the user's own registry", () => registry],
  ] as const)('a .yarnrc.yml naming %s: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, server], { task, expect }) => {
    noteCases(task);
    const run = await audit({ 'package.json': MANIFEST, 'yarn.lock': lock, '.yarnrc.yml': `npmRegistryServer: "${server().replace(/\/$/, '')}"\n` });
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("yarn's own public registry, which serves the public registry's content", () => {
  const berry = (pkg: SyntheticPackage) => ({
    'package.json': JSON.stringify({ name: 'app', version: '1.0.0', packageManager: 'yarn@4.5.1', dependencies: { [pkg.name]: `^${pkg.version}` } }),
    'yarn.lock': berryLock({ name: pkg.name, range: `^${pkg.version}`, version: pkg.version, resolution: `${pkg.name}@npm:${pkg.version}`, checksum: '10c0/0123456789abcdef' }),
  });
  const passes = (run: { stdout: string }, pkg: SyntheticPackage) => parseAudit(run.stdout).entries.find((e) => e.subject.name === pkg.name);

  // Yarn berry's default npmRegistryServer, which real projects write out (the default one and a scope's): no finding.
  it.concurrent.for([
    ['npmRegistryServer', TRUSTED],
    ['npmScopes.nerq-scope.npmRegistryServer', SCOPED],
  ] as const)("a real-shaped .yarnrc.yml naming it in %s, hashless berry pins: audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async ([, pkg], { task, expect }) => {
    noteCases(task);
    const run = await audit({ ...berry(pkg), '.yarnrc.yml': YARNPKG_YARNRC });
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expect(run.code, context).toBe(0);
    const entry = passes(run, pkg);
    expect(entry?.policy.status, context).toBe('pass');
    expect(entry?.policy.failures, context).toEqual([]);
  });

  it.concurrent.for([`${YARN_PUBLIC}/`, `${YARN_PUBLIC}//`, YARN_PUBLIC.toUpperCase().replace('HTTPS', 'https')])(
    'npmRegistryServer %s: audited, exit 0',
    { timeout: CLI_TEST_TIMEOUT_MS },
    async (value, { task, expect }) => {
      noteCases(task);
      const run = await audit({ ...berry(TRUSTED), '.yarnrc.yml': `npmRegistryServer: "${value}"\n` });
      expect(run.code, run.stderr).toBe(0);
    },
  );

  // Not yarn's public registry: its host over plain http, or any host once NERQ_YARN_PUBLIC_REGISTRY names another.
  it.concurrent.for([
    ['over plain http', { '.yarnrc.yml': `npmRegistryServer: "${YARN_PUBLIC.replace('https:', 'http:')}"\n` }, undefined],
    ['with NERQ_YARN_PUBLIC_REGISTRY naming another host', { '.yarnrc.yml': YARNPKG_YARNRC }, { NERQ_YARN_PUBLIC_REGISTRY: 'http://127.0.0.1:9/yarn-public/' }],
  ] as const)("yarn's host %s, hashless berry pins: incomplete (exit 3), naming the host", { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files, env], { task, expect }) => {
    noteCases(task);
    const run = await audit({ ...berry(TRUSTED), ...files }, env);
    expectIncomplete(expect, run, label, TRUSTED.name, new URL(YARN_PUBLIC).host);
  });

  // yarn 1 writes yarn's host into `resolved` and fetches it as written.
  const classic = (integrity: string | null) => ({
    'package.json': MANIFEST,
    'yarn.lock': [
      '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.',
      '# yarn lockfile v1',
      '',
      '',
      `"${TRUSTED.name}@^${TRUSTED.version}":`,
      `  version "${TRUSTED.version}"`,
      `  resolved "${YARN_PUBLIC}/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz"`,
      ...(integrity === null ? [] : [`  integrity ${integrity}`]),
      '',
    ].join('\n'),
  });

  const pins: [label: string, integrity: () => string | null][] = [
    ["the registry's integrity", () => trustedIntegrity],
    ['no hash', () => null],
  ];
  it.concurrent.for(pins)('yarn 1: resolved on it with %s: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, integrity], { task, expect }) => {
    noteCases(task);
    const run = await audit(classic(integrity()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expect(run.code, context).toBe(0);
    expect(passes(run, TRUSTED)?.policy.failures, context).toEqual([]);
  });

  it('yarn 1: resolved on it with no hash, NERQ_YARN_PUBLIC_REGISTRY naming another host: lockfile-injection (exit 1)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(classic(null), { NERQ_YARN_PUBLIC_REGISTRY: 'http://127.0.0.1:9/yarn-public/' });
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expect(run.code, context).toBe(1);
    expect(passes(run, TRUSTED)?.policy.failures.map((f) => f.rule), context).toContain('lockfile-injection');
  });
});

describe("a yarn 1 lockfile under the registry the project's .yarnrc names (nerq never follows it)", () => {
  /** A yarn.lock v1 pinning `pkg` on the public registry (moved to the configured one), with `integrity` or none. */
  const classic = (pkg: SyntheticPackage, integrity: string | null) => ({
    'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [pkg.name]: `^${pkg.version}` } }),
    'yarn.lock': [
      '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.',
      '# yarn lockfile v1',
      '',
      '',
      `"${pkg.name}@^${pkg.version}":`,
      `  version "${pkg.version}"`,
      `  resolved "${publicRegistry}/${pkg.name}/-/${pkg.name.slice(pkg.name.indexOf('/') + 1)}-${pkg.version}.tgz"`,
      ...(integrity === null ? [] : [`  integrity ${integrity}`]),
      '',
    ].join('\n'),
  });
  const cases: [label: string, pkg: SyntheticPackage, config: () => Record<string, string>][] = [
    ['.yarnrc registry', TRUSTED, () => ({ '.yarnrc': `registry "${UNRESOLVABLE_ORIGIN}/"\n` })],
    ['.yarnrc "@scope:registry"', SCOPED, () => ({ '.yarnrc': `"@nerq-scope:registry" "${UNRESOLVABLE_ORIGIN}/"\n` })],
    // yarn 1 reads a key written as a flag as that option on its command line (its src/rc.js).
    // yarn 1 strips a byte-order mark before it parses the file.
    ['.yarnrc registry on its first line after a byte-order mark', TRUSTED, () => ({ '.yarnrc': `\ufeffregistry "${UNRESOLVABLE_ORIGIN}/"\n` })],
    ['.yarnrc --registry', TRUSTED, () => ({ '.yarnrc': `--registry "${UNRESOLVABLE_ORIGIN}/"\n` })],
    ['.yarnrc --install.registry over a registry naming the public one', TRUSTED, () => ({ '.yarnrc': `registry "${publicRegistry}"\n--install.registry "${UNRESOLVABLE_ORIGIN}/"\n` })],
    // yarn 1 reads both files: one naming the public registry does not vouch for the other's host.
    ['.npmrc registry beside a .yarnrc naming the public registry', TRUSTED, () => ({ ...NPMRC, '.yarnrc': `registry "${publicRegistry}"\n` })],
  ];
  it.concurrent.for(cases)('%s, no integrity: incomplete (exit 3), naming the host', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, pkg, config], { task, expect }) => {
    noteCases(task);
    const run = await audit({ ...classic(pkg, null), ...config() });
    expectIncomplete(expect, run, label, pkg.name, EVIL_HOST);
  });

  const passing: [label: string, files: () => Record<string, string>][] = [
    ["the registry's hash pinned", () => ({ ...classic(TRUSTED, trustedIntegrity), '.yarnrc': `registry "${UNRESOLVABLE_ORIGIN}/"\n` })],
    ['no .yarnrc', () => classic(TRUSTED, null)],
    ["a .yarnrc naming yarn's public registry", () => ({ ...classic(TRUSTED, null), '.yarnrc': 'registry "https://registry.yarnpkg.com"\n' })],
    ['a .yarnrc naming the public registry', () => ({ ...classic(TRUSTED, null), '.yarnrc': `registry "${publicRegistry}"\n` })],
  ];
  it.concurrent.for(passing)('%s: audited, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files], { task, expect }) => {
    noteCases(task);
    const run = await audit(files());
    expect(run.code, `${label}: ${run.stderr.slice(0, 500)}`).toBe(0);
  });
});

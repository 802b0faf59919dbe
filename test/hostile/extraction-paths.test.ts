/**
 * Hostile world: where npm's extraction puts a tarball entry. npm (pacote) extracts a package
 * with node-tar's `strip: 1` and no links: the first path component goes whatever it is, then
 * any absolute root the rest still has (`/`, `\`, `C:`, `\\?\C:\`) is stripped, `.` and empty
 * components vanish. So `./package.json`, `/package.json`, `x/\package.json` or `x/C:package.json`
 * written after an honest `package/package.json` become the package.json npm runs scripts from,
 * and `./package/package.json` is NOT it (it lands in a `package/` subfolder). nerq must read the
 * file extraction writes: each layout is extracted for real here (node-tar, pacote's options)
 * and compared with what nerq read; a few go through `nerq check` end to end.
 *
 * The archives are synthetic: chalk 4.1.0's package.json (as its packument describes it) with
 * a postinstall added, under the entry names above.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { x as extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { rawTar, type RawEntry } from './support/hostile-tarballs.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, vouchedFor } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const MANIFEST = { name: 'chalk', version: '4.1.0', main: 'source', dependencies: { 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' }, scripts: { test: 'xo && nyc ava && tsd' } };
const HONEST = JSON.stringify(MANIFEST);
const EVIL = JSON.stringify({ ...MANIFEST, scripts: { ...MANIFEST.scripts, postinstall: 'node steal.js' } });
const file = (entryPath: string, content: string): RawEntry => ({ path: entryPath, type: '0', content });

/** Archives whose last word on package.json is one npm and a plain reading of the paths disagree on. */
const LAYOUTS: [label: string, entries: RawEntry[]][] = [
  ...['./package.json', '/package.json', '//package.json', 'x/\\package.json', 'x/C:package.json', 'x/c:/package.json', 'x/\\\\?\\C:\\package.json', 'package//package.json', 'package/./package.json'].map(
    (name): [string, RawEntry[]] => [`a later ${JSON.stringify(name)}`, [file('package/package.json', HONEST), file(name, EVIL)]],
  ),
  ['an honest "./package/package.json" after the real one (it lands in package/package/)', [file('package/package.json', EVIL), file('./package/package.json', HONEST)]],
  ['a later "package/a/../package.json" (extraction refuses "..")', [file('package/package.json', EVIL), file('package/a/../package.json', HONEST)]],
  ['a later top-level "package.json" (stripping leaves nothing)', [file('package/package.json', EVIL), file('package.json', HONEST)]],
];

/** What node-tar writes as the package's package.json with pacote's options (links are never extracted). */
async function extractedManifest(tgz: Buffer): Promise<string | null> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-extract-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const unpack = extract({ cwd: dir, strip: 1, noChmod: true, noMtime: true, preserveOwner: false, onwarn: () => undefined, filter: (_p, entry) => !/Link$/.test(String((entry as { type?: unknown }).type)) });
      unpack.on('close', resolve);
      unpack.on('error', reject);
      unpack.end(tgz);
    });
    const manifest = path.join(dir, 'package.json');
    return existsSync(manifest) ? readFileSync(manifest, 'utf8') : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('nerq reads the package.json that extraction writes', () => {
  it.for(LAYOUTS)('%s', async ([label, entries], { task }) => {
    noteCases(task);
    const tgz = zlib.gzipSync(rawTar(entries));
    const written = await extractedManifest(tgz);
    expect(written, label).not.toBeNull();
    const read = await readTarball(tgz);
    if (read.status !== 'ok') throw new Error(`${label}: ${read.reason}`);
    const expected = JSON.parse(written!) as { scripts: Record<string, string> };
    expect(read.facts.manifest?.installScripts.postinstall, label).toBe(expected.scripts.postinstall);
  });

  it.for([
    ['"./binding.gyp"', './binding.gyp'],
    ['"/binding.gyp"', '/binding.gyp'],
  ])('a %s is the binding.gyp npm runs node-gyp for', async ([label, name], { task }) => {
    noteCases(task);
    const read = await readTarball(zlib.gzipSync(rawTar([file('package/package.json', HONEST), file(name, '{"targets":[]}')])));
    if (read.status !== 'ok') throw new Error(`${label}: ${read.reason}`);
    expect(read.facts.bindingGyp, label).toBe(true);
  });

  it('a bundled package under "./node_modules/" is where npm puts it', async ({ task }) => {
    noteCases(task);
    const read = await readTarball(zlib.gzipSync(rawTar([file('package/package.json', HONEST), file('./node_modules/evil/package.json', '{"name":"evil","version":"1.0.0","scripts":{"install":"node x.js"}}')])));
    if (read.status !== 'ok') throw new Error(read.reason);
    expect(read.facts.bundled.map((b) => [b.path, b.manifest?.installScripts])).toEqual([['node_modules/evil', { install: 'node x.js' }]]);
  });

  it('"package\\package.json" (Windows reads the backslash as a folder) is read as package.json there', async ({ task }) => {
    noteCases(task);
    const read = await readTarball(zlib.gzipSync(rawTar([file('package/package.json', HONEST), file('package\\package.json', EVIL)])));
    if (read.status !== 'ok') throw new Error(read.reason);
    expect(read.facts.manifestAliases.map((a) => [a.path, a.manifest?.installScripts.postinstall])).toEqual([['package\\package.json', 'node steal.js']]);
  });
});

describe('nerq check on such a tarball', () => {
  it.concurrent.for(
    (['./package.json', '/package.json', 'x/\\package.json', 'x/C:package.json', 'package\\package.json'] as const).map((name) => [`a later ${JSON.stringify(name)} with a postinstall`, name] as const),
  )('%s: install-scripts sees it, manifest-confusion fails, the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, name], { task, expect }) => {
    noteCases(task);
    const tarball = zlib.gzipSync(rawTar([file('package/package.json', HONEST), file('package/readme.md', '# chalk\n\nTerminal string styling.\n'), file(name, EVIL)]));
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarball), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').messageId, label).toBe('different');
    expect(report.verdictCode, label).not.toBe('yes');
    // Windows only: an alias, not what Linux extraction runs.
    if (name !== 'package\\package.json') expect(checkOf(report, 'install-scripts').messageId, label).not.toBe('none');
  });
});

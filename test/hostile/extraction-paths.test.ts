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
import { createHttpClient } from '../../src/sources/http/client.js';
import { DEFAULT_TARBALL_CAPS, fetchTarballFacts, readTarball } from '../../src/sources/npm/tarball.js';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { tarHeader } from '../support/tarball.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { MiB, rawTar, type RawEntry } from './support/hostile-tarballs.js';
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
  ] as const)('a %s is the binding.gyp npm runs node-gyp for', async ([label, name], { task }) => {
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

/** `before`, a file of `bytes` zeros (8 MiB gzip members, compressed once and repeated), `after`: gunzip reads the members as one stream. */
function zerosBetween(before: Buffer, bytes: number, after: Buffer): Buffer {
  const chunk = 8 * MiB;
  if (bytes % chunk !== 0) throw new Error('the file is built of 8 MiB members');
  const zeros = zlib.gzipSync(Buffer.alloc(chunk), { level: 9 });
  return Buffer.concat([zlib.gzipSync(before), zlib.gzipSync(tarHeader({ path: 'package/data.bin', type: 'file', size: bytes })), ...Array.from({ length: bytes / chunk }, () => zeros), zlib.gzipSync(after)]);
}

/**
 * A tarball nerq does not read to its end is not one without install scripts. npm's extraction
 * skips an entry whose header is invalid and goes on, and has no cap on entries or unpacked size,
 * so a package.json after either is the one npm runs. nerq now reads past an invalid header as
 * npm does; past a cap (docs/security.md, "Memory") it stops, and manifest-confusion then holds
 * the verdict. The world is chalk's, read on 2020-07-01 (three weeks after 4.1.0): with an honest
 * tarball it is a YES, so a YES here would be nerq vouching for scripts it never saw.
 */
describe('a tarball nerq does not read to its end', () => {
  const FRESH = { NERQ_NOW: '2020-07-01T00:00:00Z' };
  const head = (tar: Buffer): Buffer => tar.subarray(0, tar.length - 1024); // without the two end blocks
  // The entry module its `main` names is shipped (entry-points), as chalk's is.
  const honestStart = head(rawTar([file('package/package.json', HONEST), file('package/readme.md', '# chalk\n\nTerminal string styling.\n'), file('package/source/index.js', 'module.exports = {};\n')]));
  const evilEnd = rawTar([file('package/package.json', EVIL)]);
  const garbageBlock = (): Buffer => zlib.gzipSync(Buffer.concat([honestStart, Buffer.alloc(512, 0x41), evilEnd]));
  const pastCaps: [label: string, tarball: () => Buffer][] = [
    [`a file of zeros past ${DEFAULT_TARBALL_CAPS.decompressedBytes / MiB} MiB unpacked before a later package.json`, () => zerosBetween(honestStart, DEFAULT_TARBALL_CAPS.decompressedBytes + 8 * MiB, evilEnd)],
  ];

  it('a block of garbage before a later package.json: npm skips it and extracts the rest, and so does nerq', async ({ task }) => {
    noteCases(task);
    const tgz = garbageBlock();
    expect(await extractedManifest(tgz)).toBe(EVIL);
    const read = await readTarball(tgz);
    if (read.status !== 'ok') throw new Error(read.reason);
    expect(read.facts.manifest?.installScripts.postinstall).toBe('node steal.js');
  });

  it('nerq check on it: manifest-confusion fails and holds the verdict', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, 'garbage block', { ...vouchedFor(garbageBlock()), osv: osvNoAdvisories }, { env: FRESH });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').messageId).toBe('different');
    expect(checkOf(report, 'install-scripts').messageId).not.toBe('none');
    expect(report.verdictCode).not.toBe('yes');
  });

  // 50,000 entries (more than @mui/icons-material's 43,010, and past the 20,000 nerq once
  // stopped at) are read to the end: the later package.json is the one compared.
  it('50,000 entries before a later package.json: read to the end, manifest-confusion fails and holds the verdict', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const tgz = zlib.gzipSync(Buffer.concat([honestStart, head(rawTar(Array.from({ length: 50_000 }, (_, i) => file(`package/lib/f${i}.js`, '')))), evilEnd]));
    expect(await extractedManifest(tgz)).toBe(EVIL);
    const { report, sandbox } = await evaluate(task, 'many entries', { ...vouchedFor(tgz), osv: osvNoAdvisories }, { env: FRESH });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').messageId).toBe('different');
    expect(report.verdictCode).not.toBe('yes');
  });

  it.concurrent.for(pastCaps)('%s: manifest-confusion is unknown and holds the verdict', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, tarball], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarball()), osv: osvNoAdvisories }, { env: FRESH });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score, label).toBeNull();
    // Not "No install-time scripts": what npm runs is unknown.
    expect(checkOf(report, 'install-scripts').score, label).toBeNull();
    expect(report.verdictCode, label).not.toBe('yes');
    expect(report.verdictReasonDetails.filter((r) => r.code === 'verdict-held').map((r) => r.args.check).sort(), label).toEqual(['install-scripts', 'manifest-confusion']);
  });

  it('a package.json over the 1 MiB nerq reads (npm reads it whole): manifest-confusion is unknown and holds the verdict', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const big = JSON.stringify({ ...JSON.parse(EVIL), description: 'x'.repeat(1024 * 1024) });
    const tarball = zlib.gzipSync(rawTar([file('package/package.json', big), file('package/readme.md', '# chalk\n\nTerminal string styling.\n')]));
    const { report, sandbox } = await evaluate(task, 'big package.json', { ...vouchedFor(tarball), osv: osvNoAdvisories }, { env: FRESH });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score).toBeNull();
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.filter((r) => r.code === 'verdict-held').map((r) => r.args.check)).toEqual(['manifest-confusion']);
  });

  it('a download past the compressed cap is unread too (not "unavailable" alone)', async ({ task }) => {
    noteCases(task);
    const server = await startFixtureServer();
    const http = createHttpClient({ retry: { retries: 0 } });
    try {
      server.expect('GET', '/npm/big.tgz', { body: zlib.gzipSync(Buffer.concat([honestStart, evilEnd])) });
      const result = await fetchTarballFacts(http, `${server.url('npm')}/big.tgz`, { caps: { compressedBytes: 64 } });
      expect(result).toMatchObject({ status: 'unavailable', unread: true });
    } finally {
      await http.close();
      await server.close();
    }
  });

  it('the same world with a tarball read to its end is a YES (the holds above come from the tarball)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const tarball = zlib.gzipSync(Buffer.concat([honestStart, Buffer.alloc(1024)]));
    const { report, sandbox } = await evaluate(task, 'honest', { ...vouchedFor(tarball), osv: osvNoAdvisories }, { env: FRESH });
    sandbox.remove();
    expect(checkOf(report, 'manifest-confusion').score).toBe(100);
    expect(report.verdictCode).toBe('yes');
  });
});

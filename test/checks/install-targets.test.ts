import { describe, expect, test } from 'vitest';
import { folderPaths, installTargets, localImports, packagePath } from '../../src/checks/lib/install-targets.js';

const paths = (command: string) => installTargets(command).map((t) => `${t.language}:${t.path}`);

describe('installTargets: the package files a lifecycle command runs', () => {
  test.each([
    // Real commands of packages with install scripts (registry manifests of esbuild, node-sass, yarn, core-js, nx, cpu-features, geckodriver…).
    ['node install.js', ['javascript:install.js']],
    ['node scripts/install.js', ['javascript:scripts/install.js']],
    [':; (node ./preinstall.js > /dev/null 2>&1 || true)', ['javascript:preinstall.js']],
    [`node -e "try{require('./postinstall')}catch(e){}"`, ['javascript:postinstall']],
    [` node -e "try{require('./_postinstall')}catch(e){}" || exit 0`, ['javascript:_postinstall']],
    ['node buildcheck.js > buildcheck.gypi && node-gyp rebuild', ['javascript:buildcheck.js', 'gyp:binding.gyp']],
    ['test -f ./dist/install.js && node ./dist/install.js || echo "Skipping install"', ['javascript:dist/install.js']],
    ['node dist/index.js --exec install', ['javascript:dist/index.js']],
    ['node-gyp rebuild || node suppress-error.js', ['gyp:binding.gyp', 'javascript:suppress-error.js']],
    // node-gyp reads the build file and runs its commands (gyp-commands.ts); node-gyp-build and node-pre-gyp run node-gyp.
    ['prebuild-install -r napi || node-gyp rebuild', ['gyp:binding.gyp']],
    ['node-gyp-build', ['gyp:binding.gyp']],
    ['node-pre-gyp install --fallback-to-build', ['gyp:binding.gyp']],
    ['npx node-gyp rebuild', ['gyp:binding.gyp']],
    ['node-gyp rebuild --directory=src', ['gyp:src/binding.gyp']],
    ['node-gyp -C native rebuild', ['gyp:native/binding.gyp']],
    ['node-gyp rebuild --directory=../x', []],
    ['node <(module_root_dir)/x.js', []],
    [`node -pe 'require("./package.json").version'`, []],
    [`node -pe "require('./lib/paths').include"`, ['javascript:lib/paths']],
    // Other shapes.
    ['FOO=1 node --max-old-space-size 4096 -r ./hook.js ./main', ['javascript:hook.js', 'javascript:main']],
    ['cross-env NODE_ENV=production node setup.mjs arg1 arg2', ['javascript:setup.mjs']],
    ['sh ./install.sh', ['shell:install.sh']],
    ['bash -e scripts/setup', ['shell:scripts/setup']],
    [`sh -c "node ./x.js"`, ['javascript:x.js']],
    ['python3 build.py', ['python:build.py']],
    ['python -c "import os"', []],
    ['./configure && make', ['shell:configure']],
    ['./bin/setup.js', ['javascript:bin/setup.js']],
    // `node .`: the folder itself, run by its package.json's `main` (installTargets' third argument: the folder's package.json), else its index.js.
    ['node .', ['javascript:index.js']],
    ['node ./ run', ['javascript:index.js']],
    ['node ../../etc/evil.js', []],
    ['node /tmp/x.js', []],
    ['node $HOME/x.js', []],
    ['node ~/x.js', []],
    ['node a/../../b.js', []],
    ['node a/../b.js', ['javascript:b.js']],
  ])('%s', (command, expected) => {
    expect(paths(command)).toEqual(expected);
  });

  test.each([
    // A bundled package's command runs in its folder; `..` is resolved as the shell would, inside the tarball only.
    ['node index.js', 'node_modules/h', ['javascript:node_modules/h/index.js']],
    ['node ../../lib/setup.js', 'node_modules/h', ['javascript:lib/setup.js']],
    ['node ../other/x.js', 'node_modules/h', ['javascript:node_modules/other/x.js']],
    ['node ../../../x.js', 'node_modules/h', []],
    ['node ../../x.js', 'node_modules/@s/h', ['javascript:node_modules/x.js']],
    ['node-gyp rebuild', 'node_modules/a/node_modules/b', ['gyp:node_modules/a/node_modules/b/binding.gyp']],
    ['sh -c "node ./a.js"', 'node_modules/h', ['javascript:node_modules/h/a.js']],
    ['./install.sh', 'node_modules/h', ['shell:node_modules/h/install.sh']],
    ['python ../../build.py', 'node_modules/h', ['python:build.py']],
    ['node /node_modules/h/x.js', 'node_modules/h', []],
    ['node ~/x.js', 'node_modules/h', []],
  ])('%s run in %s', (command, dir, expected) => {
    expect(installTargets(command, dir).map((t) => `${t.language}:${t.path}`)).toEqual(expected);
    expect(installTargets('node scripts/post', 'node_modules/h')[0]?.candidates[1]).toBe('node_modules/h/scripts/post.js');
  });

  test("node's candidates for a path without an extension", () => {
    expect(installTargets('node scripts/post')[0]?.candidates).toEqual([
      'scripts/post',
      'scripts/post.js',
      'scripts/post.cjs',
      'scripts/post.mjs',
      'scripts/post/index.js',
      'scripts/post/index.cjs',
      'scripts/post/index.mjs',
    ]);
    expect(installTargets('node install.js')[0]?.candidates).toEqual(['install.js']);
  });

  test('a command longer than the scanned text names nothing (the command itself is flagged oversized)', () => {
    expect(installTargets(`node x.js ${'a'.repeat(5000)}`)).toEqual([]);
  });

  test('at most 8 targets per command', () => {
    expect(installTargets(Array.from({ length: 20 }, (_, i) => `node f${i}.js`).join(' && '))).toHaveLength(8);
  });
});

describe('packagePath', () => {
  test.each([
    ['./a/./b.js', 'a/b.js'],
    ['a\\b.js', 'a/b.js'],
    ['C:\\x.js', null],
    ['..', null],
    ['.', null],
    ['a\0b', null],
  ])('%s', (raw, expected) => expect(packagePath(raw)).toBe(expected));
});

describe('localImports', () => {
  test('relative require, import, dynamic import and re-export, resolved against the file', () => {
    const text = [
      "const a = require('./a');",
      'import b from "../b.js";',
      "import './side-effect.mjs';",
      "export { c } from './c';",
      "await import('./d.cjs');",
      "require('fs'); require('left-pad'); require(variable);",
    ].join('\n');
    expect(localImports(text, 'scripts/install.js').map((c) => c[0])).toEqual(['scripts/a', 'b.js', 'scripts/side-effect.mjs', 'scripts/c', 'scripts/d.cjs']);
  });

  test('an import that leaves the package names nothing', () => {
    expect(localImports("require('../../../x')", 'install.js')).toEqual([]);
  });
});

describe('folderPaths', () => {
  test('paths built from the file\'s own folder, resolved against it, with the language each is read as', () => {
    const text = [
      "spawn(process.execPath, [path.join(__dirname, 'payload.js')], { detached: true });",
      'execSync(`sh ${__dirname}/tools/run.sh`);',
      "fork(__dirname + '/../lib/worker.cjs');",
      "const p = require('path').resolve(__dirname, '..', 'build', 'setup.py');",
      "const u = fileURLToPath(new URL('./stage2.mjs', import.meta.url));",
    ].join('\n');
    expect(folderPaths(text, 'scripts/install.js').map((t) => [t.path, t.language])).toEqual([
      ['scripts/payload.js', 'javascript'],
      ['build/setup.py', 'python'],
      ['scripts/tools/run.sh', 'shell'],
      ['lib/worker.cjs', 'javascript'],
      ['scripts/stage2.mjs', 'javascript'],
    ]);
  });

  test('files that are not code, computed pieces, and paths leaving the package name nothing', () => {
    const text = [
      "path.join(__dirname, 'build', 'Release', 'addon.node');",
      "path.join(__dirname, 'package.json');",
      'path.join(__dirname, name);',
      "path.join(__dirname, '../../../etc/x.js');",
      "path.join(__dirname, `${dir}/x.js`);",
      "path.join(process.cwd(), 'x.js');",
    ].join('\n');
    expect(folderPaths(text, 'install.js')).toEqual([]);
  });
});

describe("installTargets: `node .` and the folder's main", () => {
  test('the main first, then the index files node falls back to', () => {
    expect(installTargets('node . --postinstall', '', { main: 'build/stealer' })[0]?.candidates).toEqual([
      'build/stealer', 'build/stealer.js', 'build/stealer.cjs', 'build/stealer.mjs', 'build/stealer/index.js', 'build/stealer/index.cjs', 'build/stealer/index.mjs', 'index.js', 'index.cjs', 'index.mjs',
    ]);
    expect(installTargets('node .', 'node_modules/helper', { main: './lib/run.js' }).map((t) => t.path)).toEqual(['node_modules/helper/lib/run.js']);
    // A main outside the folder runs no file of the tarball nerq can place: the index files stay.
    expect(installTargets('node .', '', { main: '../../x.js' }).map((t) => t.path)).toEqual(['index.js']);
    // `node ..` and `node .x` are not the folder itself.
    expect(installTargets('node ..', '', { main: 'a.js' })).toEqual([]);
    expect(installTargets('node .x', '', { main: 'a.js' }).map((t) => t.path)).toEqual(['.x']);
  });
});

describe('installTargets: wrappers, runners and package scripts', () => {
  test.each([
    // Windows' detached start and cmd /c, and the other wrappers malicious packages put before node.
    ['start /B node index.js', ['javascript:index.js']],
    ['start "" /min node index.js', ['javascript:index.js']],
    ['cmd /c node index.js', ['javascript:index.js']],
    ['cmd.exe /c "node setup.js"', ['javascript:setup.js']],
    ['setsid node x.js', ['javascript:x.js']],
    ['timeout 5 node x.js', ['javascript:x.js']],
    ['nice -n 10 node x.js', ['javascript:x.js']],
    ['sudo -E node x.js', ['javascript:x.js']],
    ['if [ -f a.js ]; then node a.js; fi', ['javascript:a.js']],
    ['yarn node x.js', ['javascript:x.js']],
    ['bun x.js', ['javascript:x.js']],
    ['bun run x.js', ['javascript:x.js']],
    ['tsx x.ts', ['javascript:x.ts']],
    ['npx tsx x.ts', ['javascript:x.ts']],
    // Near cases: no file of the package.
    ['start http://example.com', []],
    ['bun install', []],
    ['yarn build', []],
  ])('%s', (command, expected) => {
    expect(paths(command)).toEqual(expected);
  });

  test('`npm run x` runs the script x of the same package.json, followed a few deep', () => {
    const scripts = { postinstall: 'npm run setup', setup: 'node lib/setup.js && yarn helper', helper: 'pnpm run deeper', deeper: 'node deep.js', loop: 'npm run loop', start: 'node server.js' };
    const of = (command: string) => installTargets(command, '', { scripts }).map((t) => t.path);
    expect(of('npm run setup')).toEqual(['lib/setup.js', 'deep.js']);
    expect(of('npm run-script --silent setup')).toEqual(['lib/setup.js', 'deep.js']);
    expect(of('bun run deeper')).toEqual(['deep.js']);
    expect(of('npm start')).toEqual(['server.js']);
    // A script that runs itself ends; a name the package.json lacks runs nothing of the package.
    expect(of('npm run loop')).toEqual([]);
    expect(of('npm run missing')).toEqual([]);
    // Without the package.json's scripts, nothing is named.
    expect(paths('npm run setup')).toEqual([]);
  });
});

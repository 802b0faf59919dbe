/**
 * What the package manager's own settings add to an input (src/lockfiles/install-settings.ts),
 * read through readInputText as an audit reads them: which entries of pnpm-workspace.yaml and
 * `.yarnrc.yml` become skipped entries, at which line, which inputs they apply to, and the
 * pnpmfile findings, the pnpmfiles an `.npmrc` names, yarn's plugins and release (berry's
 * `yarnPath`, yarn 1's `yarn-path`), and the programs and modules an `.npmrc` makes npm run. The end-to-end cases (exit codes) are in test/hostile/install-settings.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';
import { REPO_ROOT } from '../../support/run-cli.js';

const MANIFEST = JSON.stringify({ name: 'app', dependencies: { chalk: '^4.1.0' } });
const WORKSPACE = [
  'packages:', //                                              1
  '  - packages/*', //                                         2
  'overrides:', //                                             3
  '  chalk: git+https://git.example/evil/chalk.git', //        4
  '  vite: workspace:*', //                                    5
  '  debug: npm:obug@^1.0.2', //                               6
  '  left-pad: "-"', //                                        7
  '  ms: link:../ms', //                                       8
  'catalogs:', //                                              9
  '  legacy:', //                                             10
  '    react: github:evil/react', //                          11
  'packageExtensions:', //                                    12
  '  jest-circus:', //                                        13
  '    dependencies:', //                                     14
  '      slash: "3"', //                                      15
  '    peerDependencies:', //                                 16
  '      evil: https://git.example/evil.tgz', //              17
  'pnpmfile: config/hooks.cjs', //                            18
  '',
].join('\n');

describe('pnpm-workspace.yaml beside a package.json', () => {
  const input = readInputText(MANIFEST, 'package.json', { settings: { 'pnpm-workspace.yaml': WORKSPACE }, hooks: ['.pnpmfile.cjs'] });

  it('skips each spec no registry serves at its own line; workspace:, npm: aliases and removals are not skipped', () => {
    const fromSettings = (input.skipped ?? []).filter((s) => s.file === 'pnpm-workspace.yaml');
    expect(fromSettings.map((s) => [s.name, s.kind, s.host, s.line])).toEqual([
      ['chalk', 'remote', 'git.example', 4],
      ['ms', 'local', null, 8],
      ['react', 'remote', 'github.com', 11],
      ['evil', 'remote', 'git.example', 17],
    ]);
  });

  it("audits the package an override's npm: alias installs, at the override's line", () => {
    expect(input.dependencies.filter((d) => d.file === 'pnpm-workspace.yaml').map((d) => [d.name, d.spec, d.line, d.direct])).toEqual([['obug', '^1.0.2', 6, false]]);
  });

  it('beside a pnpm lockfile, the alias is left to the lockfile (it records what was installed)', () => {
    const lock = ["lockfileVersion: '9.0'", 'importers:', '  .: {}', ''].join('\n');
    const locked = readInputText(lock, 'pnpm-lock.yaml', { settings: { 'pnpm-workspace.yaml': WORKSPACE } });
    expect(locked.dependencies.filter((d) => d.file === 'pnpm-workspace.yaml')).toEqual([]);
    expect((locked.skipped ?? []).map((s) => s.name)).toEqual(['chalk', 'ms', 'react', 'evil']);
  });

  it('names each package extension and every hook pnpm runs, once each', () => {
    expect((input.findings ?? []).map((f) => [f.code, f.details.file, f.details.line])).toEqual([
      ['package-extension', 'pnpm-workspace.yaml', 13],
      ['unvouched-hook', '.pnpmfile.cjs', null],
      ['unvouched-hook', 'pnpm-workspace.yaml', 18],
    ]);
    expect((input.findings ?? []).find((f) => f.code === 'package-extension')?.details.added).toEqual(['slash', 'evil']);
  });
});

describe('which inputs read which settings', () => {
  const settings = { 'pnpm-workspace.yaml': WORKSPACE, '.yarnrc.yml': 'packageExtensions:\n  "a@*":\n    dependencies:\n      b: git+https://git.example/b.git\n' };
  const LOCK = JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } });

  it('a package-lock.json reads neither (npm reads no pnpm or yarn setting)', () => {
    const input = readInputText(LOCK, 'package-lock.json', { settings, hooks: ['.pnpmfile.cjs'] });
    expect(input.skipped ?? []).toEqual([]);
    expect(input.findings ?? []).toEqual([]);
  });

  it('a package.json reads both; a pnpmfile in another directory is not its own', () => {
    const input = readInputText(MANIFEST, 'package.json', { settings, hooks: ['sub/.pnpmfile.cjs'] });
    expect(new Set((input.skipped ?? []).map((s) => s.file))).toEqual(new Set(['pnpm-workspace.yaml', '.yarnrc.yml']));
    expect((input.findings ?? []).filter((f) => f.code === 'unvouched-hook').map((f) => f.details.hook)).toEqual(['config/hooks.cjs']);
  });

  it('a .yarnrc.yml that is not YAML is a note, not a failure (yarn refuses it itself)', () => {
    const input = readInputText(MANIFEST, 'package.json', { settings: { '.yarnrc.yml': 'packageExtensions: [\n' } });
    expect(input.notes.some((n) => n.startsWith('.yarnrc.yml') && n.includes('not read for packageExtensions'))).toBe(true);
  });
});

describe('the pnpmfiles a project .npmrc names (pnpm ≤ 10 reads them there)', () => {
  const NPMRC = [
    'auto-install-peers=true', //                      1
    '; a comment', //                                  2
    'pnpmfile = config/hooks.cjs', //                  3
    'global-pnpmfile=/opt/shared/global.cjs', //       4
    '[some-section]', //                               5
    'pnpmfile=never/read.cjs', //                      6
    '',
  ].join('\n');
  const LOCK = ["lockfileVersion: '9.0'", 'importers:', '  .: {}', ''].join('\n');
  const hooks = (input: ReturnType<typeof readInputText>) => (input.findings ?? []).filter((f) => f.code === 'unvouched-hook').map((f) => [f.details.hook, f.details.file, f.details.line]);

  it('beside a pnpm lockfile or a package.json: an unvouched-hook finding per top-level setting, at its line', () => {
    const expected = [
      ['config/hooks.cjs', '.npmrc', 3],
      ['/opt/shared/global.cjs', '.npmrc', 4],
    ];
    expect(hooks(readInputText(LOCK, 'pnpm-lock.yaml', { settings: { '.npmrc': NPMRC } }))).toEqual(expected);
    expect(hooks(readInputText(MANIFEST, 'package.json', { settings: { '.npmrc': NPMRC } }))).toEqual(expected);
  });

  it('the array form and the camelCase spelling are read; a package-lock.json and a yarn lockfile read no .npmrc pnpmfile', () => {
    const npmrc = 'pnpmfile[]=a.cjs\npnpmfile[]=b.cjs\nglobalPnpmfile=g.cjs\n';
    expect(hooks(readInputText(LOCK, 'pnpm-lock.yaml', { settings: { '.npmrc': npmrc } }))).toEqual([
      ['a.cjs', '.npmrc', 1],
      ['b.cjs', '.npmrc', 1],
      ['g.cjs', '.npmrc', 3],
    ]);
    const lock = JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } });
    expect(readInputText(lock, 'package-lock.json', { settings: { '.npmrc': NPMRC } }).findings ?? []).toEqual([]);
  });

  it("pnpm-workspace.yaml's globalPnpmfile is a hook too", () => {
    const input = readInputText(LOCK, 'pnpm-lock.yaml', { settings: { 'pnpm-workspace.yaml': 'packages: []\nglobalPnpmfile: ~/.pnpm/global.cjs\n' } });
    expect(hooks(input)).toEqual([['~/.pnpm/global.cjs', 'pnpm-workspace.yaml', 2]]);
  });
});

describe('.yarnrc.yml plugins and yarnPath (yarn berry)', () => {
  const YARN_LOCK = '__metadata:\n  version: 8\n  cacheKey: 10\n';
  const findings = (yarnrc: string) => readInputText(YARN_LOCK, 'yarn.lock', { settings: { '.yarnrc.yml': yarnrc } }).findings ?? [];
  const YARNRC = [
    'plugins:', //                                                        1
    '  - path: .yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs', //    2
    "    spec: '@yarnpkg/plugin-workspace-tools'", //                     3
    '  - path: .yarn/plugins/@yarnpkg/plugin-outdated.cjs', //           4
    '    spec: https://go.example/yarn-outdated/v4', //                   5
    '  - ./tools/local-plugin.cjs', //                                   6
    '  - path: ../../shared/plugin.cjs', //                               7
    '  - /usr/lib/yarn/plugin.cjs', //                                    8
    '  - path: ${PLUGIN_DIR}/plugin.cjs', //                              9
    '  - spec: "@yarnpkg/plugin-no-path"', //                            10
    'yarnPath: .yarn/releases/yarn-4.9.1.cjs', //                        11
    '',
  ].join('\n');

  it('a plugin in the tree is a yarn-plugin warning naming its path and where its spec says it came from', () => {
    expect(findings(YARNRC).filter((f) => f.code === 'yarn-plugin').map((f) => [f.details.path, f.details.origin, f.details.line])).toEqual([
      ['.yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs', 'official', 2],
      ['.yarn/plugins/@yarnpkg/plugin-outdated.cjs', 'third-party', 4],
      ['./tools/local-plugin.cjs', 'unknown', 6],
    ]);
  });

  it('a plugin whose path leaves the folder (.., absolute, an environment variable) is an unvouched-hook finding', () => {
    expect(findings(YARNRC).filter((f) => f.code === 'unvouched-hook').map((f) => [f.details.hook, f.details.manager, f.details.line])).toEqual([
      ['../../shared/plugin.cjs', 'yarn', 7],
      ['/usr/lib/yarn/plugin.cjs', 'yarn', 8],
      ['${PLUGIN_DIR}/plugin.cjs', 'yarn', 9],
    ]);
  });

  it('a plugin entry without a path is a note', () => {
    const input = readInputText(YARN_LOCK, 'yarn.lock', { settings: { '.yarnrc.yml': YARNRC } });
    expect(input.notes.filter((n) => n.startsWith('.yarnrc.yml:10:'))).toHaveLength(1);
  });

  it('yarnPath in the tree is a yarn-release warning; outside it (.., absolute, home, URL, variable) an unvouched-hook finding', () => {
    expect(findings(YARNRC).filter((f) => f.code === 'yarn-release').map((f) => [f.details.release, f.details.line])).toEqual([['.yarn/releases/yarn-4.9.1.cjs', 11]]);
    for (const release of ['../yarn.cjs', 'a/../../yarn.cjs', '/opt/yarn.cjs', 'C:\\yarn.cjs', '~/yarn.cjs', 'https://example.com/yarn.cjs', '${YARN}']) {
      const all = findings(`yarnPath: '${release}'\n`);
      expect(all.map((f) => [f.code, f.details.hook]), release).toEqual([['unvouched-hook', release]]);
    }
    expect(findings("yarnPath: 'scripts/../.yarn/releases/y.cjs'\n").map((f) => f.code)).toEqual(['yarn-release']);
  });

  it("the real files: yarn's own, babel's, jest's and flex-development's .yarnrc.yml are never unvouched", () => {
    const real = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const counts = Object.fromEntries(
      [
        ['berry', 'fixtures/install-settings/yarnrc.yml'],
        ['babel', 'fixtures/install-settings/babel.yarnrc.yml'],
        ['jest', 'fixtures/install-settings/jest.yarnrc.yml'],
        ['flex-development', 'fixtures/lockfiles/real/flex-development__aggregate-error-ponyfill/.yarnrc.yml'],
      ].map(([name, file]) => {
        const all = findings(real(file ?? ''));
        const of = (code: string) => all.filter((f) => f.code === code).map((f) => (code === 'yarn-plugin' ? f.details.origin : f.details.release ?? f.details.hook));
        return [name, { plugins: of('yarn-plugin'), release: of('yarn-release'), hooks: of('unvouched-hook') }];
      }),
    );
    expect(counts).toEqual({
      berry: { plugins: [], release: ['scripts/run-yarn.js'], hooks: [] },
      babel: { plugins: ['third-party', 'third-party'], release: ['.yarn/releases/yarn-4.0.1-git.20231104.hash-afacd23.cjs'], hooks: [] },
      jest: { plugins: ['official'], release: ['.yarn/releases/yarn-sources.cjs'], hooks: [] },
      'flex-development': { plugins: [], release: ['.yarn/releases/yarn-4.0.0-rc.39.cjs'], hooks: [] },
    });
  });
});

describe('the programs and modules a project .npmrc makes npm run (script-shell, node-options, git, node-gyp, onload-script)', () => {
  const LOCK = JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } });
  const PNPM_LOCK = ["lockfileVersion: '9.0'", 'importers:', '  .: {}', ''].join('\n');
  const YARN_V1 = '# yarn lockfile v1\n\n';
  const read = (npmrc: string, input = LOCK, file = 'package-lock.json') => readInputText(input, file, { settings: { '.npmrc': npmrc } }).findings ?? [];
  const summary = (npmrc: string) => read(npmrc).map((f) => [f.code, f.details.setting, f.code === 'unvouched-hook' ? f.details.hook : f.details.program, f.details.line]);

  it('script-shell: a path in the tree is an npmrc-program warning; outside it, or a bare name on the PATH, an unvouched-hook; a system shell nothing', () => {
    for (const shell of ['./tools/shell.sh', 'scripts/sh', '.\\tools\\shell.cmd']) expect(summary(`script-shell=${shell}\n`), shell).toEqual([['npmrc-program', 'script-shell', shell, 1]]);
    for (const shell of ['../shell.sh', '/tmp/x/sh', '/opt/evil/bash', '~/bin/sh', '${SHELL_PATH}', '%SHELL%', 'my-shell', 'https://x.example/sh']) {
      expect(summary(`script-shell=${shell}\n`), shell).toEqual([['unvouched-hook', 'script-shell', shell, 1]]);
    }
    for (const shell of ['bash', '/bin/bash', '/usr/bin/zsh', 'pwsh', 'cmd.exe', '"C:\\\\Program Files\\\\Git\\\\bin\\\\bash.exe"', '/usr/local/bin/fish']) expect(summary(`script-shell=${shell}\n`), shell).toEqual([]);
  });

  it('node-options: each module --require / -r / --import / --loader / --experimental-loader names is a finding with its flag; other flags nothing', () => {
    const npmrc = ['color=false', 'node-options="--max-old-space-size=4096 --require ./hooks/pre.cjs -r ts-node/register --import=../../outside.mjs --loader \\"./my loader.mjs\\" --experimental-loader=/opt/l.mjs --require node:fs --inspect"', ''].join('\n');
    expect(read(npmrc).map((f) => [f.code, f.details.flag ?? null, f.code === 'unvouched-hook' ? f.details.hook : f.details.program, f.details.place ?? null, f.details.line])).toEqual([
      ['npmrc-program', '--require', './hooks/pre.cjs', 'tree', 2],
      ['npmrc-program', '-r', 'ts-node/register', 'package', 2],
      ['npmrc-program', '--loader', './my loader.mjs', 'tree', 2],
      ['unvouched-hook', null, '../../outside.mjs', null, 2],
      ['unvouched-hook', null, '/opt/l.mjs', null, 2],
    ]);
    expect(read('node-options=--max-old-space-size=8192 --enable-source-maps\n')).toEqual([]);
  });

  it('git, node-gyp and onload-script naming a project file; their system programs nothing', () => {
    expect(summary('git=./tools/git\nnode-gyp=scripts/gyp.js\nonload-script=./onload.js\n')).toEqual([
      ['npmrc-program', 'git', './tools/git', 1],
      ['npmrc-program', 'node-gyp', 'scripts/gyp.js', 2],
      ['npmrc-program', 'onload-script', './onload.js', 3],
    ]);
    expect(summary('git=git\ngit=/usr/bin/git\nnode-gyp=node-gyp\n')).toEqual([]);
    expect(summary('git=/home/someone/git\n')).toEqual([['unvouched-hook', 'git', '/home/someone/git', 1]]);
  });

  it('only top-level keys count; beside a pnpm lockfile or a package.json too; a yarn lockfile reads none', () => {
    expect(summary('[section]\nscript-shell=./x.sh\n')).toEqual([]);
    expect(read('script-shell=./x.sh\n', PNPM_LOCK, 'pnpm-lock.yaml').map((f) => f.code)).toEqual(['npmrc-program']);
    expect(read('script-shell=./x.sh\n', MANIFEST, 'package.json').map((f) => f.code)).toEqual(['npmrc-program']);
    expect(read('script-shell=./x.sh\n', YARN_V1, 'yarn.lock')).toEqual([]);
  });
});

describe("pnpm-workspace.yaml's scriptShell and nodeOptions (pnpm ≥ 10 reads its settings there)", () => {
  const LOCK = ["lockfileVersion: '9.0'", 'importers:', '  .: {}', ''].join('\n');
  const read = (workspace: string) =>
    (readInputText(LOCK, 'pnpm-lock.yaml', { settings: { 'pnpm-workspace.yaml': workspace } }).findings ?? []).map((f) => [f.code, f.details.setting, f.code === 'unvouched-hook' ? f.details.hook : f.details.program, f.details.line, f.details.manager ?? null]);

  it('as in .npmrc: in the tree a warning, outside an unvouched-hook (manager pnpm), a system shell nothing', () => {
    expect(read('packages: []\nscriptShell: ./tools/sh\nnodeOptions: "--import ../../outside.mjs --require ./pre.cjs"\n')).toEqual([
      ['npmrc-program', 'scriptShell', './tools/sh', 2, null],
      ['npmrc-program', 'nodeOptions', './pre.cjs', 3, null],
      ['unvouched-hook', 'nodeOptions', '../../outside.mjs', 3, 'pnpm'],
    ]);
    expect(read('scriptShell: /bin/bash\nnodeOptions: --max-old-space-size=4096\n')).toEqual([]);
  });
});

describe("yarn classic's .yarnrc yarn-path", () => {
  const YARN_V1 = '# yarn lockfile v1\n\n';
  const BERRY = '__metadata:\n  version: 8\n  cacheKey: 10\n';
  const read = (yarnrc: string, input = YARN_V1, file = 'yarn.lock') =>
    (readInputText(input, file, { settings: { '.yarnrc': yarnrc } }).findings ?? []).map((f) => [f.code, f.details.release ?? f.details.hook, f.details.line]);

  it('quoted or not, in the tree: a yarn-release warning at its line; other lines (--install.…, registry) left alone', () => {
    const yarnrc = ['# THIS IS AN AUTOGENERATED FILE', 'registry "https://r.example/"', '--install.frozen-lockfile true', 'yarn-path ".yarn/releases/yarn-1.22.22.cjs"', ''].join('\n');
    expect(read(yarnrc)).toEqual([['yarn-release', '.yarn/releases/yarn-1.22.22.cjs', 4]]);
    expect(read('yarn-path ./tools/yarn.js\r\n')).toEqual([['yarn-release', './tools/yarn.js', 1]]);
    expect(read('yarn-path ./x.js\n', MANIFEST, 'package.json')).toEqual([['yarn-release', './x.js', 1]]);
  });

  it('outside the tree (.., absolute, home, a variable): an unvouched-hook finding', () => {
    for (const release of ['../yarn.js', '/opt/yarn.js', '~/yarn.js', '${YARN}', '"C:\\\\yarn.js"']) {
      const [finding] = read(`yarn-path ${release}\n`);
      expect(finding?.[0], release).toBe('unvouched-hook');
    }
  });

  it('beside a berry lockfile, .yarnrc is not read (yarn 2+ reads .yarnrc.yml only); an indented yarn-path is no top-level setting', () => {
    expect(read('yarn-path ./x.js\n', BERRY)).toEqual([]);
    expect(read('env:\n  yarn-path ./x.js\n')).toEqual([]);
  });
});

/**
 * What the package manager's own settings add to an input (src/lockfiles/install-settings.ts),
 * read through readInputText as an audit reads them: which entries of pnpm-workspace.yaml and
 * `.yarnrc.yml` become skipped entries, at which line, which inputs they apply to, and the
 * pnpmfile findings. The end-to-end cases (exit codes) are in test/hostile/install-settings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';

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

import { describe, expect, it } from 'vitest';
import { readPackageJson } from '../../../src/lockfiles/index.js';
import { find, fixture, lineOf, only, readFixture } from './helpers.js';

describe('package.json alone', () => {
  it('declares ranges, unresolved, at their lines', () => {
    const text = fixture('package-json/package.json');
    const input = readFixture('package-json', 'package.json');
    expect(input.format).toBe('package.json');
    expect(only(input, 'chalk')).toEqual({
      ecosystem: 'npm',
      name: 'chalk',
      version: null,
      spec: '^4.1.0',
      direct: true,
      dev: false,
      file: 'package-json/package.json',
      line: lineOf(text, '"chalk"'),
      workspace: null,
      resolved: null,
    });
    expect(only(input, '@types/semver')).toMatchObject({ dev: true, spec: '^7.8.0' });
  });

  it('reads aliases and exact versions, skips peers and non-registry specifiers with a note', () => {
    const text = JSON.stringify(
      {
        dependencies: { exact: '1.2.3', sw: 'npm:string-width@^4.2.0', local: 'file:../local', fork: 'github:someone/fork' },
        optionalDependencies: { fsevents: '^2.3.0' },
        peerDependencies: { react: '>=17' },
      },
      null,
      2,
    );
    const input = readPackageJson(text, 'package.json');
    expect(only(input, 'exact')).toMatchObject({ version: '1.2.3', spec: '1.2.3' });
    expect(only(input, 'string-width')).toMatchObject({ version: null, spec: '^4.2.0', line: lineOf(text, '"sw"') });
    expect(only(input, 'fsevents')).toMatchObject({ dev: false });
    expect(find(input, 'react')).toEqual([]);
    expect(input.notes).toEqual([
      `package.json:${lineOf(text, '"local"')}: "local" skipped: not a registry dependency (local path)`,
      `package.json:${lineOf(text, '"fork"')}: "fork" skipped: not a registry dependency (git)`,
    ]);
  });

  it('reads the workspaces of a workspace root from the context, without their links to each other', () => {
    const dir = 'npm-workspaces';
    const input = readFixture(dir, 'package.json', ['packages/app/package.json', 'packages/lib/package.json']);
    const app = fixture(`${dir}/packages/app/package.json`);
    expect(find(input, '@fixture/lib')).toEqual([]);
    expect(find(input, 'chalk').map((d) => [d.workspace, d.dev])).toEqual([
      ['packages/app', false],
      ['packages/lib', true],
    ]);
    expect(only(input, 'ms')).toMatchObject({ version: '2.0.0', file: `${dir}/packages/app/package.json`, line: lineOf(app, '"ms"'), workspace: 'packages/app' });
    expect(only(input, '@types/semver')).toMatchObject({ workspace: '.', file: `${dir}/package.json` });
  });
});

describe('package.json alone: the overrides of its root', () => {
  const read = (fields: Record<string, unknown>) =>
    readPackageJson(JSON.stringify({ name: 'app', dependencies: { chalk: '^4.1.0', debug: '^4.3.0' }, ...fields }, null, 2), 'package.json');

  it('replaces a direct dependency with what an override names, at the override\'s line', () => {
    const input = read({ overrides: { chalk: 'npm:evil@1.0.0', debug: '$debug' }, resolutions: { '**/ms': '2.1.3' } });
    expect(input.dependencies.map((d) => [d.name, d.spec, d.direct, d.line])).toEqual([['evil', '1.0.0', true, 8], ['debug', '^4.3.0', true, 5]]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['npm, a name', { overrides: { chalk: 'github:evil/chalk' } }, 'chalk'],
    ['npm, name@range', { overrides: { 'chalk@^4': 'github:evil/chalk' } }, 'chalk'],
    ['npm, nested, a scoped package', { overrides: { debug: { '@scope/ms@2': 'github:evil/ms' } } }, '@scope/ms'],
    ['npm, nested, the package itself (.)', { overrides: { '@scope/ms': { '.': 'github:evil/ms' } } }, '@scope/ms'],
    ['yarn, a glob path', { resolutions: { 'debug/**/@scope/ms': 'github:evil/ms' } }, '@scope/ms'],
    ['pnpm, parent>child@range', { pnpm: { overrides: { 'debug@4>@scope/ms@<3': 'github:evil/ms' } } }, '@scope/ms'],
  ])('%s: code from outside the registry is a skipped remote entry named for the package', (_, fields, target) => {
    const input = read(fields);
    expect((input.skipped ?? []).map((s) => [s.name, s.kind, s.host])).toEqual([[target, 'remote', 'github.com']]);
    if (target === 'chalk') expect(input.dependencies.map((d) => d.name)).toEqual(['debug']);
  });

  it('adds the package an npm: alias installs deeper in the tree, as transitive; a plain version or removal adds nothing', () => {
    const input = read({ overrides: { ms: 'npm:evil@1.0.0', supports: '7.2.0' }, pnpm: { overrides: { 'a>b': '-' } } });
    expect(input.dependencies.map((d) => [d.name, d.direct])).toEqual([['chalk', true], ['debug', true], ['evil', false]]);
  });
});

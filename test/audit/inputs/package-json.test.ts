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

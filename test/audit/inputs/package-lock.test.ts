import { describe, expect, it } from 'vitest';
import { readPackageLock } from '../../../src/lockfiles/index.js';
import { LockfileError } from '../../../src/audit/types.js';
import { find, fixture, lineOf, NPM_FIXTURE_VIA, only, readFixture, viaTable } from './helpers.js';

const NAMES = ['@types/semver', 'ansi-styles', 'chalk', 'color-convert', 'color-name', 'debug', 'has-flag', 'ms', 'supports-color'];

describe('package-lock.json v2/v3', () => {
  it('puts each package at the line of its "node_modules/…" key, with where it resolves from', () => {
    const text = fixture('npm-v3/package-lock.json');
    const input = readFixture('npm-v3', 'package-lock.json', ['package.json']);
    for (const name of NAMES) {
      const dependency = only(input, name);
      expect(dependency).toMatchObject({ ecosystem: 'npm', file: 'npm-v3/package-lock.json', workspace: null, spec: null });
      expect(dependency.line).toBe(lineOf(text, `"node_modules/${name}": {`));
      expect(dependency.resolved).toBe(`{{REGISTRY}}/${name}/-/${name.split('/')[1] ?? name}-${dependency.version}.tgz`);
    }
    expect(input.notes).toEqual([]);
  });

  it('reads v2 from "packages", not from the v1 section it also carries', () => {
    const text = fixture('npm-v2/package-lock.json');
    const input = readFixture('npm-v2', 'package-lock.json');
    expect(input.dependencies).toHaveLength(NAMES.length);
    expect(only(input, 'chalk').line).toBe(lineOf(text, '"node_modules/chalk": {'));
  });

  it('names the shortest path from a direct dependency to each transitive package', () => {
    const input = readFixture('npm-v3', 'package-lock.json');
    expect(viaTable(input)).toEqual(NPM_FIXTURE_VIA);
  });

  it('decides direct from the root entry alone: no manifest needed', () => {
    const input = readFixture('npm-v3', 'package-lock.json');
    expect(input.dependencies.filter((d) => d.direct).map((d) => d.name).sort()).toEqual(['@types/semver', 'chalk', 'debug']);
  });

  const lock = (packages: Record<string, unknown>) => JSON.stringify({ lockfileVersion: 3, packages }, null, 2);

  it('names aliases by the package installed, skips links and non-registry entries with a note, and treats devOptional as not dev', () => {
    const text = lock({
      '': { dependencies: { 'string-width-cjs': 'npm:string-width@^4.2.0', local: 'file:../local', fork: 'github:someone/fork' }, devDependencies: { fsevents: '^2' } },
      'node_modules/string-width-cjs': { name: 'string-width', version: '4.2.3', resolved: 'https://r.example.test/string-width/-/string-width-4.2.3.tgz' },
      'node_modules/local': { resolved: '../local', link: true },
      '../local': { name: 'local', version: '1.0.0' },
      'node_modules/fork': { version: '2.0.0', resolved: 'git+ssh://git@github.com/someone/fork.git#0123456789abcdef0123456789abcdef01234567' },
      'node_modules/fsevents': { version: '2.3.3', devOptional: true, optional: true },
      'node_modules/nameless': { resolved: 'https://r.example.test/x.tgz' },
    });
    const input = readPackageLock(text, 'package-lock.json');
    expect(only(input, 'string-width')).toMatchObject({ version: '4.2.3', direct: true, dev: false, line: lineOf(text, '"node_modules/string-width-cjs"') });
    expect(find(input, 'local')).toEqual([]);
    expect(find(input, 'fork')).toEqual([]);
    expect(only(input, 'fsevents')).toMatchObject({ dev: false, direct: true });
    expect(input.notes).toEqual([
      `package-lock.json:${lineOf(text, '"node_modules/fork"')}: "fork" skipped: not installed from a registry (git or local path)`,
      `package-lock.json:${lineOf(text, '"node_modules/nameless"')}: "nameless" skipped: no version in the lockfile`,
    ]);
    // npm re-resolves a versionless entry from the registry: unplaced code, not a note alone.
    expect(input.skipped?.map((s) => [s.name, s.kind, s.host])).toEqual([
      ['fork', 'remote', 'github.com'],
      ['nameless', 'remote', 'r.example.test'],
    ]);
  });

  it('resolves a direct dependency the way Node does: a nested copy is not the direct one', () => {
    const text = lock({
      '': { dependencies: { a: '1', b: '1' } },
      'node_modules/a': { version: '1.0.0', dependencies: { b: '2' } },
      'node_modules/a/node_modules/b': { version: '2.0.0' },
      'node_modules/b': { version: '1.0.0' },
    });
    const input = readPackageLock(text, 'package-lock.json');
    expect(only(input, 'b', '1.0.0').direct).toBe(true);
    expect(only(input, 'b', '2.0.0')).toMatchObject({ direct: false, line: lineOf(text, '"node_modules/a/node_modules/b"') });
  });

  it('refuses a v3 lockfile without "packages"', () => {
    expect(() => readPackageLock('{\n  "lockfileVersion": 3\n}\n', 'package-lock.json')).toThrow(LockfileError);
  });
});

describe('package-lock.json with workspaces', () => {
  const lockText = fixture('npm-workspaces/package-lock.json');
  const manifests = ['package.json', 'packages/app/package.json', 'packages/lib/package.json'];

  it("attributes each direct dependency to the manifest of every workspace that declares it, at that manifest's line", () => {
    const input = readFixture('npm-workspaces', 'package-lock.json', manifests);
    const app = fixture('npm-workspaces/packages/app/package.json');
    const lib = fixture('npm-workspaces/packages/lib/package.json');
    const root = fixture('npm-workspaces/package.json');
    expect(find(input, 'chalk').map(({ file, line, workspace, direct, dev }) => ({ file, line, workspace, direct, dev }))).toEqual([
      { file: 'npm-workspaces/packages/app/package.json', line: lineOf(app, '"chalk"'), workspace: 'packages/app', direct: true, dev: false },
      { file: 'npm-workspaces/packages/lib/package.json', line: lineOf(lib, '"chalk"'), workspace: 'packages/lib', direct: true, dev: false },
    ]);
    expect(only(input, 'debug')).toMatchObject({ file: 'npm-workspaces/packages/lib/package.json', line: lineOf(lib, '"debug"'), workspace: 'packages/lib' });
    expect(only(input, '@types/semver')).toMatchObject({ file: 'npm-workspaces/package.json', line: lineOf(root, '"@types/semver"'), workspace: '.', dev: true });
  });

  it('finds a workspace’s own nested copy, and keeps transitive packages at their lockfile line', () => {
    const input = readFixture('npm-workspaces', 'package-lock.json', manifests);
    expect(only(input, 'ms', '2.0.0')).toMatchObject({ direct: true, workspace: 'packages/app', file: 'npm-workspaces/packages/app/package.json' });
    expect(only(input, 'ms', '2.1.2')).toMatchObject({ direct: false, workspace: null, file: 'npm-workspaces/package-lock.json', line: lineOf(lockText, '"node_modules/ms"') });
  });

  it('skips the workspaces themselves (link entries)', () => {
    const input = readFixture('npm-workspaces', 'package-lock.json', manifests);
    expect(input.dependencies.some((d) => d.name.startsWith('@fixture/'))).toBe(false);
  });

  it('without the manifests, still names the workspace manifest (line unknown)', () => {
    const input = readFixture('npm-workspaces', 'package-lock.json');
    expect(only(input, 'debug')).toMatchObject({ file: 'npm-workspaces/packages/lib/package.json', line: null, workspace: 'packages/lib' });
  });
});

describe('package-lock.json v1', () => {
  const text = fixture('npm-v1/package-lock.json');

  it('puts each package at the line of its key in the nested tree', () => {
    const input = readFixture('npm-v1', 'package-lock.json', ['package.json']);
    for (const name of NAMES) expect(only(input, name).line).toBe(lineOf(text, `    "${name}": {`));
    expect(input.notes).toEqual([]);
  });

  it('without package.json, guesses direct dependencies and says so', () => {
    const input = readFixture('npm-v1', 'package-lock.json');
    expect(input.dependencies.filter((d) => d.direct).map((d) => d.name).sort()).toEqual(['@types/semver', 'chalk', 'debug']);
    expect(input.notes).toEqual([expect.stringContaining('direct dependencies are guessed')]);
  });

  it('reads nested copies, aliases, and skips git dependencies', () => {
    const v1 = JSON.stringify(
      {
        lockfileVersion: 1,
        dependencies: {
          a: { version: '1.0.0', requires: { b: '^2.0.0' }, dependencies: { b: { version: '2.0.0' } } },
          b: { version: '1.0.0' },
          'sw-cjs': { version: 'npm:string-width@4.2.3' },
          fork: { version: 'github:someone/fork#0123456789abcdef0123456789abcdef01234567', from: 'github:someone/fork' },
        },
      },
      null,
      2,
    );
    const manifest = JSON.stringify({ dependencies: { a: '1', b: '1', 'sw-cjs': 'npm:string-width@4', fork: 'github:someone/fork' } });
    const input = readPackageLock(v1, 'package-lock.json', { manifests: { 'package.json': manifest } });
    expect(only(input, 'b', '2.0.0')).toMatchObject({ direct: false, line: lineOf(v1, '"b": {') });
    expect(only(input, 'b', '1.0.0')).toMatchObject({ direct: true, line: lineOf(v1, '"b": {', 2) });
    expect(only(input, 'string-width')).toMatchObject({ version: '4.2.3', direct: true });
    expect(find(input, 'fork')).toEqual([]);
    expect(input.notes).toEqual([`package-lock.json:${lineOf(v1, '"fork": {')}: "fork" skipped: the locked version is not a registry version`]);
  });
});

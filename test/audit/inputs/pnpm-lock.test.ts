import { describe, expect, it } from 'vitest';
import { readPnpmLock } from '../../../src/lockfiles/index.js';
import { find, fixture, lineOf, only, readFixture } from './helpers.js';

describe('pnpm-lock.yaml lines', () => {
  it.each([
    ['pnpm-v5', (n: string, v: string) => `  /${n}/${v}:`],
    ['pnpm-v6', (n: string, v: string) => `  /${n}@${v}:`],
    ['pnpm-v9', (n: string, v: string) => (n.startsWith('@') ? `  '${n}@${v}':` : `  ${n}@${v}:`)],
  ])('%s: each package at its key under "packages"', (dir, key) => {
    const text = fixture(`${dir}/pnpm-lock.yaml`);
    const input = readFixture(dir, 'pnpm-lock.yaml');
    expect(input.dependencies).toHaveLength(9);
    for (const d of input.dependencies) expect(d.line).toBe(lineOf(text, key(d.name, d.version ?? '')));
    expect(input.notes).toEqual([]);
  });
});

const V9_WORKSPACE = `lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      shared:
        specifier: ^1.0.0
        version: 1.0.0

  packages/web:
    dependencies:
      '@fixture/ui':
        specifier: workspace:*
        version: link:../ui
      react-dom:
        specifier: ^18.2.0
        version: 18.2.0(react@18.2.0)
      sw:
        specifier: npm:string-width@^4.2.0
        version: string-width@4.2.3
      shared:
        specifier: ^1.0.0
        version: 1.0.0
      tarball:
        specifier: https://example.test/tarball-1.0.0.tgz
        version: https://example.test/tarball-1.0.0.tgz

  packages/ui:
    dependencies:
      react-dom:
        specifier: ^18.2.0
        version: 18.2.0(react@18.3.1)
    devDependencies:
      only-dev:
        specifier: ^1.0.0
        version: 1.0.0

packages:

  only-dev@1.0.0:
    resolution: {integrity: sha512-aaaa}

  react-dom@18.2.0:
    resolution: {integrity: sha512-bbbb, tarball: https://private.example.test/react-dom/-/react-dom-18.2.0.tgz}
    peerDependencies:
      react: ^18.2.0

  react@18.2.0:
    resolution: {integrity: sha512-cccc}

  react@18.3.1:
    resolution: {integrity: sha512-dddd}

  shared@1.0.0:
    resolution: {integrity: sha512-eeee}

  string-width@4.2.3:
    resolution: {integrity: sha512-ffff}

  tarball@https://example.test/tarball-1.0.0.tgz:
    resolution: {tarball: https://example.test/tarball-1.0.0.tgz}
    version: 1.0.0

snapshots:

  only-dev@1.0.0: {}

  react-dom@18.2.0(react@18.2.0):
    dependencies:
      react: 18.2.0

  react-dom@18.2.0(react@18.3.1):
    dependencies:
      react: 18.3.1

  react@18.2.0: {}

  react@18.3.1: {}

  shared@1.0.0: {}

  string-width@4.2.3: {}

  tarball@https://example.test/tarball-1.0.0.tgz: {}
`;

describe('pnpm-lock.yaml v9 workspaces', () => {
  const webManifest = JSON.stringify({ name: 'web', dependencies: { '@fixture/ui': 'workspace:*', 'react-dom': '^18.2.0', sw: 'npm:string-width@^4.2.0', shared: '^1.0.0' } }, null, 2);
  const read = () => readPnpmLock(V9_WORKSPACE, 'pnpm-lock.yaml', { manifests: { 'packages/web/package.json': webManifest } });

  it('folds peer variants into one package per version and attributes it to each importer', () => {
    const reactDom = find(read(), 'react-dom');
    expect(reactDom.map((d) => d.workspace)).toEqual(['packages/web', 'packages/ui']);
    expect(reactDom[0]).toMatchObject({
      version: '18.2.0',
      file: 'packages/web/package.json',
      line: lineOf(webManifest, '"react-dom"'),
      resolved: 'https://private.example.test/react-dom/-/react-dom-18.2.0.tgz',
    });
    expect(reactDom[1]).toMatchObject({ file: 'packages/ui/package.json', line: null });
  });

  it('follows peer-specific snapshots to both peer versions', () => {
    const input = read();
    expect(only(input, 'react', '18.2.0')).toMatchObject({ direct: false, dev: false, line: lineOf(V9_WORKSPACE, '  react@18.2.0:') });
    expect(only(input, 'react', '18.3.1').direct).toBe(false);
  });

  it('reads aliases as the package installed, and skips workspace links and tarball URLs', () => {
    const input = read();
    expect(only(input, 'string-width')).toMatchObject({ version: '4.2.3', direct: true, workspace: 'packages/web' });
    expect(find(input, '@fixture/ui')).toEqual([]);
    expect(find(input, 'tarball')).toEqual([]);
    expect(input.notes).toEqual([
      `pnpm-lock.yaml:${lineOf(V9_WORKSPACE, '  tarball@https://example.test/tarball-1.0.0.tgz: {}')}: "tarball@https://example.test/tarball-1.0.0.tgz" skipped: not a registry package`,
    ]);
  });

  it('computes dev from the graph: dev in one importer but production in another is production', () => {
    const input = read();
    expect(find(input, 'shared').map((d) => [d.workspace, d.dev])).toEqual([
      ['.', false],
      ['packages/web', false],
    ]);
    expect(only(input, 'only-dev').dev).toBe(true);
  });
});

describe('pnpm-lock.yaml v5 and v6 keys', () => {
  it('strips v5 peer suffixes and reads v5 aliases', () => {
    const text = `lockfileVersion: 5.4

specifiers:
  react-dom: ^18.2.0
  sw: npm:string-width@^4.2.0

dependencies:
  react-dom: 18.2.0_react@18.2.0
  sw: /string-width/4.2.3

packages:

  /react-dom/18.2.0_react@18.2.0:
    resolution: {integrity: sha512-x}
    dependencies:
      react: 18.2.0
    dev: false

  /react/18.2.0:
    resolution: {integrity: sha512-y}
    dev: false

  /string-width/4.2.3:
    resolution: {integrity: sha512-z}
    dev: false

  github.com/someone/fork/0123456789abcdef:
    resolution: {tarball: https://codeload.github.com/someone/fork/tar.gz/0123456789abcdef}
    name: fork
    version: 1.0.0
    dev: false
`;
    const input = readPnpmLock(text, 'pnpm-lock.yaml');
    expect(only(input, 'react-dom')).toMatchObject({ version: '18.2.0', direct: true, line: lineOf(text, '/react-dom/18.2.0_react') });
    expect(only(input, 'react')).toMatchObject({ direct: false, dev: false });
    expect(only(input, 'string-width')).toMatchObject({ version: '4.2.3', direct: true });
    expect(find(input, 'fork')).toEqual([]);
    expect(input.notes).toHaveLength(1);
  });

  it('strips v6 peer suffixes and reads v6 aliases', () => {
    const text = `lockfileVersion: '6.0'

dependencies:
  react-dom:
    specifier: ^18.2.0
    version: 18.2.0(react@18.2.0)
  sw:
    specifier: npm:string-width@^4.2.0
    version: /string-width@4.2.3

packages:

  /react-dom@18.2.0(react@18.2.0):
    resolution: {integrity: sha512-x}
    dependencies:
      react: 18.2.0
    dev: false

  /react@18.2.0:
    resolution: {integrity: sha512-y}
    dev: false

  /string-width@4.2.3:
    resolution: {integrity: sha512-z}
    dev: false
`;
    const input = readPnpmLock(text, 'pnpm-lock.yaml');
    expect(only(input, 'react-dom')).toMatchObject({ version: '18.2.0', direct: true });
    expect(only(input, 'react').direct).toBe(false);
    expect(only(input, 'string-width').direct).toBe(true);
  });
});

describe('pnpm-lock.yaml, a packages entry with a version field of its own', () => {
  // pnpm takes the entry's `version` over its key's and builds the tarball URL from it.
  const v9 = (packageFields: string[], key = 'a@2.0.0'): string =>
    [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    dependencies:',
      '      a:',
      '        specifier: ^2.0.0',
      `        version: ${key.slice(2)}`,
      'packages:',
      `  ${key}:`,
      ...packageFields.map((f) => `    ${f}`),
      'snapshots:',
      `  ${key}: {}`,
      '',
    ].join('\n');

  it('v9: audits the release the version field names, as a lockfile substitution of the key', () => {
    const lock = v9(['resolution: {}', 'version: 1.0.0']);
    const input = readPnpmLock(lock, 'pnpm-lock.yaml');
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.lockedFor])).toEqual([['a', '1.0.0', true, 'a@2.0.0']]);
    expect(only(input, 'a').line).toBe(lineOf(lock, '  a@2.0.0:'));
  });

  it('v9: keeps the resolution of the entry for the release installed', () => {
    const input = readPnpmLock(v9(['resolution: {integrity: sha512-AAAA}', 'version: 1.0.0']), 'pnpm-lock.yaml');
    expect(only(input, 'a')).toMatchObject({ version: '1.0.0', integrity: 'sha512-AAAA' });
  });

  it('v6: the same field of a packages entry', () => {
    const lock = ["lockfileVersion: '6.0'", 'dependencies:', '  a:', '    specifier: ^2.0.0', '    version: 2.0.0', 'packages:', '  /a@2.0.0:', '    resolution: {integrity: sha512-AAAA}', '    version: 1.0.0', ''].join('\n');
    const input = readPnpmLock(lock, 'pnpm-lock.yaml');
    expect(input.dependencies.map((d) => [d.name, d.version, d.lockedFor])).toEqual([['a', '1.0.0', '/a@2.0.0']]);
  });

  it('a version field npm cannot read leaves the entry unplaced, never audited as the key', () => {
    const input = readPnpmLock(v9(['resolution: {}', 'version: latest']), 'pnpm-lock.yaml');
    expect(input.dependencies).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host])).toEqual([['remote', 'a', null]]);
  });

  it('a version field that agrees with the key (however spelled) changes nothing', () => {
    const input = readPnpmLock(v9(['resolution: {integrity: sha512-AAAA}', 'version: v2.0.0']), 'pnpm-lock.yaml');
    expect(input.dependencies.map((d) => [d.name, d.version, d.lockedFor])).toEqual([['a', '2.0.0', null]]);
  });
});

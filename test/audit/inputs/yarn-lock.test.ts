import { describe, expect, it } from 'vitest';
import { readYarnLock } from '../../../src/lockfiles/index.js';
import { LockfileError } from '../../../src/audit/types.js';
import { find, fixture, lineOf, lockfileErrorOf, only, readFixture } from './helpers.js';
import { berryLock } from '../../support/lock-texts.js';

describe('yarn.lock classic', () => {
  const text = fixture('yarn-classic/yarn.lock');

  it('puts each package at its entry header, with its resolved URL', () => {
    const input = readFixture('yarn-classic', 'yarn.lock', ['package.json']);
    expect(only(input, 'chalk')).toMatchObject({ line: lineOf(text, 'chalk@^4.1.0:'), resolved: expect.stringMatching(/^\{\{REGISTRY\}\}\/chalk\/-\/chalk-4\.1\.0\.tgz#/) });
    expect(only(input, '@types/semver').line).toBe(lineOf(text, '"@types/semver@^7.8.0":'));
  });

  it('without package.json, guesses direct dependencies, takes none as dev, and says so', () => {
    const input = readFixture('yarn-classic', 'yarn.lock');
    expect(input.dependencies.filter((d) => d.direct).map((d) => d.name).sort()).toEqual(['@types/semver', 'chalk', 'debug']);
    expect(input.dependencies.some((d) => d.dev)).toBe(false);
    expect(input.notes).toEqual([expect.stringContaining('no package.json next to it')]);
  });

  it('matches specifiers exactly: two ranges of one package resolving to two versions', () => {
    const lock = `# yarn lockfile v1


a@^1.0.0:
  version "1.0.0"
  resolved "https://registry.example/a/-/a-1.0.0.tgz"
  dependencies:
    b "^2.0.0"

b@^1.0.0, b@^1.1.0:
  version "1.2.0"
  resolved "https://registry.example/b/-/b-1.2.0.tgz"

b@^2.0.0:
  version "2.1.0"
  resolved "https://registry.example/b/-/b-2.1.0.tgz"

"sw@npm:string-width@^4.2.0":
  version "4.2.3"
  resolved "https://registry.example/string-width/-/string-width-4.2.3.tgz"

"fork@github:someone/fork":
  version "1.0.0"
  resolved "https://codeload.github.com/someone/fork/tar.gz/0123456789abcdef"
`;
    const manifest = JSON.stringify({ dependencies: { a: '^1.0.0', b: '^1.1.0', sw: 'npm:string-width@^4.2.0', fork: 'github:someone/fork' }, devDependencies: { b: '^1.0.0' } });
    const input = readYarnLock(lock, 'yarn.lock', { manifests: { 'package.json': manifest } });
    expect(only(input, 'b', '1.2.0')).toMatchObject({ direct: true, dev: false, line: lineOf(lock, 'b@^1.0.0, b@^1.1.0:') });
    expect(only(input, 'b', '2.1.0')).toMatchObject({ direct: false, dev: false });
    expect(only(input, 'string-width')).toMatchObject({ version: '4.2.3', direct: true });
    expect(find(input, 'fork')).toEqual([]);
    expect(input.notes).toEqual([`yarn.lock:${lineOf(lock, 'fork@github')}: "fork@github:someone/fork" skipped: not a registry dependency (git)`]);
  });

  it('attributes workspace dependencies to their manifests', () => {
    const lock = `# yarn lockfile v1


left-pad@^1.3.0:
  version "1.3.0"
  resolved "https://registry.example/left-pad/-/left-pad-1.3.0.tgz"
`;
    const root = JSON.stringify({ private: true, workspaces: ['packages/*'] });
    const ws = JSON.stringify({ name: 'ws', devDependencies: { 'left-pad': '^1.3.0' } }, null, 2);
    const input = readYarnLock(lock, 'yarn.lock', { manifests: { 'package.json': root, 'packages/ws/package.json': ws } });
    expect(only(input, 'left-pad')).toMatchObject({ file: 'packages/ws/package.json', line: lineOf(ws, '"left-pad"'), workspace: 'packages/ws', dev: true });
  });

  // Yarn 1 uses a lock entry only when it has `resolved` and its version satisfies the
  // descriptors of its key; otherwise it resolves the range anew from the registry.
  const UNPINNED: [label: string, key: string, body: string, reason: RegExp][] = [
    ['no resolved, a version', 'a@^1.0.0', '  version "2.0.0"', /no resolved URL/],
    ['no resolved, a version that satisfies the range', 'a@^1.0.0', '  version "1.0.0"', /no resolved URL/],
    ['no resolved, a tag for a version', 'a@^1.0.0', '  version "latest"', /not a registry package/],
    ['no resolved, an alias', '"x@npm:a@^1.0.0"', '  version "1.0.0"', /no resolved URL/],
    ['a version outside the range', 'a@^1.0.0', '  version "2.0.0"\n  resolved "https://registry.example/a/-/a-2.0.0.tgz"', /2\.0\.0 does not satisfy "a@\^1\.0\.0"/],
    ['a version outside one range of two', 'a@^2.0.0, a@~1.0.0', '  version "2.0.0"\n  resolved "https://registry.example/a/-/a-2.0.0.tgz"', /does not satisfy "a@~1\.0\.0"/],
    ['an alias whose version is outside its range', '"x@npm:a@^1.0.0"', '  version "2.0.0"\n  resolved "https://registry.example/a/-/a-2.0.0.tgz"', /does not satisfy/],
  ];
  it.each(UNPINNED)('%s: never audited, an unplaced remote entry at the header', (_label, key, body, reason) => {
    const lock = `# yarn lockfile v1\n\n\n${key}:\n${body}\n`;
    const input = readYarnLock(lock, 'yarn.lock', { manifests: { 'package.json': JSON.stringify({ dependencies: { [key.includes('x@') ? 'x' : 'a']: key.includes('x@') ? 'npm:a@^1.0.0' : (key.split(', ')[0] ?? '').slice(2) } }) } });
    expect(input.dependencies).toEqual([]);
    expect(input.skipped?.map((s) => [s.kind, s.name, s.host, s.line])).toEqual([['remote', 'a', null, 4]]);
    expect(input.skipped?.[0]?.note).toMatch(reason);
  });

  it('keeps an entry whose version satisfies every range of its key, tags aside (and a prerelease within one)', () => {
    const lock = `# yarn lockfile v1\n\n\na@^1.0.0, a@latest, a@~1.2.0, a@1.x:\n  version "1.2.3"\n  resolved "https://registry.example/a/-/a-1.2.3.tgz"\n\nb@^1.0.0:\n  version "1.1.0-rc.1"\n  resolved "https://registry.example/b/-/b-1.1.0-rc.1.tgz"\n`;
    const input = readYarnLock(lock, 'yarn.lock', { manifests: { 'package.json': JSON.stringify({ dependencies: { a: '^1.0.0', b: '^1.0.0' } }) } });
    expect(input.dependencies.map((d) => [d.name, d.version])).toEqual([['a', '1.2.3'], ['b', '1.1.0-rc.1']]);
    expect(input.skipped).toEqual([]);
  });

  it('refuses a lockfile with merge conflict markers, at the marker line', () => {
    const lock = '# yarn lockfile v1\n\n\n<<<<<<< HEAD\na@^1:\n  version "1.0.0"\n=======\na@^1:\n  version "1.1.0"\n>>>>>>> branch\n';
    expect(() => readYarnLock(lock, 'yarn.lock')).toThrow(new LockfileError('yarn.lock', 4, 'unresolved merge conflict'));
  });
});

describe('yarn.lock berry', () => {
  const text = fixture('yarn-berry/yarn.lock');

  it('reads direct dependencies from the workspace entry, and dev from the manifest', () => {
    const withManifest = readFixture('yarn-berry', 'yarn.lock', ['package.json']);
    expect(only(withManifest, '@types/semver')).toMatchObject({ direct: true, dev: true, line: lineOf(text, '"@types/semver@npm:^7.8.0":') });
    // The workspace entry merges dev dependencies in: without the manifest nothing says which are dev.
    const without = readFixture('yarn-berry', 'yarn.lock');
    expect(only(without, '@types/semver')).toMatchObject({ direct: true, dev: false });
  });

  const lock = `# This file is generated by running "yarn install" inside your project.

__metadata:
  version: 6
  cacheKey: 8

"app@workspace:packages/app":
  version: 0.0.0-use.local
  resolution: "app@workspace:packages/app"
  dependencies:
    lib: "workspace:^"
    resolve: "patch:resolve@npm%3A^1.20.0#~builtin<compat/resolve>"
    sw: "npm:string-width@^4.2.0"
    fork: "github:someone/fork"
  languageName: unknown
  linkType: soft

"fork@github:someone/fork":
  version: 1.0.0
  resolution: "fork@https://github.com/someone/fork.git#commit=0123456789abcdef"
  languageName: node
  linkType: hard

"lib@workspace:^, lib@workspace:packages/lib":
  version: 0.0.0-use.local
  resolution: "lib@workspace:packages/lib"
  dependencies:
    is-core-module: ^2.9.0
  languageName: unknown
  linkType: soft

"is-core-module@npm:^2.9.0":
  version: 2.13.1
  resolution: "is-core-module@npm:2.13.1"
  languageName: node
  linkType: hard

"resolve@npm:^1.20.0":
  version: 1.22.8
  resolution: "resolve@npm:1.22.8"
  dependencies:
    is-core-module: ^2.9.0
  languageName: node
  linkType: hard

"resolve@patch:resolve@npm%3A^1.20.0#~builtin<compat/resolve>":
  version: 1.22.8
  resolution: "resolve@patch:resolve@npm%3A1.22.8#~builtin<compat/resolve>::version=1.22.8&hash=c3c19d"
  dependencies:
    is-core-module: ^2.9.0
  languageName: node
  linkType: hard

"string-width@npm:^4.2.0, sw@npm:string-width@^4.2.0":
  version: 4.2.3
  resolution: "string-width@npm:4.2.3"
  languageName: node
  linkType: hard

"my-root@workspace:.":
  version: 0.0.0-use.local
  resolution: "my-root@workspace:."
  languageName: unknown
  linkType: soft
`;

  it('follows patches to the package they patch, skips workspaces and git, and attributes per workspace', () => {
    const input = readYarnLock(lock, 'yarn.lock');
    expect(find(input, 'resolve')).toEqual([
      expect.objectContaining({ version: '1.22.8', direct: true, workspace: 'packages/app', file: 'packages/app/package.json', line: null }),
    ]);
    expect(only(input, 'string-width')).toMatchObject({ direct: true, workspace: 'packages/app' });
    expect(only(input, 'is-core-module')).toMatchObject({ direct: true, workspace: 'packages/lib', dev: false });
    expect(find(input, 'lib')).toEqual([]);
    expect(find(input, 'app')).toEqual([]);
    expect(find(input, 'fork')).toEqual([]);
    expect(input.notes).toEqual([`yarn.lock:${lineOf(lock, '"fork@github:someone/fork":')}: "fork@github:someone/fork" skipped: not a registry package (https:)`]);
  });

  it('takes dev from the workspace manifest when given', () => {
    const manifest = JSON.stringify({ name: 'lib', devDependencies: { 'is-core-module': '^2.9.0' } }, null, 2);
    const input = readYarnLock(lock, 'yarn.lock', { manifests: { 'packages/lib/package.json': manifest } });
    // Also reached from production `resolve`, so not dev after all; its declaration is at the manifest line.
    const entry = find(input, 'is-core-module').find((d) => d.workspace === 'packages/lib');
    expect(entry).toMatchObject({ dev: false, line: lineOf(manifest, '"is-core-module"') });
  });
});

describe('yarn.lock berry, a patch: entry without the entry of what it patches', () => {
  /** `a` declared by the root workspace as `descriptor`, locked only as the patch of `inner` (yarn's encoding). */
  const patchOnly = (inner: string, patch = '~/.yarn/patches/a-npm-1.0.0-0123456789.patch'): string => {
    // As yarn encodes the locator: `a@npm%3A1.0.0`.
    const encoded = encodeURIComponent(inner).replaceAll('%40', '@').replaceAll('%2F', '/');
    const descriptor = `a@patch:${encoded}#${patch}`;
    const resolution = `${descriptor}::version=1.0.0&hash=0123456789&locator=app%40workspace%3A.`;
    return berryLock({ name: 'a', key: `${descriptor}::locator=app%40workspace%3A.`, declared: `patch:${encoded}#${patch}`, version: '1.0.0', resolution, checksum: '10c0/00' });
  };

  it('audits the npm: release the patch names (yarn fetches it), with the project\'s patch', () => {
    const lock = patchOnly('a@npm:1.0.0');
    const input = readYarnLock(lock, 'yarn.lock');
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.lockedFor ?? null])).toEqual([['a', '1.0.0', true, null]]);
    expect(only(input, 'a').patches?.map((p) => p.path)).toEqual(['~/.yarn/patches/a-npm-1.0.0-0123456789.patch']);
    expect(input.skipped).toEqual([]);
  });

  it('reads the patched locator as its protocol is read: an npm: version npm cannot read is unplaced, a git one remote, a file: one local', () => {
    const rows = (inner: string) => (readYarnLock(patchOnly(inner), 'yarn.lock').skipped ?? []).map((s) => [s.kind, s.name, s.host]);
    expect(rows('a@npm:latest')).toEqual([['remote', 'a', null]]);
    expect(rows('a@https://github.com/someone/a.git#commit=0123456789abcdef0123456789abcdef01234567')).toEqual([['remote', 'a', 'github.com']]);
    expect(rows('a@file:./vendor/a')).toEqual([['local', 'a', null]]);
  });

  it('names the patched package as installed, when the patch entry is under another name', () => {
    const input = readYarnLock(patchOnly('evil@npm:1.0.0'), 'yarn.lock');
    expect(input.dependencies.map((d) => [d.name, d.version])).toEqual([['evil', '1.0.0']]);
  });
});

describe('yarn.lock berry, a release with the __archiveUrl yarn fetches it from', () => {
  /** One package locked as `resolution`, declared by the root workspace. */
  const berry = (name: string, resolution: string): string => berryLock({ name, range: '^1.0.0', version: '1.0.0', resolution, checksum: '10c0/00' });

  it('reads the release it names, with the URL (decoded as yarn encodes it) as where it resolves from', () => {
    // The shape yarn 4 writes for GitHub Packages (its `%40scope%2Fname`, then the whole URL encoded once more).
    const url = 'https://npm.pkg.github.com/download/@scope/pkg/1.0.0/7f6d30784550e9e03c3e93e9f846d958d016f1c9';
    const input = readYarnLock(berry('@scope/pkg', `@scope/pkg@npm:1.0.0::__archiveUrl=${encodeURIComponent(url)}`), 'yarn.lock');
    expect(only(input, '@scope/pkg')).toMatchObject({ version: '1.0.0', direct: true, resolved: url, integrity: null });
    expect(input.skipped ?? []).toEqual([]);
    // A tarball path whose name yarn percent-encodes (`@scope%2fpkg`) keeps it: `%252f` in the lockfile.
    const encoded = 'https://registry.example/@scope%2fpkg/-/pkg-1.0.0.tgz';
    expect(only(readYarnLock(berry('@scope/pkg', `@scope/pkg@npm:1.0.0::__archiveUrl=${encodeURIComponent(encoded)}`), 'yarn.lock'), '@scope/pkg').resolved).toBe(encoded);
  });

  it('keeps no credentials of the URL', () => {
    const url = 'https://user:s3cret@npm.example/pkg/-/pkg-1.0.0.tgz?token=s3cret';
    const input = readYarnLock(berry('pkg', `pkg@npm:1.0.0::__archiveUrl=${encodeURIComponent(url)}`), 'yarn.lock');
    expect(only(input, 'pkg').resolved).toBe('https://npm.example/pkg/-/pkg-1.0.0.tgz');
    expect(JSON.stringify(input)).not.toContain('s3cret');
  });

  it('leaves unplaced what it cannot read as a release: a version npm cannot read, or a URL that is not http(s)', () => {
    const unreadable = readYarnLock(berry('pkg', `pkg@npm:latest::__archiveUrl=${encodeURIComponent('https://npm.example/pkg/-/pkg-1.0.0.tgz')}`), 'yarn.lock');
    expect(find(unreadable, 'pkg')).toEqual([]);
    expect((unreadable.skipped ?? []).map((s) => [s.kind, s.name, s.host])).toEqual([['remote', 'pkg', 'npm.example']]);
    const ftp = readYarnLock(berry('pkg', `pkg@npm:1.0.0::__archiveUrl=${encodeURIComponent('ftp://files.example/pkg.tgz')}`), 'yarn.lock');
    expect(find(ftp, 'pkg')).toEqual([]);
    expect((ftp.skipped ?? []).map((s) => [s.kind, s.name, s.host])).toEqual([['remote', 'pkg', 'files.example']]);
    // Another parameter than __archiveUrl is not one yarn writes on an npm: resolution: not read as the release either.
    const other = readYarnLock(berry('pkg', 'pkg@npm:1.0.0::other=1'), 'yarn.lock');
    expect(find(other, 'pkg')).toEqual([]);
    expect((other.skipped ?? []).map((s) => [s.kind, s.name, s.host])).toEqual([['remote', 'pkg', null]]);
  });
});

describe('yarn.lock classic errors', () => {
  it('reports the parser’s complaint without dumping the token, at the right line despite comments and blank lines', () => {
    const lock = '# yarn lockfile v1\n# another comment\n\n\n\na@^1:\n  version "1.0.0"\n\n\n\nb@^1:\n  version "1.0.0"\n  : oops\n';
    const error = lockfileErrorOf(() => readYarnLock(lock, 'yarn.lock'));
    expect(error.line).toBe(13);
    expect(error.message).not.toContain('{');
  });

  it('refuses an unterminated string before the parser loops on it', () => {
    expect(lockfileErrorOf(() => readYarnLock('a@^1:\n  version "1.0.0\n', 'yarn.lock')).message).toBe('yarn.lock:2: invalid yarn.lock: unterminated string');
  });

  it('refuses a string opened after a quote inside a bare word (found by the fuzz suite: the parser read past the end for 18 s and 2 GB)', () => {
    // To the tokenizer the first quote is part of the word `has-fl"}`; the second opens a string that never closes.
    const lock = 'a@^1:\n  version "1.0.0"\n  dependencies:\n    has-fl"}\u000e~=,"\n';
    expect(lockfileErrorOf(() => readYarnLock(lock, 'yarn.lock')).message).toBe('yarn.lock:4: invalid yarn.lock: unterminated string');
  });

  it('reads a quote inside a bare word as the word (the tokenizer opens no string there)', () => {
    const input = readYarnLock('a@^1:\n  version "1.0.0"\n  resolved foo"bar\n', 'yarn.lock');
    expect(input.dependencies).toEqual([expect.objectContaining({ name: 'a', version: '1.0.0', resolved: 'foo"bar' })]);
  });
});

describe('yarn.lock berry errors', () => {
  const head = '__metadata:\n  version: 8\n  cacheKey: 10c0\n\n"a@npm:^1.0.0":\n  version: 1.0.0\n  resolution: "a@npm:1.0.0"\n';

  it('names the line of the complaint, counting lines at each \\n (found by the fuzz suite: a lone \\r named a line past the end)', () => {
    const lock = `${head}\n\r\u0001`;
    const error = lockfileErrorOf(() => readYarnLock(lock, 'yarn.lock'));
    expect(error.message).toMatch(/^yarn\.lock:\d+: invalid yarn\.lock: /);
    expect(error.line).toBe(lock.split('\n').length);
  });

  it('names the line of a key without a value', () => {
    const error = lockfileErrorOf(() => readYarnLock(`${head}  dependencies\n`, 'yarn.lock'));
    expect(error.line).toBe(8);
  });
});

/**
 * A repository's dependency set from the manifests and lockfiles read (pure): the nearest
 * lockfile of the manifest's ecosystem pins it, a workspace package shares the root's lockfile,
 * a manifest no lockfile covers is unpinned (versions null, never guessed).
 */
import { describe, expect, it } from 'vitest';
import type { GithubFiles, RepoManifest } from '../../src/evidence/github-facts.js';
import { rangeResolvable, repositoryDependencies } from '../../src/sources/github/repo-dependencies.js';

function manifest(path: string, ecosystem: 'npm' | 'pypi'): RepoManifest {
  return { path, ecosystem, name: 'x', private: false, license: null, keywords: [], description: null, dependencies: [], devDependencies: [], hasBin: false };
}

function files(manifests: RepoManifest[], lockfiles: string[], unread: GithubFiles['unread'] = []): GithubFiles {
  return {
    branch: 'main',
    treeTruncated: false,
    entries: 10,
    readme: null,
    licenseFiles: [],
    changelog: null,
    docsFolder: false,
    examplesFolder: false,
    securityPolicy: null,
    manifests,
    lockfiles,
    workflows: 0,
    tags: null,
    unread,
    requests: 3,
  };
}

const PACKAGE_JSON = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { express: '^4.18.0' }, devDependencies: { vitest: '^3.0.0' } });
const PACKAGE_LOCK = JSON.stringify({
  name: 'app',
  lockfileVersion: 3,
  packages: {
    '': { name: 'app', version: '1.0.0', dependencies: { express: '^4.18.0' }, devDependencies: { vitest: '^3.0.0' } },
    'node_modules/express': { version: '4.18.2', dependencies: { 'path-to-regexp': '0.1.7' } },
    'node_modules/path-to-regexp': { version: '0.1.7' },
    'node_modules/vitest': { version: '3.0.1', dev: true },
  },
});

describe('repositoryDependencies', () => {
  it('a manifest without a lockfile: its ranges, unpinned, no version guessed', () => {
    const result = repositoryDependencies(files([manifest('package.json', 'npm')], []), new Map([['package.json', PACKAGE_JSON]]));
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.facts.unpinned).toEqual(['package.json']);
    expect(result.facts.lockfiles).toEqual([]);
    expect(result.facts.dependencies.map((d) => [d.name, d.range, d.version, d.dev])).toEqual([
      ['express', '^4.18.0', null, false],
      ['vitest', '^3.0.0', null, true],
    ]);
    expect(result.facts.dependencies.every((d) => d.reason?.startsWith('not pinned'))).toBe(true);
  });

  it('the direct ranges a resolver may look up: an unpinned manifest\'s and a requirements file\'s, never a lockfile\'s; git specifiers named as unvouched', () => {
    const withGit = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { express: '^4.18.0', tools: 'github:acme/tools' } });
    const unpinned = repositoryDependencies(files([manifest('package.json', 'npm')], []), new Map([['package.json', withGit]]));
    if (unpinned.status !== 'ok') throw new Error(unpinned.status);
    expect(unpinned.facts.dependencies.map((d) => [d.name, rangeResolvable(d, unpinned.facts.unpinned ?? [])])).toEqual([['express', true]]);
    expect(unpinned.facts.unvouched).toEqual([expect.stringMatching(/^package\.json:\d+: "tools" skipped: /)]);

    const pyproject = '[project]\nname = "app"\nversion = "1.0"\ndependencies = ["requests>=2"]\n';
    const requirements = repositoryDependencies(
      files([manifest('pyproject.toml', 'pypi')], ['requirements.txt']),
      new Map([['pyproject.toml', pyproject], ['requirements.txt', 'requests>=2,<3\nidna==3.7\n']]),
    );
    if (requirements.status !== 'ok') throw new Error(requirements.status);
    expect(requirements.facts.unpinned).toEqual([]);
    expect(requirements.facts.dependencies.map((d) => [d.name, d.version, d.reason, rangeResolvable(d, [])])).toEqual([
      ['requests', null, 'not pinned: requirements.txt gives a range', true],
      ['idna', '3.7', null, false],
    ]);

    const locked = repositoryDependencies(files([manifest('package.json', 'npm')], ['package-lock.json']), new Map([['package.json', PACKAGE_JSON], ['package-lock.json', PACKAGE_LOCK]]));
    if (locked.status !== 'ok') throw new Error(locked.status);
    expect(locked.facts.dependencies.some((d) => rangeResolvable(d, locked.facts.unpinned ?? []))).toBe(false);
  });

  it('a workspace package shares the root lockfile: pins with paths and dev flags', () => {
    const result = repositoryDependencies(
      files([manifest('package.json', 'npm'), manifest('packages/a/package.json', 'npm')], ['package-lock.json']),
      new Map([
        ['package.json', PACKAGE_JSON],
        ['packages/a/package.json', JSON.stringify({ name: 'a', version: '1.0.0' })],
        ['package-lock.json', PACKAGE_LOCK],
      ]),
    );
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.facts).toMatchObject({ unpinned: [], lockfiles: ['package-lock.json'] });
    const byName = Object.fromEntries(result.facts.dependencies.map((d) => [d.name, d]));
    expect(byName['path-to-regexp']).toMatchObject({ version: '0.1.7', dev: false, path: ['express'], ecosystem: 'npm', file: 'package-lock.json' });
    expect(byName.vitest).toMatchObject({ version: '3.0.1', dev: true });
  });

  it('a lockfile listed as unread or a manifest that could not be read: unavailable, naming the file', () => {
    const overCap = repositoryDependencies(
      files([manifest('package.json', 'npm')], ['package-lock.json'], [{ path: 'package-lock.json', reason: 'over the 1024 KiB cap (2000000 bytes)', code: 'too-large' }]),
      new Map([['package.json', PACKAGE_JSON]]),
    );
    // The code is the failure that left the file unread, never `unclassified`.
    expect(overCap).toEqual({ status: 'unavailable', reason: 'package-lock.json could not be read: over the 1024 KiB cap (2000000 bytes)', code: 'too-large' });
    const manifestGone = repositoryDependencies(files([], [], [{ path: 'pyproject.toml', reason: 'GitHub answered 404 for the file', code: 'not-found' }]), new Map());
    expect(manifestGone).toMatchObject({ status: 'unavailable', code: 'not-found' });
    const failed = repositoryDependencies(
      files([manifest('package.json', 'npm')], ['package-lock.json'], [{ path: 'package-lock.json', reason: 'GitHub answered 502', code: 'http-status' }]),
      new Map([['package.json', PACKAGE_JSON]]),
    );
    expect(failed).toMatchObject({ status: 'unavailable', code: 'http-status' });
    // There but no text to read (a link, a submodule): unreadable-file.
    const link = repositoryDependencies(files([], [], [{ path: 'package.json', reason: 'a symbolic link (to packages/a/package.json), not a file' }]), new Map());
    expect(link).toMatchObject({ status: 'unavailable', code: 'unreadable-file' });
    const broken = repositoryDependencies(files([manifest('package.json', 'npm')], ['package-lock.json']), new Map([['package.json', PACKAGE_JSON], ['package-lock.json', '{ "lockfileVersion": ']]));
    expect(broken).toMatchObject({ status: 'unavailable', code: 'unreadable-file' });
  });

  it('a root requirements.txt and no pyproject.toml: its lines are the set (pins and ranges), dev requirements left out', () => {
    const deps = repositoryDependencies(files([], ['requirements.txt', 'requirements-dev.txt']), new Map([['requirements.txt', 'mcp[cli]>=1.3\nhttpx==0.28.1\n'], ['requirements-dev.txt', 'pytest==8.0.0\n']]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect(deps.facts.lockfiles).toEqual(['requirements.txt']);
    expect(deps.facts.dependencies.map((d) => [d.name, d.version, d.ecosystem, d.file])).toEqual([
      ['mcp', null, 'pypi', 'requirements.txt'],
      ['httpx', '0.28.1', 'pypi', 'requirements.txt'],
    ]);
    expect(rangeResolvable(deps.facts.dependencies[0]!, deps.facts.unpinned ?? [])).toBe(true);
  });

  it('a root Pipfile.lock and no pyproject.toml: its default packages are the set, pinned; develop ones development-only', () => {
    const lock = JSON.stringify({
      _meta: { 'pipfile-spec': 6, sources: [{ name: 'pypi', url: 'https://pypi.org/simple', verify_ssl: true }] },
      default: { requests: { version: '==2.32.3' }, idna: { version: '==3.7' } },
      develop: { pytest: { version: '==8.0.0' } },
    });
    const deps = repositoryDependencies(files([], ['Pipfile.lock']), new Map([['Pipfile.lock', lock]]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect(deps.facts.lockfiles).toEqual(['Pipfile.lock']);
    expect(deps.facts.unpinned).toEqual([]);
    expect(deps.facts.dependencies.map((d) => [d.name, d.version, d.ecosystem, d.dev ?? false]).sort()).toEqual([
      ['idna', '3.7', 'pypi', false],
      ['pytest', '8.0.0', 'pypi', true],
      ['requests', '2.32.3', 'pypi', false],
    ]);
  });

  it('a root requirements.txt that could not be read: unavailable, naming it', () => {
    const deps = repositoryDependencies(files([], ['requirements.txt'], [{ path: 'requirements.txt', reason: 'GitHub answered 404 for the file', code: 'not-found' }]), new Map());
    expect(deps).toEqual({ status: 'unavailable', reason: 'requirements.txt could not be read: GitHub answered 404 for the file', code: 'not-found' });
  });

  it('no manifest: not applicable', () => {
    expect(repositoryDependencies(files([], []), new Map()).status).toBe('not-applicable');
  });

  it('a Gemfile and no other manifest: an empty set that names the Ruby manifest, never "no manifest"', () => {
    const rubyOnly = { ...files([], []), unevaluatedManifests: [{ path: 'Gemfile', ecosystem: 'RubyGems' }] };
    expect(repositoryDependencies(rubyOnly, new Map())).toEqual({ status: 'ok', facts: { dependencies: [], unpinned: [], lockfiles: [], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] } });
  });

  it('a Gemfile beside a locked npm package: the npm pins, and the Ruby manifest named as not evaluated', () => {
    const both = { ...files([manifest('ui/package.json', 'npm')], ['ui/package-lock.json']), unevaluatedManifests: [{ path: 'Gemfile', ecosystem: 'RubyGems' }] };
    const deps = repositoryDependencies(both, new Map([['ui/package.json', PACKAGE_JSON], ['ui/package-lock.json', PACKAGE_LOCK]]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect(deps.facts.unevaluated).toEqual([{ file: 'Gemfile', ecosystem: 'RubyGems' }]);
    expect(deps.facts.dependencies.map((d) => d.name)).toContain('express');
  });
});

// Synthetic go.mod / Cargo texts, written for these tests.
const GO_MOD = ['module example.com/app', 'go 1.22', 'require (', '	golang.org/x/net v0.20.0', '	example.com/local v1.0.0', '	github.com/a/b v0.0.0-20230722043721-ed46e5a46466 // indirect', ')', 'replace example.com/local => ./local'].join('\n');
const CARGO_LOCK = [
  'version = 4',
  '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["serde", "tempfile"]',
  '[[package]]\nname = "serde"\nversion = "1.0.200"\nsource = "registry+https://github.com/rust-lang/crates.io-index"',
  '[[package]]\nname = "tempfile"\nversion = "3.10.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"',
].join('\n');
const CARGO_TOML = '[package]\nname = "app"\nversion = "0.1.0"\n[dependencies]\nserde = "1"\n[dev-dependencies]\ntempfile = "3"\n';

describe('repositoryDependencies: Go and Rust', () => {
  const withModules = (moduleFiles: string[], manifests: RepoManifest[] = [], lockfiles: string[] = [], unread: GithubFiles['unread'] = []): GithubFiles => ({ ...files(manifests, lockfiles, unread), moduleFiles });

  it("a go.mod's requires at exact versions, the local replacement unvouched; a Cargo.lock's crates, dev where Cargo.toml says", () => {
    const deps = repositoryDependencies(withModules(['go.mod', 'rs/Cargo.lock', 'rs/Cargo.toml']), new Map([['go.mod', GO_MOD], ['rs/Cargo.lock', CARGO_LOCK], ['rs/Cargo.toml', CARGO_TOML]]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect(deps.facts.dependencies.map((d) => [d.ecosystem, d.name, d.version, d.dev, d.path, d.file])).toEqual([
      // Go versions as OSV writes them (no leading v); the go.mod's text is the range.
      ['go', 'golang.org/x/net', '0.20.0', false, [], 'go.mod'],
      ['go', 'github.com/a/b', '0.0.0-20230722043721-ed46e5a46466', false, undefined, 'go.mod'],
      ['cargo', 'serde', '1.0.200', false, [], 'rs/Cargo.lock'],
      ['cargo', 'tempfile', '3.10.0', true, [], 'rs/Cargo.lock'],
    ]);
    expect(deps.facts.dependencies[0]?.range).toBe('v0.20.0');
    expect(deps.facts.lockfiles).toEqual(['go.mod', 'rs/Cargo.lock']);
    expect(deps.facts.unvouched).toHaveLength(1);
    expect(deps.facts.unvouched?.[0]).toContain('"example.com/local@v1.0.0" skipped');
    expect(deps.facts.unevaluated).toBeUndefined();
  });

  it('beside an npm lockfile: both sets', () => {
    const deps = repositoryDependencies(withModules(['go.mod'], [manifest('ui/package.json', 'npm')], ['ui/package-lock.json']), new Map([['go.mod', GO_MOD], ['ui/package.json', PACKAGE_JSON], ['ui/package-lock.json', PACKAGE_LOCK]]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect([...new Set(deps.facts.dependencies.map((d) => d.ecosystem))]).toEqual(['npm', 'go']);
    expect(deps.facts.lockfiles).toEqual(['ui/package-lock.json', 'go.mod']);
  });

  it('a go.mod that could not be read, or a Cargo.lock that does not parse: the set is unavailable, naming the file', () => {
    expect(repositoryDependencies(withModules(['go.mod'], [], [], [{ path: 'go.mod', reason: 'over the 1024 KiB cap (2000000 bytes)', code: 'too-large' }]), new Map())).toEqual({
      status: 'unavailable',
      reason: 'go.mod could not be read: over the 1024 KiB cap (2000000 bytes)',
      code: 'too-large',
    });
    const broken = repositoryDependencies(withModules(['Cargo.lock']), new Map([['Cargo.lock', '[[package]\nname =']]));
    expect(broken).toMatchObject({ status: 'unavailable', code: 'unreadable-file' });
    if (broken.status === 'unavailable') expect(broken.reason).toMatch(/^Cargo\.lock:\d+: invalid TOML/);
  });

  it('Cargo.toml files no Cargo.lock pins: their requirements unpinned and resolvable, a member\'s `workspace = true` from the root, path dependencies named', () => {
    const root = '[workspace]\nmembers = ["crates/*"]\n[workspace.dependencies]\ntokio = { version = "1.40", features = ["rt"] }\nown = { path = "crates/own" }\n';
    const member = '[package]\nname = "a"\n[dependencies]\ntokio = { workspace = true }\nown = { workspace = true }\nserde = "1"\n[dev-dependencies]\ntempfile = "3"\n';
    const deps = repositoryDependencies(withModules(['Cargo.toml', 'crates/a/Cargo.toml']), new Map([['Cargo.toml', root], ['crates/a/Cargo.toml', member]]));
    if (deps.status !== 'ok') throw new Error(deps.status);
    expect(deps.facts.dependencies.map((d) => [d.ecosystem, d.name, d.range, d.version, d.dev, d.file])).toEqual([
      ['cargo', 'tokio', '1.40', null, false, 'crates/a/Cargo.toml'],
      ['cargo', 'serde', '1', null, false, 'crates/a/Cargo.toml'],
      ['cargo', 'tempfile', '3', null, true, 'crates/a/Cargo.toml'],
    ]);
    expect(deps.facts.unpinned).toEqual(['Cargo.toml', 'crates/a/Cargo.toml']);
    expect(deps.facts.dependencies.every((d) => rangeResolvable(d, deps.facts.unpinned ?? []))).toBe(true);
    expect(deps.facts.unvouched).toEqual(['crates/a/Cargo.toml: "own" skipped: a local path ("crates/own", from the workspace root), not resolved']);
    expect(deps.facts.lockfiles).toEqual([]);
  });

  it('a Cargo.toml pinned by a Cargo.lock read beside it gives no requirements of its own; one that could not be read makes the set unavailable', () => {
    const pinned = repositoryDependencies(withModules(['rs/Cargo.lock', 'rs/Cargo.toml']), new Map([['rs/Cargo.lock', CARGO_LOCK], ['rs/Cargo.toml', CARGO_TOML]]));
    expect(pinned.status === 'ok' && pinned.facts.unpinned).toEqual([]);
    expect(repositoryDependencies(withModules(['Cargo.toml'], [], [], [{ path: 'Cargo.toml', reason: 'HTTP 500', code: 'http-status' }]), new Map())).toEqual({
      status: 'unavailable',
      reason: 'Cargo.toml could not be read: HTTP 500',
      code: 'http-status',
    });
  });
});

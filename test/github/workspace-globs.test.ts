/**
 * Workspace globs in the link verifier (link.ts over lockfiles/workspace-globs.ts): `**` members
 * found from the repository's tree or by a bounded folder walk, `!` excludes, npm/yarn/pnpm/lerna
 * declarations, patterns leaving the repository ignored, a private root or member never vouching,
 * and a search cut by a bound ending unconfirmed with the `budget` code.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { workspaceGlobs } from '../../src/lockfiles/workspace-globs.js';
import type { TreeEntry } from '../../src/sources/github/files.js';
import { MAX_GLOB_LISTINGS, verifyLink, type DirRead, type FileRead, type RepoFileSource } from '../../src/sources/github/link.js';
import { alreadyReadFileSource } from '../../src/sources/github/tree-file-source.js';
import type { RepoTreeItem } from '../../src/sources/github/repo-tree.js';
import { GithubRateLimiter } from '../../src/sources/github/rate-limit.js';
import { restFileSource } from '../../src/sources/github/rest.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { serveRecordedRepo } from '../repository/recorded-repos.js';
import { NOW, npmClaim, testClient, type TestClient } from './helpers.js';

type Files = Record<string, string>;

/** Every folder of `files` (all their parents), root excluded. */
function foldersOf(files: Files): string[] {
  const dirs = new Set<string>();
  for (const path of Object.keys(files)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join('/'));
  }
  return [...dirs];
}

/**
 * A repository as the contents API shows it (one listing per folder), recording every request;
 * with `tree`, the whole tree is known too (`allEntries`), as for a repository target.
 */
function repo(files: Files, options: { tree?: boolean } = {}): RepoFileSource & { reads: string[]; listings: string[] } {
  const folders = foldersOf(files);
  const children = (dir: string): TreeEntry[] => {
    const prefix = dir === '' ? '' : `${dir}/`;
    const direct = (p: string) => p.startsWith(prefix) && p.length > prefix.length && !p.slice(prefix.length).includes('/');
    return [
      ...folders.filter(direct).map((p): TreeEntry => ({ path: p.slice(prefix.length), type: 'dir' })),
      ...Object.keys(files).filter(direct).map((p): TreeEntry => ({ path: p.slice(prefix.length), type: 'file' })),
    ];
  };
  const reads: string[] = [];
  const listings: string[] = [];
  return {
    reads,
    listings,
    rootEntries: children(''),
    ...(options.tree === true
      ? { allEntries: [...folders.map((path): TreeEntry => ({ path, type: 'dir' })), ...Object.keys(files).map((path): TreeEntry => ({ path, type: 'file' }))] }
      : {}),
    async read(paths) {
      reads.push(...paths);
      return new Map(paths.map((p): [string, FileRead] => [p, files[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: files[p] as string }]));
    },
    async list(dirs) {
      listings.push(...dirs);
      return new Map(dirs.map((d): [string, DirRead] => [d, d === '' || folders.includes(d) ? { kind: 'dir', entries: children(d) } : { kind: 'missing' }]));
    },
  };
}

const manifest = (name: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ name, version: '1.0.0', ...extra });
const verify = (name: string, files: RepoFileSource, directory: string | null = null) =>
  verifyLink({ claim: npmClaim(name, { directory }), host: 'github.com', fullName: 'acme/mono', names: ['acme/mono'], branch: 'main', files });

/** A monorepo whose published package sits two levels below `packages/`. */
const DEEP: Files = {
  'package.json': manifest('mono-root', { private: true }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/**'\n",
  'packages/core/package.json': manifest('@acme/core'),
  'packages/core/src/index.ts': '',
  'packages/adapters/http/package.json': manifest('@acme/http'),
  'packages/adapters/http/src/index.ts': '',
  'packages/adapters/http/test/fixtures/app/package.json': manifest('@acme/http'),
};

describe('a `**` workspace glob', () => {
  test('from the tree: a member two levels deep verifies, with no folder listing and one manifest read', async () => {
    const files = repo(DEEP, { tree: true });
    expect(await verify('@acme/http', files)).toEqual({
      verifiedBy: 'manifest',
      reason: 'package.json in workspace member packages/adapters/http at main names "@acme/http"',
    });
    expect(files.listings).toEqual([]);
    expect(files.reads.filter((p) => p.startsWith('packages/'))).toEqual(['packages/adapters/http/package.json']);
  });

  test('by a folder walk when there is no tree: the same member, within the listing bound', async () => {
    const files = repo(DEEP);
    expect((await verify('@acme/http', files)).verifiedBy).toBe('manifest');
    expect(files.listings.length).toBeLessThanOrEqual(MAX_GLOB_LISTINGS);
    // The walk never lists or reads below a test or fixture folder.
    expect([...files.listings, ...files.reads].filter((p) => /(?:^|\/)(?:test|fixtures)(?:\/|$)/.test(p))).toEqual([]);
  });

  test('npm `workspaces` and lerna.json `packages` are read the same way', async () => {
    const { 'pnpm-workspace.yaml': _, ...rest } = DEEP;
    const npm = repo({ ...rest, 'package.json': manifest('mono-root', { private: true, workspaces: ['packages/**'] }) }, { tree: true });
    expect((await verify('@acme/http', npm)).verifiedBy).toBe('manifest');
    const lerna = repo({ ...rest, 'lerna.json': JSON.stringify({ packages: ['packages/*/*'] }) }, { tree: true });
    expect((await verify('@acme/http', lerna)).verifiedBy).toBe('manifest');
    // lerna.json without `packages` and no other workspaces: lerna's default `packages/*` (one level).
    const lernaDefault = repo({ ...rest, 'lerna.json': JSON.stringify({ version: 'independent' }) }, { tree: true });
    expect(await verify('@acme/http', lernaDefault)).toMatchObject({ verifiedBy: null, code: 'not-named' });
    expect((await verify('@acme/core', lernaDefault)).verifiedBy).toBe('manifest');
  });

  test('a declared `directory` two levels deep is a workspace member', async () => {
    const files = repo(DEEP, { tree: true });
    expect(await verify('@acme/http', files, 'packages/adapters/http')).toEqual({
      verifiedBy: 'manifest',
      reason: 'package.json in packages/adapters/http at main names "@acme/http"',
    });
  });
});

describe('only a published manifest vouches', () => {
  /** A fixture package that carries the published name, outside any test-named folder. */
  const WITH_FIXTURE = (exclude: boolean): Files => ({
    'package.json': manifest('mono-root', { private: true }),
    'pnpm-workspace.yaml': `packages:\n  - 'packages/**'\n${exclude ? "  - '!packages/codemod/batch-test/**'\n" : ''}`,
    'packages/codemod/package.json': manifest('@acme/codemod'),
    'packages/codemod/batch-test/widget/package.json': manifest('@acme/widget'),
  });

  test.each([true, false])('a negated glob excludes a fixture package (tree: %s)', async (tree) => {
    const excluded = await verify('@acme/widget', repo(WITH_FIXTURE(true), { tree }));
    expect(excluded).toMatchObject({ verifiedBy: null, code: 'not-named' });
    // The same repository without the exclude: the fixture would be a member (the exclude is what holds).
    expect((await verify('@acme/widget', repo(WITH_FIXTURE(false), { tree }))).verifiedBy).toBe('manifest');
  });

  test('a negated glob also refuses a declared directory', async () => {
    const link = await verify('@acme/widget', repo(WITH_FIXTURE(true), { tree: true }), 'packages/codemod/batch-test/widget');
    expect(link).toMatchObject({ verifiedBy: null, code: 'refused' });
    expect(link.reason).toContain("packages/codemod/batch-test/widget is not one of the repository's workspaces");
  });

  test('a private root that names the package does not vouch, nor does a private member', async () => {
    const files = repo(
      {
        'package.json': manifest('@acme/sdk', { private: true, workspaces: ['packages/**'] }),
        'packages/sdk/package.json': manifest('@acme/sdk', { private: true }),
        'packages/core/package.json': manifest('@acme/core'),
      },
      { tree: true },
    );
    const link = await verify('@acme/sdk', files);
    expect(link).toMatchObject({ verifiedBy: null, code: 'refused' });
    expect(link.reason).toContain('package.json at main names "@acme/sdk" but is private');
    expect(link.reason).toContain('package.json in workspace member packages/sdk at main names "@acme/sdk" but is private');
  });

  test.each([
    ['../outside/*', 'outside/pkg'],
    ['/srv/*', 'srv/pkg'],
    ['packages/../../outside/*', 'outside/pkg'],
    ['..\\outside\\*', 'outside/pkg'],
  ])('a pattern leaving the repository (%s) is ignored', async (pattern, lookalike) => {
    // A folder inside the repository spelled like the escaping target holds the package: it must not count.
    const files = repo({ 'package.json': manifest('root', { workspaces: [pattern, 'packages/*'] }), 'packages/a/package.json': manifest('a'), [`${lookalike}/package.json`]: manifest('evil') });
    const link = await verify('evil', files);
    expect(link).toMatchObject({ verifiedBy: null, code: 'not-named' });
    expect(link.reason).toContain('1 workspace patterns leave the repository and were ignored');
    expect([...files.listings, ...files.reads].some((p) => p.includes('..') || p.startsWith('/') || p.startsWith(lookalike.split('/')[0] as string))).toBe(false);
  });

  test('a `repository.directory` leaving the repository is not read', async () => {
    const files = repo({ 'package.json': manifest('root') });
    expect(await verify('evil', files, '../../etc')).toMatchObject({ verifiedBy: null, code: 'not-named' });
    expect(files.reads).toEqual(['package.json']);
  });
});

describe('a search cut by a bound', () => {
  test(`the folder walk stops at ${MAX_GLOB_LISTINGS} listings: unconfirmed with the budget code`, async () => {
    const files: Files = { 'package.json': manifest('root', { workspaces: ['libs/**'] }) };
    for (let i = 0; i < 15; i += 1) files[`libs/group${i}/keep.txt`] = '';
    files['libs/group14/deep/package.json'] = manifest('@acme/deep');
    const source = repo(files);
    const link = await verify('@acme/deep', source);
    expect(link).toMatchObject({ verifiedBy: null, code: 'budget' });
    expect(link.reason).toMatch(/the workspace folders were listed 10 times at most \(\d+ more not listed\)/);
    expect(source.listings).toHaveLength(MAX_GLOB_LISTINGS);
  });

  test("a repository target's read budget: members past it are not read, and the code says so", async () => {
    const tree: RepoTreeItem[] = [
      { path: 'package.json', type: 'blob', size: 10 },
      { path: 'packages', type: 'tree', size: null },
      ...['a', 'b', 'c', 'd'].flatMap((n): RepoTreeItem[] => [
        { path: `packages/${n}`, type: 'tree', size: null },
        { path: `packages/${n}/package.json`, type: 'blob', size: 10 },
      ]),
    ];
    const texts = new Map([['package.json', manifest('root', { private: true, workspaces: ['packages/**'] })]]);
    const rest = repo({ ...Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`packages/${n}/package.json`, manifest(`@other/${n}`)])) });
    const files = alreadyReadFileSource({ tree, truncated: false, texts }, rest, 2);
    const link = await verify('@acme/elsewhere', files);
    expect(link).toMatchObject({ verifiedBy: null, code: 'budget' });
    expect(rest.reads).toHaveLength(2);
    expect(rest.listings).toEqual([]);
  });
});

describe('workspaceGlobs', () => {
  test('includes, excludes and the folders a walk starts from', () => {
    const ws = workspaceGlobs(['./packages/**/*/', '!packages/codemod/batch-test/**', 'examples', 'apps/{web,api}', '../x', '/abs', 'C:/x']);
    expect(ws).toMatchObject({
      include: ['packages/**/*', 'examples', 'apps/{web,api}'],
      exclude: ['packages/codemod/batch-test/**'],
      ignored: ['../x', '/abs', 'C:/x'],
      literals: ['examples'],
      starts: [
        { base: 'packages', depth: null },
        { base: 'apps', depth: 1 },
      ],
    });
    expect(['packages/a', 'packages/a/b/c', 'examples', 'apps/api'].filter(ws.matches)).toHaveLength(4);
    expect(['packages', 'packages/codemod/batch-test', 'packages/codemod/batch-test/x', 'packages/.cache', 'apps/cli', ''].filter(ws.matches)).toEqual([]);
    expect(ws.mayContain('packages/a/b')).toBe(true);
    expect(ws.mayContain('apps/api')).toBe(false);
    expect(ws.mayContain('tools')).toBe(false);
  });
});

describe("a package's own repository, with no tree: the recorded typescript-sdk over the contents API", () => {
  let server: FixtureServer;
  let client: TestClient;
  beforeEach(async () => {
    server = await startFixtureServer();
    client = testClient();
  });
  afterEach(async () => {
    expectNoUnexpected(server);
    await client.http.close();
    await server.close();
  });

  test('`packages/**/*` is walked within the listing bound and the member two levels deep verifies', async () => {
    const fullName = 'modelcontextprotocol/typescript-sdk';
    serveRecordedRepo(server, fullName, { license: 'Apache-2.0' });
    const call = { http: client.http, limiter: new GithubRateLimiter(), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse: false, now: NOW, counter: { requests: 0 } };
    const base = `${server.url('github')}/repos/${fullName}`;
    const root = (await restFileSource(call, base, null).list([''])).get('');
    const files = restFileSource(call, base, root?.kind === 'dir' ? root.entries : null);
    const link = await verifyLink({ claim: npmClaim('@modelcontextprotocol/express'), host: 'github.com', fullName, names: [fullName], branch: 'main', files });
    expect(link).toEqual({
      verifiedBy: 'manifest',
      reason: 'package.json in workspace member packages/middleware/express at main names "@modelcontextprotocol/express"',
    });
    const paths = server.requests.map((r) => r.path.replace(`/github/repos/${fullName}`, ''));
    // The root listing, package.json and pnpm-workspace.yaml, the folders from `packages` down
    // (at most 10 listings, test/example folders never), then the one manifest named like the package.
    const listings = paths.filter((p) => p.startsWith('/contents/') && !/\.(?:json|yaml)$/.test(p));
    expect(listings.length).toBeLessThanOrEqual(1 + MAX_GLOB_LISTINGS);
    expect(paths.filter((p) => p.endsWith('/package.json') && p !== '/contents/package.json')).toEqual(['/contents/packages/middleware/express/package.json']);
    expect(paths.filter((p) => /\/(?:test|examples?)(?:\/|$)/.test(p))).toEqual([]);
    expect(paths).toHaveLength(call.counter.requests);
    expect(call.counter.requests).toBe(REST_REQUESTS_MEASURED);
  });
});

/** Measured: 1 root listing + package.json + pnpm-workspace.yaml + 10 folder listings + 1 member manifest. */
const REST_REQUESTS_MEASURED = 14;

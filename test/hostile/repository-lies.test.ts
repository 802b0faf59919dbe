/**
 * Repositories that lie (docs/security.md, "Repositories that lie"): a repository target's tree
 * listing, files and API answers are an attacker's to write. Files that are not what their name
 * says (a symbolic link, a submodule, a Git LFS pointer, a binary, a size the listing misstates)
 * are unread with a reason; a listed path that is not a well-formed repository path (an empty, `.`
 * or `..` segment, a leading slash, a NUL) is never asked for under another name; a listing cut
 * short never makes "no manifest" an answer; a default branch Git could not name is never asked
 * at; a lockfile pinning from another host is never a clean bill; README and manifest lies that
 * were already held are kept held.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GithubFiles } from '../../src/evidence/github-facts.js';
import { restRepoFiles } from '../../src/sources/github/repo-files.js';
import { repositoryDependencies } from '../../src/sources/github/repo-dependencies.js';
import { manifestOf } from '../../src/sources/github/repo-manifests.js';
import { advertisedInstalls } from '../../src/sources/github/readme-installs.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { commitsLink, githubCallFor, widgetCommits } from '../github/helpers.js';

const REPO = { owner: 'acme', name: 'widget' };
const FILES = '/github/repos/acme/widget';
const PACKAGE_JSON = JSON.stringify({ name: 'widget', version: '1.0.0', dependencies: { express: '^4.18.0' } });

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

const call = (): GithubCall => githubCallFor(server);

type Entry = { path: string; type: string; mode?: string; size?: number };
function serveTree(tree: Entry[], truncated = false): void {
  server.expect('GET', `${FILES}/git/trees/main?recursive=1`, { body: { sha: '1a'.repeat(20), tree, truncated } });
  server.expect('GET', `${FILES}/tags?per_page=100`, { body: [] });
  server.expect('GET', `${FILES}/commits?per_page=2&sha=main`, { body: widgetCommits().slice(0, 2), headers: { link: commitsLink(1, 6) } });
  server.expect('GET', `${FILES}/commits?page=6&per_page=2&sha=main`, { body: widgetCommits().slice(10) });
}
const read = () => restRepoFiles(call(), REPO, `${server.url('github')}/repos/acme/widget`, 'main');
const contentRequests = () => server.requests.filter((r) => r.path.includes('/contents/')).map((r) => decodeURIComponent(r.path.slice(`${FILES}/contents/`.length)));

describe('files that are not what their name says', () => {
  it('a submodule (mode 160000) whose type claims a blob, named package.json, README.md, LICENSE: never read as the file (the README and manifest unknown)', async () => {
    serveTree([
      { path: 'package.json', type: 'blob', mode: '160000', size: 40 },
      { path: 'README.md', type: 'blob', mode: '160000', size: 40 },
      { path: 'LICENSE', type: 'blob', mode: '160000', size: 40 },
    ]);
    const got = await read();
    expect(contentRequests()).toEqual([]);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.value.unread.map((u) => u.path).sort()).toEqual(['README.md', 'package.json']);
    expect(got.value.licenseFiles).toEqual([]);
    expect(repositoryDependencies(got.value, got.texts).status).toBe('unavailable');
  });

  it('a symbolic link named package-lock.json and SECURITY.md, an LFS pointer lockfile, a binary README: each unread, the set unavailable', async () => {
    serveTree([
      { path: 'package.json', type: 'blob', mode: '100644', size: PACKAGE_JSON.length },
      { path: 'package-lock.json', type: 'blob', mode: '120000', size: 20 },
      { path: 'SECURITY.md', type: 'blob', mode: '120000', size: 20 },
      { path: 'README.md', type: 'blob', mode: '100644', size: 8 },
    ]);
    server.expect('GET', `${FILES}/contents/package.json`, { body: PACKAGE_JSON });
    server.expect('GET', `${FILES}/contents/README.md`, { body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    const got = await read();
    expect(contentRequests().sort()).toEqual(['README.md', 'package.json']);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.value.readme).toBeNull();
    expect(got.value.securityPolicyText ?? null).toBeNull();
    expect(got.value.unread.map((u) => u.path).sort()).toEqual(['README.md', 'SECURITY.md', 'package-lock.json']);
    const deps = repositoryDependencies(got.value, got.texts);
    expect(deps.status).toBe('unavailable');
  });

  it('a lockfile that is a Git LFS pointer: unread, the set unavailable (never the manifest\'s ranges as if unlocked)', async () => {
    serveTree([
      { path: 'package.json', type: 'blob', mode: '100644', size: PACKAGE_JSON.length },
      { path: 'package-lock.json', type: 'blob', mode: '100644', size: 130 },
    ]);
    server.expect('GET', `${FILES}/contents/package.json`, { body: PACKAGE_JSON });
    server.expect('GET', `${FILES}/contents/package-lock.json`, { body: 'version https://git-lfs.github.com/spec/v1\noid sha256:' + 'ab'.repeat(32) + '\nsize 123456\n' });
    const got = await read();
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.value.unread.map((u) => u.path)).toEqual(['package-lock.json']);
    const deps = repositoryDependencies(got.value, got.texts);
    expect(deps.status === 'unavailable' && deps.code).toBe('unreadable-file');
  });
});

describe('a tree that lies', () => {
  it.each([
    ['an empty segment', 'a//package.json', 'unavailable'],
    ['a leading slash', '/package.json', 'unavailable'],
    ['a trailing slash', 'package.json/', 'not-applicable'],
    ['a dot segment', 'a/./package.json', 'unavailable'],
    ['a NUL', 'a\u0000/package.json', 'unavailable'],
  ])('a listed path with %s is never asked for (under its name or another)', async (_what, path, dependencies) => {
    serveTree([{ path, type: 'blob', mode: '100644', size: 40 }]);
    const got = await read();
    expect(contentRequests()).toEqual([]);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    // Named as unread (escaped: no control character reaches a report), the manifest it may be unknown.
    expect(got.value.unread).toHaveLength(1);
    expect(got.value.unread[0]?.path).not.toMatch(/[\u0000-\u001f]/);
    expect(repositoryDependencies(got.value, got.texts).status).toBe(dependencies);
  });

  it('a listing of 100,000 paths Git cannot hold: none asked for, three named, the rest counted', async () => {
    serveTree(Array.from({ length: 100_000 }, (_, i) => ({ path: `x//${i}/package.json`, type: 'blob', mode: '100644', size: 40 })));
    const got = await read();
    expect(contentRequests()).toEqual([]);
    expect(got.ok && got.value.unread.length).toBe(3);
    expect(got.ok && got.value.entries).toBe(0);
  });

  it('"the" manifest in node_modules/, vendor/, a test fixture or a dot folder: not the project\'s, never read (held)', async () => {
    serveTree(['node_modules/express/package.json', 'vendor/package.json', 'test/fixtures/package.json', '.hidden/package.json', 'a/b/c/d/package.json'].map((path) => ({ path, type: 'blob', mode: '100644', size: 40 })));
    const got = await read();
    expect(contentRequests()).toEqual([]);
    expect(got.ok && got.value.manifests).toEqual([]);
  });

  it('a listing cut short that lists no manifest: the dependency set is unknown, never "no manifest"', async () => {
    serveTree([{ path: 'src/index.ts', type: 'blob', mode: '100644', size: 40 }], true);
    const got = await read();
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.value.treeTruncated).toBe(true);
    const deps = repositoryDependencies(got.value, got.texts);
    expect(deps.status).toBe('unavailable');
  });

  it('a complete listing with no manifest stays not applicable', () => {
    const files: GithubFiles = {
      branch: 'main', treeTruncated: false, entries: 1, readme: null, licenseFiles: [], changelog: null, docsFolder: false, examplesFolder: false,
      securityPolicy: null, manifests: [], lockfiles: [], workflows: 0, tags: null, unread: [], requests: 4,
    };
    expect(repositoryDependencies(files, new Map()).status).toBe('not-applicable');
    expect(repositoryDependencies({ ...files, treeTruncated: true }, new Map()).status).toBe('unavailable');
  });
});

describe('API answers that lie', () => {
  it.each(['..', '.', '../../other/repo', 'main:README.md', 'a//b', 'x\u001b[2Jy', '-main', 'heads/.hidden', 'main.lock', ''])(
    'a default branch Git could not name (%j): the files unknown with a reason, nothing asked, never a throw',
    async (branch) => {
      const c = call();
      const got = await restRepoFiles(c, REPO, `${server.url('github')}/repos/acme/widget`, branch);
      expect(got.ok).toBe(false);
      expect(c.counter.requests).toBe(0);
      expect(server.requests).toEqual([]);
    },
  );

  it.each(['main', 'release/1.x', 'feature/a-b_c.d', 'v1.0', 'main@2'])('a default branch Git can name (%j) is read', async (branch) => {
    const at = encodeURIComponent(branch).replace(/%2F/g, '%2f');
    server.expect('GET', `${FILES}/git/trees/${at}?recursive=1`, { body: { sha: '1a'.repeat(20), tree: [], truncated: false } });
    server.expect('GET', `${FILES}/tags?per_page=100`, { body: [] });
    server.expect('GET', `${FILES}/commits?per_page=2&sha=${encodeURIComponent(branch)}`, { body: [] });
    const got = await restRepoFiles(call(), REPO, `${server.url('github')}/repos/acme/widget`, branch);
    expect(got.ok).toBe(true);
  });
});

describe('a README that lies (held: what GitHub does not show, or no package manager could install, names no package)', () => {
  it.each([
    ['an HTML comment (GitHub does not show it)', '# x\n<!--\n```sh\nnpx -y hidden-pkg\n```\n-->\n', []],
    ['a <details> block (GitHub shows it when opened)', '# x\n<details><summary>s</summary>\n\n```sh\nnpx -y detail-pkg\n```\n</details>\n', ['detail-pkg']],
    ['a zero-width space in the name', '# x\n```sh\nnpx -y zw\u200b-pkg\n```\n', []],
    ['a zero-width space in the command', '# x\n```sh\nnp\u200bx -y zw-pkg\n```\n', []],
    ['a bidi control in the name', '# x\n```sh\nnpx -y bidi\u202e-pkg\n```\n', []],
    ['a terminal escape in the name', '# x\n```sh\nnpx -y esc\u001b[31m-pkg\n```\n', []],
    ['a Cyrillic letter in the name (no npm name)', '# x\n```sh\nnpx -y \u0435xpress\n```\n', []],
  ])('%s', (_what, readme, names) => {
    expect(advertisedInstalls(readme).map((i) => i.name)).toEqual(names);
  });
});

describe('a manifest that lies (held)', () => {
  it('a key written twice: the last one, as npm reads package.json (JSON.parse)', () => {
    expect(manifestOf('package.json', '{"name":"mine","name":"express","private":false,"private":true}')).toMatchObject({ name: 'express', private: true });
  });

  it('JSON nested 200,000 deep in the fields read: a manifest, no throw', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(manifestOf('package.json', `{"name":"x","keywords":${deep},"dependencies":{"a":${deep}},"license":${deep}}`)).toMatchObject({ name: 'x', license: null, keywords: [] });
  });

  it('a pyproject.toml with arrays nested 100,000 deep: no manifest (unread with a reason), no throw', () => {
    expect(manifestOf('pyproject.toml', `[project]\nname = "x"\ndependencies = ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)).toBeNull();
  });
});

describe('a lockfile that pins from another host than the public registry', () => {
  const PUBLICS = { npm: ['https://registry.example/'], pypi: ['https://pypi.example/pypi'] };
  const base = (manifests: ReturnType<typeof manifestOf>[], lockfiles: string[]): GithubFiles => ({
    branch: 'main', treeTruncated: false, entries: 3, readme: null, licenseFiles: [], changelog: null, docsFolder: false, examplesFolder: false,
    securityPolicy: null, manifests: manifests.flatMap((m) => (m === null ? [] : [m])), lockfiles, workflows: 0, tags: null, unread: [], requests: 4,
  });
  const PJ = JSON.stringify({ name: 'x', version: '1.0.0', dependencies: { a: '^1.0.0' } });
  const lock = (resolved: string) =>
    JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': { name: 'x', version: '1.0.0', dependencies: { a: '^1.0.0' } }, 'node_modules/a': { version: '1.0.0', resolved } } });
  const PY = '[project]\nname = "x"\nversion = "1"\ndependencies = ["requests>=2"]\n';
  const uvLock = (registry: string) =>
    `version = 1\nrequires-python = ">=3.10"\n\n[[package]]\nname = "x"\nversion = "1"\nsource = { editable = "." }\ndependencies = [{ name = "requests" }]\n\n[[package]]\nname = "requests"\nversion = "2.0.0"\nsource = { registry = "${registry}" }\n`;

  it('an npm lockfile pinning a tarball from another host: the file named unevaluated with the host, never a clean bill', () => {
    const got = repositoryDependencies(base([manifestOf('package.json', PJ)], ['package-lock.json']), new Map([['package.json', PJ], ['package-lock.json', lock('https://evil.example/a/-/a-1.0.0.tgz')]]), PUBLICS);
    expect(got.status === 'ok' && got.facts.unevaluated).toEqual([{ file: 'package-lock.json', ecosystem: 'npm from another registry (evil.example)' }]);
  });

  it('a uv.lock pinning from another index, and a pyproject.toml whose [tool.uv] index-url is another host: named unevaluated', () => {
    const uv = repositoryDependencies(base([manifestOf('pyproject.toml', PY)], ['uv.lock']), new Map([['pyproject.toml', PY], ['uv.lock', uvLock('https://evil.example/simple')]]), PUBLICS);
    expect(uv.status === 'ok' && uv.facts.unevaluated?.map((u) => u.file)).toEqual(['uv.lock']);
    const redirected = `${PY}[tool.uv]\nindex-url = "https://evil.example/simple"\n`;
    const alone = repositoryDependencies(base([manifestOf('pyproject.toml', redirected)], []), new Map([['pyproject.toml', redirected]]), PUBLICS);
    expect(alone.status === 'ok' && alone.facts.unevaluated).toEqual([{ file: 'pyproject.toml', ecosystem: 'PyPI from another registry (evil.example)' }]);
  });

  it('pins from the public registries stay a set to evaluate (nothing unevaluated)', () => {
    const npm = repositoryDependencies(base([manifestOf('package.json', PJ)], ['package-lock.json']), new Map([['package.json', PJ], ['package-lock.json', lock('https://registry.example/a/-/a-1.0.0.tgz')]]), PUBLICS);
    expect(npm.status === 'ok' && npm.facts.unevaluated).toBeUndefined();
    const py = repositoryDependencies(base([manifestOf('pyproject.toml', PY)], ['uv.lock']), new Map([['pyproject.toml', PY], ['uv.lock', uvLock('https://pypi.org/simple')]]), PUBLICS);
    expect(py.status === 'ok' && py.facts.unevaluated).toBeUndefined();
  });
});

describe('a size that lies', () => {
  it('a manifest the listing calls 10 bytes that is 600 KiB: held to its cap, unread (too-large), the set unavailable', async () => {
    serveTree([{ path: 'package.json', type: 'blob', mode: '100644', size: 10 }]);
    server.expect('GET', `${FILES}/contents/package.json`, { body: JSON.stringify({ name: 'x', description: 'y'.repeat(600 * 1024) }) });
    const got = await read();
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.value.unread).toMatchObject([{ path: 'package.json', code: 'too-large' }]);
    expect(got.value.manifests).toEqual([]);
    const deps = repositoryDependencies(got.value, got.texts);
    expect(deps.status === 'unavailable' && deps.code).toBe('too-large');
  });
});

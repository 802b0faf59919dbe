/**
 * Starjacking: is the repository really the package's? Verified by the manifest at the default
 * branch (npm package.json, a workspace member, pyproject.toml / setup.cfg / setup.py) or by a
 * provenance attestation; otherwise the reason says what the manifest names instead.
 */
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pep503 } from '../../src/ecosystems/pypi/name.js';
import type { TreeEntry } from '../../src/sources/github/files.js';
import {
  MAX_MEMBER_READS,
  pythonProjectName,
  repositoryKey,
  verifyLink,
  type FileRead,
  type GithubClaim,
  type RepoFileSource,
} from '../../src/sources/github/link.js';
import { GithubRateLimiter } from '../../src/sources/github/rate-limit.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { restFileSource } from '../../src/sources/github/rest.js';
import { fetchGithubFacts } from '../../src/sources/github/source.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { contextFor, NOW, npmClaim, pypiClaim, serveRepo, testClient, type TestClient } from './helpers.js';

let server: FixtureServer;
let client: TestClient;

beforeEach(async () => {
  server = await startFixtureServer();
  client = testClient();
});

afterEach(async () => {
  await client.http.close();
  await server.close();
});

describe('through the whole source (REST)', () => {
  test('a typosquat pointing at a famous repository is not verified, and the reason says why', async () => {
    serveRepo(server, 'acme/widget');
    const result = await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'widget' }, npmClaim('widgett'));
    expect(result.status === 'ok' && result.facts.link).toEqual({ verifiedBy: null, reason: 'package.json at main names "widget", not "widgett"', code: 'not-named' });
    // The repository facts are still collected: the checks decide not to credit them.
    expect(result.status === 'ok' && result.facts.repository?.stars).toBe(15234);
  });

  test('a workspace member names the package: the likeliest member directory is read first', async () => {
    serveRepo(server, 'acme/mono', {
      override: { contents: { fixture: 'github/repos/acme/mono/contents' }, manifest: { fixture: 'github/repos/acme/mono/contents/package.json' } },
    });
    server.expect('GET', '/github/repos/acme/mono/contents/packages', { fixture: 'github/repos/acme/mono/contents/packages' });
    for (const dir of ['packages/cli', 'packages/core', 'packages/utils', 'tools/build']) {
      server.expect('GET', `/github/repos/acme/mono/contents/${dir}/package.json`, { fixture: `github/repos/acme/mono/contents/${dir}/package.json` });
    }
    const result = await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'mono' }, npmClaim('@acme/cli'));
    expect(result.status === 'ok' && result.facts.link).toEqual({
      verifiedBy: 'manifest',
      reason: 'package.json in workspace member packages/cli at main names "@acme/cli"',
    });
    const reads = server.requests.filter((r) => r.path.endsWith('/package.json')).map((r) => r.path.replace('/github/repos/acme/mono/contents/', ''));
    expect(reads[0]).toBe('package.json');
    expect(reads).toContain('packages/cli/package.json');
    expectNoUnexpected(server);
  });
});

describe('verifyLink against the contents API', () => {
  const call = (): GithubCall => ({
    http: client.http,
    limiter: new GithubRateLimiter(),
    api: server.url('github'),
    graphql: `${server.url('github')}/graphql`,
    tokenInUse: false,
    now: NOW,
    counter: { requests: 0 },
  });
  const root = (...names: string[]): TreeEntry[] => names.map((path) => ({ path, type: path.includes('.') ? 'file' : 'dir' }));
  const verify = (repo: string, claim: GithubClaim, rootEntries: TreeEntry[] | null) =>
    verifyLink({
      claim,
      host: 'github.com',
      fullName: repo,
      names: [repo],
      branch: 'main',
      files: restFileSource(call(), `${server.url('github')}/repos/${repo}`, rootEntries),
    });

  test('a declared directory is read first', async () => {
    server.expect('GET', '/github/repos/acme/mono/contents/packages/core/package.json', { fixture: 'github/repos/acme/mono/contents/packages/core/package.json' });
    const link = await verify('acme/mono', npmClaim('@acme/core', { directory: './packages/core/' }), root('packages'));
    expect(link).toEqual({ verifiedBy: 'manifest', reason: 'package.json in packages/core at main names "@acme/core"' });
    expect(server.requests).toHaveLength(1);
  });

  test('pyproject.toml: [project].name, compared after PEP 503 normalisation', async () => {
    server.expect('GET', '/github/repos/acme/pyproj/contents/pyproject.toml', { fixture: 'github/repos/acme/pyproj/contents/pyproject.toml' });
    const link = await verify('acme/pyproj', pypiClaim('py.proj'), root('pyproject.toml', 'src'));
    expect(link).toEqual({ verifiedBy: 'manifest', reason: 'pyproject.toml at main names "Py_Proj"' });
    expect(server.requests.map((r) => r.headers.accept)).toEqual(['application/vnd.github.raw+json']);
  });

  test('a PyPI typosquat is not verified', async () => {
    server.expect('GET', '/github/repos/acme/pyproj/contents/pyproject.toml', { fixture: 'github/repos/acme/pyproj/contents/pyproject.toml' });
    const link = await verify('acme/pyproj', pypiClaim('py-porj'), root('pyproject.toml', 'src'));
    expect(link).toEqual({ verifiedBy: null, reason: 'pyproject.toml at main names "Py_Proj", not "py-porj"', code: 'not-named' });
  });

  test('setup.cfg [metadata] name, with a setup.py that names nothing literally', async () => {
    server.expect('GET', '/github/repos/acme/legacy-py/contents/setup.cfg', { fixture: 'github/repos/acme/legacy-py/contents/setup.cfg' });
    server.expect('GET', '/github/repos/acme/legacy-py/contents/setup.py', { fixture: 'github/repos/acme/legacy-py/contents/setup.py' });
    const link = await verify('acme/legacy-py', pypiClaim('Legacy_Py'), root('README.rst', 'setup.cfg', 'setup.py', 'legacy'));
    expect(link).toEqual({ verifiedBy: 'manifest', reason: 'setup.cfg at main names "legacy.py"' });
    expectNoUnexpected(server);
  });

  test('no manifest at all', async () => {
    expect(await verify('acme/site', npmClaim('site'), root('index.html', 'assets'))).toEqual({
      verifiedBy: null,
      reason: 'no package.json at the default branch (main)',
      code: 'not-named',
    });
    expect(await verify('acme/site', pypiClaim('site'), root('index.html', 'assets'))).toEqual({
      verifiedBy: null,
      reason: 'no pyproject.toml, setup.cfg or setup.py at the default branch (main)',
      code: 'not-named',
    });
    expect(server.requests).toHaveLength(0);
  });

  test('an unreadable manifest is reported as such', async () => {
    server.expect('GET', '/github/repos/acme/widget/contents/package.json', { status: 500 });
    const link = await verify('acme/widget', npmClaim('widget'), root('package.json'));
    expect(link).toEqual({ verifiedBy: null, reason: `could not read package.json at main: HTTP 500 from 127.0.0.1:${server.port}`, code: 'unreadable' });
  });

  test('a provenance attestation that names the repository verifies it without a request', async () => {
    const claim = npmClaim('widget-fork', { provenanceRepository: 'https://github.com/ACME/widget' });
    expect(await verify('acme/widget', claim, root('package.json'))).toEqual({
      verifiedBy: 'provenance',
      reason: 'a provenance attestation names github.com/acme/widget',
    });
    expect(server.requests).toHaveLength(0);
  });

  test('a provenance attestation that names another repository does not', async () => {
    server.expect('GET', '/github/repos/acme/widget/contents/package.json', { fixture: 'github/repos/acme/widget/contents/package.json' });
    const claim = npmClaim('widgett', { provenanceRepository: 'https://github.com/evil/widgett' });
    expect((await verify('acme/widget', claim, root('package.json'))).verifiedBy).toBeNull();
  });
});

describe('workspace bounds (a fake file source)', () => {
  function fakeSource(files: Record<string, string>, dirs: Record<string, string[]>): RepoFileSource & { reads: string[] } {
    const reads: string[] = [];
    return {
      reads,
      rootEntries: null,
      async read(paths) {
        reads.push(...paths);
        return new Map(paths.map((p): [string, FileRead] => [p, files[p] === undefined ? { kind: 'missing' } : { kind: 'file', text: files[p] as string }]));
      },
      async list(list) {
        return new Map(list.map((d) => [d, dirs[d] === undefined ? { kind: 'missing' as const } : { kind: 'dir' as const, entries: (dirs[d] ?? []).map((path) => ({ path, type: 'dir' as const })) }]));
      },
    };
  }

  test(`at most ${MAX_MEMBER_READS} member manifests are read, and the reason says so`, async () => {
    const members = Array.from({ length: 120 }, (_, i) => `pkg${i}`);
    const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'root', workspaces: { packages: ['libs/*'] } }) };
    for (const m of members) files[`libs/${m}/package.json`] = JSON.stringify({ name: `@big/${m}` });
    const source = fakeSource(files, { libs: members });
    const link = await verifyLink({ claim: npmClaim('not-here'), host: 'github.com', fullName: 'big/mono', names: ['big/mono'], branch: 'trunk', files: source });
    expect(link).toEqual({
      verifiedBy: null,
      reason: 'package.json at trunk names "root", not "not-here"; none of the 50 workspace member manifests read names it (only 50 of 120 were read)',
      code: 'budget',
    });
    expect(source.reads.filter((p) => p.startsWith('libs/'))).toHaveLength(MAX_MEMBER_READS);
  });

  test('pnpm-workspace.yaml globs count too, and reading stops at the first match', async () => {
    const source = fakeSource(
      {
        'package.json': JSON.stringify({ name: 'root', private: true }),
        'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/internal'\n",
        ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`packages/p${i}/package.json`, JSON.stringify({ name: `p${i}` })])),
      },
      { packages: Array.from({ length: 25 }, (_, i) => `p${i}`) },
    );
    const link = await verifyLink({ claim: npmClaim('p3'), host: 'github.com', fullName: 'o/r', names: ['o/r'], branch: 'main', files: source });
    expect(link).toEqual({ verifiedBy: 'manifest', reason: 'package.json in workspace member packages/p3 at main names "p3"' });
    // p3's folder is named like the package, so it is read alone first: nothing beyond it is read.
    expect(source.reads.filter((p) => p.startsWith('packages/'))).toEqual(['packages/p3/package.json']);
  });
});

describe('pure helpers', () => {
  test.each([
    ['git+https://github.com/Acme/Widget.git', 'github.com/acme/widget'],
    ['https://github.com/acme/widget/', 'github.com/acme/widget'],
    ['git@github.com:acme/widget.git', 'github.com/acme/widget'],
    ['github.com/acme/widget', 'github.com/acme/widget'],
    ['https://www.github.com/acme/widget#readme', 'github.com/acme/widget'],
  ])('repositoryKey(%s)', (value, key) => {
    expect(repositoryKey(value)).toBe(key);
  });

  test('PEP 503 names', () => {
    expect(pep503('Py_Proj')).toBe(pep503('py.proj'));
    expect(pep503('zope.interface')).toBe('zope-interface');
    expect(pep503('requests')).not.toBe(pep503('reqeusts'));
  });

  test('Python manifests', () => {
    expect(pythonProjectName('pyproject.toml', '[tool.poetry]\nname = "poetry-app"\nversion = "1.0"\n', parseToml)).toEqual({ ok: true, value: 'poetry-app' });
    expect(pythonProjectName('pyproject.toml', '[project\nname = ', parseToml)).toEqual({ ok: false, reason: 'is not valid TOML' });
    expect(pythonProjectName('pyproject.toml', '[build-system]\nrequires = ["setuptools"]\n', parseToml)).toEqual({ ok: true, value: null });
    expect(pythonProjectName('setup.py', 'from setuptools import setup\nsetup(\n    name="fancy-lib",\n    version="1.0",\n)\n', parseToml)).toEqual({ ok: true, value: 'fancy-lib' });
    expect(pythonProjectName('setup.py', 'setup(name=NAME)', parseToml)).toEqual({ ok: true, value: null });
  });
});

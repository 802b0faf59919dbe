/**
 * Reading workflow files from GitHub's raw file hosting without a token (sources/github/raw-files.ts,
 * workflow-files.ts, repo-files.ts): pinned to the commit of the listed tree, no REST request spent,
 * no token sent, a path from the listing never leaving the repository's folder, and every failure
 * of the raw host an unread file — never a crash, never REST stopped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { rawFileUrl, readRawFiles, type RawAt } from '../../src/sources/github/raw-files.js';
import { restRepoFiles } from '../../src/sources/github/repo-files.js';
import type { RepoTreeItem } from '../../src/sources/github/repo-tree.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { fetchRepositoryFiles, githubAuthFor } from '../../src/sources/github/source.js';
import { MAX_WORKFLOW_BYTES, MAX_WORKFLOW_FILES_RAW, MAX_WORKFLOW_FILES_REST, readWorkflows } from '../../src/sources/github/workflow-files.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { commitsLink, contextFor, endpointsFor, limiterFor, testClient, TOKEN, widgetCommits } from './helpers.js';

const REPO = { owner: 'acme', name: 'widget' };
const COMMIT = 'a1'.repeat(20);
const TREE = '1a'.repeat(20);
const SAFE = 'on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: npm test\n';
const INJECTION = 'on: issues\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';
const RAW_AT = `/github-raw/acme/widget/${COMMIT}`;

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

function call(tokenInUse = false): GithubCall {
  // The token provider nerq uses, with raw hosting on the same origin as the API (as here): it must still never go there.
  const endpoints = { ...resolveEndpoints({ NERQ_GITHUB_API_URL: server.url('github'), NERQ_GITHUB_GRAPHQL_URL: `${server.url('github')}/graphql`, NERQ_GITHUB_RAW_URL: server.url('github-raw') }) };
  const { http } = testClient(githubAuthFor(endpoints, TOKEN));
  return { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse, now: new Date('2026-06-01T12:00:00Z'), counter: { requests: 0 } };
}
const at = (): RawAt => ({ base: server.url('github-raw'), ...REPO, commit: COMMIT });
const item = (name: string, size: number | null = 100): RepoTreeItem => ({ path: `.github/workflows/${name}`, type: 'blob', size });
const rawRequests = () => server.requests.filter((r) => r.path.startsWith('/github-raw/'));

describe('rawFileUrl', () => {
  it('pins the path to the commit, one encoded segment each', () => {
    expect(rawFileUrl(at(), '.github/workflows/ci.yml')).toBe(`${server.url('github-raw')}/acme/widget/${COMMIT}/.github/workflows/ci.yml`);
    // An encoded slash in a name stays one literal segment (its % encoded), never a level.
    expect(rawFileUrl(at(), '.github/workflows/a%2f..%2f..%2fx.yml')).toBe(`${server.url('github-raw')}/acme/widget/${COMMIT}/.github/workflows/a%252f..%252f..%252fx.yml`);
    expect(rawFileUrl(at(), '.github/workflows/a b#?.yml')).toBe(`${server.url('github-raw')}/acme/widget/${COMMIT}/.github/workflows/a%20b%23%3F.yml`);
  });

  it.each(['.github/../../other/repo/x.yml', '../x.yml', './x.yml', '.github//x.yml', '/x.yml', 'a\\..\\x.yml', 'a\nb.yml', ''])('refuses %j', (path) => {
    expect(rawFileUrl(at(), path)).toBeNull();
  });

  it('refuses a commit that is not a hex sha (a branch name is never asked)', () => {
    expect(rawFileUrl({ ...at(), commit: 'main' }, 'x.yml')).toBeNull();
    expect(rawFileUrl({ ...at(), commit: '..' }, 'x.yml')).toBeNull();
  });
});

describe('readRawFiles', () => {
  it('reads each file with no token sent and no REST request counted', async () => {
    server.expect('GET', `${RAW_AT}/.github/workflows/ci.yml`, { body: SAFE });
    const c = call();
    const got = await readRawFiles(c, at(), ['.github/workflows/ci.yml', '.github/../x.yml'], MAX_WORKFLOW_BYTES);
    expect(got.get('.github/workflows/ci.yml')).toEqual({ kind: 'file', text: SAFE });
    expect(got.get('.github/../x.yml')?.kind).toBe('error');
    expect(c.counter.requests).toBe(0);
    expect(rawRequests()).toHaveLength(1);
    expect(rawRequests()[0]?.headers.authorization).toBeUndefined();
  });

  it('a 404 is missing, a 502, a body over the cap and a reset are unread with a reason', async () => {
    server.expect('GET', `${RAW_AT}/a.yml`, { status: 404, body: '404: Not Found' });
    server.expect('GET', `${RAW_AT}/b.yml`, { status: 502 });
    server.expect('GET', `${RAW_AT}/c.yml`, { body: 'x'.repeat(MAX_WORKFLOW_BYTES + 1) });
    server.expect('GET', `${RAW_AT}/d.yml`, { reset: true });
    const got = await readRawFiles(call(), at(), ['a.yml', 'b.yml', 'c.yml', 'd.yml'], MAX_WORKFLOW_BYTES);
    expect(got.get('a.yml')).toEqual({ kind: 'missing' });
    for (const p of ['b.yml', 'c.yml', 'd.yml']) {
      const read = got.get(p);
      expect(read?.kind).toBe('error');
      expect(read?.kind === 'error' && read.reason.length > 0 && !read.reason.includes('\n')).toBe(true);
    }
  });

  it('a 429 stops raw hosting for the run, never the REST API', async () => {
    server.expect('GET', `${RAW_AT}/a.yml`, { status: 429, headers: { 'retry-after': '60' } });
    const c = call();
    const first = await readRawFiles(c, at(), ['a.yml'], MAX_WORKFLOW_BYTES);
    expect(first.get('a.yml')?.kind).toBe('error');
    const second = await readRawFiles(c, at(), ['b.yml'], MAX_WORKFLOW_BYTES);
    expect(second.get('b.yml')?.kind).toBe('error');
    expect(rawRequests().map((r) => r.path)).toEqual([`${RAW_AT}/a.yml`]);
    expect(c.limiter.stoppedFor(c.api, c.now)).toBeNull();
  });
});

describe('readWorkflows from raw hosting (no token)', () => {
  const base = () => `${server.url('github')}/repos/acme/widget`;

  it(`reads up to ${MAX_WORKFLOW_FILES_RAW} workflows, more than the ${MAX_WORKFLOW_FILES_REST} of REST, with no REST request`, async () => {
    const names = Array.from({ length: MAX_WORKFLOW_FILES_REST + 4 }, (_, i) => `w${i}.yml`);
    for (const n of names) server.expect('GET', `${RAW_AT}/.github/workflows/${n}`, { body: n === 'w3.yml' ? INJECTION : SAFE });
    const c = call();
    const got = await readWorkflows(c, REPO, base(), names.map((n) => item(n)), [], false, new Map(), undefined, at());
    expect(c.counter.requests).toBe(0);
    expect(got.read).toHaveLength(names.length);
    expect(got.unread).toEqual([]);
    expect(got.findings.map((f) => f.code)).toEqual(['script-injection']);
  });

  it('a file the raw host fails on is unread ("read N of M"), the others judged', async () => {
    server.expect('GET', `${RAW_AT}/.github/workflows/a.yml`, { body: SAFE });
    server.expect('GET', `${RAW_AT}/.github/workflows/b.yml`, { status: 404 });
    server.expect('GET', `${RAW_AT}/.github/workflows/c.yml`, { status: 503 });
    server.expect('GET', `${RAW_AT}/.github/workflows/d.yml`, { body: '<html>not yaml: [' });
    const got = await readWorkflows(call(), REPO, base(), ['a.yml', 'b.yml', 'c.yml', 'd.yml'].map((n) => item(n)), [], false, new Map(), undefined, at());
    expect(got).toMatchObject({ listed: 4, read: ['.github/workflows/a.yml'] });
    expect(got.unread.map((u) => u.path)).toEqual(['.github/workflows/b.yml', '.github/workflows/c.yml', '.github/workflows/d.yml']);
  });

  it('with a token the GraphQL query reads them: raw hosting is not asked', async () => {
    server.expect('POST', '/github/graphql', { body: { data: { repository: { x0: { text: SAFE, isTruncated: false, isBinary: false } } } } });
    const got = await readWorkflows(call(true), REPO, base(), [item('a.yml')], [], false, new Map(), undefined, at());
    expect(got.read).toEqual(['.github/workflows/a.yml']);
    expect(rawRequests()).toEqual([]);
  });
});

describe('restRepoFiles: raw reads pinned to the listed tree', () => {
  const files = `/github/repos/acme/widget`;
  function serve(treeSha: string): void {
    server.expect('GET', `${files}/git/trees/main?recursive=1`, { body: { sha: treeSha, tree: [{ path: '.github/workflows/ci.yml', type: 'blob', size: 80 }], truncated: false } });
    server.expect('GET', `${files}/tags?per_page=100`, { body: [] });
    server.expect('GET', `${files}/commits?per_page=2&sha=main`, { body: widgetCommits().slice(0, 2), headers: { link: commitsLink(1, 6) } });
    server.expect('GET', `${files}/commits?page=6&per_page=2&sha=main`, { body: widgetCommits().slice(10) });
  }

  it('the newest commit has the listed tree: the workflow is read from raw hosting at that commit', async () => {
    serve(TREE);
    server.expect('GET', `${RAW_AT}/.github/workflows/ci.yml`, { body: SAFE });
    const c = call();
    const got = await restRepoFiles(c, REPO, `${server.url('github')}/repos/acme/widget`, 'main', server.url('github-raw'));
    expect(got.ok && got.value.workflowSafety?.read).toEqual(['.github/workflows/ci.yml']);
    expect(c.counter.requests).toBe(4);
    expect(server.requests.some((r) => r.path.includes('/contents/'))).toBe(false);
  });

  it('a push between the listing and the history (another tree): REST reads it, never raw at a commit that may differ', async () => {
    serve('b2'.repeat(20));
    server.expect('GET', `${files}/contents/.github/workflows/ci.yml`, { body: SAFE });
    const c = call();
    const got = await restRepoFiles(c, REPO, `${server.url('github')}/repos/acme/widget`, 'main', server.url('github-raw'));
    expect(got.ok && got.value.workflowSafety?.read).toEqual(['.github/workflows/ci.yml']);
    expect(c.counter.requests).toBe(5);
    expect(rawRequests()).toEqual([]);
  });

  it('a github.com repository reads from the raw base of the endpoints; a GitHub Enterprise one keeps REST', async () => {
    serve(TREE);
    server.expect('GET', `${RAW_AT}/.github/workflows/ci.yml`, { body: SAFE });
    const { http } = testClient();
    const endpoints = endpointsFor(server, { githubRaw: server.url('github-raw') });
    const onGithub = await fetchRepositoryFiles(contextFor(server, http, null, endpoints), { host: 'github.com', ...REPO }, 'main');
    expect(onGithub.ok && onGithub.value.workflowSafety?.read).toEqual(['.github/workflows/ci.yml']);
    expect(rawRequests()).toHaveLength(1);

    const ghe = `/ghe/api/v3/repos/acme/widget`;
    server.expect('GET', `${ghe}/git/trees/main?recursive=1`, { body: { sha: TREE, tree: [{ path: '.github/workflows/ci.yml', type: 'blob', size: 80 }], truncated: false } });
    server.expect('GET', `${ghe}/tags?per_page=100`, { body: [] });
    server.expect('GET', `${ghe}/commits?per_page=2&sha=main`, { body: widgetCommits().slice(0, 2), headers: { link: commitsLink(1, 6) } });
    server.expect('GET', `${ghe}/commits?page=6&per_page=2&sha=main`, { body: widgetCommits().slice(10) });
    server.expect('GET', `${ghe}/contents/.github/workflows/ci.yml`, { body: SAFE });
    const gheEndpoints = { ...endpoints, githubServer: { host: 'ghe.example.test', api: `${server.url('ghe')}/api/v3`, graphql: `${server.url('ghe')}/api/graphql` } };
    const onGhe = await fetchRepositoryFiles(contextFor(server, http, null, gheEndpoints), { host: 'ghe.example.test', ...REPO }, 'main');
    expect(onGhe.ok && onGhe.value.workflowSafety?.read).toEqual(['.github/workflows/ci.yml']);
    expect(rawRequests()).toHaveLength(1);
  });
});

/**
 * Reading a repository's workflows within the budget (sources/github/workflow-files.ts) against the
 * fixture server: with a token one GraphQL query for all of them, without one a REST request each
 * up to the cap; every way a file is not read lists it unread with why, never as safe.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepoTreeItem } from '../../src/sources/github/repo-tree.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { MAX_WORKFLOW_BYTES, MAX_WORKFLOW_FILES_REST, readWorkflows } from '../../src/sources/github/workflow-files.js';
import { expectNoUnexpected, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { limiterFor, testClient, TOKEN } from './helpers.js';

const GRAPHQL = '/github/graphql';
const REPO = { owner: 'acme', name: 'widget' };
const SAFE = 'on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: npm test\n';
const INJECTION = 'on: issues\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

function call(tokenInUse: boolean): GithubCall {
  const { http } = testClient((url) => (tokenInUse && url.startsWith(server.url('github')) ? `Bearer ${TOKEN}` : undefined));
  return { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse, now: new Date('2026-06-01T12:00:00Z'), counter: { requests: 0 } };
}
const base = () => `${server.url('github')}/repos/acme/widget`;
const item = (name: string, size: number | null = 100): RepoTreeItem => ({ path: `.github/workflows/${name}`, type: 'blob', size });
const blob = (text: string) => ({ text, isTruncated: false, isBinary: false });

describe('readWorkflows with a token: one GraphQL query', () => {
  it('reads every workflow in one query and judges each', async () => {
    server.expect('POST', GRAPHQL, { body: { data: { repository: { x0: blob(SAFE), x1: blob(INJECTION) } } } });
    const c = call(true);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml'), item('b.yml')]);
    expect(c.counter.requests).toBe(1);
    expect(got).toMatchObject({ listed: 2, read: ['.github/workflows/a.yml', '.github/workflows/b.yml'], unread: [], outsiderTriggered: ['.github/workflows/b.yml'] });
    expect(got.findings.map((f) => f.code)).toEqual(['script-injection']);
  });

  it.each<[string, FixtureResponse]>([
    ['a 502', { status: 502 }],
    ['a 401', { status: 401, body: { message: 'Bad credentials' } }],
    ['an answer of the wrong shape', { body: { data: { repository: null } } }],
  ])('%s: every workflow unread with the reason, none judged', async (_name, response) => {
    server.expect('POST', GRAPHQL, response);
    const got = await readWorkflows(call(true), REPO, base(), [item('a.yml'), item('b.yml')]);
    expect(got.read).toEqual([]);
    expect(got.unread.map((u) => u.path)).toEqual(['.github/workflows/a.yml', '.github/workflows/b.yml']);
    expect(got.unread.every((u) => u.reason.length > 0)).toBe(true);
    expect(got.findings).toEqual([]);
  });

  it('a blob GitHub truncates, a missing one and one that does not parse: unread, the others judged', async () => {
    server.expect('POST', GRAPHQL, { body: { data: { repository: { x0: { text: null, isTruncated: true, isBinary: false }, x1: null, x2: blob('on: [push\n'), x3: blob(SAFE) } } } });
    const got = await readWorkflows(call(true), REPO, base(), ['a.yml', 'b.yml', 'c.yml', 'd.yml'].map((n) => item(n)));
    expect(got.read).toEqual(['.github/workflows/d.yml']);
    expect(got.unread).toEqual([
      { path: '.github/workflows/a.yml', reason: 'the file is too large to read' },
      { path: '.github/workflows/b.yml', reason: 'GitHub answered 404 for the file' },
      { path: '.github/workflows/c.yml', reason: 'the workflow is not valid YAML' },
    ]);
  });
});

describe('readWorkflows without a token: REST, at most the cap', () => {
  it(`reads the first ${MAX_WORKFLOW_FILES_REST} in the listing's order, lists the rest and the oversized unread, never asks for them`, async () => {
    const names = Array.from({ length: MAX_WORKFLOW_FILES_REST + 2 }, (_, i) => `w${i}.yml`);
    for (const n of names.slice(0, MAX_WORKFLOW_FILES_REST)) server.expect('GET', `/github/repos/acme/widget/contents/.github/workflows/${n}`, { body: SAFE });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), [item('big.yml', MAX_WORKFLOW_BYTES + 1), ...names.map((n) => item(n))]);
    expect(c.counter.requests).toBe(MAX_WORKFLOW_FILES_REST);
    expect(got.read).toHaveLength(MAX_WORKFLOW_FILES_REST);
    expect(got.unread.map((u) => u.path)).toEqual(['.github/workflows/big.yml', ...names.slice(MAX_WORKFLOW_FILES_REST).map((n) => `.github/workflows/${n}`)]);
    expect(server.requests.some((r) => r.path.includes('big.yml'))).toBe(false);
  });

  it('a body larger than the cap (the listing said less) is unread, not judged', async () => {
    server.expect('GET', '/github/repos/acme/widget/contents/.github/workflows/a.yml', { body: `${SAFE}#${'x'.repeat(MAX_WORKFLOW_BYTES)}\n` });
    const got = await readWorkflows(call(false), REPO, base(), [item('a.yml')]);
    expect(got.read).toEqual([]);
    expect(got.unread).toEqual([{ path: '.github/workflows/a.yml', reason: `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap` }]);
  });

  it('no workflows: no request, nothing listed', async () => {
    const c = call(false);
    expect(await readWorkflows(c, REPO, base(), [])).toEqual({ listed: 0, read: [], unread: [], outsiderTriggered: [], findings: [], unpinnedActions: 0 });
    expect(c.counter.requests).toBe(0);
  });
});

/**
 * Reading a repository's workflows within the budget (sources/github/workflow-files.ts) against the
 * fixture server: with a token one GraphQL query for all of them, without one a REST request each
 * up to the cap; every way a file is not read lists it unread with why, never as safe.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepoTreeItem } from '../../src/sources/github/repo-tree.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { CALLEE_RESERVE, MAX_ACTION_FILES_GRAPHQL, MAX_ACTION_FILES_REST, MAX_WORKFLOW_BYTES, MAX_WORKFLOW_FILES_GRAPHQL, MAX_WORKFLOW_FILES_REST, readWorkflows } from '../../src/sources/github/workflow-files.js';
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
    // A failure, not a limit: another run may read them (facts holding one are not kept).
    expect(got.unread.map((u) => u.cause)).toEqual(['fault', 'fault']);
    expect(got.findings).toEqual([]);
  });

  it('a blob GitHub truncates, a missing one and one that does not parse: unread, the others judged', async () => {
    server.expect('POST', GRAPHQL, { body: { data: { repository: { x0: { text: null, isTruncated: true, isBinary: false }, x1: null, x2: blob('on: [push\n'), x3: blob(SAFE) } } } });
    const got = await readWorkflows(call(true), REPO, base(), ['a.yml', 'b.yml', 'c.yml', 'd.yml'].map((n) => item(n)));
    expect(got.read).toEqual(['.github/workflows/d.yml']);
    expect(got.unread).toEqual([
      { path: '.github/workflows/a.yml', reason: 'the file is too large to read', cause: 'limit' },
      { path: '.github/workflows/b.yml', reason: 'GitHub answered 404 for the file', cause: 'missing' },
      { path: '.github/workflows/c.yml', reason: 'the workflow is not valid YAML', cause: 'unparsed' },
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

  it(`a directory shaped like awslabs/mcp's (23 workflows): the ${MAX_WORKFLOW_FILES_REST} read are the names suggesting outsider events, then releases — its one pull_request_target workflow among them`, async () => {
    // The real names of awslabs/mcp's .github/workflows/*.yml at 100b55b; pull-request-lint.yml is its real text (fixtures/PROVENANCE.md), the others answered SAFE.
    const names = ['aws-api-mcp-upgrade-version', 'bandit', 'cfn_nag', 'check-gh-pages-builds', 'check-license-header', 'checkov', 'codeql', 'dependency-review-action', 'gh-pages', 'merge-prevention', 'powershell', 'pre-commit', 'pull-request-lint', 'python', 'release-initiate-branch', 'release-merge-tag', 'release', 'scanners', 'scorecard-analysis', 'semgrep', 'stale', 'trivy', 'typescript'].map((n) => `${n}.yml`);
    const lint = readFileSync(new URL('../../fixtures/workflows/awslabs-mcp-pull-request-lint-100b55b.yml', import.meta.url), 'utf8');
    // Outsider-event names first (review, merge, pull; release-merge-tag by its `merge`), then the release ones, then the listing's first two.
    const expected = ['dependency-review-action', 'merge-prevention', 'pull-request-lint', 'release-merge-tag', 'release-initiate-branch', 'release', 'aws-api-mcp-upgrade-version', 'bandit'].map((n) => `${n}.yml`);
    for (const n of expected) server.expect('GET', `/github/repos/acme/widget/contents/.github/workflows/${n}`, { body: n === 'pull-request-lint.yml' ? lint : SAFE });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), names.map((n) => item(n)));
    expect(c.counter.requests).toBe(MAX_WORKFLOW_FILES_REST);
    expect([...got.read].sort()).toEqual(expected.map((n) => `.github/workflows/${n}`).sort());
    expect(got.outsiderTriggered).toEqual(['.github/workflows/pull-request-lint.yml']);
    expect(got.findings).toEqual([]);
    expect(got).toMatchObject({ listed: 23 });
    expect(got.unread).toHaveLength(23 - MAX_WORKFLOW_FILES_REST);
    expect(got.unread.every((u) => u.reason === `beyond the ${MAX_WORKFLOW_FILES_REST} workflow files read per repository without a token`)).toBe(true);
    // The budget, not a fault: a complete answer, limited.
    expect(got.unread.every((u) => u.cause === 'limit')).toBe(true);
  });

  it('a 503 on one workflow file: that file alone is unread, as a fault (not a limit); the other is judged', async () => {
    server.expect('GET', '/github/repos/acme/widget/contents/.github/workflows/a.yml', { body: INJECTION });
    server.route('GET', '/github/repos/acme/widget/contents/.github/workflows/b.yml', (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"message":"Service Unavailable"}');
    });
    const got = await readWorkflows(call(false), REPO, base(), [item('a.yml'), item('b.yml')]);
    expect(got.read).toEqual(['.github/workflows/a.yml']);
    expect(got.unread.map((u) => [u.path, u.cause])).toEqual([['.github/workflows/b.yml', 'fault']]);
  });

  it(`jlowin/fastmcp's 14 workflow names: the ${MAX_WORKFLOW_FILES_REST - CALLEE_RESERVE} read first are its six on issues, comments, pull_request_target and workflow_run (a test failure's)`, async () => {
    // The real names of jlowin/fastmcp's .github/workflows/*.yml at b14b137; texts answered SAFE (only the order is under test).
    const names = ['auto-close-duplicates', 'auto-close-needs-mre', 'martian-test-failure', 'martian-triage-issue', 'marvin-comment-on-issue', 'marvin-comment-on-pr', 'marvin-dedupe-issues', 'marvin-label-triage', 'publish', 'run-static', 'run-tests', 'run-upgrade-checks', 'update-config-schema', 'update-sdk-docs'].map((n) => `${n}.yml`);
    const first = ['martian-test-failure', 'martian-triage-issue', 'marvin-comment-on-issue', 'marvin-comment-on-pr', 'marvin-dedupe-issues', 'marvin-label-triage'].map((n) => `${n}.yml`);
    // Then, no callee wanted, the reserve goes on in order: the release one, then the listing's first.
    for (const n of [...first, 'publish.yml', 'auto-close-duplicates.yml']) server.expect('GET', `/github/repos/acme/widget/contents/.github/workflows/${n}`, { body: SAFE });
    const got = await readWorkflows(call(false), REPO, base(), names.map((n) => item(n)));
    expect(got.read).toHaveLength(MAX_WORKFLOW_FILES_REST);
    expect(first.every((n) => got.read.includes(`.github/workflows/${n}`))).toBe(true);
  });

  it('a body larger than the cap (the listing said less) is unread, not judged', async () => {
    server.expect('GET', '/github/repos/acme/widget/contents/.github/workflows/a.yml', { body: `${SAFE}#${'x'.repeat(MAX_WORKFLOW_BYTES)}\n` });
    const got = await readWorkflows(call(false), REPO, base(), [item('a.yml')]);
    expect(got.read).toEqual([]);
    expect(got.unread).toEqual([{ path: '.github/workflows/a.yml', reason: `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap`, cause: 'limit' }]);
  });

  it('no workflows: no request, nothing listed', async () => {
    const c = call(false);
    expect(await readWorkflows(c, REPO, base(), [])).toEqual({ listed: 0, read: [], unread: [], outsiderTriggered: [], findings: [], unpinnedActions: 0 });
    expect(c.counter.requests).toBe(0);
  });
});

describe('readWorkflows follows what outsider-triggered jobs call', () => {
  const CONTENTS = '/github/repos/acme/widget/contents/';
  const manifest = (path: string, size: number | null = 100): RepoTreeItem => ({ path, type: 'blob', size });
  const CALLER = 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/setup\n';
  const TAINTED = 'runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: git pull origin ${{ github.head_ref }}\n';

  it('without a token: the workflow, then the called action.yml, one REST request each; an action nobody outsider-triggered calls is not read', async () => {
    server.expect('GET', `${CONTENTS}.github/workflows/a.yml`, { body: CALLER });
    server.expect('GET', `${CONTENTS}.github/actions/setup/action.yml`, { body: TAINTED });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml')], [manifest('.github/actions/setup/action.yml'), manifest('.github/actions/other/action.yml')]);
    expect(c.counter.requests).toBe(2);
    expect(got.actionsRead).toEqual(['.github/actions/setup/action.yml']);
    expect(got.findings.map((f) => [f.code, f.path, f.via])).toEqual([['script-injection', '.github/actions/setup/action.yml', ['.github/workflows/a.yml (job j, step 1)']]]);
    expect(server.requests.some((r) => r.path.includes('other'))).toBe(false);
  });

  it('without a token, a called action.yml answered 404 is unread: what it does is unknown', async () => {
    server.expect('GET', `${CONTENTS}.github/workflows/a.yml`, { body: CALLER });
    server.expect('GET', `${CONTENTS}.github/actions/setup/action.yml`, { status: 404, body: { message: 'Not Found' } });
    const got = await readWorkflows(call(false), REPO, base(), [item('a.yml')], [manifest('.github/actions/setup/action.yml')]);
    expect(got.findings).toEqual([]);
    expect(got.unread).toEqual([{ path: '.github/actions/setup/action.yml', reason: 'GitHub answered 404 for the file', cause: 'missing' }]);
  });

  it(`without a token and more workflows than the cap: the last ${CALLEE_RESERVE} reads go to the reusable workflow the first ones call, then the rest in order`, async () => {
    const names = Array.from({ length: MAX_WORKFLOW_FILES_REST + 3 }, (_, i) => `w${String(i).padStart(2, '0')}.yml`);
    const callee = names[names.length - 1] ?? '';
    const texts = new Map(names.map((n) => [n, SAFE]));
    texts.set(names[0] ?? '', `on: issues\njobs:\n  j:\n    uses: ./.github/workflows/${callee}\n    with:\n      t: \${{ github.event.issue.title }}\n`);
    texts.set(callee, 'on:\n  workflow_call:\njobs:\n  k:\n    runs-on: x\n    steps:\n      - run: echo "${{ inputs.t }}"\n');
    const read = [...names.slice(0, MAX_WORKFLOW_FILES_REST - CALLEE_RESERVE), callee, names[MAX_WORKFLOW_FILES_REST - CALLEE_RESERVE] ?? ''];
    for (const n of read) server.expect('GET', `${CONTENTS}.github/workflows/${n}`, { body: texts.get(n) ?? '' });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), names.map((n) => item(n)));
    expect(c.counter.requests).toBe(MAX_WORKFLOW_FILES_REST);
    expect(got.findings.map((f) => [f.code, f.path])).toEqual([['script-injection', `.github/workflows/${callee}`]]);
    expect(got.unread.map((u) => u.path).sort()).toEqual(names.filter((n) => !read.includes(n)).map((n) => `.github/workflows/${n}`));
  });

  it(`without a token, at most ${MAX_ACTION_FILES_REST} called actions are read; the next is unread, never safe`, async () => {
    const dirs = Array.from({ length: MAX_ACTION_FILES_REST + 1 }, (_, i) => `act${i}`);
    const caller = `on: issues\njobs:\n  j:\n    runs-on: x\n    steps:\n${dirs.map((d) => `      - uses: ./${d}\n`).join('')}`;
    server.expect('GET', `${CONTENTS}.github/workflows/a.yml`, { body: caller });
    for (const d of dirs.slice(0, MAX_ACTION_FILES_REST)) server.expect('GET', `${CONTENTS}${d}/action.yml`, { body: 'runs:\n  using: composite\n  steps: []\n' });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml')], dirs.map((d) => manifest(`${d}/action.yml`)));
    expect(c.counter.requests).toBe(1 + MAX_ACTION_FILES_REST);
    expect(got.actionsRead).toHaveLength(MAX_ACTION_FILES_REST);
    expect(got.unread.map((u) => u.path)).toEqual([`act${MAX_ACTION_FILES_REST}/action.yml`]);
  });

  it(`with a token: the workflows and the listing's action files (up to ${MAX_ACTION_FILES_GRAPHQL}) in one GraphQL query`, async () => {
    server.route('POST', GRAPHQL, (_req, res, { body }) => {
      const { variables } = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
      const text: Record<string, string> = { 'HEAD:.github/workflows/a.yml': CALLER, 'HEAD:.github/actions/setup/action.yml': TAINTED, 'HEAD:.github/actions/other/action.yml': 'runs:\n  using: node20\n' };
      const repository = Object.fromEntries(Object.entries(variables).filter(([k]) => /^p\d+$/.test(k)).map(([k, v]) => [`x${k.slice(1)}`, text[v] === undefined ? null : blob(text[v] ?? '')]));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { repository } }));
    });
    const c = call(true);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml')], [manifest('.github/actions/setup/action.yml'), manifest('.github/actions/other/action.yml')]);
    expect(c.counter.requests).toBe(1);
    expect(got.actionsRead).toEqual(['.github/actions/setup/action.yml']);
    expect(got.findings.map((f) => f.code)).toEqual(['script-injection']);
  });

  it(`with a token: a called action not among the listing's first ${MAX_ACTION_FILES_GRAPHQL} action files is read by one query more`, async () => {
    const others = Array.from({ length: MAX_ACTION_FILES_GRAPHQL }, (_, i) => manifest(`a${i}/action.yml`));
    const called = manifest('.github/actions/setup/action.yml');
    const asked: string[][] = [];
    server.route('POST', GRAPHQL, (_req, res, { body }) => {
      const { variables } = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
      const paths = Object.entries(variables).filter(([k]) => /^p\d+$/.test(k)).map(([, v]) => v);
      asked.push(paths);
      const text = (p: string) => (p === 'HEAD:.github/workflows/a.yml' ? CALLER : p === `HEAD:${called.path}` ? TAINTED : 'runs:\n  using: composite\n  steps: []\n');
      const repository = Object.fromEntries(paths.map((p, i) => [`x${i}`, blob(text(p))]));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { repository } }));
    });
    const c = call(true);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml')], [...others, called]);
    expect(c.counter.requests).toBe(2);
    expect(asked[0]).toHaveLength(1 + MAX_ACTION_FILES_GRAPHQL);
    expect(asked[1]).toEqual([`HEAD:${called.path}`]);
    expect(got.findings.map((f) => f.path)).toEqual([called.path]);
  });

  it(`with a token and more than ${MAX_WORKFLOW_FILES_GRAPHQL} workflows: a callee beyond the first query is read by one query more, with the rest up to the cap`, async () => {
    const names = Array.from({ length: MAX_WORKFLOW_FILES_GRAPHQL + 2 }, (_, i) => `w${String(i).padStart(2, '0')}.yml`);
    const callee = names[names.length - 1] ?? '';
    const text = (p: string): string =>
      p.endsWith(`/${names[0]}`)
        ? `on: pull_request_target\njobs:\n  j:\n    uses: ./.github/workflows/${callee}\n`
        : p.endsWith(`/${callee}`)
          ? 'on: workflow_call\njobs:\n  k:\n    runs-on: x\n    steps:\n      - run: echo "${{ github.head_ref }}"\n'
          : SAFE;
    const asked: number[] = [];
    server.route('POST', GRAPHQL, (_req, res, { body }) => {
      const { variables } = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
      const paths = Object.entries(variables).filter(([k]) => /^p\d+$/.test(k)).map(([, v]) => v);
      asked.push(paths.length);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { repository: Object.fromEntries(paths.map((p, i) => [`x${i}`, blob(text(p))])) } }));
    });
    const c = call(true);
    const got = await readWorkflows(c, REPO, base(), names.map((n) => item(n)));
    expect(c.counter.requests).toBe(2);
    expect(asked).toEqual([MAX_WORKFLOW_FILES_GRAPHQL - CALLEE_RESERVE, CALLEE_RESERVE]);
    expect(got.read).toHaveLength(MAX_WORKFLOW_FILES_GRAPHQL);
    expect(got.findings.map((f) => f.path)).toEqual([`.github/workflows/${callee}`]);
  });

  it('a called action over the size cap in the listing is unread without a request', async () => {
    server.expect('GET', `${CONTENTS}.github/workflows/a.yml`, { body: CALLER });
    const c = call(false);
    const got = await readWorkflows(c, REPO, base(), [item('a.yml')], [manifest('.github/actions/setup/action.yml', MAX_WORKFLOW_BYTES + 1)]);
    expect(c.counter.requests).toBe(1);
    expect(got.unread.map((u) => u.path)).toEqual(['.github/actions/setup/action.yml']);
  });
});

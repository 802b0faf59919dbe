/**
 * A package's verified repository's workflows, read with a token from the facts query itself
 * (graphql.ts `workflowFiles`, source.ts; docs/checks.md `workflow-safety`): judged without a
 * request more, and only for the repository that vouches for the package. The repository answer
 * is acme/widget's recorded one; its `.github/workflows` carries real workflow files
 * (fixtures/workflows, fixtures/PROVENANCE.md) — placing them in widget's answer is an edit of
 * the recorded answer, made here.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { memoryFactsCache } from '../../src/sources/facts-cache.js';
import { fetchGithubFacts } from '../../src/sources/github/source.js';
import { contextFor, factsOf, NOW, npmClaim, TOKEN, widgetNode, useTokenServer } from './helpers.js';

const gh = useTokenServer();

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };
const GRAPHQL = '/github/graphql';
const workflow = (file: string) => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');
/** spotbugs/sonar-findbugs' sonarqube.yml before its fix: `pull_request_target` building the pull request's code with a token. */
const UNTRUSTED_CHECKOUT = workflow('spotbugs-sonar-findbugs-sonarqube-a6e2787.yml');
/** The same file after the fix. */
const FIXED = workflow('spotbugs-sonar-findbugs-sonarqube-904df97.yml');

const blob = (text: string) => ({ byteSize: Buffer.byteLength(text), text, isTruncated: false, isBinary: false });
const workflowFiles = (files: Record<string, unknown>) => ({ entries: Object.entries(files).map(([name, object]) => ({ name, type: 'blob', object })) });

/** The queries sent, as GitHub received them. */
let queries: string[] = [];

function answer(extra: Record<string, unknown>, errors: unknown[] = []): void {
  queries = [];
  gh.server.route('POST', GRAPHQL, (_req, res: ServerResponse, { body }) => {
    queries.push((JSON.parse(body.toString('utf8')) as { query: string }).query);
    const text = JSON.stringify({ data: { r0: { ...widgetNode(), ...extra } }, ...(errors.length === 0 ? {} : { errors }) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });
}

describe("a package's verified repository", () => {
  test('its workflows come with the facts query and are judged: a pull request built with the secrets is a finding', async () => {
    answer({ workflowFiles: workflowFiles({ 'sonarqube.yml': blob(UNTRUSTED_CHECKOUT), 'README.md': blob('# workflows\n') }) });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
    expect(facts.link.verifiedBy).toBe('manifest');
    // One query: the repository facts with the workflows in it, nothing after.
    expect(facts.via).toEqual({ api: 'graphql', requests: 1 });
    expect(facts.workflowSafety).toMatchObject({ listed: 1, read: ['.github/workflows/sonarqube.yml'], unread: [] });
    expect(facts.workflowSafety?.findings.map((f) => [f.code, f.path])).toEqual([['untrusted-checkout', '.github/workflows/sonarqube.yml']]);
    expect(queries).toHaveLength(1);
    expect(queries[0]).toContain('workflowFiles: object(expression: "HEAD:.github/workflows")');
  });

  test('the fixed workflow: read, nothing found', async () => {
    answer({ workflowFiles: workflowFiles({ 'sonarqube.yml': blob(FIXED) }) });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
    expect(facts.workflowSafety).toMatchObject({ listed: 1, findings: [], unread: [] });
  });

  test('no workflows folder: none listed', async () => {
    answer({ workflowFiles: null });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
    expect(facts.workflowSafety).toMatchObject({ listed: 0, read: [], findings: [] });
  });

  test('a workflow GitHub would not give whole is unread, with why — never judged safe', async () => {
    answer({ workflowFiles: workflowFiles({ 'sonarqube.yml': { byteSize: 900_000, text: null, isTruncated: true, isBinary: false } }) });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
    expect(facts.workflowSafety?.read).toEqual([]);
    expect(facts.workflowSafety?.unread.map((u) => u.path)).toEqual(['.github/workflows/sonarqube.yml']);
  });
});

describe('the facts cache: a fault is asked again, a limit is kept', () => {
  /** Two lookups of the package's repository with one facts cache; the queries GitHub received. */
  async function twice(other: unknown): Promise<{ first: ReturnType<typeof factsOf>; queries: number }> {
    let sent = 0;
    gh.server.route('POST', GRAPHQL, (_req, res: ServerResponse) => {
      sent += 1;
      const text = JSON.stringify({ data: { r0: { ...widgetNode(), workflowFiles: workflowFiles({ 'sonarqube.yml': blob(FIXED), 'other.yml': other }) } } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    });
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts: memoryFactsCache(() => NOW.getTime()) };
    const first = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    return { first, queries: sent };
  }

  test('a workflow GitHub answered with no text and no reason (a malformed answer): unread as a fault, and the next lookup asks again', async () => {
    const { first, queries } = await twice({ byteSize: 120, text: null, isTruncated: false, isBinary: false });
    expect(first.workflowSafety?.unread.map((u) => [u.path, u.cause])).toEqual([['.github/workflows/other.yml', 'fault']]);
    expect(queries).toBe(2);
  });

  test('a workflow over the size GitHub gives: unread as a limit — a complete answer, kept (the next lookup asks nothing)', async () => {
    const { first, queries } = await twice({ byteSize: 900_000, text: null, isTruncated: true, isBinary: false });
    expect(first.workflowSafety?.unread.map((u) => [u.path, u.cause])).toEqual([['.github/workflows/other.yml', 'limit']]);
    expect(queries).toBe(1);
  });
});

describe("a composite action of the repository the package's outsider-triggered workflow calls", () => {
  const CALLER = 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/setup\n';
  const TAINTED = 'runs:\n  using: composite\n  steps:\n    - run: echo "${{ github.head_ref }}"\n      shell: bash\n';

  /** The facts query with CALLER; the files query (NerqFiles) answered by `files` (503 while `fail` says so). */
  function serve(state: { fail: boolean; files: number }): void {
    gh.server.route('POST', GRAPHQL, (_req, res: ServerResponse, { body }) => {
      const { query } = JSON.parse(body.toString('utf8')) as { query: string };
      if (query.includes('NerqFiles')) {
        state.files += 1;
        if (state.fail) {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end('{"message":"Service Unavailable"}');
          return;
        }
        // x0 = HEAD:.github/actions/setup/action.yml (read), x1 = its action.yaml (none).
        const text = JSON.stringify({ data: { repository: { x0: blob(TAINTED), x1: null } } });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        res.end(text);
        return;
      }
      const text = JSON.stringify({ data: { r0: { ...widgetNode(), workflowFiles: workflowFiles({ 'caller.yml': blob(CALLER) }) } } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    });
  }

  test('is looked for by both manifest names in one query more, read and judged with the caller\'s context', async () => {
    const state = { fail: false, files: 0 };
    serve(state);
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));
    expect(state.files).toBe(1);
    expect(facts.workflowSafety).toMatchObject({ actionsRead: ['.github/actions/setup/action.yml'], unread: [] });
    expect(facts.workflowSafety?.findings.map((f) => [f.code, f.path])).toEqual([['script-injection', '.github/actions/setup/action.yml']]);
  });

  test('a 503 on that read: unread as a fault, the facts are not kept, and the next lookup with the same cache reads it again', async () => {
    const state = { fail: true, files: 0 };
    serve(state);
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts: memoryFactsCache(() => NOW.getTime()) };
    const first = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(first.workflowSafety?.unread.map((u) => [u.path, u.cause])).toEqual([['.github/actions/setup/action.yml', 'fault']]);
    const asked = state.files;
    expect(asked).toBeGreaterThan(0);
    state.fail = false;
    const second = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(state.files).toBe(asked + 1);
    expect(second.workflowSafety).toMatchObject({ actionsRead: ['.github/actions/setup/action.yml'], unread: [] });
    // Complete now: kept, and a third lookup asks GitHub nothing.
    factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(state.files).toBe(asked + 1);
  });
});

describe('not judged', () => {
  test('a repository that does not vouch for the package: its workflows are not the package’s', async () => {
    answer({ workflowFiles: workflowFiles({ 'sonarqube.yml': blob(UNTRUSTED_CHECKOUT) }) });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('not-widget')));
    expect(facts.link.verifiedBy).toBeNull();
    expect(facts.workflowSafety).toBeUndefined();
  });

  test('a repository target (its own files hold its workflows)', async () => {
    answer({ workflowFiles: workflowFiles({ 'sonarqube.yml': blob(UNTRUSTED_CHECKOUT) }) });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' }));
    expect(facts.workflowSafety).toBeUndefined();
    // …nor are their texts asked for in the facts query.
    expect(queries[0]).not.toContain('workflowFiles');
  });

  test('an answer without the field (recorded before it was asked)', async () => {
    answer({});
    expect(factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget'))).workflowSafety).toBeUndefined();
  });

  test('a field GitHub could not resolve', async () => {
    answer({ workflowFiles: null }, [{ type: 'INTERNAL', path: ['r0', 'workflowFiles'], message: 'Something went wrong' }]);
    expect(factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget'))).workflowSafety).toBeUndefined();
  });
});

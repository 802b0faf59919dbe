/**
 * The GitHub facts in the facts cache: a warm lookup asks GitHub nothing (with and without a
 * token, one repository or a batch), only complete `ok` facts are kept, and the key names the
 * repository, the API and the claim — never the token. And the audit's batcher: full batches
 * of 25, a quiet period and a deadline for the rest, cached repositories never in a batch.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { githubBatcher } from '../../src/audit/github-batcher.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { GithubRateLimiter } from '../../src/sources/github/source.js';
import { memoryFactsCache } from '../../src/sources/facts-cache.js';
import { FRESHNESS_DEFAULTS } from '../../src/sources/http/freshness.js';
import { githubFactsKey } from '../../src/sources/github/facts-cache.js';
import { fetchGithubFacts, fetchGithubFactsBatch, githubItemKey, type GithubResult } from '../../src/sources/github/source.js';
import { expectNoUnexpected, FIXTURES_ROOT } from '../support/fixture-server.js';
import { contextFor, endpointsFor, npmClaim, NOW, rateHeaders, ROUTES, serveRepo, testClient, TOKEN, factsOf, widgetNode, useTokenServer } from './helpers.js';

const gh = useTokenServer();

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };
const GRAPHQL = '/github/graphql';



function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** Answer every repository of a query as acme/widget renamed; `sizes` gets the repositories per query. */
function answerAll(sizes: number[]): void {
  gh.server.route('POST', GRAPHQL, (_req, res, { body }) => {
    const { variables } = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
    const owners = Object.keys(variables).filter((k) => /^o\d+$/.test(k));
    sizes.push(owners.length);
    json(res, 200, { data: Object.fromEntries(owners.map((_, i) => [`r${i}`, { ...widgetNode(), nameWithOwner: `acme/${variables[`n${i}`]}` }])) });
  });
}

describe('a warm lookup asks GitHub nothing', () => {
  test('with a token: the second lookup of a repository is answered from the facts cache', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    gh.server.expect('POST', GRAPHQL, { fixture: 'github/graphql/acme-widget', times: 1 });
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts };
    const cold = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    const warm = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(gh.server.requests).toHaveLength(1);
    expect(warm).toEqual(cold);
    expect(facts.entries.size).toBe(1);
    expect([...facts.entries.keys()][0]).not.toContain(TOKEN);
    expectNoUnexpected(gh.server);
  });

  test('without a token: REST facts are kept and read back the same way', async () => {
    const rest = testClient();
    try {
      const facts = memoryFactsCache(() => NOW.getTime());
      serveRepo(gh.server, 'acme/widget');
      const ctx = { ...contextFor(gh.server, rest.http), facts };
      const cold = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
      const before = gh.server.requests.length;
      expect(before).toBe(8);
      expect(factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')))).toEqual(cold);
      expect(gh.server.requests).toHaveLength(before);
    } finally {
      await rest.http.close();
    }
  });

  test('facts older than the GitHub freshness are fetched again', async () => {
    let now = NOW.getTime();
    const facts = memoryFactsCache(() => now);
    gh.server.expect('POST', GRAPHQL, { fixture: 'github/graphql/acme-widget' });
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts };
    await fetchGithubFacts(ctx, WIDGET, { kind: 'target' });
    now += FRESHNESS_DEFAULTS.github + 1;
    await fetchGithubFacts(ctx, WIDGET, { kind: 'target' });
    expect(gh.server.requests).toHaveLength(2);
  });

  test('a batch asks only for the repositories the cache does not hold', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    const sizes: number[] = [];
    answerAll(sizes);
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts };
    const item = (name: string) => ({ repo: { host: 'github.com', owner: 'acme', name }, claim: { kind: 'target' as const } });
    await fetchGithubFactsBatch(ctx, [item('w1'), item('w2')]);
    const results = await fetchGithubFactsBatch(ctx, [item('w1'), item('w2'), item('w3')]);
    expect(sizes).toEqual([2, 1]);
    expect(factsOf(results.get(githubItemKey(item('w1')))).repository?.fullName).toBe('acme/w1');
    expect(factsOf(results.get(githubItemKey(item('w3')))).repository?.fullName).toBe('acme/w3');
  });
});

describe('what is kept', () => {
  test('a rate-limited lookup is never cached', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    gh.server.expect('POST', GRAPHQL, { status: 403, headers: { ...rateHeaders(0, 3900, 5000), 'x-ratelimit-resource': 'graphql' }, body: { message: 'API rate limit exceeded for user ID 1001.' } });
    const result = await fetchGithubFacts({ ...contextFor(gh.server, gh.client.http, TOKEN), facts }, WIDGET, { kind: 'target' });
    expect(result.status).toBe('unavailable');
    expect(facts.entries.size).toBe(0);
  });

  test('facts with a section GitHub could not answer are not cached (the next run asks again)', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      json(res, 200, { data: { r0: { ...widgetNode(), releases: null } }, errors: [{ type: 'INTERNAL', path: ['r0', 'releases'], message: 'Something went wrong' }] }),
    );
    const result = await fetchGithubFacts({ ...contextFor(gh.server, gh.client.http, TOKEN), facts }, WIDGET, { kind: 'target' });
    expect(factsOf(result).unknown).toEqual({ releases: 'GitHub GraphQL: Something went wrong' });
    expect(facts.entries.size).toBe(0);
  });

  test('a link left unverified because a manifest could not be read is not cached; the next run verifies it', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    let healthy = false;
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      healthy
        ? json(res, 200, { data: { r0: widgetNode() } })
        : json(res, 200, { data: { r0: { ...widgetNode(), f0: null } }, errors: [{ type: 'INTERNAL', path: ['r0', 'f0'], message: 'Something went wrong' }] }),
    );
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts };
    const degraded = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(degraded.link).toMatchObject({ verifiedBy: null, code: 'unreadable' });
    expect(degraded.unknown).toEqual({});
    expect(facts.entries.size).toBe(0);
    healthy = true;
    const before = gh.server.requests.length;
    expect(factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget'))).link.verifiedBy).toBe('manifest');
    expect(gh.server.requests.length).toBeGreaterThan(before);
    expect(facts.entries.size).toBe(1);
  });

  test('a verified repository whose workflow files GitHub could not give is not cached; the next run judges them', async () => {
    const facts = memoryFactsCache(() => NOW.getTime());
    let healthy = false;
    // No .github/workflows folder: GitHub answers null for the object, and there is nothing to judge.
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      healthy
        ? json(res, 200, { data: { r0: { ...widgetNode(), workflowFiles: null } } })
        : json(res, 200, { data: { r0: { ...widgetNode(), workflowFiles: null } }, errors: [{ type: 'INTERNAL', path: ['r0', 'workflowFiles'], message: 'Something went wrong' }] }),
    );
    const ctx = { ...contextFor(gh.server, gh.client.http, TOKEN), facts };
    const degraded = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
    expect(degraded.link.verifiedBy).toBe('manifest');
    expect(degraded.workflowSafety).toBeUndefined();
    expect(degraded.unknown).toEqual({});
    expect(facts.entries.size).toBe(0);
    healthy = true;
    const before = gh.server.requests.length;
    expect(factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget'))).workflowSafety).toMatchObject({ listed: 0, unread: [] });
    expect(gh.server.requests.length).toBeGreaterThan(before);
    expect(facts.entries.size).toBe(1);
  });

  test('a security policy left unknown by a listing that failed is not cached; the next run knows it', async () => {
    // REST: the docs/ folder is listed when neither the root nor .github/ holds a policy.
    const rest = testClient();
    try {
      const facts = memoryFactsCache(() => NOW.getTime());
      const githubTree = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, `github/repos/acme/widget${ROUTES.tree}.json`), 'utf8')) as { tree: Array<{ path: string }> };
      githubTree.tree = githubTree.tree.filter((e) => e.path !== 'SECURITY.md');
      serveRepo(gh.server, 'acme/widget', { override: { tree: { body: githubTree } } });
      let healthy = false;
      gh.server.route('GET', '/github/repos/acme/widget/git/trees/4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70', (_req, res) =>
        healthy
          ? json(res, 200, { sha: '4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70', tree: [{ path: 'guide.md', mode: '100644', type: 'blob', sha: 'a'.repeat(40), size: 10 }], truncated: false })
          : json(res, 500, { message: 'Server Error' }),
      );
      const ctx = { ...contextFor(gh.server, rest.http), facts };
      const degraded = factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget')));
      expect(degraded.community?.securityPolicy).toBeNull();
      expect(degraded.unknown).toEqual({});
      expect(facts.entries.size).toBe(0);
      healthy = true;
      const before = gh.server.requests.length;
      expect(factsOf(await fetchGithubFacts(ctx, WIDGET, npmClaim('widget'))).community?.securityPolicy).toBe(false);
      expect(gh.server.requests.length).toBeGreaterThan(before);
      expect(facts.entries.size).toBe(1);
    } finally {
      await rest.http.close();
    }
  });

  test('a missing repository is a fact and is kept', async () => {
    const rest = testClient();
    try {
      const facts = memoryFactsCache(() => NOW.getTime());
      gh.server.expect('GET', '/github/repos/acme/ghost', { status: 404, body: { message: 'Not Found' } });
      const ctx = { ...contextFor(gh.server, rest.http), facts };
      const ghost = { host: 'github.com', owner: 'acme', name: 'ghost' };
      expect(factsOf(await fetchGithubFacts(ctx, ghost, { kind: 'target' })).state).toBe('missing');
      expect(factsOf(await fetchGithubFacts(ctx, ghost, { kind: 'target' })).state).toBe('missing');
      expect(gh.server.requests).toHaveLength(1);
    } finally {
      await rest.http.close();
    }
  });

  test('the key names the repository, the API and the claim', () => {
    const widget = { repo: WIDGET, claim: npmClaim('widget') };
    const key = githubFactsKey(widget, 'graphql');
    expect(key).toMatch(/^github:graphql:v2:github\.com\/acme\/widget:[0-9a-f]{32}$/);
    expect(githubFactsKey({ repo: { ...WIDGET, owner: 'ACME' }, claim: npmClaim('widget') }, 'graphql')).toBe(key);
    expect(githubFactsKey(widget, 'rest')).not.toBe(key);
    expect(githubFactsKey({ repo: WIDGET, claim: npmClaim('gadget') }, 'graphql')).not.toBe(key);
    expect(githubFactsKey({ repo: WIDGET, claim: npmClaim('widget', { directory: 'packages/widget' }) }, 'graphql')).not.toBe(key);
    expect(githubFactsKey({ repo: WIDGET, claim: { kind: 'target' } }, 'graphql')).not.toBe(key);
  });
});

describe('the audit batcher', () => {
  function runContext(facts = memoryFactsCache(() => NOW.getTime())): RunContext {
    const partial: Pick<RunContext, 'http' | 'endpoints' | 'githubToken' | 'githubLimiter' | 'now' | 'facts'> = {
      http: gh.client.http,
      endpoints: endpointsFor(gh.server),
      githubToken: TOKEN,
      githubLimiter: new GithubRateLimiter(),
      now: NOW,
      facts,
    };
    // The batcher reads only these fields of the run.
    return partial as RunContext;
  }
  const repo = (i: number) => ({ host: 'github.com', owner: 'acme', name: `w${i}` });

  test('60 lookups at once leave as batches of 25, 25 and the rest after the quiet period', async () => {
    const sizes: number[] = [];
    answerAll(sizes);
    const lookup = githubBatcher(runContext());
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => lookup(repo(i), { kind: 'target' })));
    expect(sizes).toEqual([25, 25, 10]);
    expect(results.map((r) => factsOf(r).repository?.fullName)).toEqual(Array.from({ length: 60 }, (_, i) => `acme/w${i}`));
  });

  test('a batch GitHub refuses (GraphQL 401) gives each of its lookups the code, auth-required', async () => {
    gh.server.expect('POST', GRAPHQL, { status: 401, body: { message: 'Bad credentials' } });
    const lookup = githubBatcher(runContext());
    const results = await Promise.all([lookup(repo(1), { kind: 'target' }), lookup(repo(2), { kind: 'target' })]);
    expect(results.map((r) => (r.status === 'unavailable' ? r.code : r.status))).toEqual(['auth-required', 'auth-required']);
    expect(gh.server.requests).toHaveLength(1);
  });

  test('lookups that keep arriving within the quiet period join the same batch', async () => {
    const sizes: number[] = [];
    answerAll(sizes);
    const lookup = githubBatcher(runContext(), { quietMs: 2000, maxWaitMs: 60_000 });
    const pending: Array<Promise<GithubResult>> = [];
    for (let i = 0; i < 3; i++) {
      pending.push(lookup(repo(i), { kind: 'target' }));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.all(pending);
    expect(sizes).toEqual([3]);
  });

  test('the oldest lookup\'s deadline sends a batch even while lookups keep the quiet period from ending', async () => {
    const sizes: number[] = [];
    answerAll(sizes);
    // The quiet period alone would hold the batch for a minute (longer than the test timeout).
    const lookup = githubBatcher(runContext(), { quietMs: 60_000, maxWaitMs: 20 });
    const results = await Promise.all([lookup(repo(1), { kind: 'target' }), lookup(repo(2), { kind: 'target' })]);
    expect(sizes).toEqual([2]);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
  });

  test('a warm audit: cached repositories never enter a batch, and a fully cached run asks nothing', async () => {
    const sizes: number[] = [];
    answerAll(sizes);
    const facts = memoryFactsCache(() => NOW.getTime());
    const first = githubBatcher(runContext(facts));
    await Promise.all(Array.from({ length: 30 }, (_, i) => first(repo(i), { kind: 'target' })));
    expect(sizes).toEqual([25, 5]);

    const second = githubBatcher(runContext(facts));
    const mixed = await Promise.all(Array.from({ length: 32 }, (_, i) => second(repo(i), { kind: 'target' })));
    expect(sizes).toEqual([25, 5, 2]);
    expect(mixed.every((r) => r.status === 'ok')).toBe(true);

    const third = githubBatcher(runContext(facts));
    const requestsBefore = gh.server.requests.length;
    await Promise.all(Array.from({ length: 32 }, (_, i) => third(repo(i), { kind: 'target' })));
    expect(gh.server.requests).toHaveLength(requestsBefore);
  });
});

describe('packages of one repository', () => {
  test('share one alias in the query, which reads the manifests of every claim', async () => {
    const bodies: Array<{ variables: Record<string, string> }> = [];
    gh.server.route('POST', GRAPHQL, (_req, res, { body }) => {
      const parsed = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
      bodies.push(parsed);
      const owners = Object.keys(parsed.variables).filter((k) => /^o\d+$/.test(k));
      json(res, 200, { data: Object.fromEntries(owners.map((_, i) => [`r${i}`, { ...widgetNode(), nameWithOwner: `acme/${parsed.variables[`n${i}`]}` }])) });
    });
    const items = [
      { repo: WIDGET, claim: npmClaim('widget') },
      { repo: { host: 'github.com', owner: 'acme', name: 'other' }, claim: { kind: 'target' as const } },
      { repo: { ...WIDGET, owner: 'Acme' }, claim: npmClaim('@acme/widget-cli', { directory: 'packages/cli' }) },
    ];
    const results = await fetchGithubFactsBatch(contextFor(gh.server, gh.client.http, TOKEN), items, { batchSize: 2 });
    expect(bodies).toHaveLength(1);
    const variables = bodies[0]?.variables ?? {};
    expect(Object.keys(variables).filter((k) => /^o\d+$/.test(k))).toHaveLength(2);
    expect(Object.entries(variables).filter(([k]) => k.startsWith('f0_')).map(([, v]) => v)).toEqual([
      'HEAD:package.json',
      'HEAD:pnpm-workspace.yaml',
      'HEAD:lerna.json',
      'HEAD:packages/cli/package.json',
    ]);
    expect(factsOf(results.get(githubItemKey(items[0]!))).link).toEqual({ verifiedBy: 'manifest', reason: 'package.json at main names "widget"' });
    expect(factsOf(results.get(githubItemKey(items[2]!))).link.verifiedBy).toBeNull();
    expect(factsOf(results.get(githubItemKey(items[1]!))).repository?.fullName).toBe('acme/other');
  });
});

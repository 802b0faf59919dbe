/**
 * The GitHub source with a token: one GraphQL query per repository (or per batch) and no REST
 * request, batch shrinking, the REST fallback, and the token staying on GitHub's origin.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { fetchGithubFacts, fetchGithubFactsBatch, githubItemKey } from '../../src/sources/github/source.js';
import { FIXTURES_ROOT, expectNoUnexpected, startFixtureServer } from '../support/fixture-server.js';
import { contextFor, npmClaim, rateHeaders, requestLines, serveRepo, testClient, TOKEN, factsOf, widgetNode, useTokenServer } from './helpers.js';

const gh = useTokenServer();

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };
const GRAPHQL = '/github/graphql';



interface GraphqlBody {
  query: string;
  variables: Record<string, string>;
}

function readBody(body: Buffer): GraphqlBody {
  return JSON.parse(body.toString('utf8')) as GraphqlBody;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

describe('one repository, one query', () => {
  test('one GraphQL query and nothing else fills every section', async () => {
    gh.server.expect('POST', GRAPHQL, { fixture: 'github/graphql/acme-widget' });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget')));

    expect(facts.repository).toMatchObject({ fullName: 'acme/widget', renamedFrom: null, stars: 15234, forks: 1203, watchers: 310, openIssues: 15, license: 'MIT', topics: ['cli', 'widgets'] });
    expect(facts.activity).toEqual({ commits90d: 5, commits365d: 8, authors90d: 3, authors365d: 4, botCommits90d: 1, botCommits365d: 1, lastCommitAt: '2026-05-28T16:20:00Z', truncated: false });
    expect(facts.releases).toEqual({
      last12Months: 2,
      latest: { tag: 'v3.2.0', publishedAt: '2026-05-10T10:00:00Z', signatureAssets: ['widget-3.2.0.tgz.sigstore', 'multiple.intoto.jsonl'], assets: 3, hasNotes: true },
      signedReleases: 2,
      examined: 4,
      // For a repository's maturity: the 4 published, all of them (fewer than a page), v3.2.0 within
      // the last 30 days, v3.0.0 the first.
      listed: 4,
      // Release notes (`description`): v3.2.0's hand-written ones and v3.0.0's generated "What's
      // Changed" list; v3.1.0's bare "Full Changelog" link and the prerelease's none do not count,
      // nor the draft's.
      withNotes: 2,
      complete: true,
      recent: 1,
      oldestPublishedAt: '2025-03-01T10:00:00.000Z',
    });
    // The 11 newest commits: alice 5, bob 3, dave 1 (carol has no GitHub account and
    // dependabot is a bot): the same as over REST (github-rest.test.ts).
    expect(facts.contributors).toEqual({ count: 3, busFactor: 1, topShare: 0.556, basis: 'recent-commits', commitsExamined: 11, unlinked: 1 });
    // First responses by someone else and not a bot: #120 after 24 h (the author's own comment and
    // the bot's are skipped), #117 after 6 h; PR #119 reviewed after 2 h, #115 closed after 12 h.
    expect(facts.responsiveness).toEqual({
      windowDays: 180,
      issues: { sampled: 3, responded: 2, medianHoursToResponse: 15 },
      pulls: { sampled: 3, responded: 2, merged: 1, closedUnmerged: 1, medianHoursToResponse: 7 },
      method: 'first-response',
    });
    expect(facts.community).toEqual({
      readme: true,
      contributing: true,
      codeOfConduct: true,
      issueTemplate: true,
      pullRequestTemplate: true,
      securityPolicy: true,
      // GraphQL has no community health percentage.
      healthPercentage: null,
    });
    expect(facts.ci).toEqual({ workflows: 3, otherCi: ['.circleci'], dependencyUpdates: ['dependabot'] });
    expect(facts.link).toEqual({ verifiedBy: 'manifest', reason: 'package.json at main names "widget"' });
    expect(facts.unknown).toEqual({});
    expect(facts.via).toEqual({ api: 'graphql', requests: 1 });

    expect(requestLines(gh.server)).toEqual(['POST /github/graphql']);
    for (const request of gh.server.requests) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expectNoUnexpected(gh.server);
  });

  test('names and paths travel as variables, never inside the query text', async () => {
    gh.server.expect('POST', GRAPHQL, { fixture: 'github/graphql/acme-widget' });
    await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget'));
    const post = gh.server.requests.find((r) => r.method === 'POST');
    const body = readBody(Buffer.from(post?.body ?? '{}'));
    expect(post?.headers['content-type']).toBe('application/json');
    expect(body.query).toContain('r0: repository(owner: $o0, name: $n0)');
    expect(body.query).not.toContain('widget');
    expect(body.variables).toEqual({
      since90: '2026-03-03T12:00:00Z',
      since365: '2025-06-01T12:00:00Z',
      since180: '2025-12-03T12:00:00Z',
      o0: 'acme',
      n0: 'widget',
      f0_0: 'HEAD:package.json',
      f0_1: 'HEAD:pnpm-workspace.yaml',
      f0_2: 'HEAD:lerna.json',
    });
  });

  test('a field GitHub could not resolve leaves its section unknown with GitHub\'s message', async () => {
    const node = { ...widgetNode(), releases: null };
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      json(res, 200, { data: { r0: node }, errors: [{ type: 'INTERNAL', path: ['r0', 'releases'], message: 'Something went wrong while resolving releases' }] }),
    );
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' }));
    expect(facts.releases).toBeNull();
    expect(facts.unknown).toEqual({ releases: 'GitHub GraphQL: Something went wrong while resolving releases' });
    expect(facts.activity?.commits365d).toBe(8);
  });

  test('an empty repository (no default branch in GraphQL) is asked again through REST, which names the branch', async () => {
    gh.server.route('POST', GRAPHQL, (_req, res) => json(res, 200, { data: { r0: { ...widgetNode(), isEmpty: true, defaultBranchRef: null, rootTree: null } } }));
    serveRepo(gh.server, 'acme/widget', { skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' }));
    expect(facts.repository?.defaultBranch).toBe('main');
    // The GraphQL query and REST's 7 for a github: target.
    expect(facts.via).toEqual({ api: 'rest', requests: 8 });
    expectNoUnexpected(gh.server);
  });

  test('a malformed GraphQL answer makes the source unavailable', async () => {
    gh.server.expect('POST', GRAPHQL, { malformed: true });
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub GraphQL: the answer is not valid JSON', code: 'bad-answer' });
  });

  test('a GraphQL repository of the wrong shape makes the source unavailable', async () => {
    gh.server.route('POST', GRAPHQL, (_req, res) => json(res, 200, { data: { r0: { ...widgetNode(), stargazerCount: 'many' } } }));
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub GraphQL: the answer has an unexpected shape at stargazerCount', code: 'bad-answer' });
  });

  test('a rejected token (401) says so, without the token', async () => {
    gh.server.expect('POST', GRAPHQL, { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' } });
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub GraphQL: GitHub rejected the token (HTTP 401); check GITHUB_TOKEN / GH_TOKEN', code: 'auth-required' });
  });

  test('a spent GraphQL budget stops the run, without the token hint', async () => {
    gh.server.expect('POST', GRAPHQL, { status: 403, headers: { ...rateHeaders(0, 3900, 5000), 'x-ratelimit-resource': 'graphql' }, body: { message: 'API rate limit exceeded for user ID 1001.' } });
    const ctx = contextFor(gh.server, gh.client.http, TOKEN);
    const reason = 'GitHub API rate limit reached (resets at 13:05 UTC)';
    expect(await fetchGithubFacts(ctx, WIDGET, { kind: 'target' })).toEqual({ status: 'unavailable', reason, code: 'rate-limited' });
    expect(await fetchGithubFacts(ctx, { host: 'github.com', owner: 'acme', name: 'other' }, { kind: 'target' })).toEqual({ status: 'unavailable', reason, code: 'rate-limited' });
    expect(gh.server.requests).toHaveLength(1);
  });

  test('a RATE_LIMITED error in a 200 answer stops the run too', async () => {
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      json(res, 200, { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1001.' }] }, rateHeaders(0, 3900, 5000)),
    );
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub API rate limit reached (resets at 13:05 UTC)', code: 'rate-limited' });
  });
});

describe('batches', () => {
  const names = ['w1', 'w2', 'w3', 'w4', 'w5'];
  const items = names.map((name) => ({ repo: { host: 'github.com', owner: 'acme', name }, claim: { kind: 'target' as const } }));

  /** Answer queries of at most `max` repositories; larger ones fail with `fail`. */
  function batchRoute(max: number, fail: (res: ServerResponse) => void, sizes: number[]): void {
    gh.server.route('POST', GRAPHQL, (_req: IncomingMessage, res, { body }) => {
      const { variables } = readBody(body);
      const owners = Object.keys(variables).filter((k) => /^o\d+$/.test(k));
      sizes.push(owners.length);
      if (owners.length > max) {
        fail(res);
        return;
      }
      const data = Object.fromEntries(owners.map((_, i) => [`r${i}`, { ...widgetNode(), nameWithOwner: `acme/${variables[`n${i}`]}` }]));
      json(res, 200, { data });
    });
  }

  test.each([
    ['502 Bad Gateway', (res: ServerResponse) => json(res, 502, { message: 'Server Error' })],
    [
      'MAX_NODE_LIMIT_EXCEEDED',
      (res: ServerResponse) =>
        json(res, 200, { errors: [{ type: 'MAX_NODE_LIMIT_EXCEEDED', message: 'This query requests up to 1,020,000 possible nodes which exceeds the maximum limit of 500,000.' }] }),
    ],
    [
      'a timeout',
      (res: ServerResponse) =>
        json(res, 200, { data: null, errors: [{ message: 'Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug.' }] }),
    ],
  ])('a batch GitHub cannot finish (%s) is halved until it passes', async (_label, fail) => {
    const sizes: number[] = [];
    batchRoute(2, fail, sizes);
    const results = await fetchGithubFactsBatch(contextFor(gh.server, gh.client.http, TOKEN), items, { batchSize: 8 });
    expect(sizes).toEqual([5, 3, 2, 1, 2]);
    for (const item of items) {
      const facts = factsOf(results.get(githubItemKey(item)));
      expect(facts.repository?.fullName).toBe(`acme/${item.repo.name}`);
      expect(facts.via.api).toBe('graphql');
    }
    // w1 was in the queries of 5, 3 and 2; w5 in those of 5 and 2.
    expect(factsOf(results.get(githubItemKey(items[0]!))).via.requests).toBe(3);
    expect(factsOf(results.get(githubItemKey(items[4]!))).via.requests).toBe(2);
    expect(gh.client.sleeps).toEqual([]);
    expectNoUnexpected(gh.server);
  });

  test('batches are cut to the batch size', async () => {
    const sizes: number[] = [];
    batchRoute(10, () => undefined, sizes);
    const results = await fetchGithubFactsBatch(contextFor(gh.server, gh.client.http, TOKEN), items, { batchSize: 2 });
    expect(sizes).toEqual([2, 2, 1]);
    expect([...results.values()].every((r) => r.status === 'ok')).toBe(true);
  });

  test('a repository GraphQL cannot resolve goes the REST way, which tells missing from blocked', async () => {
    gh.server.route('POST', GRAPHQL, (_req, res) =>
      json(res, 200, {
        data: { r0: widgetNode(), r1: null },
        errors: [{ type: 'NOT_FOUND', path: ['r1'], locations: [{ line: 3, column: 3 }], message: "Could not resolve to a Repository with the name 'acme/ghost'." }],
      }),
    );
    gh.server.expect('GET', '/github/repos/acme/ghost', { status: 404, body: { message: 'Not Found' } });
    const both = [
      { repo: WIDGET, claim: { kind: 'target' as const } },
      { repo: { host: 'github.com', owner: 'acme', name: 'ghost' }, claim: { kind: 'target' as const } },
    ];
    const results = await fetchGithubFactsBatch(contextFor(gh.server, gh.client.http, TOKEN), both);
    expect(factsOf(results.get(githubItemKey(both[0]!))).state).toBe('present');
    const ghost = factsOf(results.get(githubItemKey(both[1]!)));
    expect(ghost.state).toBe('missing');
    expect(ghost.via).toEqual({ api: 'rest', requests: 2 });
    expectNoUnexpected(gh.server);
  });

  test('without a token every repository goes the REST way', async () => {
    const rest = testClient();
    try {
      gh.server.expect('GET', '/github/repos/acme/w1', { status: 404, body: { message: 'Not Found' } });
      gh.server.expect('GET', '/github/repos/acme/w2', { status: 404, body: { message: 'Not Found' } });
      const results = await fetchGithubFactsBatch(contextFor(gh.server, rest.http, null), items.slice(0, 2));
      expect([...results.values()].map((r) => r.status === 'ok' && r.facts.state)).toEqual(['missing', 'missing']);
      expect(gh.server.requests.every((r) => r.method === 'GET' && r.headers.authorization === undefined)).toBe(true);
    } finally {
      await rest.http.close();
    }
  });
});

describe('workspace members through GraphQL', () => {
  test('the member directories are listed and their manifests read in one follow-up query each', async () => {
    const rootManifest = readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/mono/contents/package.json'), 'utf8');
    const member = (dir: string) => readFileSync(path.join(FIXTURES_ROOT, `github/repos/acme/mono/contents/${dir}/package.json`), 'utf8');
    const queries: string[] = [];
    gh.server.route('POST', GRAPHQL, (_req, res, { body }) => {
      const { query, variables } = readBody(body);
      queries.push(query.split('(')[0] ?? '');
      if (query.startsWith('query NerqRepositories')) {
        const node = {
          ...widgetNode(),
          nameWithOwner: 'acme/mono',
          rootTree: { entries: [{ name: 'package.json', type: 'blob' }, { name: 'packages', type: 'tree' }, { name: 'tools', type: 'tree' }] },
          f0: { text: rootManifest, isTruncated: false, isBinary: false },
          f1: null,
        };
        json(res, 200, { data: { r0: node } });
      } else if (query.includes('...NerqTree')) {
        expect(variables).toEqual({ o: 'acme', n: 'mono', p0: 'HEAD:packages' });
        json(res, 200, { data: { repository: { x0: { entries: ['core', 'cli', 'utils'].map((name) => ({ name, type: 'tree' })).concat([{ name: 'README.md', type: 'blob' }]) } } } });
      } else {
        const paths = Object.entries(variables).filter(([k]) => k.startsWith('p')).map(([, v]) => v.replace(/^HEAD:/, '').replace(/\/package\.json$/, ''));
        const repository = Object.fromEntries(paths.map((dir, i) => [`x${i}`, { text: member(dir), isTruncated: false, isBinary: false }]));
        json(res, 200, { data: { repository } });
      }
    });
    const facts = factsOf(
      await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), { host: 'github.com', owner: 'acme', name: 'mono' }, npmClaim('@acme/cli')),
    );
    expect(facts.link).toEqual({ verifiedBy: 'manifest', reason: 'package.json in workspace member packages/cli at main names "@acme/cli"' });
    expect(queries).toEqual(['query NerqRepositories', 'query NerqFiles', 'query NerqFiles']);
    expect(facts.via).toEqual({ api: 'graphql', requests: 3 });
  });
});

describe('the token stays on GitHub', () => {
  test('a redirect to another origin drops the token; it appears in no result', async () => {
    const other = await startFixtureServer();
    try {
      gh.server.expect('POST', GRAPHQL, { status: 307, headers: { location: `${other.url('elsewhere')}/graphql` } });
      other.expect('POST', '/elsewhere/graphql', { fixture: 'github/graphql/acme-widget' });
      const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, npmClaim('widget'));
      expect(factsOf(result).repository?.fullName).toBe('acme/widget');
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
      expect(other.requests[0]?.body).toContain('NerqRepositories');
      expect(gh.server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
      expect(JSON.stringify(result)).not.toContain(TOKEN);
    } finally {
      await other.close();
    }
  });

  test('no reason ever carries the token', async () => {
    gh.server.expect('POST', GRAPHQL, { status: 500, body: { message: `token ${TOKEN.slice(0, 4)}… invalid` } });
    gh.server.expect('GET', '/github/repos/acme/widget', { status: 502 });
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result.status).toBe('unavailable');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });
});

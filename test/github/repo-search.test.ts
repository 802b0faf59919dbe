/** GitHub's repository search client (sources/github/search.ts): the URL, the documented answer, hostile and failing answers. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GithubRateLimiter } from '../../src/sources/github/rate-limit.js';
import { queryTopics, REPO_SEARCH_MAX_BYTES, searchRepositories } from '../../src/sources/github/search.js';
import { fakeHttp, type FakeAnswer } from '../npm-source/fake-http.js';

const API = 'http://127.0.0.1:9/github';
const NOW = new Date('2026-08-25T12:00:00Z');
const answer = readFileSync(new URL('../../fixtures/http/github-search/topic-mcp-topic-mcp-server.json', import.meta.url), 'utf8');
const URL_MCP = `${API}/search/repositories?q=topic%3Amcp+topic%3Amcp-server&sort=stars&order=desc&per_page=36`;

function search(routes: Record<string, FakeAnswer>, limiter = new GithubRateLimiter()) {
  const http = fakeHttp(routes);
  return { http, result: searchRepositories({ http, api: API, limiter, tokenInUse: false, now: NOW }, { topics: ['mcp', 'mcp-server'], perPage: 36 }) };
}

describe('queryTopics', () => {
  test.each([
    [['MCP', 'mcp', ' mcp-server '], ['mcp', 'mcp-server']],
    [['not a topic', 'a:b', 'x'.repeat(51), 'ok-1'], ['ok-1']],
    [['\u001b[31mred', 'a', 'b', 'c'], ['a', 'b']],
  ])('%j → %j', (input, expected) => {
    expect(queryTopics(input)).toEqual(expected);
  });
});

describe('searchRepositories', () => {
  test('the documented answer: valid items kept, invalid ones dropped, strings sanitised, GitHub headers sent', async () => {
    const { http, result } = search({ [URL_MCP]: { status: 200, body: answer } });
    const found = await result;
    expect(found.status).toBe('ok');
    if (found.status !== 'ok') return;
    expect(found).toMatchObject({ query: 'topic:mcp topic:mcp-server', total: 3412, incomplete: false, dropped: 2 });
    expect(found.listings.map((l) => l.fullName)).toEqual([
      'microsoft/playwright-mcp',
      'blazickjp/arxiv-mcp-server',
      'nerq-fixtures/playwright-mcp',
      'formulahendry/mcp-server-code-runner',
      'nerq-fixtures/retired-mcp-server',
      'nerq-fixtures/tiny-mcp-server',
    ]);
    expect(found.listings.find((l) => l.fullName === 'nerq-fixtures/playwright-mcp')?.fork).toBe(true);
    expect(found.listings.find((l) => l.fullName === 'nerq-fixtures/retired-mcp-server')?.archived).toBe(true);
    const tiny = found.listings.find((l) => l.fullName === 'nerq-fixtures/tiny-mcp-server')!;
    expect(tiny.topics).toEqual(['mcp', 'mcp-server']);
    expect(tiny.description).toBe('A tiny MCP server with escapes in its description');
    expect(JSON.stringify(found.listings)).not.toMatch(/\\u001b|\\u0000|\\u0007/);
    expect(http.requests[0]).toMatchObject({ maxBytes: REPO_SEARCH_MAX_BYTES, retryRateLimited: false, headers: { accept: 'application/vnd.github+json' } });
  });

  test.each([
    ['503', { status: 503 }, /^GitHub search: HTTP 503/],
    ['not JSON', { status: 200, body: '<html>' }, /not JSON/],
    ['items not a list', { status: 200, body: JSON.stringify({ total_count: 1, incomplete_results: false, items: {} }) }, /no list of items/],
    ['no incomplete_results', { status: 200, body: JSON.stringify({ total_count: 1, items: [] }) }, /no list of items/],
    ['network', { fail: 'network' as const, reason: 'connection refused' }, /connection refused/],
  ] as const)('%s → unavailable with a one-line reason', async (_name, answered, reason) => {
    const found = await search({ [URL_MCP]: answered as FakeAnswer }).result;
    expect(found).toMatchObject({ status: 'unavailable', query: 'topic:mcp topic:mcp-server', reason: expect.stringMatching(reason) });
  });

  test('while a rate limit of the run holds, no request is sent', async () => {
    const limiter = new GithubRateLimiter();
    limiter.stop(API, 'GitHub API rate limit reached', NOW.getTime() + 60_000, NOW);
    const { http, result } = search({ [URL_MCP]: { status: 200, body: answer } }, limiter);
    expect(await result).toMatchObject({ status: 'unavailable', reason: 'GitHub search: GitHub API rate limit reached' });
    expect(http.requests).toEqual([]);
  });

  test('no topic: unavailable, no request', async () => {
    const http = fakeHttp({});
    const found = await searchRepositories({ http, api: API, limiter: new GithubRateLimiter(), tokenInUse: false, now: NOW }, { topics: [], perPage: 25 });
    expect(found.status).toBe('unavailable');
    expect(http.requests).toEqual([]);
  });
});

/**
 * Peers of a `github:` target (app/peers/github.ts), in process against the fixture server:
 * GitHub's repository search answers in the documented shape (fixtures/http/github-search),
 * the peers served from the recorded repositories (test/repository/recorded-repos.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { compareWithPeers, withComparison } from '../../src/app/compare.js';
import { NO_TOKEN_REST_LIMIT, REPOSITORY_REST_REQUESTS } from '../../src/app/peers/candidate.js';
import type { Runtime } from '../../src/app/runtime.js';
import { ReportSchema } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { PUBLISHED, serveRecordedRepo, servePublished } from '../repository/recorded-repos.js';

const NOW = new Date('2026-08-25T12:00:00Z');
const SEARCH_FIXTURE = 'github-search/topic-mcp-topic-mcp-server.json';
const PLAYWRIGHT = 'microsoft/playwright-mcp';
const ARXIV = 'blazickjp/arxiv-mcp-server';

let harness: AppHarness;
let server: FixtureServer;

beforeEach(async () => {
  harness = await startAppHarness('nerq-peers-gh-', NOW);
  server = harness.server;
});

afterEach(() => harness.stop());

const runtime = (env: Record<string, string> = {}): Runtime => harness.runtime(env);

/**
 * The two recorded MCP servers, each with the topics the search answer gives it: `mcp` and
 * `mcp-server` are generic (every MCP server carries them); `automation` is what they share.
 */
function serveRepositories(): void {
  serveRecordedRepo(server, PLAYWRIGHT, { license: 'Apache-2.0', stars: 20_000, topics: ['mcp', 'mcp-server', 'playwright', 'automation'], description: 'Playwright MCP server' });
  serveRecordedRepo(server, ARXIV, {
    license: 'Apache-2.0',
    stars: 1800,
    topics: ['arxiv', 'mcp', 'mcp-server', 'automation'],
    description: 'A Model Context Protocol server for searching and analyzing arXiv papers',
  });
  servePublished(server, { npm: PUBLISHED[PLAYWRIGHT]!.npm!, pypi: PUBLISHED[ARXIV]!.pypi! });
  for (const file of ['setup.cfg', 'setup.py']) server.expect('GET', `/github/repos/${ARXIV}/contents/${file}`, { status: 404 });
}

async function checked(app: Runtime, fullName: string) {
  const [outcome] = await checkTargets(app, { targets: [parseTarget(`github:${fullName}`)], gate: DEFAULT_GATE, now: NOW });
  return outcome!;
}

const searches = () =>
  server.requests.filter((r) => r.path.startsWith('/github/search/repositories')).map((r) => Object.fromEntries(new URL(r.path, 'http://x').searchParams));
const asked = (fullName: string) => server.requests.some((r) => r.path.startsWith(`/github/repos/${fullName}`));

describe('peers of a repository target: GitHub repository search by topics', () => {
  it('an in-category peer evaluated as a github: target; out of category, forks, archived, invalid items and those sharing only generic topics never asked; a lower-scoring peer is never an alternative', async () => {
    serveRepositories();
    server.expect('GET', '/github/search/repositories', { fixture: SEARCH_FIXTURE });
    const app = runtime();
    const playwright = await checked(app, PLAYWRIGHT);
    expect(playwright.report.category?.id).toBe('mcp-server');
    const fromPlaywright = await compareWithPeers(app, playwright, { gate: DEFAULT_GATE, now: NOW, peers: 12 });

    // The generic topics (mcp, mcp-server) are not searched by.
    expect(searches()).toEqual([{ q: 'topic:playwright topic:automation', sort: 'stars', order: 'desc', per_page: '36' }]);
    // Out of category by its topics (code-runner: code execution), a fork, an archived repository,
    // a server sharing only the generic mcp and mcp-server: never asked.
    expect(asked('nerq-fixtures/tiny-mcp-server')).toBe(false);
    expect(asked('formulahendry/mcp-server-code-runner')).toBe(false);
    expect(asked('nerq-fixtures/playwright-mcp')).toBe(false);
    expect(asked('nerq-fixtures/retired-mcp-server')).toBe(false);

    // One peer: too few for a standing (no rank or percentile); the peer and the sample are kept.
    expect(fromPlaywright.comparison).toBeNull();
    const comparison = fromPlaywright.comparisonUnavailable!;
    expect(comparison.members?.map((m) => m.target)).toEqual([expect.stringMatching(/^blazickjp\/arxiv-mcp-server/)]);
    expect(comparison).toMatchObject({ code: 'no-peers', reason: expect.stringContaining('only 1 of the 1 peers evaluated scored in the mcp-server category') });
    // 7 valid listings less the target itself; 1 evaluated.
    expect(comparison.sample).toMatchObject({ sources: ['github-search'], query: 'topic:playwright topic:automation', candidates: 5, skipped: 4, excluded: 0, evaluatedAt: NOW.toISOString(), notes: [] });
    expect(comparison.sample).not.toHaveProperty('unevaluated');
    expect(() => ReportSchema.parse(withComparison(playwright.report, fromPlaywright))).not.toThrow();

    // The same pair seen from the other side: whichever scores lower is never the other's alternative.
    const arxiv = await checked(app, ARXIV);
    const fromArxiv = await compareWithPeers(app, arxiv, { gate: DEFAULT_GATE, now: NOW, peers: 12 });
    expect(searches().at(-1)?.q).toBe('topic:arxiv topic:automation');
    expect(fromArxiv.comparisonUnavailable?.members?.map((m) => m.target)).toEqual([expect.stringMatching(/^microsoft\/playwright-mcp/)]);
    // playwright-mcp scores higher than arxiv-mcp-server (both YES): arxiv is never its alternative, it is arxiv's.
    expect(playwright.report.score!).toBeGreaterThan(arxiv.report.score!);
    expect(fromPlaywright.alternatives).toEqual([]);
    expect(fromArxiv.comparison).toBeNull();
    expect(fromArxiv.alternatives).toEqual([
      expect.objectContaining({ target: PLAYWRIGHT, score: playwright.report.score, why: [expect.objectContaining({ code: 'shared-keywords', keywords: ['automation'] })] }),
    ]);
  });

  it('search down: comparison null with the reason code, never an average; no peer asked', async () => {
    serveRepositories();
    server.expect('GET', '/github/search/repositories', { status: 503 });
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW });
    expect(result).toEqual({ comparison: null, comparisonUnavailable: { code: 'search-unavailable', sourceCode: 'http-status', reason: expect.stringMatching(/^GitHub search: .*503/), notes: [] }, alternatives: [] });
    expect(asked(ARXIV)).toBe(false);
  });

  it.each([
    ['not JSON', { body: 'not json' }, 'bad-answer'],
    ['no list of items', { body: { total_count: 1, incomplete_results: false, items: 'x' } }, 'bad-answer'],
    ['over the size cap', { body: { total_count: 1, incomplete_results: false, items: [], pad: 'x'.repeat(4 * 1024 * 1024 + 10) } }, 'too-large'],
  ])('a search answer %s: search-unavailable', async (_name, response, sourceCode) => {
    serveRepositories();
    server.expect('GET', '/github/search/repositories', response);
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW });
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode });
  });

  it("the search's own rate limit: unavailable with the reason, and the run's other GitHub requests are not stopped", async () => {
    serveRepositories();
    const reset = String(Math.floor(NOW.getTime() / 1000) + 60);
    server.expect('GET', '/github/search/repositories', {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, 'x-ratelimit-resource': 'search' },
      body: { message: 'API rate limit exceeded for 127.0.0.1.' },
    });
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW });
    expect(result.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'rate-limited', reason: expect.stringMatching(/^GitHub search: GitHub API rate limit reached/) });
    // A repository is still read after it.
    expect((await checked(app, ARXIV)).report.error).toBeNull();
  });

  it(`without a token and nothing known of the budget, the peers ${NO_TOKEN_REST_LIMIT} requests cover are evaluated; the rest are rate-limited in the sample`, async () => {
    serveRepositories();
    const names = Array.from({ length: 6 }, (_, i) => `nerq-fixtures/mcp-peer-${i}`);
    const items = names.map((full_name) => ({ full_name, description: 'An MCP server', fork: false, archived: false, topics: ['mcp', 'mcp-server', 'playwright'], stargazers_count: 5 }));
    server.expect('GET', '/github/search/repositories', { body: { total_count: names.length, incomplete_results: false, items } });
    server.fallback('GET', '/github/repos/nerq-fixtures/', { status: 404, body: { message: 'Not Found' } });
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW, peers: 12 });
    const fit = Math.floor(NO_TOKEN_REST_LIMIT / REPOSITORY_REST_REQUESTS);
    expect(names.filter(asked)).toEqual(names.slice(0, fit));
    // Every one evaluated was not found, and the rest were not evaluated: too few for a standing, for the rate limit.
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable).toMatchObject({ code: 'peers-unavailable', counts: { candidates: names.length, unavailable: names.length - fit, scored: 0 } });
    expect(result.comparisonUnavailable?.sample?.unevaluated).toEqual(names.slice(fit).map((target) => ({ target, code: 'rate-limited' })));
    expect(result.comparisonUnavailable?.notes).toHaveLength(1);
  });

  it('without a token, the peers evaluated fit what GitHub says is left of its 60 REST requests: none is cut short, the skipped ones are rate-limited in the sample', async () => {
    // Three recorded repositories as peers of playwright-mcp: each costs GitHub about 18 REST requests.
    serveRepositories();
    const TS_SDK = 'modelcontextprotocol/typescript-sdk';
    const CODE_RUNNER = 'formulahendry/mcp-server-code-runner';
    serveRecordedRepo(server, CODE_RUNNER, { license: 'MIT', topics: ['automation'], description: 'An MCP server' });
    serveRecordedRepo(server, TS_SDK, { license: 'MIT', topics: ['automation'], description: 'An MCP server' });
    servePublished(server, { npm: { ...PUBLISHED[CODE_RUNNER]!.npm!, ...PUBLISHED[TS_SDK]!.npm! } });
    const peers = [ARXIV, CODE_RUNNER, TS_SDK];
    const items = peers.map((full_name) => ({ full_name, description: 'An MCP server', fork: false, archived: false, topics: ['playwright', 'automation'], stargazers_count: 5 }));
    server.expect('GET', '/github/search/repositories', { body: { total_count: items.length, incomplete_results: false, items } });
    // GitHub's REST answers count down from 60, as it does without a token (the search has a budget of its own).
    const reset = String(Math.floor(NOW.getTime() / 1000) + 3600);
    let spent = 0;
    server.decorate('/github/', (path): Record<string, string> => {
      if (path.startsWith('/github/search/') || path === '/github/graphql') return {};
      spent += 1;
      return { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(Math.max(0, NO_TOKEN_REST_LIMIT - spent)), 'x-ratelimit-reset': reset, 'x-ratelimit-resource': 'core' };
    });
    const rest = () => server.requests.filter((r) => r.path.startsWith('/github/') && !r.path.startsWith('/github/search/') && !r.path.startsWith('/github/graphql')).length;

    const app = runtime();
    const target = await checked(app, PLAYWRIGHT);
    const left = NO_TOKEN_REST_LIMIT - rest();
    const result = await compareWithPeers(app, target, { gate: DEFAULT_GATE, now: NOW, peers: 12 });

    expect(rest()).toBeLessThanOrEqual(NO_TOKEN_REST_LIMIT);
    const fit = Math.floor(left / REPOSITORY_REST_REQUESTS);
    expect(fit).toBeLessThan(peers.length);
    expect(peers.filter(asked)).toEqual(peers.slice(0, fit));
    const sample = result.comparison?.sample ?? result.comparisonUnavailable?.sample;
    expect(sample?.unevaluated).toEqual(peers.slice(fit).map((peer) => ({ target: peer, code: 'rate-limited' })));
    // No peer evaluated was cut short by the rate limit: each is a member, or left out for its category, never for GitHub's budget.
    const members = result.comparisonUnavailable?.members ?? result.comparison?.members ?? [];
    expect(members.length + (sample?.excluded ?? 0)).toBe(fit);
    // GitHub's budget was never spent: nothing the run asked after the peers would be refused.
    expect(app.callContext({ gate: DEFAULT_GATE, now: NOW }).githubLimiter.stoppedFor(app.endpoints.githubApi, NOW)).toBeNull();
  });

  it('a repository with only generic topics (mcp, mcp-server): nothing specific to search by, said so, no search sent', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: 'Apache-2.0', topics: ['mcp', 'mcp-server'] });
    servePublished(server, { npm: PUBLISHED[PLAYWRIGHT]!.npm! });
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW });
    expect(result.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'not-asked', reason: expect.stringContaining('only generic topics (mcp, mcp-server)') });
    expect(searches()).toEqual([]);
  });

  it('a repository without topics: nothing to search by, said so, no search sent', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: 'Apache-2.0', topics: [] });
    servePublished(server, { npm: PUBLISHED[PLAYWRIGHT]!.npm! });
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, PLAYWRIGHT), { gate: DEFAULT_GATE, now: NOW });
    expect(result.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'not-asked', reason: expect.stringMatching(/no topic/) });
    expect(searches()).toEqual([]);
  });
});

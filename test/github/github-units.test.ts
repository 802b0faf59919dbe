/**
 * The GitHub source's small parts: repository references, the token and where it may go, the
 * rate-limit rules, the `Link` header, and the pure summaries.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Endpoints } from '../../src/sources/endpoints.js';
import { ciIn, needsDocs, securityPolicyIn, type TreeEntry } from '../../src/sources/github/files.js';
import { buildRepositoriesQuery } from '../../src/sources/github/graphql.js';
import { classifyRateLimit, formatReset, GithubRateLimiter, UNKNOWN_RESET_PAUSE_MS } from '../../src/sources/github/rate-limit.js';
import { lastPageOf, oneLine } from '../../src/sources/github/request.js';
import { firstResponse, summariseResponsiveness } from '../../src/sources/github/responsiveness.js';
import { commitAuthor, hasReleaseNotes, isBotCommit, isSignatureAsset, RECENT_COMMITS, summariseActivity, summariseRecentContributors, summariseReleases, type ReleaseInfo } from '../../src/sources/github/summaries.js';
import { githubAuthFor, githubRepoOf, githubToken, manifestPaths } from '../../src/sources/github/source.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import { repositoryRef } from '../../src/sources/npm/facts.js';
import { FIXTURES_ROOT, startFixtureServer } from '../support/fixture-server.js';
import { NOW, npmClaim, pypiClaim, TOKEN } from './helpers.js';

const ENDPOINTS: Endpoints = {
  npmApi: 'https://npm-api.example.test',
  pypi: 'https://pypi.example.test',
  pypiStats: 'https://pypistats.example.test',
  githubApi: 'https://api.github.example.test',
  githubGraphql: 'https://api.github.example.test/graphql',
  osvApi: 'https://osv.example.test',
  mcpRegistry: 'https://mcp-registry.example.test',
  npmPublicRegistry: 'https://registry.example.test/',
};
const GHES: Endpoints = {
  ...ENDPOINTS,
  githubServer: { host: 'ghe.corp.test', api: 'https://ghe.corp.test/api/v3', graphql: 'https://ghe.corp.test/api/graphql' },
};

describe('githubRepoOf', () => {
  test.each([
    ['https://github.com/acme/widget', { host: 'github.com', owner: 'acme', name: 'widget' }],
    ['git+https://github.com/acme/widget.git', { host: 'github.com', owner: 'acme', name: 'widget' }],
    ['git@github.com:acme/widget.git', { host: 'github.com', owner: 'acme', name: 'widget' }],
    ['github:acme/widget', { host: 'github.com', owner: 'acme', name: 'widget' }],
    ['https://github.com/Acme/Widget/tree/main/packages/x', { host: 'github.com', owner: 'Acme', name: 'Widget' }],
    ['https://gitlab.com/acme/widget', null],
    ['https://ghe.corp.test/team/tool.git', null],
    ['not a url', null],
  ])('%s', (value, expected) => {
    expect(githubRepoOf(value, ENDPOINTS)).toEqual(expected);
  });

  test('a package.json repository field (hosted-git-info RepositoryRef)', () => {
    expect(githubRepoOf(repositoryRef({ type: 'git', url: 'git+https://github.com/acme/widget.git', directory: 'packages/x' }), ENDPOINTS)).toEqual({
      host: 'github.com',
      owner: 'acme',
      name: 'widget',
    });
    expect(githubRepoOf(repositoryRef('bitbucket:acme/widget'), ENDPOINTS)).toBeNull();
    expect(githubRepoOf(null, ENDPOINTS)).toBeNull();
  });

  test('the Enterprise host named by GITHUB_SERVER_URL', () => {
    expect(githubRepoOf('https://ghe.corp.test/team/tool.git', GHES)).toEqual({ host: 'ghe.corp.test', owner: 'team', name: 'tool' });
    expect(githubRepoOf('git@ghe.corp.test:team/tool.git', GHES)).toEqual({ host: 'ghe.corp.test', owner: 'team', name: 'tool' });
    expect(githubRepoOf(repositoryRef('git+https://ghe.corp.test/team/tool.git'), GHES)).toEqual({ host: 'ghe.corp.test', owner: 'team', name: 'tool' });
    expect(githubRepoOf('https://other.corp.test/team/tool', GHES)).toBeNull();
  });

  test('names that break GitHub\'s rules are refused', () => {
    expect(githubRepoOf('https://github.com/-acme/widget', ENDPOINTS)).toBeNull();
    expect(githubRepoOf(`https://github.com/${'a'.repeat(40)}/widget`, ENDPOINTS)).toBeNull();
  });
});

describe('the token', () => {
  test('GITHUB_TOKEN, else GH_TOKEN; blank is none', () => {
    expect(githubToken({ GITHUB_TOKEN: ' ghp_a ', GH_TOKEN: 'ghp_b' })).toBe('ghp_a');
    expect(githubToken({ GITHUB_TOKEN: '  ', GH_TOKEN: 'ghp_b' })).toBe('ghp_b');
    expect(githubToken({ GH_TOKEN: '' })).toBeNull();
    expect(githubToken({})).toBeNull();
  });

  test('sent only under the configured GitHub API and GraphQL URLs', () => {
    const auth = githubAuthFor(GHES, TOKEN);
    expect(auth('https://api.github.example.test/repos/acme/widget')).toBe(`Bearer ${TOKEN}`);
    expect(auth('https://api.github.example.test/graphql')).toBe(`Bearer ${TOKEN}`);
    expect(auth('https://ghe.corp.test/api/v3/repos/team/tool')).toBe(`Bearer ${TOKEN}`);
    expect(auth('https://ghe.corp.test/api/graphql')).toBe(`Bearer ${TOKEN}`);
    expect(auth('https://ghe.corp.test/team/tool')).toBeUndefined();
    expect(auth('http://api.github.example.test/repos/acme/widget')).toBeUndefined();
    expect(auth('https://api.github.example.test.evil.test/repos')).toBeUndefined();
    expect(auth('https://registry.example.test/widget')).toBeUndefined();
    expect(auth('not a url')).toBeUndefined();
    expect(githubAuthFor(GHES, null)('https://api.github.example.test/repos/acme/widget')).toBeUndefined();
  });

  test('on a shared origin, only under the GitHub base path', () => {
    const auth = githubAuthFor({ ...ENDPOINTS, githubApi: 'http://127.0.0.1:9/github', githubGraphql: 'http://127.0.0.1:9/github/graphql' }, TOKEN);
    expect(auth('http://127.0.0.1:9/github/repos/a/b')).toBe(`Bearer ${TOKEN}`);
    expect(auth('http://127.0.0.1:9/npm/widget')).toBeUndefined();
    expect(auth('http://127.0.0.1:9/githubx/repos')).toBeUndefined();
  });

  test('a REST redirect to another origin arrives there without the token', async () => {
    const github = await startFixtureServer();
    const other = await startFixtureServer();
    const endpoints = { ...ENDPOINTS, githubApi: github.url('github'), githubGraphql: `${github.url('github')}/graphql` };
    const http = createHttpClient({ authFor: githubAuthFor(endpoints, TOKEN) });
    try {
      github.expect('GET', '/github/repos/acme/widget', { status: 302, headers: { location: `${other.url('mirror')}/repos/acme/widget` } });
      other.expect('GET', '/mirror/repos/acme/widget', { body: { full_name: 'acme/widget' } });
      const res = await http.request({ url: `${github.url('github')}/repos/acme/widget` });
      expect(res.ok).toBe(true);
      expect(github.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await http.close();
      await github.close();
      await other.close();
    }
  });
});

describe('HTTP failures carry headers and the start of the body (for rate limits and 451 reasons)', () => {
  test('a status failure keeps its headers and decodes a gzip body', async () => {
    const server = await startFixtureServer();
    const http = createHttpClient({ retry: { retries: 0 } });
    try {
      server.expect('GET', '/github/repos/acme/banned', { status: 451, encoding: 'gzip', headers: { 'x-ratelimit-remaining': '59' }, body: { message: 'Repository access blocked', block: { reason: 'dmca' } } });
      const res = await http.request({ url: `${server.url('github')}/repos/acme/banned` });
      expect(res.ok).toBe(false);
      if (res.ok) return;
      expect(res.status).toBe(451);
      expect(res.headers?.['x-ratelimit-remaining']).toBe('59');
      expect(JSON.parse(res.body ?? '')).toEqual({ message: 'Repository access blocked', block: { reason: 'dmca' } });
    } finally {
      await http.close();
      await server.close();
    }
  });
});

describe('rate limits', () => {
  const reset = String(Math.floor(NOW.getTime() / 1000) + 3900);

  test.each([
    ['a 200 with budget left', 200, { 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': reset }, null, 'fine'],
    ['a 200 with the budget spent', 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, null, 'spent'],
    ['a 403 with the budget spent', 403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, 'API rate limit exceeded', 'limited'],
    ['a 403 naming the secondary limit', 403, { 'x-ratelimit-remaining': '4000' }, 'You have exceeded a secondary rate limit.', 'limited'],
    ['a 403 with Retry-After', 403, { 'retry-after': '30' }, null, 'limited'],
    ['a 429', 429, {}, null, 'limited'],
    ['a 403 for another reason', 403, { 'x-ratelimit-remaining': '42' }, 'Resource not accessible by integration', 'fine'],
    ['a 404', 404, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, 'Not Found', 'fine'],
  ] as const)('%s', (_label, status, headers, message, kind) => {
    expect(classifyRateLimit(status, headers, message, NOW, false).kind).toBe(kind);
  });

  test('reset times print in UTC, with the date when it is another day', () => {
    expect(formatReset(Number(reset), NOW)).toBe('13:05 UTC');
    expect(formatReset(Math.floor(Date.parse('2026-06-02T00:30:00Z') / 1000), NOW)).toBe('2026-06-02 00:30 UTC');
  });

  test('the token hint only without a token', () => {
    const spent = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset };
    const resumeAt = Number(reset) * 1000;
    expect(classifyRateLimit(403, spent, null, NOW, false)).toEqual({
      kind: 'limited',
      reason: 'GitHub API rate limit reached (resets at 13:05 UTC); set GITHUB_TOKEN to raise the limit',
      resumeAt,
    });
    expect(classifyRateLimit(403, spent, null, NOW, true)).toEqual({ kind: 'limited', reason: 'GitHub API rate limit reached (resets at 13:05 UTC)', resumeAt });
  });

  test('a stop holds per API until its resume time; while it holds, the first reason wins', () => {
    const limiter = new GithubRateLimiter();
    const at = (s: number) => new Date(NOW.getTime() + s * 1000);
    const resumeAt = at(60).getTime();
    limiter.stop('https://api', 'first', resumeAt, NOW);
    limiter.stop('https://api', 'second', at(600).getTime(), at(1));
    expect(limiter.stoppedFor('https://api', NOW)).toBe('first');
    expect(limiter.stoppedFor('https://api', at(59))).toBe('first');
    expect(limiter.stoppedFor('https://other', NOW)).toBeNull();
    // Past the reset, GitHub is asked again; a new limit stops it with its own reason.
    expect(limiter.stoppedFor('https://api', at(60))).toBeNull();
    limiter.stop('https://api', 'third', at(120).getTime(), at(61));
    expect(limiter.stoppedFor('https://api', at(61))).toBe('third');
  });

  test("what is left of the REST budget: the core answers' lowest count within a window, not GraphQL's or the search's, unknown past the reset, 0 while stopped", () => {
    const limiter = new GithubRateLimiter();
    const at = (s: number) => new Date(NOW.getTime() + s * 1000);
    const reset = String(NOW.getTime() / 1000 + 3600);
    const answer = (remaining: number, extra: Record<string, string> = {}) => ({ 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': reset, ...extra });
    expect(limiter.remaining('https://api', NOW)).toBeNull();
    limiter.observe('https://api', answer(42, { 'x-ratelimit-resource': 'core' }), NOW);
    // An answer of a concurrent request that arrives late says more is left: the lowest count wins.
    limiter.observe('https://api', answer(45), NOW);
    // Another budget (GraphQL's, the search's) is not the REST one; an answer without the header counts nothing.
    limiter.observe('https://api', answer(3, { 'x-ratelimit-resource': 'search' }), NOW);
    limiter.observe('https://api', answer(1, { 'x-ratelimit-resource': 'graphql' }), NOW);
    limiter.observe('https://api', {}, NOW);
    expect(limiter.remaining('https://api', NOW)).toBe(42);
    expect(limiter.remaining('https://other', NOW)).toBeNull();
    // A new window (a later reset) starts again from what it says.
    limiter.observe('https://api', { 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(NOW.getTime() / 1000 + 7200) }, NOW);
    expect(limiter.remaining('https://api', NOW)).toBe(59);
    // Past its reset, nothing is known.
    expect(limiter.remaining('https://api', at(7200))).toBeNull();
    // While a stop holds, nothing is left.
    limiter.stop('https://api', 'spent', at(60).getTime(), NOW);
    expect(limiter.remaining('https://api', NOW)).toBe(0);
  });

  test('the resume time: the reset when known, the Retry-After for a secondary limit, else a minute', () => {
    const reset = String(NOW.getTime() / 1000 + 3600);
    expect(classifyRateLimit(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, null, NOW, true)).toMatchObject({ resumeAt: NOW.getTime() + 3_600_000 });
    expect(classifyRateLimit(403, { 'retry-after': '30' }, 'You have exceeded a secondary rate limit', NOW, true)).toMatchObject({ resumeAt: NOW.getTime() + 30_000 });
    expect(classifyRateLimit(429, {}, null, NOW, true)).toMatchObject({ kind: 'limited', resumeAt: NOW.getTime() + UNKNOWN_RESET_PAUSE_MS });
  });
});

describe('lastPageOf and oneLine', () => {
  test('the last page of a Link header', () => {
    expect(lastPageOf('<https://api.test/repositories/1/commits?per_page=1&page=2>; rel="next", <https://api.test/repositories/1/commits?per_page=1&page=1044>; rel="last"')).toBe(1044);
    expect(lastPageOf('<https://api.test/x?page=1>; rel="prev", <https://api.test/x?page=1>; rel="first"')).toBeNull();
    expect(lastPageOf(undefined)).toBeNull();
    expect(lastPageOf('<nonsense>; rel="last"')).toBeNull();
  });

  test('messages are one clean line', () => {
    expect(oneLine('a\u001b[31m red\nline\u202e', 100)).toBe('a [31m red line');
    expect(oneLine('x'.repeat(10), 5)).toBe('xxxx…');
  });

  test('a long value flattened from a prefix reads exactly as the whole value flattened', () => {
    const whole = (text: string, max: number): string => {
      const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
      return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
    };
    // The first prefix holds exactly `max` characters once flattened; the rest still adds some.
    expect(oneLine(`${'x'.repeat(10)}${' '.repeat(200)}y`, 10)).toBe(whole(`${'x'.repeat(10)}${' '.repeat(200)}y`, 10));
    const piece = fc.constantFrom('a', 'b c', ' ', '  ', '\n', '\t\r', '\u0007', '\u202e', '\u00a0', '\u3000', 'MIT', ' '.repeat(97), '\n'.repeat(61));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3000 }), (pieces, max, blanks) => {
        const text = `${' '.repeat(blanks)}${pieces.join('')}${' '.repeat(blanks)}`;
        expect(oneLine(text, max)).toBe(whole(text, max));
      }),
      { numRuns: 300 },
    );
  });
});

describe('summaries', () => {
  test('bus factor: the fewest people who made half of the commits; bots and commits without an account left out', () => {
    const by = (login: string | null, n: number, bot = false) => Array.from({ length: n }, () => ({ login, bot }));
    expect(summariseRecentContributors([...by('a', 25), ...by('b', 15), ...by('c', 10), ...by('renovate[bot]', 5, true), ...by(null, 3)])).toEqual({
      count: 3,
      busFactor: 1,
      topShare: 0.5,
      basis: 'recent-commits',
      commitsExamined: 58,
      unlinked: 3,
    });
    expect(summariseRecentContributors(['p0', 'p1', 'p2', 'p3'].flatMap((p) => by(p, 10))).busFactor).toBe(2);
  });

  test('contributors: only the newest RECENT_COMMITS commits are examined; nobody is a bus factor of 0, never unknown', () => {
    const commits = [...Array.from({ length: RECENT_COMMITS }, () => ({ login: 'a', bot: false })), { login: 'b', bot: false }];
    expect(summariseRecentContributors(commits)).toMatchObject({ count: 1, busFactor: 1, topShare: 1, commitsExamined: RECENT_COMMITS });
    expect(summariseRecentContributors([])).toEqual({ count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 0 });
    expect(summariseRecentContributors([{ login: null, bot: false }])).toEqual({ count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 1, unlinked: 1 });
  });

  test('a commit author: the account login (lower case), or null without one; bots by account type, [bot] login or noreply address', () => {
    expect(commitAuthor(' Alice ', 'User', 'alice@example.com', 'Alice')).toEqual({ login: 'alice', bot: false });
    expect(commitAuthor(null, null, 'carol@example.com', 'Carol')).toEqual({ login: null, bot: false });
    expect(commitAuthor('', null, 'x@example.com', 'X')).toEqual({ login: null, bot: false });
    expect(commitAuthor('dependabot[bot]', 'Bot', '49699333+dependabot[bot]@users.noreply.github.com', 'dependabot[bot]')).toEqual({ login: 'dependabot[bot]', bot: true });
    expect(commitAuthor('ci-helper', 'Bot', null, null)).toEqual({ login: 'ci-helper', bot: true });
    expect(commitAuthor(null, null, '49699333+dependabot[bot]@users.noreply.github.com', 'dependabot[bot]')).toEqual({ login: null, bot: true });
  });

  test('signature and provenance assets', () => {
    for (const name of ['app.tar.gz.sig', 'SHA256SUMS.asc', 'app.sigstore.json', 'app.sigstore', 'multiple.intoto.jsonl', 'app.minisig', 'app.pem', 'provenance.json']) {
      expect(isSignatureAsset(name), name).toBe(true);
    }
    for (const name of ['app.tar.gz', 'app.zip', 'SHA256SUMS', 'signal.exe', 'design.json']) expect(isSignatureAsset(name), name).toBe(false);
  });

  test('only prereleases: the latest is the newest prerelease, and none counts for the year', () => {
    const releases = summariseReleases(
      [
        { tag: 'v2.0.0-rc.1', draft: false, prerelease: true, publishedAt: '2026-05-01T00:00:00Z', assetNames: [], assetCount: 0 },
        { tag: 'v2.0.0-rc.0', draft: false, prerelease: true, publishedAt: '2026-04-01T00:00:00Z', assetNames: ['a.sig'], assetCount: 1 },
      ],
      NOW,
      true,
    );
    expect(releases).toEqual({
      last12Months: 0,
      latest: { tag: 'v2.0.0-rc.1', publishedAt: '2026-05-01T00:00:00Z', signatureAssets: [], assets: 0, hasNotes: false },
      signedReleases: 1,
      examined: 2,
      // Maturity: none in the last 30 days (31 days ago is out), the oldest listed is the first (the listing is complete).
      listed: 2,
      withNotes: 0,
      complete: true,
      recent: 0,
      oldestPublishedAt: '2026-04-01T00:00:00.000Z',
    });
  });

  /** A release without assets, as the REST and GraphQL readers normalise it. */
  const release = (tag: string, publishedAt: string | null, extra: { draft?: boolean; prerelease?: boolean; notes?: string | null } = {}): ReleaseInfo => ({
    tag,
    draft: extra.draft ?? false,
    prerelease: extra.prerelease ?? false,
    publishedAt,
    assetNames: [],
    assetCount: 0,
    notes: extra.notes ?? null,
  });

  test('recent releases count prereleases and leave drafts out; an undated release is never the oldest', () => {
    const releases = summariseReleases(
      [
        release('v9', null, { draft: true }),
        release('v8', '2026-05-31T00:00:00Z', { prerelease: true }),
        release('v7', '2026-05-20T00:00:00Z'),
        release('v6', null),
        release('v1', '2021-01-01T00:00:00Z'),
      ],
      NOW,
      false,
    );
    expect(releases).toMatchObject({ listed: 4, complete: false, recent: 2, oldestPublishedAt: '2021-01-01T00:00:00.000Z' });
  });

  test('a release dated more than a day in the future is undated: kept in order, never recent, never the first; a day of skew is tolerated', () => {
    const ahead = (days: number): string => new Date(NOW.getTime() + days * 86_400_000).toISOString();
    const releases = summariseReleases(
      [release('v9', ahead(400)), release('v8', ahead(0.5)), release('v7', '2026-05-20T00:00:00Z'), release('v0', ahead(3000))],
      NOW,
      true,
    );
    // v8, half a day ahead, is within the tolerated skew: dated now, so recent and of the last 12 months.
    expect(releases).toMatchObject({ latest: { tag: 'v0', publishedAt: null }, last12Months: 2, listed: 4, recent: 2, oldestPublishedAt: '2026-05-20T00:00:00.000Z', futureDated: 2 });
    // Only future-dated releases: none is dated, so there is no first release to measure from.
    expect(summariseReleases([release('v1', ahead(30))], NOW, true)).toMatchObject({ latest: { tag: 'v1', publishedAt: null }, recent: 0, oldestPublishedAt: null, futureDated: 1 });
    expect(summariseReleases([release('v1', '2026-05-20T00:00:00Z')], NOW, true)).not.toHaveProperty('futureDated');
  });

  test('release notes: text beyond GitHub\'s bare generated "Full Changelog" line, comments and empty headings', () => {
    // Real bodies (the PyGithub releases listing, fixtures/http/github/releases/pygithub-page1.json).
    const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'releases', 'pygithub-page1.json'), 'utf8')) as { tag_name: string; body: string }[];
    expect(recorded.filter((r) => hasReleaseNotes(r.body)).map((r) => r.tag_name)).toHaveLength(10);
    expect(hasReleaseNotes('* Hotfix release to better support Python 3.5 users.\r\n* Pin pyjwt to <2.0 (502caed9)')).toBe(true);
    // GitHub's generated notes: a "What's Changed" list counts; the compare link alone does not.
    const generated = "<!-- Release notes generated using configuration in .github/release.yml at main -->\r\n\r\n## What's Changed\r\n* Add a tool by @a in https://github.com/o/r/pull/7\r\n\r\n**Full Changelog**: https://github.com/o/r/compare/v1.0.0...v1.1.0";
    expect(hasReleaseNotes(generated)).toBe(true);
    for (const bare of [
      '**Full Changelog**: https://github.com/o/r/compare/v1.0.0...v1.1.0',
      '\r\n**Full Changelog**: https://github.com/o/r/commits/v1.0.0\r\n',
      'Full Changelog: https://github.com/o/r/compare/v1...v2',
      "## What's Changed\n\n\n**Full Changelog**: https://github.com/o/r/compare/v1...v2",
      '<!-- Release notes generated using configuration in .github/release.yml at main -->\n**Full Changelog**: https://github.com/o/r/compare/v1...v2',
      '   \r\n ',
      '',
      null,
      undefined,
    ]) {
      expect(hasReleaseNotes(bare), JSON.stringify(bare)).toBe(false);
    }
  });

  test('releases with notes: counted over the published ones (drafts left out); the latest stable one says whether it has them', () => {
    const releases = summariseReleases(
      [
        release('v4', '2026-05-31T00:00:00Z', { draft: true, notes: '* New parser' }),
        release('v3-rc', '2026-05-30T00:00:00Z', { prerelease: true, notes: '* Try the new parser' }),
        release('v3', '2026-05-20T00:00:00Z', { notes: '**Full Changelog**: https://github.com/o/r/compare/v2...v3' }),
        release('v2', '2026-04-01T00:00:00Z', { notes: '* Fixes' }),
        release('v1', '2026-01-01T00:00:00Z'),
      ],
      NOW,
      true,
    );
    expect(releases).toMatchObject({ listed: 4, withNotes: 2, latest: { tag: 'v3', hasNotes: false } });
  });

  test('bot commits: a Bot account, a [bot] login, or GitHub\'s bot noreply address', () => {
    expect(isBotCommit('dependabot[bot]', 'Bot', null, null)).toBe(true);
    expect(isBotCommit(null, null, '41898282+github-actions[bot]@users.noreply.github.com', 'github-actions[bot]')).toBe(true);
    expect(isBotCommit(null, null, 'dev@example.com', 'renovate[bot]')).toBe(true);
    expect(isBotCommit('alice', 'User', 'alice@example.com', 'Alice')).toBe(false);
  });

  test('commits more than a day after now are not counted; one within the tolerated clock skew counts as now', () => {
    const activity = summariseActivity({
      now: NOW,
      sample: [
        { author: 'a', bot: false, at: '2026-07-01T00:00:00Z' },
        { author: 'd', bot: false, at: '2026-06-02T12:00:01Z' },
        { author: 'c', bot: false, at: '2026-06-02T06:00:00Z' },
        { author: 'b', bot: false, at: '2026-05-01T00:00:00Z' },
      ],
      complete: true,
      count365: null,
      count90: null,
      lastCommitAt: '2026-05-01T00:00:00Z',
    });
    expect(activity).toMatchObject({ commits90d: 2, commits365d: 2, authors90d: 2, authors365d: 2 });
  });

  test('first response: someone else, not a bot; a close counts when earlier', () => {
    const replies = [
      { login: 'Author', bot: false, at: '2026-05-01T01:00:00Z' },
      { login: 'ci', bot: true, at: '2026-05-01T02:00:00Z' },
      { login: 'maintainer', bot: false, at: '2026-05-03T00:00:00Z' },
    ];
    expect(firstResponse('author', replies, null)).toBe('2026-05-03T00:00:00Z');
    expect(firstResponse('author', replies, '2026-05-02T00:00:00Z')).toBe('2026-05-02T00:00:00Z');
    expect(firstResponse('author', replies.slice(0, 2), null)).toBeNull();
  });

  test('responsiveness medians over the responded threads with a time', () => {
    const thread = (kind: 'issue' | 'pull', createdAt: string, respondedAt: string | null, extra = {}) => ({
      kind,
      createdAt,
      closedAt: null,
      mergedAt: null,
      authorBot: false,
      responded: respondedAt !== null,
      respondedAt,
      ...extra,
    });
    const result = summariseResponsiveness(
      [
        thread('issue', '2026-05-01T00:00:00Z', '2026-05-01T10:00:00Z'),
        thread('issue', '2026-05-02T00:00:00Z', '2026-05-03T00:00:00Z'),
        thread('issue', '2026-05-03T00:00:00Z', '2026-05-06T00:00:00Z'),
        thread('issue', '2026-05-04T00:00:00Z', null),
        thread('pull', '2026-05-04T00:00:00Z', null, { authorBot: true }),
      ],
      NOW,
      'first-response',
    );
    expect(result.issues).toEqual({ sampled: 4, responded: 3, medianHoursToResponse: 24 });
    expect(result.pulls).toEqual({ sampled: 0, responded: 0, merged: 0, closedUnmerged: 0, medianHoursToResponse: null });
  });
});

describe('file listings', () => {
  const entries = (...paths: string[]): TreeEntry[] => paths.map((path) => ({ path: path.replace(/\/$/, ''), type: path.endsWith('/') ? 'dir' : 'file' }));

  test('Renovate in any of its config files, other CI services at the root', () => {
    expect(ciIn({ root: entries('.renovaterc.json', '.travis.yml', 'Jenkinsfile', '.gitlab-ci.yml'), github: null })).toEqual({
      workflows: 0,
      otherCi: ['.travis.yml', '.gitlab-ci.yml', 'Jenkinsfile'],
      dependencyUpdates: ['renovate'],
    });
    expect(ciIn({ root: entries('.github/'), github: entries('renovate.json5', 'dependabot.yaml', 'workflows/', 'workflows/a.yml', 'workflows/nested/b.yml') })).toEqual({
      workflows: 1,
      otherCi: [],
      dependencyUpdates: ['dependabot', 'renovate'],
    });
    expect(ciIn({ root: entries('.github/'), github: null })).toBeNull();
    expect(ciIn({ root: null, github: [] })).toBeNull();
  });

  test('SECURITY policy: found, absent, or undecided while a listing is unknown', () => {
    expect(securityPolicyIn({ root: entries('security.md'), github: null })).toBe(true);
    expect(securityPolicyIn({ root: entries('README.md', 'docs/'), github: [], docs: entries('SECURITY.rst') })).toBe(true);
    expect(securityPolicyIn({ root: entries('README.md'), github: [] })).toBe(false);
    expect(securityPolicyIn({ root: entries('README.md', 'docs/'), github: [], docs: null })).toBeNull();
    expect(securityPolicyIn({ root: null, github: null })).toBeNull();
    expect(needsDocs({ root: entries('docs/'), github: entries('SECURITY.md') })).toBe(false);
    expect(needsDocs({ root: entries('docs/'), github: [] })).toBe(true);
  });
});

describe('the GraphQL query', () => {
  test('several repositories under their aliases, their manifests as variables', () => {
    const { query, variables } = buildRepositoriesQuery(
      [
        { alias: 'r0', owner: 'acme', name: 'widget', files: manifestPaths(npmClaim('widget', { directory: 'packages/w' })) },
        { alias: 'r1', owner: 'acme', name: 'pyproj', files: manifestPaths(pypiClaim('py-proj')) },
        { alias: 'r2', owner: 'acme', name: 'tool', files: manifestPaths({ kind: 'target' }) },
      ],
      NOW,
    );
    expect(query).toContain('r0: repository(owner: $o0, name: $n0) { ...NerqRepository f0: object(expression: $f0_0) { ...NerqBlob }');
    expect(query).toContain('r2: repository(owner: $o2, name: $n2) { ...NerqRepository  }');
    expect(query).toContain('fragment NerqBlob on GitObject');
    expect(variables).toMatchObject({
      f0_0: 'HEAD:packages/w/package.json',
      f0_1: 'HEAD:package.json',
      f0_2: 'HEAD:pnpm-workspace.yaml',
      f1_0: 'HEAD:pyproject.toml',
      f1_1: 'HEAD:setup.cfg',
      f1_2: 'HEAD:setup.py',
      o2: 'acme',
      n2: 'tool',
    });
    // Every declared variable is used, and every used one declared (GitHub rejects either mistake).
    const declared = [...query.matchAll(/\$(\w+):/g)].map((m) => m[1]).sort();
    expect(declared).toEqual(Object.keys(variables).sort());
  });
});

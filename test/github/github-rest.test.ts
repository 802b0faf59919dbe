/**
 * The GitHub source without a token (REST only) against the loopback fixture server: recorded-
 * shape answers under fixtures/http/github/, and the faults GitHub really answers with
 * (301 renames, 404, 451, 202, 204, 409, rate limits, malformed bodies).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fetchGithubFacts, type GithubResult } from '../../src/sources/github/source.js';
import type { GithubFacts } from '../../src/evidence/github-facts.js';
import { USER_AGENT } from '../../src/version.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import {
  contextFor,
  endpointsFor,
  GH_SHA,
  npmClaim,
  rateHeaders,
  requestLines,
  serveRepo,
  testClient,
  type TestClient,
} from './helpers.js';

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

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };

function factsOf(result: GithubResult): GithubFacts {
  if (result.status !== 'ok') throw new Error(`expected facts, got: ${result.reason}`);
  return result.facts;
}

describe('an active, popular repository', () => {
  test('fills every section from 8 REST requests', async () => {
    serveRepo(server, 'acme/widget');
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, npmClaim('widget')));

    expect(facts.state).toBe('present');
    expect(facts.absentReason).toBeNull();
    expect(facts.repository).toEqual({
      host: 'github.com',
      fullName: 'acme/widget',
      id: '4242',
      renamedFrom: null,
      htmlUrl: 'https://github.com/acme/widget',
      archived: false,
      disabled: false,
      fork: false,
      parent: null,
      parentBranch: null,
      createdAt: '2015-03-01T10:00:00Z',
      pushedAt: '2026-05-28T16:20:00Z',
      defaultBranch: 'main',
      stars: 15234,
      forks: 1203,
      watchers: 310,
      openIssues: 15,
      license: 'MIT',
      topics: ['cli', 'widgets'],
      homepage: 'https://widget.example',
      hasIssues: true,
      description: 'Widgets for the command line',
      topicsKnown: true,
      licenseKnown: true,
    });
    // The 11 newest commits, 8 of them in the year, 5 since 2026-03-03; dependabot is counted as a
    // commit, not an author.
    expect(facts.activity).toEqual({
      commits90d: 5,
      commits365d: 8,
      authors90d: 3,
      authors365d: 4,
      // dependabot[bot]'s commit, in the quarter.
      botCommits90d: 1,
      botCommits365d: 1,
      lastCommitAt: '2026-05-28T16:20:00Z',
      truncated: false,
    });
    // The draft is ignored, the prerelease is not a stable release, v3.0.0 is over a year old.
    expect(facts.releases).toEqual({
      last12Months: 2,
      latest: {
        tag: 'v3.2.0',
        publishedAt: '2026-05-10T10:00:00Z',
        signatureAssets: ['widget-3.2.0.tgz.sigstore', 'multiple.intoto.jsonl'],
        assets: 3,
        hasNotes: true,
      },
      signedReleases: 2,
      examined: 4,
      // For a repository's maturity: the 4 published, all of them (fewer than a page), v3.2.0 within
      // the last 30 days, v3.0.0 the first.
      listed: 4,
      // Each published release's `body` holds a line of notes (the draft's is not counted).
      withNotes: 4,
      complete: true,
      recent: 1,
      oldestPublishedAt: '2025-03-01T10:00:00.000Z',
    });
    // The authors of the same 11 commits, as GraphQL counts them: alice 5, bob 3, dave 1 (carol has no
    // GitHub account, dependabot is a bot); alice alone made more than half of those 9.
    expect(facts.contributors).toEqual({ count: 3, busFactor: 1, topShare: 0.556, basis: 'recent-commits', commitsExamined: 11, unlinked: 1 });
    // Issues #120 (comments), #117 (closed after 48 h), #116 (nothing); PRs #119 (merged after 24 h),
    // #115 (closed unmerged after 12 h), #114 (nothing). The bot's PR and the old issue are left out.
    expect(facts.responsiveness).toEqual({
      windowDays: 180,
      issues: { sampled: 3, responded: 2, medianHoursToResponse: 48 },
      pulls: { sampled: 3, responded: 2, merged: 1, closedUnmerged: 1, medianHoursToResponse: 18 },
      method: 'comments-or-close',
    });
    expect(facts.community).toEqual({
      readme: true,
      contributing: true,
      codeOfConduct: true,
      issueTemplate: true,
      pullRequestTemplate: true,
      securityPolicy: true,
      healthPercentage: 100,
    });
    expect(facts.ci).toEqual({ workflows: 3, otherCi: ['.circleci'], dependencyUpdates: ['dependabot'] });
    expect(facts.link).toEqual({ verifiedBy: 'manifest', reason: 'package.json at main names "widget"' });
    expect(facts.unknown).toEqual({});
    expect(facts.via).toEqual({ api: 'rest', requests: 8 });

    expect(server.requests).toHaveLength(8);
    expect(requestLines(server).sort()).toEqual(
      [
        'GET /github/repos/acme/widget',
        'GET /github/repos/acme/widget/commits',
        'GET /github/repos/acme/widget/releases',
        'GET /github/repos/acme/widget/issues',
        'GET /github/repos/acme/widget/community/profile',
        'GET /github/repos/acme/widget/contents',
        `GET /github/repos/acme/widget/git/trees/${GH_SHA}`,
        'GET /github/repos/acme/widget/contents/package.json',
      ].sort(),
    );
    expectNoUnexpected(server);
  });

  test('every request names nerq, asks for the v3 JSON media type and pins the API version; no token is sent', async () => {
    serveRepo(server, 'acme/widget');
    await fetchGithubFacts(contextFor(server, client.http), WIDGET, npmClaim('widget'));
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers['x-github-api-version']).toBe('2022-11-28');
      expect(request.headers.authorization).toBeUndefined();
      const raw = request.path.startsWith('/github/repos/acme/widget/contents/');
      expect(request.headers.accept).toBe(raw ? 'application/vnd.github.raw+json' : 'application/vnd.github+json');
    }
  });

  test('asks for the default branch\'s newest 100 commits, and for issues and PRs created in the last 180 days', async () => {
    serveRepo(server, 'acme/widget');
    await fetchGithubFacts(contextFor(server, client.http), WIDGET, npmClaim('widget'));
    const query = (path: string) => new URL(server.requests.find((r) => r.path.split('?')[0] === path)?.path ?? '', 'http://x').searchParams;
    // The oldest of them is over a year old: they hold the whole year, no other commits request.
    expect(server.requests.filter((r) => r.path.startsWith('/github/repos/acme/widget/commits'))).toHaveLength(1);
    expect(Object.fromEntries(query('/github/repos/acme/widget/commits'))).toEqual({ sha: 'main', per_page: '100' });
    expect(Object.fromEntries(query('/github/repos/acme/widget/issues'))).toEqual({
      state: 'all',
      since: '2025-12-03T12:00:00Z',
      sort: 'created',
      direction: 'desc',
      per_page: '100',
    });
    expect(Object.fromEntries(query(`/github/repos/acme/widget/git/trees/${GH_SHA}`))).toEqual({ recursive: '1' });
  });

  test('a github: target needs no manifest: 7 requests', async () => {
    serveRepo(server, 'acme/widget', { skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.link).toEqual({ verifiedBy: 'target', reason: 'the target is the repository itself' });
    expect(facts.via.requests).toBe(7);
    expect(server.requests).toHaveLength(7);
    expectNoUnexpected(server);
  });
});

describe('repository states', () => {
  test('an archived, dormant repository: no commit this year; the newest commit listed says when the last one was', async () => {
    serveRepo(server, 'acme/relic', {
      from: 'acme/relic',
      override: {
        releases: { body: [] },
        issues: { body: [] },
        contents: { body: [] },
        manifest: { status: 404, body: { message: 'Not Found' } },
      },
      skip: ['commits', 'tree'],
    });
    const oldCommit = {
      sha: 'f'.repeat(40),
      commit: {
        author: { name: 'Alice Example', email: 'alice@example.com', date: '2022-02-01T08:00:00Z' },
        committer: { name: 'Alice Example', email: 'alice@example.com', date: '2022-02-01T08:00:00Z' },
        message: 'Archive notice',
      },
      author: { login: 'alice', id: 1001, type: 'User' },
      committer: { login: 'alice', id: 1001, type: 'User' },
      parents: [],
    };
    server.route('GET', '/github/repos/acme/relic/commits', (_req, res, { url }) => {
      const body = JSON.stringify(url.searchParams.has('since') || url.searchParams.has('page') ? [] : [oldCommit]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'relic' }, { kind: 'target' }));
    expect(facts.repository).toMatchObject({ fullName: 'acme/relic', archived: true, hasIssues: false, homepage: null, topics: [] });
    expect(facts.activity).toEqual({
      commits90d: 0,
      commits365d: 0,
      authors90d: 0,
      authors365d: 0,
      botCommits90d: 0,
      botCommits365d: 0,
      lastCommitAt: '2022-02-01T08:00:00Z',
      truncated: false,
    });
    expect(facts.releases).toEqual({ last12Months: 0, latest: null, signedReleases: 0, examined: 0, listed: 0, withNotes: 0, complete: true, recent: 0, oldestPublishedAt: null });
    // Contributors are counted over the newest commits however old they are.
    expect(facts.contributors).toEqual({ count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 1 });
    expect(facts.responsiveness?.issues.sampled).toBe(0);
    expect(facts.responsiveness?.issues.medianHoursToResponse).toBeNull();
    const commitQueries = server.requests.filter((r) => r.path.includes('/commits')).map((r) => r.path.split('?')[1]);
    expect(commitQueries).toEqual(['sha=main&per_page=100']);
    expectNoUnexpected(server);
  });

  test('a renamed repository: the 301 is followed, the new name is used from then on, renamedFrom says what was asked', async () => {
    server.expect('GET', '/github/repos/acme/gadget', {
      status: 301,
      headers: { location: `${server.url('github')}/repositories/4242` },
      body: { message: 'Moved Permanently', url: `${server.url('github')}/repositories/4242`, documentation_url: 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects' },
    });
    server.expect('GET', '/github/repositories/4242');
    serveRepo(server, 'acme/widget', { skip: ['repo'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'gadget' }, npmClaim('widget')));
    expect(facts.repository?.fullName).toBe('acme/widget');
    expect(facts.repository?.renamedFrom).toBe('acme/gadget');
    expect(facts.link.verifiedBy).toBe('manifest');
    // The redirect hop is a request too: 1 + 1 + the 7 others.
    expect(server.requests).toHaveLength(9);
    expect(server.requests.filter((r) => r.path.includes('/gadget'))).toHaveLength(1);
    expectNoUnexpected(server);
  });

  test('names compare case-insensitively: a different spelling is not a rename', async () => {
    serveRepo(server, 'ACME/Widget', { skip: ['repo'] });
    server.expect('GET', '/github/repos/ACME/Widget', { fixture: 'github/repos/acme/widget' });
    serveRepo(server, 'acme/widget', { skip: ['repo'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'ACME', name: 'Widget' }, { kind: 'target' }));
    expect(facts.repository?.fullName).toBe('acme/widget');
    expect(facts.repository?.renamedFrom).toBeNull();
  });

  test('a missing repository (404) is a fact, not a failure', async () => {
    server.expect('GET', '/github/repos/acme/ghost', {
      status: 404,
      headers: rateHeaders(55),
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' },
    });
    const result = await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'ghost' }, npmClaim('ghost'));
    const facts = factsOf(result);
    expect(facts.state).toBe('missing');
    expect(facts.absentReason).toBeNull();
    expect(facts.repository).toBeNull();
    expect(facts.activity).toBeNull();
    expect(facts.link).toEqual({ verifiedBy: null, reason: 'the repository does not exist on GitHub' });
    expect(facts.unknown).toEqual({});
    expect(facts.via).toEqual({ api: 'rest', requests: 1 });
    expectNoUnexpected(server);
  });

  test('a blocked repository (451) is absent with GitHub\'s reason', async () => {
    server.expect('GET', '/github/repos/acme/banned', {
      status: 451,
      body: { message: 'Repository access blocked', block: { reason: 'dmca', created_at: '2012-10-03T18:57:04Z', html_url: 'https://github.com/github/dmca/blob/master/2011-06-21-sony.markdown' } },
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'banned' }, { kind: 'target' }));
    expect(facts.state).toBe('blocked');
    expect(facts.absentReason).toBe('Repository access blocked (dmca)');
    expect(facts.link.verifiedBy).toBe('target');
    expect(facts.via.requests).toBe(1);
  });

  test('a repository without any community files, SECURITY policy, CI or update tool', async () => {
    serveRepo(server, 'acme/bare', {
      override: {
        community: { fixture: 'github/repos/acme/bare/community/profile' },
        contents: {
          body: [
            { name: 'index.js', path: 'index.js', sha: 'a'.repeat(40), size: 120, type: 'file' },
            { name: 'package.json', path: 'package.json', sha: 'b'.repeat(40), size: 80, type: 'file' },
          ],
        },
      },
      skip: ['tree', 'manifest'],
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'bare' }, { kind: 'target' }));
    expect(facts.unknown).toEqual({});
    expect(facts.community).toEqual({
      readme: false,
      contributing: false,
      codeOfConduct: false,
      issueTemplate: false,
      pullRequestTemplate: false,
      securityPolicy: false,
      healthPercentage: 14,
    });
    expect(facts.ci).toEqual({ workflows: 0, otherCi: [], dependencyUpdates: [] });
    // No `.github/` and no `docs/`: nothing more to list.
    expect(server.requests).toHaveLength(6);
    expectNoUnexpected(server);
  });

  test('a SECURITY policy only under docs/ is found with one more listing', async () => {
    serveRepo(server, 'acme/widget', {
      override: {
        tree: { body: { sha: GH_SHA, tree: [{ path: 'workflows', type: 'tree', sha: 'c'.repeat(40) }, { path: 'workflows/ci.yml', type: 'blob', sha: 'd'.repeat(40) }], truncated: false } },
      },
      skip: ['manifest'],
    });
    server.expect('GET', '/github/repos/acme/widget/git/trees/4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70', {
      body: { sha: '4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70', tree: [{ path: 'SECURITY.md', type: 'blob', sha: 'e'.repeat(40) }], truncated: false },
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.community?.securityPolicy).toBe(true);
    expect(facts.ci).toEqual({ workflows: 1, otherCi: ['.circleci'], dependencyUpdates: [] });
    expect(server.requests).toHaveLength(8);
    expectNoUnexpected(server);
  });

  test('an empty repository: 409 commits, 404 root listing → zeros, not unknowns', async () => {
    serveRepo(server, 'acme/empty', {
      override: {
        commits: { status: 409, body: { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest/commits/commits#list-commits', status: '409' } },
        releases: { body: [] },
        issues: { body: [] },
        contents: { status: 404, body: { message: 'This repository is empty.', documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content', status: '404' } },
      },
      skip: ['tree', 'manifest'],
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: 'empty' }, npmClaim('empty')));
    expect(facts.unknown).toEqual({});
    expect(facts.activity).toEqual({ commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, botCommits90d: 0, botCommits365d: 0, lastCommitAt: null, truncated: false });
    // GitHub said there are no commits: nobody contributed (a fact), not an unknown.
    expect(facts.contributors).toEqual({ count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 0 });
    expect(facts.ci).toEqual({ workflows: 0, otherCi: [], dependencyUpdates: [] });
    expect(facts.link).toEqual({ verifiedBy: null, reason: 'no package.json at the default branch (main)', code: 'not-named' });
    expect(facts.unknown).toEqual({});
    expectNoUnexpected(server);
  });
});

describe('partial failures', () => {
  test.each([
    ['a server error', { status: 500 }, 'commits: HTTP 500 from 127.0.0.1:PORT'],
    ['malformed JSON', { malformed: true }, "commits: GitHub's answer is not valid JSON"],
    ['202 (being computed)', { status: 202, body: {} }, 'commits: GitHub is computing statistics, try again in a minute'],
  ])('the commits request failing with %s leaves activity and contributors unknown with the reason, never zero', async (_label, response, reason) => {
    serveRepo(server, 'acme/widget', { override: { commits: response }, skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    const why = reason.replace('PORT', String(server.port));
    expect(facts.activity).toBeNull();
    expect(facts.contributors).toBeNull();
    expect(facts.unknown).toEqual({ activity: why, contributors: why });
    // No count or second page is asked for without the first page; the other sections are there.
    const commitQueries = server.requests.filter((r) => r.path.startsWith('/github/repos/acme/widget/commits')).map((r) => r.path.split('?')[1]);
    expect(new Set(commitQueries)).toEqual(new Set(['sha=main&per_page=100']));
    expect(facts.releases).not.toBeNull();
    expectNoUnexpected(server);
  });

  test('release notes from a real releases listing (PyGithub, recorded): every published release\'s `body` counts', async () => {
    serveRepo(server, 'acme/widget', { override: { releases: { fixture: 'github/releases/pygithub-page1' } }, skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    // Ten published releases (fewer than a page: the listing is complete), each with hand-written notes; v1.55 the latest.
    expect(facts.releases).toMatchObject({ listed: 10, withNotes: 10, complete: true, latest: { tag: 'v1.55', hasNotes: true } });
  });

  test('a failing secondary request makes only its section unknown', async () => {
    serveRepo(server, 'acme/widget', {
      override: { releases: { malformed: true }, issues: { status: 500 }, community: { body: { health_percentage: 'high' } } },
      skip: ['manifest'],
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.releases).toBeNull();
    expect(facts.responsiveness).toBeNull();
    expect(facts.community).toBeNull();
    expect(facts.unknown).toEqual({
      releases: "releases: GitHub's answer is not valid JSON",
      responsiveness: `issues: HTTP 500 from 127.0.0.1:${server.port}`,
      community: "community profile: GitHub's answer has an unexpected shape at health_percentage",
    });
    expect(facts.activity).not.toBeNull();
    expect(facts.ci).not.toBeNull();
  });

  test.each([150, -3])('a community health percentage of %d, outside 0–100, is unknown: the rest of the profile kept', async (health) => {
    serveRepo(server, 'acme/widget', {
      override: { community: { body: { health_percentage: health, files: { readme: {}, contributing: {}, code_of_conduct: null, issue_template: null, pull_request_template: null } } } },
      skip: ['manifest'],
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.community).toMatchObject({ healthPercentage: null, readme: true, contributing: true });
  });

  test('an unreadable .github listing leaves CI unknown and the SECURITY policy undecided', async () => {
    serveRepo(server, 'acme/widget', { override: { tree: { status: 500 } }, skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.ci).toBeNull();
    expect(facts.unknown.ci).toBe(`.github listing: HTTP 500 from 127.0.0.1:${server.port}`);
    expect(facts.community?.securityPolicy).toBeNull();
  });

  test.each([
    ['malformed JSON', { malformed: true }, "GitHub repository: GitHub's answer is not valid JSON", 'bad-answer'],
    ['a wrong shape', { body: { full_name: 'acme/widget', private: false } }, "GitHub repository: GitHub's answer has an unexpected shape at id", 'bad-answer'],
    ['a server error', { status: 500 }, 'GitHub repository: HTTP 500 from 127.0.0.1:PORT', 'http-status'],
  ])('the repository request failing with %s makes the source unavailable', async (_label, response, reason, code) => {
    server.expect('GET', '/github/repos/acme/widget', response);
    const result = await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: reason.replace('PORT', String(server.port)), code });
    expect(server.requests).toHaveLength(1);
  });

  test('an invalid owner or repository name is refused before any request', async () => {
    const result = await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner: 'acme', name: '..' }, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'not a valid GitHub owner/repository name', code: 'not-asked' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('rate limits', () => {
  test('a spent budget (403, remaining 0) makes the source unavailable with the reset time and the token hint; nothing more is asked', async () => {
    server.expect('GET', '/github/repos/acme/widget', {
      status: 403,
      headers: rateHeaders(0),
      body: { message: 'API rate limit exceeded for 203.0.113.7. (But here\'s the good news: Authenticated requests get a higher rate limit.)', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
    });
    const ctx = contextFor(server, client.http);
    const reason = 'GitHub API rate limit reached (resets at 13:05 UTC); set GITHUB_TOKEN to raise the limit';
    expect(await fetchGithubFacts(ctx, WIDGET, { kind: 'target' })).toEqual({ status: 'unavailable', reason, code: 'rate-limited' });
    expect(server.requests).toHaveLength(1);
    // The limiter is shared by the run (the HTTP client): the next repository is not asked at all.
    expect(await fetchGithubFacts(ctx, { host: 'github.com', owner: 'acme', name: 'other' }, { kind: 'target' })).toEqual({ status: 'unavailable', reason, code: 'rate-limited' });
    expect(server.requests).toHaveLength(1);
    expect(client.sleeps).toEqual([]);
  });

  test('the last request of the budget (200, remaining 0) is used, and nothing is asked after it', async () => {
    serveRepo(server, 'acme/widget', { override: { repo: { fixture: 'github/repos/acme/widget', headers: rateHeaders(0) } } });
    const result = await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub API rate limit reached (resets at 13:05 UTC); set GITHUB_TOKEN to raise the limit', code: 'rate-limited' });
    expect(requestLines(server)).toEqual(['GET /github/repos/acme/widget']);
  });

  test('a stale remaining 0 whose reset has passed (a cached copy) does not stop the run', async () => {
    serveRepo(server, 'acme/widget', { override: { repo: { fixture: 'github/repos/acme/widget', headers: rateHeaders(0, -60) } }, skip: ['manifest'] });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.via.requests).toBe(7);
  });

  test('a secondary limit (403 with Retry-After) is not waited for: unavailable at once, no sleep', async () => {
    server.expect('GET', '/github/repos/acme/widget', {
      status: 403,
      headers: { ...rateHeaders(4321, 3900, 5000), 'retry-after': '3600' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits' },
    });
    const result = await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' });
    expect(result).toEqual({
      status: 'unavailable', code: 'rate-limited',
      reason: 'GitHub secondary rate limit hit (retry after 3600 s); try again later, or set GITHUB_TOKEN to raise the limit',
    });
    expect(server.requests).toHaveLength(1);
    expect(client.sleeps).toEqual([]);
  });

  test('a 429 with a long Retry-After on a later request stops the source too (and is not retried)', async () => {
    serveRepo(server, 'acme/widget', { override: { releases: { status: 429, headers: { 'retry-after': '120' } } }, skip: ['manifest'] });
    const result = await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' });
    expect(result).toEqual({
      status: 'unavailable', code: 'rate-limited',
      reason: 'GitHub secondary rate limit hit (retry after 120 s); try again later, or set GITHUB_TOKEN to raise the limit',
    });
    expect(server.requests.filter((r) => r.path.startsWith('/github/repos/acme/widget/releases'))).toHaveLength(1);
    expect(client.sleeps).toEqual([]);
  });

  test('a 403 that is not a rate limit (a blocked User-Agent) says so, and does not stop the run', async () => {
    server.expect('GET', '/github/repos/acme/widget', {
      status: 403,
      times: 1,
      headers: rateHeaders(50),
      body: { message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).' },
    });
    server.expect('GET', '/github/repos/acme/widget', { status: 404, body: { message: 'Not Found' } });
    const ctx = contextFor(server, client.http);
    const result = await fetchGithubFacts(ctx, WIDGET, { kind: 'target' });
    expect(result).toMatchObject({ status: 'unavailable', code: 'auth-required' });
    expect(result.status === 'unavailable' && result.reason).toMatch(
      /^GitHub repository: GitHub refused the request \(HTTP 403, not a rate limit\): Request forbidden by administrative rules\./,
    );
    expect(factsOf(await fetchGithubFacts(ctx, WIDGET, { kind: 'target' })).state).toBe('missing');
    expect(server.requests).toHaveLength(2);
  });
});

describe('very active repositories', () => {
  /** One commit `hoursAgo` before NOW by `login` (a GitHub account of `type`), or by a git author without an account when `login` is null. */
  function commitAt(i: number, hoursAgo: number, login: string | null, type = 'User'): object {
    const date = new Date(Date.parse('2026-06-01T12:00:00Z') - hoursAgo * 3_600_000).toISOString().replace('.000', '');
    const name = login ?? `someone${i}`;
    return {
      sha: String(i).padStart(40, '0'),
      commit: { author: { name, email: `${name}@example.com`, date }, committer: { name: 'GitHub', email: 'noreply@github.com', date }, message: 'change' },
      author: login === null ? null : { login, id: 5000 + i, type },
    };
  }

  /** `n` commits, one every `stepHours` from `startHours` before NOW, by 20 rotating authors. */
  function commitPage(n: number, startHours: number, stepHours: number): object[] {
    return Array.from({ length: n }, (_, i) => commitAt(i, startHours + i * stepHours, `dev${i % 20}`));
  }

  function answer(res: ServerResponse, body: object[], link?: string): void {
    res.writeHead(200, { 'content-type': 'application/json', ...(link === undefined ? {} : { link }) });
    res.end(JSON.stringify(body));
  }

  test('more than 200 commits in the year: two pages for authors, exact counts from the Link header of per_page=1 listings', async () => {
    serveRepo(server, 'acme/widget', { skip: ['commits', 'manifest'] });
    const base = `${server.url('github')}/repositories/4242/commits`;
    server.route('GET', '/github/repos/acme/widget/commits', (_req, res, { url }) => {
      const q = url.searchParams;
      const since = q.get('since');
      if (q.get('per_page') === '1') {
        const last = since === '2025-06-01T12:00:00Z' ? 650 : 230;
        answer(res, commitPage(1, 1, 1), `<${base}?since=${since}&per_page=1&page=2>; rel="next", <${base}?since=${since}&per_page=1&page=${last}>; rel="last"`);
      } else if (q.get('page') === '2') {
        // Page 2 reaches 83 days back: neither the year nor the 90-day boundary is reached.
        answer(res, commitPage(100, 1000, 10), `<${base}?per_page=100&page=3>; rel="next", <${base}?per_page=100&page=40>; rel="last", <${base}?per_page=100&page=1>; rel="first"`);
      } else {
        answer(res, commitPage(100, 1, 10), `<${base}?per_page=100&page=2>; rel="next", <${base}?per_page=100&page=40>; rel="last"`);
      }
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.activity).toEqual({
      commits90d: 230,
      commits365d: 650,
      authors90d: 20,
      authors365d: 20,
      // No bot among the 200 listed.
      botCommits90d: 0,
      botCommits365d: 0,
      lastCommitAt: '2026-06-01T11:00:00Z',
      truncated: true,
    });
    // The first page's 100 commits: 20 people with 5 each.
    expect(facts.contributors).toEqual({ count: 20, busFactor: 10, topShare: 0.05, basis: 'recent-commits', commitsExamined: 100 });
    const commitQueries = server.requests.filter((r) => r.path.includes('/commits')).map((r) => new URL(r.path, 'http://x').searchParams.toString());
    expect(commitQueries).toEqual([
      'sha=main&per_page=100',
      'sha=main&per_page=100&page=2',
      'sha=main&since=2025-06-01T12%3A00%3A00Z&per_page=1',
      'sha=main&since=2026-03-03T12%3A00%3A00Z&per_page=1',
    ]);
    expectNoUnexpected(server);
  });

  test('100 to 200 commits in the year: the second page reaches past the year, so it is counted without count requests', async () => {
    serveRepo(server, 'acme/widget', { skip: ['commits', 'manifest'] });
    const base = `${server.url('github')}/repositories/4242/commits`;
    server.route('GET', '/github/repos/acme/widget/commits', (_req, res, { url }) => {
      // Page 1: one commit a day, 1 h to 99 days back; page 2: one every 3 days from 100 days back, 89 of them within the year.
      if (url.searchParams.get('page') === '2') answer(res, commitPage(100, 2401, 72), `<${base}?per_page=100&page=3>; rel="next", <${base}?per_page=100&page=9>; rel="last"`);
      else answer(res, commitPage(100, 1, 24), `<${base}?per_page=100&page=2>; rel="next", <${base}?per_page=100&page=9>; rel="last"`);
    });
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    expect(facts.activity).toEqual({
      commits90d: 90,
      commits365d: 189,
      authors90d: 20,
      authors365d: 20,
      botCommits90d: 0,
      botCommits365d: 0,
      lastCommitAt: '2026-06-01T11:00:00Z',
      truncated: false,
    });
    const commitQueries = server.requests.filter((r) => r.path.includes('/commits')).map((r) => new URL(r.path, 'http://x').searchParams.toString());
    expect(commitQueries).toEqual(['sha=main&per_page=100', 'sha=main&per_page=100&page=2']);
    expectNoUnexpected(server);
  });

  test('the newest 100 commits are the contributors: people with a GitHub account, bots and unlinked authors left out', async () => {
    serveRepo(server, 'acme/widget', { skip: ['commits', 'manifest'] });
    const commits = [
      ...Array.from({ length: 60 }, (_, i) => commitAt(i, 1 + i, 'lead')),
      ...Array.from({ length: 15 }, (_, i) => commitAt(60 + i, 61 + i, 'renovate[bot]', 'Bot')),
      ...Array.from({ length: 10 }, (_, i) => commitAt(75 + i, 76 + i, null)),
      ...Array.from({ length: 15 }, (_, i) => commitAt(85 + i, 86 + i, `dev${i}`)),
    ];
    // A whole history of 100 commits: no `Link` header, nothing more to ask.
    server.route('GET', '/github/repos/acme/widget/commits', (_req, res) => answer(res, commits));
    const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' }));
    // lead 60 and 15 people with one each: lead alone made 80 % of the 75.
    expect(facts.contributors).toEqual({ count: 16, busFactor: 1, topShare: 0.8, basis: 'recent-commits', commitsExamined: 100, unlinked: 10 });
    expect(facts.activity).toMatchObject({ commits365d: 100, authors365d: 26, truncated: false });
    expect(requestLines(server).filter((line) => line.includes('/commits') || line.includes('/contributors'))).toEqual(['GET /github/repos/acme/widget/commits']);
    expectNoUnexpected(server);
  });
});

describe('GitHub Enterprise', () => {
  test('a repository on the GITHUB_SERVER_URL host is asked from its own API', async () => {
    const endpoints = endpointsFor(server, {
      githubServer: { host: 'ghe.example.test', api: `${server.url('ghe')}/api/v3`, graphql: `${server.url('ghe')}/api/graphql` },
    });
    server.expect('GET', '/ghe/api/v3/repos/team/tool', { status: 404, body: { message: 'Not Found' } });
    const result = await fetchGithubFacts(contextFor(server, client.http, null, endpoints), { host: 'ghe.example.test', owner: 'team', name: 'tool' }, { kind: 'target' });
    expect(factsOf(result).state).toBe('missing');
    expect(requestLines(server)).toEqual(['GET /ghe/api/v3/repos/team/tool']);
  });

  test('a repository on another host has no API', async () => {
    const result = await fetchGithubFacts(contextFor(server, client.http), { host: 'gitlab.com', owner: 'team', name: 'tool' }, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'no GitHub API is configured for gitlab.com', code: 'not-asked' });
  });
});

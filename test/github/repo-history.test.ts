/**
 * When a repository's history starts (sources/github/repo-history.ts), against the fixture
 * server: the first page of two commits and its `Link` header's last page, then that page — two
 * requests, one when the history fits on a page — and every way GitHub can fail to say, which
 * leaves the history unknown with the reason, never dated from the newest commits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoBase } from '../../src/sources/github/rest.js';
import { restHistory } from '../../src/sources/github/repo-history.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { commitsLink, githubCallFor, HISTORY_ROUTES, serveHistory, widgetCommits } from './helpers.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

const call = (): GithubCall => githubCallFor(server);

async function history() {
  const c = call();
  const { history: got, head } = await restHistory(c, repoBase(c.api, 'acme/widget'), 'main');
  return { got, head, requests: c.counter.requests };
}

const FIRST = `/github/repos/acme/widget${HISTORY_ROUTES.history}`;

describe('restHistory', () => {
  it('dates the oldest commit from the last page the Link header names, and counts the commits: two requests', async () => {
    serveHistory(server, 'acme/widget');
    const { got, head, requests } = await history();
    // acme/widget's 11 commits: 5 full pages before the last, which holds the oldest (2024-12-03).
    expect(got).toEqual({ firstCommitAt: '2024-12-03T12:00:00.000Z', commits: 11, reason: null });
    expect(requests).toBe(2);
    // The first page's newest commit and its root tree, for raw reads pinned to it (repo-files.ts).
    expect(head).toEqual({ commit: 'a1'.repeat(20), tree: '1a'.repeat(20) });
  });

  it('a first page whose newest commit names no sha or tree gives no head (the history all the same)', async () => {
    serveHistory(server, 'acme/widget', { history: { body: widgetCommits().slice(0, 2).map(({ commit }) => ({ commit: { ...(commit as object), tree: null } })), headers: { link: commitsLink(1, 6) } } });
    const { got, head } = await history();
    expect(got.commits).toBe(11);
    expect(head).toBeNull();
  });

  it('a one-commit history fits on the first page: no Link header, one request', async () => {
    server.expect('GET', FIRST, { body: widgetCommits().slice(10) });
    const { got, requests } = await history();
    expect(got).toEqual({ firstCommitAt: '2024-12-03T12:00:00.000Z', commits: 1, reason: null });
    expect(requests).toBe(1);
  });

  it('the earliest date on the last page governs (a merge of two roots: author or committer, whichever is earlier)', async () => {
    const page = [
      { commit: { author: { date: '2024-12-05T00:00:00Z' }, committer: { date: '2024-12-06T00:00:00Z' } } },
      { commit: { author: { date: '2024-11-30T00:00:00Z' }, committer: { date: '2024-12-04T00:00:00Z' } } },
    ];
    serveHistory(server, 'acme/widget', { oldest: { body: page } });
    expect((await history()).got).toMatchObject({ firstCommitAt: '2024-11-30T00:00:00.000Z', commits: 12 });
  });

  const unknown: Array<[string, Parameters<typeof serveHistory>[2], RegExp]> = [
    ['a full first page without a Link header (a proxy dropped it)', { history: { body: widgetCommits().slice(0, 2) } }, /no Link header/],
    [
      "an older GitHub's Link without a last page (next by last_sha, first)",
      {
        history: {
          body: widgetCommits().slice(0, 2),
          headers: { link: '<https://api.github.com/repos/acme/widget/commits?last_sha=c1440bdf20bfeb62684c6d1779448719dce9d2df&top=main>; rel="next", <https://api.github.com/repos/acme/widget/commits?sha=main>; rel="first"' },
        },
      },
      /names no last page/,
    ],
    ['an empty repository (409)', { history: { status: 409, body: { message: 'Git Repository is empty.' } } }, /empty \(GitHub answered 409\)/],
    ['an empty listing', { history: { body: [] } }, /no commits/],
    ['more commits than asked for', { history: { body: widgetCommits().slice(0, 5), headers: { link: commitsLink(1, 6) } } }, /listed 5 commits where 2/],
    ['a last page that fails', { oldest: { status: 404, body: { message: 'Not Found' } } }, /HTTP 404|404/],
    ['a last page without dates', { oldest: { body: [{ commit: { author: null, committer: null } }] } }, /no date/],
    ['an answer of the wrong shape', { history: { body: { commits: [] } } }, /unexpected shape/],
  ];
  for (const [name, override, reason] of unknown) {
    it(`${name}: unknown, with the reason`, async () => {
      serveHistory(server, 'acme/widget', override);
      const { got } = await history();
      expect(got.firstCommitAt).toBeNull();
      expect(got.commits).toBeNull();
      expect(got.reason).toMatch(reason);
    });
  }
});

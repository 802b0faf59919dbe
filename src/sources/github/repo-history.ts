/**
 * When a repository target's history starts: the date of its oldest commit on the default branch
 * and how many commits the branch has, from GitHub's REST commits listing (docs/scoring.md §9,
 * "Maturity"). Two requests at most:
 *
 *  1. `GET …/commits?sha=<branch>&per_page=2` — its `Link` header's `rel="last"` page is the page
 *     holding the oldest commits (GitHub lists a branch's commits newest first);
 *  2. `GET …/commits?sha=<branch>&per_page=2&page=<last>` — that page; the earliest date on it is
 *     the history's start, and 2 × (last − 1) + its length is the number of commits.
 *
 * The first page's newest commit (its sha and root tree) is handed back beside the history.
 *
 * A listing that fits on the first page needs no second request: fewer than 2 commits and no
 * `Link` header is the whole history. Anything else without a usable `rel="last"` (2 commits and
 * no header: a proxy may have dropped it; a `Link` without `last`), an empty repository (409),
 * a failure or an answer of the wrong shape leaves the history unknown with the reason — never a
 * guess from the newest commits.
 */
import { z } from 'zod';
import type { GithubHistory } from '../../evidence/github-facts.js';
import { joinUrl, withQuery } from '../http/url.js';
import { lastPageOf, type GithubCall } from './request.js';
import { getJson } from './rest.js';

/** Commits per page: 2, so that one commit alone on its page tells a one-commit history from a missing `Link` header. */
export const HISTORY_PER_PAGE = 2;
const MAX_HISTORY_BYTES = 256 * 1024;

const Dated = z.object({ date: z.string().nullish() }).nullish();
const HistoryPageSchema = z.array(
  z.object({
    sha: z.string().optional(),
    commit: z.object({ author: Dated, committer: Dated, tree: z.object({ sha: z.string() }).nullish() }),
  }),
);

/** The branch's newest commit and its root tree, as the history's first page names them (null when it does not). */
export interface HistoryHead {
  commit: string;
  tree: string;
}

/** The earliest author or committer date on a page (ISO), or null when none parses. */
function earliest(page: z.infer<typeof HistoryPageSchema>): string | null {
  let best: { at: number; iso: string } | null = null;
  for (const item of page) {
    for (const iso of [item.commit.author?.date, item.commit.committer?.date]) {
      if (typeof iso !== 'string') continue;
      const at = Date.parse(iso);
      if (Number.isFinite(at) && (best === null || at < best.at)) best = { at, iso: new Date(at).toISOString() };
    }
  }
  return best?.iso ?? null;
}

function unknown(reason: string): GithubHistory {
  return { firstCommitAt: null, commits: null, reason };
}

function known(page: z.infer<typeof HistoryPageSchema>, commitsBefore: number): GithubHistory {
  const firstCommitAt = earliest(page);
  if (firstCommitAt === null) return unknown('GitHub gave the oldest commits no date');
  return { firstCommitAt, commits: commitsBefore + page.length, reason: null };
}

/** The history, and the branch's newest commit with its tree (repo-files.ts pins raw reads to it when that tree is the one listed). */
export async function restHistory(call: GithubCall, base: string, branch: string): Promise<{ history: GithubHistory; head: HistoryHead | null }> {
  let head: HistoryHead | null = null;
  const history = await historyOf(call, base, branch, (page) => {
    const newest = page[0];
    if (newest?.sha !== undefined && typeof newest.commit.tree?.sha === 'string') head = { commit: newest.sha, tree: newest.commit.tree.sha };
  });
  return { history, head };
}

async function historyOf(call: GithubCall, base: string, branch: string, onFirst: (page: z.infer<typeof HistoryPageSchema>) => void): Promise<GithubHistory> {
  const url = (page?: number) => withQuery(joinUrl(base, 'commits'), { sha: branch, per_page: HISTORY_PER_PAGE, page });
  const first = await getJson(call, url(), HistoryPageSchema, 'commit history', { maxBytes: MAX_HISTORY_BYTES, empty: [] });
  if (!first.ok) {
    if (first.status === 409) return unknown('the repository is empty (GitHub answered 409): it has no history to date');
    return unknown(first.reason);
  }
  onFirst(first.value);
  if (first.value.length === 0) return unknown('GitHub listed no commits on the default branch');
  if (first.value.length > HISTORY_PER_PAGE) return unknown(`commit history: GitHub listed ${first.value.length} commits where ${HISTORY_PER_PAGE} were asked`);
  const link = first.headers.link;
  const last = lastPageOf(link);
  if (last === null) {
    // No more pages only when GitHub says so by listing fewer than a page and no Link at all.
    if (link === undefined && first.value.length < HISTORY_PER_PAGE) return known(first.value, 0);
    return unknown(
      link === undefined
        ? "commit history: GitHub's answer carries no Link header, so the oldest commit cannot be found"
        : 'commit history: the Link header names no last page',
    );
  }
  if (last <= 1) return known(first.value, 0);
  const oldest = await getJson(call, url(last), HistoryPageSchema, 'commit history', { maxBytes: MAX_HISTORY_BYTES });
  if (!oldest.ok) return unknown(oldest.reason);
  if (oldest.value.length === 0 || oldest.value.length > HISTORY_PER_PAGE) return unknown(`commit history: the last page lists ${oldest.value.length} commits`);
  return known(oldest.value, HISTORY_PER_PAGE * (last - 1));
}

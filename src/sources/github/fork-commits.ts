/**
 * A fork target's own commits (docs/scoring.md §9, "A fork"): one request to GitHub's comparison
 * of the parent's default branch with the fork's,
 *
 *   `GET /repos/{parent}/compare/{parentBranch}...{forkOwner}:{forkBranch}`,
 *
 * whose `ahead_by` commits are on the fork's branch and not on the parent's — the fork's own —
 * and `behind_by` the other way round; `commits` lists the own ones (at most 250, whatever the
 * order). From the listed ones: counts in 90 / 365 days, the newest date, and the contributors
 * over the newest 100, as the branch's own facts are counted (summaries.ts).
 *
 * Asked only for a fork whose parent and its default branch GitHub named (names.ts
 * `forkParentBranch`), with both branch names within the set nerq compares. A failure, a 4xx or
 * 5xx, an answer over the size cap or of another shape — a status its counts contradict, more
 * commits listed than `ahead_by`, own commits and none listed — gives null with the reason: the
 * fork's facts then stay the copied ones, unknown, never credited.
 */
import { z } from 'zod';
import type { GithubForkCommits, GithubRepository } from '../../evidence/github-facts.js';
import { joinUrl } from '../http/url.js';
import { comparableBranch, validGithubNames } from './names.js';
import type { GithubCall } from './request.js';
import { getJson, repoBase } from './rest.js';
import { isFutureTime } from '../../checks/lib/releases.js';
import { commitAuthor, commitIdentity, isBotCommit, summariseActivity, summariseRecentContributors, type CommitAuthor, type CommitInfo } from './summaries.js';

/** A comparison lists at most 250 commits, each with its author and committer objects, and up to 300 changed files with their patches. */
const MAX_COMPARE_BYTES = 8 * 1024 * 1024;

const Actor = z.object({ login: z.string(), type: z.string().optional() });
const GitPerson = z.object({ name: z.string().nullish(), email: z.string().nullish(), date: z.string().nullish() });

const CompareSchema = z.object({
  status: z.enum(['ahead', 'behind', 'diverged', 'identical']),
  ahead_by: z.number().int().nonnegative(),
  behind_by: z.number().int().nonnegative(),
  commits: z.array(
    z.object({
      commit: z.object({ author: GitPerson.nullish(), committer: GitPerson.nullish() }),
      author: Actor.nullish(),
    }),
  ),
});
type Compare = z.infer<typeof CompareSchema>;

export type ForkCommitsResult = { ok: true; value: GithubForkCommits } | { ok: false; reason: string };

/** Whether `status` is what the counts say (GitHub's own rule); an answer where it is not is of another shape. */
function consistent(answer: Compare): boolean {
  const { status, ahead_by: ahead, behind_by: behind } = answer;
  if (answer.commits.length > ahead) return false;
  if (ahead > 0 && answer.commits.length === 0) return false;
  switch (status) {
    case 'identical':
      return ahead === 0 && behind === 0;
    case 'ahead':
      return ahead > 0 && behind === 0;
    case 'behind':
      return ahead === 0 && behind > 0;
    case 'diverged':
      return ahead > 0 && behind > 0;
  }
}

/** The parent, its branch and the fork's, when the comparison may be asked; else why not. */
export function comparisonOf(repository: GithubRepository): { parent: string; base: string; head: string } | string {
  if (!repository.fork) return 'the repository is no fork';
  const { parent, parentBranch } = repository;
  if (parent === null) return 'GitHub does not name the parent';
  if (parentBranch === null) return "GitHub does not name the parent's default branch";
  const owner = repository.fullName.split('/')[0] ?? '';
  if (!validGithubNames(owner, 'x') || !comparableBranch(repository.defaultBranch) || !comparableBranch(parentBranch)) {
    return 'a branch name nerq does not compare';
  }
  return { parent, base: parentBranch, head: `${owner}:${repository.defaultBranch}` };
}

export async function forkOwnCommits(call: GithubCall, repository: GithubRepository): Promise<ForkCommitsResult> {
  const asked = comparisonOf(repository);
  if (typeof asked === 'string') return { ok: false, reason: asked };
  // The names are checked above (no `..`, `:` or characters a URL would escape): the basehead goes in as is.
  const url = `${joinUrl(repoBase(call.api, asked.parent), 'compare')}/${asked.base}...${asked.head}`;
  const got = await getJson(call, url, CompareSchema, 'fork comparison', { maxBytes: MAX_COMPARE_BYTES });
  if (!got.ok) return { ok: false, reason: got.reason };
  const answer = got.value;
  if (!consistent(answer)) {
    return { ok: false, reason: `fork comparison: GitHub's answer does not add up (${answer.status}, ${answer.ahead_by} ahead, ${answer.behind_by} behind, ${answer.commits.length} listed)` };
  }
  const infos: CommitInfo[] = [];
  const authors: { at: number; author: CommitAuthor }[] = [];
  for (const item of answer.commits) {
    const person = item.commit.author;
    const at = item.commit.committer?.date ?? person?.date ?? null;
    const author = commitAuthor(item.author?.login, item.author?.type, person?.email, person?.name);
    const time = at === null ? Number.NaN : Date.parse(at);
    authors.push({ at: Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY, author });
    if (at === null || !Number.isFinite(time)) continue;
    infos.push({
      author: commitIdentity(item.author?.login, person?.email, person?.name),
      bot: isBotCommit(item.author?.login, item.author?.type, person?.email, person?.name),
      at: new Date(time).toISOString(),
    });
  }
  // Newest first, whatever order GitHub listed them in.
  infos.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  authors.sort((a, b) => b.at - a.at);
  const listed = answer.commits.length;
  const activity = summariseActivity({
    now: call.now,
    sample: infos,
    complete: listed === answer.ahead_by,
    count365: null,
    count90: null,
    lastCommitAt: newestNotFuture(infos, call.now),
  });
  return {
    ok: true,
    value: {
      parent: asked.parent,
      base: asked.base,
      status: answer.status,
      aheadBy: answer.ahead_by,
      behindBy: answer.behind_by,
      listed,
      activity,
      contributors: summariseRecentContributors(authors.map((a) => a.author)),
    },
  };
}

/** The newest listed date not in the future (isFutureTime: a later one is whatever the committer set, no date). */
function newestNotFuture(infos: readonly CommitInfo[], now: Date): string | null {
  return infos.find((info) => !isFutureTime(new Date(info.at), now))?.at ?? null;
}

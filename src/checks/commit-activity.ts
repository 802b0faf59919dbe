/**
 * commit-activity: whether people still work on the source repository — commits on the
 * default branch in the last 90 and 365 days, and how many distinct people made them.
 * A declared repository that does not exist is scored here (once), not in every GitHub check.
 */
import type { GithubActivity, GithubForkCommits } from '../evidence/schema.js';
import type { CheckOutcome, EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { countBandProse } from './lib/band-prose.js';
import { FINISHED_FLOOR, unmetFinishedCriteria } from './lib/finished.js';
import { absenceReason, forkCopied, GITHUB_FORK_MESSAGES, GITHUB_UNKNOWN_MESSAGES, listedNote, ownForkCommits, readPresentGithub } from './lib/github.js';
import { isFutureTime, parseTime, wholeDaysBetween } from './lib/releases.js';

/** Commits in the last 90 days: at least this many → score. */
export const RECENT_BANDS: readonly (readonly [minCommits: number, score: number])[] = [
  [10, 100],
  [3, 90],
  [1, 75],
];
/** No commit in 90 days, but at least this many in 365 → score. */
export const YEAR_BANDS: readonly (readonly [minCommits: number, score: number])[] = [
  [10, 55],
  [1, 40],
];
/** No commit in 365 days. */
export const DORMANT_SCORE = 10;
/** Taken off when a single person made every commit of the last 365 days. */
export const SINGLE_AUTHOR_PENALTY = 10;

function band(bands: typeof RECENT_BANDS, commits: number): number | null {
  for (const [min, score] of bands) if (commits >= min) return score;
  return null;
}

/**
 * The commits that count as maintenance: those by people. Bots' commits (dependency updates,
 * automation) keep a branch moving without anyone tending it, so they are left out; evidence
 * saved before the bots' commits were recorded counts every commit.
 */
export function countedCommits(activity: GithubActivity): { commits90d: number; commits365d: number } {
  return {
    commits90d: Math.max(0, activity.commits90d - (activity.botCommits90d ?? 0)),
    commits365d: Math.max(0, activity.commits365d - (activity.botCommits365d ?? 0)),
  };
}

/** The score for the commit counts alone (before the single-author deduction). */
export function activityScore(activity: Pick<GithubActivity, 'commits90d' | 'commits365d'>): number {
  return band(RECENT_BANDS, activity.commits90d) ?? band(YEAR_BANDS, activity.commits365d) ?? DORMANT_SCORE;
}

/** What the message adds when bots' commits were left out: how many (over a truncated listing, at least how many). */
function botNote(activity: GithubActivity, counted: { commits365d: number }): string {
  const bots = activity.commits365d - counted.commits365d;
  if (bots <= 0) return '';
  const atLeast = activity.truncated ? 'at least ' : '';
  return bots === 1 ? `; ${atLeast}1 commit by a bot not counted` : `; ${atLeast}${bots} commits by bots not counted`;
}

/** The score of a fork's own commits (counts, then the single-author deduction), never above what its branch's commits score. */
function ownScore(own: GithubForkCommits, branchScore: number): number {
  const counted = countedCommits(own.activity);
  const singleAuthor = counted.commits365d > 0 && own.activity.authors365d === 1;
  return Math.min(branchScore, Math.max(DORMANT_SCORE, activityScore(counted) - (singleAuthor ? SINGLE_AUTHOR_PENALTY : 0)));
}

/**
 * A fork whose own commits GitHub told apart: with none of its own (identical to its parent or
 * behind it) its maintenance stays unknown, as the copied commits leave it; with some, they are
 * scored, never above the branch's score.
 */
function ownActivity(own: GithubForkCommits, copied: CheckOutcome<'fork-copied'>, branchScore: number, now: Date): CheckOutcome<'fork-no-own-commits' | 'fork-own-commits'> {
  const data: Record<string, EvidenceValue> = { ...copied.data, comparedWith: `${own.parent}@${own.base}`, status: own.status, aheadBy: own.aheadBy, behindBy: own.behindBy, listed: own.listed };
  if (own.aheadBy === 0) return { ...copied, messageId: 'fork-no-own-commits', data };
  const last = parseTime(own.activity.lastCommitAt);
  return {
    score: ownScore(own, branchScore),
    messageId: 'fork-own-commits',
    data: {
      ...data,
      ownCommits90d: own.activity.commits90d,
      ownCommits365d: own.activity.commits365d,
      ownAuthors: authorsLabel(own.activity.authors365d),
      ownLastCommitAt: own.activity.lastCommitAt,
      ownLastCommit: last === null || isFutureTime(last, now) ? 'unknown' : `${wholeDaysBetween(last, now)} days ago`,
      ownTruncated: own.activity.truncated,
      listedNote: listedNote(own),
    },
  };
}

function authorsLabel(authors: number | null): string {
  if (authors === null) return 'an unknown number of authors';
  // Commits with no author a GitHub account names (bots, or a mail address alone) are still commits.
  if (authors === 0) return 'no identified author';
  return authors === 1 ? '1 author' : `${authors} authors`;
}

export default defineCheck({
  id: 'commit-activity',
  dimension: 'maintenance',
  weight: 3,
  needs: ['github'],
  optional: ['registry', 'tarball', 'pypi'],
  title: 'Commit activity',
  description:
    `Counts commits by people on the default branch of the verified repository (bots' commits — dependency updates, automation — are not maintenance and are left out; with none by a person in the year: \`bots-only\`, scored as none; none dated in the year and the newest dated in the future: unknown, \`future-dated\`): in the last 90 days ${countBandProse(RECENT_BANDS, 'scores')}; otherwise in the last 365 days ${countBandProse(YEAR_BANDS, 'scores')}, none ${DORMANT_SCORE}; ${SINGLE_AUTHOR_PENALTY} points come off when one person made every commit of the year (distinct non-bot authors). ` +
    'A finished npm package (see the finished-package rule) scores at least 70 however quiet its repository. ' +
    'A declared repository that does not exist (404) or is blocked (451) scores 0 here, and the other GitHub checks are unknown; a fork\'s branch carries its parent\'s commits, so unless it shows no commit in the year its activity is unknown (`fork-copied`: the maintenance dimension no higher than the commits would score) and holds the verdict at CAUTION at best; for a fork target GitHub compares with its parent, its own commits are scored instead by the same bands, never above the branch\'s score (none of its own: unknown), and the hold stays.',
  messages: {
    active: '{counted90d} commits in the last 90 days ({counted365d} in 365 days by {authors}{botNote})',
    slowing: 'No commit in the last 90 days; {counted365d} in 365 days by {authors}{botNote}',
    dormant: 'No commit on {branch} in the last 365 days (last commit: {lastCommit})',
    'future-dated': 'Unknown: no commit on {branch} is dated in the last 365 days, and its newest is dated in the future ({lastCommit}): when it was made cannot be told',
    'bots-only': 'No commit by a person on {branch} in the last 365 days: its {commits365d} commits of the year are bots\' (dependency updates and automation are not maintenance)',
    'fork-own-commits': '{repository} is a fork of {parent} with {aheadBy} commits of its own: {ownCommits90d} in the last 90 days, {ownCommits365d} in 365 days by {ownAuthors} (newest {ownLastCommit}{listedNote}); check the parent too: {parentCheck}',
    'fork-no-own-commits': 'Unknown: {repository} is a fork of {parent} with no commits of its own ({status}, {behindBy} behind): the commits on its branch are the parent\'s (check the parent: {parentCheck})',
    finished: 'Quiet repository ({commits365d} commits in 365 days) — a small, stable 1.x+ package; rare changes are expected',
    missing: 'The declared source repository {declared} does not exist ({reason})',
    blocked: 'The declared source repository {declared} is blocked ({reason})',
    ...GITHUB_FORK_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github, registry, tarball, pypi }, { now }) => {
    if (github.state !== 'present') {
      const declared = registry?.repository?.url ?? registry?.repository?.raw ?? pypi?.repository?.url ?? null;
      const data: Record<string, EvidenceValue> = {
        state: github.state,
        reason: absenceReason(github),
        declaredRepository: declared,
        declared: declared ?? 'named by the package',
      };
      return { score: 0, messageId: github.state === 'missing' ? 'missing' : 'blocked', data };
    }
    const read = readPresentGithub(github, ['activity']);
    if (!read.ok) return read.outcome;
    const { activity } = read.sections;
    const lastCommit = parseTime(activity.lastCommitAt);
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      branch: read.repository.defaultBranch,
      commits90d: activity.commits90d,
      commits365d: activity.commits365d,
      authors90d: activity.authors90d,
      authors365d: activity.authors365d,
      authors: authorsLabel(activity.authors365d),
      lastCommitAt: activity.lastCommitAt,
      // A commit dated in the future is whatever its committer set: shown as such, never "0 days ago".
      lastCommit: lastCommit === null ? 'unknown' : isFutureTime(lastCommit, now) ? `dated in the future (${lastCommit.toISOString().slice(0, 10)})` : `${wholeDaysBetween(lastCommit, now)} days ago`,
      truncated: activity.truncated,
    };
    const commits = countedCommits(activity);
    data.counted90d = commits.commits90d;
    data.counted365d = commits.commits365d;
    data.botNote = botNote(activity, commits);
    const counted = activityScore(commits);
    const singleAuthor = commits.commits365d > 0 && activity.authors365d === 1;
    data.singleAuthor = singleAuthor;
    const score = Math.max(DORMANT_SCORE, counted - (singleAuthor ? SINGLE_AUTHOR_PENALTY : 0));
    // The newest commit dated in the future and none in the year: the committer's clock is wrong, not the branch quiet.
    if (activity.commits365d === 0 && lastCommit !== null && isFutureTime(lastCommit, now)) return { score: null, messageId: 'future-dated', data };
    const messageId = commits.commits90d > 0 ? 'active' : commits.commits365d > 0 ? 'slowing' : activity.commits365d > 0 ? 'bots-only' : 'dormant';
    // A fork's commits of the year may all be its parent's: no commit at all is what the fork shows too.
    const fork = messageId === 'dormant' || messageId === 'bots-only' ? null : forkCopied(read.repository, data, { check: 'commit-activity', dimension: 'maintenance', score });
    if (fork !== null) {
      const check = String(fork.data?.parentCheck);
      // GitHub's comparison with the parent told the fork's own commits apart (a repository target).
      const own = ownForkCommits(github, read.repository);
      if (own !== null && own.aheadBy > 0) {
        // Its own commits are its own, but the project it builds on is still the parent's: the hold stays.
        return { ...ownActivity(own, fork, score, now), holdVerdict: `a fork's own commits are judged here, but most of its code is its parent's; compare it with its parent (${check})` };
      }
      const outcome = own === null ? fork : ownActivity(own, fork, score, now);
      return { ...outcome, holdVerdict: `the commits on a fork's branch include its parent's, so its own maintenance is unknown; compare it with its parent (${check})` };
    }
    if (score < FINISHED_FLOOR && registry !== undefined) {
      const unmet = unmetFinishedCriteria(registry, now, tarball);
      if (unmet.length === 0) return { score: FINISHED_FLOOR, messageId: 'finished', data: { ...data, finished: true } };
      return { score, messageId, data: { ...data, finished: false, unmetFinishedCriteria: unmet } };
    }
    return { score, messageId, data };
  },
});

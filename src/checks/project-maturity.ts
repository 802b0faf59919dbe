/**
 * project-maturity: whether a repository target has history enough to judge, and whether it
 * publishes versions at a pace its users can review (the `repository` view; docs/scoring.md §9,
 * "Maturity"). A project weeks old is a finding in days, not a pass.
 *
 * Its age is the shorter of two clocks: the days since GitHub created the repository (GitHub
 * sets that date) and the days since its first commit (the committer sets that one). A history
 * that starts recently makes a project young whatever its repository's creation date (a
 * repository emptied and refilled, a history rewritten); commits dated before the repository
 * existed (an import, a fork, or a made-up past — the cheapest disguise a new project has) are
 * shown but never make it older. When the first commit's date is unknown an old repository's
 * age is unknown too: its history may start last week.
 *
 * Churn: version tags per week over that age, and releases per week over the last
 * RECENT_RELEASE_DAYS days (releases carry GitHub's publication dates), so a five-year-old
 * repository that suddenly publishes 31 versions in two weeks is held. A repository with fewer
 * GitHub releases than version tags (one that tags without publishing releases), or whose releases
 * listing failed, is judged over the last RECENT_RELEASE_DAYS days by its dated version tags as well
 * (files.tagDates, read with a token, apart from the releases): a tag's date is whatever its tagger or committer set, so dated tags can only hold the
 * verdict (churn) or be reported — they never lift a score, never make the project older, and when
 * they are unknown the pace of those days is said to be unknown, never counted as calm. The time
 * since the first release is reported, not scored.
 */
import { RECENT_RELEASE_DAYS } from '../evidence/github-facts.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { formatNumber } from './lib/format-number.js';
import { DAY_MS, isFutureTime } from './lib/releases.js';

/** Below this many days of history there is too little to judge at all. */
export const TOO_YOUNG_DAYS = 30;
/** Below this many days a project is young: its record says little yet. */
export const YOUNG_DAYS = 90;
/** More version tags (or releases) a week than this, over at least CHURN_MIN_TAGS of them, is churn nobody can review. */
export const CHURN_TAGS_PER_WEEK = 3;
export const CHURN_MIN_TAGS = 10;

/** Whole days since `iso`; null when absent, unparseable or in the future beyond the tolerated clock skew (an invalid date, not a young project). */
function daysSince(iso: string | null | undefined, now: Date): number | null {
  if (iso === null || iso === undefined) return null;
  const at = Date.parse(iso);
  return Number.isNaN(at) || isFutureTime(new Date(at), now) ? null : Math.max(0, Math.floor((now.getTime() - at) / DAY_MS));
}

const perWeek = (count: number, days: number): number => Math.round((count / Math.max(1, days / 7)) * 10) / 10;

/** Within the last `days` days of `now` (and not after it by more than the source allowed). */
const withinDays = (iso: string, now: Date, days: number): boolean => {
  const at = Date.parse(iso);
  return Number.isFinite(at) && at >= now.getTime() - days * DAY_MS;
};
const day = (iso: string): string => new Date(Date.parse(iso)).toISOString().slice(0, 10);

export default defineCheck({
  id: 'project-maturity',
  dimension: 'maintenance',
  weight: 2,
  needs: ['repository'],
  title: 'Project maturity',
  description:
    "For a `github:` target: the project's age — the shorter of the days since GitHub created the repository and the days since its first commit (commit dates before the repository existed are not counted) — and its release churn. " +
    `Under ${TOO_YOUNG_DAYS} days scores 20 and under ${YOUNG_DAYS} days 50, both holding the verdict at CAUTION (history too short to judge, said in days); more than ${CHURN_TAGS_PER_WEEK} version tags a week over that age, or releases a week over the last ${RECENT_RELEASE_DAYS} days (at least ${CHURN_MIN_TAGS} either way), scores at most 40 and holds the verdict; otherwise 100; a repository with fewer GitHub releases than version tags (or whose releases could not be listed) is also judged by its version tags dated in the last ${RECENT_RELEASE_DAYS} days (with GITHUB_TOKEN: tagger or commit dates, which can hold the verdict but never lift a score; without dates that pace is reported unknown). ` +
    'Unknown when GitHub gives no creation date (or one more than a day in the future), or when an older repository\'s first commit cannot be dated; a release dated more than a day in the future counts as undated (its count of recent releases becomes a lower bound).',
  messages: {
    'too-young': '{days} days of history ({since}): too short to judge',
    young: '{days} days of history ({since}): a young project',
    churn: '{tags} version tags in {days} days ({perWeek} a week)',
    'release-churn': '{releasesRecent} releases in the last {recentWindowDays} days ({releasesPerWeek} a week)',
    'tag-churn': '{tagsRecent} version tags dated in the last {recentWindowDays} days ({tagsRecentPerWeek} a week)',
    established: '{days} days of history, {tags} version tags, {firstRelease}{tagPace}',
    'history-unknown': 'On GitHub for {createdDays} days; when its history starts is unknown ({historyReason})',
    'age-unknown': 'Project age unknown: GitHub gave no creation date',
  },
  evaluate: ({ repository }, ctx) => {
    const { now } = ctx;
    const created = repository.repository.createdAt;
    const history = repository.files.history;
    const releases = repository.releases;
    const createdDays = daysSince(created, now);
    const firstCommitAt = history?.firstCommitAt ?? null;
    const historyDays = daysSince(firstCommitAt, now);
    const known = [createdDays, historyDays].filter((d): d is number => d !== null);
    const days = known.length === 0 ? null : Math.min(...known);

    const tags = repository.files.tags;
    const tagsPerWeek = tags === null || days === null ? null : perWeek(tags.count, days);
    const tagChurn = tags !== null && tagsPerWeek !== null && tags.count >= CHURN_MIN_TAGS && tagsPerWeek > CHURN_TAGS_PER_WEEK;

    // Releases over the last RECENT_RELEASE_DAYS days (or the project's whole life when shorter).
    const recent = releases?.recent ?? null;
    const window = Math.min(RECENT_RELEASE_DAYS, Math.max(1, days ?? RECENT_RELEASE_DAYS));
    // Releases dated in the future are undated: when they were published is unknown, so the count is a lower bound.
    const futureDated = releases?.futureDated ?? 0;
    const recentAtLeast = recent !== null && ((releases?.complete !== true && recent === releases?.listed) || futureDated > 0);
    const releasesPerWeek = recent === null ? null : perWeek(recent, window);
    const releaseChurn = recent !== null && releasesPerWeek !== null && recent >= CHURN_MIN_TAGS && releasesPerWeek > CHURN_TAGS_PER_WEEK;

    // Fewer releases than version tags, or a releases listing that failed: the releases alone can
    // miss a burst of tags, so the version tags' own dates (set by whoever tagged, read apart from
    // the releases) judge the last RECENT_RELEASE_DAYS days too.
    const releasesKnown = releases !== null && releases.listed !== undefined;
    const tagsFillIn = tags !== null && tags.count > 0 && (!releasesKnown || (releases.listed ?? 0) < tags.count);
    const tagDates = repository.files.tagDates;
    // Evidence saved before tags were dated has no `tagDates`: it re-scores as it did.
    const tagDatesRead = tagsFillIn && tagDates !== undefined;
    const dated = tagDatesRead ? tagDates.tags : null;
    const tagsRecent = dated === null ? null : dated.filter((t) => withinDays(t.at, now, window)).length;
    const tagsRecentAtLeast = dated !== null && tagsRecent === dated.length && tagDates?.complete !== true && dated.length > 0;
    const tagsRecentPerWeek = tagsRecent === null ? null : perWeek(tagsRecent, window);
    const tagChurnDated = tagsRecent !== null && tagsRecentPerWeek !== null && tagsRecent >= CHURN_MIN_TAGS && tagsRecentPerWeek > CHURN_TAGS_PER_WEEK;
    const newestTag = dated?.[0] ?? null;
    const oldestTag = dated === null || dated.length === 0 ? null : (dated[dated.length - 1] ?? null);

    const oldestRelease = releases?.oldestPublishedAt ?? null;
    const firstReleaseDays = daysSince(oldestRelease, now);
    const firstReleaseExact = releases?.complete === true && futureDated === 0;
    const tagged =
      oldestTag === null || newestTag === null
        ? ''
        : `; version tags dated ${tagDates?.complete === true ? '' : 'at least '}${formatNumber(daysSince(oldestTag.at, now) ?? 0)} to ${formatNumber(daysSince(newestTag.at, now) ?? 0)} days ago (by their taggers)`;
    const firstRelease =
      (releases === null || releases.listed === undefined
        ? 'releases unknown'
        : firstReleaseDays === null
          ? futureDated > 0
            ? `first release undated (${formatNumber(futureDated)} dated in the future)`
            : 'no release published'
          : `first release ${firstReleaseExact ? '' : 'at least '}${formatNumber(firstReleaseDays)} days ago`) + tagged;
    // Unknown dates are said to be unknown: the last days' pace of a project that tags without releasing is not calm by default.
    const tagPace =
      tagDatesRead && dated === null && tags.count >= CHURN_MIN_TAGS
        ? `; the pace of its version tags over the last ${formatNumber(window)} days is unknown (${tagDates.reason ?? 'no dates'})`
        : '';

    let since = 'age unknown';
    if (days !== null) {
      if (historyDays !== null && firstCommitAt !== null && (createdDays === null || historyDays < createdDays)) {
        since = createdDays === null ? `first commit ${day(firstCommitAt)}` : `first commit ${day(firstCommitAt)}; repository created ${formatNumber(createdDays)} days ago`;
      } else if (created !== null) {
        since =
          historyDays === null
            ? `on GitHub since ${day(created)}; first commit not dated`
            : historyDays > (createdDays ?? 0)
              ? `on GitHub since ${day(created)}; commits dated ${formatNumber(historyDays)} days back are not counted`
              : `since ${day(created)}`;
      }
    }

    const data: Record<string, EvidenceValue> = {
      createdAt: created,
      createdDays,
      firstCommitAt,
      historyDays,
      commits: history?.commits ?? null,
      historyReason: history === undefined ? 'not read' : history.reason,
      days,
      since,
      tags: tags === null ? null : `${tags.count}${tags.complete ? '' : '+'}`,
      tagsCounted: tags?.count ?? null,
      perWeek: tagsPerWeek,
      releasesRecent: recent === null ? null : `${recent}${recentAtLeast ? '+' : ''}`,
      releasesFutureDated: futureDated,
      recentWindowDays: window,
      releasesPerWeek,
      tagDates: !tagsFillIn ? 'not needed' : !tagDatesRead ? 'not read' : dated === null ? 'unknown' : 'dated',
      tagDatesReason: tagDatesRead ? tagDates.reason : null,
      tagsRecent: tagsRecent === null ? null : `${tagsRecent}${tagsRecentAtLeast ? '+' : ''}`,
      tagsRecentPerWeek,
      latestTagAt: newestTag?.at ?? null,
      firstTagAt: oldestTag?.at ?? null,
      tagPace,
      firstReleaseAt: oldestRelease,
      firstReleaseDays,
      firstReleaseExact,
      firstRelease,
    };

    const holds: string[] = [];
    const churnHolds = (): void => {
      if (releaseChurn) holds.push(`${data.releasesRecent} releases in the last ${formatNumber(window)} days (${releasesPerWeek} a week) is more than anyone reviews`);
      if (tagChurnDated) holds.push(`${data.tagsRecent} version tags dated in the last ${formatNumber(window)} days (${tagsRecentPerWeek} a week) is more than anyone reviews`);
      if (tagChurn && days !== null) holds.push(`${data.tags} version tags in ${formatNumber(days)} days (${tagsPerWeek} a week) is more than anyone reviews`);
    };
    const churnMessage = releaseChurn ? 'release-churn' : tagChurnDated ? 'tag-churn' : 'churn';
    const held = (score: number, messageId: 'too-young' | 'young' | 'churn' | 'release-churn' | 'tag-churn' | 'established') =>
      holds.length === 0
        ? { score, messageId, data }
        : { score, messageId, data, holdVerdict: `${holds.join('; ')}; a longer, steadier history would lift this (re-check after ${YOUNG_DAYS} days)` };

    if (days !== null && days < YOUNG_DAYS) {
      const tooYoung = days < TOO_YOUNG_DAYS;
      holds.push(`${formatNumber(days)} days of history is ${tooYoung ? 'too short to judge' : 'little to judge by'}`);
      churnHolds();
      const score = Math.min(tooYoung ? 20 : 50, releaseChurn || tagChurnDated || tagChurn ? 40 : 100);
      return held(score, tooYoung ? 'too-young' : 'young');
    }
    churnHolds();
    if (holds.length > 0) return held(40, churnMessage);
    // An old repository is only as old as its history shows: unknown without either date.
    if (createdDays === null) return { score: null, messageId: 'age-unknown', data };
    if (historyDays === null) return { score: null, messageId: 'history-unknown', data };
    return held(100, 'established');
  },
});

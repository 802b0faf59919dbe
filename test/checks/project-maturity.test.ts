import { describe, expect, it } from 'vitest';
import check from '../../src/checks/project-maturity.js';
import type { GithubReleases, GithubTagDates } from '../../src/evidence/schema.js';
import { NO_TOKEN_TAG_DATES } from '../../src/sources/github/tag-dates.js';
import { daysAgo } from '../support/evidence-builder.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

/** The releases listing's maturity facts over `dates` (days ago, newest first), as summariseReleases gives them. */
function releases(dates: number[], complete = true): GithubReleases {
  const recent = dates.filter((d) => d <= 30).length;
  return {
    last12Months: dates.filter((d) => d <= 365).length,
    latest: dates.length === 0 ? null : { tag: 'v1', publishedAt: daysAgo(dates[0] ?? 0), signatureAssets: [], assets: 0 },
    signedReleases: 0,
    examined: Math.min(10, dates.length),
    listed: dates.length,
    complete,
    recent,
    oldestPublishedAt: dates.length === 0 ? null : daysAgo(Math.max(...dates)),
  };
}
const history = (days: number | null, reason: string | null = null) => ({ firstCommitAt: days === null ? null : daysAgo(days), commits: days === null ? null : 40, reason });
/** 31 releases, one every ten hours: all within the last 14 days. */
const BURST = Array.from({ length: 31 }, (_, i) => Math.floor((i * 10) / 24));
const old = (extra: Parameters<typeof repositoryEvidence>[0] = {}) => repositoryEvidence({ repository: { createdAt: daysAgo(1825) }, ...extra });

/** Dated version tags `v1.<i>.0` at `days` ago (newest first), as tag-dates.ts gives them. */
function tagDates(days: number[], complete = true): GithubTagDates {
  return { tags: days.map((d, i) => ({ name: `v1.${days.length - i}.0`, at: daysAgo(d), source: 'commit' as const })), complete, reason: null };
}
/** 31 tags within 14 days, then 9 older ones: 40 version tags. */
const TAG_BURST = [...BURST, 100, 200, 300, 400, 500, 600, 700, 800, 900];
const STEADY = Array.from({ length: 40 }, (_, i) => 40 + i * 40);
/** A five-year-old repository with 40 version tags and no GitHub release (it tags without publishing releases). */
const tagsOnly = (dates: GithubTagDates | undefined, releaseDates: number[] = []) =>
  old({ files: repoFiles({ tags: { count: 40, complete: true }, tagDates: dates, history: history(1825) }), releases: releases(releaseDates) });

checkTable(check, [
  {
    name: 'a 14-day-old repository: history too short to judge, said in days, not a pass',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(14) }, files: repoFiles({ tags: { count: 0, complete: true }, history: history(14) }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 14 },
    message: ['14 days of history'],
  },
  {
    name: 'a repository created five years ago whose history starts 10 days ago is young, in days',
    evidence: old({ files: repoFiles({ history: history(10) }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 10, createdDays: 1825, historyDays: 10, commits: 40 },
    message: ['10 days of history', 'repository created 1,825 days ago'],
  },
  {
    name: 'commits dated before the repository existed (import, fork, or a made-up past) do not make it older',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(20) }, files: repoFiles({ history: history(2000) }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 20, createdDays: 20, historyDays: 2000 },
    message: ['20 days of history', 'commits dated 2,000 days back are not counted'],
  },
  {
    name: 'a young repository whose first commit cannot be dated is young all the same (its first commit cannot make it older)',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(60) }, files: repoFiles({ history: history(null, 'the repository is empty (GitHub answered 409): it has no history to date') }) }),
    score: 50,
    messageId: 'young',
    data: { days: 60, historyDays: null },
    message: ['first commit not dated'],
  },
  {
    name: '31 version tags in two weeks: churn on top of youth',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(14) }, files: repoFiles({ tags: { count: 31, complete: true }, history: history(14) }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 14, tags: '31', perWeek: 15.5 },
  },
  {
    name: 'a year old with more than 3 tags a week (a full first page: at least 100)',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(200) }, files: repoFiles({ tags: { count: 100, complete: false }, history: history(200) }) }),
    score: 40,
    messageId: 'churn',
    data: { days: 200, tags: '100+', perWeek: 3.5 },
  },
  {
    name: 'a five-year-old repository publishing 31 releases within 14 days: churn, whatever its average',
    evidence: old({ files: repoFiles({ tags: { count: 40, complete: true }, history: history(1825) }), releases: releases([...BURST, 400, 800]) }),
    score: 40,
    messageId: 'release-churn',
    data: { days: 1825, releasesRecent: '31', recentWindowDays: 30, releasesPerWeek: 7.2, perWeek: 0.2 },
    message: ['31 releases in the last 30 days'],
  },
  {
    name: 'a full listing of releases all from the last 30 days is a lower bound',
    evidence: old({ files: repoFiles({ history: history(1825) }), releases: releases(Array.from({ length: 50 }, () => 3), false) }),
    score: 40,
    messageId: 'release-churn',
    data: { releasesRecent: '50+', firstReleaseExact: false },
  },
  {
    name: 'a young project publishing 12 releases in 20 days is judged over its 20 days',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(20) }, files: repoFiles({ history: history(20) }), releases: releases(Array.from({ length: 12 }, (_, i) => i)) }),
    score: 20,
    messageId: 'too-young',
    data: { recentWindowDays: 20, releasesPerWeek: 4.2 },
  },
  {
    name: 'an established repository with a steady pace, and the time since its first release',
    evidence: repositoryEvidence({ releases: releases([30, 100, 400, 1200]) }),
    score: 100,
    messageId: 'established',
    data: { days: 1500, tags: '12', releasesRecent: '1', firstReleaseDays: 1200, firstReleaseExact: true },
    message: ['1,500 days of history', 'first release 1,200 days ago'],
  },
  {
    name: 'releases beyond the first page: the oldest listed bounds the first release',
    evidence: repositoryEvidence({ releases: releases([30, 100, 400], false) }),
    score: 100,
    messageId: 'established',
    message: ['first release at least 400 days ago'],
  },
  {
    name: 'releases GitHub dated in the future are undated: the recent count is a lower bound, the first release no longer exact',
    evidence: repositoryEvidence({ releases: { ...releases([30, 100, 400, 1200]), listed: 6, futureDated: 2 } }),
    score: 100,
    messageId: 'established',
    data: { releasesRecent: '1+', releasesFutureDated: 2, firstReleaseDays: 1200, firstReleaseExact: false },
    message: ['first release at least 1,200 days ago'],
  },
  {
    name: 'every release dated in the future: the first release is undated, not "no release published"',
    evidence: repositoryEvidence({ releases: { ...releases([]), listed: 2, examined: 2, futureDated: 2 } }),
    score: 100,
    messageId: 'established',
    data: { releasesRecent: '0+', firstReleaseDays: null, firstReleaseAt: null },
    message: ['first release undated (2 dated in the future)'],
  },
  {
    name: 'no release published',
    evidence: repositoryEvidence({ releases: releases([]) }),
    score: 100,
    messageId: 'established',
    data: { firstReleaseDays: null },
    message: ['no release published'],
  },
  {
    name: 'tags that could not be listed leave churn out, the age stands',
    evidence: repositoryEvidence({ files: repoFiles({ tags: null }) }),
    score: 100,
    messageId: 'established',
    data: { tags: null, perWeek: null },
  },
  {
    name: 'an old repository whose first commit GitHub could not date (409, no Link header): unknown, not a pass',
    evidence: old({ files: repoFiles({ history: history(null, "commit history: GitHub's answer carries no Link header, so the oldest commit cannot be found") }) }),
    score: null,
    messageId: 'history-unknown',
    data: { createdDays: 1825, historyDays: null },
    message: ['no Link header'],
  },
  {
    name: 'a first commit dated more than a day in the future: the history is unknown, not days old',
    evidence: old({ files: repoFiles({ history: history(-30) }) }),
    score: null,
    messageId: 'history-unknown',
    data: { createdDays: 1825, historyDays: null },
  },
  {
    name: 'a creation date more than a day in the future: the age is unknown, not days old',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(-30) }, files: repoFiles({ history: history(2000) }) }),
    score: null,
    messageId: 'age-unknown',
    data: { createdDays: null },
  },
  {
    name: 'evidence saved before the history was read: unknown for an old repository',
    evidence: old({ files: repoFiles({ history: undefined }) }),
    score: null,
    messageId: 'history-unknown',
    data: { historyReason: 'not read' },
  },
  {
    name: 'no GitHub release, 31 version tags dated within 14 days in a five-year-old repository: dated tag churn',
    evidence: tagsOnly(tagDates(TAG_BURST)),
    score: 40,
    messageId: 'tag-churn',
    data: { tagDates: 'dated', tagsRecent: '31', tagsRecentPerWeek: 7.2, recentWindowDays: 30, releasesRecent: '0', perWeek: 0.2 },
    message: ['31 version tags dated in the last 30 days'],
  },
  {
    name: 'no GitHub release and steadily dated tags: established as without dates — dates never lift a score — and reported',
    evidence: tagsOnly(tagDates(STEADY)),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'dated', tagsRecent: '0', latestTagAt: daysAgo(40), firstTagAt: daysAgo(1600), tagPace: '' },
    message: ['no release published; version tags dated 1,600 to 40 days ago (by their taggers)'],
  },
  {
    name: 'the newest 100 tags all within the window: a lower bound',
    evidence: tagsOnly(tagDates(Array.from({ length: 40 }, () => 2), false)),
    score: 40,
    messageId: 'tag-churn',
    data: { tagsRecent: '40+' },
  },
  {
    name: 'without a token the tags are undated: the pace of the last 30 days is said to be unknown, never counted as calm, never held',
    evidence: tagsOnly({ tags: null, complete: false, reason: NO_TOKEN_TAG_DATES }),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'unknown', tagsRecent: null, tagDatesReason: NO_TOKEN_TAG_DATES },
    message: ['the pace of its version tags over the last 30 days is unknown', 'GITHUB_TOKEN'],
  },
  {
    name: 'the releases listing failed: the dated version tags still judge the last 30 days (only what the releases feed is unknown)',
    evidence: old({ files: repoFiles({ tags: { count: 40, complete: true }, tagDates: tagDates(TAG_BURST), history: history(1825) }), releases: null }),
    score: 40,
    messageId: 'tag-churn',
    data: { tagDates: 'dated', tagsRecent: '31', releasesRecent: null, releasesPerWeek: null, firstReleaseAt: null },
    message: ['31 version tags dated in the last 30 days'],
  },
  {
    name: 'the releases listing failed, steadily dated tags: established as without dates (dates never lift a score), releases said unknown',
    evidence: old({ files: repoFiles({ tags: { count: 40, complete: true }, tagDates: tagDates(STEADY), history: history(1825) }), releases: null }),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'dated', tagsRecent: '0', latestTagAt: daysAgo(40) },
    message: ['releases unknown; version tags dated 1,600 to 40 days ago (by their taggers)'],
  },
  {
    name: 'the releases listing failed and the tags are undated: the pace of the last 30 days is said to be unknown',
    evidence: old({ files: repoFiles({ tags: { count: 40, complete: true }, tagDates: { tags: null, complete: false, reason: NO_TOKEN_TAG_DATES }, history: history(1825) }), releases: null }),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'unknown', tagDatesReason: NO_TOKEN_TAG_DATES },
    message: ['releases unknown', 'the pace of its version tags over the last 30 days is unknown'],
  },
  {
    name: 'releases cover the tags: releases govern, the tag dates are not used',
    evidence: old({
      files: repoFiles({ tags: { count: 12, complete: true }, tagDates: tagDates(Array.from({ length: 12 }, () => 1)), history: history(1825) }),
      releases: releases([40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 440, 480]),
    }),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'not needed', tagsRecent: null, latestTagAt: null },
  },
  {
    name: 'evidence saved before tags were dated re-scores as it did',
    evidence: tagsOnly(undefined),
    score: 100,
    messageId: 'established',
    data: { tagDates: 'not read', tagsRecent: null, tagPace: '' },
  },
  {
    name: 'a young project with a dated burst of tags: young, and the churn said',
    evidence: repositoryEvidence({
      repository: { createdAt: daysAgo(60) },
      files: repoFiles({ tags: { count: 40, complete: true }, tagDates: tagDates(TAG_BURST.map((d) => Math.min(d, 59))), history: history(60) }),
      releases: releases([]),
    }),
    score: 40,
    messageId: 'young',
    data: { days: 60, tagsRecent: '31' },
  },
  {
    name: 'no creation date: unknown, never a pass',
    evidence: repositoryEvidence({ repository: { createdAt: null } }),
    score: null,
    messageId: 'age-unknown',
  },
  {
    name: 'no creation date and a history dated years back: still unknown (commit dates alone never make a project old)',
    evidence: repositoryEvidence({ repository: { createdAt: null }, files: repoFiles({ history: history(3000) }) }),
    score: null,
    messageId: 'age-unknown',
  },
]);

describe('project-maturity holds the verdict', () => {
  it('for a young history in a long-existing repository, naming the days', () => {
    const outcome = outcomeOf(check, old({ files: repoFiles({ history: history(10) }) }));
    expect(outcome.holdVerdict).toContain('10 days of history is too short to judge');
  });

  it('for a burst of releases in an old repository', () => {
    const outcome = outcomeOf(check, old({ files: repoFiles({ history: history(1825) }), releases: releases(BURST) }));
    expect(outcome.holdVerdict).toContain('31 releases in the last 30 days (7.2 a week)');
  });

  it('for a dated burst of version tags when the repository publishes no releases', () => {
    const outcome = outcomeOf(check, tagsOnly(tagDates(TAG_BURST)));
    expect(outcome.holdVerdict).toContain('31 version tags dated in the last 30 days (7.2 a week)');
  });

  it('never on undated tags, and dated tags never score above the same evidence without them', () => {
    expect(outcomeOf(check, tagsOnly({ tags: null, complete: false, reason: NO_TOKEN_TAG_DATES })).holdVerdict).toBeUndefined();
    for (const dates of [TAG_BURST, STEADY, Array.from({ length: 40 }, () => 3000)]) {
      const withDates = outcomeOf(check, tagsOnly(tagDates(dates)));
      const without = outcomeOf(check, tagsOnly(undefined));
      expect(withDates.score ?? 0).toBeLessThanOrEqual(without.score ?? 0);
      // Tags dated years before the repository existed make it no older: the age is the clocks'.
      expect(without.data?.days).toBe(1825);
      expect(withDates.data?.days).toBe(1825);
    }
  });

  it('never when the history is unknown (an unknown is not a finding)', () => {
    const outcome = outcomeOf(check, old({ files: repoFiles({ history: history(null, 'HTTP 502') }) }));
    expect(outcome.holdVerdict).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import check from '../../src/checks/project-maturity.js';
import type { GithubReleases } from '../../src/evidence/schema.js';
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
    name: 'evidence saved before the history was read: unknown for an old repository',
    evidence: old({ files: repoFiles({ history: undefined }) }),
    score: null,
    messageId: 'history-unknown',
    data: { historyReason: 'not read' },
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

  it('never when the history is unknown (an unknown is not a finding)', () => {
    const outcome = outcomeOf(check, old({ files: repoFiles({ history: history(null, 'HTTP 502') }) }));
    expect(outcome.holdVerdict).toBeUndefined();
  });
});

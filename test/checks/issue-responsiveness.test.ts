import { describe, expect, it } from 'vitest';
import check, { MIN_ISSUES, responseTimeScore, responsivenessScore } from '../../src/checks/issue-responsiveness.js';
import type { GithubResponsiveness } from '../../src/evidence/schema.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases, repositoryWith } from './github-cases.js';

const DEFAULT_PULLS = { sampled: 30, responded: 29, merged: 24, closedUnmerged: 4, medianHoursToResponse: 12 };

const issues = (
  sampled: number,
  responded: number,
  medianHoursToResponse: number | null,
  method: GithubResponsiveness['method'] = 'first-response',
) =>
  evidence({
    github: githubFacts({
      responsiveness: { windowDays: 180, issues: { sampled, responded, medianHoursToResponse }, pulls: DEFAULT_PULLS, method },
    }),
  });

checkTable(check, [
  {
    name: 'healthy: 36 of 40 answered, median 20 hours',
    evidence: evidence({ github: {} }),
    score: 94,
    messageId: 'responsive',
    data: { sampled: 40, responded: 36, respondedPercent: 90, medianHoursToResponse: 20, method: 'first-response', windowDays: 180 },
    message: ['90% of 40 recent issues answered, median 20 hours (first comment or review by someone else)'],
  },
  { name: 'all answered within 24 hours', evidence: issues(10, 10, 24), score: 100, messageId: 'responsive' },
  { name: 'all answered, median 25 hours', evidence: issues(10, 10, 25), score: 94, messageId: 'responsive' },
  { name: 'all answered, median 3 days', evidence: issues(10, 10, 72), score: 94, messageId: 'responsive', message: ['median 3 days'] },
  { name: 'all answered, median 7 days', evidence: issues(10, 10, 168), score: 88, messageId: 'responsive' },
  { name: 'all answered, median 30 days', evidence: issues(10, 10, 720), score: 78, messageId: 'responsive' },
  { name: 'all answered, median 31 days', evidence: issues(10, 10, 744), score: 68, messageId: 'slow' },
  {
    name: 'half answered within a day',
    evidence: issues(10, 5, 10),
    score: 70,
    messageId: 'responsive',
    data: { respondedPercent: 50 },
  },
  {
    name: 'a third answered after two weeks',
    evidence: issues(9, 3, 336),
    score: 38,
    messageId: 'slow',
    message: ['33% of 9 recent issues answered, median 14 days', 'slow or patchy'],
  },
  {
    name: 'none answered',
    evidence: issues(12, 0, null),
    score: 0,
    messageId: 'unanswered',
    message: ['None of 12 issues opened in the last 180 days got a response'],
  },
  {
    name: 'responded without a median time: the time part is 0',
    evidence: issues(10, 10, null),
    score: 60,
    messageId: 'slow',
    message: ['median unknown'],
  },
  {
    name: 'REST method (comment or close) is named in message and evidence',
    evidence: issues(10, 8, 30, 'comments-or-close'),
    score: 82,
    messageId: 'responsive',
    data: { method: 'comments-or-close' },
    message: ['(a comment or a close)'],
  },
  {
    name: `${MIN_ISSUES} issues is enough`,
    evidence: issues(MIN_ISSUES, MIN_ISSUES, 2),
    score: 100,
    messageId: 'responsive',
  },
  {
    name: 'too few issues: unknown, not neutral',
    evidence: issues(MIN_ISSUES - 1, 0, null),
    score: null,
    messageId: 'too-few',
    data: { sampled: 2, minIssues: 3 },
    message: ['Unknown: 2 issues opened in the last 180 days, too few to judge (at least 3)'],
  },
  { name: 'no issues in the window: unknown', evidence: issues(0, 0, null), score: null, messageId: 'too-few' },
  {
    name: 'issues turned off: unknown with that reason',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ hasIssues: false }) }) }),
    score: null,
    messageId: 'issues-disabled',
    data: { hasIssues: false },
    message: ['Unknown: issues are turned off for example/example'],
  },
  ...githubRuleCases({ sections: ['responsiveness'] }),
]);

describeGithubSource(check);

describe('response time and score', () => {
  it.each([
    [null, 0],
    [0, 100],
    [24, 100],
    [24.1, 85],
    [72, 85],
    [168, 70],
    [720, 45],
    [721, 20],
  ] as const)('median %s hours → time score %i', (hours, score) => {
    expect(responseTimeScore(hours)).toBe(score);
  });

  it('weighs the share 0.6 and the time 0.4, and clamps the share', () => {
    expect(responsivenessScore(10, 10, 1)).toBe(100);
    expect(responsivenessScore(10, 0, null)).toBe(0);
    expect(responsivenessScore(4, 1, 1)).toBe(55);
    expect(responsivenessScore(4, 9, 1)).toBe(100);
  });
});

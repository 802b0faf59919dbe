import { describe, expect, it } from 'vitest';
import check, { mergeRateScore, MIN_PULLS } from '../../src/checks/pr-merge-rate.js';
import type { GithubResponsiveness } from '../../src/evidence/schema.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases } from './github-cases.js';

const pulls = (pulls: GithubResponsiveness['pulls']) =>
  evidence({
    github: githubFacts({
      responsiveness: {
        windowDays: 180,
        issues: { sampled: 40, responded: 36, medianHoursToResponse: 20 },
        pulls,
        method: 'comments-or-close',
      },
    }),
  });

checkTable(check, [
  {
    name: 'healthy: 24 of 30 merged, 29 answered',
    evidence: evidence({ github: {} }),
    score: 98.3,
    messageId: 'merging',
    data: { sampled: 30, merged: 24, closedUnmerged: 4, open: 2, mergedPercent: 80, respondedPercent: 97, medianHoursToResponse: 12 },
    message: ['80% of 30 recent pull requests merged, 97% answered (median 12 hours)'],
  },
  {
    name: 'half merged earns the whole merge part',
    evidence: pulls({ sampled: 10, responded: 10, merged: 5, closedUnmerged: 5, medianHoursToResponse: 50 }),
    score: 100,
    messageId: 'merging',
    message: ['median 2.1 days'],
  },
  {
    name: 'a fifth merged, all answered',
    evidence: pulls({ sampled: 10, responded: 10, merged: 2, closedUnmerged: 8, medianHoursToResponse: 5 }),
    score: 70,
    messageId: 'merging',
  },
  {
    name: 'a tenth merged, half answered',
    evidence: pulls({ sampled: 10, responded: 5, merged: 1, closedUnmerged: 1, medianHoursToResponse: 400 }),
    score: 35,
    messageId: 'stalled',
    data: { open: 8 },
    message: ['Only 10% of 10 recent pull requests merged, 50% answered'],
  },
  {
    name: 'nothing answered or merged',
    evidence: pulls({ sampled: 6, responded: 0, merged: 0, closedUnmerged: 0, medianHoursToResponse: null }),
    score: 0,
    messageId: 'stalled',
    data: { median: 'none', method: 'comments-or-close' },
    message: ['(median none)'],
  },
  {
    name: `${MIN_PULLS} pull requests is enough`,
    evidence: pulls({ sampled: MIN_PULLS, responded: MIN_PULLS, merged: MIN_PULLS, closedUnmerged: 0, medianHoursToResponse: 1 }),
    score: 100,
    messageId: 'merging',
  },
  {
    name: 'too few pull requests: unknown',
    evidence: pulls({ sampled: MIN_PULLS - 1, responded: 0, merged: 0, closedUnmerged: 0, medianHoursToResponse: null }),
    score: null,
    messageId: 'too-few',
    data: { sampled: 2, minPulls: 3 },
    message: ['Unknown: 2 pull requests opened in the last 180 days, too few to judge (at least 3)'],
  },
  ...githubRuleCases({ sections: ['responsiveness'] }),
]);

describeGithubSource(check);

describe('mergeRateScore', () => {
  it.each([
    [10, 10, 10, 100],
    [10, 10, 5, 100],
    [10, 10, 0, 50],
    [10, 0, 5, 50],
    [10, 4, 1, 30],
    [0, 0, 0, 0],
    [4, 9, 9, 100],
  ])('%i sampled, %i answered, %i merged → %d', (sampled, responded, merged, score) => {
    expect(mergeRateScore(sampled, responded, merged)).toBe(score);
  });
});

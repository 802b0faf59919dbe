import { describe, expect, it } from 'vitest';
import commitActivity, { RECENT_BANDS, YEAR_BANDS } from '../../../src/checks/commit-activity.js';
import contributors, { CONTRIBUTOR_BANDS } from '../../../src/checks/contributors.js';
import dependencyFootprint, { FOOTPRINT_BANDS } from '../../../src/checks/dependency-footprint.js';
import issueResponsiveness, { RESPONSE_TIME_BANDS } from '../../../src/checks/issue-responsiveness.js';
import { countBandProse, hoursProse, rangeBandProse, upperBandProse } from '../../../src/checks/lib/band-prose.js';
import releaseRecency, { RECENCY_BANDS } from '../../../src/checks/release-recency.js';

describe('band prose', () => {
  it('writes upper-bound bands with the unit once and the beyond clause last', () => {
    expect(upperBandProse([[90, 100], [180, 90]], 'days', 'older 10')).toBe('≤ 90 days scores 100, ≤ 180 90, older 10');
  });

  it('writes lower-bound counts as ranges, a one-number band alone', () => {
    expect(countBandProse([[20, 100], [10, 85], [3, 55], [2, 40], [1, 20]], 'score')).toBe('≥ 20 score 100, 10–19 85, 3–9 55, 2 40, 1 20');
  });

  it('writes upper-bound count ranges from 0 and the score beyond the last', () => {
    expect(rangeBandProse([[5, 100], [6, 90], [30, 60]], 'scores', 40)).toBe('0–5 scores 100, 6 90, 7–30 60, more than 30 40');
  });

  it('writes hours as whole days past one day', () => {
    expect([24, 36, 48, 168].map(hoursProse)).toEqual(['24 hours', '36 hours', '2 days', '7 days']);
  });

  it('is what the checks describe: every band of their tables appears in their descriptions', () => {
    expect(releaseRecency.description).toContain(upperBandProse(RECENCY_BANDS, 'days', 'older 10'));
    expect(contributors.description).toContain(countBandProse(CONTRIBUTOR_BANDS, 'score'));
    expect(commitActivity.description).toContain(countBandProse(RECENT_BANDS, 'scores'));
    expect(commitActivity.description).toContain(countBandProse(YEAR_BANDS, 'scores'));
    expect(dependencyFootprint.description).toContain(rangeBandProse(FOOTPRINT_BANDS.map(([max, score]) => [max, score] as const), 'scores', 40));
    for (const [maxHours, score] of RESPONSE_TIME_BANDS) expect(issueResponsiveness.description).toContain(`≤ ${hoursProse(maxHours)} ${score}`);
  });
});

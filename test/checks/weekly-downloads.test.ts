import { describe, expect, it } from 'vitest';
import check, { downloadsScore } from '../../src/checks/weekly-downloads.js';
import { evidence } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const weekly = (lastWeek: number | null, lastYear: number | null = null) => evidence({ downloads: { lastWeek, lastYear } });

checkTable(check, [
  { name: '0', evidence: weekly(0), score: 0, messageId: 'downloads', data: { lastWeek: 0 } },
  { name: '10/week → 21', evidence: weekly(10), score: 21, messageId: 'downloads' },
  { name: '99/week → 40', evidence: weekly(99), score: 40, messageId: 'downloads' },
  { name: '1,000/week → 60', evidence: weekly(1000, 48_000), score: 60, messageId: 'downloads', data: { lastWeek: 1000, lastYear: 48_000 } },
  { name: '100,000/week → 100', evidence: weekly(100_000), score: 100, messageId: 'downloads' },
  { name: '99,000/week → 100 (rounded)', evidence: weekly(99_000), score: 100, messageId: 'downloads' },
  { name: '50 million/week is still 100', evidence: weekly(50_000_000), score: 100, messageId: 'downloads' },
  { name: 'unknown', evidence: weekly(null, 12), score: null, messageId: 'unknown', data: { lastWeek: null, lastYear: 12 } },
  {
    name: 'PyPI (pypistats last week): the same bands',
    evidence: pypiEvidence({ downloads: { lastWeek: 1000, lastMonth: 4_200, lastYear: null } }),
    score: 60,
    messageId: 'downloads',
    data: { lastWeek: 1000, lastYear: null },
  },
]);

describe('downloadsScore', () => {
  it('is monotonic and bounded', () => {
    let previous = -1;
    for (let n = 0; n < 2_000_000; n = n * 3 + 1) {
      const score = downloadsScore(n);
      expect(score).toBeGreaterThanOrEqual(previous);
      expect(score).toBeLessThanOrEqual(100);
      previous = score;
    }
  });

  it('treats a negative count as zero', () => {
    expect(downloadsScore(-5)).toBe(0);
  });
});

/**
 * weekly-downloads: how widely the package is used, on a log scale (npm's downloads API or
 * pypistats.org for PyPI, both reduced to the `downloads` source's last-week count).
 */
import { defineCheck } from './define.js';

/** min(100, round(20 × log10(n + 1))): 10/week → 21, 1,000 → 60, 100,000 → 100. */
export function downloadsScore(lastWeek: number): number {
  return Math.min(100, Math.round(20 * Math.log10(Math.max(0, lastWeek) + 1)));
}

export default defineCheck({
  id: 'weekly-downloads',
  dimension: 'community',
  weight: 3,
  needs: ['downloads'],
  title: 'Weekly downloads',
  description:
    'Downloads in the last week (npm downloads API; for PyPI pypistats.org, which ignores known PyPI mirrors; the same bands for both) on a log scale: min(100, round(20 × log10(n + 1))), ' +
    `so 10 a week scores ${downloadsScore(10)}, 1,000 scores ${downloadsScore(1000)} and 100,000 or more ${downloadsScore(100_000)}. Unknown when the downloads API gave no count.`,
  messages: {
    downloads: '{lastWeek} downloads last week',
    unknown: 'Weekly download count unknown: the downloads API did not give it',
  },
  evaluate: ({ downloads }) => {
    const { lastWeek, lastYear } = downloads;
    if (lastWeek === null) return { score: null, messageId: 'unknown', data: { lastWeek, lastYear } };
    return { score: downloadsScore(lastWeek), messageId: 'downloads', data: { lastWeek, lastYear } };
  },
});

/**
 * release-recency: how long ago the newest stable release was published, with the
 * finished-package rule (lib/finished.ts) for small, stable packages that rarely need one.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { FINISHED_FLOOR, unmetFinished } from './lib/finished.js';
import { datedEntries, wholeDaysBetween } from './lib/releases.js';

/** Upper bounds in days and their scores; older than the last bound scores 10. */
export const RECENCY_BANDS: readonly (readonly [maxDays: number, score: number])[] = [
  [90, 100],
  [180, 90],
  [365, 75],
  [730, 50],
  [1095, 30],
];
const OLDEST_SCORE = 10;

export function recencyScore(days: number): number {
  for (const [maxDays, score] of RECENCY_BANDS) if (days <= maxDays) return score;
  return OLDEST_SCORE;
}

export default defineCheck({
  id: 'release-recency',
  dimension: 'maintenance',
  weight: 3,
  needs: ['release'],
  title: 'Recent release',
  description:
    'Days from the newest stable (non-pre-release) release to now, by npm publish times or PyPI first upload times (yanked releases count: they were shipped): ≤ 90 days scores 100, ≤ 180 90, ≤ 365 75, ≤ 730 50, ≤ 1095 30, older 10 (a package with only pre-releases is measured from its newest one). ' +
    'A finished package (≥ 1.0.0, not deprecated, no install scripts, ≤ 5 runtime dependencies, ≤ 200 kB unpacked, ≥ 5 stable releases over ≥ 1 year; see the finished-package rule) scores at least 70: rare releases are expected of it.',
  messages: {
    recent: 'Last release {days} days ago ({version}, {date})',
    stale: 'No release for {days} days (last: {version}, {date})',
    finished: 'No release for {days} days — a small, stable 1.x+ package; rare releases are expected',
    'no-times': 'Release dates unknown: the registry gave no publish times',
  },
  evaluate: ({ release }, { now }) => {
    const stable = datedEntries(release.releases, true);
    const releases = stable.length > 0 ? stable : datedEntries(release.releases, false);
    const newest = releases.reduce<(typeof releases)[number] | undefined>(
      (best, r) => (best === undefined || r.time > best.time ? r : best),
      undefined,
    );
    if (newest === undefined) {
      const unknown: Record<string, EvidenceValue> = { versions: release.releases.length };
      return { score: null, messageId: 'no-times', data: unknown };
    }
    const days = wholeDaysBetween(newest.time, now);
    const data: Record<string, EvidenceValue> = {
      days,
      version: newest.version,
      date: newest.time.toISOString(),
      prereleaseOnly: stable.length === 0,
    };
    const score = recencyScore(days);
    if (score < FINISHED_FLOOR) {
      const unmet = unmetFinished(release);
      if (unmet.length === 0) return { score: FINISHED_FLOOR, messageId: 'finished', data: { ...data, finished: true } };
      return { score, messageId: 'stale', data: { ...data, finished: false, unmetFinishedCriteria: unmet } };
    }
    return { score, messageId: 'recent', data };
  },
});

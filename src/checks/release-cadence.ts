/**
 * release-cadence: how many stable releases shipped in the last year; a package that has only
 * ever published pre-releases (@duckdb/node-api's `1.5.6-r.1` is its `latest`) counts those, as
 * release-recency measures it from its newest one — else the two checks contradict each other.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { FINISHED_FLOOR, unmetFinished } from './lib/finished.js';
import { WITHHELD_MESSAGES, withheldResult } from './lib/publish-times.js';
import { DAY_MS, datedEntries, futureEntries } from './lib/releases.js';

export const CADENCE_WINDOW_DAYS = 365;

export default defineCheck({
  id: 'release-cadence',
  dimension: 'maintenance',
  weight: 2,
  needs: ['release'],
  title: 'Release cadence',
  description:
    'Counts stable releases published in the 365 days before now (npm publish times, PyPI first upload times; yanked releases count; a package with only pre-releases counts its pre-releases): none scores 20 (70 for a finished package, see the finished-package rule), 1 60, 2–3 80, 4–30 100, and more than 30 85 (churn). ' +
    'Releases dated more than a day in the future are left out (invalid dates). Unknown when the registry gave no times (or only such dates), or when the times of a trimmed packument are not publish times (docs/scoring.md §12).',
  messages: {
    none: 'No release in the last {windowDays} days',
    finished: 'No release in the last {windowDays} days — a small, stable 1.x+ package; rare releases are expected',
    single: 'One release in the last {windowDays} days',
    some: '{count} releases in the last {windowDays} days (a slow but steady cadence)',
    regular: '{count} releases in the last {windowDays} days',
    churn: '{count} releases in the last {windowDays} days (frequent churn)',
    'no-times': 'Release cadence unknown: the registry gave no publish times',
    'future-times': 'Release cadence unknown: the registry dates every release it dates in the future ({futureDated})',
    ...WITHHELD_MESSAGES,
  },
  evaluate: ({ release }, { now }) => {
    if (release.timesWithheld !== null) return withheldResult(release.timesWithheld);
    // Releases dated in the future (beyond the tolerated clock skew) are invalid data: left out, the others still count.
    const stable = datedEntries(release.releases, true, now);
    const all = datedEntries(release.releases, false, now);
    const releases = stable.length > 0 ? stable : all;
    const futureDated = futureEntries(release.releases, false, now).length;
    if (all.length === 0) {
      const unknown: Record<string, EvidenceValue> = { versions: release.releases.length, futureDated };
      return { score: null, messageId: futureDated > 0 ? 'future-times' : 'no-times', data: unknown };
    }
    const since = now.getTime() - CADENCE_WINDOW_DAYS * DAY_MS;
    const count = releases.filter((r) => r.time.getTime() > since).length;
    const data: Record<string, EvidenceValue> = { count, windowDays: CADENCE_WINDOW_DAYS, prereleaseOnly: stable.length === 0, futureDated };
    if (count === 0) {
      const unmet = unmetFinished(release, now);
      if (unmet.length === 0) return { score: FINISHED_FLOOR, messageId: 'finished', data: { ...data, finished: true } };
      return { score: 20, messageId: 'none', data: { ...data, finished: false, unmetFinishedCriteria: unmet } };
    }
    if (count === 1) return { score: 60, messageId: 'single', data };
    if (count <= 3) return { score: 80, messageId: 'some', data };
    if (count <= 30) return { score: 100, messageId: 'regular', data };
    return { score: 85, messageId: 'churn', data };
  },
});

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
/** Releases in the window → score: none, one, a few (up to SOME_MAX), regular (up to REGULAR_MAX), churn beyond. */
const NONE_SCORE = 20;
const SINGLE_SCORE = 60;
const SOME_MAX = 3;
const SOME_SCORE = 80;
const REGULAR_MAX = 30;
const CHURN_SCORE = 85;

export default defineCheck({
  id: 'release-cadence',
  dimension: 'maintenance',
  weight: 2,
  needs: ['release'],
  title: 'Release cadence',
  description:
    `Counts stable releases published in the ${CADENCE_WINDOW_DAYS} days before now (npm publish times, PyPI first upload times; yanked releases count; a package with only pre-releases counts its pre-releases): none scores ${NONE_SCORE} (${FINISHED_FLOOR} for a finished package, see the finished-package rule), 1 ${SINGLE_SCORE}, 2–${SOME_MAX} ${SOME_SCORE}, ${SOME_MAX + 1}–${REGULAR_MAX} 100, and more than ${REGULAR_MAX} ${CHURN_SCORE} (churn). ` +
    'Releases dated more than a day in the future are left out (invalid dates). Unknown when the registry gave no times (or only such dates), or when the times in a mirror\'s abbreviated package metadata are not publish times (docs/scoring.md §12).',
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
      return { score: NONE_SCORE, messageId: 'none', data: { ...data, finished: false, unmetFinishedCriteria: unmet } };
    }
    if (count === 1) return { score: SINGLE_SCORE, messageId: 'single', data };
    if (count <= SOME_MAX) return { score: SOME_SCORE, messageId: 'some', data };
    if (count <= REGULAR_MAX) return { score: 100, messageId: 'regular', data };
    return { score: CHURN_SCORE, messageId: 'churn', data };
  },
});

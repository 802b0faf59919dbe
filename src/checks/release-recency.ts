/**
 * release-recency: how long ago the newest stable release was published, with the
 * finished-package rule (lib/finished.ts) for small, stable packages that rarely need one.
 * Years without a release hold the verdict (docs/scoring.md §6a): a package nobody has
 * released for two years — three for a finished one — is not vouched for, whatever else it earns.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import {
  FINISHED_FLOOR,
  FINISHED_MAX_AGE_DAYS,
  FINISHED_MAX_DEPENDENCIES,
  FINISHED_MAX_UNPACKED_BYTES,
  FINISHED_MIN_RELEASES,
  FINISHED_MIN_SPAN_DAYS,
  FINISHED_WORDS,
  unmetFinished,
} from './lib/finished.js';
import { upperBandProse } from './lib/band-prose.js';
import { formatNumber } from './lib/format-number.js';
import { WITHHELD_MESSAGES, withheldResult } from './lib/publish-times.js';
import { datedEntries, futureEntries, wholeDaysBetween } from './lib/releases.js';

/** Days without a stable release after which a package that is not finished holds the verdict (2 years). */
export const STALE_HOLD_DAYS = 730;

/** Upper bounds in days and their scores; older than the last bound scores 10. */
export const RECENCY_BANDS: readonly (readonly [maxDays: number, score: number])[] = [
  [90, 100],
  [180, 90],
  [365, 75],
  [730, 50],
  [1095, 30],
];
const OLDEST_SCORE = 10;

const UNKNOWN_DATES_HOLD = 'release dates unknown, so whether anyone still releases this package cannot be told';
const UNKNOWN_DATES_LIFT = 'a registry that serves publish times would lift this';

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
    `Days from the newest stable (non-pre-release) release to now, by npm publish times or PyPI first upload times (yanked releases count: they were shipped): ${upperBandProse(RECENCY_BANDS, 'days', `older ${OLDEST_SCORE}`)} (a package with only pre-releases is measured from its newest one; unknown — and holding the verdict, as nothing else tells an abandoned package from a maintained one — when the registry gave no times, when it dates a release more than a day in the future, or when the times in a mirror's abbreviated package metadata are not publish times (docs/scoring.md §12). ` +
    `A finished package (≥ 1.0.0, not deprecated, no install scripts, ≤ ${FINISHED_MAX_DEPENDENCIES} runtime dependencies, ≤ ${FINISHED_MAX_UNPACKED_BYTES / 1000} kB unpacked, ≥ ${FINISHED_MIN_RELEASES} stable releases over ≥ ${FINISHED_MIN_SPAN_DAYS / 365} year, the newest at most ${formatNumber(FINISHED_MAX_AGE_DAYS)} days old; see the finished-package rule) scores at least ${FINISHED_FLOOR}: rare releases are expected of it. ` +
    `More than ${formatNumber(STALE_HOLD_DAYS)} days without a stable release holds the verdict at CAUTION unless the package is finished — a finished package is held past ${formatNumber(FINISHED_MAX_AGE_DAYS)} days, where the rule stops vouching for it — and caps the maintenance dimension at this check's score: what does not change (a 1.x version, few dependencies) must not make a package nobody releases look maintained.`,
  messages: {
    recent: 'Last release {days} days ago ({version}, {day})',
    stale: 'No release for {days} days (last: {version}, {day})',
    finished: 'No release for {days} days — a small, stable 1.x+ package; rare releases are expected',
    'finished-past-limit': 'No release for {days} days (last: {version}, {day}) — a small, stable package, but past the {limitDays} days the finished-package rule vouches for',
    'no-times': 'Release dates unknown: the registry gave no publish times',
    'future-time': 'Release dates unknown: the registry dates {version} {date}, in the future, so when the newest release shipped cannot be told',
    ...WITHHELD_MESSAGES,
  },
  evaluate: ({ release }, { now }) => {
    // Release dates are what tells an abandoned package from a maintained one: without them a
    // package is not vouched for (docs/scoring.md §6a), whatever else it earns.
    if (release.timesWithheld !== null) {
      const why = release.timesWithheld.reason === 'out-of-order' ? 'the registry\'s times run against version order: a mirror\'s own dates' : 'a mirror\'s times, too few stable releases of one major line to tell them from publish times';
      return { ...withheldResult(release.timesWithheld), holdVerdict: `${UNKNOWN_DATES_HOLD} (${why}); ${UNKNOWN_DATES_LIFT}` };
    }
    const stable = datedEntries(release.releases, true);
    const releases = stable.length > 0 ? stable : datedEntries(release.releases, false);
    // A release dated in the future (beyond the tolerated clock skew) would be the newest: its
    // date is invalid, so when the newest release shipped is unknown — never "0 days ago".
    const future = futureEntries(release.releases, stable.length > 0, now).at(-1);
    if (future !== undefined) {
      const data: Record<string, EvidenceValue> = { version: future.version, date: future.time.toISOString() };
      return { score: null, messageId: 'future-time', data, holdVerdict: `${UNKNOWN_DATES_HOLD} (the registry dates ${future.version} in the future); ${UNKNOWN_DATES_LIFT}` };
    }
    const newest = releases.reduce<(typeof releases)[number] | undefined>(
      (best, r) => (best === undefined || r.time > best.time ? r : best),
      undefined,
    );
    if (newest === undefined) {
      const unknown: Record<string, EvidenceValue> = { versions: release.releases.length };
      return { score: null, messageId: 'no-times', data: unknown, holdVerdict: `${UNKNOWN_DATES_HOLD} (the registry gave no publish times); ${UNKNOWN_DATES_LIFT}` };
    }
    const days = wholeDaysBetween(newest.time, now);
    const data: Record<string, EvidenceValue> = {
      days,
      version: newest.version,
      date: newest.time.toISOString(),
      // The messages name the day (the evidence keeps the instant).
      day: newest.time.toISOString().slice(0, 10),
      prereleaseOnly: stable.length === 0,
    };
    const score = recencyScore(days);
    if (score >= FINISHED_FLOOR) return { score, messageId: 'recent', data };
    const unmet = unmetFinished(release, now);
    if (unmet.length === 0) return { score: FINISHED_FLOOR, messageId: 'finished', data: { ...data, finished: true } };
    const stale = { ...data, finished: false, unmetFinishedCriteria: unmet };
    const since = `no stable release for ${formatNumber(days)} days (last: ${newest.version}, ${newest.time.toISOString().slice(0, 10)})`;
    const staleCap = {
      id: 'stale-release',
      limit: score,
      dimension: 'maintenance' as const,
      reason: since,
      args: { days, version: newest.version, date: newest.time.toISOString().slice(0, 10) },
    };
    if (unmet.length === 1 && unmet[0] === 'recent-release') {
      return {
        score,
        messageId: 'finished-past-limit',
        data: { ...stale, limitDays: FINISHED_MAX_AGE_DAYS },
        holdVerdict: `${since}: a small, stable package, but the finished-package rule vouches for one only ${formatNumber(FINISHED_MAX_AGE_DAYS)} days after its last release; a new release would lift this`,
        caps: [staleCap],
      };
    }
    if (days > STALE_HOLD_DAYS) {
      return {
        score,
        messageId: 'stale',
        data: stale,
        holdVerdict: `${since}, and not a finished package (a finished one has ${unmet.map((c) => FINISHED_WORDS[c]).join(', ')}); a new release would lift this`,
        caps: [staleCap],
      };
    }
    return { score, messageId: 'stale', data: stale };
  },
});

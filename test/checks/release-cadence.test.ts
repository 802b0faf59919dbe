import check from '../../src/checks/release-cadence.js';
import { daysAgo, evidence, versionsAgo } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

/** Not finished (0.x), with `count` stable releases inside the year plus one old one. */
const releasesInYear = (count: number, extra: Partial<Parameters<typeof evidence>[0]> = {}) => {
  const recent = Array.from({ length: count }, (_, i) => [`0.${i + 1}.0`, 300 - i * (290 / Math.max(1, count))] as const);
  return evidence({
    registry: { version: count > 0 ? `0.${count}.0` : '0.0.1', versions: versionsAgo([['0.0.1', 900], ...recent]) },
    ...extra,
  });
};

/** PyPI releases from `[version, days before NOW, pre-release?, yanked?]`. */
const pypiReleases = (entries: readonly (readonly [string, number, boolean?, boolean?])[]) =>
  entries.map(([version, days, prerelease = false, yanked = false]) => ({
    version,
    time: daysAgo(days),
    prerelease,
    yanked,
    yankedReason: null,
    files: 1,
  }));

checkTable(check, [
  {
    name: 'none in a year',
    evidence: releasesInYear(0),
    score: 20,
    messageId: 'none',
    data: { count: 0, windowDays: 365, finished: false },
  },
  { name: 'one', evidence: releasesInYear(1), score: 60, messageId: 'single', data: { count: 1 } },
  { name: 'two', evidence: releasesInYear(2), score: 80, messageId: 'some', data: { count: 2 } },
  { name: 'three', evidence: releasesInYear(3), score: 80, messageId: 'some', data: { count: 3 } },
  { name: 'four', evidence: releasesInYear(4), score: 100, messageId: 'regular', data: { count: 4 } },
  { name: 'thirty', evidence: releasesInYear(30), score: 100, messageId: 'regular', data: { count: 30 } },
  { name: 'thirty-one: churn', evidence: releasesInYear(31), score: 85, messageId: 'churn', data: { count: 31 } },
  {
    name: 'window edge: 364 days in, 366 days out',
    evidence: evidence({ registry: { version: '0.2.0', versions: versionsAgo([['0.1.0', 366], ['0.2.0', 364]]) } }),
    score: 60,
    messageId: 'single',
    data: { count: 1 },
  },
  {
    name: 'pre-releases are not counted',
    evidence: evidence({
      registry: {
        version: '0.1.0',
        versions: versionsAgo([['0.1.0', 500], ['0.2.0-beta.1', 100], ['0.2.0-beta.2', 50], ['0.2.0-rc.1', 10]]),
      },
    }),
    score: 20,
    messageId: 'none',
    data: { count: 0, prereleaseOnly: false },
  },
  {
    // @duckdb/node-api: every version is pre-release shaped (`1.4.0-r.1` … `1.5.6-r.1`, its `latest`); release-recency measures from the newest.
    name: 'a package with only pre-releases counts them',
    evidence: evidence({
      registry: {
        version: '1.5.6-r.1',
        versions: versionsAgo([['1.3.4-alpha.27', 500], ['1.4.0-r.1', 300], ['1.5.0-r.1', 200], ['1.5.6-r.1', 67]]),
      },
    }),
    score: 80,
    messageId: 'some',
    data: { count: 3, prereleaseOnly: true },
  },
  {
    name: 'finished package with no release this year',
    evidence: evidence({
      registry: {
        version: '1.4.0',
        versions: versionsAgo([['1.0.0', 3000], ['1.1.0', 2500], ['1.2.0', 2000], ['1.3.0', 1500], ['1.4.0', 900]]),
      },
    }),
    score: 70,
    messageId: 'finished',
    data: { count: 0, finished: true },
  },
  {
    name: 'releases dated in the future are left out; the others still count',
    evidence: evidence({ registry: { version: '0.3.0', versions: versionsAgo([['0.0.1', 900], ['0.1.0', 100], ['0.2.0', -5], ['0.3.0', -400]]) } }),
    score: 60,
    messageId: 'single',
    data: { count: 1, futureDated: 2 },
  },
  {
    name: 'a release within the tolerated clock skew after now counts',
    evidence: evidence({ registry: { version: '0.2.0', versions: versionsAgo([['0.0.1', 900], ['0.1.0', 100], ['0.2.0', -0.5]]) } }),
    score: 80,
    messageId: 'some',
    data: { count: 2, futureDated: 0 },
  },
  {
    name: 'every dated release in the future: unknown',
    evidence: evidence({ registry: { version: '0.2.0', versions: versionsAgo([['0.1.0', -10], ['0.2.0', -400]]) } }),
    score: null,
    messageId: 'future-times',
    data: { futureDated: 2 },
  },
  {
    name: 'a finished package whose newest release is dated in the future is not finished',
    evidence: evidence({
      registry: {
        version: '1.4.0',
        versions: versionsAgo([['1.0.0', 3000], ['1.1.0', 2500], ['1.2.0', 2000], ['1.3.0', 1500], ['1.4.0', 900], ['1.5.0', -900]]),
      },
    }),
    score: 20,
    messageId: 'none',
    data: { count: 0, finished: false, unmetFinishedCriteria: ['recent-release'] },
  },
  {
    name: 'no publish times',
    evidence: evidence({ registry: { trimmed: true, versions: versionsAgo([['2.1.0', null]]) } }),
    score: null,
    messageId: 'no-times',
  },
  {
    name: 'trimmed packument, times against version order: withheld',
    evidence: evidence({ registry: { trimmed: true, version: '1.3.0', versions: versionsAgo([['1.0.0', 10], ['1.1.0', 400], ['1.2.0', 5], ['1.3.0', 700]]) } }),
    score: null,
    messageId: 'times-out-of-order',
    data: { pairs: 3, backwards: 2 },
  },
  {
    name: 'trimmed packument, two releases of one line: withheld, untested',
    evidence: evidence({ registry: { trimmed: true, version: '1.1.0', versions: versionsAgo([['1.0.0', 40], ['1.1.0', 20]]) } }),
    score: null,
    messageId: 'times-untested',
    data: { pairs: 1, backwards: 0, stableReleases: 2, prereleases: 0 },
  },
  {
    name: 'trimmed packument of pre-releases only, dated against version order (electron-nightly\'s shape): withheld, and says so of its pre-releases',
    evidence: evidence({
      registry: {
        trimmed: true,
        version: '0.0.0',
        versions: versionsAgo([['0.0.0', 5], ['2.0.0-nightly.20260101', 100], ['2.0.0-nightly.20260102', 300], ['2.0.0-nightly.20260103', 200]]),
      },
    }),
    score: null,
    messageId: 'times-out-of-order-prereleases',
    data: { pairs: 2, backwards: 1, stableReleases: 1, prereleases: 3 },
  },
  {
    name: 'trimmed packument of pre-releases in version order: they vouch for nothing, the times stay untested',
    evidence: evidence({
      registry: { trimmed: true, version: '2.0.0-nightly.20260103', versions: versionsAgo([['2.0.0-nightly.20260101', 30], ['2.0.0-nightly.20260102', 20], ['2.0.0-nightly.20260103', 10]]) },
    }),
    score: null,
    messageId: 'times-untested',
    data: { pairs: 0, backwards: 0, stableReleases: 0, prereleases: 3 },
  },
  // PyPI: upload times; PEP 440 pre-releases are not counted, yanked releases are.
  { name: 'PyPI: two releases this year', evidence: pypiEvidence(), score: 80, messageId: 'some', data: { count: 2 } },
  {
    name: 'PyPI: pre-releases (a1, rc1, .dev0) are not counted, a yanked release is',
    evidence: pypiEvidence({
      pypi: {
        version: '0.5.0',
        releases: pypiReleases([['0.4.0', 500], ['0.5.0a1', 300, true], ['0.5.0rc1', 200, true], ['0.5.0.dev0', 150, true], ['0.5.0', 100, false, true]]),
      },
    }),
    score: 60,
    messageId: 'single',
    data: { count: 1 },
  },
  {
    name: 'PyPI: none this year, not finished',
    evidence: pypiEvidence({ pypi: { version: '0.4.0', releases: pypiReleases([['0.4.0', 500]]) } }),
    score: 20,
    messageId: 'none',
    data: { count: 0, finished: false, unmetFinishedCriteria: ['stable-1x', 'small', 'release-history'] },
  },
]);

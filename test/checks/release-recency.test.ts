import check, { recencyScore } from '../../src/checks/release-recency.js';
import { describe, expect, it } from 'vitest';
import { daysAgo, evidence, NOW, versionsAgo } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import type { ReleaseFacts } from '../../src/checks/views/release.js';
import { checkTable, lookup, outcomeOf } from './check-table.js';

/** The maintenance cap a stale release asks for (the band score is the limit). */
/** The stale-release cap, its args read from the reason it states ("… for 1,096 days (last: 2.0.0, 2023-06-01)"). */
const staleCap = (limit: number, reason: string) => {
  const [, days = '', version = '', date = ''] = /for ([\d,]+) days \(last: (\S+), (\d{4}-\d{2}-\d{2})\)$/.exec(reason) ?? [];
  return [{ id: 'stale-release', limit, dimension: 'maintenance' as const, reason, args: { days: Number(days.replace(/,/g, '')), version, date } }];
};

/** A package that is not "finished" (12 runtime dependencies), last released `days` ago. */
const lastReleased = (days: number) =>
  evidence({
    registry: {
      dependencies: 12,
      version: '2.0.0',
      versions: versionsAgo([
        ['1.0.0', days + 800],
        ['2.0.0', days],
      ]),
    },
  });

/** A finished package (small, stable, no scripts, 5 releases over years), last released `days` ago. */
const finished = (days: number) =>
  evidence({
    registry: {
      version: '1.4.0',
      versions: versionsAgo([
        ['1.0.0', days + 1400],
        ['1.1.0', days + 1000],
        ['1.2.0', days + 700],
        ['1.3.0', days + 300],
        ['1.4.0', days],
      ]),
    },
  });

/** PyPI releases from `[version, days before NOW, pre-release?, yanked?]`. */
const pypiReleases = (entries: readonly (readonly [string, number | null, boolean?, boolean?])[]) =>
  entries.map(([version, days, prerelease = false, yanked = false]) => ({
    version,
    time: days === null ? null : daysAgo(days),
    prerelease,
    yanked,
    yankedReason: null,
    files: days === null ? 0 : 2,
  }));

describe('release-recency: the stale hold', () => {
  it.each<[string, ReturnType<typeof evidence>, RegExp | null]>([
    ['not finished, 730 days: no hold', lastReleased(730), null],
    ['not finished, 731 days: held, naming what the rule misses', lastReleased(731), /^no stable release for 731 days \(last: 2\.0\.0, .*\), and not a finished package \(a finished one has at most 5 dependencies, 5 stable releases over 365 days\); a new release would lift this$/],
    ['finished, 1,095 days: no hold', finished(1095), null],
    ['finished, 1,096 days: held, the rule\'s age limit named', finished(1096), /finished-package rule vouches for one only 1,095 days after its last release; a new release would lift this$/],
    ['recent: no hold', lastReleased(12), null],
    ['a release dated in the future: held, the dates unknown', lastReleased(-3), /^release dates unknown, .*\(the registry dates 2\.0\.0 in the future\); a registry that serves publish times would lift this$/],
    [
      'a mirror\'s own dates (times against version order): held, the dates unknown',
      evidence({ registry: { trimmed: true, version: '1.3.0', versions: versionsAgo([['1.0.0', 10], ['1.1.0', 400], ['1.2.0', 5], ['1.3.0', 700]]) } }),
      /^release dates unknown, .*\(the registry's times run against version order: a mirror's own dates\); a registry that serves publish times would lift this$/,
    ],
    ['a trimmed packument with one release: held', evidence({ registry: { trimmed: true, version: '2.1.0', versions: versionsAgo([['2.1.0', 12]]) } }), /^release dates unknown, .*too few stable releases/],
    ['no publish times at all: held', evidence({ registry: { trimmed: true, versions: versionsAgo([['1.0.0', null], ['2.1.0', null]]) } }), /^release dates unknown, .*\(the registry gave no publish times\)/],
    ['a trimmed packument whose times follow version order: no hold', evidence({ registry: { trimmed: true, version: '1.2.0', versions: versionsAgo([['1.0.0', 900], ['1.1.0', 500], ['1.2.0', 12]]) } }), null],
  ])('%s', (_name, built, hold) => {
    const outcome = outcomeOf(check, built);
    if (hold === null) expect(outcome.holdVerdict).toBeUndefined();
    else expect(outcome.holdVerdict).toMatch(hold);
  });
});

checkTable(check, [
  { name: '12 days', evidence: lastReleased(12), score: 100, messageId: 'recent', data: { days: 12, version: '2.0.0' } },
  { name: '90 days', evidence: lastReleased(90), score: 100, messageId: 'recent', data: { days: 90 } },
  { name: '91 days', evidence: lastReleased(91), score: 90, messageId: 'recent', data: { days: 91 } },
  { name: '180 days', evidence: lastReleased(180), score: 90, messageId: 'recent' },
  { name: '181 days', evidence: lastReleased(181), score: 75, messageId: 'recent' },
  { name: '365 days', evidence: lastReleased(365), score: 75, messageId: 'recent' },
  {
    name: '366 days',
    evidence: lastReleased(366),
    score: 50,
    messageId: 'stale',
    data: { days: 366, finished: false, unmetFinishedCriteria: ['few-dependencies', 'release-history'] },
  },
  { name: '730 days', evidence: lastReleased(730), score: 50, messageId: 'stale' },
  {
    name: '731 days: held, and the maintenance dimension capped at the band score',
    evidence: lastReleased(731),
    score: 30,
    messageId: 'stale',
    caps: staleCap(30, 'no stable release for 731 days (last: 2.0.0, 2024-05-31)'),
  },
  { name: '1095 days', evidence: lastReleased(1095), score: 30, messageId: 'stale', caps: staleCap(30, 'no stable release for 1,095 days (last: 2.0.0, 2023-06-02)') },
  {
    name: '1096 days',
    evidence: lastReleased(1096),
    score: 10,
    messageId: 'stale',
    data: { days: 1096 },
    caps: staleCap(10, 'no stable release for 1,096 days (last: 2.0.0, 2023-06-01)'),
  },
  { name: 'a part day does not round up', evidence: lastReleased(90.9), score: 100, messageId: 'recent', data: { days: 90 } },
  {
    name: 'a publish time after now, within the tolerated clock skew, counts as 0 days',
    evidence: lastReleased(-0.5),
    score: 100,
    messageId: 'recent',
    data: { days: 0 },
  },
  {
    name: 'a publish time more than a day in the future is invalid: unknown, never fresh',
    evidence: lastReleased(-3),
    score: null,
    messageId: 'future-time',
    data: { version: '2.0.0', date: daysAgo(-3) },
  },
  {
    name: 'one future date among real ones: still unknown (the newest release\'s day cannot be told)',
    evidence: evidence({ registry: { dependencies: 12, version: '2.0.0', versions: versionsAgo([['1.0.0', 1500], ['1.5.0', 1200], ['2.0.0', -400]]) } }),
    score: null,
    messageId: 'future-time',
    data: { version: '2.0.0' },
  },
  {
    name: 'a finished package whose newest release is dated in the future: unknown, not finished',
    evidence: finished(-30),
    score: null,
    messageId: 'future-time',
    data: { version: '1.4.0' },
  },
  {
    name: 'a pre-release dated in the future does not touch the stable releases\' recency',
    evidence: evidence({ registry: { dependencies: 12, version: '1.0.0', versions: versionsAgo([['1.0.0', 40], ['2.0.0-beta.1', -30]]) } }),
    score: 100,
    messageId: 'recent',
    data: { days: 40, version: '1.0.0' },
  },
  {
    name: 'PyPI: an upload time in the future is unknown, never fresh',
    evidence: pypiEvidence({ pypi: { version: '1.1.0', releases: pypiReleases([['1.0.0', 700], ['1.1.0', -10]]) } }),
    score: null,
    messageId: 'future-time',
    data: { version: '1.1.0' },
  },
  {
    name: 'pre-releases do not count as releases',
    evidence: evidence({
      registry: {
        dependencies: 12,
        version: '1.0.0',
        versions: versionsAgo([
          ['1.0.0', 400],
          ['2.0.0-beta.1', 5],
        ]),
      },
    }),
    score: 50,
    messageId: 'stale',
    data: { days: 400, version: '1.0.0', prereleaseOnly: false },
  },
  {
    name: 'only pre-releases: the newest one is measured',
    evidence: evidence({ registry: { version: '0.1.0-alpha.2', versions: versionsAgo([['0.1.0-alpha.1', 40], ['0.1.0-alpha.2', 10]]) } }),
    score: 100,
    messageId: 'recent',
    data: { days: 10, version: '0.1.0-alpha.2', prereleaseOnly: true },
  },
  {
    name: 'publish time with a +02:00 offset',
    evidence: evidence({
      registry: { dependencies: 12, version: '1.0.0', versions: [{ version: '1.0.0', time: '2026-03-03T02:00:00.000+02:00' }] },
    }),
    score: 100,
    messageId: 'recent',
    // The evidence keeps the instant, the message names the day.
    data: { days: 90, date: '2026-03-03T00:00:00.000Z', day: '2026-03-03' },
    message: ['(1.0.0, 2026-03-03)'],
  },
  {
    name: 'no publish times (trimmed packument)',
    evidence: evidence({ registry: { trimmed: true, versions: versionsAgo([['1.0.0', null], ['2.1.0', null]]) } }),
    score: null,
    messageId: 'no-times',
    data: { versions: 2 },
  },
  {
    name: 'trimmed packument, times against version order (a mirror\'s fetch dates): withheld',
    evidence: evidence({ registry: { trimmed: true, version: '1.3.0', versions: versionsAgo([['1.0.0', 10], ['1.1.0', 400], ['1.2.0', 5], ['1.3.0', 700]]) } }),
    score: null,
    messageId: 'times-out-of-order',
    data: { pairs: 3, backwards: 2 },
  },
  {
    name: 'trimmed packument, times in version order: taken as publish times',
    evidence: evidence({ registry: { trimmed: true, version: '1.2.0', versions: versionsAgo([['1.0.0', 900], ['1.1.0', 500], ['1.2.0', 12]]) } }),
    score: 100,
    messageId: 'recent',
    data: { days: 12, version: '1.2.0' },
  },
  {
    name: 'trimmed packument, one release: its order cannot be tested, withheld',
    evidence: evidence({ registry: { trimmed: true, version: '2.1.0', versions: versionsAgo([['2.1.0', 12]]) } }),
    score: null,
    messageId: 'times-untested',
    data: { pairs: 0, backwards: 0, stableReleases: 1, prereleases: 0 },
  },
  {
    name: 'trimmed packument of nightlies dated against version order (electron-nightly\'s shape): withheld, said of its pre-releases',
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
    name: 'full packument, times against version order: npm\'s own times, taken',
    evidence: evidence({ registry: { version: '1.3.0', versions: versionsAgo([['1.0.0', 10], ['1.1.0', 400], ['1.2.0', 5], ['1.3.0', 700]]) } }),
    score: 100,
    messageId: 'recent',
    data: { days: 5, version: '1.2.0' },
  },
  {
    name: 'unparseable publish times are no times',
    evidence: evidence({ registry: { versions: [{ version: '2.1.0', time: 'yesterday' }] } }),
    score: null,
    messageId: 'no-times',
  },
  {
    name: 'finished package, 800 days: floor 70',
    evidence: finished(800),
    score: 70,
    messageId: 'finished',
    data: { days: 800, finished: true },
    message: ['No release for 800 days', 'rare releases are expected'],
  },
  { name: 'finished package, 1,095 days: still 70 (the rule\'s age limit)', evidence: finished(1095), score: 70, messageId: 'finished' },
  {
    name: 'finished package, 1,096 days: past the age limit, the band score',
    evidence: finished(1096),
    score: 10,
    messageId: 'finished-past-limit',
    data: { days: 1096, finished: false, unmetFinishedCriteria: ['recent-release'], limitDays: 1095 },
    message: ['No release for 1,096 days', 'past the 1,095 days'],
    caps: staleCap(10, 'no stable release for 1,096 days (last: 1.4.0, 2023-06-01)'),
  },
  { name: 'finished package released recently keeps its higher score', evidence: finished(20), score: 100, messageId: 'recent' },
  {
    name: 'finished except for a pre-release version: no floor',
    evidence: evidence({
      registry: {
        version: '2.0.0-rc.1',
        versions: versionsAgo([
          ['1.0.0', 2200],
          ['1.1.0', 1800],
          ['1.2.0', 1500],
          ['1.3.0', 1100],
          ['1.4.0', 800],
          ['2.0.0-rc.1', 790],
        ]),
      },
    }),
    score: 30,
    messageId: 'stale',
    data: { days: 800, unmetFinishedCriteria: ['stable-1x'] },
    caps: staleCap(30, 'no stable release for 800 days (last: 1.4.0, 2024-03-23)'),
  },
  // PyPI: the same bands over first upload times.
  {
    name: 'PyPI: last upload 30 days ago',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'recent',
    data: { days: 30, version: '2.1.0', prereleaseOnly: false },
  },
  {
    name: 'PyPI: a PEP 440 pre-release does not count as a release',
    evidence: pypiEvidence({ pypi: { version: '1.0.0', releases: pypiReleases([['1.0.0', 400], ['2.0.0rc1', 5, true]]) } }),
    score: 50,
    messageId: 'stale',
    data: { days: 400, version: '1.0.0', finished: false },
  },
  {
    name: 'PyPI: a yanked release still counts (it was shipped)',
    evidence: pypiEvidence({ pypi: { releases: pypiReleases([['2.0.0', 400], ['2.1.0', 200], ['2.1.1', 10, false, true]]) } }),
    score: 100,
    messageId: 'recent',
    data: { days: 10, version: '2.1.1' },
  },
  {
    name: 'PyPI: small and stable, but PyPI publishes no unpacked size: never finished',
    evidence: pypiEvidence({
      pypi: {
        version: '1.4.0',
        dependencies: [],
        releases: pypiReleases([['1.0.0', 2200], ['1.1.0', 1800], ['1.2.0', 1500], ['1.3.0', 1100], ['1.4.0', 800]]),
      },
    }),
    score: 30,
    messageId: 'stale',
    data: { days: 800, finished: false, unmetFinishedCriteria: ['small'] },
    caps: staleCap(30, 'no stable release for 800 days (last: 1.4.0, 2024-03-23)'),
  },
  {
    name: 'PyPI: a sdist-only release runs code at install: not finished for that too',
    evidence: pypiEvidence({
      pypi: {
        version: '1.4.0',
        dependencies: [],
        sdistOnly: true,
        releases: pypiReleases([['1.0.0', 2200], ['1.1.0', 1800], ['1.2.0', 1500], ['1.3.0', 1100], ['1.4.0', 800]]),
      },
    }),
    score: 30,
    messageId: 'stale',
    data: { unmetFinishedCriteria: ['no-install-scripts', 'small'] },
    caps: staleCap(30, 'no stable release for 800 days (last: 1.4.0, 2024-03-23)'),
  },
  {
    name: 'PyPI: releases without files have no upload time',
    evidence: pypiEvidence({ pypi: { releases: pypiReleases([['2.0.0', null], ['2.1.0', null]]) } }),
    score: null,
    messageId: 'no-times',
    data: { versions: 2 },
  },
]);

describe('recencyScore', () => {
  it.each([
    [0, 100],
    [90, 100],
    [91, 90],
    [180, 90],
    [181, 75],
    [365, 75],
    [366, 50],
    [730, 50],
    [731, 30],
    [1095, 30],
    [1096, 10],
    [10_000, 10],
  ])('%i days → %i', (days, score) => {
    expect(recencyScore(days)).toBe(score);
  });

  it('is measured from ctx.now, not the clock', () => {
    const later = new Date(NOW.getTime() + 200 * 86_400_000);
    const ran = check.evaluate({ release: lastReleasedFacts(10) }, { now: later });
    expect(ran.data?.days).toBe(210);
  });
});

function lastReleasedFacts(days: number) {
  const source = lookup(lastReleased(days), 'release');
  if (source.status !== 'ok') throw new Error('release facts expected');
  return source.facts as ReleaseFacts;
}

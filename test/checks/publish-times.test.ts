/**
 * Whether a trimmed packument's times read as publish times (src/checks/lib/publish-times.ts,
 * docs/scoring.md §12): neighbouring stable releases of one major line dated backwards.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BACKWARDS_SHARE, timeOrder, withheldTimes } from '../../src/checks/lib/publish-times.js';
import { versionsAgo } from '../support/evidence-builder.js';

describe('timeOrder', () => {
  it('counts neighbours of one major line only: a backport to an older line is not backwards', () => {
    // 1.0.1 published after 2.0.0 (a backport): the 1.x and 2.x lines each run forwards.
    const order = timeOrder(versionsAgo([['1.0.0', 500], ['1.0.1', 10], ['2.0.0', 300], ['2.1.0', 100]]));
    expect(order).toEqual({ pairs: 2, backwards: 0 });
  });

  it('leaves out pre-releases, undated and unparseable versions', () => {
    const order = timeOrder([
      ...versionsAgo([['1.0.0', 300], ['1.1.0-beta.1', 900], ['1.1.0', 200], ['1.2.0', null]]),
      { version: 'not-a-version', time: '2026-01-01T00:00:00.000Z' },
      { version: '1.3.0', time: 'yesterday' },
    ]);
    expect(order).toEqual({ pairs: 1, backwards: 0 });
  });

  it('reads versions in version order whatever order they are listed in', () => {
    expect(timeOrder(versionsAgo([['1.2.0', 10], ['1.0.0', 300], ['1.1.0', 200]]))).toEqual({ pairs: 2, backwards: 0 });
    expect(timeOrder(versionsAgo([['1.10.0', 300], ['1.9.0', 10]]))).toEqual({ pairs: 1, backwards: 1 });
  });
});

describe('withheldTimes', () => {
  /** 21 releases of one line (20 neighbours), `backwards` of them (every second one, at most 10) dated before the one below. */
  const line = (backwards: number) =>
    versionsAgo(Array.from({ length: 21 }, (_, i) => [`1.${i}.0`, 1000 - i * 10 + (i % 2 === 0 && i > 0 && i / 2 <= backwards ? 15 : 0)] as const));

  it('takes times with at most the allowed share backwards, withholds them past it', () => {
    const allowed = Math.floor(MAX_BACKWARDS_SHARE * 20);
    expect(timeOrder(line(allowed))).toEqual({ pairs: 20, backwards: allowed });
    expect(withheldTimes(true, line(allowed))).toBeNull();
    expect(withheldTimes(true, line(allowed + 1))).toEqual({ reason: 'out-of-order', onPrereleases: false, pairs: 20, backwards: allowed + 1, stableReleases: 21, prereleases: 0 });
  });

  it('never withholds a full packument\'s times, nor times that are all absent', () => {
    expect(withheldTimes(false, line(10))).toBeNull();
    expect(withheldTimes(true, versionsAgo([['1.0.0', null], ['1.1.0', null]]))).toBeNull();
  });

  it('withholds a trimmed packument\'s times when too few neighbours test their order', () => {
    expect(withheldTimes(true, versionsAgo([['1.0.0', 300], ['2.0.0', 10], ['3.0.0', 5]]))).toEqual({ reason: 'too-few', pairs: 0, backwards: 0, stableReleases: 3, prereleases: 0 });
    expect(withheldTimes(true, versionsAgo([['1.0.0', 300], ['1.1.0', 10], ['1.2.0', 5]]))).toBeNull();
  });
});

describe('a package of pre-releases', () => {
  it('tests the order of its pre-releases when too few stable releases neighbour each other: only to show the dates are a mirror\'s', () => {
    const nightlies = versionsAgo([['1.0.0-nightly.20260101', 300], ['1.0.0-nightly.20260102', 200], ['1.0.0-nightly.20260103', 100]]);
    expect(timeOrder(nightlies, { prereleases: true })).toEqual({ pairs: 2, backwards: 0 });
    // In order, they vouch for nothing: the times stay untested.
    expect(withheldTimes(true, nightlies)).toEqual({ reason: 'too-few', pairs: 0, backwards: 0, stableReleases: 0, prereleases: 3 });
    const fetched = versionsAgo([['1.0.0-nightly.20260101', 100], ['1.0.0-nightly.20260102', 300], ['1.0.0-nightly.20260103', 200], ['0.0.0', 5]]);
    expect(withheldTimes(true, fetched)).toEqual({ reason: 'out-of-order', onPrereleases: true, pairs: 2, backwards: 1, stableReleases: 1, prereleases: 3 });
    // Stable releases enough to test: pre-releases are left out as before.
    expect(withheldTimes(true, [...fetched, ...versionsAgo([['1.0.0', 50], ['1.1.0', 40], ['1.2.0', 30]])])).toBeNull();
  });

  it('electron-nightly as a mirror trimmed it (fixtures/PROVENANCE.md): 586 nightlies dated by the mirror, against version order', () => {
    const packument = JSON.parse(readFileSync(new URL('../../fixtures/publish-times/electron-nightly.json', import.meta.url), 'utf8')) as { time: Record<string, string> };
    const versions = Object.entries(packument.time).map(([version, time]) => ({ version, time }));
    expect(versions).toHaveLength(587);
    expect(withheldTimes(true, versions)).toEqual({ reason: 'out-of-order', onPrereleases: true, pairs: 545, backwards: 281, stableReleases: 1, prereleases: 586 });
  });
});

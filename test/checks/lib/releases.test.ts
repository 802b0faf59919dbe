/**
 * The release helpers' fast paths against what they stand for: the plain-version shortcut
 * against semver, and the dated lists computed once per entries list against a fresh
 * computation.
 */
import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { datedEntries, isStableVersion } from '../../../src/checks/lib/releases.js';
import type { ReleaseEntryLike } from '../../../src/checks/lib/releases.js';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Timestamps in the registries' form, some fields past their valid range. */
const canonical = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 60 }),
    fc.integer({ min: 0, max: 60 }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);

describe('isStableVersion', () => {
  const reference = (version: string): boolean => {
    const parsed = semver.parse(version);
    return parsed !== null && parsed.prerelease.length === 0;
  };
  const part = fc.oneof(fc.nat(30).map(String), fc.constantFrom('0', '00', '01', '9007199254740991', '9007199254740992', '123456789012345', '1234567890123456'));
  const version = fc.oneof(
    fc.tuple(part, part, part).map((parts) => parts.join('.')),
    fc
      .tuple(part, part, part, fc.constantFrom('', '-beta.1', '-0', '+build', '-rc.1+b', ' ', 'v', '=', '\n', '.4'))
      .map(([a, b, c, extra]) => (extra === 'v' || extra === '=' ? `${extra}${a}.${b}.${c}` : `${a}.${b}.${c}${extra}`)),
    fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'a', 'v', ' '), maxLength: 12 }),
  );

  it('agrees with semver for plain versions and everything else', () => {
    fc.assert(
      fc.property(version, (v) => {
        expect(isStableVersion(v)).toBe(reference(v));
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
  });
});

describe('datedEntries', () => {
  const entry = fc.record({
    version: fc.constantFrom('1.0.0', '1.1.0', '2.0.0-beta.1', '2.0.0'),
    time: fc.oneof(canonical, fc.constant(null), fc.constant('not a time'), fc.constant('2025-03-01T10:00:00+01:00')),
    stable: fc.boolean(),
  });
  const fresh = (entries: readonly ReleaseEntryLike[], stableOnly: boolean) =>
    entries
      .filter((e) => !stableOnly || e.stable)
      .flatMap((e) => (e.time === null || Number.isNaN(Date.parse(e.time)) ? [] : [{ version: e.version, time: new Date(Date.parse(e.time)) }]))
      .sort((a, b) => a.time.getTime() - b.time.getTime());

  it('is the dated, sorted list however often, in whichever order and for whichever list it is asked', () => {
    const lists = fc.array(fc.array(entry, { maxLength: 12 }), { minLength: 1, maxLength: 3 });
    const asks = fc.array(fc.tuple(fc.nat(2), fc.boolean()), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(lists, asks, (entryLists, questions) => {
        for (const [which, stableOnly] of questions) {
          const entries = entryLists[which % entryLists.length]!;
          expect(datedEntries(entries, stableOnly)).toEqual(fresh(entries, stableOnly));
        }
      }),
      { numRuns: 5000, seed: 20261201 },
    );
  });

  it('gives each caller its own array', () => {
    const entries: ReleaseEntryLike[] = [{ version: '1.0.0', time: '2025-01-01T00:00:00.000Z', stable: true }];
    const first = datedEntries(entries, true);
    first.pop();
    expect(datedEntries(entries, true)).toHaveLength(1);
    expect(datedEntries(entries, true)).not.toBe(datedEntries(entries, true));
  });
});

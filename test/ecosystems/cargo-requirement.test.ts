/**
 * Cargo's version requirements resolved as cargo would without a lockfile
 * (ecosystems/cargo-requirement.ts): the highest published version that is neither yanked nor a
 * pre-release and matches; a pre-release only when the requirement names one of the same
 * major.minor.patch. The rows are cargo's own rules (The Cargo Book, "Specifying Dependencies").
 */
import { describe, expect, it } from 'vitest';
import { cargoRange, resolveCargoRequirement, type PublishedCrateVersion } from '../../src/ecosystems/cargo-requirement.js';

const published = (spec: string): PublishedCrateVersion[] =>
  spec.split(' ').map((v) => (v.endsWith('!') ? { vers: v.slice(0, -1), yanked: true } : { vers: v, yanked: false }));

// 1.x and 0.x series, a yanked 1.4.2 (its `!`), a pre-release of 2.0.0 and a 2.0.0.
const VERSIONS = published('0.1.0 0.2.3 0.2.9 0.3.0 0.0.3 0.0.4 1.0.0 1.2.3 1.2.9 1.3.0 1.4.1 1.4.2! 2.0.0-beta.1 2.0.0 2.1.0-rc.1');

describe('resolveCargoRequirement', () => {
  it.each([
    // A bare version is a caret requirement (unlike node-semver, where it is exact).
    ['1.2.3', '1.4.1'],
    ['1', '1.4.1'],
    ['1.2', '1.4.1'],
    ['^1.2.3', '1.4.1'],
    // Caret on 0.x: the minor is the breaking part; on 0.0.x, the patch.
    ['0.2.3', '0.2.9'],
    ['^0.2', '0.2.9'],
    ['^0.0.3', '0.0.3'],
    ['0.0', '0.0.4'],
    ['^0', '0.3.0'],
    // Tilde: the minor fixed when given, else the major.
    ['~1.2.3', '1.2.9'],
    ['~1.2', '1.2.9'],
    ['~1', '1.4.1'],
    // Exact, and comparisons with partial versions.
    ['=1.2.3', '1.2.3'],
    ['>=1.2.3', '2.0.0'],
    ['>1.2', '2.0.0'],
    ['<1.3', '1.2.9'],
    ['<=1.2', '1.2.9'],
    // Comma lists: every comparator holds.
    ['>=1.2, <1.4', '1.3.0'],
    ['>= 0.2.3 , < 0.3', '0.2.9'],
    // Wildcards.
    ['*', '2.0.0'],
    ['1.*', '1.4.1'],
    ['1.2.*', '1.2.9'],
    // A yanked version is never picked: 1.4.2 is the highest 1.4 but yanked.
    ['~1.4', '1.4.1'],
    // Pre-releases only when the requirement names one of the same major.minor.patch.
    ['>=2.0.0-alpha', '2.0.0'],
    ['^2.1.0-rc.1', '2.1.0-rc.1'],
    ['=2.0.0-beta.1', '2.0.0-beta.1'],
    ['>=2.0.1', null],
  ])('%s → %s', (requirement, expected) => {
    const picked = resolveCargoRequirement(VERSIONS, requirement);
    expect(picked).toEqual(expected === null ? { ok: false, reason: expect.any(String) } : { ok: true, version: expected });
  });

  it('only a yanked version matches: unresolved, the reason says yanked', () => {
    expect(resolveCargoRequirement(VERSIONS, '=1.4.2')).toEqual({ ok: false, reason: 'only yanked versions match =1.4.2' });
  });

  it('nothing published matches: unresolved, never a guess', () => {
    expect(resolveCargoRequirement(VERSIONS, '3')).toEqual({ ok: false, reason: 'no published version matches 3' });
    expect(resolveCargoRequirement([], '1')).toEqual({ ok: false, reason: 'no published version matches 1' });
  });

  it('a version string the index holds that is not semver is skipped', () => {
    expect(resolveCargoRequirement(published('1.0 1.0.1 x'), '1')).toEqual({ ok: true, version: '1.0.1' });
  });
});

describe('cargoRange', () => {
  it.each([
    ['1.2.3', '^1.2.3'],
    ['>=1.2, <1.5', '>=1.2 <1.5'],
    ['1.*', '1.*'],
    ['= 1.2.3', '=1.2.3'],
  ])('%s → %s', (requirement, range) => expect(cargoRange(requirement)).toBe(range));

  // What node-semver reads and cargo does not: refused, so the dependency stays unresolved.
  it.each(['1.2.3 || 2.0.0', '1.2.3 - 2.0.0', '>=1.2 <1.5', 'v1.2.3', '', ',', '1.2,', 'latest', '^1.2.3.4', `${'1.'.repeat(200)}0`])('%j is not a cargo requirement', (requirement) => {
    expect(cargoRange(requirement)).toBeNull();
    expect(resolveCargoRequirement(VERSIONS, requirement)).toEqual({ ok: false, reason: expect.stringMatching(/^not a cargo version requirement/) });
  });
});

/**
 * PEP 440 resolution as pip does it: default release, pre-releases, yanked releases (PEP 592),
 * `==` zero padding, `~=`, `!=`, `===`, local versions, ranges, and the nearest versions when
 * nothing matches.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  comparePep440,
  isPep440Prerelease,
  nearestVersions,
  resolvePypiVersion,
  type ResolvableRelease,
} from '../../src/ecosystems/pypi/resolve.js';

const rel = (version: string, extra: Partial<ResolvableRelease> = {}): ResolvableRelease => ({ version, yanked: false, ...extra });
const yanked = (version: string) => rel(version, { yanked: true });

/** Shaped after requests' history around 2.19 (2.19.0 is written `2.19.0`, never `2.19`). */
const REQUESTS = [
  rel('2.17.3'),
  rel('2.18.0'),
  rel('2.18.4'),
  rel('2.19.0'),
  rel('2.19.1'),
  rel('2.20.0'),
  rel('2.21.0rc1'),
  yanked('2.21.0'),
  rel('2.22.0.dev1'),
];

const resolve = (releases: ResolvableRelease[], spec?: string) => resolvePypiVersion(releases, spec);
const version = (releases: ResolvableRelease[], spec?: string) => {
  const result = resolve(releases, spec);
  return result.ok ? result.version : `✗ ${result.reason}`;
};

describe('default release', () => {
  test('the newest final release that is not yanked', () => {
    expect(version(REQUESTS)).toBe('2.20.0');
    expect(version(REQUESTS, '')).toBe('2.20.0');
    expect(version(REQUESTS, '   ')).toBe('2.20.0');
  });

  test('pre-releases only when no final release exists (black before 22.1 was all betas)', () => {
    expect(version([rel('19.3b0'), rel('19.10b0'), yanked('21.11b0')])).toBe('19.10b0');
    expect(version([rel('1.0a1'), rel('1.0b2'), rel('0.9')])).toBe('0.9');
  });

  test('a release without files is not installable', () => {
    expect(version([rel('1.0.0'), rel('1.1.0', { files: 0 })])).toBe('1.0.0');
  });

  test('every release yanked → not found, nearest listed', () => {
    const result = resolve([yanked('1.0'), yanked('1.1')]);
    expect(result).toEqual({ ok: false, reason: 'every release is yanked or has no files', nearest: ['1.0', '1.1'] });
  });

  test('no releases at all', () => {
    expect(resolve([])).toEqual({ ok: false, reason: 'the project has no releases', nearest: [] });
  });
});

describe('specifiers', () => {
  test.each([
    ['==2.19', '2.19.0'],
    ['2.19', '2.19.0'],
    ['==2.19.0', '2.19.0'],
    ['== 2.19.1', '2.19.1'],
    ['~=2.18', '2.20.0'],
    ['~=2.18.0', '2.18.4'],
    ['>=2.18,<2.20', '2.19.1'],
    ['!=2.20.0', '2.19.1'],
    ['!=2.20.0,!=2.19.1,>=2', '2.19.0'],
    ['==2.*', '2.20.0'],
    ['==2.18.*', '2.18.4'],
    ['<2.19', '2.18.4'],
    ['>2.19.0', '2.20.0'],
    ['===2.19.0', '2.19.0'],
  ])('%s → %s', (spec, expected) => {
    expect(version(REQUESTS, spec)).toBe(expected);
  });

  test('a specifier that names a pre-release admits pre-releases', () => {
    expect(version(REQUESTS, '>=2.21.0rc1')).toBe('2.22.0.dev1');
    expect(version(REQUESTS, '==2.21.0rc1')).toBe('2.21.0rc1');
  });

  test('only pre-releases match → the newest pre-release (pip falls back)', () => {
    expect(version(REQUESTS, '>2.20.0')).toBe('2.22.0.dev1');
  });

  test('=== is string equality: it can select a version that is not PEP 440', () => {
    const releases = [rel('1.0'), rel('2004d'), rel('1.0-final-patch')];
    expect(version(releases, '===1.0-final-patch')).toBe('1.0-final-patch');
    expect(version(releases, '===1.0.0')).toMatch(/^✗ no release is exactly "1.0.0"/);
  });

  test('an invalid specifier is refused with the reason', () => {
    expect(resolve(REQUESTS, '>=>2')).toEqual({ ok: false, reason: 'invalid version specifier ">=>2"', nearest: [] });
    expect(resolve(REQUESTS, '~=2')).toMatchObject({ ok: false, reason: 'invalid version specifier "~=2"' });
  });
});

describe('yanked releases (PEP 592)', () => {
  test('an exact == or === pin selects a yanked release', () => {
    expect(version(REQUESTS, '==2.21.0')).toBe('2.21.0');
    expect(version(REQUESTS, '===2.21.0')).toBe('2.21.0');
    expect(version([rel('21.10b0'), yanked('21.11b0')], '==21.11b0')).toBe('21.11b0');
  });

  test('a range never selects a yanked release, even the only match', () => {
    expect(version(REQUESTS, '>=2.21,<2.22')).toMatch(/^✗ only yanked \(or file-less\) releases match ">=2.21,<2.22"; pin one exactly/);
    expect(version(REQUESTS, '~=2.21.0')).toMatch(/^✗ only yanked/);
    // pip, too, takes the matching pre-release rather than the yanked final release.
    expect(version(REQUESTS, '==2.21.*')).toBe('2.21.0rc1');
    expect(version([rel('2.20.0'), yanked('2.21.0')], '==2.21.*')).toMatch(/^✗ only yanked/);
  });

  test('the default and ranges skip a yanked newest release', () => {
    expect(version(REQUESTS, '>=2.19')).toBe('2.20.0');
  });

  test('an exact pin prefers a non-yanked match (a local version of the same release)', () => {
    expect(version([yanked('1.0'), rel('1.0+ubuntu1')], '==1.0')).toBe('1.0+ubuntu1');
  });

  test('an exact pin selects a release without files', () => {
    expect(version([rel('1.0'), rel('1.1', { files: 0 })], '==1.1')).toBe('1.1');
  });
});

describe('local versions', () => {
  const releases = [rel('1.0'), rel('1.0+local.1'), rel('1.1')];

  test('a public pin matches its local versions; the highest wins', () => {
    expect(version(releases, '==1.0')).toBe('1.0+local.1');
  });

  test('a local pin matches exactly', () => {
    expect(version(releases, '==1.0+local.1')).toBe('1.0+local.1');
    expect(version(releases, '1.0+local.1')).toBe('1.0+local.1');
    expect(version(releases, '==1.0+other')).toMatch(/^✗ no release matches "==1.0\+other"/);
  });

  test('ordered comparisons ignore the local label', () => {
    expect(version(releases, '<1.1')).toBe('1.0+local.1');
  });
});

describe('nothing matches → nearest versions', () => {
  test('a missing pin lists the versions around it, in PEP 440 order', () => {
    expect(resolve(REQUESTS, '==2.19.5')).toEqual({
      ok: false,
      reason: 'no release matches "==2.19.5"',
      nearest: ['2.18.0', '2.18.4', '2.19.0', '2.19.1', '2.20.0'],
    });
  });

  test('above every release → the newest ones', () => {
    expect(resolve(REQUESTS, '>=3')).toMatchObject({ ok: false, nearest: ['2.18.0', '2.18.4', '2.19.0', '2.19.1', '2.20.0'] });
    expect(resolve(REQUESTS, '==9.0')).toMatchObject({ nearest: ['2.18.0', '2.18.4', '2.19.0', '2.19.1', '2.20.0'] });
  });

  test('below every release → the oldest ones', () => {
    expect(resolve(REQUESTS, '<1')).toMatchObject({ ok: false, nearest: ['2.17.3', '2.18.0', '2.18.4', '2.19.0', '2.19.1'] });
    const many = ['0.1', '0.2', '0.3', '1.0', '1.1', '2.0', '2.1', '3.0'].map((v) => rel(v));
    expect(nearestVersions(many, '==0.0.1')).toEqual(['0.1', '0.2', '0.3', '1.0', '1.1']);
    expect(nearestVersions(many, '==1.05')).toEqual(['0.3', '1.0', '1.1', '2.0', '2.1']);
    expect(nearestVersions(many, '')).toEqual(['1.0', '1.1', '2.0', '2.1', '3.0']);
  });

  test('nearest prefers installable final releases', () => {
    const releases = [rel('1.0'), yanked('1.1'), rel('1.2'), yanked('1.3'), rel('1.4rc1'), rel('1.4'), rel('1.5'), rel('1.6'), rel('1.7')];
    expect(nearestVersions(releases, '==1.3.5')).toEqual(['1.0', '1.2', '1.4', '1.5', '1.6']);
    expect(nearestVersions([rel('1.0a1'), rel('1.0b1'), yanked('1.0')], '==1.0')).toEqual(['1.0a1', '1.0b1']);
  });
});

describe('hostile release data', () => {
  test('versions that are not PEP 440 are ignored (except by ===)', () => {
    const releases = [rel('1.0'), rel('not a version'), rel(''), rel('9'.repeat(500)), rel('2.0')];
    expect(version(releases)).toBe('2.0');
    expect(version(releases, '>=1')).toBe('2.0');
  });

  test('never throws, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ version: fc.string({ maxLength: 20 }), yanked: fc.boolean() }), { maxLength: 8 }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        (releases, spec) => {
          const result = resolvePypiVersion(releases, spec);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('comparePep440 and isPep440Prerelease', () => {
  test.each([
    ['1.0', '1.0.0', 0],
    ['1.0a1', '1.0', -1],
    ['1.0.dev1', '1.0a1', -1],
    ['1.0', '1.0.post1', -1],
    ['1!0.5', '2.0', 1],
    ['1.0+local', '1.0', 1],
    ['1.10', '1.9', 1],
  ])('%s vs %s → %i', (a, b, order) => {
    expect(comparePep440(a, b)).toBe(order);
  });

  test('invalid versions cannot be compared', () => {
    expect(comparePep440('x', '1.0')).toBeNull();
    expect(comparePep440('1.0', '')).toBeNull();
  });

  test.each([
    ['2.0.0rc1', true],
    ['2.0.0.dev3', true],
    ['21.11b0', true],
    ['2.0.0', false],
    ['2.0.0.post1', false],
    ['garbage', false],
  ])('%s prerelease → %s', (v, expected) => {
    expect(isPep440Prerelease(v)).toBe(expected);
  });
});

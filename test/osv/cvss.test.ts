import { beforeAll, describe, expect, test, vi } from 'vitest';
import { cvssBaseScore, cvssVersionOf, loadCvssCalculator, severityOfScore } from '../../src/sources/osv/cvss.js';

describe('the calculator loads when asked', () => {
  test('scoring before loadCvssCalculator is a mistake that throws, never an unscored vector', async () => {
    vi.resetModules();
    const fresh = await import('../../src/sources/osv/cvss.js');
    expect(fresh.cvssVersionOf('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe('3.1');
    expect(fresh.cvssBaseScore('not a vector')).toBeNull();
    expect(() => fresh.cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toThrow(/not loaded/);
    await fresh.loadCvssCalculator();
    expect(fresh.cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(9.8);
  });
});

beforeAll(loadCvssCalculator);

describe('cvssBaseScore', () => {
  test.each([
    ['v3.1 critical (minimist GHSA-xvch-5gv4-984h)', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['v3.1 high (lodash GHSA-35jh-r3h4-6jhm)', 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H', 7.2],
    ['v3.1 moderate (lodash GHSA-29mw-wpgm-hmr9)', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L', 5.3],
    ['v3.1 high (flask GHSA-m2qf-hxjv-5gpq)', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5],
    ['v3.1 scope changed', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['v3.1 base only, temporal metrics ignored', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:U/RL:O/RC:C', 9.8],
    ['v3.1 no impact', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
    ['v3.0', 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['v4.0', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 9.3],
    ['v4.0 no impact', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', 0],
    ['v2', 'AV:N/AC:L/Au:N/C:P/I:P/A:P', 7.5],
    ['v2 in parentheses, as NVD writes it', '(AV:N/AC:L/Au:N/C:C/I:C/A:C)', 10],
    ['v2 base only, temporal metrics ignored', 'AV:N/AC:L/Au:N/C:P/I:P/A:P/E:U/RL:OF/RC:C', 7.5],
    ['surrounding whitespace', '  CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H \n', 9.8],
  ])('%s', (_label, vector, score) => {
    expect(cvssBaseScore(vector)).toBe(score);
  });

  test.each([
    ['empty', ''],
    ['garbage', 'garbage'],
    ['a prefix only', 'CVSS:3.1/'],
    ['base metrics missing', 'CVSS:3.1/AV:N'],
    ['an unknown value', 'CVSS:3.1/AV:Z/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['an unknown metric', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/FOO:bar'],
    ['a repeated metric', 'CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['an unknown version', 'CVSS:9.9/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['v3 metrics under the v4 prefix', 'CVSS:4.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['v2 without its authentication metric', 'AV:N/AC:L/C:P/I:P/A:P'],
    ['a database label, not a vector', 'HIGH'],
    ['a number', '7.5'],
    ['escape sequences', 'CVSS:3.1/AV:N\u001b[31m/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['absurdly long', `CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H${'/E:U'.repeat(200)}`],
  ])('%s → null', (_label, vector) => {
    expect(cvssBaseScore(vector)).toBeNull();
  });

  test('a non-string never throws', () => {
    expect(cvssBaseScore(undefined as unknown as string)).toBeNull();
    expect(cvssBaseScore(42 as unknown as string)).toBeNull();
  });
});

describe('cvssVersionOf', () => {
  test.each([
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', '4.0'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '3.1'],
    ['CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '3.0'],
    ['AV:N/AC:L/Au:N/C:P/I:P/A:P', '2.0'],
    ['nonsense', null],
  ])('%s → %s', (vector, version) => {
    expect(cvssVersionOf(vector)).toBe(version);
  });
});

describe('severityOfScore', () => {
  test.each([
    [10, 'critical'],
    [9.0, 'critical'],
    [8.9, 'high'],
    [7.0, 'high'],
    [6.9, 'moderate'],
    [4.0, 'moderate'],
    [3.9, 'low'],
    [0.1, 'low'],
    [0, null],
    [-1, null],
    [10.1, null],
    [Number.NaN, null],
  ])('%s → %s', (score, severity) => {
    expect(severityOfScore(score)).toBe(severity);
  });
});

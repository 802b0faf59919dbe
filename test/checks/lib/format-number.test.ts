import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../../src/checks/lib/format-number.js';

const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

describe('formatNumber prints what Intl.NumberFormat(en-US, one fraction digit) prints', () => {
  it('fixed cases: halves on the shortest decimal form, carries, signs, grouping, exponent forms', () => {
    for (const value of [0, -0, 1.45, 0.15, 0.95, 9.95, 99.95, 999.95, 999999.95, -0.04, -0.05, -1.25, 0.05, 0.04, 1234567.85, 1e21, 1e-7, 0.000001, 123456789012345680000, Infinity, -Infinity, NaN, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, 298417562, 12.3456]) {
      expect(formatNumber(value), String(value)).toBe(intl.format(value));
    }
  });

  it('any double', () => {
    fc.assert(fc.property(fc.double(), (value) => {
      expect(formatNumber(value)).toBe(intl.format(value));
    }), { numRuns: 20_000 });
  });

  it('counts, percentages and ratios as checks compute them', () => {
    const values = fc.oneof(
      fc.integer({ min: -1e15, max: 1e15 }),
      fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(2, 3, 7, 10, 20, 40, 100, 1000)).map(([n, d]) => n / d),
      fc.tuple(fc.nat(10_000), fc.integer({ min: 1, max: 10_000 })).map(([n, d]) => (100 * n) / d),
    );
    fc.assert(fc.property(values, (value) => {
      expect(formatNumber(value)).toBe(intl.format(value));
    }), { numRuns: 20_000 });
  });
});

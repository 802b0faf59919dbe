import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMessage, statusOf, statusOfOutcome } from '../../src/checks/define.js';

/** What formatMessage printed numbers with before it shared one formatter. */
const perCall = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

describe('formatMessage', () => {
  it.each<[number, string]>([
    [0, '0'],
    [-0, '-0'],
    [7, '7'],
    [1234, '1,234'],
    [298417562, '298,417,562'],
    [-1234.56, '-1,234.6'],
    [0.05, '0.1'],
    [0.04, '0'],
    [0.25, '0.3'], // half away from zero, as toLocaleString rounds
    [1.95, '2'],
    [999999.95, '1,000,000'],
    [1e21, '1,000,000,000,000,000,000,000'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
    [5e-7, '0'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, '∞'],
    [Number.NEGATIVE_INFINITY, '-∞'],
  ])('prints %d as %s, as toLocaleString does', (n, text) => {
    expect(formatMessage('{n}', { n })).toBe(text);
    expect(formatMessage('{n}', { n })).toBe(perCall(n));
  });

  it('prints every number exactly as a per-call toLocaleString', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.double({ min: -1e7, max: 1e7 })), (n) => {
        expect(formatMessage('a {n} b', { n })).toBe(`a ${perCall(n)} b`);
      }),
      { numRuns: 5000 },
    );
  });

  it('fills templates exactly as the one-replace version did', () => {
    /** formatMessage before templates were split once: one replace with a callback per call. */
    const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
    const reference = (template: string, data: Record<string, unknown>): string =>
      template.replace(/\{(\w+)\}/g, (whole, key: string) => {
        const value = data[key];
        if (value === undefined) return whole;
        if (Array.isArray(value)) return value.join(', ');
        if (typeof value === 'number') return format.format(value);
        return String(value);
      });
    const key = fc.constantFrom('a', 'b', 'n_1', 'count', 'x y', '', 'constructor', 'toString');
    const text = fc.string({ unit: fc.constantFrom('{', '}', 'a', 'b', ' ', '_', 'é', '1'), maxLength: 12 });
    const template = fc.array(fc.oneof(text, key.map((k) => `{${k}}`)), { maxLength: 6 }).map((parts) => parts.join(''));
    const value = fc.oneof(
      fc.string({ maxLength: 5 }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
    );
    const data = fc.dictionary(fc.constantFrom('a', 'b', 'n_1', 'count', 'x y', ''), value);
    fc.assert(
      fc.property(template, data, (t, d) => {
        expect(formatMessage(t, d as never)).toBe(reference(t, d));
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
  });

  it('fills strings, booleans, null and lists, and leaves unknown keys visible', () => {
    expect(formatMessage('{a}/{b}/{c}/{d}/{e}', { a: 'x', b: true, c: null, d: ['p', 2] })).toBe('x/true/null/p, 2/{e}');
    expect(formatMessage('no placeholders')).toBe('no placeholders');
  });
});

describe('statusOf', () => {
  it.each<[number | null, string]>([
    [null, 'unknown'],
    [100, 'pass'],
    [70, 'pass'],
    [69.9, 'warn'],
    [40, 'warn'],
    [39, 'fail'],
  ])('%s → %s', (score, status) => {
    expect(statusOf(score)).toBe(status);
  });
});

describe('statusOfOutcome', () => {
  it('a cap fails the check whatever its score; a ceiling (a bound, not a finding) leaves the status to the score; a held verdict is at best warn', () => {
    expect(statusOfOutcome(93, { caps: [{}] })).toBe('fail');
    expect(statusOfOutcome(93, { caps: [{ ceiling: false }] })).toBe('fail');
    expect(statusOfOutcome(93, { caps: [{ ceiling: true }] })).toBe('pass');
    expect(statusOfOutcome(93, { caps: [{ ceiling: true }], holdVerdict: 'a package is held at CAUTION' })).toBe('warn');
    expect(statusOfOutcome(93, { caps: [{ ceiling: true }, {}] })).toBe('fail');
    expect(statusOfOutcome(30, { caps: [{ ceiling: true }] })).toBe('fail');
    expect(statusOfOutcome(null, { caps: [{}] })).toBe('unknown');
  });
});

describe('formatMessage: a count of one reads singular', () => {
  it.each([
    ['{count} contributors; bus factor {b}', { count: 1, b: 1 }, '1 contributor; bus factor 1'],
    ['{count} contributors; bus factor {b}', { count: 2, b: 1 }, '2 contributors; bus factor 1'],
    ['{count} releases in the last {days} days', { count: 1, days: 1 }, '1 release in the last 1 day'],
    ['{n} code blocks', { n: 1 }, '1 code block'],
    ['{n} of {m} releases examined', { n: 1, m: 3 }, '1 of 3 releases examined'],
    ['{wheels} wheels published', { wheels: 1 }, '1 wheel published'],
    ['{n} anomalies since {v}', { n: 1, v: '1.0.0' }, '1 anomaly since 1.0.0'],
    ['{n} things', { n: 1 }, '1 things'],
    // The verb after the counted noun agrees with it (obfuscated-code on zlib 1.0.5's one test file).
    ["{count} JavaScript files are an obfuscator's output", { count: 1 }, "1 JavaScript file is an obfuscator's output"],
    ["{count} JavaScript files are an obfuscator's output", { count: 2 }, "2 JavaScript files are an obfuscator's output"],
    ['{n} releases have {k} anomalies', { n: 1, k: 1 }, '1 release has 1 anomaly'],
    ['{n} files aren’t', { n: 1 }, '1 file aren’t'],
  ])('%s with %j → %s', (template, data, expected) => {
    expect(formatMessage(template, data)).toBe(expected);
  });
});

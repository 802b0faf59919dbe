import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth, formatPercent, formatScore, formatWeight, wrapIndented, wrapText } from '../../src/render/text.js';

describe('displayWidth', () => {
  it.each([
    ['ascii', 'abc', 3],
    ['box drawing and blocks', '┌─█░', 4],
    ['marks', '✔▲✖?', 4],
    ['CJK is two columns', '漢字', 4],
    ['combining mark is none', 'e\u0301', 1],
    ['astral emoji', '🚀', 2],
  ])('%s', (_name, s, width) => {
    expect(displayWidth(s)).toBe(width);
  });
});

describe('wrapText', () => {
  it.each([
    ['fits', 'a b c', 10, ['a b c']],
    ['breaks at spaces', 'aaa bbb ccc', 7, ['aaa bbb', 'ccc']],
    ['collapses runs of spaces', 'a    b', 10, ['a b']],
    ['hard-breaks a long word', 'abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['long word after a short one', 'x abcdefgh', 4, ['x', 'abcd', 'efgh']],
    ['empty text is one empty line', '', 5, ['']],
    ['wide characters count double', '漢字漢字', 4, ['漢字', '漢字']],
    ['a URL longer than the line stays whole on its own line', 'see https://example.com/abcdefgh now', 10, ['see', 'https://example.com/abcdefgh', 'now']],
    ['a URL in parentheses too', 'x (git+ssh://h.example/r.git)', 8, ['x', '(git+ssh://h.example/r.git)']],
    ['a word that only looks like one is broken', 'https:/abcdefgh', 8, ['https:/a', 'bcdefgh']],
  ])('%s', (_name, text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
  });

  it('never exceeds the width and keeps every non-space character', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '漢', '-'), maxLength: 120 }), fc.integer({ min: 2, max: 40 }), (text, width) => {
        const lines = wrapText(text, width);
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
        expect(lines.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
      }),
    );
  });

  it('indents continuation lines', () => {
    expect(wrapIndented('one two three', 10, '    ', '  ')).toEqual(['  one two', '    three']);
  });
});

describe('formats', () => {
  it.each([
    [formatScore(72.4), '72.4'],
    [formatScore(100), '100.0'],
    [formatScore(0), '0.0'],
    [formatScore(null), '—'],
    [formatScore(null, '-'), '-'],
    [formatPercent(0.925), '93%'],
    [formatPercent(0.5), '50%'],
    [formatPercent(0), '0%'],
    [formatWeight(0.3), '0.30'],
    [formatWeight(0.15), '0.15'],
    [formatWeight(3), '3'],
  ])('%s → %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

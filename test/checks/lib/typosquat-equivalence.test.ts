/**
 * The fast `findIntended` (character-mask bound, length buckets, exact tables built after a
 * few scans) against a straightforward reference kept here: every popular name compared with
 * every rule, the textbook distance, no index. Same answers for random names and for
 * near-misses of popular names (edits, swaps, look-alikes, separators, scopes), on the npm and
 * the PyPI lists, whether the exact rules are answered by the tables or by the scan.
 */
import fc from 'fast-check';
import { pep503 } from '../../../src/ecosystems/pypi/name.js';
import { npmHighImpact, npmTopDependents, npmTopDownloads } from 'npm-high-impact';
import { describe, expect, it } from 'vitest';
import { PYPI_POPULAR } from '../../../src/ecosystems/pypi/popular-names.js';
import {
  AFFIX_PREFIXES,
  anagramKey,
  buildPopularIndex,
  collapseRuns,
  charMask,
  differOnlyInDigits,
  distanceAllowed,
  editDistance,
  findIntended,
  flattenScope,
  isHomoglyphOf,
  MAX_SCOPE_LETTERS,
  maskDistanceBound,
  MIN_LENGTH_DIGIT_WORD,
  MIN_LENGTH_EXTENDED_SCOPE,
  MIN_LENGTH_JOINED,
  MIN_LENGTH_WORD,
  RELEASE_WORDS,
  repeatDistanceBound,
  repeatMask,
  segments,
  splitScope,
  stripSeparators,
  TYPOSQUAT_RULES,
} from '../../../src/checks/lib/typosquat.js';
import type { TyposquatMatch, TyposquatRule } from '../../../src/checks/lib/typosquat.js';

const NPM = [...new Set([...npmHighImpact, ...npmTopDependents, ...npmTopDownloads])];

/** Textbook optimal string alignment distance: the full matrix (one flat array), no bound. */
function osa(a: string, b: string): number {
  const w = b.length + 1;
  const d = new Int32Array((a.length + 1) * w);
  for (let i = 0; i <= a.length; i++) d[i * w] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * w + j]! + 1, d[i * w + j - 1]! + 1, d[(i - 1) * w + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * w + j - 2]! + 1);
      d[i * w + j] = v;
    }
  }
  return d[a.length * w + b.length]!;
}

const PRIORITY: Record<TyposquatRule, number> = { separator: 0, scope: 1, homoglyph: 2, distance: 3, repeat: 4, plural: 5, affix: 6, anagram: 7, suffix: 8, digit: 9, joined: 10, word: 11, 'scope-extended': 12 };

/** A scope with `_` and `.` read as `-`. */
const scopeForm = (scope: string): string => scope.replace(/[_.]/g, '-');

/** The rules of typosquat.ts read literally, the variant rules when none of the others matched. */
function referenceMatcher(list: readonly string[]): (name: string) => TyposquatMatch | null {
  const base = baseMatcher(list);
  const names = [...new Set(list)];
  const lowers = names.map((n) => n.toLowerCase());
  const collapsedList = [...new Set(lowers.map(collapseRuns))];
  const collapsedBase = baseMatcher(collapsedList, false);
  const lowerSet = new Set(lowers);
  // The `digit` readings of a popular name: the digits ending one part before a `-` dropped, the word left 3 letters or more and not popular.
  const digitReadings = (other: string): string[] => {
    if (other.startsWith('@')) return [];
    const parts = other.split('-');
    return parts.slice(0, -1).flatMap((part, i) => {
      const m = /^(.*[a-z])(\d+)$/.exec(part);
      if (m === null || m[1]!.length < MIN_LENGTH_DIGIT_WORD || lowerSet.has(m[1]!)) return [];
      return [[...parts.slice(0, i), m[1]!, ...parts.slice(i + 1)].join('-')];
    });
  };
  const scopeOf = (other: string): string | null => {
    const { scope } = splitScope(other);
    return scope === null ? null : scopeForm(scope);
  };
  const popularScopes = new Set(lowers.map(scopeOf).filter((s) => s !== null));
  // The `word` rule: the parts of every popular name, of the list and of the shipped npm list, and a long word of letters only.
  const popularParts = new Set([...lowers, ...NPM.map((n) => n.toLowerCase())].flatMap(segments));
  const longWord = (w: string): boolean => w.length >= MIN_LENGTH_WORD && /^[a-z]+$/.test(w);
  return (name) => {
    if (names.includes(name)) return null;
    const found = base(name);
    if (found !== null) return found;
    const lower = name.toLowerCase();
    const first = (rule: TyposquatRule, test: (other: string) => boolean): TyposquatMatch | null => {
      const rank = lowers.findIndex(test);
      return rank === -1 ? null : { intended: names[rank]!, rule, distance: osa(lower, lowers[rank]!) };
    };
    const collapsed = collapseRuns(lower);
    const variants: (() => TyposquatMatch | null)[] = [
      () => (stripSeparators(collapsed).length >= 5 ? first('repeat', (o) => collapseRuns(o) === collapsed) : null),
      // An `s` at the end of a part, removed: the first such reading from the left that is popular.
      ...[...lower].map((c, i) => () => {
        if (c !== 's' || !(i + 1 === lower.length || '-_./'.includes(lower[i + 1]!))) return null;
        const singular = lower.slice(0, i) + lower.slice(i + 1);
        return segments(singular).length >= 2 ? first('plural', (o) => o === singular) : null;
      }),
      ...AFFIX_PREFIXES.map((prefix) => () => (lower.startsWith(prefix) && lower.length - prefix.length >= 4 ? first('affix', (o) => o === lower.slice(prefix.length)) : null)),
      () =>
        !lower.startsWith('@') && stripSeparators(lower).length >= 5
          ? first('anagram', (o) => anagramKey(o) === anagramKey(lower) && o.slice(0, 2) === lower.slice(0, 2) && stripSeparators(o) !== stripSeparators(lower))
          : null,
      () => {
        if (!/(.)\1\1/.test(lower)) return null;
        const near = collapsedBase(collapsed);
        return near?.rule === 'distance' ? first('repeat', (o) => collapseRuns(o) === near.intended) : null;
      },
      () => {
        const m = new RegExp(`-(${RELEASE_WORDS.join('|')}|v?[0-9]{1,2})$`).exec(lower);
        return m !== null && m.index >= 4 ? first('suffix', (o) => o === lower.slice(0, m.index)) : null;
      },
      () => (lower.startsWith('@') ? null : first('digit', (o) => digitReadings(o).includes(lower))),
      // Words run together and one more edit: an unscoped popular name of more parts, one edit away once both lose their separators.
      () =>
        lower.startsWith('@') || stripSeparators(lower).length < MIN_LENGTH_JOINED
          ? null
          : first('joined', (o) => !o.startsWith('@') && segments(o).length > segments(lower).length && stripSeparators(o)[0] === stripSeparators(lower)[0] && osa(stripSeparators(lower), stripSeparators(o)) === 1 && !differOnlyInDigits(lower, o)),
      // A popular name of one word misspelt inside (first letter and last two kept) as the first part of a longer unscoped name, the part no word of popular names.
      () => {
        const [part, ...rest] = segments(lower);
        if (lower.startsWith('@') || rest.length === 0 || !longWord(part!) || popularParts.has(part!)) return null;
        return first('word', (o) => longWord(o) && part![0] === o[0] && part!.slice(-2) === o.slice(-2) && osa(part!, o) === 1);
      },
      ...Array.from({ length: MAX_SCOPE_LETTERS }, (_, k) => () => {
        const form = scopeOf(lower);
        if (form === null || popularScopes.has(form) || !/^[a-z]+$/.test(form.slice(-(k + 1))) || form.length <= k + 1) return null;
        const shorter = form.slice(0, -(k + 1));
        return stripSeparators(shorter).length >= MIN_LENGTH_EXTENDED_SCOPE ? first('scope-extended', (o) => scopeOf(o) === shorter) : null;
      }),
    ];
    for (const variant of variants) {
      const match = variant();
      if (match !== null) return match;
    }
    return null;
  };
}

/** The separator, scope, homoglyph and distance rules read literally: every popular name, every rule, best by priority, distance, rank. */
function baseMatcher(list: readonly string[], versionFamilies = true): (name: string) => TyposquatMatch | null {
  const names = [...new Set(list)];
  const members = new Set(names);
  const lowers = names.map((n) => n.toLowerCase());
  return (name) => {
    if (members.has(name)) return null;
    const lower = name.toLowerCase();
    const scoped = splitScope(lower).scope !== null;
    let best: { rank: number; rule: TyposquatRule; distance: number } | null = null;
    lowers.forEach((other, rank) => {
      const found: [TyposquatRule, number][] = [];
      if (stripSeparators(other) === stripSeparators(lower)) found.push(['separator', osa(lower, other)]);
      if (!scoped && splitScope(other).scope !== null && flattenScope(other) === stripSeparators(lower)) found.push(['scope', osa(lower, other)]);
      if (isHomoglyphOf(lower, other)) found.push(['homoglyph', osa(lower, other)]);
      // The distance is at least the length difference, and no rule allows more than 2.
      if (Math.abs(lower.length - other.length) <= 2) {
        // Separators read alike: `-`, `_` and `.` are one character to the distance rule.
        const distance = osa(lower.replace(/[_.]/g, '-'), other.replace(/[_.]/g, '-'));
        if (distance > 0 && distance <= distanceAllowed(lower, other) && !(versionFamilies && differOnlyInDigits(lower, other))) found.push(['distance', distance]);
      }
      for (const [rule, distance] of found) {
        const better =
          best === null ||
          PRIORITY[rule] < PRIORITY[best.rule] ||
          (rule === best.rule && (distance < best.distance || (distance === best.distance && rank < best.rank)));
        if (better) best = { rank, rule, distance };
      }
    });
    return best === null ? null : { intended: names[(best as { rank: number }).rank]!, rule: (best as { rule: TyposquatRule }).rule, distance: (best as { distance: number }).distance };
  };
}

// ───────────────────────────── names to try ─────────────────────────────

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789-_./@'.split('');
const LOOKS = ['0', 'o', '1', 'l', 'i', '5', 's', 'rn', 'm', 'vv', 'w'];

/** One confusing edit at `at` (taken modulo the length). */
type Edit = (s: string, at: number, c: string) => string;
const EDITS: Edit[] = [
  (s, at, c) => s.slice(0, at % (s.length + 1)) + c + s.slice(at % (s.length + 1)), // insert
  (s, at) => (s.length > 1 ? s.slice(0, at % s.length) + s.slice((at % s.length) + 1) : s), // delete
  (s, at, c) => s.slice(0, at % s.length) + c + s.slice((at % s.length) + 1), // substitute
  (s, at) => {
    if (s.length < 2) return s;
    const i = at % (s.length - 1);
    return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2); // swap
  },
  (s, at, c) => {
    // a look-alike for a character or cluster, or the reverse
    const from = LOOKS[at % LOOKS.length]!;
    const to = LOOKS[(at + c.charCodeAt(0)) % LOOKS.length]!;
    return s.includes(from) ? s.replace(from, to) : s;
  },
  (s) => s.replace(/[-_.]/, ''), // drop a separator
  (s, at, c) => s.replace(/[-_.]/, '-_.'[c.charCodeAt(0) % 3]!) || s, // change a separator
  (s) => {
    // scope games: @a/b → a-b, ab, a/b; b → @b/b
    const { scope, name } = splitScope(s);
    if (scope === null) return `@${name}/${name}`;
    return [`${scope}-${name}`, `${scope}${name}`, `${scope}/${name}`][name.length % 3]!;
  },
  (s, at) => (at % 2 === 0 ? s.toUpperCase() : s[0]!.toUpperCase() + s.slice(1)), // case
  (s, at) => s.slice(0, at % s.length) + s[at % s.length]!.repeat(2) + s.slice(at % s.length), // a character three times
  (s, at) => ['python-', 'python3-', 'python', 'py'][at % 4] + s, // a prefix
  (s) => `${s}s`, // a plural
  (s, at) => s + ['-latest', '-older', '-16', '-v4', '-2', '-new', '-real'][at % 7], // a release word or version after the name
  (s, at) => [`${s}-cli`, `${s}_plugin`, `web.${s}`][at % 3]!, // a word added before or after (with a misspelling: the `word` rule)
  (s, at) => {
    // the digits ending one part before a `-` dropped (`web3-bzz` → `web-bzz`), or letters added to a scope
    if (s.startsWith('@')) return s.replace('/', ['er', 'x', 'ing', '-x'][at % 4] + '/');
    return s.replace(/([a-z])\d+-/, '$1-');
  },
  (s, at) => {
    // one character moved to another place in its part
    const i = at % s.length;
    const rest = s.slice(0, i) + s.slice(i + 1);
    const j = (at >> 4) % (rest.length + 1);
    return rest.slice(0, j) + s[i] + rest.slice(j);
  },
];

function nameArbitrary(popular: readonly string[], alphabet: readonly string[] = ALPHABET): fc.Arbitrary<string> {
  const random = fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 16 });
  const edit = fc.tuple(fc.nat(EDITS.length - 1), fc.nat(), fc.constantFrom(...alphabet));
  const nearMiss = fc
    .tuple(fc.constantFrom(...popular), fc.array(edit, { minLength: 1, maxLength: 2 }))
    .map(([name, edits]) => edits.reduce((s, [e, at, c]) => (s.length === 0 ? s : EDITS[e]!(s, at, c)), name))
    .filter((s) => s.length > 0);
  return fc.oneof({ arbitrary: nearMiss, weight: 4 }, { arbitrary: random, weight: 1 }, { arbitrary: fc.constantFrom(...popular), weight: 1 });
}

/** Same answers as the reference, with the exact rules answered by the tables and by the scan. */
function expectSameAnswers(list: readonly string[], names: fc.Arbitrary<string>, numRuns: number): Set<TyposquatRule> {
  const reference = referenceMatcher(list);
  const tables = buildPopularIndex(list, { exactTablesAfter: 0 });
  const scan = buildPopularIndex(list, { exactTablesAfter: Infinity });
  let flagged = 0;
  const rules = new Set<TyposquatRule>();
  fc.assert(
    fc.property(names, (name) => {
      const expected = reference(name);
      if (expected !== null) flagged++;
      if (expected !== null) rules.add(expected.rule);
      expect(findIntended(name, tables)).toEqual(expected);
      expect(findIntended(name, scan)).toEqual(expected);
    }),
    { numRuns, seed: 20261130 },
  );
  expect(tables.state.exact).toBeDefined();
  expect(scan.state.exact).toBeUndefined();
  // The generator reaches every kind of answer, not just "no match".
  expect(flagged).toBeGreaterThan(numRuns / 10);
  return rules;
}

describe('findIntended agrees with the straightforward reference', () => {
  it('on the PyPI list (PEP 503 names), 10,000 names', () => {
    const pypiNames = nameArbitrary(PYPI_POPULAR).map(pep503);
    const rules = expectSameAnswers(PYPI_POPULAR, pypiNames, 10_000);
    // Every rule is reached, the variant rules too (PyPI names have no scopes).
    expect([...rules].sort()).toEqual([...TYPOSQUAT_RULES].filter((r) => r !== 'scope' && r !== 'scope-extended').sort());
  }, 120_000);

  it('on the 400 most popular npm names, 10,000 names', () => {
    const top = NPM.slice(0, 400);
    const rules = expectSameAnswers(top, nameArbitrary(top), 10_000);
    // One name of the 400 has a digit ending a part before a `-` (`base64-js`): the next case reaches `digit`.
    expect([...rules].sort()).toEqual([...TYPOSQUAT_RULES].filter((r) => r !== 'digit').sort());
  }, 120_000);

  it('on the npm names with a digit ending a part before a `-` (`web3-bzz`), 2,000 names', () => {
    const digits = NPM.filter((name) => /[a-z][0-9]+-/.test(name));
    expect(digits.length).toBeGreaterThan(100);
    const rules = expectSameAnswers(digits, nameArbitrary(digits), 2_000);
    expect(rules).toContain('digit');
  }, 120_000);

  it('on the whole shipped npm list, 100 names', () => {
    expectSameAnswers(NPM, nameArbitrary(NPM), 100);
  }, 120_000);

  it('on a made-up list dense in look-alikes, clusters, separators and scopes, 10,000 names', () => {
    const chars = ['r', 'n', 'v', 'w', 'm', '0', 'o', '1', 'l', 'i', '5', 's', 'a', '-', '_', '.'];
    const word = fc.string({ unit: fc.constantFrom(...chars), minLength: 2, maxLength: 9 });
    const popular = fc.sample(fc.oneof(word, fc.tuple(word, word).map(([a, b]) => `@${a}/${b}`)), { numRuns: 400, seed: 7 });
    expectSameAnswers(popular, nameArbitrary(popular, [...chars, '@', '/']), 10_000);
  }, 120_000);

  it('switches from scanning to tables after the given number of lookups, with the same answers', () => {
    const index = buildPopularIndex(NPM, { exactTablesAfter: 2 });
    const names = ['crossenv', 'types-react', 'l0dash', 'electorn'];
    const answers = names.map((n) => findIntended(n, index));
    expect(index.state.exact).toBeDefined();
    expect(answers.map((a) => a?.rule)).toEqual(['separator', 'scope', 'homoglyph', 'distance']);
    const fresh = buildPopularIndex(NPM, { exactTablesAfter: Infinity });
    expect(names.map((n) => findIntended(n, fresh))).toEqual(answers);
  });
});

describe('the character-mask bound', () => {
  const pair = fc.tuple(
    fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 14 }),
    fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 14 }),
  );
  const nearPair = fc
    .tuple(fc.constantFrom(...NPM), fc.array(fc.tuple(fc.nat(3), fc.nat(), fc.constantFrom(...ALPHABET)), { minLength: 1, maxLength: 3 }))
    .map(([name, edits]) => [name, edits.reduce((s, [e, at, c]) => (s.length === 0 ? s : EDITS[e]!(s, at, c)), name)] as const);

  it('never exceeds the edit distance (so rejecting by it loses no match)', () => {
    fc.assert(
      fc.property(fc.oneof(pair, nearPair), ([a, b]) => {
        expect(maskDistanceBound(charMask(a), charMask(b))).toBeLessThanOrEqual(osa(a, b));
      }),
      { numRuns: 20_000, seed: 20261130 },
    );
  });

  it('with the classes held twice, never exceeds the edit distance either, and is never below the plain bound', () => {
    fc.assert(
      fc.property(fc.oneof(pair, nearPair, fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', '1', '6', '-'), maxLength: 10 }), fc.string({ unit: fc.constantFrom('a', 'b', '1', '6', '-'), maxLength: 10 }))), ([a, b]) => {
        const bound = repeatDistanceBound(charMask(a), repeatMask(a), charMask(b), repeatMask(b));
        expect(bound).toBeLessThanOrEqual(osa(a, b));
        expect(bound).toBeGreaterThanOrEqual(maskDistanceBound(charMask(a), charMask(b)));
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
    expect(repeatMask('express')).toBe(charMask('es'));
    expect(repeatDistanceBound(charMask('aab'), repeatMask('aab'), charMask('ab'), repeatMask('ab'))).toBe(1);
    expect(repeatDistanceBound(charMask('aaab'), repeatMask('aaab'), charMask('bbba'), repeatMask('bbba'))).toBe(1); // the plain bound: 0
  });

  it('rejects names that share too few characters', () => {
    expect(maskDistanceBound(charMask('express'), charMask('expres'))).toBe(0);
    expect(maskDistanceBound(charMask('lodash'), charMask('webpack'))).toBeGreaterThan(2);
    expect(maskDistanceBound(charMask('abc'), charMask('xyz'))).toBe(3);
  });
});

describe('the bounded edit distance (cells within the bound of the diagonal, early stop)', () => {
  const text = (alphabet: readonly string[], maxLength: number) => fc.string({ unit: fc.constantFrom(...alphabet), maxLength });
  const small = ['a', 'b', 'c'];
  const pairs = fc.oneof(
    fc.tuple(text(small, 12), text(small, 12)),
    fc.tuple(text(ALPHABET, 20), text(ALPHABET, 20)),
    // near pairs: one name and a few edits of it
    fc
      .tuple(text(small, 16), fc.array(fc.tuple(fc.nat(3), fc.nat(), fc.constantFrom(...small)), { minLength: 1, maxLength: 4 }))
      .map(([a, edits]) => [a, edits.reduce((s, [e, at, c]) => (s.length === 0 ? c : EDITS[e]!(s, at, c)), a)] as const),
  );

  it('is the textbook distance, or max + 1 above max, for any bound', () => {
    fc.assert(
      fc.property(pairs, fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(Infinity)), ([a, b], max) => {
        const exact = osa(a, b);
        expect(editDistance(a, b, max)).toBe(Math.min(exact, max + 1));
        expect(editDistance(b, a, max)).toBe(Math.min(exact, max + 1));
      }),
      { numRuns: 30_000, seed: 20261201 },
    );
  });
});

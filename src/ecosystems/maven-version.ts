/**
 * Maven version order, as Maven's version-order specification writes it (docs/scoring.md §9,
 * "Repository targets"), for matching OSV's Maven ranges (`ECOSYSTEM` events). Pure.
 *
 * - A version is split into tokens at `.` and `-` and at every transition between digits and
 *   letters (a transition is a `-`); each token keeps the separator before it. An empty token is `0`.
 * - Trailing "null" tokens (`0`, ``, `final`, `ga`, `release`) are trimmed from the end, then
 *   again before each remaining `-` from the end to the start (`1.0.0` = `1`, `1.0-alpha` = `1-alpha`).
 * - Tokens compare in order; the shorter version is padded with the null of the longer one's
 *   separator (`.` → `0`, `-` → ``). With the same separator: numbers in natural order, numbers
 *   after qualifiers; qualifiers `alpha` < `beta` < `milestone` < `rc` = `cr` < `snapshot` <
 *   `` = `ga` = `final` = `release` < `sp` < any other, the others alphabetically (case
 *   insensitive); `a`, `b`, `m` directly followed by a digit are `alpha`, `beta`, `milestone`.
 *   With different separators: `.qualifier` = `-qualifier` < `-number` < `.number`.
 */
import type { VersionComparator } from './types.js';

interface Token {
  sep: '.' | '-';
  /** A number (digits, leading zeros removed) or a qualifier (lower case, aliases undone). */
  value: string;
  numeric: boolean;
}

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Readonly<Record<string, string>> = { ga: '', final: '', release: '', cr: 'rc' };
/** Longer than this is not a version (the comparison stays linear in the length anyway). */
const MAX_LENGTH = 256;

function tokens(version: string): Token[] | null {
  const text = version.trim().toLowerCase();
  if (text === '' || text.length > MAX_LENGTH) return null;
  const raw: Array<{ sep: '.' | '-'; text: string; transition: boolean }> = [];
  let sep: '.' | '-' = '.';
  let transition = false;
  let start = 0;
  const push = (end: number) => raw.push({ sep, text: text.slice(start, end), transition });
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '.' || c === '-') {
      push(i);
      sep = c;
      transition = false;
      start = i + 1;
    } else if (i > start && /\d/.test(c) !== /\d/.test(text[i - 1] as string)) {
      push(i);
      sep = '-';
      transition = true;
      start = i;
    }
  }
  push(text.length);
  const out = raw.map((t, i): Token => {
    if (t.text === '') return { sep: t.sep, value: '0', numeric: true };
    if (/^\d+$/.test(t.text)) return { sep: t.sep, value: t.text.replace(/^0+(?=\d)/, ''), numeric: true };
    // `a1`, `b2`, `m3`: the next token is a number written right after the letter.
    const next = raw[i + 1];
    const short = next !== undefined && next.transition;
    const named = short && t.text === 'a' ? 'alpha' : short && t.text === 'b' ? 'beta' : short && t.text === 'm' ? 'milestone' : t.text;
    return { sep: t.sep, value: ALIASES[named] ?? named, numeric: false };
  });
  return trim(out);
}

const isNull = (t: Token): boolean => (t.numeric ? t.value === '0' : t.value === '');

/** Trailing nulls removed at the end, then before each `-`, from the end to the start. */
function trim(list: Token[]): Token[] {
  const out = [...list];
  let end = out.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && (out[start] as Token).sep !== '-') start -= 1;
    // The group [start, end): remove its trailing nulls (the first token of the version stays).
    let last = end;
    while (last > start && isNull(out[last - 1] as Token) && last - 1 > 0) last -= 1;
    out.splice(last, end - last);
    end = start;
  }
  return out;
}

function qualifierKey(value: string): string {
  const known = QUALIFIERS.indexOf(value);
  return known >= 0 ? String(known) : `${QUALIFIERS.length}-${value}`;
}

function compareNumbers(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function compareTokens(a: Token, b: Token): number {
  if (a.sep === b.sep || (!a.numeric && !b.numeric)) {
    if (a.numeric && b.numeric) return compareNumbers(a.value, b.value);
    if (a.numeric !== b.numeric) return a.numeric ? 1 : -1;
    const x = qualifierKey(a.value);
    const y = qualifierKey(b.value);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // Different separators, one a number at least: .qualifier = -qualifier < -number < .number.
  const rank = (t: Token) => (!t.numeric ? 0 : t.sep === '-' ? 1 : 2);
  return rank(a) - rank(b);
}

const padding = (other: Token): Token => (other.sep === '.' ? { sep: '.', value: '0', numeric: true } : { sep: '-', value: '', numeric: false });

export const compareMavenVersions: VersionComparator = (a, b) => {
  const x = tokens(a);
  const y = tokens(b);
  if (x === null || y === null) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const yi = y[i];
    const xi = x[i];
    const left = xi ?? padding(yi as Token);
    const right = yi ?? padding(xi as Token);
    const order = compareTokens(left, right);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
};

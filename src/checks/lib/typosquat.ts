/**
 * Typosquat detection: is a package name confusable with a far more popular one?
 *
 * The popular set is data shipped with nerq: the union of the lists in `npm-high-impact`
 * 1.13.0 (17,338 names; `npmHighImpact` already contains `npmTopDependents` and
 * `npmTopDownloads`), in the list's own order, most popular first, generated into
 * ecosystems/npm/popular-names.ts as one string (fast to load). No network.
 *
 * Rules, in priority order (names are compared case-insensitively):
 *  - `separator`: equal once `-`, `_` and `.` are removed (`crossenv` / `cross-env`);
 *  - `scope`: an unscoped name that reads as a popular scoped one (`types-react`,
 *    `typesreact` / `@types/react`);
 *  - `homoglyph`: equal once look-alikes are read alike (`0`/`o`, `1`/`l`, `1`/`i`, `5`/`s`,
 *    `rn`/`m`, `vv`/`w`): `l0dash` / `lodash`;
 *  - `distance`: Damerau–Levenshtein (optimal string alignment) distance, separators read
 *    alike (`-`, `_` and `.`: `bigumner-js` is 2 from `bignumber.js`), 1 when the
 *    differing part has at least 5 characters, 1–2 from 8 characters (`electorn` /
 *    `electron`). The differing part is the one segment (between `@`, `/`, `-`, `_`, `.`)
 *    that differs when only one does (so `eslint-config-umi` / `eslint-config-ali` compare
 *    `umi` with `ali`), else the whole name; short parts collide naturally and meet only the
 *    rules above, but for one character dropped from a popular part of 4 characters or more in
 *    a name of two parts or more (`wb3-eth` / `web3-eth`: an omission, not another word). Two
 *    scoped names with the same name after the slash compare their scopes whole, from 3 characters (`@type/node` / `@types/node`, `@aws-sdkk/client-s3`): a
 *    look-alike scope publishing a popular package's name. Names that differ only in the digits ending a part (`passport-oauth1` / `passport-oauth2`)
 *    are version families, not typos; a scoped and an unscoped name are never compared by
 *    distance.
 *  - when none of these match, the variant rules of `findVariant` (`repeat`, `plural`, `affix`,
 *    `anagram`, `suffix`, `digit`, `joined`, `word`, `scope-extended`): readings that real typosquats use
 *    beyond one typing error.
 * Several matches: the highest-priority rule wins, then the smaller distance, then the more
 * popular name (list order; names are unique in it, so no further tie-break is needed).
 *
 * The index is built lazily once and shared by every call: the names bucketed by length, with
 * a character mask each (computed for a length when a lookup first reaches it), so the distance
 * rule computes a distance only for the few names whose characters could be within 2 edits.
 * Membership and the separator, scope and homoglyph rules scan the list for the first lookup
 * (one `nerq check` makes one: hashing 17,000 names costs about two scans) and, from the
 * second (an audit), follow chains of ranks keyed by a hash of the name and of each normal
 * form, checking each rank found exactly as the scan does.
 *
 * PyPI targets are compared with the curated list of ecosystems/pypi/popular-names.ts instead, both sides
 * PEP 503 normalised first (`python_dateutil` is `python-dateutil`, the same project, while
 * `pythondateutil` is a different one: the separator rule).
 */
import { NPM_POPULAR_SOURCE } from '../../ecosystems/npm/popular-names.js';
import { packageRulesOf } from '../../ecosystems/rules.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

/** Where the popular set comes from (generated from the installed package: `npm run generate`). */
export const POPULAR_LIST = NPM_POPULAR_SOURCE;

export const TYPOSQUAT_RULES = ['separator', 'scope', 'homoglyph', 'distance', 'repeat', 'plural', 'affix', 'anagram', 'suffix', 'digit', 'joined', 'word', 'scope-extended'] as const;
export type TyposquatRule = (typeof TYPOSQUAT_RULES)[number];

/** Shortest differing part for which edit distance 1 counts. */
export const MIN_LENGTH_DISTANCE_1 = 5;
/** Shortest differing part for which edit distance 2 counts. */
export const MIN_LENGTH_DISTANCE_2 = 8;
/**
 * Shortest part of a popular name from which one character dropped counts, whatever the part's
 * length (`wb3-eth` / `web3-eth`), in a name of two parts or more.
 */
export const MIN_LENGTH_DROPPED = 4;
/**
 * Shortest scope for which edit distance 1 counts when two scoped names differ only in their
 * scope (`@type/node`, `@vuee/shared`): the same package name under a look-alike scope.
 */
export const MIN_SCOPE_DISTANCE_1 = 3;
/** The largest distance any rule allows (the mask test in `findIntended` is written for 2). */
const MAX_DISTANCE = 2;

export interface TyposquatMatch {
  /** The popular name the target is confusable with. */
  intended: string;
  rule: TyposquatRule;
  /** Edit distance between the two names (case-insensitive). */
  distance: number;
}

// ───────────────────────────── distance ─────────────────────────────

// Reused rows (checks run one at a time): the distance rule compares thousands of pairs per name.
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (restricted Damerau–Levenshtein): inserting, deleting
 * or substituting a character, or swapping two adjacent ones, each cost 1.
 * With `max`, returns `max + 1` for any distance above `max`, computing only the cells within
 * `max` of the diagonal (a cell further away is more than `max` already, and stands as
 * `max + 1`: every value is then exact up to `max`) and stopping at the first row from which
 * the end is out of reach (the row's least value plus the length difference still to make up;
 * a swap never skips a row without a cell in it at most as large).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (m - n > max) return max + 1;
  if (n === 0) return Math.min(m, max + 1);
  if (rows[0].length <= n + 1) rows = [new Int32Array(n + 2), new Int32Array(n + 2), new Int32Array(n + 2)];
  // Outside the band a cell stands as `far`; with no bound the band is the whole row.
  const band = max >= m ? m : max;
  const far = band === m ? m + 1 : max + 1;
  // Rolling rows: the one before the previous (for swaps), the previous, the current.
  let [before, previous, current] = rows;
  for (let i = 0; i <= n; i++) previous[i] = i <= band ? i : far;
  previous[n + 1] = far;
  for (let j = 1; j <= m; j++) {
    const lo = j - band > 1 ? j - band : 1;
    const hi = j + band < n ? j + band : n;
    let reach = Infinity;
    if (lo === 1) {
      current[0] = j <= band ? j : far;
      reach = current[0] + Math.abs(n - (m - j));
    } else {
      current[lo - 1] = far;
    }
    const bj = b.charCodeAt(j - 1);
    const bPrev = j > 1 ? b.charCodeAt(j - 2) : -1;
    for (let i = lo; i <= hi; i++) {
      const ai = a.charCodeAt(i - 1);
      let d = previous[i - 1]! + (ai === bj ? 0 : 1);
      const del = previous[i]! + 1;
      if (del < d) d = del;
      const ins = current[i - 1]! + 1;
      if (ins < d) d = ins;
      if (i > 1 && ai === bPrev && a.charCodeAt(i - 2) === bj) {
        const swap = before[i - 2]! + 1;
        if (swap < d) d = swap;
      }
      current[i] = d;
      // The end (n, m) is at least the length difference left away from this cell.
      const left = n - i - (m - j);
      const bound = d + (left < 0 ? -left : left);
      if (bound < reach) reach = bound;
    }
    if (hi < n) current[hi + 1] = far;
    if (reach > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[n]!;
  return distance > max ? max + 1 : distance;
}

// ───────────────────────────── normalisers ─────────────────────────────

/** `@scope/name` → `{ scope: 'scope', name: 'name' }`; an unscoped name has scope null. */
export function splitScope(name: string): { scope: string | null; name: string } {
  if (name.startsWith('@')) {
    const slash = name.indexOf('/');
    if (slash > 1) return { scope: name.slice(1, slash), name: name.slice(slash + 1) };
  }
  return { scope: null, name };
}

/** Lower case without the separators `-`, `_` and `.`: `Cross-Env` → `crossenv`. */
export function stripSeparators(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, '');
}

/** A name read as one word, scope included: `@types/react` → `typesreact`, `cross-env` → `crossenv`. */
export function flattenScope(name: string): string {
  const { scope, name: bare } = splitScope(name);
  return stripSeparators(scope === null ? bare : scope + bare);
}

/** The parts of a name between `@`, `/`, `-`, `_` and `.`, lower-cased: `@types/react-dom` → `types`, `react`, `dom`. */
export function segments(name: string): string[] {
  return name.toLowerCase().replace(/^@/, '').split(/[/._-]/);
}

/** Multi-character look-alikes folded first: `rn` reads as `m`, `vv` as `w`. */
function foldClusters(name: string): string {
  const lower = name.toLowerCase();
  // Most names have neither cluster: skip the two replacements (the index folds 17,000 names).
  if (!lower.includes('rn') && !lower.includes('vv')) return lower;
  return lower.replace(/rn/g, 'm').replace(/vv/g, 'w');
}

/** `0`→`o`, `1` and `i`→`l`, `5`→`s`; other characters unchanged. */
function glyphOf(code: number): number {
  switch (code) {
    case 0x30: // 0
      return 0x6f; // o
    case 0x31: // 1
    case 0x69: // i
      return 0x6c; // l
    case 0x35: // 5
      return 0x73; // s
    default:
      return code;
  }
}

/**
 * Coarse homoglyph key: clusters folded, then `0`→`o`, `5`→`s`, `1` and `i`→`l`. Names that
 * are homoglyphs of each other share it (it is the bucket); `isHomoglyphOf` decides exactly.
 */
export function homoglyphKey(name: string): string {
  const folded = foldClusters(name);
  // A character loop, not a replace callback: the index keys every popular name.
  let key = '';
  let copied = 0;
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i);
    const glyph = glyphOf(code);
    if (glyph === code) continue;
    key += folded.slice(copied, i) + String.fromCharCode(glyph);
    copied = i + 1;
  }
  return copied === 0 ? folded : key + folded.slice(copied);
}

/** Single characters that read alike (either way round). `i` and `l` do not. */
const LOOKALIKE = new Set(['0o', 'o0', '1l', 'l1', '1i', 'i1', '5s', 's5']);

/**
 * True when two different names read the same once look-alikes are read alike
 * (`0`/`o`, `1`/`l`, `1`/`i`, `5`/`s`, `rn`/`m`, `vv`/`w`).
 */
export function isHomoglyphOf(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return false;
  const x = foldClusters(a);
  const y = foldClusters(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i] && !LOOKALIKE.has(x[i]! + y[i]!)) return false;
  }
  return true;
}

/**
 * True when two different names are equal once the digits ending a part are removed
 * (`mkdirp2` / `mkdirp`, `passport-oauth1` / `passport-oauth2`): version families. A digit
 * inside a word is no version number: `s4transfer` / `s3transfer` are not a family.
 */
export function differOnlyInDigits(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== y && x.replace(/\d+(?=$|[-_./@])/g, '') === y.replace(/\d+(?=$|[-_./@])/g, '');
}

/** A name's lower-cased form and its parts, for the distance rule. */
export interface Shape {
  lower: string;
  /** The scope without `@` (null when unscoped) and the name after it. */
  scope: string | null;
  bare: string;
  segments: readonly string[];
}

function shapeOf(name: string): Shape {
  const lower = name.toLowerCase();
  const { scope, name: bare } = splitScope(lower);
  return { lower, scope, bare, segments: segments(lower) };
}

/** The position of the one segment that differs when the names have as many and only one differs, else -1. */
function differingSegment(x: Shape, y: Shape): number {
  if (x.segments.length !== y.segments.length) return -1;
  let differing = -1;
  for (let i = 0; i < x.segments.length; i++) {
    if (x.segments[i] === y.segments[i]) continue;
    if (differing >= 0) return -1;
    differing = i;
  }
  return differing;
}

function allowedFor(x: Shape, y: Shape): number {
  if ((x.scope === null) !== (y.scope === null)) return 0;
  if (x.scope !== null && y.scope !== null && x.scope !== y.scope && x.bare === y.bare) {
    // The same package under another scope: the scope is the differing part, however its words split.
    const length = Math.min(x.scope.length, y.scope.length);
    if (length >= MIN_LENGTH_DISTANCE_2) return 2;
    return length >= MIN_SCOPE_DISTANCE_1 ? 1 : 0;
  }
  // Length of the part that differs: the one differing segment when only one does, else the shorter name.
  const differing = differingSegment(x, y);
  const mine = differing >= 0 ? x.segments[differing]!.length : x.lower.length;
  const theirs = differing >= 0 ? y.segments[differing]!.length : y.lower.length;
  const length = Math.min(mine, theirs);
  if (length >= MIN_LENGTH_DISTANCE_2) return 2;
  if (length >= MIN_LENGTH_DISTANCE_1) return 1;
  // A character dropped from a short part of a longer name (`wb3-eth` / `web3-eth`): one
  // character left out, the commonest typing error, and no other word's spelling.
  if (differing >= 0 && x.segments.length >= 2 && theirs >= MIN_LENGTH_DROPPED && mine === theirs - 1) return 1;
  return 0;
}

/**
 * The largest edit distance that counts from a name `a` to a popular name `b`: 0 when only one
 * is scoped or the differing part is shorter than 5 characters, 1 from 5, 2 from 8; 1 as well
 * when `a` has two parts or more and the one part that differs is a part of `b` of 4
 * characters or more with one character fewer (a character dropped); for the same name under
 * two scopes, 1 from a scope of 3 characters, 2 from 8. Symmetric but for the dropped character.
 */
export function distanceAllowed(a: string, b: string): number {
  return allowedFor(shapeOf(a), shapeOf(b));
}

// ───────────────────────────── a cheap lower bound ─────────────────────────────

/**
 * The set of characters of a (lower-cased) name as 32 bits: `a`–`z` one bit each, digits
 * folded onto five bits, every other character onto the last one.
 */
export function charMask(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) mask |= 1 << classBit(lower.charCodeAt(i));
  return mask;
}

/** The bit of a character's class in `charMask`. */
function classBit(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x30 && code <= 0x39) return 26 + ((code - 0x30) % 5);
  return 31;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * A lower bound of the edit distance from the character sets alone. Turning `a` into `b`
 * needs a deletion or substitution for every character `a` has more often than `b`, and an
 * insertion or substitution for every one `b` has more often (a swap moves none), so the
 * distance is at least the larger of the two counts. A bit set in one mask only stands for at
 * least one such character, so its popcount is at most that count: the bound stays a bound.
 */
export function maskDistanceBound(a: number, b: number): number {
  return Math.max(popcount(a & ~b), popcount(b & ~a));
}

/**
 * The classes of `charMask` a (lower-cased) name has at least twice, as 32 bits the same way.
 */
export function repeatMask(lower: string): number {
  let once = 0;
  let twice = 0;
  for (let i = 0; i < lower.length; i++) {
    const bit = classBit(lower.charCodeAt(i));
    if ((once & (1 << bit)) !== 0) twice |= 1 << bit;
    once |= 1 << bit;
  }
  return twice;
}

/**
 * The bound of `maskDistanceBound` with the classes each name has twice counted too. A class
 * `a` has and `b` lacks stands for at least one character of `a` that `b` has no match for; a
 * class `a` has twice and `b` at most once, for one more (or a first, when `b` has it once).
 * Every deletion or substitution leaves at most one fewer such character and no other edit
 * removes any, so the count stays a lower bound, on either side.
 */
export function repeatDistanceBound(a: number, aTwice: number, b: number, bTwice: number): number {
  return Math.max(popcount(a & ~b) + popcount(aTwice & ~bTwice), popcount(b & ~a) + popcount(bTwice & ~aTwice));
}

// ───────────────────────────── the index ─────────────────────────────

/** Popular names of one lower-cased length: their ranks, and their character masks once asked for. */
export interface LengthBucket {
  readonly ranks: Int32Array;
  /** Computed by the first lookup that reaches this length (`masksOf`). */
  masks: Int32Array | undefined;
  /** The `repeatMask` of each, computed with `masks`. */
  repeats: Int32Array | undefined;
}

/**
 * Ranks chained under a 32-bit hash: `heads[hash & (heads.length - 1)]` is the first rank of a
 * slot (-1: none), `next[rank]` the following one. Names sharing a slot need not share the key:
 * every rank found is checked against the key itself.
 */
export interface RankChains {
  readonly heads: Int32Array;
  readonly next: Int32Array;
}

/**
 * Ranks by exact name and by normal form, for membership and the separator, scope and
 * homoglyph rules. Hashes are computed over a name's characters as its normal form reads them
 * (no string is made for any popular name), so building them costs a few passes over the list.
 */
export interface ExactTables {
  /** Ranks by lower-cased name (`rankOf` then compares the name as given). */
  readonly byName: RankChains;
  /** Ranks by `stripSeparators` form. */
  readonly bySeparators: RankChains;
  /** Ranks of scoped names by `flattenScope` form (`typesreact`). */
  readonly byFlatScope: RankChains;
  /** Ranks by `homoglyphKey`. */
  readonly byHomoglyph: RankChains;
  /** Ranks by `collapseRuns` form, for the `repeat` rule. */
  readonly byCollapsed: RankChains;
}

export interface PopularIndex {
  /** Popular names, most popular first, each once. */
  readonly names: readonly string[];
  /** Lower-cased names, by rank. */
  readonly lowers: readonly string[];
  /** Names by lower-cased length, for the distance rule. */
  readonly byLength: readonly (LengthBucket | undefined)[];
  /** Lookups answered by scanning before the exact tables are built (see `buildPopularIndex`). */
  readonly exactTablesAfter: number;
  /** Mutable: lookups so far, the exact tables once built, and the variant tables once a lookup needs them. */
  readonly state: {
    lookups: number;
    exact: ExactTables | undefined;
    variants?: VariantTables | undefined;
    digits?: ReadonlyMap<string, number> | undefined;
    scopes?: ScopeTables | undefined;
    joined?: JoinedTables | undefined;
    joinedScans?: number | undefined;
    words?: ReadonlySet<string> | undefined;
  };
}

export interface PopularIndexOptions {
  /**
   * Hashing every popular name (the name, three normal forms) costs about two scans of the
   * list with cheap first-character filters: one `nerq check` does one lookup, an audit
   * thousands. So the first lookups scan, and the tables are built after this many (default 1).
   */
  exactTablesAfter?: number;
  /** The list repeats no name (the generated npm list, proved by its test): skips the dedupe. */
  unique?: boolean;
}

const EXACT_TABLES_AFTER = 1;

/** Build the lookup structures over names given most popular first (a repeated name keeps its first rank). */
export function buildPopularIndex(list: Iterable<string>, options: PopularIndexOptions = {}): PopularIndex {
  const names = options.unique === true ? [...list] : [...new Set(list)];
  // A name's segments are needed only for the rare pair within distance 2: computed then.
  const lowers = names.map((name) => name.toLowerCase());
  const lengthRanks: number[][] = [];
  lowers.forEach((lower, r) => (lengthRanks[lower.length] ??= []).push(r));
  const byLength = Array.from(lengthRanks, (ranks): LengthBucket | undefined =>
    ranks === undefined ? undefined : { ranks: Int32Array.from(ranks), masks: undefined, repeats: undefined },
  );
  const exactTablesAfter = options.exactTablesAfter ?? EXACT_TABLES_AFTER;
  return { names, lowers, byLength, exactTablesAfter, state: { lookups: 0, exact: undefined } };
}

/** A bucket's character masks and repeat masks, computed on first use. */
function masksOf(bucket: LengthBucket, lowers: readonly string[]): { masks: Int32Array; repeats: Int32Array } {
  bucket.masks ??= Int32Array.from(bucket.ranks, (r) => charMask(lowers[r]!));
  bucket.repeats ??= Int32Array.from(bucket.ranks, (r) => repeatMask(lowers[r]!));
  return { masks: bucket.masks, repeats: bucket.repeats };
}

// A multiplicative hash over UTF-16 code units, in plain integer arithmetic (no call per
// character: the tables are built once, mostly before the code is optimised).
const HASH_SEED = 17;

function hashOf(text: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}

function emptyChains(slots: number, count: number): RankChains {
  return { heads: new Int32Array(slots).fill(-1), next: new Int32Array(count).fill(-1) };
}

/** The slot of `hash` (its high bits folded in: the low bits alone follow the last characters). */
function slotOf(chains: RankChains, hash: number): number {
  return (hash ^ (hash >>> 15)) & (chains.heads.length - 1);
}

function link(chains: RankChains, hash: number, rank: number): void {
  const slot = slotOf(chains, hash);
  chains.next[rank] = chains.heads[slot]!;
  chains.heads[slot] = rank;
}

/** The first rank in the slot of `hash` (-1: none); `next` gives the following ones. */
function firstOf(chains: RankChains, hash: number): number {
  return chains.heads[slotOf(chains, hash)]!;
}

/**
 * One pass over each lower-cased name hashes it five ways, reading it as the scan's
 * comparisons do: as it is (`hashOf(lower)`), without separators (`strippedEquals`), without
 * the `@` and the first `/` of a scoped name as well (`flattenScope`), with look-alikes
 * folded (`homoglyphKeyEquals`: `rn` and `vv` first, as one character each), and with runs of
 * a character read once (`collapsedEquals`).
 */
function buildExactTables(lowers: readonly string[]): ExactTables {
  const count = lowers.length;
  let slots = 16;
  while (slots < count) slots *= 2;
  const tables: ExactTables = {
    byName: emptyChains(slots, count),
    bySeparators: emptyChains(slots, count),
    byFlatScope: emptyChains(slots, count),
    byHomoglyph: emptyChains(slots, count),
    byCollapsed: emptyChains(slots, count),
  };
  // Most popular last, so that each slot lists its ranks most popular first.
  for (let r = count - 1; r >= 0; r--) {
    const lower = lowers[r]!;
    const slash = lower.charCodeAt(0) === 0x40 ? lower.indexOf('/') : -1;
    let plain = HASH_SEED;
    let stripped = HASH_SEED;
    let flat = HASH_SEED;
    let glyphs = HASH_SEED;
    let collapsed = HASH_SEED;
    let pairEnd = -1;
    for (let i = 0; i < lower.length; i++) {
      const code = lower.charCodeAt(i);
      plain = (plain * 31 + code) | 0;
      if (i === 0 || code !== lower.charCodeAt(i - 1)) collapsed = (collapsed * 31 + code) | 0;
      if (code !== 0x2d && code !== 0x5f && code !== 0x2e) {
        stripped = (stripped * 31 + code) | 0;
        if (i !== 0 && i !== slash) flat = (flat * 31 + code) | 0;
      }
      if (i === pairEnd) continue; // the second character of a folded `rn` or `vv`
      const next = lower.charCodeAt(i + 1);
      let glyph: number;
      if (code === 0x72 && next === 0x6e) {
        glyph = 0x6d; // rn → m
        pairEnd = i + 1;
      } else if (code === 0x76 && next === 0x76) {
        glyph = 0x77; // vv → w
        pairEnd = i + 1;
      } else {
        // glyphOf, inlined
        glyph = code === 0x30 ? 0x6f : code === 0x31 || code === 0x69 ? 0x6c : code === 0x35 ? 0x73 : code;
      }
      glyphs = (glyphs * 31 + glyph) | 0;
    }
    link(tables.byName, plain, r);
    link(tables.bySeparators, stripped, r);
    link(tables.byHomoglyph, glyphs, r);
    link(tables.byCollapsed, collapsed, r);
    if (slash > 1) link(tables.byFlatScope, flat, r);
  }
  return tables;
}

/** The name's rank, or -1: a scan for the first lookups, the name table after (see `exactTablesAfter`). */
export function rankOf(index: PopularIndex, name: string): number {
  const { exact } = index.state;
  if (exact === undefined) return index.names.indexOf(name);
  // Chained by the lower-cased name: the same name has the same lower case.
  const { names } = index;
  const { next } = exact.byName;
  for (let r = firstOf(exact.byName, hashOf(name.toLowerCase())); r !== -1; r = next[r]!) if (names[r] === name) return r;
  return -1;
}

const built = new Map<PackageEcosystem, PopularIndex>();

/** The index over an ecosystem's shipped popular list (ecosystems/<id>/popular-names.ts), built on first use. */
export function popularIndexFor(ecosystem: PackageEcosystem): PopularIndex {
  let index = built.get(ecosystem);
  if (index === undefined) {
    const { popular } = packageRulesOf(ecosystem).registry;
    index = buildPopularIndex(popular.names(), { unique: popular.unique });
    built.set(ecosystem, index);
  }
  return index;
}

/** The index over the shipped popular npm list. */
export function popularIndex(): PopularIndex {
  return popularIndexFor('npm');
}

/** The index over the curated PyPI list. */
export function pypiPopularIndex(): PopularIndex {
  return popularIndexFor('pypi');
}


/** The name itself is on the popular list (exact spelling). */
export function isPopular(name: string, index: PopularIndex = popularIndex()): boolean {
  return rankOf(index, name) !== -1;
}

// ───────────────────────────── matching ─────────────────────────────

interface Candidate {
  rank: number;
  rule: TyposquatRule;
  distance: number;
}

const PRIORITY: Readonly<Record<TyposquatRule, number>> = {
  separator: 0,
  scope: 1,
  homoglyph: 2,
  distance: 3,
  repeat: 4,
  plural: 5,
  affix: 6,
  anagram: 7,
  suffix: 8,
  digit: 9,
  joined: 10,
  word: 11,
  'scope-extended': 12,
};

function better(a: Candidate, b: Candidate): boolean {
  if (a.rule !== b.rule) return PRIORITY[a.rule] < PRIORITY[b.rule];
  if (a.distance !== b.distance) return a.distance < b.distance;
  // Ranks are unique (a repeated name keeps its first), so list order settles every tie.
  return a.rank < b.rank;
}

// Positions found by `withinMaskBounds` (reused: checks run one at a time).
let candidates = new Int32Array(1024);

/**
 * The positions in a length bucket whose names pass both character bounds against the name's
 * (`maskDistanceBound` and `repeatDistanceBound` at most MAX_DISTANCE), written to
 * `candidates`; returns how many. Cheapest first: the character sets reject almost every name
 * (a small loop of its own, optimised early), the classes held twice most of the rest. The
 * first bound is inlined for MAX_DISTANCE 2: more than two characters only on one side leave a
 * bit set once the two lowest are cleared.
 */
function withinMaskBounds(mask: number, repeats: number, masks: Int32Array, theirRepeats: Int32Array): number {
  if (candidates.length < masks.length) candidates = new Int32Array(masks.length);
  let found = 0;
  for (let k = 0; k < masks.length; k++) {
    const theirs = masks[k]!;
    let only = mask & ~theirs;
    only &= only - 1;
    only &= only - 1;
    if (only !== 0) continue;
    only = theirs & ~mask;
    only &= only - 1;
    only &= only - 1;
    if (only !== 0) continue;
    if (repeatDistanceBound(mask, repeats, theirs, theirRepeats[k]!) > MAX_DISTANCE) continue;
    candidates[found++] = k;
  }
  return found;
}

/**
 * The popular name that `name` most likely imitates, or null when none is confusable or
 * `name` is itself on the list (popular names are not typosquats of each other).
 */
export function findIntended(name: string, index: PopularIndex = popularIndex()): TyposquatMatch | null {
  if (rankOf(index, name) !== -1) return null;
  return findByRules(name, index) ?? findVariant(name.toLowerCase(), index);
}

/** The separator, scope, homoglyph and distance rules. */
function findByRules(name: string, index: PopularIndex, versionFamilies = true): TyposquatMatch | null {
  const lower = name.toLowerCase();
  const scoped = splitScope(lower).scope !== null;
  let best: Candidate | undefined;
  const consider = (rank: number, rule: TyposquatRule, distance?: number): void => {
    const candidate = { rank, rule, distance: distance ?? editDistance(lower, index.lowers[rank]!) };
    if (best === undefined || better(candidate, best)) best = candidate;
  };

  const stripped = stripSeparators(lower);
  const key = homoglyphKey(lower);
  const exactRule = (r: number, rule: TyposquatRule): void => {
    if (rule !== 'homoglyph' || isHomoglyphOf(lower, index.lowers[r]!)) consider(r, rule);
  };
  const { state, lowers } = index;
  if (state.exact === undefined && ++state.lookups > index.exactTablesAfter) state.exact = buildExactTables(lowers);
  const { exact } = state;
  if (exact !== undefined) {
    // The scan's own comparisons, over the ranks whose normal form hashes alike.
    const { bySeparators, byFlatScope, byHomoglyph } = exact;
    const strippedHashed = hashOf(stripped);
    for (let r = firstOf(bySeparators, strippedHashed); r !== -1; r = bySeparators.next[r]!) {
      if (strippedEquals(lowers[r]!, stripped)) exactRule(r, 'separator');
    }
    if (!scoped) {
      for (let r = firstOf(byFlatScope, strippedHashed); r !== -1; r = byFlatScope.next[r]!) {
        const other = lowers[r]!;
        if (strippedEquals(other, stripped, 1, other.indexOf('/'))) exactRule(r, 'scope');
      }
    }
    for (let r = firstOf(byHomoglyph, hashOf(key)); r !== -1; r = byHomoglyph.next[r]!) {
      if (homoglyphKeyEquals(lowers[r]!, key)) exactRule(r, 'homoglyph');
    }
  } else {
    scanExact(lowers, stripped, scoped, key, exactRule);
  }
  // A distance match can never beat one of the rules above: skip the scan when one matched.
  if (best !== undefined) return matchOf(index, best);

  const mask = charMask(lower);
  const repeats = repeatMask(lower);
  // Separators read alike (the separator rule's business): `bigumner-js` is two edits from `bignumber.js`.
  const unified = unifySeparators(lower);
  let own: Shape | undefined;
  const length = lower.length;
  for (let l = Math.max(0, length - MAX_DISTANCE); l <= length + MAX_DISTANCE; l++) {
    const bucket = index.byLength[l];
    if (bucket === undefined) continue;
    const { ranks } = bucket;
    const { masks, repeats: theirRepeats } = masksOf(bucket, index.lowers);
    const found = withinMaskBounds(mask, repeats, masks, theirRepeats);
    for (let c = 0; c < found; c++) {
      const k = candidates[c]!;
      const r = ranks[k]!;
      const other = index.lowers[r]!;
      const distance = editDistance(unified, unifySeparators(other), MAX_DISTANCE);
      if (distance === 0 || distance > MAX_DISTANCE) continue;
      own ??= shapeOf(lower);
      if (distance > allowedFor(own, shapeOf(other)) || (versionFamilies && differOnlyInDigits(lower, other))) continue;
      consider(r, 'distance', distance);
    }
  }
  return best === undefined ? null : matchOf(index, best);
}

const isSeparator = (code: number): boolean => code === 0x2d || code === 0x5f || code === 0x2e;

/** `_` and `.` read as `-` (most names have neither: returned as they are). */
function unifySeparators(lower: string): string {
  return lower.includes('_') || lower.includes('.') ? lower.replace(/[_.]/g, '-') : lower;
}

/** `stripSeparators(lower) === form` without building the string; with `slash`, `flattenScope(lower) === form`. */
function strippedEquals(lower: string, form: string, from = 0, slash = -1): boolean {
  let j = 0;
  for (let i = from; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    if (isSeparator(code) || i === slash) continue;
    if (form.charCodeAt(j) !== code) return false; // NaN past the end: never equal
    j++;
  }
  return j === form.length;
}

/**
 * `homoglyphKey(lower) === key` without building the key. One left-to-right pass folds both
 * clusters, as the two replacements do: `rn` and `vv` share no character, so neither
 * replacement can make or break a match of the other.
 */
function homoglyphKeyEquals(lower: string, key: string): boolean {
  let j = 0;
  for (let i = 0; i < lower.length; i++) {
    let code = lower.charCodeAt(i);
    const next = lower.charCodeAt(i + 1);
    if (code === 0x72 && next === 0x6e) {
      code = 0x6d; // rn → m
      i++;
    } else if (code === 0x76 && next === 0x76) {
      code = 0x77; // vv → w
      i++;
    } else {
      code = glyphOf(code);
    }
    if (key.charCodeAt(j) !== code) return false;
    j++;
  }
  return j === key.length;
}

/**
 * The separator, scope and homoglyph rules without tables: one pass over the list comparing
 * normal forms as they are read, so almost every name is rejected at its first character.
 */
function scanExact(
  lowers: readonly string[],
  stripped: string,
  scoped: boolean,
  key: string,
  match: (rank: number, rule: TyposquatRule) => void,
): void {
  for (let r = 0; r < lowers.length; r++) {
    const other = lowers[r]!;
    if (strippedEquals(other, stripped)) match(r, 'separator');
    if (!scoped && other.charCodeAt(0) === 0x40) {
      const slash = other.indexOf('/');
      if (slash > 1 && strippedEquals(other, stripped, 1, slash)) match(r, 'scope');
    }
    if (homoglyphKeyEquals(other, key)) match(r, 'homoglyph');
  }
}

function matchOf(index: PopularIndex, best: Candidate): TyposquatMatch {
  return { intended: index.names[best.rank]!, rule: best.rule, distance: best.distance };
}

// ───────────────────────────── variant rules ─────────────────────────────
// Tried only when none of the rules above matched: each reads the name through a change that real
// typosquats make on top of (or instead of) one typing error.

/** Runs of one character read as one: `aiohtttps` → `aiohtps`, `deepseeek` → `depsek`. */
export function collapseRuns(lower: string): string {
  return lower.replace(/(.)\1+/g, '$1');
}

/** The length of the longest run of one character (`aiohtttps`: 3). */
function longestRun(lower: string): number {
  let longest = lower.length === 0 ? 0 : 1;
  for (let i = 1, run = 1; i < lower.length; i++) {
    run = lower.charCodeAt(i) === lower.charCodeAt(i - 1) ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A character three times in a row: rare in real names, common in typosquats (`requstsss`, `urlllib`). */
export const MIN_RUN_NEAR = 3;

/**
 * Each part of a name with its characters sorted: names whose parts, in the same order, are made
 * of the same characters share it (`matlibplot` / `matplotlib`, `sphinx-rdt-theme` /
 * `sphinx-rtd-theme`), names with their parts reordered do not (`string-to-stream`).
 */
export function anagramKey(lower: string): string {
  return segments(lower)
    .map((part) => [...part].sort().join(''))
    .join('-');
}

/** Shortest name (separators not counted) for which the same characters in another order count. */
export const MIN_LENGTH_ANAGRAM = 5;

/**
 * Words that real typosquats put before a popular name (`python-flask`, `python3-flask`,
 * `pythonhttpx`): the name without it is compared with the list, whole. Not `py` nor suffixes:
 * legitimate projects are named so after the library they wrap (`pydash`, `brotlipy`,
 * `msgpack-python`) far more often than squats are (docs/security.md).
 */
export const AFFIX_PREFIXES = ['python3-', 'python-', 'python'] as const;
/** Shortest popular name a prefix counts before. */
export const MIN_LENGTH_AFFIX = 4;

/**
 * Words that, after a popular name, only claim to be a release of it (`uuid-latest`,
 * `axios-older`) or the package itself under another label (`jquery-real`,
 * `string-width-aliased`): with a version number (`react-dom-16`, `html-webpack-plugin-v4`),
 * the `suffix` rule. Not `-new`, `-next`, `-fork`, `-js`, `-browser`: legitimate forks and
 * wrappers are named so (docs/security.md).
 */
export const RELEASE_WORDS = ['latest', 'official', 'old', 'older', 'real', 'genuine', 'original', 'authentic', 'aliased'] as const;
/** `-` and a release word or a version number of one or two digits (`v` before it or not), ending the name. */
const SUFFIX = new RegExp(`-(?:${RELEASE_WORDS.join('|')}|v?\\d{1,2})$`);

/** Shortest word (letters before the digits) that a digit dropped from it counts for in the `digit` rule. */
export const MIN_LENGTH_DIGIT_WORD = 3;
/** A part of a name before a `-`: letters ending in a letter, then digits (`web3` in `web3-bzz`). */
const WORD_DIGITS = /^(.*[a-z])(\d+)$/;

/** Shortest popular scope (separators not counted) that letters added to count for. */
export const MIN_LENGTH_EXTENDED_SCOPE = 8;
/** The most letters added to the end of a popular scope that the `scope-extended` rule reads through. */
export const MAX_SCOPE_LETTERS = 3;

/** A digit followed by `-` somewhere in the name: the only names with `digit` readings. */
function hasDigitDash(lower: string): boolean {
  for (let i = lower.indexOf('-', 1); i !== -1; i = lower.indexOf('-', i + 1)) {
    const code = lower.charCodeAt(i - 1);
    if (code >= 0x30 && code <= 0x39) return true;
  }
  return false;
}

/**
 * The readings of an unscoped (lower-cased) popular name for the `digit` rule: the name with the
 * digits ending one of its parts before a `-` dropped (`web3-bzz` → `web-bzz`), each with the
 * word left, kept when it has 3 letters or more.
 */
function digitReadingsOf(lower: string): [form: string, word: string][] {
  if (lower.charCodeAt(0) === 0x40 || !hasDigitDash(lower)) return [];
  const parts = lower.split('-');
  const readings: [string, string][] = [];
  for (let i = 0; i < parts.length - 1; i++) {
    const m = WORD_DIGITS.exec(parts[i]!);
    if (m === null || m[1]!.length < MIN_LENGTH_DIGIT_WORD) continue;
    readings.push([[...parts.slice(0, i), m[1]!, ...parts.slice(i + 1)].join('-'), m[1]!]);
  }
  return readings;
}

/**
 * All the `digit` readings of a list, to the first rank that reads so, when the word left is no
 * popular name itself (`vue3-x` → `vue-x` is not kept: `vue` is popular, so `vue3` is a version of
 * it; `web` is not, so `web3` is a word of its own). Built once the exact tables are (an audit).
 */
function digitTableOf(lowers: readonly string[]): Map<string, number> {
  const readings: [form: string, word: string, rank: number][] = [];
  lowers.forEach((lower, rank) => {
    for (const [form, word] of digitReadingsOf(lower)) readings.push([form, word, rank]);
  });
  const words = new Set(readings.map(([, word]) => word));
  const popularWords = new Set(lowers.filter((lower) => words.has(lower)));
  const table = new Map<string, number>();
  for (const [form, word, rank] of readings) if (!popularWords.has(word) && !table.has(form)) table.set(form, rank);
  return table;
}

/**
 * The first rank with a `digit` reading equal to `lower`, or -1: the table once the exact tables
 * are built, before that a scan of the names starting with the same character and longer.
 */
function digitRankOf(index: PopularIndex, lower: string): number {
  if (index.state.exact !== undefined) return (index.state.digits ??= digitTableOf(index.lowers)).get(lower) ?? -1;
  const first = lower.charCodeAt(0);
  const { lowers } = index;
  for (let r = 0; r < lowers.length; r++) {
    const other = lowers[r]!;
    if (other.charCodeAt(0) !== first || other.length <= lower.length) continue;
    for (const [form, word] of digitReadingsOf(other)) if (form === lower && lowerRankOf(index, word) === -1) return r;
  }
  return -1;
}

/** A scope with `_` and `.` read as `-`: `typescript_eslint` → `typescript-eslint`. */
function scopeForm(scope: string): string {
  return scope.replace(/[_.]/g, '-');
}

/** The popular scopes (as `scopeForm` reads them) and, for the long ones, their most popular name. */
export interface ScopeTables {
  readonly all: ReadonlySet<string>;
  readonly long: ReadonlyMap<string, number>;
}

function scopeTablesOf(index: PopularIndex): ScopeTables {
  if (index.state.scopes !== undefined) return index.state.scopes;
  const all = new Set<string>();
  const long = new Map<string, number>();
  index.lowers.forEach((lower, rank) => {
    const { scope } = splitScope(lower);
    if (scope === null) return;
    const form = scopeForm(scope);
    all.add(form);
    if (stripSeparators(form).length >= MIN_LENGTH_EXTENDED_SCOPE && !long.has(form)) long.set(form, rank);
  });
  const scopes = { all, long };
  index.state.scopes = scopes;
  return scopes;
}

/**
 * The popular names with runs collapsed (first rank kept) and the rank each stands for: built
 * only when a name with a character three times in a row needs the near `repeat` reading.
 */
export interface VariantTables {
  readonly collapsed: PopularIndex;
  readonly collapsedRanks: Int32Array;
}

function variantTablesOf(index: PopularIndex): VariantTables {
  if (index.state.variants !== undefined) return index.state.variants;
  const firstRank = new Map<string, number>();
  index.lowers.forEach((lower, r) => {
    const collapsed = collapseRuns(lower);
    if (!firstRank.has(collapsed)) firstRank.set(collapsed, r);
  });
  const collapsed = buildPopularIndex(firstRank.keys(), { unique: true });
  const variants = { collapsed, collapsedRanks: Int32Array.from(firstRank.values()) };
  index.state.variants = variants;
  return variants;
}

/** `collapseRuns(lower) === collapsed` without building the string. */
function collapsedEquals(lower: string, collapsed: string): boolean {
  let j = 0;
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    if (i > 0 && code === lower.charCodeAt(i - 1)) continue;
    if (collapsed.charCodeAt(j) !== code) return false; // NaN past the end: never equal
    j++;
  }
  return j === collapsed.length;
}

/**
 * The first rank whose name reads as `collapsed` once runs are collapsed, or -1: the collapsed
 * table once built, a scan before (most names differ at their first character).
 */
function collapsedRankOf(index: PopularIndex, collapsed: string): number {
  const { lowers } = index;
  const { exact } = index.state;
  if (exact !== undefined) {
    const { byCollapsed } = exact;
    for (let r = firstOf(byCollapsed, hashOf(collapsed)); r !== -1; r = byCollapsed.next[r]!) if (collapsedEquals(lowers[r]!, collapsed)) return r;
    return -1;
  }
  const first = collapsed.charCodeAt(0);
  for (let r = 0; r < lowers.length; r++) {
    const other = lowers[r]!;
    if (other.charCodeAt(0) === first && other.length >= collapsed.length && collapsedEquals(other, collapsed)) return r;
  }
  return -1;
}

/** The first rank of the same length whose name is an anagram of `lower` by `anagramKey`, starting alike, or -1. */
function anagramRankOf(index: PopularIndex, lower: string): number {
  // Parts of the same lengths in the same order: the same length, separators included.
  const bucket = index.byLength[lower.length];
  if (bucket === undefined) return -1;
  let key: string | undefined;
  for (const r of bucket.ranks) {
    const other = index.lowers[r]!;
    if (!sameStart(lower, other) || other === lower) continue;
    key ??= anagramKey(lower);
    if (anagramKey(other) === key) return r;
  }
  return -1;
}

/** The rank of a lower-cased name on the list whatever its case there, or -1 (as `rankOf`: a scan, then the name table). */
function lowerRankOf(index: PopularIndex, lower: string): number {
  const { exact } = index.state;
  if (exact === undefined) return index.lowers.indexOf(lower);
  const { lowers } = index;
  const { next } = exact.byName;
  for (let r = firstOf(exact.byName, hashOf(lower)); r !== -1; r = next[r]!) if (lowers[r] === lower) return r;
  return -1;
}

/** Shortest name (separators not counted) for which words run together with one more edit count. */
export const MIN_LENGTH_JOINED = 6;
/** Lookups that reach the `joined` rule by scanning once the exact tables are built, before its own tables are. */
const JOINED_TABLES_AFTER = 32;

/**
 * The unscoped popular names of two parts or more, read without their separators (`web3-eth-abi`
 * → `web3ethabi`), for the `joined` rule: an index over those forms (a form once per name that
 * has it, so repeated), the rank of the name each stands for and its number of parts. Built by
 * the first lookup that needs it.
 */
export interface JoinedTables {
  readonly joined: PopularIndex;
  readonly ranks: Int32Array;
  readonly parts: Int32Array;
}

function joinedTablesOf(index: PopularIndex): JoinedTables {
  if (index.state.joined !== undefined) return index.state.joined;
  const forms: string[] = [];
  const ranks: number[] = [];
  const parts: number[] = [];
  index.lowers.forEach((lower, rank) => {
    if (lower.charCodeAt(0) === 0x40) return;
    const form = stripSeparators(lower);
    if (form.length === lower.length) return; // one part
    forms.push(form);
    ranks.push(rank);
    parts.push(segments(lower).length);
  });
  const joined = { joined: buildPopularIndex(forms, { unique: true }), ranks: Int32Array.from(ranks), parts: Int32Array.from(parts) };
  index.state.joined = joined;
  return joined;
}

/**
 * The first rank of an unscoped popular name with more parts than `lower` whose form without
 * separators is one edit from `lower`'s and starts alike (`web3ethabii` / `web3-eth-abi`),
 * version families aside, or -1.
 */
function joinedRankOf(index: PopularIndex, lower: string): number {
  const form = stripSeparators(lower);
  if (form.length < MIN_LENGTH_JOINED || form.charCodeAt(0) === 0x40) return -1;
  const own = segments(lower).length;
  const { state } = index;
  // Building the tables costs about as much as 30 scans: an audit's first lookups scan.
  if (state.exact === undefined || (state.joined === undefined && (state.joinedScans = (state.joinedScans ?? 0) + 1) <= JOINED_TABLES_AFTER)) {
    return joinedScan(index.lowers, lower, form, own);
  }
  const { joined, ranks, parts } = joinedTablesOf(index);
  const mask = charMask(form);
  const repeats = repeatMask(form);
  let best = -1;
  for (let l = form.length - 1; l <= form.length + 1; l++) {
    const bucket = joined.byLength[l];
    if (bucket === undefined) continue;
    const { masks, repeats: theirRepeats } = masksOf(bucket, joined.lowers);
    const found = withinMaskBounds(mask, repeats, masks, theirRepeats);
    for (let c = 0; c < found; c++) {
      const k = bucket.ranks[candidates[c]!]!;
      const rank = ranks[k]!;
      if ((best !== -1 && rank >= best) || parts[k]! <= own || joined.lowers[k]!.charCodeAt(0) !== form.charCodeAt(0)) continue;
      if (editDistance(form, joined.lowers[k]!, 1) !== 1 || differOnlyInDigits(lower, index.lowers[rank]!)) continue;
      best = rank;
    }
  }
  return best;
}

/**
 * `joinedRankOf` without tables (the first lookups, see `buildPopularIndex`): a scan of the names
 * starting alike that counts each one's separators (an unscoped name has one part more than it
 * has separators) and reads a name without them only when its parts and its length could match.
 */
function joinedScan(lowers: readonly string[], lower: string, form: string, own: number): number {
  const first = form.charCodeAt(0);
  for (let r = 0; r < lowers.length; r++) {
    const other = lowers[r]!;
    const start = other.charCodeAt(0);
    if (other.length < form.length || start === 0x40 || (start !== first && !isSeparator(start))) continue;
    let separators = 0;
    let lead = -1;
    for (let i = 0; i < other.length; i++) {
      const code = other.charCodeAt(i);
      if (isSeparator(code)) separators++;
      else if (lead === -1) lead = code;
    }
    const length = other.length - separators;
    if (lead !== first || separators + 1 <= own || length < form.length - 1 || length > form.length + 1) continue;
    if (editDistance(form, stripSeparators(other), 1) === 1 && !differOnlyInDigits(lower, other)) return r;
  }
  return -1;
}

/** Shortest misspelt part, and popular one-word name, for the `word` rule. */
export const MIN_LENGTH_WORD = 7;

/** Lower-case letters only, `MIN_LENGTH_WORD` of them or more. */
function isLongWord(part: string): boolean {
  return part.length >= MIN_LENGTH_WORD && /^[a-z]+$/.test(part);
}

/**
 * Every part (`segments`) of every name on the list and on the shipped npm list: the words
 * popular package names are made of (the npm list's many names give a short list such as the
 * PyPI one its words too: `django-unicorn` is no `uvicorn`). Built by the first lookup that needs it.
 */
function popularWordsOf(index: PopularIndex): ReadonlySet<string> {
  if (index.state.words !== undefined) return index.state.words;
  const words = new Set<string>();
  const npm = popularIndex();
  for (const lowers of npm === index ? [index.lowers] : [index.lowers, npm.lowers]) {
    for (const lower of lowers) for (const part of segments(lower)) words.add(part);
  }
  index.state.words = words;
  return words;
}

/**
 * The first rank of an unscoped popular name of one word that the first part of `lower` (an
 * unscoped name of two parts or more) misspells, by the `word` rule, or -1: the part is 7 letters
 * or more and no part of any popular name, the popular name one edit from it, 7 letters or more,
 * starting with the same letter and ending with the same two.
 */
function wordRankOf(index: PopularIndex, lower: string): number {
  const parts = segments(lower);
  const part = parts[0]!;
  if (parts.length < 2 || !isLongWord(part)) return -1;
  const rank = misspeltRankOf(index, part);
  // A word popular names are made of is another word, not a misspelling (a popular name is one of its own words).
  return rank === -1 || popularWordsOf(index).has(part) ? -1 : rank;
}

/** The first rank of a popular name of one word that `part` misspells by the `word` rule, or -1. */
function misspeltRankOf(index: PopularIndex, part: string): number {
  const mask = charMask(part);
  const repeats = repeatMask(part);
  const start = part.charCodeAt(0);
  const ending = part.slice(-2);
  let best = -1;
  for (let l = part.length - 1; l <= part.length + 1; l++) {
    const bucket = index.byLength[l];
    if (bucket === undefined) continue;
    const { masks, repeats: theirRepeats } = masksOf(bucket, index.lowers);
    const count = withinMaskBounds(mask, repeats, masks, theirRepeats);
    for (let c = 0; c < count; c++) {
      const rank = bucket.ranks[candidates[c]!]!;
      if (best !== -1 && rank >= best) continue;
      const other = index.lowers[rank]!;
      if (other.charCodeAt(0) !== start || !other.endsWith(ending) || !isLongWord(other) || editDistance(part, other, 1) !== 1) continue;
      best = rank;
    }
  }
  return best;
}

/** Same first two characters: a reader checks a name's start, which the squats that reorder keep. */
function sameStart(a: string, b: string): boolean {
  return a.charCodeAt(0) === b.charCodeAt(0) && a.charCodeAt(1) === b.charCodeAt(1);
}

/**
 * The variant rules, in priority order (exact readings first):
 *  - `repeat`: a name that equals a popular one once runs of a character are read as one on both
 *    sides (`aaiohttpp`, `pupeter` / `puppeteer`; 5 characters or more then, separators not
 *    counted: `sst` is not `st`);
 *  - `plural`: a popular name of two parts or more with an `s` added to one part, the first such
 *    reading from the left (`huggingface-hubs`, `nodes-polyfill-webpack-plugin`);
 *  - `affix`: a popular name of 4 characters or more after `python-`, `python3-` or `python`
 *    (`python-flask`, `pythonhttpx`);
 *  - `anagram`: an unscoped name whose parts have the same characters as a popular name's
 *    (5 or more, separators not counted) in another order, starting with the same two (`matlibplot`, `sphinx-rdt-theme`, `bo3to`);
 *  - `repeat` again: a name with a character three times in a row or more (`aiohtttps`,
 *    `requstsss`) within the distance rule of a popular name once runs are read as one on both
 *    sides (`aiohtps` / `aiohtp`), version families included (`urlllib` / `urllib3`);
 *  - `suffix`: a popular name of 4 characters or more with `-` and a release word of
 *    `RELEASE_WORDS` or a version number of one or two digits after it (`uuid-latest`,
 *    `jquery-real`, `react-dom-16`, `html-webpack-plugin-v4`);
 *  - `digit`: an unscoped popular name with the digits ending a part before a `-` dropped, when
 *    the word left is no popular name (`web-bzz` / `web3-bzz`; see `digitTableOf`);
 *  - `joined`: an unscoped name of 6 characters or more (separators not counted) with fewer parts
 *    than an unscoped popular name, one edit from it once both are read without separators and
 *    starting with the same character (a reader checks a name's start, as for `anagram`): the
 *    words run together and one more typing error (`web3ethabii` / `web3-eth-abi`, `web3bz` /
 *    `web3-bzz`), version families aside. Not with as many parts or more (`eslint_d` / `eslint`,
 *    `tomli-w` / `tomli`: words added), nor two edits (`splitpanes` / `split-lines`): both flag
 *    legitimate names (docs/security.md);
 *  - `word`: an unscoped name of two parts or more whose first part, of 7 letters or more and
 *    no part of any popular name (of the list or of the npm list), is one edit from an unscoped
 *    popular name of one word (7 letters or more) that starts with the same letter and ends with
 *    the same two (`pupeteer-cluster`, `harthat-chain`): a popular name misspelt inside and words
 *    added after it. Not a part that is a word of popular names (`console`, `resolver`:
 *    `better-console` is no `consola`), nor one whose start or ending differs (`standard` /
 *    `zstandard`, `sortables` / `sortablejs`, `emitters` / `emittery`), nor a later part
 *    (`appium-espresso-driver`, `gulp-svgstore`): another word far more often (docs/security.md);
 *  - `scope-extended`: a scoped name whose scope, not itself a popular one, is a popular scope of 8
 *    characters or more (separators not counted) with 1 to 3 letters added to its end
 *    (`@typescript_eslinter/eslint`; `_` and `.` read as `-`): the scope's most popular name.
 *    Not a word added after a `-` (`@salesforce-ux` is Salesforce's), nor any scope one edit away:
 *    both flag far more legitimate scopes than squats (docs/security.md).
 */
function findVariant(lower: string, index: PopularIndex): TyposquatMatch | null {
  const match = (rank: number, rule: TyposquatRule): TyposquatMatch => ({
    intended: index.names[rank]!,
    rule,
    distance: editDistance(lower, index.lowers[rank]!),
  });
  const run = longestRun(lower);
  const collapsed = run >= 2 ? collapseRuns(lower) : lower;
  if (stripSeparators(collapsed).length >= MIN_LENGTH_DISTANCE_1) {
    const exact = collapsedRankOf(index, collapsed);
    if (exact !== -1) return match(exact, 'repeat');
  }
  for (let i = lower.indexOf('s'); i !== -1; i = lower.indexOf('s', i + 1)) {
    const next = lower.charCodeAt(i + 1);
    if (!(Number.isNaN(next) || isSeparator(next))) continue;
    const singular = lower.slice(0, i) + lower.slice(i + 1);
    const rank = lowerRankOf(index, singular);
    if (rank !== -1 && segments(singular).length >= 2) return match(rank, 'plural');
  }
  for (const prefix of AFFIX_PREFIXES) {
    if (!lower.startsWith(prefix) || lower.length - prefix.length < MIN_LENGTH_AFFIX) continue;
    const rank = lowerRankOf(index, lower.slice(prefix.length));
    if (rank !== -1) return match(rank, 'affix');
  }
  if (!lower.startsWith('@') && stripSeparators(lower).length >= MIN_LENGTH_ANAGRAM) {
    const rank = anagramRankOf(index, lower);
    if (rank !== -1 && stripSeparators(index.lowers[rank]!) !== stripSeparators(lower)) return match(rank, 'anagram');
  }
  if (run >= MIN_RUN_NEAR) {
    const tables = variantTablesOf(index);
    // A name with a character three times in a row is no version sibling (`urlllib` / `urllib3`).
    const near = findByRules(collapsed, tables.collapsed, false);
    if (near !== null && near.rule === 'distance') return match(tables.collapsedRanks[lowerRankOf(tables.collapsed, near.intended)]!, 'repeat');
  }
  const suffix = SUFFIX.exec(lower);
  if (suffix !== null && suffix.index >= MIN_LENGTH_AFFIX) {
    const rank = lowerRankOf(index, lower.slice(0, suffix.index));
    if (rank !== -1) return match(rank, 'suffix');
  }
  const { scope } = splitScope(lower);
  if (scope === null) {
    const digit = digitRankOf(index, lower);
    if (digit !== -1) return match(digit, 'digit');
    const joined = joinedRankOf(index, lower);
    if (joined !== -1) return match(joined, 'joined');
    const word = wordRankOf(index, lower);
    return word === -1 ? null : match(word, 'word');
  }
  const scopes = scopeTablesOf(index);
  const form = scopeForm(scope);
  if (scopes.all.has(form)) return null;
  for (let added = 1; added <= MAX_SCOPE_LETTERS && added < form.length; added++) {
    const letter = form.charCodeAt(form.length - added);
    if (letter < 0x61 || letter > 0x7a) break;
    const rank = scopes.long.get(form.slice(0, -added));
    if (rank !== undefined) return match(rank, 'scope-extended');
  }
  return null;
}

/**
 * Typosquat detection: is a package name confusable with a far more popular one?
 *
 * The popular set is data shipped with nerq: the union of the lists in `npm-high-impact`
 * 1.13.0 (17,338 names; `npmHighImpact` already contains `npmTopDependents` and
 * `npmTopDownloads`), in the list's own order, most popular first. No network.
 *
 * Rules, in priority order (names are compared case-insensitively):
 *  - `separator`: equal once `-`, `_` and `.` are removed (`crossenv` / `cross-env`);
 *  - `scope`: an unscoped name that reads as a popular scoped one (`types-react`,
 *    `typesreact` / `@types/react`);
 *  - `homoglyph`: equal once look-alikes are read alike (`0`/`o`, `1`/`l`, `1`/`i`, `5`/`s`,
 *    `rn`/`m`, `vv`/`w`): `l0dash` / `lodash`;
 *  - `distance`: Damerau–Levenshtein (optimal string alignment) distance 1 when the
 *    differing part has at least 5 characters, 1–2 from 8 characters (`electorn` /
 *    `electron`). The differing part is the one segment (between `@`, `/`, `-`, `_`, `.`)
 *    that differs when only one does (so `eslint-config-umi` / `eslint-config-ali` compare
 *    `umi` with `ali`), else the whole name; short parts collide naturally and meet only the
 *    rules above. Names that differ only in digits (`passport-oauth1` / `passport-oauth2`)
 *    are version families, not typos; a scoped and an unscoped name are never compared by
 *    distance.
 * Several matches: the highest-priority rule wins, then the smaller distance, then the more
 * popular name (list order; names are unique in it, so no further tie-break is needed).
 *
 * The lookup structures are built lazily once (a rank map for membership, buckets by
 * normalised form and by length, normalised forms precomputed) and shared by every call.
 *
 * PyPI targets are compared with the curated list of lib/pypi-popular.ts instead, both sides
 * PEP 503 normalised first (`python_dateutil` is `python-dateutil`, the same project, while
 * `pythondateutil` is a different one: the separator rule).
 */
import { npmHighImpact, npmTopDependents, npmTopDownloads } from 'npm-high-impact';
import { PYPI_POPULAR } from './pypi-popular.js';

/** Where the popular set comes from (keep in step with the installed package). */
export const POPULAR_LIST = { name: 'npm-high-impact', version: '1.13.0' } as const;

export const TYPOSQUAT_RULES = ['separator', 'scope', 'homoglyph', 'distance'] as const;
export type TyposquatRule = (typeof TYPOSQUAT_RULES)[number];

/** Shortest differing part for which edit distance 1 counts. */
export const MIN_LENGTH_DISTANCE_1 = 5;
/** Shortest differing part for which edit distance 2 counts. */
export const MIN_LENGTH_DISTANCE_2 = 8;
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
 * With `max`, stops as soon as the distance must exceed `max` and returns `max + 1`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (m - n > max) return max + 1;
  if (n === 0) return Math.min(m, max + 1);
  if (rows[0].length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  // Rolling rows: the one before the previous (for swaps), the previous, the current.
  let [before, previous, current] = rows;
  for (let i = 0; i <= n; i++) previous[i] = i;
  for (let j = 1; j <= m; j++) {
    current[0] = j;
    let rowMin = j;
    const bj = b.charCodeAt(j - 1);
    const bPrev = j > 1 ? b.charCodeAt(j - 2) : -1;
    for (let i = 1; i <= n; i++) {
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
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
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
  return name.toLowerCase().replace(/rn/g, 'm').replace(/vv/g, 'w');
}

const GLYPH_KEY: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', i: 'l', '5': 's' };

/**
 * Coarse homoglyph key: clusters folded, then `0`→`o`, `5`→`s`, `1` and `i`→`l`. Names that
 * are homoglyphs of each other share it (it is the bucket); `isHomoglyphOf` decides exactly.
 */
export function homoglyphKey(name: string): string {
  return foldClusters(name).replace(/[015i]/g, (c) => GLYPH_KEY[c] ?? c);
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

/** True when two different names are equal once their digits are removed (`mkdirp2` / `mkdirp`). */
export function differOnlyInDigits(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== y && x.replace(/\d/g, '') === y.replace(/\d/g, '');
}

/** A name's lower-cased form and its parts, precomputed for the distance rule. */
export interface Shape {
  lower: string;
  scoped: boolean;
  segments: readonly string[];
}

function shapeOf(name: string): Shape {
  const lower = name.toLowerCase();
  return { lower, scoped: splitScope(lower).scope !== null, segments: segments(lower) };
}

/** Length of the part that differs: the one differing segment when only one does, else the shorter name. */
function differingLength(x: Shape, y: Shape): number {
  let length = Math.min(x.lower.length, y.lower.length);
  if (x.segments.length === y.segments.length) {
    let differing = -1;
    for (let i = 0; i < x.segments.length; i++) {
      if (x.segments[i] === y.segments[i]) continue;
      if (differing >= 0) return length;
      differing = i;
    }
    if (differing >= 0) length = Math.min(x.segments[differing]!.length, y.segments[differing]!.length);
  }
  return length;
}

function allowedFor(x: Shape, y: Shape): number {
  if (x.scoped !== y.scoped) return 0;
  const length = differingLength(x, y);
  if (length >= MIN_LENGTH_DISTANCE_2) return 2;
  if (length >= MIN_LENGTH_DISTANCE_1) return 1;
  return 0;
}

/**
 * The largest edit distance that counts between two names: 0 when only one is scoped or the
 * differing part is shorter than 5 characters, 1 from 5, 2 from 8.
 */
export function distanceAllowed(a: string, b: string): number {
  return allowedFor(shapeOf(a), shapeOf(b));
}

// ───────────────────────────── the index ─────────────────────────────

export interface PopularIndex {
  /** Popular names, most popular first. */
  readonly names: readonly string[];
  /** Name → rank (position in `names`); also the membership test. */
  readonly rank: ReadonlyMap<string, number>;
  /** Precomputed lower-cased forms and segments, by rank. */
  readonly shapes: readonly Shape[];
  /** Ranks by `stripSeparators` form. */
  readonly bySeparators: ReadonlyMap<string, readonly number[]>;
  /** Ranks of scoped names by `flattenScope` form (`typesreact`). */
  readonly byFlatScope: ReadonlyMap<string, readonly number[]>;
  /** Ranks by `homoglyphKey`. */
  readonly byHomoglyph: ReadonlyMap<string, readonly number[]>;
  /** Ranks by lower-cased length, for the distance rule. */
  readonly byLength: readonly (readonly number[] | undefined)[];
}

function push(map: Map<string, number[]>, key: string, rank: number): void {
  const bucket = map.get(key);
  if (bucket === undefined) map.set(key, [rank]);
  else bucket.push(rank);
}

/** Build the lookup structures over names given most popular first (a repeated name keeps its first rank). */
export function buildPopularIndex(list: Iterable<string>): PopularIndex {
  const rank = new Map<string, number>();
  const names: string[] = [];
  for (const name of list) {
    if (rank.has(name)) continue;
    rank.set(name, names.length);
    names.push(name);
  }
  const shapes = names.map(shapeOf);
  const bySeparators = new Map<string, number[]>();
  const byFlatScope = new Map<string, number[]>();
  const byHomoglyph = new Map<string, number[]>();
  const byLength: number[][] = [];
  shapes.forEach((shape, r) => {
    push(bySeparators, stripSeparators(shape.lower), r);
    push(byHomoglyph, homoglyphKey(shape.lower), r);
    if (shape.scoped) push(byFlatScope, flattenScope(shape.lower), r);
    (byLength[shape.lower.length] ??= []).push(r);
  });
  return { names, rank, shapes, bySeparators, byFlatScope, byHomoglyph, byLength };
}

let cached: PopularIndex | undefined;
let cachedPypi: PopularIndex | undefined;

/** The index over the shipped popular npm list, built on first use. */
export function popularIndex(): PopularIndex {
  cached ??= buildPopularIndex([...npmHighImpact, ...npmTopDependents, ...npmTopDownloads]);
  return cached;
}

/** The index over the curated PyPI list (lib/pypi-popular.ts), built on first use. */
export function pypiPopularIndex(): PopularIndex {
  cachedPypi ??= buildPopularIndex(PYPI_POPULAR);
  return cachedPypi;
}

/** PEP 503 normalisation: lower case, runs of `-`, `_`, `.` become one `-` (`Foo_Bar` = `foo-bar`). */
export function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The name itself is on the popular list (exact spelling). */
export function isPopular(name: string, index: PopularIndex = popularIndex()): boolean {
  return index.rank.has(name);
}

// ───────────────────────────── matching ─────────────────────────────

interface Candidate {
  rank: number;
  rule: TyposquatRule;
  distance: number;
}

const PRIORITY: Readonly<Record<TyposquatRule, number>> = { separator: 0, scope: 1, homoglyph: 2, distance: 3 };

function better(a: Candidate, b: Candidate): boolean {
  if (a.rule !== b.rule) return PRIORITY[a.rule] < PRIORITY[b.rule];
  if (a.distance !== b.distance) return a.distance < b.distance;
  // Ranks are unique (a repeated name keeps its first), so list order settles every tie.
  return a.rank < b.rank;
}

/**
 * The popular name that `name` most likely imitates, or null when none is confusable or
 * `name` is itself on the list (popular names are not typosquats of each other).
 */
export function findIntended(name: string, index: PopularIndex = popularIndex()): TyposquatMatch | null {
  if (index.rank.has(name)) return null;
  const own = shapeOf(name);
  const { lower } = own;
  let best: Candidate | undefined;
  const consider = (rank: number, rule: TyposquatRule, distance?: number): void => {
    const candidate = { rank, rule, distance: distance ?? editDistance(lower, index.shapes[rank]!.lower) };
    if (best === undefined || better(candidate, best)) best = candidate;
  };

  const stripped = stripSeparators(lower);
  for (const r of index.bySeparators.get(stripped) ?? []) consider(r, 'separator');
  if (!own.scoped) for (const r of index.byFlatScope.get(stripped) ?? []) consider(r, 'scope');
  for (const r of index.byHomoglyph.get(homoglyphKey(lower)) ?? []) {
    if (isHomoglyphOf(lower, index.shapes[r]!.lower)) consider(r, 'homoglyph');
  }
  const length = lower.length;
  for (let l = Math.max(0, length - MAX_DISTANCE); l <= length + MAX_DISTANCE; l++) {
    for (const r of index.byLength[l] ?? []) {
      const other = index.shapes[r]!;
      // Cheap first: the bounded distance rejects almost every pair; the segment rule after.
      const distance = editDistance(lower, other.lower, MAX_DISTANCE);
      if (distance === 0 || distance > MAX_DISTANCE) continue;
      if (distance > allowedFor(own, other) || differOnlyInDigits(lower, other.lower)) continue;
      consider(r, 'distance', distance);
    }
  }
  if (best === undefined) return null;
  return { intended: index.names[best.rank]!, rule: best.rule, distance: best.distance };
}

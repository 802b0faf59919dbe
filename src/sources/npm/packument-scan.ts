/**
 * A packument read without building it whole. The packument of a big project is 10–20 MB of
 * JSON, almost all of it the manifests of old versions; `JSON.parse` of the whole body turns
 * that into a string as large and an object graph several times larger, for facts that need
 * two manifests. So the body is scanned once, byte by byte, and validated as strictly as
 * `JSON.parse` would (same grammar; invalid UTF-8 can only be inside strings, where both
 * accept it): only the members the facts read are parsed, each from its own bytes.
 *
 * What a scan gives (`packument`) is the document as `JSON.parse` would give it, cut down to:
 * - the top-level members in KEPT_MEMBERS;
 * - `versions`: every version key, each with a stub of its manifest holding only its
 *   `_npmUser` and `deprecated` members (what version resolution and the prior-publisher
 *   list read), or the value itself when it is not an object;
 * and `manifest(v)` parses one version's whole manifest from its bytes on demand.
 * Duplicate keys behave as in `JSON.parse` (the last one wins). Pure; throws nothing:
 * a body that is not valid JSON is `null`, a valid one that is not an object `undefined`
 * (the caller then says which, as it did before).
 */

/** Top-level members the registry facts read (besides `versions`). */
export const KEPT_MEMBERS: ReadonlySet<string> = new Set(['name', 'description', 'dist-tags', 'time', 'maintainers', 'readme']);

/** Manifest members kept in each version's stub. */
const STUB_MEMBERS: ReadonlySet<string> = new Set(['_npmUser', 'deprecated', 'mcpName']);

export interface ScannedPackument {
  /** The document cut down as described above. */
  packument: Record<string, unknown>;
  /** One version's whole manifest as `JSON.parse` would give it (undefined when there is no such key). */
  manifest(version: string): unknown;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Thrown inside the scanner only: the body is not valid JSON. */
class Malformed extends Error {}

const malformed = (): never => {
  throw new Malformed();
};

/**
 * Scan a packument body. `null`: not valid JSON. `undefined`: valid JSON that does not start
 * with an object (the caller parses it to say what it is).
 */
export function scanPackument(body: Buffer): ScannedPackument | null | undefined {
  const start = skipWs(body, 0);
  if (body[start] !== OPEN_OBJECT) return undefined;
  try {
    return scanTopLevel(body, start);
  } catch (error) {
    if (error instanceof Malformed) return null;
    throw error;
  }
}

/**
 * The members of the object opening at `open`: for each, `member(keyStart, keyEnd, valueStart)`
 * reads the value and answers the index after it. Answers the index after the closing brace.
 */
function scanMembers(b: Buffer, open: number, member: (keyStart: number, keyEnd: number, valueStart: number) => number): number {
  let i = skipWs(b, open + 1);
  if (b[i] === CLOSE_OBJECT) return i + 1;
  for (;;) {
    const keyStart = i;
    const keyEnd = scanString(b, i);
    i = skipWs(b, keyEnd);
    if (b[i] !== COLON) malformed();
    i = skipWs(b, member(keyStart, keyEnd, skipWs(b, i + 1)));
    if (b[i] === COMMA) {
      i = skipWs(b, i + 1);
      continue;
    }
    if (b[i] === CLOSE_OBJECT) return i + 1;
    malformed();
  }
}

function scanTopLevel(b: Buffer, open: number): ScannedPackument {
  const doc: Record<string, unknown> = {};
  let stubs: Record<string, unknown> | null = null;
  let ranges = new Map<string, { start: number; end: number }>();
  const end = scanMembers(b, open, (keyStart, keyEnd, valueStart) => {
    const key = decodeString(b, keyStart, keyEnd);
    if (key === 'versions' && b[valueStart] === OPEN_OBJECT) {
      stubs = {};
      ranges = new Map();
      setOwn(doc, key, stubs);
      return scanVersions(b, valueStart, stubs, ranges);
    }
    const valueEnd = skipValue(b, valueStart);
    if (key === 'versions') {
      stubs = null;
      ranges = new Map();
    }
    if (key === 'versions' || KEPT_MEMBERS.has(key)) setOwn(doc, key, parseSlice(b, valueStart, valueEnd));
    return valueEnd;
  });
  if (skipWs(b, end) !== b.length) malformed();

  const parsed = new Map<string, unknown>();
  const versions: Record<string, unknown> | null = stubs;
  const manifests = ranges;
  return {
    packument: doc,
    manifest(version: string): unknown {
      const range = manifests.get(version);
      if (range === undefined) return versions !== null && Object.hasOwn(versions, version) ? versions[version] : undefined;
      if (!parsed.has(version)) parsed.set(version, parseSlice(b, range.start, range.end));
      return parsed.get(version);
    },
  };
}

/** The `versions` object into `stubs` (a stub per version) and `ranges` (each manifest object's bytes). */
function scanVersions(b: Buffer, open: number, stubs: Record<string, unknown>, ranges: Map<string, { start: number; end: number }>): number {
  return scanMembers(b, open, (keyStart, keyEnd, valueStart) => {
    const version = decodeString(b, keyStart, keyEnd);
    if (b[valueStart] === OPEN_OBJECT) {
      const stub: Record<string, unknown> = {};
      const valueEnd = scanManifest(b, valueStart, stub);
      setOwn(stubs, version, stub);
      ranges.set(version, { start: valueStart, end: valueEnd });
      return valueEnd;
    }
    const valueEnd = skipValue(b, valueStart);
    setOwn(stubs, version, parseSlice(b, valueStart, valueEnd));
    ranges.delete(version);
    return valueEnd;
  });
}

/** One manifest object: its stub members are parsed into `stub`, the rest only validated. */
function scanManifest(b: Buffer, open: number, stub: Record<string, unknown>): number {
  return scanMembers(b, open, (keyStart, keyEnd, valueStart) => {
    const keep = stubKey(b, keyStart, keyEnd);
    const valueEnd = skipValue(b, valueStart);
    if (keep !== null) stub[keep] = parseSlice(b, valueStart, valueEnd);
    return valueEnd;
  });
}

/** The member name when the key (quotes included, already validated) is a stub member, else null. */
function stubKey(b: Buffer, start: number, end: number): string | null {
  const length = end - start - 2;
  // `mcpName`, `_npmUser` and `deprecated` are 7, 8 and 10 bytes; an escaped spelling is longer.
  if (length < 7) return null;
  if (length > 10 && !hasBackslash(b, start, end)) return null;
  const key = decodeString(b, start, end);
  return STUB_MEMBERS.has(key) ? key : null;
}

function hasBackslash(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i] === BACKSLASH) return true;
  return false;
}

/** Define an own data property, as `JSON.parse` does — `__proto__` included. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function parseSlice(b: Buffer, start: number, end: number): unknown {
  return JSON.parse(b.toString('utf8', start, end));
}

/** A validated string token (quotes included) → its value. */
function decodeString(b: Buffer, start: number, end: number): string {
  for (let i = start + 1; i < end - 1; i++) {
    if (b[i]! >= 0x80 || b[i] === BACKSLASH) return JSON.parse(b.toString('utf8', start, end)) as string;
  }
  return b.toString('latin1', start + 1, end - 1);
}

// ── the validating scanner ───────────────────────────────────────────────────────────────

function skipWs(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** A string token starting at `i` (its opening quote) → the index after its closing quote. */
function scanString(b: Uint8Array, i: number): number {
  if (b[i] !== QUOTE) malformed();
  const n = b.length;
  i++;
  for (;;) {
    if (i >= n) malformed();
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = b[i + 1];
      if (e === 0x75) {
        // \uXXXX
        for (let k = i + 2; k < i + 6; k++) if (!isHex(b[k])) malformed();
        i += 6;
      } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
      } else {
        malformed();
      }
    } else if (c < 0x20) {
      malformed();
    } else {
      i++;
    }
  }
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

/** A number token starting at `i` → the index after it (JSON's grammar: no leading zeros, no bare dot). */
function scanNumber(b: Uint8Array, i: number): number {
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else malformed();
  if (b[i] === DOT) {
    i++;
    if (!isDigit(b[i])) malformed();
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (!isDigit(b[i])) malformed();
    while (isDigit(b[i])) i++;
  }
  return i;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function scanLiteral(b: Uint8Array, i: number, literal: readonly number[]): number {
  for (let k = 0; k < literal.length; k++) if (b[i + k] !== literal[k]) malformed();
  return i + literal.length;
}

/** The open containers of the value being skipped (reused: skipValue never re-enters; grown when deeper). */
let containers = new Uint8Array(64);
const IN_OBJECT = 1;
const IN_ARRAY = 2;

/**
 * Validate one value starting at `i` (no whitespace before it) → the index after it.
 * Iterative, so no nesting depth can overflow the stack.
 */
function skipValue(b: Uint8Array, i: number): number {
  let depth = 0;
  for (;;) {
    // At the start of a value.
    const c = b[i];
    let closed = true;
    if (c === QUOTE) {
      i = scanString(b, i);
    } else if (c === OPEN_OBJECT) {
      i = skipWs(b, i + 1);
      if (b[i] === CLOSE_OBJECT) {
        i++;
      } else {
        if (depth === containers.length) growContainers();
        containers[depth++] = IN_OBJECT;
        i = memberValueStart(b, i);
        closed = false;
      }
    } else if (c === OPEN_ARRAY) {
      i = skipWs(b, i + 1);
      if (b[i] === CLOSE_ARRAY) {
        i++;
      } else {
        if (depth === containers.length) growContainers();
        containers[depth++] = IN_ARRAY;
        closed = false;
      }
    } else if (c === MINUS || isDigit(c)) {
      i = scanNumber(b, i);
    } else if (c === 0x74) {
      i = scanLiteral(b, i, TRUE);
    } else if (c === 0x66) {
      i = scanLiteral(b, i, FALSE);
    } else if (c === 0x6e) {
      i = scanLiteral(b, i, NULL);
    } else {
      malformed();
    }
    if (!closed) continue;
    // After a value: a separator (then the next value) or the end of containers.
    for (;;) {
      if (depth === 0) return i;
      i = skipWs(b, i);
      const top = containers[depth - 1];
      const d = b[i];
      if (d === COMMA) {
        i = skipWs(b, i + 1);
        if (top === IN_OBJECT) i = memberValueStart(b, i);
        break;
      }
      if ((top === IN_OBJECT && d === CLOSE_OBJECT) || (top === IN_ARRAY && d === CLOSE_ARRAY)) {
        depth--;
        i++;
        continue;
      }
      malformed();
    }
  }
}

function growContainers(): void {
  const grown = new Uint8Array(containers.length * 2);
  grown.set(containers);
  containers = grown;
}

/** `"key" :` at `i` → the start of the member's value. */
function memberValueStart(b: Uint8Array, i: number): number {
  i = skipWs(b, scanString(b, i));
  if (b[i] !== COLON) malformed();
  return skipWs(b, i + 1);
}

// ── repeated keys in a package.json ──────────────────────────────────────────────────────

/** A member named twice in one object: its path (`scripts.postinstall`) and both values as written (JSON text, cut at MAX_REPEATED_TEXT). */
export interface RepeatedKey {
  key: string;
  first: string;
  last: string;
}

/** Repeated keys listed at most, and the characters of each value kept. */
const MAX_REPEATED = 20;
const MAX_REPEATED_TEXT = 200;

/**
 * Members of a package.json that npm or nerq reads (install scripts, dependencies, what runs),
 * whose repeated keys are looked for at the top level; those whose own members are looked in
 * too (an object: `scripts.postinstall` twice).
 */
const READ_MEMBERS: ReadonlySet<string> = new Set(['name', 'version', 'main', 'bin', 'scripts', 'dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies', 'gypfile', 'exports', 'types', 'typings']);
const READ_MAPS: ReadonlySet<string> = new Set(['bin', 'scripts', 'dependencies', 'optionalDependencies', 'peerDependencies']);

/**
 * The keys a package.json names twice — at its top level among READ_MEMBERS, and inside the maps
 * of READ_MAPS (each of their occurrences) — with different values. `JSON.parse`, and so npm
 * and nerq, keep the last; other parsers keep the first, so a scanner built on one may see other
 * install scripts than npm runs (docs/security.md, "Manifest confusion"). One pass of the
 * scanner above over each object (linear in the text); `null` when the text is not a JSON object.
 */
export function repeatedKeys(body: Buffer): RepeatedKey[] | null {
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  const open = skipWs(body, start);
  if (body[open] !== OPEN_OBJECT) return null;
  const out: RepeatedKey[] = [];
  const text = (s: number, e: number): string => body.toString('utf8', s, Math.min(e, s + MAX_REPEATED_TEXT));
  /** The members of one object, each key with the first value's bytes: a later one with other bytes is a repeat. */
  const membersOf = (objectStart: number, prefix: string, keep: (key: string) => boolean, onMember?: (key: string, s: number, e: number) => void): number => {
    const seen = new Map<string, { start: number; end: number }>();
    return scanMembers(body, objectStart, (keyStart, keyEnd, valueStart) => {
      const valueEnd = skipValue(body, valueStart);
      const key = decodeString(body, keyStart, keyEnd);
      if (!keep(key)) return valueEnd;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, { start: valueStart, end: valueEnd });
      else if (out.length < MAX_REPEATED && body.compare(body, first.start, first.end, valueStart, valueEnd) !== 0) {
        out.push({ key: `${prefix}${key}`, first: text(first.start, first.end), last: text(valueStart, valueEnd) });
      }
      onMember?.(key, valueStart, valueEnd);
      return valueEnd;
    });
  };
  try {
    const maps: { key: string; start: number }[] = [];
    const end = membersOf(open, '', (key) => READ_MEMBERS.has(key), (key, s) => {
      if (READ_MAPS.has(key) && body[s] === OPEN_OBJECT) maps.push({ key, start: s });
    });
    if (skipWs(body, end) !== body.length) return null;
    for (const map of maps) membersOf(map.start, `${map.key}.`, () => true);
  } catch (error) {
    if (error instanceof Malformed) return null;
    throw error;
  }
  return out;
}

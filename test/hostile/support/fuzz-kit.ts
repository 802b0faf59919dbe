/**
 * What the fuzzing files (fuzz.test.ts, fuzz-sources.test.ts, fuzz-lockfiles.test.ts) share:
 * running a property over RUNS cases while noting the count, the time and this process's peak
 * RSS for the summary; outcome tallies (a property whose generator never reaches the success
 * path proves little); hostile JSON; structure-aware mutation of a valid document; and a fake
 * HTTP client that answers like the real one (failures as data, never a throw).
 */
import fc from 'fast-check';
import { afterAll, expect } from 'vitest';
import type { HttpClient, HttpRequest, HttpResult } from '../../../src/sources/http/types.js';
import { RSS_BOUND_BYTES } from './expect.js';
import { noteCases, noteRss, noteTime } from './metrics.js';

export const RUNS = 10_000;
/** Each property's time bound: CI time, generous for a loaded machine. */
export const PROPERTY_BOUND_MS = 60_000;
/** The test's own timeout: past the bound, so that a slow property fails on the bound (with its time), not on Vitest's default. */
export const FUZZ_TEST_TIMEOUT_MS = PROPERTY_BOUND_MS + 30_000;

/** A one-line reason: what `unavailable` must carry. */
export const ONE_LINE = /^[^\n\r]{1,600}$/;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
sampler.unref();
afterAll(() => clearInterval(sampler));

/**
 * The fast-check seed of a property run: NERQ_FUZZ_SEED when set (to replay a run), else a fresh
 * one. Every bound a run fails names its seed, so a rare failure can be replayed exactly.
 */
function seedOf(): number {
  const given = Number(process.env.NERQ_FUZZ_SEED);
  return Number.isSafeInteger(given) && process.env.NERQ_FUZZ_SEED !== '' ? given : Math.floor(Math.random() * 0x7fffffff);
}

/** Run one property with `runs` cases (RUNS by default), noting the count, the time and this process's RSS. */
export async function check(task: { meta: object }, property: fc.IAsyncPropertyWithHooks<unknown> | fc.IPropertyWithHooks<unknown>, runs = RUNS): Promise<void> {
  const seed = seedOf();
  const rssBefore = Math.max(peakRss, process.memoryUsage().rss);
  const started = performance.now();
  await fc.assert(property as fc.IAsyncPropertyWithHooks<unknown>, { numRuns: runs, seed });
  const elapsed = performance.now() - started;
  noteCases(task, runs);
  noteTime(task, elapsed, PROPERTY_BOUND_MS);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  noteRss(task, peakRss);
  const replay = `fast-check seed ${seed} (replay with NERQ_FUZZ_SEED=${seed}); peak RSS before this property ${Math.round(rssBefore / 2 ** 20)} MiB`;
  expect(elapsed, `time: ${replay}`).toBeLessThan(PROPERTY_BOUND_MS);
  expect(peakRss, `peak RSS: ${replay}`).toBeLessThan(RSS_BOUND_BYTES * 2);
}

export interface Outcomes {
  seen: Map<string, number>;
  note(outcome: string): void;
  /** Both outcomes came up at least once. */
  expectBoth(a: string, b: string): void;
}

/** How often each outcome came up. */
export function outcomes(): Outcomes {
  const seen = new Map<string, number>();
  return {
    seen,
    note: (outcome) => void seen.set(outcome, (seen.get(outcome) ?? 0) + 1),
    expectBoth: (a, b) => {
      expect(seen.get(a) ?? 0, `${a} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
      expect(seen.get(b) ?? 0, `${b} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    },
  };
}

/** Object.prototype is untouched (a `__proto__` key assigned through is pollution). */
export function expectNoPollution(): void {
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

// ── hostile JSON ────────────────────────────────────────────────────────────────────────

export const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'latest', 'next', '', ' '),
  fc.string({ maxLength: 12 }),
);
export const versionish = fc.oneof(
  fc.constantFrom('1.0.0', '4.1.0', '0.0.1-security', '1.0.0-beta.1', '99999999999999999999.0.0', 'v1.0.0', '1.0', '', 'latest', '__proto__'),
  fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`),
);
/** Any JSON, object keys included the hostile ones. */
export const anyJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 9007199254740993, 0.5, '', 'x', '2020-02-30T25:61:00Z', '\u001b[31m'),
    fc.string({ maxLength: 30 }),
    fc.double(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A JSON text parsed back, so `__proto__` is an own key as in a network answer. */
export const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

/** A body: JSON of any shape, JSON cut short, or bytes. */
export const body = fc.oneof(
  anyJson.map((v) => JSON.stringify(v) ?? 'null'),
  anyJson.map((v) => (JSON.stringify(v) ?? 'null').slice(0, -1)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constantFrom('', '<html>502</html>', '{"error":"\u001b]8;;x\u0007"}', '[]', 'null'),
);

// ── structure-aware mutation ────────────────────────────────────────────────────────────

/** One edit of a document: walk `path` (each step picks a child by index, modulo), then replace, delete or keep-and-wrap. */
export interface JsonEdit {
  path: number[];
  action: 'replace' | 'delete' | 'wrap' | 'duplicate';
  value: unknown;
}

export const jsonEdit = (replacement: fc.Arbitrary<unknown> = anyJson): fc.Arbitrary<JsonEdit> =>
  fc.record({
    path: fc.array(fc.nat(), { maxLength: 6 }),
    action: fc.constantFrom<JsonEdit['action']>('replace', 'replace', 'delete', 'wrap', 'duplicate'),
    value: replacement,
  });

/**
 * `doc` with `edit` applied, copying only the nodes on the edited path (the rest is shared):
 * a valid document with one value of another type, missing, wrapped in a list, or repeated.
 */
export function applyEdit(doc: unknown, edit: JsonEdit, depth = 0): unknown {
  const step = edit.path[depth];
  const container = typeof doc === 'object' && doc !== null;
  const keys = container ? Object.keys(doc) : [];
  if (step === undefined || keys.length === 0) {
    if (edit.action === 'wrap') return [doc];
    return edit.value;
  }
  const key = keys[step % keys.length] as string;
  const child = (doc as Record<string, unknown>)[key];
  const last = depth + 1 >= edit.path.length || typeof child !== 'object' || child === null;
  if (Array.isArray(doc)) {
    const copy = [...doc];
    const index = Number(key);
    if (last && edit.action === 'delete') copy.splice(index, 1);
    else if (last && edit.action === 'duplicate') copy.splice(index, 0, child);
    else copy[index] = last ? (edit.action === 'wrap' ? [child] : edit.value) : applyEdit(child, edit, depth + 1);
    return copy;
  }
  // defineProperty: a `__proto__` key stays an own data property, as JSON.parse makes it.
  const copy: Record<string, unknown> = {};
  for (const k of keys) {
    if (last && k === key && edit.action === 'delete') continue;
    const value = k !== key ? (doc as Record<string, unknown>)[k] : last ? (edit.action === 'wrap' ? [child] : edit.action === 'duplicate' ? child : edit.value) : applyEdit(child, edit, depth + 1);
    Object.defineProperty(copy, k, { value, enumerable: true, writable: true, configurable: true });
  }
  if (last && edit.action === 'duplicate') Object.defineProperty(copy, `${key}-copy`, { value: child, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A valid document with up to `max` edits applied (sometimes none: the healthy path). */
export const mutated = (doc: unknown, options: { max?: number; replacement?: fc.Arbitrary<unknown> } = {}): fc.Arbitrary<unknown> =>
  fc.array(jsonEdit(options.replacement), { maxLength: options.max ?? 3 }).map((edits) => edits.reduce<unknown>((d, e) => applyEdit(d, e), doc));

/** Arrays of a parsed document cut to `max` items (small inputs keep each case cheap). */
export function trimmed(doc: unknown, max = 3): unknown {
  if (Array.isArray(doc)) return doc.slice(0, max).map((item) => trimmed(item, max));
  if (typeof doc !== 'object' || doc === null) return doc;
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, trimmed(v, max)]));
}

// ── a fake HTTP client ──────────────────────────────────────────────────────────────────

/** A fake HTTP client answering each request with `answer(req)` (never throws, like the real one). */
export function fakeHttp(answer: (req: HttpRequest) => HttpResult): HttpClient {
  return { request: async (req) => answer(req), close: async () => undefined };
}

export const ok = (bodyText: Buffer | string, url: string, headers: Record<string, string> = {}, status = 200): HttpResult => ({
  ok: true,
  status,
  headers,
  body: Buffer.isBuffer(bodyText) ? bodyText : Buffer.from(bodyText),
  url,
});

/** Transport answers a server can give besides a body. */
export const failure = fc.constantFrom<HttpResult>(
  { ok: false, kind: 'status', status: 404, reason: 'HTTP 404 from h' },
  { ok: false, kind: 'status', status: 500, reason: 'HTTP 500 from h' },
  { ok: false, kind: 'network', reason: 'connection reset by h' },
  { ok: false, kind: 'timeout', reason: 'run deadline reached while waiting for h' },
  { ok: false, kind: 'too-large', reason: 'response from h exceeded the 1 MiB limit' },
  { ok: false, kind: 'redirect', reason: 'too many redirects from h' },
);

/**
 * The facts cache: what a source derived from its answers (registry facts of one version,
 * a tarball's facts, a repository's GitHub facts), kept in the store so that a warm run does
 * not fetch, parse and derive the same answers again. The HTTP cache still holds the answers
 * themselves (for revalidation); this holds the small result of reading them.
 *
 * Freshness follows the source the facts came from (freshness.ts): a caller asks with that
 * source's freshness, and the implementation applies the run's cache mode — `--no-cache`
 * never reads, `--offline` reads whatever is there, `--max-age` replaces every non-zero
 * freshness. Keys name the source and every input the facts depend on (never a credential);
 * the implementation separates nerq versions, so facts derived by other code are never read.
 * Values are JSON. Like the HTTP cache, a failing store is treated as empty: never a throw.
 */
import type { ZodType } from 'zod';

export interface FactsCache {
  /** The value stored under `key` if it is fresh for `freshnessMs` under the run's mode; else undefined. */
  get<T>(key: string, freshnessMs: number): T | undefined;
  /** Store `value` (JSON-serialisable) under `key`, fetched now. */
  put(key: string, value: unknown): void;
}

/** An in-memory facts cache for tests: fresh forever unless `now` moves past freshness. */
export function memoryFactsCache(now: () => number = Date.now): FactsCache & { readonly entries: Map<string, { json: string; at: number }> } {
  const entries = new Map<string, { json: string; at: number }>();
  return {
    entries,
    get<T>(key: string, freshnessMs: number): T | undefined {
      const entry = entries.get(key);
      if (entry === undefined || freshnessMs <= 0 || now() - entry.at > freshnessMs) return undefined;
      return JSON.parse(entry.json) as T;
    },
    put(key, value) {
      entries.set(key, { json: JSON.stringify(value), at: now() });
    },
  };
}

/** The value under `key`, fresh for `freshnessMs` and of `schema`'s shape; anything else is a miss. */
export function readFacts<T>(cache: FactsCache | undefined, key: string | undefined, freshnessMs: number, schema: ZodType<T>): T | undefined {
  if (cache === undefined || key === undefined) return undefined;
  const parsed = schema.safeParse(cache.get<unknown>(key, freshnessMs));
  return parsed.success ? parsed.data : undefined;
}

/** Keep `value` under `key` (nothing without a cache or a usable key). */
export function writeFacts(cache: FactsCache | undefined, key: string | undefined, value: unknown): void {
  if (cache !== undefined && key !== undefined) cache.put(key, value);
}

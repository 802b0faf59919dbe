/**
 * The FactsCache (src/sources/facts-cache.ts) over the store's facts table, with the run's
 * cache mode applied the way sources/http/cached.ts applies it to answers:
 *
 * - freshness 0 (or less) never reads: the caller does not want those facts cached;
 * - `no-cache` never reads, and still writes what this run derived;
 * - `offline` reads whatever is there, however old, and never writes: facts derived offline
 *   come from stale answers, and stamping them "now" would pass them off as fresh later;
 * - `--max-age` replaces every non-zero freshness (0 = every entry is stale).
 *
 * Keys are prefixed with nerq's version, so facts another version derived (another shape,
 * another reading) are never read. A failing store, unreadable JSON or an unserialisable value
 * is a miss or a skipped write, never a throw.
 */
import type { CacheMode } from '../sources/http/cached.js';
import type { FactsCache } from '../sources/facts-cache.js';
import type { FactsStore } from './types.js';

export interface StoredFactsCacheOptions {
  /** The facts table; null runs without one (every lookup misses). */
  store: FactsStore | null;
  mode: CacheMode;
  /** nerq's version: part of every key. */
  version: string;
  /** `--max-age` in ms: replaces every non-zero freshness. */
  maxAgeMs?: number;
  now?: () => number;
}

/** The key a caller's key is stored under (versions hold no space, so the prefix is unambiguous). */
export function versionedKey(version: string, key: string): string {
  return `${version} ${key}`;
}

export function createStoredFactsCache(options: StoredFactsCacheOptions): FactsCache {
  const { store, mode, version } = options;
  const now = options.now ?? Date.now;
  const maxAge = options.maxAgeMs === undefined || !(options.maxAgeMs >= 0) ? undefined : options.maxAgeMs;

  return {
    get<T>(key: string, freshnessMs: number): T | undefined {
      if (store === null || mode === 'no-cache' || !(freshnessMs > 0)) return undefined;
      try {
        const row = store.get(versionedKey(version, key));
        if (row === undefined) return undefined;
        if (mode !== 'offline' && !(now() - row.fetchedAt < (maxAge ?? freshnessMs))) return undefined;
        return JSON.parse(row.value) as T;
      } catch {
        return undefined;
      }
    },
    put(key: string, value: unknown): void {
      if (store === null || mode === 'offline') return;
      try {
        const json = JSON.stringify(value);
        if (typeof json !== 'string') return; // undefined, a function: nothing to keep
        store.put(versionedKey(version, key), json, now());
      } catch {
        // best effort, like every cache write
      }
    },
  };
}

/**
 * The facts table: what sources derived from their answers (facts-cache.ts in src/sources is
 * the contract; stored-facts-cache.ts applies the run's mode over this table). One row per key,
 * the value as JSON text, or gzip-compressed (a blob) when longer than COMPRESS_ABOVE_BYTES, as
 * the HTTP cache stores a large body (body-codec.ts): a package's code files (`loadCode`) can make
 * one row megabytes of text, and a store pruned to its cap must still hold a large project's facts.
 * Writes are queued (write-queue.ts) and read back from the queue first.
 */
import type { DatabaseSync } from 'node:sqlite';
import { COMPRESS_ABOVE_BYTES, decodeBody, encodeBody } from './body-codec.js';
import type { Transact } from './db.js';
import type { FactsStore, StoredFacts } from './types.js';
import type { WriteQueue } from './write-queue.js';

export function createFacts(db: DatabaseSync, transact: Transact, queue: WriteQueue): FactsStore {
  const select = db.prepare('SELECT value, fetched_at FROM facts_cache WHERE key = ?');
  const upsert = db.prepare(`
    INSERT INTO facts_cache (key, value, fetched_at, size) VALUES (?, ?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at, size = excluded.size`);
  const totals = db.prepare('SELECT count(*) AS entries, coalesce(sum(size), 0) AS bytes FROM facts_cache');
  const deleteAll = db.prepare('DELETE FROM facts_cache');

  const queued = new Map<string, StoredFacts>();
  queue.join({
    apply() {
      for (const [key, { value, fetchedAt }] of queued) {
        const stored = storedValue(value);
        upsert.run(key, stored, fetchedAt, typeof stored === 'string' ? Buffer.byteLength(stored) : stored.byteLength);
      }
    },
    settle() {
      queued.clear(); // written, or lost with a failed transaction: a cache may lose them
      return 0;
    },
  });

  return {
    get(key) {
      const pending = queued.get(key);
      if (pending !== undefined) return { ...pending };
      const row = select.get(key) as { value: unknown; fetched_at: unknown } | undefined;
      if (row === undefined || typeof row.fetched_at !== 'number') return undefined;
      const value = readValue(row.value);
      return value === undefined ? undefined : { value, fetchedAt: row.fetched_at };
    },
    put(key, value, fetchedAt) {
      queued.set(key, { value, fetchedAt });
      queue.queued(key.length + value.length);
    },
    stats() {
      queue.flush();
      return totals.get() as { entries: number; bytes: number };
    },
    clear() {
      queued.clear();
      transact(() => {
        deleteAll.run();
      });
    },
  };
}

/** The value as the row holds it: the text, or its gzip stream (a blob) when that is shorter. */
function storedValue(value: string): string | Uint8Array {
  if (value.length <= COMPRESS_ABOVE_BYTES / 4) return value; // at most 4 bytes a character: under the threshold
  const stored = encodeBody(Buffer.from(value, 'utf8'), COMPRESS_ABOVE_BYTES);
  return stored.encoding === 'gzip' ? stored.body : value;
}

/** The text a row holds; undefined (a miss) for a damaged compressed value or another type. */
function readValue(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (!(raw instanceof Uint8Array)) return undefined;
  return decodeBody(raw, 'gzip')?.toString('utf8');
}

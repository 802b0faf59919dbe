/**
 * The facts table: what sources derived from their answers (facts-cache.ts in src/sources is
 * the contract; stored-facts-cache.ts applies the run's mode over this table). One row per key,
 * the value as JSON text. Writes are queued (write-queue.ts) and read back from the queue first.
 */
import type { DatabaseSync } from 'node:sqlite';
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
      for (const [key, { value, fetchedAt }] of queued) upsert.run(key, value, fetchedAt, Buffer.byteLength(value));
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
      if (row === undefined || typeof row.value !== 'string' || typeof row.fetched_at !== 'number') return undefined;
      return { value: row.value, fetchedAt: row.fetched_at };
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

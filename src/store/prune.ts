/**
 * Bounds the store's cached data: HTTP answers and derived facts together, least recently
 * fetched first, until both tables hold at most `maxBytes` between them. History is never pruned.
 * What it drops is counted in the `meta` table (`cache stats` shows it; `cache clear` resets it).
 */
import type { DatabaseSync } from 'node:sqlite';

/** The meta key of the running eviction count. */
export const EVICTIONS_KEY = 'cache.evictions';

/** Rows and bytes dropped by pruning since the store was created or last cleared. */
export interface Evictions {
  entries: number;
  bytes: number;
}

/** The stored count, or zeros when there is none or it cannot be read. */
export function parseEvictions(json: string | undefined): Evictions {
  if (json !== undefined) {
    try {
      const v = JSON.parse(json) as Record<string, unknown> | null;
      if (v !== null && typeof v === 'object' && Number.isSafeInteger(v.entries) && Number.isSafeInteger(v.bytes)) {
        return { entries: Math.max(0, v.entries as number), bytes: Math.max(0, v.bytes as number) };
      }
    } catch {
      // an unreadable count starts again from zero
    }
  }
  return { entries: 0, bytes: 0 };
}

/** Returns the pruning step, to run inside a write transaction. */
export function pruner(db: DatabaseSync): (maxBytes: number) => void {
  // Rows in one order across both tables (newest first; ties by table, then key): the first row
  // whose running size passes the bound, and every row after it, goes.
  const firstOver = db.prepare(`
    SELECT fetched_at AS at, tbl, key FROM (
      SELECT fetched_at, tbl, key,
        sum(size) OVER (ORDER BY fetched_at DESC, tbl DESC, key DESC ROWS UNBOUNDED PRECEDING) AS running
      FROM (
        SELECT fetched_at, 'http' AS tbl, key, size FROM http_cache
        UNION ALL
        SELECT fetched_at, 'facts' AS tbl, key, size FROM facts_cache
      )
    ) WHERE running > ? ORDER BY fetched_at DESC, tbl DESC, key DESC LIMIT 1`);
  const dropped = db.prepare(`
    SELECT count(*) AS entries, coalesce(sum(size), 0) AS bytes FROM (
      SELECT size FROM http_cache WHERE (fetched_at, 'http', key) <= (?, ?, ?)
      UNION ALL
      SELECT size FROM facts_cache WHERE (fetched_at, 'facts', key) <= (?, ?, ?)
    )`);
  const dropHttp = db.prepare(`DELETE FROM http_cache WHERE (fetched_at, 'http', key) <= (?, ?, ?)`);
  const dropFacts = db.prepare(`DELETE FROM facts_cache WHERE (fetched_at, 'facts', key) <= (?, ?, ?)`);
  const selectCount = db.prepare('SELECT value FROM meta WHERE key = ?');
  const upsertCount = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return (maxBytes) => {
    const cut = firstOver.get(Math.max(0, maxBytes)) as { at: number; tbl: string; key: string } | undefined;
    if (cut === undefined) return;
    const gone = dropped.get(cut.at, cut.tbl, cut.key, cut.at, cut.tbl, cut.key) as { entries: number; bytes: number };
    dropHttp.run(cut.at, cut.tbl, cut.key);
    dropFacts.run(cut.at, cut.tbl, cut.key);
    const before = parseEvictions((selectCount.get(EVICTIONS_KEY) as { value: string } | undefined)?.value);
    upsertCount.run(EVICTIONS_KEY, JSON.stringify({ entries: before.entries + gone.entries, bytes: before.bytes + gone.bytes }));
  };
}

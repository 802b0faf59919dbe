/**
 * Bounds the store's cached data: HTTP answers and derived facts together, least recently
 * fetched first, until both tables hold at most `maxBytes` between them. History is never pruned.
 */
import type { DatabaseSync } from 'node:sqlite';

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
  const dropHttp = db.prepare(`DELETE FROM http_cache WHERE (fetched_at, 'http', key) <= (?, ?, ?)`);
  const dropFacts = db.prepare(`DELETE FROM facts_cache WHERE (fetched_at, 'facts', key) <= (?, ?, ?)`);
  return (maxBytes) => {
    const cut = firstOver.get(Math.max(0, maxBytes)) as { at: number; tbl: string; key: string } | undefined;
    if (cut === undefined) return;
    dropHttp.run(cut.at, cut.tbl, cut.key);
    dropFacts.run(cut.at, cut.tbl, cut.key);
  };
}

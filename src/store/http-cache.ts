/**
 * The HTTP cache table: one row per request key (method + URL + varying request parts),
 * the response body as a BLOB. Pruned least-recently-fetched first to a byte bound.
 * The last run's hit/miss counters live in the `meta` table as JSON.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Transact } from './db.js';
import type { CachedResponse, CacheStats, HttpCacheStore } from './types.js';

const LAST_RUN_KEY = 'cache.lastRun';

interface CacheRow {
  key: string;
  url: string;
  status: number;
  headers: string;
  body: Uint8Array;
  etag: string | null;
  last_modified: string | null;
  fetched_at: number;
}

function parseHeaders(json: string): Record<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const headers: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) if (typeof v === 'string') headers[name] = v;
    return headers;
  } catch {
    return undefined;
  }
}

function parseLastRun(json: string | undefined): CacheStats['lastRun'] {
  if (json === undefined) return null;
  try {
    const v = JSON.parse(json) as Record<string, unknown> | null;
    if (
      v !== null &&
      typeof v === 'object' &&
      typeof v.hits === 'number' &&
      typeof v.misses === 'number' &&
      typeof v.revalidated === 'number' &&
      typeof v.at === 'string'
    ) {
      return { hits: v.hits, misses: v.misses, revalidated: v.revalidated, at: v.at };
    }
  } catch {
    // an unreadable record counts as no record
  }
  return null;
}

/** The HttpCacheStore over an open, migrated database. Statements are prepared here, once. */
export function createHttpCache(db: DatabaseSync, transact: Transact): HttpCacheStore {
  const select = db.prepare(
    'SELECT key, url, status, headers, body, etag, last_modified, fetched_at FROM http_cache WHERE key = ?',
  );
  const upsert = db.prepare(`
    INSERT INTO http_cache (key, url, status, headers, body, etag, last_modified, fetched_at, size)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET
      url = excluded.url, status = excluded.status, headers = excluded.headers, body = excluded.body,
      etag = excluded.etag, last_modified = excluded.last_modified,
      fetched_at = excluded.fetched_at, size = excluded.size`);
  const touchTime = db.prepare('UPDATE http_cache SET fetched_at = ? WHERE key = ?');
  const touchEtag = db.prepare('UPDATE http_cache SET etag = ? WHERE key = ?');
  const touchLastModified = db.prepare('UPDATE http_cache SET last_modified = ? WHERE key = ?');
  const totals = db.prepare('SELECT count(*) AS entries, coalesce(sum(size), 0) AS bytes FROM http_cache');
  const selectMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const upsertMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const deleteAll = db.prepare('DELETE FROM http_cache');
  const deleteMeta = db.prepare('DELETE FROM meta WHERE key = ?');
  // Keep the newest prefix (by fetched_at) whose running size stays within the bound.
  const pruneOver = db.prepare(`
    DELETE FROM http_cache WHERE key IN (
      SELECT key FROM (
        SELECT key, sum(size) OVER (ORDER BY fetched_at DESC, key DESC ROWS UNBOUNDED PRECEDING) AS running
        FROM http_cache
      ) WHERE running > ?
    )`);

  return {
    get(key) {
      const row = select.get(key) as CacheRow | undefined;
      if (!row) return undefined;
      const headers = parseHeaders(row.headers);
      if (!headers) return undefined;
      const entry: CachedResponse = {
        key: row.key,
        url: row.url,
        status: row.status,
        headers,
        body: Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength),
        etag: row.etag,
        lastModified: row.last_modified,
        fetchedAt: row.fetched_at,
      };
      return entry;
    },
    put(entry) {
      transact(() => {
        upsert.run(
          entry.key,
          entry.url,
          entry.status,
          JSON.stringify(entry.headers),
          entry.body,
          entry.etag,
          entry.lastModified,
          entry.fetchedAt,
          entry.body.byteLength,
        );
      });
    },
    touch(key, fetchedAt, validators) {
      transact(() => {
        touchTime.run(fetchedAt, key);
        if (validators?.etag !== undefined) touchEtag.run(validators.etag, key);
        if (validators?.lastModified !== undefined) touchLastModified.run(validators.lastModified, key);
      });
    },
    stats() {
      const t = totals.get() as { entries: number; bytes: number };
      const meta = selectMeta.get(LAST_RUN_KEY) as { value: string } | undefined;
      return { entries: t.entries, bytes: t.bytes, lastRun: parseLastRun(meta?.value) };
    },
    recordRun(run) {
      const value = JSON.stringify({ hits: run.hits, misses: run.misses, revalidated: run.revalidated, at: run.at });
      transact(() => {
        upsertMeta.run(LAST_RUN_KEY, value);
      });
    },
    clear() {
      transact(() => {
        deleteAll.run();
        deleteMeta.run(LAST_RUN_KEY);
      });
    },
    prune(maxBytes) {
      transact(() => {
        pruneOver.run(Math.max(0, maxBytes));
      });
    },
  };
}

/**
 * The HTTP cache table: one row per request key (method + URL + varying request parts),
 * the response body as a BLOB. Pruned least-recently-fetched first to a byte bound (with the
 * facts, see prune.ts). The last run's hit/miss counters live in the `meta` table as JSON.
 *
 * Puts, touches and the run record are queued (write-queue.ts) and coalesced per key; `get`
 * answers from the queue first, so a run reads its own writes.
 *
 * Large bodies are stored compressed (body-codec.ts; the `encoding` column), and `size` counts
 * the stored bytes, so pruning bounds the disk the cache takes.
 */
import type { DatabaseSync } from 'node:sqlite';
import { COMPRESS_ABOVE_BYTES, decodeBody, encodeBody, type StoredBody } from './body-codec.js';
import type { Transact } from './db.js';
import type { CachedResponse, CacheStats, HttpCacheStore } from './types.js';
import { EVICTIONS_KEY, parseEvictions } from './prune.js';
import type { WriteQueue } from './write-queue.js';

const LAST_RUN_KEY = 'cache.lastRun';

interface CacheRow {
  key: string;
  url: string;
  status: number;
  headers: string;
  body: Uint8Array;
  encoding: string | null;
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

/** A queued write for one key: a whole entry, or a 304's refresh of a stored one. */
type Queued =
  | { kind: 'put'; entry: CachedResponse; stored: StoredBody }
  | { kind: 'touch'; fetchedAt: number; etag?: string | null; lastModified?: string | null };

/** What a queued touch costs to write, roughly (it only decides when to flush). */
const TOUCH_BYTES = 128;

/**
 * The HttpCacheStore over an open, migrated database. Statements are prepared here, once.
 * `prune` is the store's (it bounds the cached answers and the facts together).
 */
export function createHttpCache(
  db: DatabaseSync,
  transact: Transact,
  queue: WriteQueue,
  prune: (maxBytes: number) => void,
  compressAbove: number = COMPRESS_ABOVE_BYTES,
): HttpCacheStore {
  const select = db.prepare(
    'SELECT key, url, status, headers, body, encoding, etag, last_modified, fetched_at FROM http_cache WHERE key = ?',
  );
  const upsert = db.prepare(`
    INSERT INTO http_cache (key, url, status, headers, body, encoding, etag, last_modified, fetched_at, size)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET
      url = excluded.url, status = excluded.status, headers = excluded.headers, body = excluded.body,
      encoding = excluded.encoding, etag = excluded.etag, last_modified = excluded.last_modified,
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

  const queued = new Map<string, Queued>();
  let queuedRun: string | undefined;

  queue.join({
    apply() {
      for (const [key, write] of queued) {
        if (write.kind === 'put') {
          const { entry, stored } = write;
          upsert.run(
            key,
            entry.url,
            entry.status,
            JSON.stringify(entry.headers),
            stored.body,
            stored.encoding,
            entry.etag,
            entry.lastModified,
            entry.fetchedAt,
            stored.body.byteLength,
          );
        } else {
          touchTime.run(write.fetchedAt, key);
          if (write.etag !== undefined) touchEtag.run(write.etag, key);
          if (write.lastModified !== undefined) touchLastModified.run(write.lastModified, key);
        }
      }
      if (queuedRun !== undefined) upsertMeta.run(LAST_RUN_KEY, queuedRun);
    },
    settle() {
      // Written, or lost with the failed transaction: either way nothing is retried.
      queued.clear();
      queuedRun = undefined;
      return 0;
    },
  });

  const stored = (key: string, maxBytes: number | undefined): CachedResponse | undefined => {
    const row = select.get(key) as CacheRow | undefined;
    if (!row) return undefined;
    const headers = parseHeaders(row.headers);
    if (!headers) return undefined;
    const body = decodeBody(row.body, row.encoding, maxBytes);
    if (body === undefined) return undefined;
    return {
      key: row.key,
      url: row.url,
      status: row.status,
      headers,
      body,
      etag: row.etag,
      lastModified: row.last_modified,
      fetchedAt: row.fetched_at,
    };
  };

  return {
    get(key, options) {
      const write = queued.get(key);
      if (write?.kind === 'put') return { ...write.entry };
      const entry = stored(key, options?.maxBytes);
      if (entry === undefined || write === undefined) return entry;
      return {
        ...entry,
        fetchedAt: write.fetchedAt,
        ...(write.etag === undefined ? {} : { etag: write.etag }),
        ...(write.lastModified === undefined ? {} : { lastModified: write.lastModified }),
      };
    },
    put(entry) {
      // Encoded now rather than in the flush: the flush's write lock is held for less time, and
      // the queue's byte count is what will be written.
      const { wireGzip, ...kept } = entry;
      const body = encodeBody(entry.body, compressAbove, wireGzip);
      queued.set(entry.key, { kind: 'put', entry: kept, stored: body });
      queue.queued(body.body.byteLength + entry.key.length + entry.url.length);
    },
    touch(key, fetchedAt, validators) {
      const before = queued.get(key);
      // Later validators win; a validator the 304 did not carry keeps the earlier queued one.
      const base = before?.kind === 'put' ? before.entry : before;
      const etag = validators?.etag !== undefined ? validators.etag : base?.etag;
      const lastModified = validators?.lastModified !== undefined ? validators.lastModified : base?.lastModified;
      if (before?.kind === 'put') {
        queued.set(key, {
          kind: 'put',
          entry: { ...before.entry, fetchedAt, etag: etag ?? null, lastModified: lastModified ?? null },
          stored: before.stored,
        });
      } else {
        const touch: Queued = { kind: 'touch', fetchedAt };
        if (etag !== undefined) touch.etag = etag;
        if (lastModified !== undefined) touch.lastModified = lastModified;
        queued.set(key, touch);
      }
      queue.queued(TOUCH_BYTES);
    },
    stats() {
      queue.flush();
      const t = totals.get() as { entries: number; bytes: number };
      const meta = selectMeta.get(LAST_RUN_KEY) as { value: string } | undefined;
      const evicted = selectMeta.get(EVICTIONS_KEY) as { value: string } | undefined;
      return { entries: t.entries, bytes: t.bytes, lastRun: parseLastRun(meta?.value), evicted: parseEvictions(evicted?.value) };
    },
    recordRun(run) {
      queuedRun = JSON.stringify({ hits: run.hits, misses: run.misses, revalidated: run.revalidated, at: run.at });
      queue.queued(queuedRun.length);
    },
    clear() {
      queued.clear();
      queuedRun = undefined;
      transact(() => {
        deleteAll.run();
        deleteMeta.run(LAST_RUN_KEY);
        deleteMeta.run(EVICTIONS_KEY);
      });
    },
    prune,
  };
}

/**
 * The local store's contracts (README, "The local store"): an HTTP cache that revalidates, trust-score history,
 * and derived facts. One SQLite database (node:sqlite) in the user's cache directory.
 * Writes are grouped (write-queue.ts): they reach the database at the next flush, and reads
 * see them before that.
 */

/** One cached HTTP response. Never holds a credential: `key` carries only its hash. */
export interface CachedResponse {
  /** method + URL + the request parts that vary (accept, body hash, credential hash). */
  key: string;
  url: string;
  status: number;
  /** Response headers worth keeping (content-type, etag, last-modified, …): never set-cookie. */
  headers: Record<string, string>;
  body: Buffer;
  /** On `put` only: the gzip stream the body came in, stored as it is (body-codec.ts). */
  wireGzip?: Buffer;
  etag: string | null;
  lastModified: string | null;
  /** When it was fetched or last revalidated (epoch ms). */
  fetchedAt: number;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  /** Hits and misses of the last run that used the cache (null before any run). */
  lastRun: { hits: number; misses: number; revalidated: number; at: string } | null;
  /** Cached answers and facts dropped to keep the store within its cap, since it was created or last cleared. */
  evicted: { entries: number; bytes: number };
}

export interface HttpCacheStore {
  /**
   * The entry, or undefined. A stored compressed body is inflated to at most `maxBytes` (default
   * and ceiling 64 MiB, body-codec.ts): one that would pass it is a miss, never a throw.
   */
  get(key: string, options?: { maxBytes?: number }): CachedResponse | undefined;
  put(entry: CachedResponse): void;
  /** A 304 refreshed it: new fetchedAt (and validators if the 304 carried new ones). */
  touch(key: string, fetchedAt: number, validators?: { etag?: string | null; lastModified?: string | null }): void;
  stats(): CacheStats;
  recordRun(run: { hits: number; misses: number; revalidated: number; at: string }): void;
  clear(): void;
  /** The store's prune (Store.prune): cached answers and facts together, to at most `maxBytes`. */
  prune(maxBytes: number): void;
}

/** One row of the facts table: JSON text and when it was derived (epoch ms). */
export interface StoredFacts {
  value: string;
  fetchedAt: number;
}

/** The facts table, raw: no freshness, no mode, no version (stored-facts-cache.ts adds them). */
export interface FactsStore {
  get(key: string): StoredFacts | undefined;
  put(key: string, value: string, fetchedAt: number): void;
  stats(): { entries: number; bytes: number };
  clear(): void;
}

/** One completed evaluation. */
export interface HistoryRow {
  /** `<ecosystem>:<name>` — the same target across versions. */
  target: string;
  ecosystem: string;
  name: string;
  version: string | null;
  score: number | null;
  grade: string | null;
  verdict: string;
  coverage: number;
  dimensions: Record<string, number | null>;
  checks: Record<string, number | null>;
  /** sha256 of the evidence JSON. */
  evidenceHash: string;
  evaluatedAt: string;
  toolVersion: string;
}

export interface HistoryStore {
  record(row: HistoryRow): void;
  /** Most recent first. */
  list(target: string, limit?: number): HistoryRow[];
  /** The latest row for the target evaluated strictly before `before` (ISO), if any. */
  previous(target: string, before: string): HistoryRow | undefined;
}

export interface Store {
  readonly file: string;
  readonly cache: HttpCacheStore;
  readonly history: HistoryStore;
  readonly facts: FactsStore;
  /** Write every queued write now, in one transaction; throws if the database refuses them. */
  flush(): void;
  /**
   * Flush, then drop the least recently fetched cached answers and facts until the two hold
   * at most `maxBytes` together. History is kept.
   */
  prune(maxBytes: number): void;
  /** Flush, then give the space of deleted rows back to the file system (VACUUM): after a clear the file shrinks. */
  compact(): void;
  /** Flush and close. The handle is closed even when the flush throws (it rethrows after). */
  close(): void;
}

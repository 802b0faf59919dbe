/**
 * The local store's contracts (issue 6): an HTTP cache that revalidates, and trust-score
 * history. One SQLite database (node:sqlite) in the user's cache directory.
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
}

export interface HttpCacheStore {
  get(key: string): CachedResponse | undefined;
  put(entry: CachedResponse): void;
  /** A 304 refreshed it: new fetchedAt (and validators if the 304 carried new ones). */
  touch(key: string, fetchedAt: number, validators?: { etag?: string | null; lastModified?: string | null }): void;
  stats(): CacheStats;
  recordRun(run: { hits: number; misses: number; revalidated: number; at: string }): void;
  clear(): void;
  /** Drop the least recently fetched entries until the cache holds at most `maxBytes`. */
  prune(maxBytes: number): void;
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
  close(): void;
}

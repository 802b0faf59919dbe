/**
 * An in-memory HttpCacheStore for the caching client's tests: the contract of
 * src/store/types.ts without SQLite. Copies bodies in and out, as a real store would.
 */
import type { CachedResponse, CacheStats, HttpCacheStore } from '../../src/store/types.js';

export class MemoryCache implements HttpCacheStore {
  readonly entries = new Map<string, CachedResponse>();
  #lastRun: CacheStats['lastRun'] = null;
  #evicted: CacheStats['evicted'] = { entries: 0, bytes: 0 };

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    return entry === undefined ? undefined : { ...entry, headers: { ...entry.headers }, body: Buffer.from(entry.body) };
  }

  put(entry: CachedResponse): void {
    this.entries.set(entry.key, { ...entry, headers: { ...entry.headers }, body: Buffer.from(entry.body) });
  }

  touch(key: string, fetchedAt: number, validators?: { etag?: string | null; lastModified?: string | null }): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    entry.fetchedAt = fetchedAt;
    if (validators?.etag !== undefined) entry.etag = validators.etag;
    if (validators?.lastModified !== undefined) entry.lastModified = validators.lastModified;
  }

  stats(): CacheStats {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += entry.body.length;
    return { entries: this.entries.size, bytes, lastRun: this.#lastRun, evicted: { ...this.#evicted } };
  }

  recordRun(run: { hits: number; misses: number; revalidated: number; at: string }): void {
    this.#lastRun = { ...run };
  }

  clear(): void {
    this.entries.clear();
    this.#evicted = { entries: 0, bytes: 0 };
  }

  prune(maxBytes: number): void {
    const oldestFirst = [...this.entries.values()].sort((a, b) => a.fetchedAt - b.fetchedAt);
    let bytes = this.stats().bytes;
    for (const entry of oldestFirst) {
      if (bytes <= maxBytes) break;
      this.entries.delete(entry.key);
      bytes -= entry.body.length;
      this.#evicted.entries += 1;
      this.#evicted.bytes += entry.body.length;
    }
  }

  /** Everything stored, as text: keys, URLs, headers, validators (for "never stored" checks). */
  dump(): string {
    return JSON.stringify([...this.entries.values()].map((entry) => ({ ...entry, body: entry.body.toString('utf8') })));
  }
}

/**
 * The facts cache over the store: versioned keys, the run's cache mode, --max-age,
 * freshness 0, a failing store, pruning with the HTTP cache, and the v1 → v2 migration.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { CacheMode } from '../../src/sources/http/cached.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/db.js';
import { openStore } from '../../src/store/open-store.js';
import { createStoredFactsCache, versionedKey } from '../../src/store/stored-facts-cache.js';
import type { FactsStore, Store, StoredFacts } from '../../src/store/types.js';
import { tempDir } from './temp-dir.js';

const MINUTE = 60_000;
const VERSION = '1.2.3';

/** An in-memory FactsStore (the table's contract without SQLite). */
function memoryTable(): FactsStore & { rows: Map<string, StoredFacts> } {
  const rows = new Map<string, StoredFacts>();
  return {
    rows,
    get: (key) => rows.get(key),
    put: (key, value, fetchedAt) => void rows.set(key, { value, fetchedAt }),
    stats: () => ({ entries: rows.size, bytes: 0 }),
    clear: () => rows.clear(),
  };
}

function cacheOver(store: FactsStore | null, mode: CacheMode, clock: { now: number }, extra: { maxAgeMs?: number; version?: string } = {}) {
  return createStoredFactsCache({ store, mode, version: extra.version ?? VERSION, now: () => clock.now, ...(extra.maxAgeMs === undefined ? {} : { maxAgeMs: extra.maxAgeMs }) });
}

const FACTS = { version: '4.1.0', facts: { license: 'MIT', maintainers: 2, deprecated: null } };

describe('createStoredFactsCache', () => {
  it('stores JSON under a key prefixed with the version, and reads it back while fresh', () => {
    const table = memoryTable();
    const clock = { now: 1_000_000 };
    const cache = cacheOver(table, 'normal', clock);
    cache.put('npm:registry|chalk|^4', FACTS);
    expect([...table.rows.keys()]).toEqual([versionedKey(VERSION, 'npm:registry|chalk|^4')]);
    expect([...table.rows.keys()][0]!.startsWith(`${VERSION} `)).toBe(true);
    expect(table.rows.get(versionedKey(VERSION, 'npm:registry|chalk|^4'))).toEqual({ value: JSON.stringify(FACTS), fetchedAt: 1_000_000 });

    expect(cache.get('npm:registry|chalk|^4', 5 * MINUTE)).toEqual(FACTS);
    clock.now += 5 * MINUTE - 1;
    expect(cache.get('npm:registry|chalk|^4', 5 * MINUTE)).toEqual(FACTS);
    clock.now += 1;
    expect(cache.get('npm:registry|chalk|^4', 5 * MINUTE), 'stale at exactly the freshness, like cached-http').toBeUndefined();
    expect(cache.get('npm:registry|chalk|^4', 10 * MINUTE)).toEqual(FACTS);
    expect(cache.get('other', 10 * MINUTE)).toBeUndefined();
  });

  it('never reads facts another nerq version stored', () => {
    const table = memoryTable();
    const clock = { now: 0 };
    cacheOver(table, 'normal', clock, { version: '0.9.0' }).put('k', FACTS);
    expect(cacheOver(table, 'normal', clock).get('k', MINUTE)).toBeUndefined();
    expect(cacheOver(table, 'offline', clock).get('k', MINUTE)).toBeUndefined();
    expect(cacheOver(table, 'normal', clock, { version: '0.9.0' }).get('k', MINUTE)).toEqual(FACTS);
  });

  it.each<CacheMode>(['normal', 'no-cache', 'offline'])('freshness 0 never reads (%s)', (mode) => {
    const table = memoryTable();
    const clock = { now: 0 };
    cacheOver(table, 'normal', clock).put('k', FACTS);
    const cache = cacheOver(table, mode, clock);
    expect(cache.get('k', 0)).toBeUndefined();
    expect(cache.get('k', -5)).toBeUndefined();
    expect(cache.get('k', Number.NaN)).toBeUndefined();
  });

  it('no-cache never reads, and still writes', () => {
    const table = memoryTable();
    const clock = { now: 0 };
    cacheOver(table, 'normal', clock).put('k', { old: true });
    const noCache = cacheOver(table, 'no-cache', clock);
    expect(noCache.get('k', MINUTE)).toBeUndefined();
    noCache.put('k', { fresh: true });
    expect(cacheOver(table, 'normal', clock).get('k', MINUTE)).toEqual({ fresh: true });
  });

  it('offline reads whatever is there however old, and never writes', () => {
    const table = memoryTable();
    const clock = { now: 0 };
    cacheOver(table, 'normal', clock).put('k', FACTS);
    clock.now = 365 * 24 * 60 * MINUTE;
    const offline = cacheOver(table, 'offline', clock, { maxAgeMs: 0 });
    expect(offline.get('k', MINUTE)).toEqual(FACTS);
    offline.put('k', { derived: 'offline' });
    offline.put('new', { derived: 'offline' });
    expect(table.rows.get(versionedKey(VERSION, 'k'))?.fetchedAt).toBe(0);
    expect(table.rows.has(versionedKey(VERSION, 'new'))).toBe(false);
  });

  it('--max-age replaces every non-zero freshness', () => {
    const table = memoryTable();
    const clock = { now: 0 };
    cacheOver(table, 'normal', clock).put('k', FACTS);
    clock.now = 10 * MINUTE;
    expect(cacheOver(table, 'normal', clock).get('k', 5 * MINUTE)).toBeUndefined();
    expect(cacheOver(table, 'normal', clock, { maxAgeMs: 60 * MINUTE }).get('k', 5 * MINUTE)).toEqual(FACTS);
    expect(cacheOver(table, 'normal', clock, { maxAgeMs: 9 * MINUTE }).get('k', 60 * MINUTE)).toBeUndefined();
    expect(cacheOver(table, 'normal', clock, { maxAgeMs: 0 }).get('k', 60 * MINUTE), '--max-age 0: always stale').toBeUndefined();
    expect(cacheOver(table, 'normal', clock, { maxAgeMs: 60 * MINUTE }).get('k', 0), 'never makes freshness 0 cacheable').toBeUndefined();
  });

  it('no store: every lookup misses and puts are ignored', () => {
    const cache = cacheOver(null, 'normal', { now: 0 });
    cache.put('k', FACTS);
    expect(cache.get('k', MINUTE)).toBeUndefined();
  });

  it('a failing store is treated as empty, and unreadable or unserialisable values never throw', () => {
    const broken: FactsStore = {
      get: () => {
        throw new Error('SQLITE_BUSY');
      },
      put: () => {
        throw new Error('SQLITE_FULL');
      },
      stats: () => ({ entries: 0, bytes: 0 }),
      clear: () => undefined,
    };
    const cache = cacheOver(broken, 'normal', { now: 0 });
    expect(cache.get('k', MINUTE)).toBeUndefined();
    expect(() => cache.put('k', FACTS)).not.toThrow();

    const table = memoryTable();
    table.rows.set(versionedKey(VERSION, 'garbled'), { value: '{not json', fetchedAt: 0 });
    const ok = cacheOver(table, 'normal', { now: 0 });
    expect(ok.get('garbled', MINUTE)).toBeUndefined();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => ok.put('circular', circular)).not.toThrow();
    expect(() => ok.put('big', 10n)).not.toThrow();
    ok.put('nothing', undefined);
    expect(table.rows.size).toBe(1);
  });

  it('over the real store: read before the write is flushed, and after a reopen', () => {
    const dir = tempDir();
    const open = (): Store => openStore({ dir, warn: (m) => expect.fail(m), flush: { delayMs: 3_600_000 } })!;
    const clock = { now: Date.now() };
    const store = open();
    const cache = cacheOver(store.facts, 'normal', clock);
    cache.put('k', FACTS);
    expect(cache.get('k', MINUTE)).toEqual(FACTS);
    store.close();

    const again = open();
    expect(cacheOver(again.facts, 'normal', clock).get('k', MINUTE)).toEqual(FACTS);
    expect(again.facts.stats()).toEqual({ entries: 1, bytes: Buffer.byteLength(JSON.stringify(FACTS)) });
    again.close();
  });
});

describe('the facts table in the store', () => {
  it('prune bounds cached answers and facts together, least recently fetched first', () => {
    const store = openStore({ dir: tempDir(), warn: (m) => expect.fail(m) })!;
    const answer = (key: string, fetchedAt: number, size: number) =>
      store.cache.put({ key, url: `https://example.test/${key}`, status: 200, headers: {}, body: Buffer.alloc(size), etag: null, lastModified: null, fetchedAt });
    answer('h1', 100, 40);
    store.facts.put('f2', 'x'.repeat(30), 200);
    answer('h3', 300, 20);
    store.facts.put('f4', 'x'.repeat(10), 400);

    store.prune(1000);
    expect([store.cache.stats().entries, store.facts.stats().entries]).toEqual([2, 2]);
    expect(store.cache.stats().evicted).toEqual({ entries: 0, bytes: 0 });
    store.prune(60); // f4 10 + h3 20 + f2 30 = 60: h1 goes
    expect(store.cache.stats().evicted).toEqual({ entries: 1, bytes: 40 });
    expect(store.cache.get('h1')).toBeUndefined();
    expect(store.cache.get('h3')).toBeDefined();
    expect(store.facts.get('f2')).toBeDefined();
    store.prune(59); // f2 goes too
    expect(store.facts.get('f2')).toBeUndefined();
    expect(store.cache.get('h3')).toBeDefined();
    expect(store.facts.get('f4')).toBeDefined();
    store.prune(10); // only f4 fits
    expect([store.cache.stats().entries, store.facts.stats()]).toEqual([0, { entries: 1, bytes: 10 }]);
    // Counted across prunes, answers and facts alike: h1 40, f2 30, h3 20.
    expect(store.cache.stats().evicted).toEqual({ entries: 3, bytes: 90 });
    // The HTTP cache's own prune is the same, store-wide one.
    store.cache.prune(0);
    expect(store.facts.stats().entries).toBe(0);
    store.close();
  });

  it('migrates a version-1 store: its answers and history stay, the facts table appears', () => {
    const dir = tempDir();
    const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'));
    db.exec(MIGRATIONS[0]!);
    db.exec('PRAGMA user_version=1');
    db.prepare(
      "INSERT INTO http_cache (key, url, status, headers, body, etag, last_modified, fetched_at, size) VALUES ('k', 'https://example.test/k', 200, '{}', x'6f6b', NULL, NULL, 5, 2)",
    ).run();
    db.close();

    const store = openStore({ dir, warn: (m) => expect.fail(m) })!;
    expect(store.cache.get('k')?.body.toString()).toBe('ok');
    store.facts.put('f', '1', 6);
    expect(store.facts.get('f')).toEqual({ value: '1', fetchedAt: 6 });
    store.close();

    const check = new DatabaseSync(path.join(dir, 'nerq.sqlite'), { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2); // migrated through every later migration too
    expect(check.prepare('SELECT key, value, fetched_at, size FROM facts_cache').all()).toEqual([{ key: 'f', value: '1', fetched_at: 6, size: 1 }]);
    check.close();
  });
});

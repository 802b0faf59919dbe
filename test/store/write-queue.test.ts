/**
 * Grouped writes: the queue's flush rules with a counting transaction, then the
 * tables' read-your-writes and failure rules on a real database.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, transactor, type Transact } from '../../src/store/db.js';
import { createHistory } from '../../src/store/history.js';
import { openStore } from '../../src/store/open-store.js';
import type { CachedResponse, HistoryRow, Store } from '../../src/store/types.js';
import { createWriteQueue, type QueuedTable } from '../../src/store/write-queue.js';
import { tempDir } from './temp-dir.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A transaction runner that counts transactions and can be told to fail. */
function counting(): { transact: Transact; count: () => number; failNext: () => void } {
  let n = 0;
  let fail = false;
  const transact: Transact = <T>(fn: () => T): T => {
    n += 1;
    const result = fn();
    if (fail) {
      fail = false;
      throw new Error('SQLITE_BUSY: database is locked');
    }
    return result;
  };
  return { transact, count: () => n, failNext: () => (fail = true) };
}

/** A table that records what was applied and keeps (or drops) its writes on failure. */
function table(keepOnFailure: boolean): QueuedTable & { queued: string[]; applied: string[][]; add(w: string): void } {
  const t = {
    queued: [] as string[],
    applied: [] as string[][],
    add(w: string) {
      t.queued.push(w);
    },
    apply() {
      t.applied.push([...t.queued]);
    },
    settle(committed: boolean) {
      if (committed || !keepOnFailure) t.queued = [];
      return t.queued.length;
    },
  };
  return t;
}

describe('createWriteQueue', () => {
  it('applies many writes in one transaction when the timer fires', () => {
    vi.useFakeTimers();
    const { transact, count } = counting();
    const queue = createWriteQueue(transact, { maxBytes: 1000, delayMs: 100 });
    const t = table(false);
    queue.join(t);
    for (const w of ['a', 'b', 'c']) {
      t.add(w);
      queue.queued(10);
    }
    expect(count()).toBe(0);
    vi.advanceTimersByTime(99);
    expect(count()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(count()).toBe(1);
    expect(t.applied).toEqual([['a', 'b', 'c']]);
  });

  it('flushes at once when more than maxBytes are queued', () => {
    vi.useFakeTimers();
    const { transact, count } = counting();
    const queue = createWriteQueue(transact, { maxBytes: 100, delayMs: 100 });
    const t = table(false);
    queue.join(t);
    t.add('small');
    queue.queued(60);
    expect(count()).toBe(0);
    t.add('big');
    queue.queued(60);
    expect(count()).toBe(1);
    expect(t.applied).toEqual([['small', 'big']]);
    // The timer set by the first write was cancelled by the flush: nothing more to write.
    vi.advanceTimersByTime(1000);
    expect(count()).toBe(1);
  });

  it('flush with nothing queued starts no transaction; flush(also) runs also inside one', () => {
    const { transact, count } = counting();
    const queue = createWriteQueue(transact);
    queue.join(table(false));
    queue.flush();
    expect(count()).toBe(0);
    const also = vi.fn();
    queue.flush(also);
    expect(count()).toBe(1);
    expect(also).toHaveBeenCalledTimes(1);
  });

  it('an explicit flush throws the failure; a timer flush swallows it; kept writes go with the next flush', () => {
    vi.useFakeTimers();
    const { transact, count, failNext } = counting();
    const queue = createWriteQueue(transact, { delayMs: 10 });
    const kept = table(true);
    const dropped = table(false);
    queue.join(kept);
    queue.join(dropped);
    kept.add('row');
    dropped.add('answer');
    queue.queued(10);

    failNext();
    expect(() => vi.advanceTimersByTime(10)).not.toThrow();
    expect(count()).toBe(1);
    expect(kept.queued).toEqual(['row']);
    expect(dropped.queued).toEqual([]);

    failNext();
    expect(() => queue.flush()).toThrow(/SQLITE_BUSY/);
    expect(kept.queued).toEqual(['row']);

    queue.flush();
    expect(count()).toBe(3);
    expect(kept.queued).toEqual([]);
    expect(kept.applied.at(-1)).toEqual(['row']);
  });

  it('the timer does not keep the process alive', () => {
    const { transact } = counting();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const queue = createWriteQueue(transact, { delayMs: 50 });
    queue.join(table(false));
    queue.queued(1);
    const timer = spy.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    queue.dispose();
    spy.mockRestore();
  });
});

function entry(key: string, fetchedAt: number, body = 'body'): CachedResponse {
  return {
    key,
    url: `https://example.test/${key}`,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(body),
    etag: '"e1"',
    lastModified: null,
    fetchedAt,
  };
}

function historyRow(version: string, evaluatedAt: string): HistoryRow {
  return {
    target: 'npm:chalk',
    ecosystem: 'npm',
    name: 'chalk',
    version,
    score: 80,
    grade: 'B',
    verdict: 'YES',
    coverage: 1,
    dimensions: { maintenance: 80 },
    checks: { 'has-license': 100 },
    evidenceHash: 'h',
    evaluatedAt,
    toolVersion: '0.1.0',
  };
}

/** A store whose timer never fires during the test (flushes happen on close or by size). */
function openQuiet(dir: string, maxBytes = 1 << 30): Store {
  const store = openStore({ dir, warn: (m) => expect.fail(m), flush: { delayMs: 3_600_000, maxBytes } });
  if (store === null) throw new Error('store did not open');
  return store;
}

/** Rows another connection sees (what is committed). */
function committed(dir: string, sql: string): unknown[] {
  const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'), { readOnly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('grouped writes in the store', () => {
  it('a queued put is read back before it is written, and written on close', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.cache.put(entry('k', 100, 'hello'));
    expect(store.cache.get('k')?.body.toString()).toBe('hello');
    expect(committed(dir, 'SELECT key FROM http_cache')).toEqual([]);
    store.close();
    expect(committed(dir, 'SELECT key, fetched_at FROM http_cache')).toEqual([{ key: 'k', fetched_at: 100 }]);
  });

  it('many puts reach the database together, by size', () => {
    const dir = tempDir();
    const store = openQuiet(dir, 1200); // each put counts ~125 bytes (body, key and URL)
    for (let i = 0; i < 9; i++) store.cache.put(entry(`k${i}`, i, 'x'.repeat(100)));
    expect(committed(dir, 'SELECT count(*) AS n FROM http_cache')).toEqual([{ n: 0 }]);
    store.cache.put(entry('k9', 9, 'x'.repeat(100)));
    expect(committed(dir, 'SELECT count(*) AS n FROM http_cache')).toEqual([{ n: 10 }]);
    store.close();
  });

  it('a flush happens shortly after a write without any further call', async () => {
    const dir = tempDir();
    const store = openStore({ dir, warn: (m) => expect.fail(m), flush: { delayMs: 5 } })!;
    store.cache.put(entry('k', 1));
    await vi.waitFor(() => expect(committed(dir, 'SELECT key FROM http_cache')).toEqual([{ key: 'k' }]), { timeout: 5000 });
    store.close();
  });

  it('touch applies to a queued put and to a stored row, and get sees both', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.cache.put(entry('queued', 100));
    store.cache.touch('queued', 200, { etag: '"e2"' });
    expect(store.cache.get('queued')).toMatchObject({ fetchedAt: 200, etag: '"e2"', lastModified: null });

    store.cache.put(entry('stored', 100));
    store.flush();
    store.cache.touch('stored', 300, { lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' });
    store.cache.touch('stored', 400);
    expect(store.cache.get('stored')).toMatchObject({ fetchedAt: 400, etag: '"e1"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' });
    expect(committed(dir, "SELECT fetched_at FROM http_cache WHERE key = 'stored'")).toEqual([{ fetched_at: 100 }]);
    store.close();

    const again = openQuiet(dir);
    expect(again.cache.get('queued')).toMatchObject({ fetchedAt: 200, etag: '"e2"' });
    expect(again.cache.get('stored')).toMatchObject({ fetchedAt: 400, etag: '"e1"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' });
    again.close();
  });

  it('a later put replaces a queued one; a touch of an absent key creates nothing', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.cache.put(entry('k', 1, 'old'));
    store.cache.put(entry('k', 2, 'new'));
    store.cache.touch('absent', 5);
    expect(store.cache.get('k')?.body.toString()).toBe('new');
    expect(store.cache.get('absent')).toBeUndefined();
    store.close();
    expect(committed(dir, 'SELECT key, fetched_at FROM http_cache')).toEqual([{ key: 'k', fetched_at: 2 }]);
  });

  it('clear drops queued answers and facts too', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.cache.put(entry('k', 1));
    store.facts.put('f', '{}', 1);
    store.cache.clear();
    store.facts.clear();
    expect(store.cache.get('k')).toBeUndefined();
    expect(store.facts.get('f')).toBeUndefined();
    store.close();
    expect(committed(dir, 'SELECT key FROM http_cache UNION ALL SELECT key FROM facts_cache')).toEqual([]);
  });

  it('stats count queued writes (they are flushed first)', () => {
    const store = openQuiet(tempDir());
    store.cache.put(entry('k', 1, '12345'));
    store.facts.put('f', '[1,2]', 1);
    store.cache.recordRun({ hits: 1, misses: 2, revalidated: 0, at: '2024-01-01T00:00:00.000Z' });
    expect(store.cache.stats()).toEqual({ entries: 1, bytes: 5, lastRun: { hits: 1, misses: 2, revalidated: 0, at: '2024-01-01T00:00:00.000Z' }, evicted: { entries: 0, bytes: 0 } });
    expect(store.facts.stats()).toEqual({ entries: 1, bytes: 5 });
    store.close();
  });

  it('queued history rows are listed and found as previous before they are written', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.history.record(historyRow('1', '2024-01-01T00:00:00.000Z'));
    store.flush();
    store.history.record(historyRow('3', '2024-03-01T00:00:00.000Z'));
    store.history.record(historyRow('2', '2024-02-01T00:00:00.000Z'));
    store.history.record(historyRow('3b', '2024-03-01T00:00:00.000Z')); // same time, inserted later: newer
    expect(committed(dir, 'SELECT version FROM history')).toEqual([{ version: '1' }]);

    expect(store.history.list('npm:chalk').map((r) => r.version)).toEqual(['3b', '3', '2', '1']);
    expect(store.history.list('npm:chalk', 2).map((r) => r.version)).toEqual(['3b', '3']);
    expect(store.history.list('npm:other')).toEqual([]);
    expect(store.history.previous('npm:chalk', '2024-03-01T00:00:00.000Z')?.version).toBe('2');
    expect(store.history.previous('npm:chalk', '2024-12-01T00:00:00.000Z')?.version).toBe('3b');
    expect(store.history.previous('npm:chalk', '2024-01-15T00:00:00.000Z')?.version).toBe('1');
    expect(store.history.previous('npm:chalk', '2024-01-01T00:00:00.000Z')).toBeUndefined();
    store.close();

    const again = openQuiet(dir);
    expect(again.history.list('npm:chalk').map((r) => r.version)).toEqual(['3b', '3', '2', '1']);
    again.close();
  });

  it('history rows survive a failed flush and are written by the next one', () => {
    const dir = tempDir();
    const db = openDatabase(path.join(dir, 'nerq.sqlite'));
    const real = transactor(db);
    let fail = true;
    const flaky: Transact = <T>(fn: () => T): T =>
      real(() => {
        const result = fn();
        if (fail) throw new Error('disk I/O error');
        return result;
      });
    const queue = createWriteQueue(flaky, { delayMs: 3_600_000 });
    const history = createHistory(db, queue);
    history.record(historyRow('1', '2024-01-01T00:00:00.000Z'));
    expect(() => queue.flush()).toThrow(/disk I\/O/);
    expect(db.prepare('SELECT count(*) AS n FROM history').get()).toEqual({ n: 0 });
    expect(history.list('npm:chalk').map((r) => r.version)).toEqual(['1']);

    fail = false;
    queue.flush();
    expect(db.prepare('SELECT version FROM history').all()).toEqual([{ version: '1' }]);
    expect(history.list('npm:chalk').map((r) => r.version)).toEqual(['1']); // not twice
    queue.dispose();
    db.close();
  });

  it('close closes the database even when its flush fails, and rethrows', () => {
    const dir = tempDir();
    const store = openQuiet(dir);
    store.history.record(historyRow('1', '2024-01-01T00:00:00.000Z'));
    // Another connection holds the write lock past the busy timeout? Too slow for a test:
    // make the table unwritable instead (a trigger that aborts inserts).
    const other = new DatabaseSync(path.join(dir, 'nerq.sqlite'));
    other.exec("CREATE TRIGGER no_history BEFORE INSERT ON history BEGIN SELECT RAISE(ABORT, 'history refused'); END");
    other.close();
    expect(() => store.close()).toThrow(/history refused/);
    expect(() => store.close()).not.toThrow(); // closed: idempotent
  });
});

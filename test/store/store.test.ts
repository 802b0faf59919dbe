import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/db.js';
import { openStore } from '../../src/store/open-store.js';
import type { CachedResponse, HistoryRow, Store } from '../../src/store/types.js';
import { tempDir } from './temp-dir.js';

function open(dir: string): { store: Store; warnings: string[] } {
  const warnings: string[] = [];
  const store = openStore({ dir, warn: (m) => warnings.push(m) });
  if (!store) throw new Error(`store did not open: ${warnings.join('; ')}`);
  return { store, warnings };
}

function entry(key: string, fetchedAt: number, size: number): CachedResponse {
  return {
    key,
    url: `https://example.test/${key}`,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.alloc(size, 7),
    etag: null,
    lastModified: null,
    fetchedAt,
  };
}

function historyRow(evaluatedAt: string, over: Partial<HistoryRow> = {}): HistoryRow {
  return {
    target: 'npm:chalk',
    ecosystem: 'npm',
    name: 'chalk',
    version: '5.3.0',
    score: 82.5,
    grade: 'B',
    verdict: 'YES',
    coverage: 0.9,
    dimensions: { maintenance: 80, security: null },
    checks: { 'has-license': 100, 'provenance': null },
    evidenceHash: 'a'.repeat(64),
    evaluatedAt,
    toolVersion: '0.1.0',
    ...over,
  };
}

describe('openStore: open, migrate, reopen', () => {
  it('creates the directory (0700) and a migrated database, silently', () => {
    const dir = path.join(tempDir(), 'nested', 'nerq');
    const { store, warnings } = open(dir);
    expect(warnings).toEqual([]);
    expect(store.file).toBe(path.join(dir, 'nerq.sqlite'));
    if (process.platform !== 'win32') expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    store.close();

    const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'));
    try {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      const names = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','index') ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
      expect(names).toEqual(
        expect.arrayContaining(['http_cache', 'history', 'meta', 'facts_cache', 'http_cache_by_age', 'facts_cache_by_age', 'history_target_evaluated_at']),
      );
    } finally {
      db.close();
    }
  });

  it('keeps data across a reopen and does not migrate twice', () => {
    const dir = tempDir();
    const first = open(dir).store;
    first.history.record(historyRow('2024-01-01T00:00:00.000Z'));
    first.close();
    first.close(); // idempotent

    const { store, warnings } = open(dir);
    expect(warnings).toEqual([]);
    expect(store.history.list('npm:chalk')).toHaveLength(1);
    store.close();
  });
});

describe('http cache', () => {
  it('round-trips a binary body, headers and validators', () => {
    const { store } = open(tempDir());
    const body = Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0x80, 10, 13]);
    const e: CachedResponse = {
      key: 'GET https://example.test/a accept=json',
      url: 'https://example.test/a',
      status: 203,
      headers: { 'content-type': 'application/octet-stream', etag: '"abc"' },
      body,
      etag: '"abc"',
      lastModified: 'Wed, 21 Oct 2015 07:28:00 GMT',
      fetchedAt: 1_700_000_000_000,
    };
    store.cache.put(e);
    const got = store.cache.get(e.key);
    expect(got).toEqual(e);
    expect(Buffer.isBuffer(got?.body)).toBe(true);
    expect(got?.body.equals(body)).toBe(true);
    expect(store.cache.get('GET https://example.test/missing')).toBeUndefined();
    store.close();
  });

  it('put upserts the same key', () => {
    const { store } = open(tempDir());
    store.cache.put(entry('k', 1, 10));
    store.cache.put({ ...entry('k', 2, 3), status: 404 });
    expect(store.cache.get('k')).toMatchObject({ status: 404, fetchedAt: 2 });
    expect(store.cache.get('k')?.body.byteLength).toBe(3);
    expect(store.cache.stats()).toMatchObject({ entries: 1, bytes: 3 });
    store.close();
  });

  it.each([
    { name: 'time only', validators: undefined, etag: '"old"', lastModified: 'old-date' },
    { name: 'new etag', validators: { etag: '"new"' }, etag: '"new"', lastModified: 'old-date' },
    { name: 'new last-modified', validators: { lastModified: 'new-date' }, etag: '"old"', lastModified: 'new-date' },
    { name: 'cleared etag', validators: { etag: null, lastModified: 'new-date' }, etag: null, lastModified: 'new-date' },
  ])('touch refreshes fetchedAt: $name', ({ validators, etag, lastModified }) => {
    const { store } = open(tempDir());
    store.cache.put({ ...entry('k', 100, 4), etag: '"old"', lastModified: 'old-date' });
    store.cache.touch('k', 500, validators);
    const got = store.cache.get('k');
    expect(got).toMatchObject({ fetchedAt: 500, etag, lastModified });
    expect(got?.body.equals(Buffer.alloc(4, 7))).toBe(true);
    store.cache.touch('absent', 600); // no row: no error, nothing created
    expect(store.cache.get('absent')).toBeUndefined();
    store.close();
  });

  it.each([
    { max: 1000, kept: ['a', 'b', 'c', 'd'] },
    { max: 100, kept: ['b', 'c', 'd'] },
    { max: 60, kept: ['c', 'd'] },
    { max: 59, kept: ['d'] },
    { max: 29, kept: [] },
    { max: 0, kept: [] },
  ])('prune($max) keeps the newest entries within the bound', ({ max, kept }) => {
    const { store } = open(tempDir());
    // fetched order: a (oldest) … d (newest); put order differs on purpose.
    store.cache.put(entry('c', 300, 30));
    store.cache.put(entry('a', 100, 50));
    store.cache.put(entry('d', 400, 30));
    store.cache.put(entry('b', 200, 40));
    store.cache.touch('a', 50); // still the oldest
    store.cache.prune(max);
    const present = ['a', 'b', 'c', 'd'].filter((k) => store.cache.get(k) !== undefined);
    expect(present).toEqual(kept);
    expect(store.cache.stats().bytes).toBeLessThanOrEqual(max);
    store.close();
  });

  it('a touched entry counts as recent for prune', () => {
    const { store } = open(tempDir());
    store.cache.put(entry('old', 100, 40));
    store.cache.put(entry('new', 200, 40));
    store.cache.touch('old', 300);
    store.cache.prune(40);
    expect(store.cache.get('old')).toBeDefined();
    expect(store.cache.get('new')).toBeUndefined();
    store.close();
  });

  it('stats counts entries and bytes, recordRun persists, clear empties', () => {
    const dir = tempDir();
    const { store } = open(dir);
    expect(store.cache.stats()).toEqual({ entries: 0, bytes: 0, lastRun: null, evicted: { entries: 0, bytes: 0 } });
    store.cache.put(entry('a', 1, 10));
    store.cache.put(entry('b', 2, 25));
    store.cache.recordRun({ hits: 3, misses: 1, revalidated: 2, at: '2024-05-01T00:00:00.000Z' });
    store.cache.recordRun({ hits: 5, misses: 0, revalidated: 1, at: '2024-05-02T00:00:00.000Z' });
    store.close();

    const again = open(dir).store;
    expect(again.cache.stats()).toEqual({
      entries: 2,
      bytes: 35,
      lastRun: { hits: 5, misses: 0, revalidated: 1, at: '2024-05-02T00:00:00.000Z' },
      evicted: { entries: 0, bytes: 0 },
    });
    again.history.record(historyRow('2024-01-01T00:00:00.000Z'));
    again.cache.clear();
    expect(again.cache.stats()).toEqual({ entries: 0, bytes: 0, lastRun: null, evicted: { entries: 0, bytes: 0 } });
    expect(again.history.list('npm:chalk')).toHaveLength(1); // clear leaves history alone
    again.close();
  });
});

describe('history', () => {
  it('round-trips a row, JSON fields included', () => {
    const { store } = open(tempDir());
    const row = historyRow('2024-03-01T12:00:00.000Z', { version: null, score: null, grade: null });
    store.history.record(row);
    expect(store.history.list('npm:chalk')).toEqual([row]);
    store.close();
  });

  it('lists newest first, per target, with a limit (default 50)', () => {
    const { store } = open(tempDir());
    const days = ['2024-01-03', '2024-01-01', '2024-01-05', '2024-01-02', '2024-01-04'];
    for (const d of days) store.history.record(historyRow(`${d}T00:00:00.000Z`, { version: d }));
    store.history.record(historyRow('2024-01-09T00:00:00.000Z', { target: 'npm:other', name: 'other' }));
    expect(store.history.list('npm:chalk').map((r) => r.version)).toEqual([
      '2024-01-05', '2024-01-04', '2024-01-03', '2024-01-02', '2024-01-01',
    ]);
    expect(store.history.list('npm:chalk', 2).map((r) => r.version)).toEqual(['2024-01-05', '2024-01-04']);
    expect(store.history.list('npm:nothing')).toEqual([]);
    for (let i = 0; i < 60; i++) store.history.record(historyRow(`2023-06-01T00:00:${String(i).padStart(2, '0')}.000Z`));
    expect(store.history.list('npm:chalk')).toHaveLength(50);
    store.close();
  });

  it('previous returns the latest row strictly before the given time', () => {
    const { store } = open(tempDir());
    store.history.record(historyRow('2024-01-01T00:00:00.000Z', { version: '1' }));
    store.history.record(historyRow('2024-02-01T00:00:00.000Z', { version: '2' }));
    store.history.record(historyRow('2024-03-01T00:00:00.000Z', { version: '3' }));
    const cases: Array<[string, string | undefined]> = [
      ['2024-03-01T00:00:00.000Z', '2'],
      ['2024-03-01T00:00:00.001Z', '3'],
      ['2024-01-15T00:00:00.000Z', '1'],
      ['2024-01-01T00:00:00.000Z', undefined],
    ];
    for (const [before, version] of cases) expect(store.history.previous('npm:chalk', before)?.version).toBe(version);
    expect(store.history.previous('npm:other', '2030-01-01T00:00:00.000Z')).toBeUndefined();
    store.close();
  });
});

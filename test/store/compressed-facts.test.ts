/**
 * Large facts rows are stored gzip-compressed (src/store/facts.ts): a package's code files make a
 * row megabytes of text, and the store's cap (pruning) counts the stored size, so a large
 * project's facts fit in the store. Small rows stay text; older text rows still read; a damaged
 * compressed row is a miss.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_ABOVE_BYTES } from '../../src/store/body-codec.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { tempDir } from './temp-dir.js';

function open(dir: string): Store {
  const store = openStore({ dir, warn: (m) => expect.fail(m), flush: { delayMs: 3_600_000, maxBytes: 1 << 30 } });
  if (store === null) throw new Error('store did not open');
  return store;
}

/** Facts JSON holding a module's source text, like a tarball's `loadCode`: compresses well. */
function codeFacts(bytes: number): string {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `function f${i}(a, b) {\\n  return a.map((x) => x + b * ${i});\\n}\\n`;
  return JSON.stringify({ loadCode: { entries: ['.'], files: [{ path: 'index.js', language: 'javascript', size: text.length, text, truncated: false }] } });
}

function rows(dir: string): Array<{ key: string; kind: string; size: number; stored: number }> {
  const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT key, typeof(value) AS kind, size, length(value) AS stored FROM facts_cache ORDER BY key').all() as Array<{ key: string; kind: string; size: number; stored: number }>;
  } finally {
    db.close();
  }
}

describe('facts rows', () => {
  it('a row above the threshold is stored as a gzip blob, counted at its stored size, and reads back as the same text', () => {
    const dir = tempDir();
    const big = codeFacts(4 * 1024 * 1024);
    const small = JSON.stringify({ license: 'MIT' });
    const store = open(dir);
    store.facts.put('big', big, 1000);
    store.facts.put('small', small, 1000);
    store.close();

    const [bigRow, smallRow] = rows(dir);
    expect(bigRow).toMatchObject({ key: 'big', kind: 'blob' });
    expect(bigRow!.size).toBe(bigRow!.stored);
    expect(bigRow!.size).toBeLessThan(Buffer.byteLength(big) / 4);
    expect(smallRow).toMatchObject({ key: 'small', kind: 'text', size: Buffer.byteLength(small) });

    const again = open(dir);
    expect(again.facts.get('big')).toEqual({ value: big, fetchedAt: 1000 });
    expect(again.facts.get('small')).toEqual({ value: small, fetchedAt: 1000 });
    expect(again.facts.stats().bytes).toBe(bigRow!.size + smallRow!.size);
    again.close();
  });

  it('pruning to a cap keeps every compressed row that fits by its stored size', () => {
    const dir = tempDir();
    const store = open(dir);
    for (let i = 0; i < 8; i++) store.facts.put(`pkg${i}`, codeFacts(COMPRESS_ABOVE_BYTES * 4), 1000 + i);
    // Eight rows of 1 MiB of text each fit in 2 MiB once compressed.
    store.prune(2 * 1024 * 1024);
    store.close();
    expect(rows(dir).map((r) => r.key)).toEqual(['pkg0', 'pkg1', 'pkg2', 'pkg3', 'pkg4', 'pkg5', 'pkg6', 'pkg7']);
  });

  it('a text row written before compression reads as before; a damaged blob is a miss', () => {
    const dir = tempDir();
    open(dir).close();
    const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'));
    const text = codeFacts(COMPRESS_ABOVE_BYTES * 2);
    db.prepare('INSERT INTO facts_cache (key, value, fetched_at, size) VALUES (?, ?, ?, ?)').run('old', text, 1000, Buffer.byteLength(text));
    const damaged = zlib.gzipSync(Buffer.from(text)).subarray(0, 100);
    db.prepare('INSERT INTO facts_cache (key, value, fetched_at, size) VALUES (?, ?, ?, ?)').run('damaged', damaged, 1000, damaged.byteLength);
    db.close();
    const store = open(dir);
    expect(store.facts.get('old')?.value).toBe(text);
    expect(store.facts.get('damaged')).toBeUndefined();
    store.close();
  });
});

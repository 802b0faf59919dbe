import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_ABOVE_BYTES, decodeBody, encodeBody, MAX_INFLATED_BYTES } from '../../src/store/body-codec.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/db.js';
import { openStore, type OpenStoreOptions } from '../../src/store/open-store.js';
import type { CachedResponse, Store } from '../../src/store/types.js';
import { tempDir } from './temp-dir.js';

/** A store whose timer never fires during a test: writes land on flush or close. */
function open(dir: string, options: Partial<OpenStoreOptions> = {}): Store {
  const store = openStore({ dir, warn: (m) => expect.fail(m), flush: { delayMs: 3_600_000, maxBytes: 1 << 30 }, ...options });
  if (store === null) throw new Error('store did not open');
  return store;
}

/** JSON-like text of exactly `size` bytes: compresses well, like a packument. */
function jsonBody(size: number, seed = 0): Buffer {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `{"version":"1.${i}.${seed}","integrity":"sha512-${(i * 7919 + seed).toString(36)}"},`;
  return Buffer.from(text.slice(0, size));
}

function entry(key: string, body: Buffer, fetchedAt = 1000): CachedResponse {
  return {
    key,
    url: `https://example.test/${key}`,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body,
    etag: '"v1"',
    lastModified: null,
    fetchedAt,
  };
}

function rows(dir: string): Array<{ key: string; encoding: string | null; size: number; stored: number }> {
  const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'), { readOnly: true });
  try {
    return db
      .prepare('SELECT key, encoding, size, length(body) AS stored FROM http_cache ORDER BY key')
      .all() as Array<{ key: string; encoding: string | null; size: number; stored: number }>;
  } finally {
    db.close();
  }
}

function withDb<T>(dir: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(dir, 'nerq.sqlite'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe('body codec', () => {
  it('keeps small bodies and incompressible ones as they came', () => {
    const small = jsonBody(COMPRESS_ABOVE_BYTES);
    expect(encodeBody(small)).toEqual({ body: small, encoding: null });
    const noise = randomBytes(COMPRESS_ABOVE_BYTES * 2); // gzip cannot shrink it
    expect(encodeBody(noise)).toEqual({ body: noise, encoding: null });
    const huge = Buffer.alloc(MAX_INFLATED_BYTES + 1); // past the inflate cap: never compressed
    expect(encodeBody(huge).encoding).toBeNull();
  });

  it('compresses a body above the threshold and decodes it back', () => {
    const body = jsonBody(COMPRESS_ABOVE_BYTES + 1);
    const stored = encodeBody(body);
    expect(stored.encoding).toBe('gzip');
    expect(stored.body.byteLength).toBeLessThan(body.byteLength / 4);
    expect(decodeBody(stored.body, stored.encoding)?.equals(body)).toBe(true);
  });

  it('inflates at most maxBytes: a body that would pass it is undefined, not a throw', () => {
    const body = jsonBody(10_000);
    const { body: gz } = encodeBody(body, 0);
    expect(decodeBody(gz, 'gzip', 10_000)?.byteLength).toBe(10_000);
    expect(decodeBody(gz, 'gzip', 9_999)).toBeUndefined();
    // A "bomb": 65 MiB of zeros in ~65 KB; the default cap stops it.
    const bomb = zlib.gzipSync(Buffer.alloc(MAX_INFLATED_BYTES + 1024 * 1024), { level: 9 });
    expect(decodeBody(bomb, 'gzip')).toBeUndefined();
  });

  it('keeps the gzip stream the body came in instead of compressing it again', () => {
    const body = jsonBody(COMPRESS_ABOVE_BYTES + 1);
    const wire = zlib.gzipSync(body, { level: 9 }); // not what level 1 would write: proves it is kept as given
    const stored = encodeBody(body, COMPRESS_ABOVE_BYTES, wire);
    expect(stored).toEqual({ body: wire, encoding: 'gzip' });
    expect(decodeBody(stored.body, stored.encoding)?.equals(body)).toBe(true);
    // Not a gzip stream, or not smaller than the body: compressed here as before.
    expect(encodeBody(body, COMPRESS_ABOVE_BYTES, Buffer.from('not gzip')).body).toEqual(zlib.gzipSync(body, { level: 1 }));
  });

  it('keeps a body that is a gzip stream itself (a tarball) as it came', () => {
    const tgz = zlib.gzipSync(randomBytes(COMPRESS_ABOVE_BYTES * 2));
    expect(encodeBody(tgz)).toEqual({ body: tgz, encoding: null });
  });

  it('a damaged or unknown encoding is undefined', () => {
    const { body: gz } = encodeBody(jsonBody(5000), 0);
    const flipped = Buffer.from(gz);
    flipped[flipped.length - 6]! ^= 0xff; // in the CRC trailer
    expect(decodeBody(flipped, 'gzip')).toBeUndefined();
    expect(decodeBody(gz.subarray(0, gz.byteLength - 10), 'gzip')).toBeUndefined();
    expect(decodeBody(Buffer.from('not gzip at all'), 'gzip')).toBeUndefined();
    expect(decodeBody(gz, 'br')).toBeUndefined();
    expect(decodeBody(Buffer.from('raw'), null)?.toString()).toBe('raw');
  });
});

describe('compressed bodies in the HTTP cache', () => {
  it('round-trips bodies below and above the threshold; size counts the stored bytes', () => {
    const dir = tempDir();
    const small = jsonBody(COMPRESS_ABOVE_BYTES);
    const large = jsonBody(2 * 1024 * 1024, 1);
    const store = open(dir);
    store.cache.put(entry('small', small));
    store.cache.put(entry('large', large));
    store.close();

    const written = rows(dir);
    expect(written.map((r) => [r.key, r.encoding])).toEqual([
      ['large', 'gzip'],
      ['small', null],
    ]);
    for (const r of written) expect(r.size).toBe(r.stored);
    expect(written[1]!.size).toBe(small.byteLength);
    expect(written[0]!.size).toBeLessThan(large.byteLength / 4);

    const again = open(dir);
    expect(again.cache.get('small')).toEqual(entry('small', small));
    const got = again.cache.get('large');
    expect(got).toEqual(entry('large', large));
    expect(Buffer.isBuffer(got?.body)).toBe(true);
    expect(again.cache.stats()).toMatchObject({ entries: 2, bytes: written[0]!.size + written[1]!.size });
    again.close();
  });

  it('stores the gzip the body came in, and gives back the body (never the wire bytes)', () => {
    const dir = tempDir();
    const body = jsonBody(2 * 1024 * 1024, 2);
    const wire = zlib.gzipSync(body, { level: 9 });
    const store = open(dir);
    store.cache.put({ ...entry('wired', body), wireGzip: wire });
    expect(store.cache.get('wired')).toEqual(entry('wired', body)); // read-your-writes, before the flush
    store.close();
    expect(rows(dir)).toEqual([{ key: 'wired', encoding: 'gzip', size: wire.byteLength, stored: wire.byteLength }]);
    const again = open(dir);
    expect(again.cache.get('wired')).toEqual(entry('wired', body));
    again.close();
  });

  it('the threshold is a store option', () => {
    const dir = tempDir();
    const store = open(dir, { compressAbove: 100 });
    store.cache.put(entry('a', jsonBody(101)));
    store.cache.put(entry('b', jsonBody(100)));
    store.close();
    expect(rows(dir).map((r) => r.encoding)).toEqual(['gzip', null]);
    const again = open(dir);
    expect(again.cache.get('a')?.body.equals(jsonBody(101))).toBe(true);
    again.close();
  });

  it('get inflates a stored body to at most the maxBytes asked for (a miss past it)', () => {
    const dir = tempDir();
    const body = jsonBody(300_000);
    const store = open(dir, { compressAbove: 1000 });
    store.cache.put(entry('k', body));
    // Queued (not yet written): the original body, whatever the limit; the caller checks its length.
    expect(store.cache.get('k', { maxBytes: 10 })?.body.byteLength).toBe(300_000);
    store.flush();
    expect(store.cache.get('k', { maxBytes: 300_000 })?.body.equals(body)).toBe(true);
    expect(store.cache.get('k', { maxBytes: 299_999 })).toBeUndefined();
    expect(store.cache.get('k')?.body.equals(body)).toBe(true);
    store.close();
  });

  it('read-your-writes returns the original body, and a touch keeps it', () => {
    const dir = tempDir();
    const body = jsonBody(COMPRESS_ABOVE_BYTES * 2);
    const store = open(dir);
    store.cache.put(entry('k', body));
    const queued = store.cache.get('k');
    expect(queued?.body).toBe(body);
    store.cache.touch('k', 2000, { etag: '"v2"' });
    expect(store.cache.get('k')).toMatchObject({ fetchedAt: 2000, etag: '"v2"' });
    expect(store.cache.get('k')?.body.equals(body)).toBe(true);
    store.close();
    expect(rows(dir)[0]?.encoding).toBe('gzip');
    const again = open(dir);
    expect(again.cache.get('k')).toEqual({ ...entry('k', body), fetchedAt: 2000, etag: '"v2"' });
    again.close();
  });

  it('a corrupt compressed row is a miss, and a later put replaces it', () => {
    const dir = tempDir();
    const body = jsonBody(COMPRESS_ABOVE_BYTES * 2);
    const store = open(dir);
    store.cache.put(entry('k', body));
    store.cache.put(entry('other', body));
    store.close();
    withDb(dir, (db) => {
      db.prepare("UPDATE http_cache SET body = substr(body, 1, 100) WHERE key = 'k'").run();
      db.prepare("UPDATE http_cache SET encoding = 'zstd' WHERE key = 'other'").run();
    });

    const again = open(dir);
    expect(again.cache.get('k')).toBeUndefined();
    expect(again.cache.get('other')).toBeUndefined();
    again.cache.put(entry('k', body, 3000));
    again.flush();
    expect(again.cache.get('k')?.body.equals(body)).toBe(true);
    again.close();
  });

  it('prune bounds the stored (compressed) bytes', () => {
    const dir = tempDir();
    const store = open(dir);
    // Four 1 MiB bodies, oldest first; each is far smaller stored.
    for (let i = 0; i < 4; i++) store.cache.put(entry(`k${i}`, jsonBody(1024 * 1024, i), 100 + i));
    store.flush();
    const sizes = rows(dir).map((r) => r.size);
    expect(sizes.every((s) => s < 256 * 1024)).toBe(true);
    const total = sizes.reduce((a, b) => a + b, 0);
    // Room for every stored body, far less than their 4 MiB inflated: all kept.
    store.prune(total);
    expect(store.cache.stats()).toEqual(expect.objectContaining({ entries: 4, bytes: total }));
    // One byte short: the oldest goes.
    store.prune(total - 1);
    expect(store.cache.get('k0')).toBeUndefined();
    expect(store.cache.get('k3')?.body.equals(jsonBody(1024 * 1024, 3))).toBe(true);
    expect(store.cache.stats().bytes).toBe(total - sizes[0]!);
    store.close();
  });
});

describe('migration 3 (encoding column)', () => {
  it('a version-2 store is migrated and its rows are still read as they came', () => {
    const dir = tempDir();
    const body = jsonBody(COMPRESS_ABOVE_BYTES * 2); // above the threshold, written before it existed
    withDb(dir, (db) => {
      db.exec(MIGRATIONS[0]!);
      db.exec(MIGRATIONS[1]!);
      db.exec('PRAGMA user_version=2');
      db.prepare(
        `INSERT INTO http_cache (key, url, status, headers, body, etag, last_modified, fetched_at, size)
         VALUES (?, ?, 200, '{"content-type":"application/json"}', ?, '"v1"', NULL, 1000, ?)`,
      ).run('old', 'https://example.test/old', body, body.byteLength);
    });

    const store = open(dir);
    expect(store.cache.get('old')).toEqual(entry('old', body));
    store.cache.put(entry('new', body));
    store.close();

    expect(SCHEMA_VERSION).toBe(3);
    withDb(dir, (db) => expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 }));
    expect(rows(dir).map((r) => [r.key, r.encoding, r.size === body.byteLength])).toEqual([
      ['new', 'gzip', false],
      ['old', null, true],
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheKey, createCachedHttpClient, storableHeaders } from '../../src/sources/http/cached.js';
import type { CachedHttpClient, CachedHttpOptions } from '../../src/sources/http/cached.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { HttpClientOptions } from '../../src/sources/http/client.js';
import type { HttpClient, HttpRequest, HttpResult } from '../../src/sources/http/types.js';
import type { HttpCacheStore } from '../../src/store/types.js';
import { expectNoUnexpected, startFixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { MemoryCache } from './memory-cache.js';

const MINUTE = 60_000;
const PACKUMENT_V1 = { name: 'demo', 'dist-tags': { latest: '1.0.0' } };
const PACKUMENT_V2 = { name: 'demo', 'dist-tags': { latest: '2.0.0' } };

let server: FixtureServer;
let cache: MemoryCache;
let clock: number;
const inners: HttpClient[] = [];

beforeEach(async () => {
  server = await startFixtureServer();
  cache = new MemoryCache();
  clock = 1_700_000_000_000;
});

afterEach(async () => {
  for (const inner of inners.splice(0)) await inner.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

function inner(options: HttpClientOptions = {}): HttpClient {
  const made = createHttpClient({
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: 0 },
    sleep: async () => {},
    env: {},
    ...options,
  });
  inners.push(made);
  return made;
}

function cached(options: Partial<CachedHttpOptions> = {}, innerOptions: HttpClientOptions = {}): CachedHttpClient {
  return createCachedHttpClient(inner(innerOptions), {
    cache,
    mode: 'normal',
    freshnessFor: () => 5 * MINUTE,
    now: () => clock,
    ...options,
  });
}

function packumentRequest(): HttpRequest {
  return { url: `${server.url('npm')}/demo`, headers: { accept: 'application/json' } };
}

function ok(result: HttpResult): Extract<HttpResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a response, got ${result.kind}: ${result.reason}`);
  return result;
}

function failed(result: HttpResult): Extract<HttpResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a failure, got HTTP ${result.status}`);
  return result;
}

function json(result: HttpResult): unknown {
  return JSON.parse(ok(result).body.toString('utf8'));
}

describe('normal mode', () => {
  it('serves a second GET within freshness from the store, with no request', async () => {
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' } });
    const client = cached();
    const first = await client.request(packumentRequest());
    clock += 5 * MINUTE - 1;
    const second = await client.request(packumentRequest());
    expect(server.requests).toHaveLength(1);
    expect(json(second)).toEqual(PACKUMENT_V1);
    expect(ok(second).body.equals(ok(first).body)).toBe(true);
    expect(ok(second).status).toBe(200);
    expect(ok(second).headers['content-type']).toBe('application/json');
    expect(client.stats()).toEqual({ hits: 1, misses: 1, revalidated: 0, requests: 2 });
    expectNoUnexpected(server);
  });

  it('revalidates a stale entry with If-None-Match and serves the cached body on 304', async () => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 })
      .expect('GET', '/npm/demo', { status: 304, headers: { etag: '"v1"' }, times: 1 });
    const client = cached();
    const first = await client.request(packumentRequest());
    clock += 5 * MINUTE;
    const second = await client.request(packumentRequest());
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.headers['if-none-match']).toBeUndefined();
    expect(server.requests[1]?.headers['if-none-match']).toBe('"v1"');
    expect(ok(second).status).toBe(200);
    expect(ok(second).body.equals(ok(first).body)).toBe(true);
    expect(client.stats()).toEqual({ hits: 0, misses: 1, revalidated: 1, requests: 2 });

    // The 304 refreshed the entry: fresh again for a full period, no request.
    clock += 5 * MINUTE - 1;
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V1);
    expect(server.requests).toHaveLength(2);
    expect(server.pending()).toEqual([]);
    expectNoUnexpected(server);
  });

  it('revalidates with If-Modified-Since when the entry has only Last-Modified', async () => {
    const lastModified = 'Wed, 01 Oct 2025 10:00:00 GMT';
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { 'last-modified': lastModified }, times: 1 })
      .expect('GET', '/npm/demo', { status: 304, times: 1 });
    const client = cached();
    await client.request(packumentRequest());
    clock += 10 * MINUTE;
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V1);
    expect(server.requests[1]?.headers['if-modified-since']).toBe(lastModified);
    expect(server.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(client.stats().revalidated).toBe(1);
  });

  it('replaces the entry when revalidation answers 200', async () => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 })
      .expect('GET', '/npm/demo', { body: PACKUMENT_V2, headers: { etag: '"v2"' }, times: 1 })
      .expect('GET', '/npm/demo', { status: 304, times: 1 });
    const client = cached();
    await client.request(packumentRequest());
    clock += 6 * MINUTE;
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V2);
    expect(server.requests[1]?.headers['if-none-match']).toBe('"v1"');
    const [entry] = cache.entries.values();
    expect(cache.entries.size).toBe(1);
    expect(entry?.etag).toBe('"v2"');
    expect(JSON.parse(entry?.body.toString('utf8') ?? '')).toEqual(PACKUMENT_V2);

    // The next revalidation uses the new validator, and a 304 serves the new body.
    clock += 6 * MINUTE;
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V2);
    expect(server.requests[2]?.headers['if-none-match']).toBe('"v2"');
    expect(client.stats()).toEqual({ hits: 0, misses: 2, revalidated: 1, requests: 3 });
    expectNoUnexpected(server);
  });

  it('sends an unconditional request for a stale entry without validators', async () => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, times: 1 })
      .expect('GET', '/npm/demo', { body: PACKUMENT_V2, times: 1 });
    const client = cached();
    await client.request(packumentRequest());
    clock += 5 * MINUTE;
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V2);
    expect(server.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(server.requests[1]?.headers['if-modified-since']).toBeUndefined();
    expect(client.stats()).toEqual({ hits: 0, misses: 2, revalidated: 0, requests: 2 });
  });

  it.each([
    ['HTTP 500', { status: 500 }, 'status'],
    ['a connection reset', { reset: true }, 'network'],
  ] as const)('returns the failure (%s) instead of a stale entry', async (_label, fault, kind) => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 })
      .expect('GET', '/npm/demo', { ...fault, times: 1 });
    const client = cached();
    await client.request(packumentRequest());
    clock += 5 * MINUTE;
    const result = failed(await client.request(packumentRequest()));
    expect(result.kind).toBe(kind);
    expect(server.requests[1]?.headers['if-none-match']).toBe('"v1"');
    // The stale entry is kept (offline can still use it), unchanged.
    expect([...cache.entries.values()][0]?.fetchedAt).toBe(1_700_000_000_000);
    expect(client.stats()).toEqual({ hits: 0, misses: 2, revalidated: 0, requests: 2 });
  });

  it('honours maxAgeMs over the freshness policy', async () => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 })
      .expect('GET', '/npm/demo', { status: 304, times: 1 });
    const client = cached({ freshnessFor: () => 7 * 24 * 60 * MINUTE, maxAgeMs: MINUTE });
    await client.request(packumentRequest());
    clock += MINUTE - 1;
    await client.request(packumentRequest());
    expect(server.requests).toHaveLength(1);
    clock += 1;
    await client.request(packumentRequest());
    expect(server.requests).toHaveLength(2);
    expect(client.stats()).toEqual({ hits: 1, misses: 1, revalidated: 1, requests: 3 });
  });

  it('never caches what the policy gives freshness 0, even with maxAgeMs', async () => {
    server.expect('GET', '/other/thing', { body: { n: 1 } });
    const client = cached({ freshnessFor: () => 0, maxAgeMs: 60 * MINUTE });
    await client.request({ url: `${server.url('other')}/thing` });
    await client.request({ url: `${server.url('other')}/thing` });
    expect(server.requests).toHaveLength(2);
    expect(cache.entries.size).toBe(0);
    expect(client.stats()).toEqual({ hits: 0, misses: 2, revalidated: 0, requests: 2 });
  });
});

describe('what is stored', () => {
  it('does not store a body storeBody refuses (a huge tarball), and answers it all the same', async () => {
    const body = Buffer.alloc(4096, 1);
    server.expect('GET', '/npm/big/-/big-1.0.0.tgz', { body, headers: { 'content-type': 'application/octet-stream' } });
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1 });
    const seen: number[] = [];
    const client = cached({ storeBody: (req, bytes) => (seen.push(bytes), !req.url.endsWith('.tgz') || bytes <= 1024) });
    expect(ok(await client.request({ url: `${server.url('npm')}/big/-/big-1.0.0.tgz` })).body.equals(body)).toBe(true);
    await client.request(packumentRequest());
    expect(seen[0]).toBe(4096);
    expect([...cache.entries.values()].map((e) => e.url)).toEqual([packumentRequest().url]);
  });

  it.each([
    ['a 404', { status: 404 }],
    ['a 500', { status: 500 }],
    ['a 203', { status: 203, body: { n: 1 } }],
    ['Cache-Control: no-store', { body: { n: 1 }, headers: { 'cache-control': 'private, no-store' } }],
  ] as const)('does not store %s', async (_label, response) => {
    server.expect('GET', '/npm/demo', response);
    const client = cached();
    await client.request(packumentRequest());
    await client.request(packumentRequest());
    expect(cache.entries.size).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('does not store an answer larger than maxEntryBytes (a platform binary would evict the rest); a smaller one it does', async () => {
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1 });
    const size = Buffer.byteLength(JSON.stringify(PACKUMENT_V1));
    await cached({ maxEntryBytes: size - 1 }).request(packumentRequest());
    expect(cache.entries.size).toBe(0);
    await cached({ maxEntryBytes: size + 1024 }).request(packumentRequest());
    expect(cache.entries.size).toBe(1);
  });

  it('never stores set-cookie or authentication response headers, nor any request header', async () => {
    server.expect('GET', '/npm/demo', {
      body: PACKUMENT_V1,
      headers: {
        etag: '"v1"',
        'set-cookie': 'session=COOKIE_SECRET; HttpOnly',
        'www-authenticate': 'Bearer realm="WWW_AUTH_REALM"',
        'x-served-by': 'cache-1',
      },
    });
    const client = cached();
    const first = ok(await client.request({ ...packumentRequest(), headers: { accept: 'application/json', 'x-request-secret': 'REQ_HEADER_VALUE' } }));
    expect(first.headers['set-cookie']).toContain('COOKIE_SECRET');
    const [entry] = cache.entries.values();
    expect(entry?.headers).toMatchObject({ etag: '"v1"', 'x-served-by': 'cache-1' });
    expect(Object.keys(entry?.headers ?? {})).not.toContain('set-cookie');
    expect(Object.keys(entry?.headers ?? {})).not.toContain('www-authenticate');
    const dump = cache.dump();
    for (const secret of ['COOKIE_SECRET', 'WWW_AUTH_REALM', 'REQ_HEADER_VALUE', 'x-request-secret']) {
      expect(dump).not.toContain(secret);
    }
    // A hit serves the stored headers: no cookie comes back from the store either.
    const hit = ok(await client.request({ ...packumentRequest(), headers: { accept: 'application/json', 'x-request-secret': 'REQ_HEADER_VALUE' } }));
    expect(hit.headers['set-cookie']).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('keeps one entry per credential and stores neither credential', async () => {
    const tokens = ['Bearer TOKEN_ALPHA_123', 'Bearer TOKEN_BETA_456'];
    let current = tokens[0];
    server.route('GET', '/npm/private', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', etag: '"e"' });
      res.end(JSON.stringify({ seenBy: req.headers.authorization === tokens[0] ? 'alpha' : 'beta' }));
    });
    const client = cached({ credentialFor: () => current }, { authFor: () => current });
    const url = `${server.url('npm')}/private`;
    expect(json(await client.request({ url }))).toEqual({ seenBy: 'alpha' });
    current = tokens[1];
    expect(json(await client.request({ url }))).toEqual({ seenBy: 'beta' });
    current = tokens[0];
    expect(json(await client.request({ url }))).toEqual({ seenBy: 'alpha' });
    current = tokens[1];
    expect(json(await client.request({ url }))).toEqual({ seenBy: 'beta' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(tokens);
    expect(cache.entries.size).toBe(2);
    const dump = cache.dump();
    for (const secret of ['TOKEN_ALPHA_123', 'TOKEN_BETA_456', 'Bearer']) expect(dump).not.toContain(secret);
    expect(client.stats()).toEqual({ hits: 2, misses: 2, revalidated: 0, requests: 4 });
  });

  it('keeps one entry per POST body (OSV querybatch)', async () => {
    server.route('POST', '/osv/v1/querybatch', (_req, res, { body }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: JSON.parse(body.toString('utf8')) }));
    });
    const client = cached();
    const post = (name: string): HttpRequest => ({
      url: `${server.url('osv')}/v1/querybatch`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ queries: [{ package: { ecosystem: 'npm', name } }] }),
    });
    const a = json(await client.request(post('left-pad')));
    const b = json(await client.request(post('express')));
    expect(a).not.toEqual(b);
    expect(json(await client.request(post('left-pad')))).toEqual(a);
    expect(json(await client.request(post('express')))).toEqual(b);
    expect(server.requests).toHaveLength(2);
    expect(cache.entries.size).toBe(2);
    // The key holds a hash of the body, not the body.
    expect([...cache.entries.keys()].join('\n')).not.toContain('left-pad');
  });

  it('keeps one entry per accept header', async () => {
    server.route('GET', '/npm/demo', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ accept: req.headers.accept }));
    });
    const client = cached();
    const corgi = 'application/vnd.npm.install-v1+json';
    await client.request({ url: `${server.url('npm')}/demo`, headers: { accept: 'application/json' } });
    await client.request({ url: `${server.url('npm')}/demo`, headers: { Accept: corgi } });
    expect(json(await client.request({ url: `${server.url('npm')}/demo`, headers: { accept: corgi } }))).toEqual({ accept: corgi });
    expect(server.requests).toHaveLength(2);
    expect(cache.entries.size).toBe(2);
  });
});

describe('no-cache mode', () => {
  it('sends the request despite a fresh entry, and writes the fresh answer', async () => {
    server
      .expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 })
      .expect('GET', '/npm/demo', { body: PACKUMENT_V2, headers: { etag: '"v2"' }, times: 1 });
    await cached().request(packumentRequest());
    const bypass = cached({ mode: 'no-cache' });
    expect(json(await bypass.request(packumentRequest()))).toEqual(PACKUMENT_V2);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(bypass.stats()).toEqual({ hits: 0, misses: 1, revalidated: 0, requests: 1 });
    // The fresh answer was written: a normal run now serves it without a request.
    expect(json(await cached().request(packumentRequest()))).toEqual(PACKUMENT_V2);
    expect(server.requests).toHaveLength(2);
  });
});

describe('offline mode', () => {
  it('serves even a stale entry and makes no request', async () => {
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1, headers: { etag: '"v1"' }, times: 1 });
    await cached().request(packumentRequest());
    clock += 365 * 24 * 60 * MINUTE;
    const offline = cached({ mode: 'offline' });
    expect(json(await offline.request(packumentRequest()))).toEqual(PACKUMENT_V1);
    expect(server.requests).toHaveLength(1);
    expect(offline.stats()).toEqual({ hits: 1, misses: 0, revalidated: 0, requests: 1 });
  });

  it('answers a miss with a network failure naming offline and the host, without a request', async () => {
    const offline = cached({ mode: 'offline' });
    const result = failed(await offline.request(packumentRequest()));
    expect(result.kind).toBe('network');
    expect(result.reason).toBe(`offline: 127.0.0.1:${server.port} not in the store`);
    expect(server.requests).toHaveLength(0);
    expect(offline.stats()).toEqual({ hits: 0, misses: 1, revalidated: 0, requests: 1 });
  });

  it('never calls the inner client, with or without a store', async () => {
    const calls: HttpRequest[] = [];
    const spy: HttpClient = {
      request: async (req) => {
        calls.push(req);
        return { ok: false, kind: 'network', reason: 'should not be called' };
      },
      close: async () => {},
    };
    for (const store of [cache, null]) {
      const offline = createCachedHttpClient(spy, { cache: store, mode: 'offline', freshnessFor: () => 0 });
      expect(failed(await offline.request({ url: 'http://127.0.0.1:9/x' })).reason).toMatch(/^offline: /);
    }
    expect(calls).toEqual([]);
  });
});

describe('robustness', () => {
  it('treats a failing store as empty and still answers', async () => {
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1 });
    const broken: HttpCacheStore = {
      get: () => {
        throw new Error('SQLITE_NOTADB');
      },
      put: () => {
        throw new Error('SQLITE_FULL');
      },
      touch: () => {},
      stats: () => ({ entries: 0, bytes: 0, lastRun: null, evicted: { entries: 0, bytes: 0 } }),
      recordRun: () => {},
      clear: () => {},
      prune: () => {},
    };
    const client = createCachedHttpClient(inner(), { cache: broken, mode: 'normal', freshnessFor: () => MINUTE });
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V1);
    expect(json(await client.request(packumentRequest()))).toEqual(PACKUMENT_V1);
    expect(server.requests).toHaveLength(2);
  });

  it('answers too-large when a stored body exceeds the request cap', async () => {
    server.expect('GET', '/npm/demo', { body: PACKUMENT_V1 });
    const client = cached();
    await client.request(packumentRequest());
    const result = failed(await client.request({ ...packumentRequest(), maxBytes: 4 }));
    expect(result.kind).toBe('too-large');
    expect(server.requests).toHaveLength(1);
  });

  it('passes a request carrying its own validators through, uncached', async () => {
    server.expect('GET', '/npm/demo', { status: 304 });
    const client = cached();
    const result = failed(await client.request({ ...packumentRequest(), headers: { 'If-None-Match': '"mine"' } }));
    expect(result.status).toBe(304);
    expect(cache.entries.size).toBe(0);
  });

  it('close() closes the inner client', async () => {
    let closed = 0;
    const client = createCachedHttpClient(
      { request: async () => ({ ok: false, kind: 'network', reason: 'x' }), close: async () => void (closed += 1) },
      { cache, mode: 'normal', freshnessFor: () => MINUTE },
    );
    await client.close();
    expect(closed).toBe(1);
  });
});

describe('cacheKey / storableHeaders', () => {
  const base: HttpRequest = { url: 'http://127.0.0.1/npm/demo', headers: { accept: 'application/json' } };

  it.each([
    ['method', { ...base, method: 'POST' as const }],
    ['URL', { ...base, url: 'http://127.0.0.1/npm/other' }],
    ['accept', { ...base, headers: { accept: 'text/plain' } }],
    ['body', { ...base, method: 'GET' as const, body: '{}' }],
    ['caller authorization header', { ...base, headers: { accept: 'application/json', Authorization: 'Bearer X' } }],
  ])('varies with the %s', (_label, other) => {
    expect(cacheKey(other, undefined)).not.toBe(cacheKey(base, undefined));
  });

  it('varies with the credential but never contains it', () => {
    const a = cacheKey(base, 'Bearer SECRET_A');
    const b = cacheKey(base, 'Bearer SECRET_B');
    expect(a).not.toBe(b);
    expect(a).not.toBe(cacheKey(base, undefined));
    expect(`${a}${b}`).not.toMatch(/SECRET|Bearer/);
    expect(cacheKey(base, 'Bearer SECRET_A')).toBe(a);
  });

  it('does not vary with other request headers', () => {
    expect(cacheKey({ ...base, headers: { accept: 'application/json', 'user-agent': 'x' } }, undefined)).toBe(cacheKey(base, undefined));
  });

  it('drops credential and cookie headers, lower-casing the rest', () => {
    expect(
      storableHeaders({
        'Set-Cookie': 'a=b',
        authorization: 'x',
        'Proxy-Authorization': 'y',
        'WWW-Authenticate': 'z',
        ETag: '"e"',
        'content-type': 'application/json',
      }),
    ).toEqual({ etag: '"e"', 'content-type': 'application/json' });
  });
});

describe('streamed bodies', () => {
  const collect = async (body: AsyncIterable<Buffer>): Promise<string> => {
    const parts: Buffer[] = [];
    for await (const chunk of body) parts.push(chunk);
    return Buffer.concat(parts).toString();
  };

  it('are streamed from the network and never stored', async () => {
    server.expect('GET', '/npm/demo/-/demo-1.0.0.tgz', { body: 'tarball bytes' });
    const client = cached();
    const res = await client.stream!({ url: `${server.url('npm')}/demo/-/demo-1.0.0.tgz` }, collect);
    expect(res).toMatchObject({ ok: true, value: 'tarball bytes' });
    expect(cache.entries.size).toBe(0);
    expect(client.stats()).toMatchObject({ requests: 1, misses: 1, hits: 0 });
  });

  it('are served from an entry an earlier run stored, online while fresh and offline however old', async () => {
    const url = `${server.url('npm')}/demo/-/demo-1.0.0.tgz`;
    server.expect('GET', '/npm/demo/-/demo-1.0.0.tgz', { body: 'stored bytes', times: 1 });
    ok(await cached().request({ url }));
    expect(cache.entries.size).toBe(1);
    // No route is left on the server: a request would be answered 599.
    expect(await cached().stream!({ url }, collect)).toMatchObject({ ok: true, value: 'stored bytes' });
    clock += 60 * MINUTE;
    expect(await cached({ mode: 'offline' }).stream!({ url }, collect)).toMatchObject({ ok: true, value: 'stored bytes' });
    expect(await cached({ mode: 'offline' }).stream!({ url: `${url}x` }, collect)).toMatchObject({ ok: false, kind: 'network' });
    expectNoUnexpected(server);
  });
});

/**
 * The caching HTTP client (README, "The local store"): a decorator over any HttpClient that answers from the
 * local store (HttpCacheStore) and revalidates stale answers.
 *
 * - `normal`: a fresh entry is served with no request; a stale one that has an ETag or a
 *   Last-Modified is revalidated (`If-None-Match` / `If-Modified-Since`) — a 304 touches the
 *   entry and serves its body as a 200, a 200 replaces it, and any failure is returned as is
 *   (stale data is never passed off as fresh: the caller's source marks itself unavailable).
 * - `no-cache`: never reads the store, still writes fresh answers to it.
 * - `offline`: never calls the inner client; serves whatever the store holds (even stale),
 *   and a miss is a network failure naming offline.
 *
 * Keys hold the method, URL, `accept` header, a sha256 of a POST body and a sha256 of the
 * credential the request is sent with — never the credential. No request header is stored,
 * and credential / cookie headers are dropped from stored responses. Only 200 answers are
 * stored. A streamed body (`stream`: a tarball) is never stored, only served from an entry an
 * earlier run stored: what its reader derives is kept in the facts cache instead. Like every HttpClient, `request` never throws: a failing store is treated as empty.
 */
import { createHash } from 'node:crypto';
import type { CachedResponse, HttpCacheStore } from '../../store/types.js';
import { DEFAULT_MAX_BYTES, formatBytes } from './client.js';
import { streamBody } from './stream.js';
import type { BodyConsumer, HttpClient, HttpFailure, HttpRequest, HttpResponse, HttpResult, HttpStreamResult } from './types.js';

export type CacheMode = 'normal' | 'no-cache' | 'offline';

export interface CachedHttpOptions {
  /** The store; null runs without one (offline then answers nothing). */
  cache: HttpCacheStore | null;
  mode: CacheMode;
  /** How long an answer to `req` stays fresh, in ms; 0 = do not cache it (see freshness.ts). */
  freshnessFor: (req: HttpRequest) => number;
  /** `--max-age`: replaces every non-zero freshness (0 = always revalidate). */
  maxAgeMs?: number;
  /**
   * Whether an answer of `bytes` to `req` is worth a place in the store (default: every one). A
   * huge body whose facts are kept in the facts cache (a platform binary's 40 MB tarball) would
   * otherwise evict everything else from the size-capped store (freshness.ts, `storesBody`).
   */
  storeBody?: (req: HttpRequest, bytes: number) => boolean;
  /** The credential the inner client sends for `url` (its Authorization value), hashed into the key. */
  credentialFor?: (url: string) => string | undefined;
  /**
   * Answers with a larger body are not stored (default: no limit): a few platform-binary
   * tarballs would otherwise fill the store and evict everything else, leaving --offline with
   * nothing. What nerq reads from them is kept in the facts cache anyway.
   */
  maxEntryBytes?: number;
  now?: () => number;
}

export interface CacheRunStats {
  /** Served from the store without a request. */
  hits: number;
  /** Sent (or, offline, not in the store): whatever the answer. */
  misses: number;
  /** Revalidated: the server answered 304. */
  revalidated: number;
  /** Every call to `request`; always hits + misses + revalidated. */
  requests: number;
}

export type CachedHttpClient = HttpClient & { stats(): CacheRunStats };

/** Response headers never stored (credentials, cookies, connection-level headers). */
export const UNSTORED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'set-cookie2',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

const CONDITIONAL_HEADERS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'];

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A request header by name, case-insensitively. */
function headerOf(req: HttpRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(req.headers ?? {})) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/**
 * The cache key of a request: method, URL, `accept`, and sha256 hashes of the body and of the
 * credential (`credential`, and any Authorization header the caller set). Never a secret.
 */
export function cacheKey(req: HttpRequest, credential: string | undefined): string {
  const method = req.method ?? 'GET';
  const accept = headerOf(req, 'accept') ?? '';
  const body = req.body === undefined ? '-' : sha256(req.body);
  const secrets = [credential, headerOf(req, 'authorization')].filter((s): s is string => s !== undefined && s !== '');
  const cred = secrets.length === 0 ? '-' : sha256(secrets.join('\n'));
  return JSON.stringify([method, req.url, accept, body, cred]);
}

/** The response headers worth storing: all but UNSTORED_RESPONSE_HEADERS. */
export function storableHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!UNSTORED_RESPONSE_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

/** `Cache-Control: no-store` forbids keeping the answer at all. */
function forbidsStoring(headers: Record<string, string>): boolean {
  const control = headers['cache-control'];
  return control !== undefined && /(^|,)\s*no-store\s*(,|$)/i.test(control);
}

function served(entry: CachedResponse): HttpResponse {
  return { ok: true, status: 200, headers: { ...entry.headers }, body: entry.body, url: entry.url };
}

/** Wrap `inner` with the store. The returned client's `close()` closes `inner` (not the store). */
export function createCachedHttpClient(inner: HttpClient, options: CachedHttpOptions): CachedHttpClient {
  const now = options.now ?? Date.now;
  const counts: CacheRunStats = { hits: 0, misses: 0, revalidated: 0, requests: 0 };
  const { cache, mode } = options;
  const maxAge = options.maxAgeMs === undefined || !(options.maxAgeMs >= 0) ? undefined : options.maxAgeMs;

  // A store that fails (locked, corrupt, full) must not fail the request: it is treated as
  // empty, and writes are best effort.
  const read = (key: string): CachedResponse | undefined => {
    try {
      return cache?.get(key);
    } catch {
      return undefined;
    }
  };
  const attempt = (write: (store: HttpCacheStore) => void): void => {
    if (cache === null) return;
    try {
      write(cache);
    } catch {
      // best effort
    }
  };

  /** An entry whose body exceeds the request's cap is answered as the inner client would. */
  const fromStore = (req: HttpRequest, entry: CachedResponse): HttpResult => {
    const max = req.maxBytes ?? DEFAULT_MAX_BYTES;
    if (entry.body.length > max) {
      const failure: HttpFailure = { ok: false, kind: 'too-large', reason: `response from ${hostOf(entry.url)} exceeded the ${formatBytes(max)} limit` };
      return failure;
    }
    return served(entry);
  };

  /** Keep a 200 answer (only 200s: a packument's 404 is not cached in this step). */
  const keep = (req: HttpRequest, res: HttpResult, key: string): void => {
    if (!res.ok || res.status !== 200 || forbidsStoring(res.headers)) return;
    if (options.maxEntryBytes !== undefined && res.body.length > options.maxEntryBytes) return;
    if (options.storeBody !== undefined && !options.storeBody(req, res.body.length)) return;
    const headers = storableHeaders(res.headers);
    const entry: CachedResponse = {
      key,
      url: res.url,
      status: 200,
      headers,
      body: res.body,
      ...(res.wireGzip === undefined ? {} : { wireGzip: res.wireGzip }),
      etag: headers.etag ?? null,
      lastModified: headers['last-modified'] ?? null,
      fetchedAt: now(),
    };
    attempt((store) => store.put(entry));
  };

  const send = async (req: HttpRequest, key: string | undefined): Promise<HttpResult> => {
    const res = await inner.request(req);
    if (key !== undefined) keep(req, res, key);
    return res;
  };

  async function request(req: HttpRequest): Promise<HttpResult> {
    counts.requests += 1;
    const policy = safeFreshness(options.freshnessFor, req);
    // A request that carries its own validators is the caller's business: pass it through.
    const callerConditional = CONDITIONAL_HEADERS.some((name) => headerOf(req, name) !== undefined);
    const cacheable = policy > 0 && !callerConditional;
    const key = cacheable ? keyFor(req, options.credentialFor) : undefined;

    if (mode === 'offline') {
      const entry = key === undefined ? undefined : read(key);
      if (entry !== undefined) {
        counts.hits += 1;
        return fromStore(req, entry);
      }
      counts.misses += 1;
      return { ok: false, kind: 'network', reason: `offline: ${hostOf(req.url)} not in the store` };
    }

    if (key === undefined || mode === 'no-cache') {
      counts.misses += 1;
      return send(req, key);
    }

    const entry = read(key);
    if (entry === undefined) {
      counts.misses += 1;
      return send(req, key);
    }
    const freshFor = maxAge ?? policy;
    if (now() - entry.fetchedAt < freshFor) {
      counts.hits += 1;
      return fromStore(req, entry);
    }
    if (entry.etag === null && entry.lastModified === null) {
      counts.misses += 1;
      return send(req, key);
    }

    const headers: Record<string, string> = { ...req.headers };
    if (entry.etag !== null) headers['if-none-match'] = entry.etag;
    if (entry.lastModified !== null) headers['if-modified-since'] = entry.lastModified;
    const res = await inner.request({ ...req, headers });
    if (!res.ok && res.kind === 'status' && res.status === 304) {
      counts.revalidated += 1;
      const fetchedAt = now();
      attempt((store) => store.touch(key, fetchedAt));
      return fromStore(req, { ...entry, fetchedAt });
    }
    // A 200 replaces the entry; a failure (network, 5xx, 404…) is returned as is, and the
    // stale entry stays for a later run.
    counts.misses += 1;
    keep(req, res, key);
    return res;
  }

  /** Served from a usable entry as one piece, else streamed from the network and not stored. */
  async function stream<T>(req: HttpRequest, consume: BodyConsumer<T>): Promise<HttpStreamResult<T>> {
    counts.requests += 1;
    const policy = safeFreshness(options.freshnessFor, req);
    const callerConditional = CONDITIONAL_HEADERS.some((name) => headerOf(req, name) !== undefined);
    const key = policy > 0 && !callerConditional ? keyFor(req, options.credentialFor) : undefined;
    const entry = key === undefined || mode === 'no-cache' ? undefined : read(key);
    if (entry !== undefined && (mode === 'offline' || now() - entry.fetchedAt < (maxAge ?? policy))) {
      counts.hits += 1;
      const res = fromStore(req, entry);
      if (!res.ok) return res;
      return { ok: true, status: res.status, headers: res.headers, value: await consume(onePiece(res.body)), url: res.url };
    }
    counts.misses += 1;
    if (mode === 'offline') return { ok: false, kind: 'network', reason: `offline: ${hostOf(req.url)} not in the store` };
    return streamBody(inner, req, consume);
  }

  return {
    request,
    stream,
    close: (options) => inner.close(options),
    stats: () => ({ ...counts }),
  };
}

async function* onePiece(body: Buffer): AsyncGenerator<Buffer> {
  yield body;
}

function safeFreshness(freshnessFor: (req: HttpRequest) => number, req: HttpRequest): number {
  try {
    const ms = freshnessFor(req);
    return Number.isFinite(ms) && ms > 0 ? ms : 0;
  } catch {
    return 0;
  }
}

/** The key, or undefined (do not cache) when the credential cannot be told. */
function keyFor(req: HttpRequest, credentialFor: ((url: string) => string | undefined) | undefined): string | undefined {
  try {
    return cacheKey(req, credentialFor?.(req.url));
  } catch {
    return undefined;
  }
}

/**
 * A loopback HTTP server for tests: serves recorded fixtures at the real API paths, under a
 * per-source prefix, and fails the test on any route it was not told to expect.
 *
 * - `fixtures/http/<source>/<path>` (or `<path>.json`) answers `GET /<source>/<path>`; the
 *   request path is percent-decoded first, so `/npm/@scope%2fpkg` and `/npm/%40scope%2Fpkg`
 *   both map to `fixtures/http/npm/@scope/pkg.json`.
 * - Text bodies get `{{REGISTRY}}` replaced by `http://127.0.0.1:PORT/npm` (and `{{ORIGIN}}`
 *   by `http://127.0.0.1:PORT`), so recorded tarball URLs point back here.
 * - `expect(method, path, response?)` declares a route; the response can be the fixture for
 *   the path (default), another fixture, an inline body, or a fault (delay, status, reset,
 *   truncated or malformed body), used `times` times or forever. `route()` takes a handler for
 *   generated responses. Anything else is answered 599 and recorded in `unexpected`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, expect as vitestExpect } from 'vitest';

/** Where recorded responses live: `<repo>/fixtures/http`. */
export const FIXTURES_ROOT = fileURLToPath(new URL('../../fixtures/http/', import.meta.url));

export interface FixtureResponse {
  /** Status (default 200; a non-2xx status without a body answers a small JSON error). */
  status?: number;
  headers?: Record<string, string>;
  /** Inline body; an object is sent as JSON. Strings get the placeholders filled in. */
  body?: string | Buffer | object;
  /** A fixture file (relative to the fixtures root) instead of the one for the request path. */
  fixture?: string;
  /** Wait this long before answering (for timeout tests). */
  delayMs?: number;
  /** Destroy the socket (TCP reset) instead of answering. */
  reset?: boolean;
  /** Send only this many body bytes under a larger Content-Length, then close. */
  truncate?: number;
  /** Answer 200 with an invalid JSON body. */
  malformed?: boolean;
  /** Compress the body and set Content-Encoding. */
  encoding?: 'gzip' | 'br' | 'deflate';
  /** Serve this response this many times, then fall through to the next one (default: forever). */
  times?: number;
}

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  context: { url: URL; body: Buffer; server: FixtureServer },
) => void | Promise<void>;

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received (still percent-encoded). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the request target was absolute (the request came through us as a proxy). */
  proxied: boolean;
}

export interface UnexpectedRequest {
  method: string;
  path: string;
  reason: string;
}

export interface FixtureServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** `http://127.0.0.1:PORT/<prefix>` (no trailing slash), or the origin without a prefix. */
  url(prefix?: string): string;
  /** Declare a route (`path` may be percent-encoded or not; a `?query` must then match too). */
  expect(method: string, path: string, response?: FixtureResponse): FixtureServer;
  /** Declare a route answered by `handler`. */
  route(method: string, path: string, handler: RouteHandler): FixtureServer;
  /**
   * Answer every request under `prefix` (a path ending in `/`) that no exact route takes, with
   * `response` (a fixture file for the request path by default) — e.g. a whole recorded API.
   */
  fallback(method: string, prefix: string, response?: FixtureResponse): FixtureServer;
  /** Like `fallback`, answered by `handler` (e.g. a bulk API whose path lists many names). */
  routePrefix(method: string, prefix: string, handler: RouteHandler): FixtureServer;
  /**
   * Add the headers `headers` gives (called once per answer, as answers are sent) to every
   * declared answer under `prefix` (a path ending in `/`; a handler's answers are its own) — e.g.
   * GitHub's rate-limit budget counting down. A route's own headers win.
   */
  decorate(prefix: string, headers: (path: string) => Record<string, string>): FixtureServer;
  readonly requests: RecordedRequest[];
  readonly unexpected: UnexpectedRequest[];
  /** Routes declared with `times` that were not used up, as `METHOD /path` strings. */
  pending(): string[];
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** Directory holding `<source>/…` fixture files (default: the repository's fixtures/http). */
  root?: string;
}

interface Route {
  method: string;
  pathname: string;
  query: string | undefined;
  response?: FixtureResponse;
  handler?: RouteHandler;
  remaining: number;
  declared: string;
  /** Matches every path under `pathname` (checked after the exact routes). */
  prefix?: boolean;
}

const TEXT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.csv': 'text/csv',
  '.yml': 'text/yaml',
  '.yaml': 'text/yaml',
  '.svg': 'image/svg+xml',
};

const MAX_RECORDED_BODY = 1024 * 1024;

/** Decode a path for matching; undefined when it is not valid percent-encoding. */
function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

function normaliseQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.sort();
  return params.toString();
}

/** The fixture file for a decoded request path (exact file, else `<path>.json`), inside `root`. */
export function fixtureFileFor(root: string, decodedPath: string): string | undefined {
  const segments = decodedPath.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.some((s) => s === '..' || s === '.' || s.includes('\0') || s.includes('\\'))) {
    return undefined;
  }
  const base = path.resolve(root, ...segments);
  if (!base.startsWith(path.resolve(root) + path.sep)) return undefined;
  for (const candidate of [base, `${base}.json`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Settings files recorded under their own names (no extension): text, their registry origin a placeholder. */
const TEXT_NAMES = new Set(['.npmrc', '.yarnrc']);

function contentTypeOf(file: string): { type: string; text: boolean } {
  if (TEXT_NAMES.has(path.basename(file))) return { type: 'text/plain; charset=utf-8', text: true };
  const ext = path.extname(file).toLowerCase();
  const text = TEXT_TYPES[ext];
  return text === undefined ? { type: 'application/octet-stream', text: false } : { type: text, text: true };
}

function encode(body: Buffer, encoding: NonNullable<FixtureResponse['encoding']>): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  if (encoding === 'br') return zlib.brotliCompressSync(body);
  return zlib.deflateSync(body);
}

const STATUS_TEXT: Record<number, string> = { 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** Start a fixture server on 127.0.0.1 (a free port). */
export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const root = path.resolve(options.root ?? FIXTURES_ROOT);
  const routes: Route[] = [];
  const decorations: { prefix: string; headers: (path: string) => Record<string, string> }[] = [];
  const requests: RecordedRequest[] = [];
  const unexpected: UnexpectedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let origin = '';

  const fill = (text: string): string =>
    text.replaceAll('{{REGISTRY}}', `${origin}/npm`).replaceAll('{{ORIGIN}}', origin);

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function findRoute(method: string, decoded: string, search: string): Route | undefined {
    const query = normaliseQuery(search);
    const exact = routes.find(
      (route) =>
        route.remaining > 0 &&
        route.prefix !== true &&
        route.method === method &&
        route.pathname === decoded &&
        (route.query === undefined || route.query === query),
    );
    return (
      exact ??
      routes.find((route) => route.prefix === true && route.method === method && decoded.startsWith(route.pathname))
    );
  }

  function reject(res: ServerResponse, entry: UnexpectedRequest): void {
    unexpected.push(entry);
    res.writeHead(599, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`fixture server: ${entry.reason}: ${entry.method} ${entry.path}\n`);
  }

  /** Body and headers for a declared response (not a fault that skips the body). */
  function bodyFor(route: Route, decoded: string, spec: FixtureResponse): { status: number; headers: Record<string, string>; body: Buffer } | string {
    const status = spec.status ?? 200;
    const headers: Record<string, string> = {};
    let body: Buffer;
    if (spec.malformed) {
      headers['content-type'] = 'application/json';
      body = Buffer.from('{"name": "malformed", "versions": {"1.0.0": ');
    } else if (spec.body !== undefined) {
      if (Buffer.isBuffer(spec.body)) {
        headers['content-type'] = 'application/octet-stream';
        body = spec.body;
      } else if (typeof spec.body === 'string') {
        headers['content-type'] = 'text/plain; charset=utf-8';
        body = Buffer.from(fill(spec.body));
      } else {
        headers['content-type'] = 'application/json';
        body = Buffer.from(fill(JSON.stringify(spec.body)));
      }
    } else if (spec.fixture === undefined && (status < 200 || status > 299)) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify({ error: STATUS_TEXT[status] ?? `HTTP ${status}` }));
    } else {
      const file = spec.fixture === undefined ? fixtureFileFor(root, decoded) : fixtureFileFor(root, spec.fixture);
      if (file === undefined) return `no fixture file for ${route.declared}`;
      const { type, text } = contentTypeOf(file);
      headers['content-type'] = type;
      const raw = readFileSync(file);
      body = text ? Buffer.from(fill(raw.toString('utf8'))) : raw;
    }
    if (spec.encoding !== undefined) {
      body = encode(body, spec.encoding);
      headers['content-encoding'] = spec.encoding;
    }
    for (const decoration of decorations) if (decoded.startsWith(decoration.prefix)) Object.assign(headers, decoration.headers(decoded));
    Object.assign(headers, Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])));
    return { status, headers, body };
  }

  async function answer(route: Route, req: IncomingMessage, res: ServerResponse, decoded: string, url: URL, reqBody: Buffer): Promise<void> {
    if (route.handler !== undefined) {
      await route.handler(req, res, { url, body: reqBody, server });
      return;
    }
    const spec = route.response ?? {};
    if (spec.delayMs !== undefined) {
      await wait(spec.delayMs);
      if (req.socket.destroyed) return;
    }
    if (spec.reset) {
      req.socket.resetAndDestroy();
      return;
    }
    const built = bodyFor(route, decoded, spec);
    if (typeof built === 'string') {
      reject(res, { method: req.method ?? '', path: req.url ?? '', reason: built });
      return;
    }
    const { status, headers, body } = built;
    if (spec.truncate !== undefined) {
      const sent = body.subarray(0, spec.truncate);
      res.writeHead(status, { ...headers, 'content-length': String(Math.max(body.length, sent.length + 1)) });
      res.write(sent, () => res.socket?.destroy());
      return;
    }
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  }

  const server: FixtureServer = {
    get port() {
      return Number(new URL(origin).port);
    },
    get origin() {
      return origin;
    },
    url(prefix) {
      return prefix === undefined || prefix === '' ? origin : `${origin}/${prefix.replace(/^\/+|\/+$/g, '')}`;
    },
    expect(method, routePath, response) {
      return addRoute(method, routePath, { ...(response === undefined ? {} : { response }), remaining: response?.times ?? Infinity });
    },
    route(method, routePath, handler) {
      return addRoute(method, routePath, { handler, remaining: Infinity });
    },
    fallback(method, prefix, response) {
      if (!prefix.endsWith('/')) throw new Error(`fixture server: a fallback prefix ends with /: ${prefix}`);
      return addRoute(method, prefix, { ...(response === undefined ? {} : { response }), remaining: Infinity, prefix: true });
    },
    routePrefix(method, prefix, handler) {
      if (!prefix.endsWith('/')) throw new Error(`fixture server: a route prefix ends with /: ${prefix}`);
      return addRoute(method, prefix, { handler, remaining: Infinity, prefix: true });
    },
    decorate(prefix, headers) {
      if (!prefix.endsWith('/')) throw new Error(`fixture server: a decorated prefix ends with /: ${prefix}`);
      decorations.push({ prefix, headers });
      return server;
    },
    requests,
    unexpected,
    pending() {
      return routes.filter((r) => r.remaining !== Infinity && r.remaining > 0).map((r) => `${r.method} ${r.declared}`);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };

  function addRoute(method: string, routePath: string, rest: Pick<Route, 'response' | 'handler' | 'remaining' | 'prefix'>): FixtureServer {
    const parsed = new URL(routePath, 'http://fixture.invalid');
    const decoded = decodePath(parsed.pathname);
    if (decoded === undefined) throw new Error(`fixture server: invalid route path ${routePath}`);
    routes.push({
      method: method.toUpperCase(),
      pathname: decoded,
      query: parsed.search === '' ? undefined : normaliseQuery(parsed.search),
      declared: routePath,
      ...rest,
    });
    return server;
  }

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_RECORDED_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const reqBody = Buffer.concat(chunks);
      const target = req.url ?? '/';
      const url = new URL(target, origin);
      const method = (req.method ?? 'GET').toUpperCase();
      const recordedPath = `${url.pathname}${url.search}`;
      requests.push({
        method,
        path: recordedPath,
        headers: req.headers,
        body: reqBody.toString('utf8'),
        proxied: /^https?:\/\//i.test(target),
      });
      const decoded = decodePath(url.pathname);
      if (decoded === undefined) {
        reject(res, { method, path: recordedPath, reason: 'invalid percent-encoding' });
        return;
      }
      const route = findRoute(method, decoded, url.search);
      if (route === undefined) {
        reject(res, { method, path: recordedPath, reason: 'unexpected request' });
        return;
      }
      route.remaining -= 1;
      answer(route, req, res, decoded, url, reqBody).catch((error: unknown) => {
        unexpected.push({ method, path: recordedPath, reason: `handler failed: ${String(error)}` });
        if (!res.headersSent) res.writeHead(599);
        res.end();
      });
    });
  });

  await new Promise<void>((resolve, rejectListen) => {
    http.once('error', rejectListen);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return server;
}

/** Fail the test when the server saw a request it was not told to expect. */
export function expectNoUnexpected(server: FixtureServer): void {
  vitestExpect(server.unexpected, 'requests the fixture server did not expect').toEqual([]);
}

/**
 * For a file that starts and closes its fixture servers itself: after each of its tests, every
 * server `servers` names is checked for requests it did not expect (a route nobody declared, a
 * fallback with no fixture file for the path — both answered 599 and recorded in `unexpected`),
 * so a stray request fails the test that made it instead of passing unseen. Call it after the
 * file's own `afterEach` clean-up: after-hooks run last-declared first, so the check comes before it.
 */
export function expectNoUnexpectedRequests(servers: () => FixtureServer | undefined | readonly (FixtureServer | undefined)[]): void {
  afterEach(() => {
    for (const server of [servers()].flat()) if (server !== undefined) expectNoUnexpected(server);
  });
}

/**
 * A fresh fixture server for each test of the file that calls this at its top level (started
 * before each test; after it, no unexpected request, then closed): the set-up most HTTP tests share.
 */
export function useFixtureServer(options: FixtureServerOptions = {}): { readonly server: FixtureServer } {
  const world = {} as { server: FixtureServer };
  beforeEach(async () => {
    world.server = await startFixtureServer(options);
  });
  afterEach(async () => {
    expectNoUnexpected(world.server);
    await world.server.close();
  });
  return world;
}

/**
 * One fixture server for all the tests of the file that calls this at its top level: started
 * before them and given to `ready` to declare its routes; after each test, no unexpected
 * request; closed after the last.
 */
export function useSharedFixtureServer(ready: (server: FixtureServer) => void | Promise<void>): void {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
    await ready(server);
  });
  afterEach(() => expectNoUnexpected(server!));
  afterAll(async () => {
    await server?.close();
  });
}

/**
 * A starter of fixture servers (`start`'s, by default plain ones) for the tests of the file that
 * calls this at its top level, each test starting as many as it needs (in its body or its
 * helpers): after the test, every server it started is checked for unexpected requests, then closed.
 */
export function useFixtureServers(start: () => Promise<FixtureServer> = () => startFixtureServer()): () => Promise<FixtureServer> {
  const started: FixtureServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) {
      expectNoUnexpected(server);
      await server.close();
    }
  });
  return async () => {
    const server = await start();
    started.push(server);
    return server;
  };
}

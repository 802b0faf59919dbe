/**
 * The bench's loopback server: every API nerq talks to (npm registry, downloads, OSV, GitHub
 * REST and GraphQL) under one origin, one prefix per service (the layout of the test fixture
 * server: `/npm`, `/npm-api`, `/osv`, `/github`, …), answering from the generated world in
 * memory, with injected latency, and logging every request's start, end and path.
 *
 * Latency model:
 * - each request is answered `latencyMs` after it arrived (one round trip plus server time);
 * - each new TCP connection is held `connectLatencyMs` before its first byte is read (the
 *   handshake's round trip; TLS is not simulated), so keep-alive pays off as it does for real;
 * - no bandwidth limit: a body is written as fast as loopback takes it.
 *
 * Log times are milliseconds on the monotonic clock (`performance.now()`), shared with the
 * harness, which runs in the same process. The first request on a connection starts when the
 * connection was accepted: the client was already waiting for it.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { answerGraphql } from './generate/github-graphql.js';
import { answerRest } from './generate/github-rest.js';
import { answerQueryBatch, type BatchQuery } from './generate/osv.js';
import type { World } from './generate/world.js';

export type Service = 'npm' | 'npm-api' | 'osv' | 'github' | 'pypi' | 'pypistats' | 'other';

export interface RequestRecord {
  method: string;
  /** Path and query as received (still percent-encoded). */
  path: string;
  service: Service;
  status: number;
  /** Body bytes sent (compressed size when compressed). */
  bytes: number;
  /** ms (performance.now) when the client started waiting: arrival, or connection accept for a connection's first request. */
  start: number;
  /** ms when the response was handed to the socket in full (or the request was abandoned). */
  end: number;
  /** False for a route this server does not implement (answered 404 JSON). */
  known: boolean;
  /** True when the client gave up before the answer was complete. */
  aborted: boolean;
}

export interface BenchServer {
  readonly origin: string;
  /** `origin/prefix`, no trailing slash. */
  url(prefix: string): string;
  /** Requests completed (or abandoned) since the last reset, in completion order. */
  readonly log: readonly RequestRecord[];
  /** Requests still being answered. */
  inFlight(): number;
  resetLog(): void;
  setWorld(world: World): void;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  latencyMs: number;
  connectLatencyMs: number;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  known: boolean;
  /** The body is gzip; sent as such when the client accepts gzip, else inflated. */
  gzipped?: boolean;
}

const json = (status: number, value: unknown, known: boolean, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(JSON.stringify(value)),
  known,
});

const GITHUB_HEADERS = (now: Date): Record<string, string> => ({
  'x-ratelimit-limit': '5000',
  'x-ratelimit-remaining': '4999',
  'x-ratelimit-used': '1',
  'x-ratelimit-reset': String(Math.floor(now.getTime() / 1000) + 3600),
  'x-ratelimit-resource': 'core',
  'x-github-api-version-selected': '2022-11-28',
});

function serviceOf(pathname: string): { service: Service; rest: string } {
  const m = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const prefix = m?.[1] ?? '';
  const rest = m?.[2] ?? '';
  switch (prefix) {
    case 'npm':
    case 'npm-public':
      return { service: 'npm', rest };
    case 'npm-api':
    case 'osv':
    case 'github':
    case 'pypi':
    case 'pypistats':
      return { service: prefix, rest };
    default:
      return { service: 'other', rest: pathname };
  }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Answer one request from the world (pure apart from reading the world). */
export function route(world: World, method: string, url: URL, headers: IncomingMessage['headers'], body: Buffer, origin: string): Answer {
  const { service, rest } = serviceOf(url.pathname);
  const accept = String(headers.accept ?? '');
  if (service === 'npm') return rest === '/-/v1/search' ? answerSearch(world, url.searchParams) : answerNpm(world, method, rest, accept);
  if (service === 'npm-api') return answerDownloads(world, method, rest);
  if (service === 'osv') return answerOsv(world, method, rest, body);
  if (service === 'github') {
    const extra = GITHUB_HEADERS(world.model.now);
    if (rest === '/graphql' && method === 'POST') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return json(400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' }, true, extra);
      }
      const answer = answerGraphql(world.model, parsed);
      const parseFailed = answer.errors?.some((e) => e.type === 'PARSE_ERROR') === true;
      return json(200, answer, !parseFailed, extra);
    }
    const decoded = safeDecode(rest) ?? rest;
    const answer = answerRest(world.model, `${origin}/github`, method, decoded, url.searchParams, accept);
    if (answer.raw !== undefined) {
      return { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8', ...extra }, body: Buffer.from(answer.raw), known: answer.known };
    }
    return json(answer.status, answer.body, answer.known, { ...extra, ...(answer.headers ?? {}) });
  }
  // PyPI and anything else: not part of the generated world.
  return json(404, { message: 'Not Found' }, false);
}

/**
 * npm's search API (`/-/v1/search?text=keywords:a,b&size=N`, README "Compared with its peers"):
 * the generated packages with a packument that carry any of the keywords, in index order, in
 * the documented answer shape.
 */
function answerSearch(world: World, params: URLSearchParams): Answer {
  const text = params.get('text') ?? '';
  const size = Math.min(250, Math.max(1, Number(params.get('size') ?? '20') || 20));
  const wanted = new Set(text.startsWith('keywords:') ? text.slice('keywords:'.length).split(',') : []);
  const matches = world.model.packages.filter((p) => world.packuments.has(p.name) && p.keywords.some((k) => wanted.has(k)));
  const objects = matches.slice(0, size).map((p, i) => ({
    package: { name: p.name, version: p.latest, description: p.description, keywords: p.keywords, date: p.versions.at(-1)?.time ?? null, links: {}, publisher: { username: p.author }, maintainers: p.maintainers.map((m) => ({ username: m })) },
    score: { final: 1 - i / (size + 1), detail: { quality: 1, popularity: 1, maintenance: 1 } },
    searchScore: 1 - i / (size + 1),
  }));
  return json(200, { objects, total: matches.length, time: new Date(world.model.now).toUTCString() }, true);
}

function answerNpm(world: World, method: string, rest: string, accept: string): Answer {
  if (method !== 'GET' && method !== 'HEAD') return json(405, { error: 'method not allowed' }, false);
  const path = safeDecode(rest);
  if (path === null) return json(400, { error: 'bad path' }, false);
  if (path.startsWith('/-/npm/v1/attestations/')) {
    const spec = path.slice('/-/npm/v1/attestations/'.length);
    const body = world.attestations.get(spec);
    return body === undefined
      ? json(404, { error: 'Not found' }, true)
      : { status: 200, headers: { 'content-type': 'application/json' }, body, known: true };
  }
  if (path.includes('/-/')) {
    if (!path.endsWith('.tgz')) return json(404, { error: 'Not found' }, false);
    const bytes = world.tarballs.get(path);
    return bytes === undefined
      ? json(404, { error: 'Not found' }, false)
      : { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: bytes, known: true };
  }
  const name = path.replace(/^\/+|\/+$/g, '');
  const bodies = world.packuments.get(name);
  if (bodies === undefined) return json(404, { error: 'Not found' }, true);
  const abbreviated = accept.includes('application/vnd.npm.install-v1+json');
  const stored = abbreviated ? bodies.abbreviated : bodies.full;
  return {
    status: 200,
    headers: {
      'content-type': abbreviated ? 'application/vnd.npm.install-v1+json' : 'application/json',
      etag: stored.etag,
      'cache-control': 'public, max-age=300',
      vary: 'Accept, Accept-Encoding',
    },
    body: stored.gzip,
    gzipped: true,
    known: true,
  };
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function answerDownloads(world: World, method: string, rest: string): Answer {
  const m = /^\/downloads\/(point|range)\/([^/]+)\/(.+)$/.exec(safeDecode(rest) ?? '');
  if (method !== 'GET' || m === null) return json(404, { error: 'not found' }, false);
  const [, kind, period, name = ''] = m;
  // npm's bulk form: up to 128 unscoped names, comma-separated; an unknown name answers null.
  if (kind === 'point' && name.includes(',')) return answerBulkDownloads(world, period ?? '', name.split(','));
  const spec = world.model.byName.get(name);
  if (spec === undefined) return json(404, { error: `package ${name} not found` }, true);
  const days = period === 'last-day' ? 1 : period === 'last-week' ? 7 : period === 'last-month' ? 30 : period === 'last-year' ? 365 : null;
  if (days === null) return json(400, { error: 'Invalid end date' }, false);
  const end = world.model.now.getTime() - DAY_MS;
  const start = end - (days - 1) * DAY_MS;
  const perDay = spec.weeklyDownloads / 7;
  if (kind === 'point') {
    return json(200, { downloads: Math.round(perDay * days), start: isoDay(start), end: isoDay(end), package: name }, true);
  }
  const series = Array.from({ length: days }, (_, i) => ({ downloads: Math.round(perDay * (0.8 + ((i * 7919) % 40) / 100)), day: isoDay(start + i * DAY_MS) }));
  return json(200, { start: isoDay(start), end: isoDay(end), package: name, downloads: series }, true);
}

function answerBulkDownloads(world: World, period: string, names: string[]): Answer {
  if (names.some((name) => name.startsWith('@'))) return json(400, { error: 'scoped packages not supported at this time' }, false);
  if (names.length > 128) return json(400, { error: 'too many packages: at most 128 per request' }, false);
  const days = period === 'last-day' ? 1 : period === 'last-week' ? 7 : period === 'last-month' ? 30 : period === 'last-year' ? 365 : null;
  if (days === null) return json(400, { error: 'Invalid end date' }, false);
  const end = world.model.now.getTime() - DAY_MS;
  const start = end - (days - 1) * DAY_MS;
  const answer: Record<string, unknown> = {};
  for (const name of names) {
    const spec = world.model.byName.get(name);
    answer[name] = spec === undefined ? null : { downloads: Math.round((spec.weeklyDownloads / 7) * days), start: isoDay(start), end: isoDay(end), package: name };
  }
  return json(200, answer, true);
}

function answerOsv(world: World, method: string, rest: string, body: Buffer): Answer {
  if (method === 'POST' && (rest === '/v1/querybatch' || rest === '/v1/query')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return json(400, { code: 3, message: 'Invalid request' }, true);
    }
    if (rest === '/v1/query') {
      const result = answerQueryBatch(world.model, [parsed as BatchQuery]).results[0] ?? {};
      return json(200, result, true);
    }
    const queries = (parsed as { queries?: unknown }).queries;
    if (!Array.isArray(queries) || queries.length > 1000) return json(400, { code: 3, message: 'Invalid request' }, true);
    return json(200, answerQueryBatch(world.model, queries as BatchQuery[]), true);
  }
  const m = /^\/v1\/vulns\/([^/]+)$/.exec(rest);
  if (method === 'GET' && m !== null) {
    const record = world.osvRecords.get(safeDecode(m[1] ?? '') ?? '');
    return record === undefined
      ? json(404, { code: 5, message: 'Bug not found.' }, true)
      : { status: 200, headers: { 'content-type': 'application/json' }, body: record, known: true };
  }
  return json(404, { code: 5, message: 'Not Found' }, false);
}

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  let world: World | null = null;
  let origin = '';
  let log: RequestRecord[] = [];
  let inFlight = 0;
  const acceptedAt = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, ms);
          timers.add(timer);
        });

  const http = createHttpServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    const socket = req.socket;
    const accepted = acceptedAt.get(socket);
    // The first request on a connection: the client has been waiting since it connected.
    const start = accepted ?? arrived;
    acceptedAt.delete(socket);
    inFlight++;
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    const record: RequestRecord = { method, path, service: serviceOf(path.split('?')[0] ?? '').service, status: 0, bytes: 0, start, end: 0, known: true, aborted: false };
    let finished = false;
    const finish = (aborted: boolean): void => {
      if (finished) return;
      finished = true;
      inFlight--;
      record.end = performance.now();
      record.aborted = aborted;
      log.push(record);
    };
    res.on('finish', () => finish(false));
    res.on('close', () => finish(!res.writableFinished));

    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await sleep(options.latencyMs - (performance.now() - arrived));
    if (res.destroyed) return;

    let answer: Answer;
    if (world === null) {
      answer = json(503, { error: 'the bench world is not generated yet' }, false);
    } else {
      try {
        answer = route(world, method, new URL(path, origin), req.headers, Buffer.concat(chunks), origin);
      } catch (error) {
        answer = json(500, { error: `bench server: ${error instanceof Error ? error.message : String(error)}` }, false);
      }
    }
    const headers: Record<string, string> = { ...answer.headers };
    let body = answer.body;
    if (answer.gzipped === true) {
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) headers['content-encoding'] = 'gzip';
      else body = gunzipSync(body);
    }
    const etag = headers.etag;
    if (etag !== undefined && req.headers['if-none-match'] === etag) {
      record.status = 304;
      record.known = answer.known;
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    headers['content-length'] = String(method === 'HEAD' ? 0 : body.length);
    record.status = answer.status;
    record.known = answer.known;
    record.bytes = method === 'HEAD' ? 0 : body.length;
    res.writeHead(answer.status, headers);
    res.end(method === 'HEAD' ? undefined : body);
  }

  // TCP is accepted here and handed to the HTTP server after the connect latency.
  const tcp = createNetServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    acceptedAt.set(socket, performance.now());
    void sleep(options.connectLatencyMs).then(() => {
      if (socket.destroyed) return;
      http.emit('connection', socket);
      socket.resume();
    });
  });

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;

  return {
    get origin() {
      return origin;
    },
    url: (prefix) => `${origin}/${prefix.replace(/^\/+|\/+$/g, '')}`,
    get log() {
      return log;
    },
    inFlight: () => inFlight,
    resetLog() {
      log = [];
    },
    setWorld(next) {
      world = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      http.closeAllConnections();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

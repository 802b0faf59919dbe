/**
 * The HTTP layer every source uses (docs/security.md), on undici.
 *
 * - explicit connect / headers / body timeouts, and a run deadline that aborts everything;
 * - a response size cap on the wire bytes, enforced while they stream in, and on the decoded
 *   bytes, enforced by zlib while it inflates (gzip / br / deflate are decoded here, in one
 *   piece; a gzip body keeps its wire bytes for the store);
 * - redirects followed by hand (at most 5): credentials never cross to another origin, and
 *   an https → http downgrade is refused;
 * - bounded retries (network errors, 429, 502/503/504) with full-jitter backoff, honouring
 *   `Retry-After` up to a limit; a host that fails in a way that will not heal within the run
 *   (DNS, refused, TLS, repeated timeouts or 5xx) is not asked again (host-health.ts);
 * - proxies (HTTP(S)_PROXY / NO_PROXY, or npm's proxy settings) and extra CA certificates;
 * - a User-Agent naming nerq on every request;
 * - `stream`: a 2xx body handed to a consumer as it arrives (a tarball's facts are derived as
 *   it passes, never held whole), a large one only while one of the run's large-body permits
 *   is held (large-bodies.ts).
 *
 * `request` never throws: every failure is a one-line reason naming the host, never a token,
 * a path or a query string.
 */
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { USER_AGENT } from '../../version.js';
import type { NpmConfig } from '../npm/config.js';
import type { HostFault, HostHealth } from './host-health.js';
import { createAgent, untilAborted } from './agent.js';
import type { LargeBodyGate } from './large-bodies.js';
import type { BodyConsumer, HttpClient, HttpFailure, HttpFailureKind, HttpRequest, HttpResponse, HttpResult, HttpStreamed, HttpStreamResult } from './types.js';
import { TLS_CODES } from './thrown-code.js';

export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
export const DEFAULT_TIMEOUTS = { connectMs: 10_000, headersMs: 15_000, bodyMs: 30_000 } as const;
export const DEFAULT_RETRY = { retries: 2, baseDelayMs: 250, maxRetryAfterMs: 10_000 } as const;
export const MAX_REDIRECTS = 5;
/**
 * Connections kept to one origin at most (requests beyond wait for a free one): an audit has
 * many evaluations in flight, and a registry should see a polite client (npm's own socket
 * limit is of this order). HTTP/2, where a server offers it, multiplexes them on one.
 */
export const MAX_CONNECTIONS_PER_ORIGIN = 32;

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: never sent to an origin other than the one asked. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export interface HttpClientOptions {
  /**
   * `Authorization` header for a URL (a GitHub token for GitHub's origin…). Asked only for
   * URLs on the origin the request started on; when it answers undefined, `npm` is asked.
   */
  authFor?: (url: string) => string | undefined;
  /**
   * The user's npm configuration: its registry credentials (`authHeaderFor`), `ca`,
   * `strict-ssl` and proxies apply unless the options below set them explicitly.
   */
  npm?: Pick<NpmConfig, 'authHeaderFor' | 'ca' | 'strictSsl' | 'proxy' | 'httpsProxy' | 'noProxy'>;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Default response cap in bytes (a request's `maxBytes` overrides it). */
  maxBytes?: number;
  /** Aborts every request (a run deadline, or cancellation); a request's own `signal` adds to it. */
  signal?: AbortSignal;
  /** Absolute run deadline (epoch ms): nothing is sent, waited for or retried after it. */
  deadline?: number;
  retry?: { retries?: number; baseDelayMs?: number; maxRetryAfterMs?: number };
  /** Explicit proxies (npm's `proxy` / `https-proxy` / `noproxy`); unset ones come from `env`. */
  proxy?: { httpProxy?: string; httpsProxy?: string; noProxy?: string };
  /** Environment for HTTP_PROXY / HTTPS_PROXY / NO_PROXY (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Extra CA certificates (PEM, e.g. npm's `cafile`), added to Node's default ones. */
  ca?: readonly string[];
  /** Verify TLS certificates (npm's `strict-ssl`; default true). */
  strictSsl?: boolean;
  /**
   * The run's record of hosts that are down (host-health.ts): a host marked down is not asked
   * again, and a request to it fails at once with the failure that marked it.
   */
  health?: HostHealth;
  /**
   * The run's bound on large bodies streamed at once (large-bodies.ts); without it `stream`
   * reads any number at once.
   */
  largeBodies?: LargeBodyGate;
  /** Test seams. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

type Tls = typeof import('node:tls');

/**
 * Node's default CA certificates (bundled, NODE_EXTRA_CA_CERTS, system when enabled) plus `extra`.
 * `tls` is loaded with undici, when the first request is sent: a warm run sends none.
 */
export function caBundle(tls: Tls, extra: readonly string[]): string[] {
  const defaults =
    typeof tls.getCACertificates === 'function' ? tls.getCACertificates('default') : [...tls.rootCertificates];
  return [...defaults, ...extra];
}

/** Delay before retry `attempt` (0-based): full jitter over an exponential window. */
export function backoffDelay(attempt: number, baseDelayMs: number, random: () => number): number {
  return Math.floor(random() * baseDelayMs * 2 ** attempt);
}

/** `Retry-After` (delta seconds or HTTP date) in ms from `now`, or undefined when absent/invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** `15 s`, `1.5 s`, `200 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** `32 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

function defaultSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Internal failure: the public one plus what the retry loop needs. */
interface AttemptFailure extends HttpFailure {
  retryable: boolean;
  retryAfterMs?: number;
  /** What the failure says about the host's health (host-health.ts); none for a fault of the request itself. */
  fault?: HostFault;
  /** The URL that failed (a redirect's target, not necessarily the URL first asked). */
  at?: URL;
}

function fail(kind: HttpFailureKind, reason: string, extra: Partial<AttemptFailure> = {}): AttemptFailure {
  return { ok: false, kind, reason, retryable: false, ...extra };
}

function publicFailure(failure: AttemptFailure): HttpFailure {
  const out: HttpFailure = { ok: false, kind: failure.kind, reason: failure.reason };
  if (failure.hostDown === true) out.hostDown = true;
  if (failure.status !== undefined) out.status = failure.status;
  if (failure.headers !== undefined) out.headers = failure.headers;
  if (failure.body !== undefined) out.body = failure.body;
  return out;
}

/** What went wrong, from an error's code (never its message, which can quote URLs). */
function describeError(error: unknown, host: string, timeouts: Required<NonNullable<HttpClientOptions['timeouts']>>): AttemptFailure {
  const err = error as { code?: unknown; cause?: unknown; name?: unknown };
  const code = typeof err?.code === 'string' ? err.code : undefined;
  const causeCode = typeof (err?.cause as { code?: unknown })?.code === 'string' ? ((err.cause as { code: string }).code) : undefined;
  const effective = code === 'UND_ERR_SOCKET' || code === undefined ? (causeCode ?? code) : code;
  switch (effective) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return fail('timeout', `timeout after ${formatDuration(timeouts.connectMs)} connecting to ${host}`, { retryable: true, fault: 'connect-timeout' });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return fail('timeout', `timeout after ${formatDuration(timeouts.headersMs)} waiting for headers from ${host}`, { fault: 'timeout' });
    case 'UND_ERR_BODY_TIMEOUT':
      return fail('timeout', `timeout after ${formatDuration(timeouts.bodyMs)} waiting for body data from ${host}`, { fault: 'timeout' });
    case 'ECONNREFUSED':
      // Nothing listens there: asking again within the run will not change that.
      return fail('network', `connection refused by ${host}`, { fault: 'refused' });
    case 'ECONNRESET':
      return fail('network', `connection reset by ${host}`, { retryable: true });
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return fail('network', `connection to ${host} closed before the response was complete`, { retryable: true });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return fail('network', `DNS lookup failed for ${host}`, { fault: 'dns' });
    case 'ETIMEDOUT':
      return fail('timeout', `timeout connecting to ${host}`, { retryable: true, fault: 'connect-timeout' });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return fail('network', `${host} is unreachable`, { fault: 'unreachable' });
    case 'UND_ERR_PRX_CONN':
    case 'UND_ERR_PRX_TLS':
      return fail('network', `the proxy could not connect to ${host}`, { retryable: true });
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
    case 'ERR_BROTLI_DECOMPRESSION_FAILED':
      return fail('network', `the compressed response from ${host} could not be decoded`);
    default:
      if (effective !== undefined && TLS_CODES.test(effective)) {
        return fail('network', `TLS error with ${host} (${effective})`, { fault: 'tls' });
      }
      if (effective?.startsWith('HPE_')) {
        return fail('network', `invalid HTTP response from ${host} (${effective})`, { retryable: true });
      }
      if (err?.name === 'AbortError' || effective === 'UND_ERR_ABORTED' || effective === 'ABORT_ERR') {
        return fail('timeout', `run deadline reached while waiting for ${host}`);
      }
      return fail('network', `network error talking to ${host}${effective ? ` (${effective})` : ''}`, { retryable: true });
  }
}

type Coding = 'gzip' | 'br' | 'deflate';

/** The codings of a Content-Encoding value in the order to undo them, or undefined when unsupported. */
function codingsOf(contentEncoding: string | undefined): Coding[] | undefined {
  if (contentEncoding === undefined) return [];
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > 3) return undefined;
  const undo: Coding[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') undo.push('gzip');
    else if (coding === 'br' || coding === 'deflate') undo.push(coding);
    else return undefined;
  }
  return undo;
}

/** A streaming decoder for one coding (a streamed body; `decodeBody` does a whole one). */
function decoderStream(coding: Coding): zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate {
  return coding === 'gzip' ? zlib.createGunzip() : coding === 'br' ? zlib.createBrotliDecompress() : zlib.createInflate();
}

const gunzip = promisify(zlib.gunzip);
const brotliDecompress = promisify(zlib.brotliDecompress);
const inflate = promisify(zlib.inflate);

/**
 * Undo the codings of a complete body, each decoded size capped at `max` (zlib stops at the cap,
 * so a bomb never inflates past it: ERR_BUFFER_TOO_LARGE). One call per coding, in zlib's thread
 * pool: a response decoded as one piece costs the event loop a few callbacks, where a stream of
 * 16 KiB pieces cost thousands (and a stream pipeline per response an AbortError to end it).
 */
async function decodeBody(wire: Buffer, codings: readonly Coding[], max: number): Promise<Buffer> {
  let body = wire;
  for (const coding of codings) {
    // Larger pieces for larger bodies: fewer callbacks, and small bodies keep small buffers.
    const options = { maxOutputLength: Math.max(1, max), chunkSize: Math.min(1 << 20, Math.max(16 * 1024, body.length * 4)) };
    body = coding === 'gzip' ? await gunzip(body, options) : coding === 'br' ? await brotliDecompress(body, options) : await inflate(body, options);
  }
  return body;
}

/** Zlib stopped at the decoded-size cap. */
function isOverCap(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function lowerCaseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

type Timeouts = Required<NonNullable<HttpClientOptions['timeouts']>>;

class UndiciHttpClient implements HttpClient {
  readonly #options: HttpClientOptions;
  readonly #timeouts: Timeouts;
  readonly #retry: Required<NonNullable<HttpClientOptions['retry']>>;
  readonly #maxBytes: number;
  readonly #signal: AbortSignal | undefined;
  readonly #sleep: NonNullable<HttpClientOptions['sleep']>;
  readonly #random: () => number;
  readonly #now: () => number;
  /** Created at the first request: undici is loaded only by a run that makes one (a warm run makes none). */
  #dispatcher: Promise<Dispatcher | { setupFailure: string }> | undefined;
  #closing: Promise<void> | undefined;

  constructor(given: HttpClientOptions) {
    const options = withNpmDefaults(given);
    this.#options = options;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    const signals: AbortSignal[] = [];
    if (options.signal) signals.push(options.signal);
    if (options.deadline !== undefined) {
      signals.push(AbortSignal.timeout(Math.max(0, options.deadline - this.#now())));
    }
    this.#signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    // Requests still waiting on a host (or on the service of it) that is found down are
    // abandoned, not sent one by one (README.md, "Unreachable hosts").
    const health = options.health;
    health?.onDown((down) => {
      const waiting = this.#waiting.get(down.host);
      if (waiting === undefined) return;
      for (const entry of waiting) {
        if (down.service === null || health.downFor(entry.url) !== undefined) entry.controller.abort();
      }
    });
  }

  /** A request was given up (its deadline, or its host found down) while its connection may still be pending. */
  #abandoned = false;

  /**
   * Per host: the requests sent or waiting for a connection, each with the controller that
   * abandons it when its host or service is found down. Only requests in flight are kept, so a
   * host forgotten by `health.reset()` is asked again with fresh signals.
   */
  readonly #waiting = new Map<string, Set<{ url: URL; controller: AbortController }>>();

  /** Track a request to `url` until `settle` is called: the call's signal, and its host's down signal. */
  #track(url: URL, signal: AbortSignal | undefined): TrackedRequest {
    if (this.#options.health === undefined) return { sent: signal, down: undefined, settle: () => {} };
    const key = url.host.toLowerCase();
    let waiting = this.#waiting.get(key);
    if (waiting === undefined) this.#waiting.set(key, (waiting = new Set()));
    const entry = { url, controller: new AbortController() };
    waiting.add(entry);
    const down = entry.controller.signal;
    return {
      sent: signal === undefined ? down : AbortSignal.any([signal, down]),
      down,
      settle: () => {
        waiting.delete(entry);
        if (waiting.size === 0 && this.#waiting.get(key) === waiting) this.#waiting.delete(key);
      },
    };
  }

  #dispatcherOnce(): Promise<Dispatcher | { setupFailure: string }> {
    this.#dispatcher ??= this.#createDispatcher().catch(() => ({
      setupFailure: 'invalid proxy configuration (HTTP_PROXY / HTTPS_PROXY or npm proxy setting)',
    }));
    return this.#dispatcher;
  }

  async #createDispatcher(): Promise<Dispatcher> {
    const [imported, tls] = await Promise.all([import('undici'), import('node:tls')]);
    // Bundled, a CommonJS module imported dynamically has its exports under `default` only.
    const undici = 'EnvHttpProxyAgent' in imported ? imported : (imported as unknown as { default: typeof imported }).default;
    const env = this.#options.env ?? process.env;
    const proxy = this.#options.proxy ?? {};
    // Explicit '' (never undefined) so undici does not read process.env behind our back.
    const httpProxy = proxy.httpProxy ?? env.http_proxy ?? env.HTTP_PROXY ?? '';
    return createAgent(undici, {
      timeouts: this.#timeouts,
      tls: {
        rejectUnauthorized: this.#options.strictSsl !== false,
        ...(this.#options.ca && this.#options.ca.length > 0 ? { ca: caBundle(tls, this.#options.ca) } : {}),
      },
      proxy: {
        httpProxy,
        httpsProxy: proxy.httpsProxy ?? env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy,
        noProxy: proxy.noProxy ?? env.no_proxy ?? env.NO_PROXY ?? '',
      },
      connections: MAX_CONNECTIONS_PER_ORIGIN,
    });
  }

  /** The client's signal and the request's, as one (undefined when there is neither). */
  #signalFor(req: HttpRequest): AbortSignal | undefined {
    if (req.signal === undefined) return this.#signal;
    return this.#signal === undefined ? req.signal : AbortSignal.any([this.#signal, req.signal]);
  }

  async request(req: HttpRequest): Promise<HttpResult> {
    return (await this.#send(req, undefined)) as HttpResult;
  }

  async stream<T>(req: HttpRequest, consume: BodyConsumer<T>): Promise<HttpStreamResult<T>> {
    return (await this.#send({ ...req, method: 'GET', body: undefined }, consume)) as HttpStreamResult<T>;
  }

  async #send<T>(req: HttpRequest, consume: BodyConsumer<T> | undefined): Promise<HttpResult | HttpStreamResult<T>> {
    const signal = this.#signalFor(req);
    try {
      return await this.#requestWithRetries(req, signal, consume);
    } catch (error) {
      let host = 'the server';
      try {
        host = new URL(req.url).host;
      } catch {
        // keep the generic name
      }
      return publicFailure(describeError(error, host, this.#timeouts));
    }
  }

  async #requestWithRetries<T>(
    req: HttpRequest,
    signal: AbortSignal | undefined,
    consume: BodyConsumer<T> | undefined,
  ): Promise<HttpResult | HttpStreamResult<T>> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return publicFailure(fail('network', 'invalid request URL'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return publicFailure(fail('network', `unsupported URL scheme ${url.protocol}`));
    }
    if (url.username !== '' || url.password !== '') {
      return publicFailure(fail('network', `refused a URL with embedded credentials for ${url.host}`));
    }
    const dispatcher = await this.#dispatcherOnce();
    if ('setupFailure' in dispatcher) return publicFailure(fail('network', dispatcher.setupFailure));
    const method = req.method ?? 'GET';
    const retryable = req.retry ?? method === 'GET';
    const maxAttempts = retryable ? this.#retry.retries + 1 : 1;

    let last: AttemptFailure | undefined;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (signal?.aborted || (this.#options.deadline !== undefined && this.#now() >= this.#options.deadline)) {
        return publicFailure(fail('timeout', `run deadline reached before ${last ? 'retrying' : 'requesting'} ${url.host}`));
      }
      const outage = this.#options.health?.downFor(url);
      if (outage !== undefined) return publicFailure(fail(outage.kind, outage.reason, { hostDown: true }));
      // A large streamed body's permit is held for its attempt only.
      const permit = { held: false };
      const result = await this.#attempt(dispatcher, url, req, method, signal, consume, permit).finally(() => {
        if (permit.held) this.#options.largeBodies?.release();
      });
      this.#recordHealth(url, result);
      if (result.ok) return result;
      last = result;
      if (!result.retryable || attempt + 1 >= maxAttempts) break;

      const retryAfter = result.retryAfterMs;
      if (retryAfter !== undefined && retryAfter > this.#retry.maxRetryAfterMs) {
        return publicFailure({
          ...result,
          reason: `${result.reason}; Retry-After ${formatDuration(retryAfter)} is over the ${formatDuration(this.#retry.maxRetryAfterMs)} limit`,
        });
      }
      const delay = retryAfter ?? backoffDelay(attempt, this.#retry.baseDelayMs, this.#random);
      if (this.#options.deadline !== undefined && this.#now() + delay >= this.#options.deadline) {
        return publicFailure({ ...result, reason: `${result.reason}; no time left to retry before the run deadline` });
      }
      await this.#sleep(delay, signal);
    }
    // The reason is the same however many attempts were made: one outage reads as one reason.
    return publicFailure(last ?? fail('network', `no response from ${url.host}`));
  }

  /** One attempt: the request and its redirects; `permit` says whether it holds a large-body permit. */
  async #attempt<T>(
    dispatcher: Dispatcher,
    start: URL,
    req: HttpRequest,
    firstMethod: 'GET' | 'POST',
    signal: AbortSignal | undefined,
    consume: BodyConsumer<T> | undefined,
    permit: { held: boolean },
  ): Promise<HttpResponse | HttpStreamed<T> | AttemptFailure> {
    const maxBytes = req.maxBytes ?? this.#maxBytes;
    let url = start;
    let method: 'GET' | 'POST' = firstMethod;
    let body = req.body;
    const callerHeaders = lowerCaseHeaders(req.headers ?? {});

    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { ...callerHeaders };
      if (url.origin !== start.origin) {
        for (const name of CREDENTIAL_HEADERS) delete headers[name];
      } else if (headers.authorization === undefined) {
        const auth = this.#options.authFor?.(url.href);
        if (auth !== undefined) headers.authorization = auth;
      }
      headers['user-agent'] = USER_AGENT;
      headers['accept-encoding'] ??= 'gzip, deflate, br';
      if (body === undefined) delete headers['content-type'];

      let response: Dispatcher.ResponseData;
      let tracked: TrackedRequest | undefined;
      try {
        // The deadline settles the request even while it waits for a connection (agent.ts);
        // a host found down aborts what is still waiting on it.
        tracked = this.#track(url, signal);
        response = await untilAborted(
          dispatcher.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method,
            headers,
            body: body ?? null,
            signal: tracked.sent ?? null,
            headersTimeout: this.#timeouts.headersMs,
            bodyTimeout: this.#timeouts.bodyMs,
          }),
          tracked.sent,
        );
      } catch (error) {
        return this.#failureFrom(error, url, signal, tracked?.down);
      } finally {
        tracked?.settle();
      }

      const status = response.statusCode;
      const responseHeaders = lowerCaseHeaders(response.headers);

      if (REDIRECT_STATUS.has(status)) {
        await discard(response.body);
        const location = responseHeaders.location;
        if (location === undefined) {
          return fail('redirect', `HTTP ${status} redirect from ${url.host} without a Location`, { status });
        }
        if (hop + 1 > MAX_REDIRECTS) {
          return fail('redirect', `too many redirects (more than ${MAX_REDIRECTS}) from ${start.host}`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return fail('redirect', `invalid redirect Location from ${url.host}`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          return fail('redirect', `refused a redirect from ${url.host} to a non-http URL`);
        }
        if (url.protocol === 'https:' && next.protocol === 'http:') {
          return fail('redirect', `refused a redirect from ${url.host} to plain http`);
        }
        if (next.username !== '' || next.password !== '') {
          return fail('redirect', `refused a redirect from ${url.host} to a URL with credentials`);
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }

      if (status < 200 || status > 299) {
        const excerpt = await errorBodyExcerpt(response.body, responseHeaders['content-encoding']);
        return fail('status', `HTTP ${status} from ${url.host}`, {
          status,
          ...(status >= 500 ? { fault: 'server-error' as const, at: url } : {}),
          headers: responseHeaders,
          ...(excerpt === undefined ? {} : { body: excerpt }),
          retryable: RETRYABLE_STATUS.has(status) && !(status === 429 && req.retryRateLimited === false),
          ...(RETRYABLE_STATUS.has(status)
            ? { retryAfterMs: parseRetryAfter(responseHeaders['retry-after'], this.#now()) }
            : {}),
        });
      }

      const declared = Number(responseHeaders['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        abandon(response.body);
        return fail('too-large', `response from ${url.host} is over the ${formatBytes(maxBytes)} limit (${formatBytes(declared)} declared)`);
      }
      const codings = codingsOf(responseHeaders['content-encoding']);
      if (codings === undefined) {
        abandon(response.body);
        return fail('network', `unsupported content-encoding from ${url.host}`);
      }

      if (consume !== undefined) {
        const gate = this.#options.largeBodies;
        const large = !Number.isFinite(declared) || declared > (gate?.thresholdBytes ?? Infinity);
        if (gate !== undefined && large && !permit.held && !gate.tryAcquire()) {
          // Every permit is held: wait without holding this connection open, then ask again.
          abandon(response.body);
          if (!(await gate.acquire(signal))) {
            this.#abandoned = true;
            return fail('timeout', `run deadline reached while waiting for ${url.host}`);
          }
          permit.held = true;
          hop -= 1;
          continue;
        }
        if (gate !== undefined && large && !permit.held) permit.held = true;
        const streamed = await this.#consumeBody(response.body, codings, maxBytes, url, signal, consume);
        if (!streamed.ok) return streamed;
        if (codings.length > 0) {
          delete responseHeaders['content-encoding'];
          delete responseHeaders['content-length'];
        }
        return { ok: true, status, headers: responseHeaders, value: streamed.value, url: url.href };
      }

      // The wire bytes, capped as they stream; then decoded as one piece, capped again.
      let wire: Buffer | 'too-large';
      try {
        wire = await readWire(response.body, maxBytes);
      } catch (error) {
        return this.#failureFrom(error, url, signal);
      }
      if (wire === 'too-large') return fail('too-large', `response from ${url.host} exceeded the ${formatBytes(maxBytes)} limit`);
      let decoded: Buffer;
      try {
        decoded = codings.length === 0 ? wire : await decodeBody(wire, codings, maxBytes);
      } catch (error) {
        if (isOverCap(error)) return fail('too-large', `response from ${url.host} exceeded the ${formatBytes(maxBytes)} limit`);
        return this.#failureFrom(error, url, signal);
      }
      if (codings.length > 0) {
        delete responseHeaders['content-encoding'];
        delete responseHeaders['content-length'];
      }
      return {
        ok: true,
        status,
        headers: responseHeaders,
        body: decoded,
        // The gzip the body came in, kept for the store (no second compression).
        ...(codings.length === 1 && codings[0] === 'gzip' ? { wireGzip: wire } : {}),
        url: url.href,
      };
    }
  }

  /**
   * Hand a 2xx body to `consume` as it arrives: wire bytes and decoded bytes each capped at
   * `maxBytes` while they stream, codings undone by zlib streams. What the transfer hit (the cap,
   * the deadline, a reset, bad compressed data) is the attempt's failure whatever the consumer
   * made of it; a consumer that stops early has the rest of the body dropped unread.
   */
  async #consumeBody<T>(
    body: Readable,
    codings: readonly Coding[],
    maxBytes: number,
    url: URL,
    signal: AbortSignal | undefined,
    consume: BodyConsumer<T>,
  ): Promise<{ ok: true; value: T } | AttemptFailure> {
    let overCap = false;
    let transferError: unknown;
    async function* capped(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      let received = 0;
      for await (const chunk of source) {
        received += chunk.length;
        if (received > maxBytes) {
          overCap = true;
          throw new Error('over the size cap');
        }
        yield chunk;
      }
    }
    async function* watched(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      try {
        yield* source;
      } catch (error) {
        transferError ??= error;
        throw error;
      }
    }
    const wire = capped(body as AsyncIterable<Buffer>);
    let decoded: AsyncIterable<Buffer> = wire;
    if (codings.length > 0) {
      // The pipeline destroys every stage with its error, the last one included: its reader sees it.
      const out = new PassThrough();
      pipeline([Readable.from(wire), ...codings.map(decoderStream), out]).catch(() => undefined);
      decoded = capped(out);
    }
    let value: T | undefined;
    let consumerError = false;
    try {
      value = await consume(watched(decoded));
    } catch {
      consumerError = true;
    } finally {
      if (!body.readableEnded) abandon(body);
    }
    if (overCap || isOverCap(transferError)) return fail('too-large', `response from ${url.host} exceeded the ${formatBytes(maxBytes)} limit`);
    if (transferError !== undefined) return this.#failureFrom(transferError, url, signal);
    if (consumerError) return fail('network', `the response from ${url.host} could not be read`);
    return { ok: true, value: value as T };
  }

  /** Tell the run's host health what an attempt said about the hosts it reached. */
  #recordHealth(start: URL, result: HttpResponse | HttpStreamed<unknown> | AttemptFailure): void {
    const health = this.#options.health;
    if (health === undefined) return;
    if (result.ok) {
      health.answered(new URL(result.url));
    } else if (result.fault !== undefined) {
      health.failed(result.at ?? start, result.fault, result.kind === 'timeout' ? 'timeout' : 'network', result.reason);
    } else if (result.kind === 'status' || result.kind === 'redirect') {
      // Any other HTTP answer shows the host is up.
      health.answered(result.at ?? start);
    }
  }

  #failureFrom(error: unknown, url: URL, signal: AbortSignal | undefined, down?: AbortSignal): AttemptFailure {
    if (signal?.aborted) {
      this.#abandoned = true;
      return fail('timeout', `run deadline reached while waiting for ${url.host}`);
    }
    const outage = this.#options.health?.downFor(url);
    if (outage !== undefined && down?.aborted === true) {
      this.#abandoned = true;
      return fail(outage.kind, outage.reason, { hostDown: true });
    }
    return { ...describeError(error, url.host, this.#timeouts), at: url };
  }

  close(options?: { abandon?: boolean }): Promise<void> {
    if (options?.abandon === true) this.#abandoned = true;
    // Never used: nothing to close, and a request after this fails as on a closed agent.
    this.#dispatcher ??= Promise.resolve({ setupFailure: 'the HTTP client is closed' });
    this.#closing ??= (this.#dispatcher ?? Promise.resolve(undefined))
      // After a deadline (the client's or a call's) or a host found down, requests may still
      // wait for a connection that never comes (a silent proxy): closing would wait for them,
      // destroying does not.
      .then((dispatcher) =>
        dispatcher === undefined || 'setupFailure' in dispatcher
          ? undefined
          : this.#signal?.aborted || this.#abandoned
            ? dispatcher.destroy()
            : dispatcher.close(),
      )
      .catch(() => undefined);
    return this.#closing;
  }
}

/** Stop reading a body: destroying it aborts the request (its error event is expected). */
function abandon(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Read and drop a response body we do not need (bounded, errors ignored). */
async function discard(body: Readable & { dump?: (opts?: { limit: number }) => Promise<void> }): Promise<void> {
  try {
    if (typeof body.dump === 'function') await body.dump({ limit: 64 * 1024 });
    else abandon(body);
  } catch {
    // the status is what matters
  }
}

/** A request in flight: the signal it is sent with, the one its host's outage aborts, and its end. */
interface TrackedRequest {
  sent: AbortSignal | undefined;
  down: AbortSignal | undefined;
  settle: () => void;
}

/** Error bodies are read only this far (wire bytes); a larger one is dropped unread. */
const MAX_ERROR_WIRE_BYTES = 64 * 1024;
/** The part of an error body handed to the caller (decoded bytes). */
export const MAX_ERROR_EXCERPT_BYTES = 8 * 1024;

/**
 * The start of an error response's body, decoded, for callers that need the server's reason
 * (a rate-limit message, a 451's block reason); undefined when it is too large, empty or
 * cannot be decoded. Never throws.
 */
async function errorBodyExcerpt(body: Readable, contentEncoding: string | undefined): Promise<string | undefined> {
  const codings = codingsOf(contentEncoding);
  if (codings === undefined) {
    abandon(body);
    return undefined;
  }
  try {
    const wire = await readWire(body, MAX_ERROR_WIRE_BYTES);
    if (wire === 'too-large' || wire.length === 0) return undefined;
    const decoded = codings.length === 0 ? wire : await decodeBody(wire, codings, MAX_ERROR_WIRE_BYTES * 4);
    return decoded.subarray(0, MAX_ERROR_EXCERPT_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A body's wire bytes, or 'too-large' as soon as more than `max` came (the rest is dropped unread). Throws what the stream throws. */
async function readWire(body: Readable, max: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > max) {
      abandon(body);
      return 'too-large';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/** Fill authFor / ca / strictSsl / proxy from the npm configuration where not given. */
function withNpmDefaults(options: HttpClientOptions): HttpClientOptions {
  const { npm } = options;
  if (npm === undefined) return options;
  const own = options.authFor;
  return {
    ...options,
    authFor: (url) => own?.(url) ?? npm.authHeaderFor(url),
    ...(options.ca === undefined && npm.ca !== undefined ? { ca: npm.ca } : {}),
    strictSsl: options.strictSsl ?? npm.strictSsl,
    proxy: options.proxy ?? {
      ...(npm.proxy === undefined ? {} : { httpProxy: npm.proxy }),
      ...((npm.httpsProxy ?? npm.proxy) === undefined ? {} : { httpsProxy: npm.httpsProxy ?? npm.proxy }),
      ...(npm.noProxy === undefined ? {} : { noProxy: npm.noProxy }),
    },
  };
}

/** Create the HTTP client for one run. Never throws; `close()` releases its sockets. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new UndiciHttpClient(options);
}

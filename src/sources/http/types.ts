/**
 * The contract between sources and the HTTP layer. Sources never see undici directly,
 * and the HTTP layer never throws: every failure comes back as data.
 */

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON or text body for POST. */
  body?: string;
  /** Response body cap in bytes (default: 32 MiB). Exceeding it → `{ ok:false, kind:'too-large' }`. */
  maxBytes?: number;
  /** Idempotent requests are retried on network errors, 429 and 5xx (default true for GET). */
  retry?: boolean;
  /** false: a 429 is not retried (an API whose rate limit must stop the run, never wait: GitHub). */
  retryRateLimited?: boolean;
  /**
   * Aborts this request (the deadline of the call it serves, or its cancellation), on top of the
   * client's own signal: one long-lived client serves calls with deadlines of their own.
   */
  signal?: AbortSignal;
}

export interface HttpResponse {
  ok: true;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * The body as it came over the wire when gzip was its only content coding (`body` is it
   * inflated): the store keeps it instead of compressing the body again.
   */
  wireGzip?: Buffer;
  /** Final URL after redirects. */
  url: string;
}

export type HttpFailureKind =
  | 'network' // DNS, refused, reset, TLS
  | 'timeout' // connect / headers / body / run deadline
  | 'status' // non-2xx after retries (status set)
  | 'too-large' // body exceeded maxBytes
  | 'redirect'; // too many redirects or an unsafe one

export interface HttpFailure {
  ok: false;
  kind: HttpFailureKind;
  status?: number;
  /** One line, safe to print: no token, no full URL query. */
  reason: string;
  /** The host (or its service) was found down earlier and was not asked (host-health.ts). */
  hostDown?: true;
  /**
   * `kind: 'status'` only: the response headers (lower-cased names) and the start of the body
   * (decoded, at most a few KiB), for callers that must read why a server refused (GitHub's
   * rate-limit headers, a 451's reason). Untrusted text: never print it as is.
   */
  headers?: Record<string, string>;
  body?: string;
}

export type HttpResult = HttpResponse | HttpFailure;

/**
 * A body read as it arrives: called once per attempt with that attempt's (decoded) body, it
 * returns what it derived (a retry after a connection lost mid-body calls it again with a fresh
 * body). Its iteration throws what the transfer hit (a cap, the deadline, a reset): let it
 * propagate, the client turns it into an HttpFailure.
 */
export type BodyConsumer<T> = (body: AsyncIterable<Buffer>) => Promise<T>;

/** A streamed 2xx answer: what the consumer derived instead of the body. */
export interface HttpStreamed<T> {
  ok: true;
  status: number;
  headers: Record<string, string>;
  value: T;
  url: string;
}

export type HttpStreamResult<T> = HttpStreamed<T> | HttpFailure;

export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResult>;
  /**
   * A GET whose 2xx body is handed to `consume` as it arrives instead of being held whole (a
   * package tarball): the same deadline, signal, size cap (on wire and decoded bytes), host
   * health, redirect and retry rules as `request`, and a body over the large-body threshold
   * waits for one of the run's large-body permits (docs/architecture.md). Never stored by the
   * cache: a caller keeps what it derived. Optional: a client without it is asked with `request`
   * (`streamBody` in stream.ts does that).
   */
  stream?<T>(req: HttpRequest, consume: BodyConsumer<T>): Promise<HttpStreamResult<T>>;
  /**
   * Release sockets (idempotent). Requests still in flight are waited for, unless `abandon`
   * (nobody waits for them any more): then they are aborted.
   */
  close(options?: { abandon?: boolean }): Promise<void>;
}

/**
 * One request to a GitHub API (REST or GraphQL), with the headers GitHub asks for, the
 * rate-limit bookkeeping of every answer, and the request count of the repository it is for.
 *
 * A rate-limit answer trips the runtime's limiter and throws `GithubStop`; the source turns it into
 * `unavailable` for the repository (and every later one). Everything else comes back as data.
 */
import { classifyRateLimit, type GithubRateLimiter } from './rate-limit.js';
import type { HttpClient } from '../http/types.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';

export const GITHUB_API_VERSION = '2022-11-28';
export const ACCEPT_JSON = 'application/vnd.github+json';
export const ACCEPT_RAW = 'application/vnd.github.raw+json';

/** What every request for one repository shares. */
export interface GithubCall {
  http: HttpClient;
  limiter: GithubRateLimiter;
  /** REST base URL for the repository's host (also the limiter's key). */
  api: string;
  /** GraphQL endpoint for the repository's host. */
  graphql: string;
  tokenInUse: boolean;
  now: Date;
  /** Requests sent for this repository (a batched GraphQL request counts for each repository in it). */
  counter: { requests: number };
}

/** Thrown when GitHub must not be asked any more in this run (rate limit); carries the reason. */
export class GithubStop extends Error {
  override name = 'GithubStop';
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

export type GithubAnswer =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; url: string }
  | {
      ok: false;
      /** HTTP status, or null for a network / timeout / size failure. */
      status: number | null;
      /** One line, safe to print (names the host, never a token or a query). */
      reason: string;
      /** The HTTP failure's kind as a source code (timeout, host-down, http-status, …). */
      code: SourceUnavailableCode;
      /** GitHub's `message` from a JSON error body, when there was one. */
      message: string | null;
      /** The parsed JSON error body, when there was one. */
      json: unknown;
      /** The answer was over the request's size cap: a limit, not a fault (absent otherwise). */
      oversize?: true;
    };

export interface GithubRequest {
  url: string;
  method?: 'GET' | 'POST';
  accept?: string;
  body?: string;
  maxBytes: number;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** GitHub's `message` field from an error body, one line and bounded. */
function messageOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const message = (json as { message?: unknown }).message;
  if (typeof message !== 'string') return null;
  return oneLine(message, 160);
}

function flattened(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Control characters out, whitespace collapsed, cut to `max` characters. A growing prefix is
 * flattened until it alone gives more than `max` characters (the rest cannot change them), so a
 * stranger's megabyte value costs about `max` characters of work, never a pass that copies it all.
 */
export function oneLine(text: string, max: number): string {
  for (let size = 4 * max + 64; ; size *= 2) {
    const whole = size >= text.length;
    const flat = flattened(whole ? text : text.slice(0, size));
    if (whole || flat.length > max) return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  }
}

/**
 * Send one request. REST GETs keep the HTTP client's bounded retries for network errors and
 * 5xx; a 429 or 403 is never retried (a rate limit stops GitHub for the run at once, it is never
 * waited out), and POSTs
 * (GraphQL) are not retried at all: a timeout there is answered by shrinking the batch.
 */
export async function githubRequest(call: GithubCall, req: GithubRequest): Promise<GithubAnswer> {
  const stopped = call.limiter.stoppedFor(call.api, call.now);
  if (stopped !== null) throw new GithubStop(stopped);
  call.counter.requests += 1;
  const headers: Record<string, string> = {
    accept: req.accept ?? ACCEPT_JSON,
    'x-github-api-version': GITHUB_API_VERSION,
  };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await call.http.request({
    url: req.url,
    method: req.method ?? 'GET',
    headers,
    maxBytes: req.maxBytes,
    retryRateLimited: false,
    ...(req.body === undefined ? {} : { body: req.body }),
  });
  // GraphQL (a POST) has a budget of its own.
  if ((res.ok || res.kind === 'status') && (req.method ?? 'GET') === 'GET') call.limiter.observe(call.api, res.headers, call.now);
  if (res.ok) {
    const verdict = classifyRateLimit(res.status, res.headers, null, call.now, call.tokenInUse);
    // This answer is still good; the ones after it would be refused.
    if (verdict.kind !== 'fine') call.limiter.stop(call.api, verdict.reason, verdict.resumeAt, call.now);
    return { ok: true, status: res.status, headers: res.headers, body: res.body, url: res.url };
  }
  if (res.kind !== 'status' || res.status === undefined) {
    return { ok: false, status: null, reason: res.reason, code: httpFailureCode(res), message: null, json: undefined, ...(res.kind === 'too-large' ? { oversize: true as const } : {}) };
  }
  const json = parseJson(res.body);
  const message = messageOf(json);
  const verdict = classifyRateLimit(res.status, res.headers, message, call.now, call.tokenInUse);
  if (verdict.kind !== 'fine') {
    call.limiter.stop(call.api, verdict.reason, verdict.resumeAt, call.now);
    throw new GithubStop(verdict.reason);
  }
  return { ok: false, status: res.status, reason: res.reason, code: httpFailureCode(res), message, json };
}

/** A failed answer as a one-line reason: the status line plus GitHub's message when it gave one. */
export function failureReason(answer: Extract<GithubAnswer, { ok: false }>): string {
  if (answer.status === 403) {
    return `GitHub refused the request (HTTP 403, not a rate limit)${answer.message === null ? '' : `: ${answer.message}`}`;
  }
  if (answer.status === 401) return 'GitHub rejected the token (HTTP 401); check GITHUB_TOKEN / GH_TOKEN';
  return answer.message === null ? answer.reason : `${answer.reason}: ${answer.message}`;
}

/** The last page number in a `Link` header (`<…&page=7>; rel="last"`), or null. */
export function lastPageOf(link: string | undefined): number | null {
  if (link === undefined) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?last"?/i.exec(part);
    if (match === null) continue;
    try {
      const page = new URL(match[1] ?? '').searchParams.get('page');
      if (page !== null && /^\d+$/.test(page)) return Number(page);
    } catch {
      return null;
    }
  }
  return null;
}

/** Parse a JSON answer body, or undefined when it is not JSON. */
export function jsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** One section's outcome: its value, or why it is unknown (one line). */
export type Section<T> = { ok: true; value: T } | { ok: false; reason: string };

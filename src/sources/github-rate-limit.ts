/**
 * GitHub's rate limits, read from every answer (`X-RateLimit-Remaining` / `X-RateLimit-Reset`,
 * `Retry-After`, the refusal message).
 *
 * When the budget is gone, or a secondary limit asks to wait longer than a short bound, nerq
 * stops asking GitHub for the rest of the run — it never sleeps until the reset — and every
 * repository still to be fetched gets the same one-line reason. The limiter is shared per run
 * (one per HTTP client), so an audit of many repositories stops them all at once.
 */
import type { HttpClient } from './types.js';

/** A `Retry-After` longer than this is not waited for: GitHub facts become unknown instead. */
export const SECONDARY_LIMIT_MAX_WAIT_S = 10;

/** The rate-limit headers of one answer (absent ones are null). */
export interface RateLimitHeaders {
  remaining: number | null;
  /** Epoch seconds. */
  reset: number | null;
  /** Seconds. */
  retryAfter: number | null;
}

function intHeader(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value.trim());
}

export function rateLimitHeaders(headers: Record<string, string> | undefined): RateLimitHeaders {
  const h = headers ?? {};
  return {
    remaining: intHeader(h['x-ratelimit-remaining']),
    reset: intHeader(h['x-ratelimit-reset']),
    retryAfter: intHeader(h['retry-after']),
  };
}

/** `14:05 UTC` (or `2026-01-02 14:05 UTC` when the reset is not on the day of `now`). */
export function formatReset(resetEpochS: number, now: Date): string {
  const at = new Date(resetEpochS * 1000);
  const hhmm = at.toISOString().slice(11, 16);
  const sameDay = at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  return sameDay ? `${hhmm} UTC` : `${at.toISOString().slice(0, 10)} ${hhmm} UTC`;
}

const TOKEN_HINT = 'set GITHUB_TOKEN to raise the limit';

/** The reason for a spent primary budget. */
export function primaryLimitReason(reset: number | null, now: Date, tokenInUse: boolean): string {
  const when = reset === null ? '' : ` (resets at ${formatReset(reset, now)})`;
  return `GitHub API rate limit reached${when}${tokenInUse ? '' : `; ${TOKEN_HINT}`}`;
}

/** The reason for a secondary (abuse) limit. */
export function secondaryLimitReason(retryAfter: number | null, tokenInUse: boolean): string {
  const wait = retryAfter === null ? '' : ` (retry after ${retryAfter} s)`;
  return `GitHub secondary rate limit hit${wait}; try again later${tokenInUse ? '' : `, or ${TOKEN_HINT}`}`;
}

/** What an answer says about the rate limit. */
export type RateLimitVerdict =
  | { kind: 'fine' }
  /** This answer is usable, but the budget is now spent: ask nothing more. */
  | { kind: 'spent'; reason: string }
  /** This answer is a rate-limit refusal. */
  | { kind: 'limited'; reason: string };

/**
 * Classify an answer by status, headers and (for a refusal) its message. Only 403 and 429
 * can be rate limits; a 403 that is not one (a blocked User-Agent, a forbidden resource) is
 * `fine` here and reported by the caller as what it is.
 */
export function classifyRateLimit(
  status: number,
  headers: Record<string, string> | undefined,
  message: string | null,
  now: Date,
  tokenInUse: boolean,
): RateLimitVerdict {
  const limits = rateLimitHeaders(headers);
  // A stale answer (a cached copy) can carry remaining 0 with a reset already past: ignore it.
  const resetPassed = limits.reset !== null && limits.reset * 1000 <= now.getTime();
  const spent = limits.remaining === 0 && !resetPassed;
  if (status === 403 || status === 429) {
    const secondary = message !== null && /secondary rate limit|abuse detection/i.test(message);
    if (secondary || (limits.retryAfter !== null && !spent)) {
      return { kind: 'limited', reason: secondaryLimitReason(limits.retryAfter, tokenInUse) };
    }
    if (spent || (message !== null && /rate limit/i.test(message)) || status === 429) {
      return { kind: 'limited', reason: primaryLimitReason(limits.reset, now, tokenInUse) };
    }
    return { kind: 'fine' };
  }
  if (spent && status >= 200 && status < 300) {
    return { kind: 'spent', reason: primaryLimitReason(limits.reset, now, tokenInUse) };
  }
  return { kind: 'fine' };
}

/**
 * The per-run stop switch: once tripped for an API (keyed by its base URL), no further request
 * is sent to it and every caller gets the same reason.
 */
export class GithubRateLimiter {
  readonly #stopped = new Map<string, string>();

  /** The reason GitHub is not asked any more for `api`, or null. */
  stoppedFor(api: string): string | null {
    return this.#stopped.get(api) ?? null;
  }

  /** Stop asking `api` (the first reason wins). */
  stop(api: string, reason: string): void {
    if (!this.#stopped.has(api)) this.#stopped.set(api, reason);
  }
}

const limiters = new WeakMap<HttpClient, GithubRateLimiter>();

/** The limiter shared by every GitHub request made through `http` (one HTTP client per run). */
export function githubLimiterFor(http: HttpClient): GithubRateLimiter {
  let limiter = limiters.get(http);
  if (limiter === undefined) {
    limiter = new GithubRateLimiter();
    limiters.set(http, limiter);
  }
  return limiter;
}

/**
 * GitHub's rate limits, read from every answer (`X-RateLimit-Remaining` / `X-RateLimit-Reset`,
 * `Retry-After`, the refusal message).
 *
 * When the budget is gone, or a secondary limit asks to wait longer than the HTTP client waits
 * for a `Retry-After` (http/client.ts, `maxRetryAfterMs`), nerq
 * stops asking GitHub until the limit resets — it never sleeps until then — and every repository
 * still to be fetched gets the same one-line reason. The limiter belongs to the runtime (one per
 * process, app/runtime.ts), so an audit of many repositories stops them all at once, and a
 * long-lived process asks again once the reset time is past.
 */

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

/** How long GitHub is not asked after a limit whose reset time is unknown. */
export const UNKNOWN_RESET_PAUSE_MS = 60_000;

/** What an answer says about the rate limit; `resumeAt` (epoch ms) is when GitHub may be asked again. */
export type RateLimitVerdict =
  | { kind: 'fine' }
  /** This answer is usable, but the budget is now spent: ask nothing more. */
  | { kind: 'spent'; reason: string; resumeAt: number }
  /** This answer is a rate-limit refusal. */
  | { kind: 'limited'; reason: string; resumeAt: number };

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
  const atReset = limits.reset !== null && !resetPassed ? limits.reset * 1000 : now.getTime() + UNKNOWN_RESET_PAUSE_MS;
  if (status === 403 || status === 429) {
    const secondary = message !== null && /secondary rate limit|abuse detection/i.test(message);
    if (secondary || (limits.retryAfter !== null && !spent)) {
      const resumeAt = limits.retryAfter !== null ? now.getTime() + limits.retryAfter * 1000 : now.getTime() + UNKNOWN_RESET_PAUSE_MS;
      return { kind: 'limited', reason: secondaryLimitReason(limits.retryAfter, tokenInUse), resumeAt };
    }
    if (spent || (message !== null && /rate limit/i.test(message)) || status === 429) {
      return { kind: 'limited', reason: primaryLimitReason(limits.reset, now, tokenInUse), resumeAt: atReset };
    }
    return { kind: 'fine' };
  }
  if (spent && status >= 200 && status < 300) {
    return { kind: 'spent', reason: primaryLimitReason(limits.reset, now, tokenInUse), resumeAt: atReset };
  }
  return { kind: 'fine' };
}

/**
 * The stop switch: once tripped for an API (keyed by its base URL), no further request is sent
 * to it until its resume time, and every caller gets the same reason. Times are read on the
 * caller's evaluation clock (`now`): a run evaluates at one instant, so a stop lasts the whole
 * run; a later call (a long-lived process) asks again once the reset time is past.
 */
export class GithubRateLimiter {
  readonly #stopped = new Map<string, { reason: string; resumeAt: number }>();
  readonly #budget = new Map<string, { remaining: number; reset: number | null }>();

  /**
   * Note what an answer of the REST API `api` says is left of its hourly budget
   * (`X-RateLimit-Remaining`). An answer about another budget (`X-RateLimit-Resource` other
   * than `core`: GraphQL's, the search's) is not this one. Answers of concurrent requests come
   * back in any order, so within one window (the same reset time) the lowest count wins.
   */
  observe(api: string, headers: Record<string, string> | undefined, now: Date): void {
    const resource = headers?.['x-ratelimit-resource'];
    if (resource !== undefined && resource !== 'core') return;
    const { remaining, reset } = rateLimitHeaders(headers);
    if (remaining === null || (reset !== null && reset * 1000 <= now.getTime())) return;
    const known = this.#budget.get(api);
    this.#budget.set(api, known !== undefined && known.reset === reset ? { remaining: Math.min(known.remaining, remaining), reset } : { remaining, reset });
  }

  /** What GitHub last said is left of the REST budget of `api` at `now` (0 while stopped), or null when no answer said (or its window is past). */
  remaining(api: string, now: Date): number | null {
    if (this.stoppedFor(api, now) !== null) return 0;
    const known = this.#budget.get(api);
    if (known === undefined || (known.reset !== null && known.reset * 1000 <= now.getTime())) return null;
    return known.remaining;
  }

  /** The reason GitHub is not asked for `api` at `now`, or null. */
  stoppedFor(api: string, now: Date): string | null {
    const stop = this.#stopped.get(api);
    return stop !== undefined && now.getTime() < stop.resumeAt ? stop.reason : null;
  }

  /** Stop asking `api` until `resumeAt` (epoch ms); while a stop holds, its first reason wins. */
  stop(api: string, reason: string, resumeAt: number, now: Date): void {
    if (this.stoppedFor(api, now) === null) this.#stopped.set(api, { reason, resumeAt });
  }
}

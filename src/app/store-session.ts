/**
 * The store of a runtime: optional — where it cannot be opened nerq runs without it after one
 * warning. Wraps the HTTP client with the cache, gives the sources the facts cache, and records
 * history. Writes are grouped by the store and all reach the database by `close()`.
 */
import { createHash } from 'node:crypto';
import type { Evidence } from '../evidence/schema.js';
import { comparePrevious, historyRowOf } from '../report/previous.js';
import type { Report } from '../report/schema.js';
import { createCachedHttpClient, type CacheMode } from '../sources/http/cached.js';
import type { Endpoints } from '../sources/endpoints.js';
import type { FactsCache } from '../sources/facts-cache.js';
import { bodyStorePolicy, freshnessPolicy } from '../sources/http/freshness.js';
import type { NpmConfig } from '../sources/npm/config.js';
import type { HttpClient } from '../sources/http/types.js';
import { cacheDir } from '../store/cache-dir.js';
import { openStore } from '../store/open-store.js';
import { createStoredFactsCache } from '../store/stored-facts-cache.js';
import type { HistoryRow, Store } from '../store/types.js';
import { VERSION } from '../version.js';

/** The store prunes its cached answers and facts (together) to this size after each run. */
export const STORE_MAX_BYTES = 256 * 1024 * 1024;
/** The largest answer the store keeps: a sixteenth of it, so no few answers can fill it. */
export const STORE_MAX_ENTRY_BYTES = STORE_MAX_BYTES / 16;

export interface StoreOptions {
  offline: boolean;
  /** false with --no-cache: answers are still written, never read. */
  cache: boolean;
  /** --max-age in seconds: overrides every source's freshness. */
  maxAgeS?: number;
  /** false with --no-history. */
  history: boolean;
}

/** The user's store (under the cache directory `env` names), or null with a warning when it cannot be opened. */
export function openUserStore(env: NodeJS.ProcessEnv, warn: (message: string) => void): Store | null {
  return openStore({ dir: cacheDir(env), warn });
}

export class StoreSession {
  readonly store: Store | null;
  readonly #options: StoreOptions;
  readonly #warn: (message: string) => void;
  #cached: (HttpClient & { stats(): { hits: number; misses: number; revalidated: number; requests: number } }) | null = null;
  /** Set by close() and interrupt(): the store is closed on purpose, not found broken. */
  #closed = false;

  constructor(options: StoreOptions, env: NodeJS.ProcessEnv, warn: (message: string) => void) {
    this.#options = options;
    this.#warn = warn;
    this.store = openUserStore(env, warn);
    if (this.store === null && options.offline) warn('--offline without a store: every source is unavailable');
  }

  get #mode(): CacheMode {
    return this.#options.offline ? 'offline' : this.#options.cache ? 'normal' : 'no-cache';
  }

  get #maxAgeMs(): { maxAgeMs?: number } {
    return this.#options.maxAgeS === undefined ? {} : { maxAgeMs: this.#options.maxAgeS * 1000 };
  }

  /** The HTTP client every source uses: the cache in front of the network. */
  http(
    inner: HttpClient,
    endpoints: Endpoints,
    npm: NpmConfig,
    authFor: (url: string) => string | undefined = () => undefined,
  ): HttpClient {
    this.#cached = createCachedHttpClient(inner, {
      cache: this.store?.cache ?? null,
      mode: this.#mode,
      freshnessFor: freshnessPolicy(endpoints, [npm.registry]),
      storeBody: bodyStorePolicy(endpoints, [npm.registry]),
      ...this.#maxAgeMs,
      // The same credential the inner client sends (GitHub token first, then npm's), hashed into the key.
      credentialFor: (url) => authFor(url) ?? npm.authHeaderFor(url),
      maxEntryBytes: STORE_MAX_ENTRY_BYTES,
    });
    return this.#cached;
  }

  /**
   * The facts cache the sources use, under the same mode and --max-age as the HTTP cache.
   * `credentialScope` (a hash of the credentials the run sends, or '' without any) separates the
   * facts of runs with different credentials, as the HTTP cache's keys do: facts read with one
   * token (a private repository) are never served to a run with another token or none.
   */
  facts(credentialScope = ''): FactsCache {
    const version = credentialScope === '' ? VERSION : `${VERSION} ${credentialScope}`;
    return createStoredFactsCache({ store: this.store?.facts ?? null, mode: this.#mode, version, ...this.#maxAgeMs });
  }

  /**
   * Compare with the previous evaluation and record this one (never for error reports), unless
   * it repeats the previous one on the same day: the history keeps changes, and an unchanged
   * score once a day, not a row per run. Once the session is closed (a front door shutting down
   * while an evaluation nobody waits for ends, its requests aborted by the pool's close), nothing
   * is recorded and nothing said: what it learnt under that abort is no evaluation to keep.
   */
  remember(report: Report, evidence: Evidence | null): Report {
    if (this.store === null || this.#closed || !this.#options.history || evidence === null || report.error !== null) return report;
    const row = historyRowOf(report, createHash('sha256').update(JSON.stringify(evidence)).digest('hex'));
    try {
      const previous = this.store.history.previous(row.target, row.evaluatedAt);
      // A row at the very same time (a fixed clock, NERQ_NOW) is not "previous", but may repeat too.
      const latest = this.store.history.list(row.target, 1)[0];
      const sameTime = latest?.evaluatedAt === row.evaluatedAt ? latest : undefined;
      if (!repeats(previous, row) && !repeats(sameTime, row)) this.store.history.record(row);
      return previous === undefined ? report : { ...report, previous: comparePrevious(report, previous) };
    } catch (error) {
      this.#warn(`history not recorded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      return report;
    }
  }

  /** The run was interrupted: write what is queued (answers already fetched) and close; no pruning. */
  interrupt(): void {
    this.#closed = true;
    try {
      this.store?.close();
    } catch {
      // the database stays as its last transaction left it
    }
  }

  /** Record the run's cache counters, prune, and write everything still queued (history included). */
  close(): void {
    if (this.store === null || this.#closed) return;
    this.#closed = true;
    let problem: unknown;
    try {
      if (this.#cached !== null) {
        const { hits, misses, revalidated } = this.#cached.stats();
        this.store.cache.recordRun({ hits, misses, revalidated, at: new Date().toISOString() });
      }
      // Flushes the queued writes and prunes, in one transaction.
      this.store.prune(STORE_MAX_BYTES);
    } catch (error) {
      problem = error;
    }
    try {
      // Writes what a failed prune left queued (history rows stay queued until written).
      this.store.close();
    } catch (error) {
      problem ??= error;
    }
    if (problem !== undefined) {
      this.#warn(`the store could not be updated: ${problem instanceof Error ? problem.message.split('\n')[0] : String(problem)}`);
    }
  }
}

/** Same day, same version, same scores everywhere: nothing a new history row would add. */
function repeats(previous: HistoryRow | undefined, row: HistoryRow): boolean {
  if (previous === undefined || previous.evaluatedAt.slice(0, 10) !== row.evaluatedAt.slice(0, 10)) return false;
  return (
    previous.version === row.version &&
    previous.score === row.score &&
    previous.grade === row.grade &&
    previous.verdict === row.verdict &&
    previous.coverage === row.coverage &&
    JSON.stringify(previous.dimensions) === JSON.stringify(row.dimensions) &&
    JSON.stringify(previous.checks) === JSON.stringify(row.checks)
  );
}

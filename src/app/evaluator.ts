/**
 * A shared evaluator for long-lived front doors (docs/serve.md, "Under load"): one runtime
 * answering many callers at once.
 *
 * - Callers asking for the same target while it is being evaluated share that one evaluation
 *   (coalescing): one set of upstream requests, one history row.
 * - At most `concurrency` evaluations run at once; at most `maxPending` distinct evaluations
 *   wait or run. Beyond that a call is refused at once with `QueueFullError` (a server answers
 *   429 with `Retry-After`), before any request is sent.
 * - Each evaluation has its own deadline (`evaluationTimeoutMs`); each caller waits at most
 *   until its own signal fires (`CallerDeadlineError`) — the evaluation goes on for the others.
 * - A finished evaluation answers the same target again for `reuseMs` (an answer cache of at
 *   most `reuseEntries` targets; a report with an error is not kept): a warm server answers
 *   from memory instead of re-scoring on every request. A report a source was unavailable to
 *   for a reason that may heal (a timeout, a 5xx answer, a rate limit…; app/degraded.ts decides
 *   from the source codes) answers again for `DEGRADED_REUSE_MS` at most: enough to absorb a
 *   burst, not to hold back the full report a later evaluation may get.
 * - Hosts found down are asked again `healthResetMs` after the first of them went down: a host
 *   that was down at 9:00 is not refused all day (`runtime.health.reset()`).
 * - A target's standing among its peers (`compare`, app/compare.ts) is shared and reused the
 *   same way, and its peers are evaluated through this evaluator: coalesced with other calls,
 *   reused, and refused when the queue is full.
 * - An audit (app/audit-content.ts) evaluates a lockfile's packages with its own batching; it
 *   runs through `audit`: one audit at a time, its packages at most `concurrency` at once. A
 *   second audit while one runs is refused at once with `QueueFullError`, before anything is read.
 * - What is evaluated is the target and the include-package choice (app/include-package-choice.ts):
 *   calls with and without a choice, or with different ones, never share an evaluation, a reused
 *   answer or a comparison; the choice is dropped for targets it does not apply to.
 */
import type { Report } from '../report/schema.js';
import type { ComparisonResult } from '../report/comparison.js';
import type { Target } from '../target/types.js';
import { checkTargets, type TargetOutcome } from './check.js';
import { compareWithPeers } from './compare.js';
import { degraded } from './degraded.js';
import { includePackageFor, includePackageKey, type IncludePackage } from './include-package-choice.js';
import type { Runtime } from './runtime.js';
import { DEFAULT_GATE, type GateOptions } from '../scoring/gate.js';

export { DEFAULT_GATE };

/** How long at most a report a source was unavailable to answers again (docs/serve.md, "Under load"). */
const DEGRADED_REUSE_MS = 5_000;

export interface EvaluatorOptions {
  /** The gate every report is judged by (default: the command line's, docs/scoring.md). */
  gate?: GateOptions;
  /** Evaluations running at once (default 8). */
  concurrency?: number;
  /** Distinct evaluations waiting or running before calls are refused (default 256). */
  maxPending?: number;
  /** Deadline of one evaluation (default 30 s). */
  evaluationTimeoutMs?: number;
  /** Hosts found down are asked again this long after the first went down (default 60 s). */
  healthResetMs?: number;
  /** How long a finished evaluation answers again (default 60 s; 0: never). */
  reuseMs?: number;
  /** Targets whose answers are kept at most (default 1,000; the oldest go first). */
  reuseEntries?: number;
  /** The wall clock in milliseconds, for the health reset and reuse (default Date.now). */
  monotonicNow?: () => number;
}

/** Too many evaluations waiting: retry after `retryAfterS` seconds. */
export class QueueFullError extends Error {
  override name = 'QueueFullError';
  readonly retryAfterS: number;

  constructor(retryAfterS: number, what = 'too many evaluations in progress') {
    super(`${what}; retry after ${retryAfterS} s`);
    this.retryAfterS = retryAfterS;
  }
}

/** The caller's own deadline fired before the evaluation it waited for ended. */
export class CallerDeadlineError extends Error {
  override name = 'CallerDeadlineError';
  constructor() {
    super('deadline reached before the evaluation ended');
  }
}

export interface EvaluatorStats {
  /** Evaluations started (a coalesced call starts none). */
  evaluations: number;
  /** Calls that joined an evaluation already under way. */
  coalesced: number;
  /** Calls answered by a finished evaluation still fresh (`reuseMs`). */
  reused: number;
  /** Calls refused because the queue was full. */
  refused: number;
  /** Distinct evaluations waiting or running now. */
  pending: number;
}

/** A target's comparison with its peers, and the peers' reports it was made from. */
export interface PeerComparison {
  result: ComparisonResult;
  /** Every peer evaluated for it (the alternatives name some of them). */
  peers: Report[];
}

/** What a call asks of a target's evaluation besides the target (part of what is shared and reused). */
export interface EvaluationChoice {
  /** Fold a verified package's registry checks into a repository report (docs/scoring.md §9). */
  includePackage?: IncludePackage | undefined;
}

export interface Evaluator {
  /** The outcome for `target`, evaluated now or shared with a caller who asked first (the same target and choice). */
  evaluate(target: Target, signal?: AbortSignal, choice?: EvaluationChoice): Promise<TargetOutcome>;
  /**
   * The standing and alternatives of an evaluated target among at most `peers` peers, made now
   * or shared with a caller who asked first. A full queue for a peer is a `QueueFullError`, the
   * caller's deadline a `CallerDeadlineError` (the comparison goes on for the others).
   */
  compare(target: Target, outcome: TargetOutcome, options: { peers: number; signal?: AbortSignal } & EvaluationChoice): Promise<PeerComparison>;
  /**
   * Run an audit: `work` gets the number of its packages to evaluate at once (`concurrency`).
   * One audit at a time: another while one runs is a `QueueFullError`, and `work` is not called.
   */
  audit<T>(work: (concurrency: number) => Promise<T>): Promise<T>;
  /** How long the target's finished evaluation (with that choice) still answers again, in milliseconds (0: it is not kept). */
  freshFor(target: Target, choice?: EvaluationChoice): number;
  stats(): EvaluatorStats;
  /** Resolves when no evaluation or comparison is running or waiting. */
  idle(): Promise<void>;
}

/** The key calls coalesce on: the same package, the same version spec and the same include-package choice (where it applies). */
export function coalesceKey(target: Target, choice: EvaluationChoice = {}): string {
  return `${target.ecosystem}:${target.name}@${target.spec ?? ''}${includePackageKey(includePackageFor(target, choice.includePackage))}`;
}

export function createEvaluator(runtime: Runtime, options: EvaluatorOptions = {}): Evaluator {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const maxPending = Math.max(1, options.maxPending ?? 256);
  const timeoutMs = options.evaluationTimeoutMs ?? 30_000;
  const resetMs = options.healthResetMs ?? 60_000;
  const clock = options.monotonicNow ?? Date.now;
  const inFlight = new Map<string, Promise<TargetOutcome>>();
  const waiting: Array<() => void> = [];
  let running = 0;
  let downSince: number | null = null;
  const reuseMs = options.reuseMs ?? 60_000;
  const reuseEntries = Math.max(1, options.reuseEntries ?? 1_000);
  const finished = new Map<string, { outcome: TargetOutcome; at: number; forMs: number }>();
  const stats = { evaluations: 0, coalesced: 0, reused: 0, refused: 0 };
  let idleWaiters: Array<() => void> = [];

  runtime.health.onDown(() => {
    downSince ??= clock();
  });

  const slot = async (): Promise<void> => {
    if (running < concurrency) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  const run = async (key: string, target: Target, choice: EvaluationChoice): Promise<TargetOutcome> => {
    await slot();
    try {
      if (downSince !== null && clock() - downSince >= resetMs) {
        runtime.health.reset();
        downSince = null;
      }
      stats.evaluations++;
      const includePackage = includePackageFor(target, choice.includePackage);
      const [outcome] = await checkTargets(runtime, {
        targets: [target],
        gate: options.gate ?? DEFAULT_GATE,
        signal: AbortSignal.timeout(timeoutMs),
        ...(includePackage === undefined ? {} : { includePackage }),
      });
      if (reuseMs > 0 && outcome!.report.error === null) {
        finished.delete(key);
        finished.set(key, { outcome: outcome!, at: clock(), forMs: degraded(outcome!.report) ? Math.min(reuseMs, DEGRADED_REUSE_MS) : reuseMs });
        if (finished.size > reuseEntries) finished.delete(finished.keys().next().value!);
      }
      return outcome!;
    } finally {
      release();
      inFlight.delete(key);
      wakeIdle();
    }
  };

  const comparing = new Map<string, Promise<PeerComparison>>();
  let auditing = false;
  const busy = () => inFlight.size > 0 || comparing.size > 0 || auditing;
  function wakeIdle(): void {
    if (busy()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }
  const compared = new Map<string, { comparison: PeerComparison; at: number }>();

  const runCompare = async (key: string, outcome: TargetOutcome, peers: number): Promise<PeerComparison> => {
    // The comparison's own deadline, like an evaluation's: callers wait for it with theirs.
    const deadline = AbortSignal.timeout(timeoutMs);
    const reports: Report[] = [];
    try {
      const result = await compareWithPeers(runtime, outcome, {
        gate: options.gate ?? DEFAULT_GATE,
        signal: deadline,
        peers,
        evaluateTargets: async (targets) => {
          const outcomes = await Promise.all(targets.map((t) => evaluate(t, deadline)));
          reports.push(...outcomes.map((o) => o.report));
          return outcomes;
        },
      });
      const comparison = { result, peers: reports };
      if (reuseMs > 0) {
        compared.delete(key);
        compared.set(key, { comparison, at: clock() });
        if (compared.size > reuseEntries) compared.delete(compared.keys().next().value!);
      }
      return comparison;
    } finally {
      comparing.delete(key);
      wakeIdle();
    }
  };

  async function evaluate(target: Target, signal?: AbortSignal, choice: EvaluationChoice = {}): Promise<TargetOutcome> {
    if (signal?.aborted) throw new CallerDeadlineError();
    const key = coalesceKey(target, choice);
    const kept = finished.get(key);
    if (kept !== undefined && clock() - kept.at < kept.forMs) {
      stats.reused++;
      return named(kept.outcome, target);
    }
    let shared = inFlight.get(key);
    if (shared === undefined) {
      if (inFlight.size >= maxPending) {
        stats.refused++;
        // Roughly how long the queue ahead takes to drain, at least a second.
        throw new QueueFullError(Math.max(1, Math.ceil(((inFlight.size / concurrency) * timeoutMs) / 10_000)));
      }
      shared = run(key, target, choice);
      inFlight.set(key, shared);
    } else {
      stats.coalesced++;
    }
    return named(await waitFor(shared, signal), target);
  }

  return {
    evaluate,
    async compare(target, outcome, { peers, signal, includePackage }) {
      if (signal?.aborted) throw new CallerDeadlineError();
      // The standing is the outcome's: an outcome with a package folded in is compared apart.
      const key = `${coalesceKey(target, { includePackage })}#${peers}`;
      const kept = compared.get(key);
      if (kept !== undefined && clock() - kept.at < reuseMs) return kept.comparison;
      let shared = comparing.get(key);
      if (shared === undefined) {
        shared = runCompare(key, outcome, peers);
        comparing.set(key, shared);
        // A caller that stopped waiting leaves no unhandled rejection behind.
        shared.catch(() => undefined);
      }
      return waitFor(shared, signal);
    },
    async audit(work) {
      if (auditing) {
        stats.refused++;
        // Roughly an evaluation's deadline: audits are seconds to minutes long.
        throw new QueueFullError(Math.max(1, Math.ceil(timeoutMs / 1000)), 'an audit is in progress');
      }
      auditing = true;
      try {
        return await work(concurrency);
      } finally {
        auditing = false;
        wakeIdle();
      }
    },
    freshFor(target, choice) {
      const kept = finished.get(coalesceKey(target, choice));
      return kept === undefined ? 0 : Math.max(0, kept.forMs - (clock() - kept.at));
    },
    stats: () => ({ ...stats, pending: inFlight.size }),
    idle: () => (busy() ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
  };
}

/** The report names the target as this caller wrote it (`nerq check <input> --json`). */
function named(outcome: TargetOutcome, target: Target): TargetOutcome {
  return { ...outcome, report: { ...outcome.report, target: { ...outcome.report.target, input: target.input } } };
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CallerDeadlineError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

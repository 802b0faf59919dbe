/**
 * Use case: check targets. Each target is resolved, collected and evaluated (at most
 * `concurrency` at once), compared with its previous evaluation and recorded in the store's
 * history. Returns the reports with the evidence behind them; never throws for bad data or a
 * failing network (a target that cannot be evaluated gets an error report).
 */
import { checkTarget, type TargetOutcome } from '../pipeline/check-target.js';
import type { Target } from '../target/types.js';
import { mapLimit } from '../util/map-limit.js';
import type { CallOptions, Runtime } from './runtime.js';

export type { TargetOutcome } from '../pipeline/check-target.js';

/** Targets evaluated at once by default. */
export const CHECK_CONCURRENCY = 4;

export interface CheckRequest extends CallOptions {
  targets: readonly Target[];
  concurrency?: number;
  /** Called as each target's evaluation finishes (progress). */
  onEvaluated?: (target: Target) => void;
}

export async function checkTargets(runtime: Runtime, request: CheckRequest): Promise<TargetOutcome[]> {
  const ctx = runtime.callContext(request);
  const outcomes = await mapLimit(request.targets, request.concurrency ?? CHECK_CONCURRENCY, async (target) => {
    const outcome = await checkTarget(target, ctx);
    request.onEvaluated?.(target);
    return outcome;
  });
  return outcomes.map((o) => ({ ...o, report: runtime.session.remember(o.report, o.evidence) }));
}

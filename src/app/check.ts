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

/** A request a front door refuses as the caller's to fix (the command line's usage error, exit 2), with its code. */
export interface RefusedRequest {
  /** `bad-target`: an `mcp:` word that names several MCP Registry servers; `bad-option`: `--include-package` naming a package that does not verify. */
  code: 'bad-target' | 'bad-option';
  message: string;
}

/**
 * The first outcome whose error is the caller's to fix rather than a result — every front door
 * refuses the whole request for it, each in its own terms (exit 2, HTTP 400, an MCP error result).
 */
export function refusedRequest(outcomes: readonly TargetOutcome[]): RefusedRequest | null {
  for (const { report } of outcomes) {
    if (report.error?.code === 'ambiguous') return { code: 'bad-target', message: report.error.message };
    if (report.error?.code === 'bad-option') return { code: 'bad-option', message: report.error.message };
  }
  return null;
}

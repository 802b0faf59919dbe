/**
 * One target, end to end: parse → resolve → collect → evaluate. Never throws for bad data
 * or a failing network; it returns a report (an error report when it cannot evaluate).
 */
import { CHECKS } from '../checks/index.js';
import type { Evidence } from '../evidence/schema.js';
import { buildReport, errorReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import type { Target } from '../target/types.js';
import { ADAPTERS } from '../ecosystems/adapters.js';
import type { RunContext } from './context.js';
import { removedButMalicious } from './removed-malicious.js';

export interface TargetOutcome {
  report: Report;
  evidence: Evidence | null;
}

export async function checkTarget(target: Target, ctx: RunContext): Promise<TargetOutcome> {
  const fail = (code: string, message: string, version?: string): TargetOutcome => ({
    report: errorReport({
      input: target.input,
      ecosystem: target.ecosystem,
      name: target.name,
      version: version ?? target.spec ?? null,
      code,
      message,
      gate: ctx.gate,
      evaluatedAt: ctx.now.toISOString(),
    }),
    evidence: null,
  });
  const collected = await ADAPTERS[target.ecosystem].collect(target, ctx, checkTarget);
  if (collected.kind === 'error') {
    // A pinned release the registry no longer serves, which OSV knows to be malicious, is judged on that record.
    const removed = await removedButMalicious(target, collected, ctx);
    if (removed === null) return fail(collected.code, collected.message, collected.version);
    return { report: buildReport(removed, { checks: CHECKS, gate: ctx.gate, category: ctx.category }), evidence: removed };
  }
  const report = buildReport(collected.evidence, { checks: CHECKS, gate: ctx.gate, category: ctx.category });
  if (collected.mcp !== undefined) report.mcp = collected.mcp;
  return { report, evidence: collected.evidence };
}

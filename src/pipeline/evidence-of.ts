/** The evidence envelope every collector returns: its sources under one target, stamped with the run's clock. */
import { EVIDENCE_SCHEMA_VERSION, type Evidence, type Sources } from '../evidence/schema.js';
import { VERSION } from '../version.js';
import type { RunContext } from './context.js';

export function evidenceOf(ctx: RunContext, target: Evidence['target'], sources: Sources): Evidence {
  return {
    evidenceVersion: EVIDENCE_SCHEMA_VERSION,
    capturedAt: ctx.now.toISOString(),
    tool: { name: 'nerq', version: VERSION },
    target,
    categoryOverride: ctx.category ?? null,
    sources,
  };
}

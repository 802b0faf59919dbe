/**
 * Use case: re-score saved evidence. No network, no store: the same evidence and options give
 * the identical report (docs/scoring.md). `evidenceFromJson` validates what a file, a request
 * body or stdin held.
 */
import { z } from 'zod';
import { CHECKS } from '../checks/index.js';
import { EvidenceSchema, type Evidence } from '../evidence/schema.js';
import { buildReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import type { GateOptions } from '../scoring/gate.js';

const EvidenceFileSchema = z.union([EvidenceSchema, z.array(EvidenceSchema)]);

/** JSON that is not evidence: `where` is the path of the first problem ('' at the top). */
export class EvidenceError extends Error {
  override name = 'EvidenceError';
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`not nerq evidence${where === '' ? '' : ` at ${where}`}: ${problem}`);
  }
}

/** One evidence object or an array of them (what `--save-evidence` writes), validated. */
export function evidenceFromJson(json: unknown): Evidence[] {
  const parsed = EvidenceFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EvidenceError(issue?.path.length ? issue.path.join('.') : '', issue?.message ?? 'invalid');
  }
  return Array.isArray(parsed.data) ? parsed.data : [parsed.data];
}

export interface RescoreOptions {
  gate: GateOptions;
  category?: string | null | undefined;
  /** Evaluate at this instant instead of the evidence's `capturedAt` (NERQ_NOW). */
  now?: Date | null | undefined;
}

export function rescoreEvidence(evidence: readonly Evidence[], options: RescoreOptions): Report[] {
  const { now } = options;
  return evidence.map((e) =>
    buildReport(now ? { ...e, capturedAt: now.toISOString() } : e, { checks: CHECKS, gate: options.gate, category: options.category ?? null }),
  );
}

/**
 * The gate (docs/scoring.md §10): applied to every run. A target fails when it is capped, scores
 * below the threshold or breaks a dimension floor; it could not be evaluated when it has
 * no score (not found, not supported), too little coverage, a guarding check that could not
 * run (unless allowed) or one that guards code nerq cannot inspect (never allowed), and did not fail.
 */
import type { Dimension } from '../checks/define.js';
import { reasonOf, type Reason } from '../model/reason.js';
import type { DimensionResult, Gate } from '../report/schema.js';
import { roundScore } from './grade.js';

export interface GateOptions {
  /** --min-score (default 50, the NO line). */
  threshold: number;
  /** --min-coverage (default 0.5). */
  minCoverage: number;
  /** Per-dimension floors (policy). */
  floors?: Partial<Record<Dimension, number>>;
  /**
   * --allow-incomplete: a target whose guarding checks (known vulnerabilities, malicious
   * packages) could not run may still pass. Off by default: unchecked is not clean.
   */
  allowIncomplete?: boolean;
}

export const DEFAULT_GATE: GateOptions = { threshold: 50, minCoverage: 0.5 };

export interface Gateable {
  score: number | null;
  coverage: number;
  caps: { id: string; limit: number; reason: string; dimension?: string | null; ceiling?: boolean }[];
  dimensions: DimensionResult[];
  error?: { code: string; message: string } | null;
  /** Guarding checks that could not run (their source was unavailable): the title and why. */
  unchecked?: readonly { title: string; reason: string }[];
  /** Guarding checks unknown because what they guard is code nerq cannot inspect (an MCP server's container image, a remote-only server): the title and why. Incomplete, even with --allow-incomplete. */
  uninspected?: readonly { title: string; reason: string }[];
}

export function applyGate(result: Gateable, options: GateOptions): Gate {
  const base = { threshold: options.threshold, minCoverage: options.minCoverage };
  const gate = (passed: boolean | null, reasons: Reason[]): Gate => ({
    ...base,
    passed,
    reasons: reasons.map((r) => r.text),
    reasonDetails: reasons,
  });
  if (result.error) return gate(null, [reasonOf('evaluation-failed', { error: result.error.code, message: result.error.message })]);

  const failures: Reason[] = [];
  // Overall caps fail the gate; a dimension cap already lowers the score it feeds, and a ceiling
  // (a bound from another evaluation, not a finding) the score the threshold is compared with.
  for (const cap of result.caps) {
    if (cap.dimension == null && cap.ceiling !== true) failures.push(reasonOf('capped', { cap: cap.id, limit: cap.limit, reason: cap.reason }));
  }
  if (result.score !== null && roundScore(result.score) < options.threshold) {
    failures.push(reasonOf('below-minimum', { score: roundScore(result.score), threshold: options.threshold }));
  }
  for (const [dimension, floor] of Object.entries(options.floors ?? {})) {
    const dim = result.dimensions.find((d) => d.id === dimension);
    if (dim?.score !== null && dim?.score !== undefined && dim.score < (floor as number)) {
      failures.push(reasonOf('below-floor', { dimension, score: dim.score, floor: floor as number }));
    }
  }
  if (failures.length > 0) return gate(false, failures);

  if (result.score === null) return gate(null, [reasonOf('no-score', {})]);
  const incomplete: Reason[] = [];
  if (result.coverage < options.minCoverage) {
    incomplete.push(reasonOf('low-coverage', { coverage: result.coverage, minCoverage: options.minCoverage }));
  }
  // What nerq cannot inspect is neither passed nor failed: incomplete, and no flag makes it checked.
  incomplete.push(...(result.uninspected ?? []).map((u) => reasonOf('uninspected', { title: u.title, reason: u.reason })));
  // Unchecked is not clean: a guarding check that could not run leaves the target incomplete.
  const unchecked = result.unchecked ?? [];
  if (options.allowIncomplete === true) {
    return incomplete.length > 0
      ? gate(null, incomplete)
      : gate(true, unchecked.map((u) => reasonOf('allowed-incomplete', { title: u.title, reason: u.reason })));
  }
  incomplete.push(...unchecked.map((u) => reasonOf('not-checked', { title: u.title, reason: u.reason })));
  if (incomplete.length > 0) return gate(null, incomplete);
  return gate(true, []);
}

/** Exit code over many gates (docs/scoring.md §10): 1 if any failed, else 3 if any not evaluated, else 0. */
export function exitCodeOf(gates: readonly Gate[]): 0 | 1 | 3 {
  if (gates.some((g) => g.passed === false)) return 1;
  if (gates.some((g) => g.passed === null)) return 3;
  return 0;
}

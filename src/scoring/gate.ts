/**
 * The gate (DESIGN.md §7): applied to every run. A target fails when it is capped, scores
 * below the threshold or breaks a dimension floor; it could not be evaluated when it has
 * no score (not found, not supported), too little coverage, or a guarding check that could not
 * run (unless allowed), and did not fail.
 */
import type { Dimension } from '../checks/define.js';
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
  caps: { id: string; limit: number; reason: string; dimension?: string | null }[];
  dimensions: DimensionResult[];
  error?: { code: string; message: string } | null;
  /** Guarding checks that could not run (their source was unavailable): the title and why. */
  unchecked?: readonly { title: string; reason: string }[];
}

export function applyGate(result: Gateable, options: GateOptions): Gate {
  const base = { threshold: options.threshold, minCoverage: options.minCoverage };
  if (result.error) return { ...base, passed: null, reasons: [`could not be evaluated: ${result.error.message}`] };

  const failures: string[] = [];
  // Overall caps fail the gate; a dimension cap already lowers the score it feeds.
  for (const cap of result.caps) if (cap.dimension == null) failures.push(`capped at ${cap.limit}: ${cap.reason}`);
  if (result.score !== null && roundScore(result.score) < options.threshold) {
    failures.push(`score ${roundScore(result.score).toFixed(1)} is below the minimum ${options.threshold}`);
  }
  for (const [dimension, floor] of Object.entries(options.floors ?? {})) {
    const dim = result.dimensions.find((d) => d.id === dimension);
    if (dim?.score !== null && dim?.score !== undefined && dim.score < (floor as number)) {
      failures.push(`${dimension} ${dim.score.toFixed(1)} is below its floor ${floor}`);
    }
  }
  if (failures.length > 0) return { ...base, passed: false, reasons: failures };

  if (result.score === null) return { ...base, passed: null, reasons: ['no score: nothing could be evaluated'] };
  const incomplete: string[] = [];
  if (result.coverage < options.minCoverage) {
    incomplete.push(`coverage ${Math.round(result.coverage * 100)}% is below the minimum ${Math.round(options.minCoverage * 100)}%`);
  }
  // Unchecked is not clean: a guarding check that could not run leaves the target incomplete.
  const unchecked = (result.unchecked ?? []).map((u) => `${u.title} not checked: ${u.reason}`);
  if (options.allowIncomplete === true) {
    return incomplete.length > 0
      ? { ...base, passed: null, reasons: incomplete }
      : { ...base, passed: true, reasons: unchecked.map((r) => `allowed by --allow-incomplete: ${r}`) };
  }
  incomplete.push(...unchecked);
  if (incomplete.length > 0) return { ...base, passed: null, reasons: incomplete };
  return { ...base, passed: true, reasons: [] };
}

/** Exit code over many gates (DESIGN.md §7): 1 if any failed, else 3 if any not evaluated, else 0. */
export function exitCodeOf(gates: readonly Gate[]): 0 | 1 | 3 {
  if (gates.some((g) => g.passed === false)) return 1;
  if (gates.some((g) => g.passed === null)) return 3;
  return 0;
}

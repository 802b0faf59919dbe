/** Figures over scored packages: medians, verdict counts and AUCs. Pure. */
import type { VerdictCode } from '../../src/report/schema.js';

export interface Scored {
  score: number | null;
  verdictCode: VerdictCode;
}

export interface GroupFigures {
  n: number;
  median: number | null;
  yes: number;
  caution: number;
  /** `NO — USE WITH CAUTION` and `NO — DO NOT USE`. */
  no: number;
  unknown: number;
  /** Scores below 50 (the gate's default line). */
  below50: number;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function figuresOf(items: readonly Scored[]): GroupFigures {
  const scores = items.flatMap((i) => (i.score === null ? [] : [i.score]));
  const count = (codes: readonly VerdictCode[]) => items.filter((i) => codes.includes(i.verdictCode)).length;
  return {
    n: items.length,
    median: median(scores),
    yes: count(['yes']),
    caution: count(['caution']),
    no: count(['no', 'do-not-use']),
    unknown: count(['unknown']),
    below50: scores.filter((s) => s < 50).length,
  };
}

/**
 * The probability that a random member of `high` scores above a random member of `low` (ties
 * count half): the area under the ROC curve of the score as a separator of the two groups.
 * Packages without a score count as 0.
 */
export function auc(high: readonly Scored[], low: readonly Scored[]): number | null {
  if (high.length === 0 || low.length === 0) return null;
  const a = high.map((i) => i.score ?? 0);
  const b = low.map((i) => i.score ?? 0);
  let wins = 0;
  for (const x of a) for (const y of b) wins += x > y ? 1 : x === y ? 0.5 : 0;
  return wins / (a.length * b.length);
}

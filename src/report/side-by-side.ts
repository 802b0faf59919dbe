/**
 * Targets side by side (`nerq compare`): score, grade, verdict, the five dimensions, coverage
 * and the checks where they differ most. Pure: a view of reports the engine made.
 */
import { DIMENSIONS, type Dimension } from '../model/dimensions.js';
import { peerLabel } from './comparison.js';
import type { Report } from './schema.js';

/** Checks listed at most under "where they differ most". */
export const MAX_DIFFERENCES = 5;

export interface SideBySide {
  /** `name@version` of each target, in the order given. */
  targets: string[];
  /** The target with the highest score (the first one given on a tie), or null when none has one. */
  highest: string | null;
  dimensions: { id: Dimension; scores: (number | null)[] }[];
  /**
   * Checks that one target fails and another does not (even when the others could not be judged:
   * a deprecated package beside two whose status is unknown), then checks whose known scores
   * differ; by the spread (highest − lowest known score, 0 with fewer than two known), largest first.
   */
  differences: { id: string; title: string; dimension: Dimension; scores: (number | null)[]; spread: number }[];
}

export function sideBySide(reports: readonly Report[]): SideBySide {
  const targets = reports.map(peerLabel);
  let highest: string | null = null;
  let best = -Infinity;
  reports.forEach((r, i) => {
    if (r.score !== null && r.score > best) {
      best = r.score;
      highest = targets[i]!;
    }
  });
  const dimensions = DIMENSIONS.map((id) => ({ id, scores: reports.map((r) => r.dimensions.find((d) => d.id === id)?.score ?? null) }));
  const ids: string[] = [];
  for (const report of reports) for (const check of report.checks) if (!ids.includes(check.id)) ids.push(check.id);
  const differences = ids
    .map((id) => {
      const checks = reports.map((r) => r.checks.find((c) => c.id === id));
      const first = checks.find((c) => c !== undefined)!;
      const scores = checks.map((c) => c?.score ?? null);
      const known = scores.filter((s): s is number => s !== null);
      const spread = known.length < 2 ? 0 : Math.round((Math.max(...known) - Math.min(...known)) * 10) / 10;
      // What decides "should we switch?" first: a finding on one target and not on another.
      const failed = checks.filter((c) => c?.status === 'fail').length;
      const failing = failed > 0 && failed < checks.length;
      return { failing, row: { id, title: first.title, dimension: first.dimension, scores, spread } };
    })
    .filter((d) => d.failing || d.row.spread > 0)
    .sort((a, b) => Number(b.failing) - Number(a.failing) || b.row.spread - a.row.spread || ids.indexOf(a.row.id) - ids.indexOf(b.row.id))
    .slice(0, MAX_DIFFERENCES)
    .map((d) => d.row);
  return { targets, highest, dimensions, differences };
}

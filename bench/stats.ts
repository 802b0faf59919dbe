/** Summary statistics for repeated measurements, and growth between workload sizes. Pure. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarise(values: readonly number[]): Summary {
  return {
    median: median(values),
    min: values.length === 0 ? Number.NaN : Math.min(...values),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
    runs: values.length,
  };
}

export interface GrowthStep {
  fromSize: number;
  toSize: number;
  /** toTime ÷ fromTime. */
  timeRatio: number;
  /** toSize ÷ fromSize. */
  sizeRatio: number;
  /** timeRatio ÷ sizeRatio: 1 is linear, below 1 better than linear. */
  exponentFactor: number;
}

/** How time grows from each size to the next (sizes ascending). */
export function growth(points: ReadonlyArray<{ size: number; ms: number }>): GrowthStep[] {
  const sorted = [...points].sort((a, b) => a.size - b.size);
  const steps: GrowthStep[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const from = sorted[i - 1]!;
    const to = sorted[i]!;
    const timeRatio = to.ms / from.ms;
    const sizeRatio = to.size / from.size;
    steps.push({ fromSize: from.size, toSize: to.size, timeRatio, sizeRatio, exponentFactor: timeRatio / sizeRatio });
  }
  return steps;
}

/**
 * "Linear or better": no step grows time by more than its size ratio, with `tolerance`
 * (default 10 %) for run-to-run noise. Null when there are fewer than two points.
 */
export function isLinearOrBetter(steps: readonly GrowthStep[], tolerance = 0.1): boolean | null {
  if (steps.length === 0) return null;
  return steps.every((s) => s.exponentFactor <= 1 + tolerance);
}

/** `1.23 s` / `456 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (Math.abs(ms) >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.round(ms)} ms`;
}

/** `median (min–max)` with a unit formatter. */
export function formatSummary(s: Summary, format: (n: number) => string = formatMs): string {
  if (s.runs === 0) return '–';
  if (s.runs === 1) return format(s.median);
  return `${format(s.median)} (${format(s.min)}–${format(s.max)})`;
}

/**
 * Rounding, grade bands and verdicts (docs/scoring.md §6). Everything downstream — grade,
 * verdict and gate — follows the score as shown: one decimal, rounded half up.
 */
import type { Grade, VerdictCode } from '../report/schema.js';

/** Round half up to one decimal, immune to binary noise (60.25 → 60.3, 70.0 stays 70). */
export function roundScore(value: number): number {
  const scaled = Number((value * 10).toFixed(6));
  return Math.floor(scaled + 0.5) / 10;
}

/** Grade bands, highest first: the scale users know from published trust reports. */
export const GRADE_BANDS: readonly { grade: Grade; min: number }[] = [
  { grade: 'A+', min: 90 },
  { grade: 'A', min: 80 },
  { grade: 'B', min: 70 },
  { grade: 'C', min: 60 },
  { grade: 'D', min: 45 },
  { grade: 'E', min: 30 },
  { grade: 'F', min: 0 },
];

export function gradeOf(score: number): Grade {
  const shown = roundScore(score);
  for (const band of GRADE_BANDS) if (shown >= band.min) return band.grade;
  return 'F';
}

export const VERDICT_WORDS: Record<VerdictCode, string> = {
  yes: 'YES',
  caution: 'CAUTION',
  no: 'NO — USE WITH CAUTION',
  'do-not-use': 'NO — DO NOT USE',
  unknown: 'UNKNOWN',
};

/** The verdict a score earns on its own (before the danger guard and do-not-use caps). */
export function verdictForScore(score: number): VerdictCode {
  const shown = roundScore(score);
  if (shown >= 70) return 'yes';
  if (shown >= 50) return 'caution';
  return 'no';
}

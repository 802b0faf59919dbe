/**
 * Band tables written as the prose of a check's description (docs/checks.md is generated from
 * the descriptions), so that the text a user reads is the table the check scores with.
 */

/** Upper-bound bands: `≤ 90 days scores 100, ≤ 180 90, …, older 10`. */
export function upperBandProse(bands: readonly (readonly [max: number, score: number])[], unit: string, beyond: string): string {
  return `${bands.map(([max, score], i) => (i === 0 ? `≤ ${max} ${unit} scores ${score}` : `≤ ${max} ${score}`)).join(', ')}, ${beyond}`;
}

/**
 * Lower-bound counts: `≥ 20 score 100, 10–19 85, 5–9 70, 2 40, 1 20` (a band of one number is
 * written alone); `verb` follows the first band (`score`, `scores`).
 */
export function countBandProse(bands: readonly (readonly [min: number, score: number])[], verb: string): string {
  return bands
    .map(([min, score], i) => {
      if (i === 0) return `≥ ${min} ${verb} ${score}`;
      const max = bands[i - 1]![0] - 1;
      return `${max === min ? `${min}` : `${min}–${max}`} ${score}`;
    })
    .join(', ');
}

/**
 * Upper-bound bands over counts from 0: `0–5 scores 100, 6–15 80, 16–30 60, more than 30 40`;
 * `verb` follows the first band.
 */
export function rangeBandProse(bands: readonly (readonly [max: number, score: number])[], verb: string, beyondScore: number): string {
  const written = bands.map(([max, score], i) => {
    const min = i === 0 ? 0 : bands[i - 1]![0] + 1;
    const range = min === max ? `${min}` : `${min}–${max}`;
    return i === 0 ? `${range} ${verb} ${score}` : `${range} ${score}`;
  });
  return `${[...written, `more than ${bands[bands.length - 1]![0]} ${beyondScore}`].join(', ')}`;
}

/** Hours as a description writes them: whole days past one day (`72` → `3 days`), else hours. */
export function hoursProse(hours: number): string {
  return hours > 24 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`;
}

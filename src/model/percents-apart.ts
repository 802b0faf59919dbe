/**
 * Two fractions written as percentages that read as far apart as they are: a coverage of
 * 0.4987 against a minimum of 0.5 is "49.9%" and "50%", never "50% is below 50%". The minimum
 * is written with the decimals it needs (at most two: 0.655 is "65.5%"), the value with the
 * same, and one decimal more (up to two) while the two would read the same; past that, the
 * value is cut down rather than rounded up to its minimum.
 */
export function percentsApart(value: number, minimum: number): [string, string] {
  for (let decimals = decimalsOf(minimum * 100); decimals <= 2; decimals++) {
    const shown = trim((value * 100).toFixed(decimals));
    const floor = trim((minimum * 100).toFixed(decimals));
    if (Number(shown) !== Number(floor) || value >= minimum) return [shown, floor];
  }
  return [trim((Math.floor(value * 10_000) / 100).toFixed(2)), trim((minimum * 100).toFixed(2))];
}

/** How many decimals (0–2) a percentage needs to be written exactly. */
function decimalsOf(percent: number): number {
  for (const decimals of [0, 1]) if (Math.abs(Number(percent.toFixed(decimals)) - percent) < 1e-9) return decimals;
  return 2;
}

/** "50.0" → "50": a decimal that adds nothing is not written. */
function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

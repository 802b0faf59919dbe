/**
 * A number as messages print it: en-US grouping, at most one fraction digit, rounded half away
 * from zero on the number's shortest decimal form — exactly what
 * `new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value)` prints, without
 * loading ICU's number formatting, which costs 15–25 ms on its first use in a process (a
 * measurable share of a warm `nerq check`). Values JavaScript writes in exponent form
 * (≥ 1e21, < 1e-6) and non-finite ones are left to Intl, built on first need. Pure.
 */

let intl: Intl.NumberFormat | undefined;

export function formatNumber(value: number): string {
  const text = String(Math.abs(value));
  if (!Number.isFinite(value) || text.includes('e')) {
    intl ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
    return intl.format(value);
  }
  const negative = value < 0 || Object.is(value, -0);
  const dot = text.indexOf('.');
  let digits = dot === -1 ? text : text.slice(0, dot);
  let fraction = dot === -1 ? '' : text.slice(dot + 1, dot + 2);
  if (dot !== -1 && text.length > dot + 2 && text.charCodeAt(dot + 2) >= 0x35) {
    // Round up: the kept digits as one decimal numeral, plus one in its last place.
    const rounded = increment(digits + fraction);
    digits = rounded.slice(0, -1) || '0';
    fraction = rounded.slice(-1);
  }
  if (fraction === '0') fraction = '';
  return `${negative ? '-' : ''}${group(digits)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A string of decimal digits plus one (`'199'` → `'200'`, `'99'` → `'100'`). */
function increment(numeral: string): string {
  let i = numeral.length - 1;
  while (i >= 0 && numeral[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(numeral.length)}`;
  return numeral.slice(0, i) + String.fromCharCode(numeral.charCodeAt(i) + 1) + '0'.repeat(numeral.length - 1 - i);
}

/** Thousands separated by commas. */
function group(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

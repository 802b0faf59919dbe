/**
 * Plain-text layout helpers shared by the renderers: display width, word wrapping and the
 * display formats of scores, percentages and weights. No colour here; callers style the
 * pieces after layout, so widths are always measured on visible text.
 */

/** Combining marks and variation selectors take no column. */
const ZERO_WIDTH = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]/u;

/** East Asian wide and fullwidth ranges, and the common emoji blocks: two columns. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f6ff}\u{1f900}-\u{1f9ff}\u{1fa70}-\u{1faff}\u{20000}-\u{3fffd}]/u;

function charWidth(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** Columns a sanitised, colourless string occupies in a terminal. */
export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) width += charWidth(ch);
  return width;
}

/** A word that holds a URL (`https://…`, `(git+ssh://…)`): copied from the terminal, so never broken. */
const URL_WORD = /[a-z][a-z0-9+.-]*:\/\/\S/i;

/**
 * Greedy word wrap of one paragraph: the first line holds `firstWidth` columns (default
 * `width`), the others `width`. Runs of spaces collapse; a word longer than a line (a long
 * package name) is broken, but a URL longer than a line stays whole on a line of its own (it
 * overflows: a URL broken across lines cannot be copied). Always returns at least one line
 * (possibly empty).
 */
export function wrapText(text: string, width: number, firstWidth = width): string[] {
  const limitOf = (index: number) => Math.max(1, Math.floor(index === 0 ? firstWidth : width));
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const breakLine = () => {
    lines.push(line);
    line = '';
    used = 0;
  };
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const w = displayWidth(word);
    if (line !== '' && used + 1 + w <= limitOf(lines.length)) {
      line += ` ${word}`;
      used += 1 + w;
      continue;
    }
    if (line !== '') breakLine();
    if (w <= limitOf(lines.length) || URL_WORD.test(word)) {
      line = word;
      used = w;
      continue;
    }
    for (const ch of word) {
      const cw = charWidth(ch);
      if (used + cw > limitOf(lines.length) && line !== '') breakLine();
      line += ch;
      used += cw;
    }
  }
  lines.push(line);
  return lines;
}

/** Wrap with an indent on every line (`first` for the first one, default the same). */
export function wrapIndented(text: string, width: number, indent: string, first = indent): string[] {
  return wrapText(text, width - displayWidth(indent), width - displayWidth(first)).map(
    (line, i) => (i === 0 ? first : indent) + line,
  );
}

/** Pad on the right to `width` columns. */
export function padEnd(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/** Pad on the left to `width` columns. */
export function padStart(s: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(s))) + s;
}

/** A score with one decimal (already rounded by the scoring engine), or the null mark. */
export function formatScore(score: number | null, none = '—'): string {
  return score === null ? none : score.toFixed(1);
}

/** A 0–1 ratio as a whole percentage for display (`0.833` → `83%`). */
export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/** A weight for a table column: integers as they are, fractions with two decimals (`0.30`). */
export function formatWeight(weight: number): string {
  return Number.isInteger(weight) ? String(weight) : weight.toFixed(2);
}

/**
 * The headings of a repository README past the part kept as evidence (the first
 * README_TEXT_BYTES): a long README's licence, usage or API section often sits beyond the cut,
 * as are its code examples, and a section or an example the cut hid is not one the README lacks
 * (docs/checks.md, readme). The whole text is already here (one read); only its ATX headings
 * (`## License`) outside code fences are kept, at most MAX_TAIL_HEADINGS, each at most
 * TAIL_HEADING_CHARS, and the fenced code blocks it opens are counted. One pass over the
 * lines, each matched by anchored patterns without nested repetition.
 */

/** Headings kept from beyond the cut. */
export const MAX_TAIL_HEADINGS = 200;
/** Characters kept of each heading's text. */
export const TAIL_HEADING_CHARS = 120;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}[ \t]+/;

/** What a README holds past the part kept. */
export interface ReadmeTail {
  headings: string[];
  /** Fenced code blocks opened past the cut. */
  codeBlocks: number;
}

/**
 * The text of each ATX heading of `text` on a line that ends past `cut` (a character index:
 * the length of the part kept), outside fenced code — the fences followed from the start, so a
 * `# comment` in a shell block past the cut is code, as it is to the README analysis — and the
 * fenced code blocks opened on a line that starts past it.
 */
export function readmeTail(text: string, cut: number): ReadmeTail {
  const out: string[] = [];
  let codeBlocks = 0;
  let fence: { char: string; length: number } | null = null;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    const opener = FENCE.exec(line);
    if (opener !== null) {
      const run = opener[1] ?? '';
      if (fence === null) {
        fence = { char: run.charAt(0), length: run.length };
        if (start >= cut) codeBlocks += 1;
      } else if (run.charAt(0) === fence.char && run.length >= fence.length && line.slice(opener[0].length).trim() === '') fence = null;
    } else if (fence === null && end > cut && out.length < MAX_TAIL_HEADINGS) {
      const heading = ATX.exec(line);
      if (heading !== null) {
        const words = line.slice(heading[0].length, heading[0].length + 4 * TAIL_HEADING_CHARS).replace(/[ \t]#+[ \t]*$/, '').trim();
        if (words !== '') out.push(words.slice(0, TAIL_HEADING_CHARS));
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return { headings: out, codeBlocks };
}

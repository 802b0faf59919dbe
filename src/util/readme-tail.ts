/**
 * The headings of a README past the part kept as evidence (its first README_TEXT_BYTES; a PyPI
 * long description's first 256 KiB): a long README's licence, usage or API section often sits
 * beyond the cut, as are its code examples, and a section or an example the cut hid is not one
 * the README lacks (docs/checks.md, readme). Only its ATX headings (`## License`) outside code
 * fences are kept, at most MAX_TAIL_HEADINGS, each at most TAIL_HEADING_CHARS, and the fenced
 * code blocks it opens are counted. Shared by every reader of a README: a repository's, an npm
 * tarball's (streamed: the text arrives in chunks and is never held whole), the registry's, PyPI's.
 *
 * One pass over the lines, each matched by anchored patterns without nested repetition; of a
 * line only its first TAIL_LINE_CHARS characters are held (the rest is only asked whether it is
 * blank), so memory does not grow with the text, however long its lines.
 */

/** Headings kept from beyond the cut. */
export const MAX_TAIL_HEADINGS = 200;
/** Characters kept of each heading's text. */
export const TAIL_HEADING_CHARS = 120;
/** Characters of a line held to read it: a fence or a heading marker past them is read as cut there. */
export const TAIL_LINE_CHARS = 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}[ \t]+/;
const NOT_BLANK = /\S/;

/** What a README holds past the part kept. */
export interface ReadmeTail {
  headings: string[];
  /** Fenced code blocks opened past the cut. */
  codeBlocks: number;
}

/**
 * Reads a README's text as it comes, in pieces of any size: the text of each ATX heading on a
 * line that ends past the cut (a character index: the length of the part kept), outside fenced
 * code — the fences followed from the start, so a `# comment` in a shell block past the cut is
 * code, as it is to the README analysis — and the fenced code blocks opened on a line that
 * starts past it. The cut is given up front, or marked where the text written so far ends
 * (`markCut`, for a stream whose kept part is only known as it arrives).
 */
export class ReadmeTailScanner {
  private readonly headings: string[] = [];
  private codeBlocks = 0;
  private fence: { char: string; length: number } | null = null;
  /** Characters written so far. */
  private at = 0;
  private lineStart = 0;
  /** The first TAIL_LINE_CHARS characters of the line being read. */
  private line = '';
  /** Whether the characters of the line past `line` are all blank. */
  private restBlank = true;
  private result: ReadmeTail | null = null;

  private cut: number;

  // A plain field, not a parameter property: `npm run validity` runs the sources under
  // Node's type stripping, which rejects parameter properties.
  constructor(cut = Number.POSITIVE_INFINITY) {
    this.cut = cut;
  }

  /** The cut falls where the text written so far ends. */
  markCut(): this {
    this.cut = this.at;
    return this;
  }

  write(text: string): this {
    if (this.result !== null) return this;
    let from = 0;
    while (from < text.length) {
      const newline = text.indexOf('\n', from);
      const end = newline === -1 ? text.length : newline;
      this.take(text, from, end);
      this.at += end - from;
      if (newline === -1) break;
      this.endLine();
      this.at += 1;
      this.lineStart = this.at;
      this.line = '';
      this.restBlank = true;
      from = newline + 1;
    }
    return this;
  }

  /** The text has ended: what its tail holds. */
  end(): ReadmeTail {
    if (this.result === null) {
      this.endLine();
      this.result = { headings: this.headings, codeBlocks: this.codeBlocks };
    }
    return this.result;
  }

  /** Characters `from`..`end` of `text` belong to the current line. */
  private take(text: string, from: number, end: number): void {
    const room = TAIL_LINE_CHARS - this.line.length;
    if (room > 0) this.line += text.slice(from, Math.min(end, from + room));
    if (end - from > room && this.restBlank && NOT_BLANK.test(text.slice(from + room, end))) this.restBlank = false;
  }

  /** The current line ends at `this.at`. */
  private endLine(): void {
    const line = this.line;
    const opener = FENCE.exec(line);
    if (opener !== null) {
      const run = opener[1] ?? '';
      if (this.fence === null) {
        this.fence = { char: run.charAt(0), length: run.length };
        if (this.lineStart >= this.cut) this.codeBlocks += 1;
      } else if (run.charAt(0) === this.fence.char && run.length >= this.fence.length && this.restBlank && line.slice(opener[0].length).trim() === '') {
        this.fence = null;
      }
    } else if (this.fence === null && this.at > this.cut && this.headings.length < MAX_TAIL_HEADINGS) {
      const heading = ATX.exec(line);
      if (heading !== null) {
        const words = line.slice(heading[0].length, heading[0].length + 4 * TAIL_HEADING_CHARS).replace(/[ \t]#+[ \t]*$/, '').trim();
        if (words !== '') this.headings.push(words.slice(0, TAIL_HEADING_CHARS));
      }
    }
  }
}

/** The tail of a README held whole, `cut` characters of it kept. */
export function readmeTail(text: string, cut: number): ReadmeTail {
  return new ReadmeTailScanner(cut).write(text).end();
}

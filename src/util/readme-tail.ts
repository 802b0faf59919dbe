/**
 * The headings of a README past the part kept as evidence (its first README_TEXT_BYTES; a PyPI
 * long description's first 256 KiB): a long README's licence, usage or API section often sits
 * beyond the cut, as are its code examples, and a section or an example the cut hid is not one
 * the README lacks (docs/checks.md, readme). Its lines are read as the README analysis reads the
 * part kept (util/readme-lines.ts, the one definition: ATX, setext and reStructuredText
 * underlined, HTML and bold-line headings; fenced, indented, `.. code-block::` and `<pre>` code
 * blocks), after the same removal of HTML comments and images; at most MAX_TAIL_HEADINGS
 * headings are kept, each at most TAIL_HEADING_CHARS, and the code blocks it opens are counted.
 * Shared by every reader of a README: a repository's, an npm tarball's (streamed: the text
 * arrives in chunks and is never held whole), the registry's, PyPI's.
 *
 * One pass over the lines, each matched by anchored patterns without nested repetition; of a
 * line only its first TAIL_LINE_CHARS characters are held (the rest is only asked whether it is
 * blank), so memory does not grow with the text, however long its lines: a marker, a comment's
 * end or a heading's words past them are read as cut there.
 */
import { isBlank, PRE_TAG, ReadmeLineReader, stripImages } from './readme-lines.js';

/** Headings kept from beyond the cut. */
export const MAX_TAIL_HEADINGS = 200;
/** Characters kept of each heading's text. */
export const TAIL_HEADING_CHARS = 120;
/** Characters of a line held to read it: a fence or a heading marker past them is read as cut there. */
export const TAIL_LINE_CHARS = 1024;

const NOT_BLANK = /\S/;

/** What a README holds past the part kept. */
export interface ReadmeTail {
  headings: string[];
  /** Code blocks opened past the cut. */
  codeBlocks: number;
}

/**
 * Reads a README's text as it comes, in pieces of any size: the text of each heading made by a
 * line that ends past the cut (a character index: the length of the part kept) and the code
 * blocks opened on a line that starts past it. Code blocks and HTML comments are followed from
 * the start, so a `# comment` in a shell block past the cut is code, as it is to the README
 * analysis. The cut is given up front, or marked where the text written so far ends (`markCut`,
 * for a stream whose kept part is only known as it arrives).
 */
export class ReadmeTailScanner {
  private readonly headings: string[] = [];
  private codeBlocks = 0;
  private readonly reader = new ReadmeLineReader((heading) => this.heading(heading));
  /** Characters written so far. */
  private at = 0;
  private lineStart = 0;
  /** The first TAIL_LINE_CHARS characters of the line being read. */
  private line = '';
  /** Whether the characters of the line past `line` are all blank. */
  private restBlank = true;
  /** An HTML comment is open: the text before it (on the line it opened) waits for the line it closes on, as one line. */
  private comment: { before: string; start: number } | null = null;
  private result: ReadmeTail | null = null;

  private cut: number;

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
      this.endLine(true);
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
      this.endLine(false);
      // A comment never closed hides the rest (as in HTML): what stood before it is the last line.
      if (this.comment !== null) this.read(this.comment.before, this.comment.start, true, false);
      this.result = { headings: this.headings, codeBlocks: this.codeBlocks };
    }
    return this.result;
  }

  /** Characters `from`..`end` of `text` belong to the current line. */
  private take(text: string, from: number, end: number): void {
    const room = TAIL_LINE_CHARS - this.line.length;
    if (room > 0) this.line += text.slice(from, Math.min(end, from + room));
    if (end - from > room && this.restBlank && NOT_BLANK.test(text.slice(from + Math.max(room, 0), end))) this.restBlank = false;
  }

  /** A heading of a line ending past the cut. */
  private heading(text: string): void {
    if (this.at <= this.cut || this.headings.length >= MAX_TAIL_HEADINGS) return;
    const words = text.slice(0, 4 * TAIL_HEADING_CHARS).replace(/[ \t]#+[ \t]*$/, '').trim();
    if (words !== '') this.headings.push(words.slice(0, TAIL_HEADING_CHARS));
  }

  /** The current line ends at `this.at` (`broken`: a line break follows it). */
  private endLine(broken: boolean): void {
    const raw = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
    // HTML comments out, as the analysis of the part kept removes them (a space each); a comment over several lines joins its first and last into one.
    let visible = '';
    let start = this.lineStart;
    let from = 0;
    if (this.comment !== null) {
      const close = raw.indexOf('-->');
      if (close === -1) return;
      visible = `${this.comment.before} `;
      start = this.comment.start;
      this.comment = null;
      from = close + 3;
    }
    for (;;) {
      const open = raw.indexOf('<!--', from);
      if (open === -1) break;
      visible += `${raw.slice(from, open)} `;
      const close = raw.indexOf('-->', open + 4);
      if (close === -1) {
        this.comment = { before: visible.slice(0, TAIL_LINE_CHARS), start };
        return;
      }
      from = close + 3;
    }
    visible += raw.slice(from);
    this.read(visible, start, this.restBlank, broken);
  }

  /** One line of decoration-free text that started at `start`. */
  private read(text: string, start: number, restBlank: boolean, broken: boolean): void {
    const line = stripImages(text);
    const opens = this.reader.line(line, restBlank && isBlank(line));
    if (start < this.cut) return;
    if (opens) this.codeBlocks += 1;
    if (line.includes('<')) this.codeBlocks += ((broken ? `${line}\n` : line).match(PRE_TAG) ?? []).length;
  }
}

/** The tail of a README held whole, `cut` characters of it kept. */
export function readmeTail(text: string, cut: number): ReadmeTail {
  return new ReadmeTailScanner(cut).write(text).end();
}

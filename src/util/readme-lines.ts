/**
 * How a README's lines are read for its headings and code blocks (docs/checks.md, readme): the
 * one definition both readers share — the README analysis of the part kept
 * (checks/lib/readme.ts) and the scanner of what lies past the cut (util/readme-tail.ts).
 *
 * Headings: ATX (`## License`), a setext or reStructuredText underline (`License` over `=====`,
 * `-----`, `~~~~~`, `^^^^^`, `*****`), an HTML `<hN>`, a line that is only bold text; never inside
 * a fenced code block. Code blocks: fenced (```` ``` ```` / `~~~`), indented (four spaces or a tab
 * after a blank line, not in a list), reStructuredText `.. code-block::` (its indented body is
 * the same block) and `<pre>`. Text is hostile: each line pattern is anchored, without nested
 * repetition, and runs only when the line's first characters allow it to match.
 */

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/;
const UNDERLINE = /^ {0,3}(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,})[ \t]*$/;
const HTML_HEADING = /<h[1-6]\b[^>]{0,500}>([^<]{0,500})/i;
const BOLD_LINE = /^[ \t]*\*\*([^*]{1,80})\*\*:?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/;
const RST_CODE = /^\.\.[ \t]+(?:code-block|code|sourcecode)::/;
/** An HTML `<pre>` block's opening tag (counted wherever it stands). */
export const PRE_TAG = /<pre[\s>]/gi;

/**
 * Whitespace as `\s` and `String.prototype.trim` read it (one UTF-16 code unit): tab, line
 * feed, vertical tab, form feed, carriage return, space, no-break space, ogham space mark,
 * U+2000–U+200A, line and paragraph separators, narrow no-break space, medium mathematical
 * space, ideographic space and the byte order mark.
 */
export function isSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `text.trim() === ''` without making the trimmed string. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/** Remove badges and other images (bounded patterns, none across a line break). */
export function stripImages(text: string): string {
  let prose = text;
  // Every badge and image pattern holds a literal `![`, the HTML one a `<`; a replacement
  // (a space) makes neither, so text without them is left as it is without a pass per pattern.
  if (prose.includes('![')) {
    prose = prose
      .replace(/\[!\[[^\]\n]{0,500}\]\([^)\n]{0,2000}\)\]\([^)\n]{0,2000}\)/g, ' ')
      .replace(/\[!\[[^\]\n]{0,500}\]\[[^\]\n]{0,500}\]\]\[[^\]\n]{0,500}\]/g, ' ')
      .replace(/!\[[^\]\n]{0,500}\]\([^)\n]{0,2000}\)/g, ' ')
      .replace(/!\[[^\]\n]{0,500}\]\[[^\]\n]{0,500}\]/g, ' ');
  }
  return prose.includes('<') ? prose.replace(/<img\b[^>]{0,2000}>/gi, ' ') : prose;
}

const SPACE = 0x20;
const TAB = 0x09;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const HASH = 0x23;
const STAR = 0x2a;
const DOT = 0x2e;
const UNDERLINE_CHARS = new Set([0x3d, 0x2d, TILDE, 0x5e, STAR]); // = - ~ ^ *

/**
 * The code unit at the first position after at most three leading spaces (NaN past the end):
 * every line pattern anchored with `^ {0,3}` can only match when this is its first character.
 */
function afterIndent(line: string): number {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === SPACE) i += 1;
  return line.charCodeAt(i);
}

/** A list item starts with spaces or tabs, a bullet (- * +) or a digit. */
function mayListItem(first: number): boolean {
  return first === SPACE || first === TAB || first === 0x2d || first === STAR || first === 0x2b || (first >= 0x30 && first <= 0x39);
}

/**
 * Reads decoration-free README lines one at a time (no `<pre>`: its tags are counted over the
 * text by whoever holds it, `PRE_TAG`): `line` calls `onHeading` with the text of a heading the
 * line makes (for an underline, the line before it) and answers whether the line opens a code
 * block. It holds the line before, and whether a fence, a list, an indented block or a code
 * directive's body is open.
 */
export class ReadmeLineReader {
  private fence: { char: string; size: number } | null = null;
  private previous = '';
  private previousBlank = true;
  private inList = false;
  private inIndented = false;
  /** A reStructuredText code directive was just counted: its indented body is the same block. */
  private directiveBody = false;

  private readonly onHeading: (heading: string) => void;

  constructor(onHeading: (heading: string) => void) {
    this.onHeading = onHeading;
  }

  /** Whether a fenced code block is open (its lines are code). */
  get inFence(): boolean {
    return this.fence !== null;
  }

  /**
   * One line, without its line break. `blank`: whether the line is blank — given when `line` is
   * only the line's first characters (then the rest counts too).
   */
  line(line: string, blank = isBlank(line)): boolean {
    const lead = afterIndent(line);
    const fenceMatch = lead === BACKTICK || lead === TILDE ? FENCE.exec(line) : null;
    if (this.fence !== null) {
      if (fenceMatch?.[1] !== undefined && fenceMatch[1][0] === this.fence.char && fenceMatch[1].length >= this.fence.size) {
        this.fence = null;
      }
      this.previous = line;
      this.previousBlank = blank;
      return false;
    }
    if (fenceMatch?.[1] !== undefined) {
      this.fence = { char: fenceMatch[1][0] ?? '`', size: fenceMatch[1].length };
      this.previous = line;
      this.previousBlank = false;
      return true;
    }
    const first = line.charCodeAt(0);
    let opens = false;
    if (!blank && (first === TAB || line.startsWith('    '))) {
      opens = !this.inIndented && this.previousBlank && !this.inList && !this.directiveBody;
      this.inIndented = true;
      this.directiveBody = false;
      this.previous = line;
      this.previousBlank = false;
      return opens;
    }
    if (!blank) {
      this.inIndented = false;
      if (mayListItem(first) && LIST_ITEM.test(line)) this.inList = true;
      else if (!isSpaceCode(first)) this.inList = false;
    }
    const atx = lead === HASH ? ATX_HEADING.exec(line) : null;
    if (atx) this.onHeading(atx[1] ?? '');
    else if (!this.previousBlank && UNDERLINE_CHARS.has(lead) && UNDERLINE.test(line)) this.onHeading(this.previous);
    if (line.includes('<')) {
      const html = HTML_HEADING.exec(line);
      if (html?.[1] !== undefined) this.onHeading(html[1]);
    }
    if (first === STAR || first === SPACE || first === TAB) {
      const bold = BOLD_LINE.exec(line);
      if (bold?.[1] !== undefined) this.onHeading(bold[1]);
    }
    if (first === DOT && RST_CODE.test(line)) {
      opens = true;
      this.directiveBody = true;
    } else if (!blank) {
      this.directiveBody = false;
    }
    this.previous = line;
    this.previousBlank = blank;
    return opens;
  }
}

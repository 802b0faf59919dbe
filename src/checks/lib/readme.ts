/**
 * README substance: how much prose it has once badges, images and HTML comments are removed,
 * which sections its headings announce (install, usage/example, API/options, licence) and how
 * many code examples it shows. Line-by-line scanning with simple patterns: the text is
 * hostile and must not be able to make a regular expression backtrack for long.
 */

export const README_SECTIONS = ['install', 'usage', 'api', 'license'] as const;
export type ReadmeSection = (typeof README_SECTIONS)[number];

export interface ReadmeAnalysis {
  /** Characters of text after removing badges/images/HTML comments and collapsing whitespace. */
  length: number;
  /** Sections announced by headings, in README_SECTIONS order. */
  sections: ReadmeSection[];
  /** Fenced, indented, `<pre>` and reStructuredText code blocks. */
  codeBlocks: number;
}

const SECTION_PATTERNS: Readonly<Record<ReadmeSection, RegExp>> = {
  install: /\binstall|\bset ?up\b|get(?:ting)? started|\bdownload/i,
  usage: /\busage\b|\bexamples?\b|\bhow to use\b|quick ?start|\btutorial\b|get(?:ting)? started|\bsynopsis\b|\bbasic use\b|\bdemo\b/i,
  api: /\bapi\b|\boptions\b|\bconfigur|\breference\b|\bmethods\b|\bparameters\b|\bdocumentation\b|\bdocs\b|\barguments\b|\bcommands\b|\binterface\b/i,
  license: /\blicen[cs]/i,
};

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/;
const UNDERLINE = /^ {0,3}(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,})[ \t]*$/;
const HTML_HEADING = /<h[1-6]\b[^>]{0,500}>([^<]{0,500})/i;
const BOLD_LINE = /^[ \t]*\*\*([^*]{1,80})\*\*:?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/;
const RST_CODE = /^\.\.[ \t]+(?:code-block|code|sourcecode)::/;

/** Remove HTML comments with a linear scan (an unclosed `<!--` hides the rest, as in HTML). */
function stripComments(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<!--', from);
    if (open === -1) return out + text.slice(from);
    out += `${text.slice(from, open)} `;
    const close = text.indexOf('-->', open + 4);
    if (close === -1) return out;
    from = close + 3;
  }
}

/** Remove what is not prose: HTML comments, badges and other images (bounded patterns). */
export function stripDecoration(text: string): string {
  let prose = stripComments(text);
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

/** Whether `text` has a C0 or C1 control character (or DEL), as the patterns below read them. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** Escape sequences and control characters hidden in a heading do not hide its words. */
function plainHeading(heading: string): string {
  if (!hasControl(heading)) return heading;
  // eslint-disable-next-line no-control-regex
  return heading.replace(/\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

function sectionsOf(heading: string, found: Set<ReadmeSection>): void {
  const plain = plainHeading(heading);
  for (const section of README_SECTIONS) if (SECTION_PATTERNS[section].test(plain)) found.add(section);
}

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
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/** `text.replace(/\s+/g, ' ').trim().length` without making either string. */
export function collapsedLength(text: string): number {
  let length = 0;
  let seen = false;
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpaceCode(text.charCodeAt(i))) {
      gap = seen;
    } else {
      if (gap) length += 1;
      gap = false;
      seen = true;
      length += 1;
    }
  }
  return length;
}

const SPACE = 0x20;
const TAB = 0x09;

/**
 * The code unit at the first position after at most three leading spaces (NaN past the end):
 * every line pattern anchored with `^ {0,3}` can only match when this is its first character.
 */
function afterIndent(line: string): number {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === SPACE) i += 1;
  return line.charCodeAt(i);
}

const BACKTICK = 0x60;
const TILDE = 0x7e;
const HASH = 0x23;
const STAR = 0x2a;
const DOT = 0x2e;
const UNDERLINE_CHARS = new Set([0x3d, 0x2d, TILDE, 0x5e, STAR]); // = - ~ ^ *

/** A list item starts with spaces or tabs, a bullet (- * +) or a digit. */
function mayListItem(first: number): boolean {
  return first === SPACE || first === TAB || first === 0x2d || first === STAR || first === 0x2b || (first >= 0x30 && first <= 0x39);
}

/**
 * One pass over decoration-free text: calls `onHeading` with each heading's text (ATX,
 * setext/reStructuredText underline, HTML, bold line; never inside a code block) and returns
 * the number of code blocks. Each line pattern runs only when the line's first characters
 * allow it to match (the same answers as running them all; see readme-equivalence.test.ts).
 */
function scanProse(prose: string, onHeading: (heading: string) => void): number {
  let codeBlocks = prose.includes('<') ? (prose.match(/<pre[\s>]/gi) ?? []).length : 0;
  const lines = prose.split(/\r?\n/);
  let fence: { char: string; size: number } | null = null;
  let previous = '';
  let previousBlank = true;
  let inList = false;
  let inIndented = false;
  /** A reStructuredText code directive was just counted: its indented body is the same block. */
  let directiveBody = false;
  for (const line of lines) {
    const lead = afterIndent(line);
    const fenceMatch = lead === BACKTICK || lead === TILDE ? FENCE.exec(line) : null;
    if (fence !== null) {
      if (fenceMatch?.[1] !== undefined && fenceMatch[1][0] === fence.char && fenceMatch[1].length >= fence.size) {
        fence = null;
      }
      previous = line;
      previousBlank = isBlank(line);
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = { char: fenceMatch[1][0] ?? '`', size: fenceMatch[1].length };
      codeBlocks += 1;
      previous = line;
      previousBlank = false;
      continue;
    }
    const blank = isBlank(line);
    const first = line.charCodeAt(0);
    if (!blank && (first === TAB || line.startsWith('    '))) {
      if (!inIndented && previousBlank && !inList && !directiveBody) codeBlocks += 1;
      inIndented = true;
      directiveBody = false;
      previous = line;
      previousBlank = false;
      continue;
    }
    if (!blank) {
      inIndented = false;
      if (mayListItem(first) && LIST_ITEM.test(line)) inList = true;
      else if (!isSpaceCode(first)) inList = false;
    }
    const atx = lead === HASH ? ATX_HEADING.exec(line) : null;
    if (atx) onHeading(atx[1] ?? '');
    else if (!previousBlank && UNDERLINE_CHARS.has(lead) && UNDERLINE.test(line)) onHeading(previous);
    if (line.includes('<')) {
      const html = HTML_HEADING.exec(line);
      if (html?.[1] !== undefined) onHeading(html[1]);
    }
    if (first === STAR || first === SPACE || first === TAB) {
      const bold = BOLD_LINE.exec(line);
      if (bold?.[1] !== undefined) onHeading(bold[1]);
    }
    if (first === DOT && RST_CODE.test(line)) {
      codeBlocks += 1;
      directiveBody = true;
    } else if (!blank) {
      directiveBody = false;
    }
    previous = line;
    previousBlank = blank;
  }
  return codeBlocks;
}

export function analyseReadme(text: string): ReadmeAnalysis {
  const prose = stripDecoration(text);
  const length = collapsedLength(prose);
  const found = new Set<ReadmeSection>();
  const codeBlocks = scanProse(prose, (heading) => sectionsOf(heading, found));
  return { length, sections: README_SECTIONS.filter((s) => found.has(s)), codeBlocks };
}

/** Longest heading text kept by `findHeading` (it is evidence). */
const MAX_HEADING_CHARS = 80;

/**
 * The first heading whose text matches `pattern` (control characters read as spaces,
 * trimmed, at most 80 characters), or null. The pattern must not be global.
 */
export function findHeading(text: string, pattern: RegExp): string | null {
  let found: string | null = null;
  scanProse(stripDecoration(text), (heading) => {
    if (found !== null) return;
    const plain = plainHeading(heading).replace(/\s+/g, ' ').trim();
    if (pattern.test(plain)) found = Array.from(plain).slice(0, MAX_HEADING_CHARS).join('');
  });
  return found;
}

/** Points per README feature; they add up to 100. */
export const README_POINTS = {
  exists: 25,
  length300: 10,
  length1500: 10,
  install: 15,
  usage: 15,
  api: 10,
  code: 10,
  license: 5,
} as const;

/** The substance score of an analysed README (0–100). */
export function readmeScore(analysis: ReadmeAnalysis): number {
  const p = README_POINTS;
  let score = p.exists;
  if (analysis.length >= 300) score += p.length300;
  if (analysis.length >= 1500) score += p.length1500;
  for (const section of analysis.sections) score += p[section];
  if (analysis.codeBlocks > 0) score += p.code;
  return Math.min(100, score);
}

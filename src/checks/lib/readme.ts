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
  install: /\binstall|\bset ?up\b|getting started|\bdownload/i,
  usage: /\busage\b|\bexamples?\b|\bhow to use\b|quick ?start|\btutorial\b|getting started|\bsynopsis\b|\bbasic use\b|\bdemo\b/i,
  api: /\bapi\b|\boptions\b|\bconfigur|\breference\b|\bmethods\b|\bparameters\b|\bdocumentation\b|\bdocs\b|\barguments\b|\bcommands\b|\binterface\b/i,
  license: /\blicen[cs]/i,
};

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/;
const UNDERLINE = /^ {0,3}(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,})[ \t]*$/;
const HTML_HEADING = /<h[1-6]\b[^>]{0,500}>([^<]{0,500})/i;
const BOLD_LINE = /^[ \t]*\*\*([^*]{1,80})\*\*:?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/;
const INDENTED = /^(?: {4}|\t)/;
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
  return stripComments(text)
    .replace(/\[!\[[^\]\n]{0,500}\]\([^)\n]{0,2000}\)\]\([^)\n]{0,2000}\)/g, ' ')
    .replace(/\[!\[[^\]\n]{0,500}\]\[[^\]\n]{0,500}\]\]\[[^\]\n]{0,500}\]/g, ' ')
    .replace(/!\[[^\]\n]{0,500}\]\([^)\n]{0,2000}\)/g, ' ')
    .replace(/!\[[^\]\n]{0,500}\]\[[^\]\n]{0,500}\]/g, ' ')
    .replace(/<img\b[^>]{0,2000}>/gi, ' ');
}

/** Escape sequences and control characters hidden in a heading do not hide its words. */
function plainHeading(heading: string): string {
  // eslint-disable-next-line no-control-regex
  return heading.replace(/\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

function sectionsOf(heading: string, found: Set<ReadmeSection>): void {
  const plain = plainHeading(heading);
  for (const section of README_SECTIONS) if (SECTION_PATTERNS[section].test(plain)) found.add(section);
}

/**
 * One pass over decoration-free text: calls `onHeading` with each heading's text (ATX,
 * setext/reStructuredText underline, HTML, bold line; never inside a code block) and returns
 * the number of code blocks.
 */
function scanProse(prose: string, onHeading: (heading: string) => void): number {
  let codeBlocks = (prose.match(/<pre[\s>]/gi) ?? []).length;
  const lines = prose.split(/\r?\n/);
  let fence: { char: string; size: number } | null = null;
  let previous = '';
  let inList = false;
  let inIndented = false;
  /** A reStructuredText code directive was just counted: its indented body is the same block. */
  let directiveBody = false;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch?.[1] !== undefined && fenceMatch[1][0] === fence.char && fenceMatch[1].length >= fence.size) {
        fence = null;
      }
      previous = line;
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = { char: fenceMatch[1][0] ?? '`', size: fenceMatch[1].length };
      codeBlocks += 1;
      previous = line;
      continue;
    }
    const blank = line.trim() === '';
    if (!blank && INDENTED.test(line)) {
      if (!inIndented && previous.trim() === '' && !inList && !directiveBody) codeBlocks += 1;
      inIndented = true;
      directiveBody = false;
      previous = line;
      continue;
    }
    if (!blank) {
      inIndented = false;
      if (LIST_ITEM.test(line)) inList = true;
      else if (/^\S/.test(line)) inList = false;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx) onHeading(atx[1] ?? '');
    else if (UNDERLINE.test(line) && previous.trim() !== '') onHeading(previous);
    const html = HTML_HEADING.exec(line);
    if (html?.[1] !== undefined) onHeading(html[1]);
    const bold = BOLD_LINE.exec(line);
    if (bold?.[1] !== undefined) onHeading(bold[1]);
    if (RST_CODE.test(line)) {
      codeBlocks += 1;
      directiveBody = true;
    } else if (!blank) {
      directiveBody = false;
    }
    previous = line;
  }
  return codeBlocks;
}

export function analyseReadme(text: string): ReadmeAnalysis {
  const prose = stripDecoration(text);
  const length = prose.replace(/\s+/g, ' ').trim().length;
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

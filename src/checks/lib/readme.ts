/**
 * README substance: how much prose it has once badges, images and HTML comments are removed,
 * which sections its headings announce (install, usage/example, API/options, licence) and how
 * many code examples it shows. Line-by-line scanning with simple patterns: the text is
 * hostile and must not be able to make a regular expression backtrack for long.
 */

import { isSpaceCode, PRE_TAG, ReadmeLineReader, stripImages } from '../../util/readme-lines.js';

export { isSpaceCode } from '../../util/readme-lines.js';

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
  return stripImages(stripComments(text));
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

/**
 * One pass over decoration-free text: calls `onHeading` with each heading's text and returns the
 * number of code blocks (util/readme-lines.ts: the lines read as the tail past a cut is read).
 */
function scanProse(prose: string, onHeading: (heading: string) => void): number {
  let codeBlocks = prose.includes('<') ? (prose.match(PRE_TAG) ?? []).length : 0;
  const reader = new ReadmeLineReader(onHeading);
  for (const line of prose.split(/\r?\n/)) if (reader.line(line)) codeBlocks += 1;
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

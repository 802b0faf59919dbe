/**
 * The README scan with its fast paths (each line pattern tried only when the line's first
 * characters allow a match, whitespace read by code unit instead of trimmed copies, the
 * collapsed length counted instead of built) against the straightforward version it replaced,
 * kept here verbatim: the same analysis and the same headings for README-like text made of the
 * shapes the patterns look for, for arbitrary text, and for the bench's kinds of README.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { README_SECTIONS, analyseReadme, collapsedLength, findHeading, isSpaceCode } from '../../../src/checks/lib/readme.js';
import type { ReadmeAnalysis, ReadmeSection } from '../../../src/checks/lib/readme.js';

// ───────────────────────────── the reference (the scan as it was) ─────────────────────────────

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
function stripDecoration(text: string): string {
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

function referenceAnalyse(text: string): ReadmeAnalysis {
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
function referenceFindHeading(text: string, pattern: RegExp): string | null {
  let found: string | null = null;
  scanProse(stripDecoration(text), (heading) => {
    if (found !== null) return;
    const plain = plainHeading(heading).replace(/\s+/g, ' ').trim();
    if (pattern.test(plain)) found = Array.from(plain).slice(0, MAX_HEADING_CHARS).join('');
  });
  return found;
}


// ───────────────────────────── text to try ─────────────────────────────

const LEADS = ['', '', '', ' ', '  ', '   ', '    ', '     ', '\t', ' \t', '\u00a0', '\u3000', '\ufeff', '\u2028', '\u000b'];
const MARKS = [
  '', '', '', '#', '##', '######', '#######', '#x', '```', '````', '``', '~~~', '~~~~', '~~', '```js', '~~~ ~~~',
  '===', '====', '---', '-----', '~~~', '^^^', '***', '=-=', '**', '*', '-', '+', '1.', '12)', '1234567890.', '9',
  '.. code-block::', '.. code::', '..\tsourcecode::', '.. note::', '..code::', '<pre>', '<PRE class="x">', '<pre', '<pre\n',
  '<h2>', '<h1 class="x">', '<H3>', '<h7>', '<h2', '<!--', '-->', '![img](x.png)', '[![b](y)](z)', '![a][b]', '[![a][b]][c]', '<img src=x>', '<IMG\nsrc=y>', '![', '!', '[',
];
const WORDS = [
  'Install', 'Installation', 'usage', 'Usage', 'API', 'api', 'License', 'licence', 'getting started', 'Examples', 'options',
  'Configuration', 'set up', 'setup', 'docs', 'x', 'text', 'more text', ' ', '  ', '\t', '\u001b[1m', '\u001b[0m', '\u0085',
  '\u00a0', '\u2003', 'é', '—', '**', '*', '`', '```', ':', '#', '##', '<', '>', '</h2>', '\r', '\u0000', '\u009f', '😀',
];

const line = fc
  .tuple(fc.constantFrom(...LEADS), fc.constantFrom(...MARKS), fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }), fc.constantFrom('', ' ', '\t', ':', '**', '**:'))
  .map(([lead, mark, words, end]) => `${lead}${mark}${words.length > 0 && mark !== '' ? ' ' : ''}${words.join('')}${end}`);
const readmeLike = fc
  .array(fc.tuple(line, fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '\n\n')), { maxLength: 40 })
  .map((lines) => lines.map(([text, end]) => text + end).join(''));
const anyText = fc.string({ unit: fc.oneof(fc.constantFrom(' ', '\n', '\t', '#', '`', '~', '*', '-', '=', '<', '.', '\u00a0', '\u2028'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 200 });

const PATTERNS = [/^/, /install|usage/i, /history|changelog|x/i, /\s/];

function expectSame(text: string): void {
  expect(analyseReadme(text)).toEqual(referenceAnalyse(text));
  for (const pattern of PATTERNS) expect(findHeading(text, pattern)).toBe(referenceFindHeading(text, pattern));
}

describe('the README scan agrees with the straightforward reference', () => {
  it('on README-like text, 20,000 texts', () => {
    fc.assert(fc.property(readmeLike, expectSame), { numRuns: 20_000, seed: 20261201 });
  }, 120_000);

  it('on arbitrary text, 10,000 texts', () => {
    fc.assert(fc.property(anyText, expectSame), { numRuns: 10_000, seed: 20261201 });
  }, 120_000);

  it('on a README of every kind the bench generates', () => {
    const text = [
      '# pkg', '', 'Some prose for Node.js: zero-dependency and simple', '', '## Install', '', '```sh', 'npm install pkg', '```', '',
      '## Usage', '', '```js', "import { x } from 'pkg';", '```', '', '### Part one', '', 'Words with <b>markup</b> and a list:', '',
      '- item', '    continued', '1. first', '', '    code after a blank', '', 'Setext', '======', '', '.. code-block:: js', '', '    body',
      '', '<h2 align="center">Options</h2>', '**Licence**', '<pre>', 'x', '</pre>',
    ].join('\n');
    expectSame(text);
    expectSame(text.replaceAll('\n', '\r\n'));
  });
});

describe('whitespace read by code unit', () => {
  it('is exactly \\s and what trim() removes, for every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      expect(isSpaceCode(code)).toBe(/\s/.test(char));
      expect(isSpaceCode(code)).toBe(char.trim() === '');
    }
  });

  it('collapsedLength is the length of the text with whitespace runs collapsed and trimmed', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(collapsedLength(text)).toBe(text.replace(/\s+/g, ' ').trim().length);
      }),
      { numRuns: 10_000, seed: 20261201 },
    );
  });
});

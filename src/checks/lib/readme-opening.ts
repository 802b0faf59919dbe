/**
 * What a README says about the package's own status in its opening — its title, the subtitle
 * right under it and its first paragraph — where an author who deprecates a package, stops maintaining it or replaces it
 * says so ("# Deprecated", "**Deprecated:** use os.tmpdir()", "This module is no longer
 * maintained", "Use X instead."). Anchored to the opening on purpose: a README that mentions
 * deprecation further down (`got` explaining `request`'s, `util-deprecate` naming the function
 * it ships) declares nothing about itself. Linear scanning; the text is hostile.
 */
import { stripDecoration } from './readme.js';
import { withoutScope } from '../../util/without-scope.js';

/** Only the start of a README can hold its opening. */
const OPENING_CHARS = 8_000;
/** Longest excerpt kept as evidence. */
const EXCERPT_CHARS = 160;

export interface ReadmeOpening {
  /** The first heading, when the README starts with one. */
  title: string | null;
  /** The heading right under the title, before any prose ("## ⚠️ Deprecated, use … instead ⚠️"). */
  subtitle: string | null;
  /** The first paragraph of prose (after the title and at most one subtitle). */
  paragraph: string | null;
}

/** An ATX heading's opening (`## `): its text is the rest of the line less closing blanks and hashes (atxText). */
const ATX_OPEN = /^ {0,3}#{1,6}[ \t]+/;
const LINE_BREAK = /[\r\u2028\u2029]/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]{1,200}\]:[ \t]*\S/;
const HTML_TAG = /<\/?[a-z][^<>]{0,500}>/gi;

/** The words of a line without Markdown emphasis, quote marks, HTML tags and link targets. */
function plain(line: string): string {
  return line
    .replace(HTML_TAG, ' ')
    // A badge by reference (`[![npm]](https://…)` beside `[npm]: https://img…`, claude-code
    // 2.1.x's README): the images written inline are gone already (stripDecoration), so what is
    // left of `![…]` is an image too, not words.
    .replace(/!\[[^\]\n]{0,500}\]/g, ' ')
    .replace(/\]\([^)\s]{0,2000}\)/g, ']')
    .replace(/^[ \t]*(?:>[ \t]?)+/, '')
    // A GitHub alert's type marker (`> [!IMPORTANT]`) is the box's label, not its words.
    .replace(/^\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*/i, '')
    .replace(/[*_`~[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text of an ATX heading line (`## Title ##` → `Title`), or null for any other line. Trimmed
 * by hand: a lazy capture before `[ \t#]*$` retried the whole run of blanks and hashes from each
 * of its positions (quadratic in a line of ` #` pairs).
 */
function atxText(line: string): string | null {
  const open = ATX_OPEN.exec(line);
  if (open === null) return null;
  const rest = line.slice(open[0].length);
  // A line break the split left inside (a lone CR) ends the line: no heading runs across it.
  if (LINE_BREAK.test(rest)) return null;
  let end = rest.length;
  while (end > 0 && (rest[end - 1] === ' ' || rest[end - 1] === '\t' || rest[end - 1] === '#')) end -= 1;
  return rest.slice(0, end);
}

/**
 * A prose block; `tagline` when it is a single quoted line (`> A tool for …`), as a tagline under a
 * title is written; `notice` when it is a GitHub alert (`> [!WARNING]`) or opens with a warning
 * sign or word ("⚠️ …", "**Warning:** …", a `> **Note**` line over the words), as a README's author flags what a reader must see first.
 */
type Block = { kind: 'heading'; text: string } | { kind: 'prose'; text: string; tagline: boolean; notice: boolean } | { kind: 'code' } | { kind: 'skip' };
const QUOTED = /^ {0,3}>/;
const ALERT = /^ {0,3}>[ \t]?\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i;
const NOTICE_LEAD = /^(?:[\u26a0\u2757\u26d4\u{1f6a8}\u{1f6d1}\u{1f6ab}]|:(?:warning|rotating_light|no_entry|stop_sign):|(?:warning|notice|note|important|attention|caution)\b(?:\W|$))/iu;
/** An HTML heading on a line of its own (`<h2 align="center">Deprecated</h2>`): its open tag. */
const HTML_HEADING_OPEN = /^ {0,3}<h([1-6])(?:\s[^<>]{0,500})?>/i;
/** How many blocks from the README's start are read: the title, a subtitle, a few paragraphs and the first section's heading and paragraph. */
const MAX_BLOCKS = 10;

/** The text of an HTML heading written on one line, or null for any other line. */
function htmlHeadingText(line: string): string | null {
  const open = HTML_HEADING_OPEN.exec(line);
  if (open === null) return null;
  const rest = line.trimEnd();
  const close = `</h${open[1]}>`;
  if (rest.length < open[0].length + close.length || rest.slice(-close.length).toLowerCase() !== close) return null;
  const inner = rest.slice(open[0].length, -close.length);
  return inner.includes('\n') || LINE_BREAK.test(inner) ? null : inner;
}

/** The README's first blocks, as far as the opening needs them. */
function firstBlocks(text: string): Block[] {
  const lines = stripDecoration(text.slice(0, OPENING_CHARS)).split(/\r?\n/);
  const blocks: Block[] = [];
  let prose: string[] = [];
  let quotedLines = 0;
  let notice = false;
  const endProse = () => {
    if (prose.length > 0) blocks.push({ kind: 'prose', text: prose.join(' '), tagline: prose.length === 1 && quotedLines === 1, notice });
    prose = [];
    quotedLines = 0;
    notice = false;
  };
  for (let i = 0; i < lines.length && blocks.length < MAX_BLOCKS; i++) {
    const line = lines[i] as string;
    // An indented line opens a code block, unless it is markup (HTML indented inside a `<div>`).
    if (FENCE.test(line) || (prose.length === 0 && /^(?: {4}|\t)[^\s<]/.test(line))) {
      endProse();
      blocks.push({ kind: 'code' });
      break;
    }
    const atx = atxText(line) ?? htmlHeadingText(line);
    if (atx !== null) {
      endProse();
      blocks.push({ kind: 'heading', text: plain(atx) });
      continue;
    }
    const next = lines[i + 1];
    if (prose.length === 0 && next !== undefined && plain(line) !== '' && SETEXT.test(next) && !RULE.test(line)) {
      blocks.push({ kind: 'heading', text: plain(line) });
      i += 1;
      continue;
    }
    const words = plain(line);
    // An alert's marker (`> [!WARNING]`, alone on its line or before the words) opens the block it flags.
    if (ALERT.test(line)) {
      endProse();
      notice = true;
      if (words === '') continue;
    } else if (words === '' || RULE.test(line) || LINK_DEFINITION.test(line)) {
      endProse();
      continue;
    }
    if (prose.length === 0 && NOTICE_LEAD.test(words)) notice = true;
    prose.push(words);
    if (QUOTED.test(line)) quotedLines += 1;
  }
  endProse();
  return blocks;
}

export function readmeOpening(text: string): ReadmeOpening {
  return openingOf(firstBlocks(text)).opening;
}

/** At most this many paragraphs between the opening's first paragraph and the first section's heading are read for a notice. */
const MAX_INTRO_PARAGRAPHS = 4;

/**
 * What comes before the README's first ordinary section and is read for a declared status besides
 * the opening: the notices (alerts, warnings) among the paragraphs after the first one, and the
 * first section's heading with the paragraph right under it (karma 6.4.4: "# Karma", a paragraph,
 * a quoted tagline, then "## Karma is deprecated and is not accepting new features …").
 */
interface Intro {
  notices: string[];
  section: string | null;
  underSection: string | null;
}

/**
 * The opening of a README's first blocks, and the paragraph right after a one-line quoted tagline
 * that is the first paragraph under the title (`# @babel/polyfill` / `> Provides polyfills …` /
 * "This package has been deprecated …"): where such a README puts what the first paragraph says
 * in others.
 */
function openingOf(blocks: Block[]): { opening: ReadmeOpening; afterTagline: string | null; intro: Intro } {
  let at = 0;
  let title: string | null = null;
  let subtitle: string | null = null;
  if (blocks[0]?.kind === 'heading') {
    title = blocks[0].text;
    at = 1;
    // One subtitle may sit between the title and the first paragraph.
    if (blocks[1]?.kind === 'heading') {
      subtitle = blocks[1].text;
      at = 2;
    }
  }
  const first = blocks[at];
  const second = blocks[at + 1];
  const afterTagline = title !== null && first?.kind === 'prose' && first.tagline && second?.kind === 'prose' ? second.text : null;
  const intro: Intro = { notices: [], section: null, underSection: null };
  let paragraphs = 0;
  for (let i = first?.kind === 'prose' ? at + 1 : at; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (block.kind === 'code') break;
    if (block.kind === 'prose') {
      paragraphs += 1;
      if (paragraphs > MAX_INTRO_PARAGRAPHS) break;
      if (block.notice) intro.notices.push(block.text);
      continue;
    }
    if (block.kind === 'heading') {
      intro.section = block.text === '' ? null : block.text;
      const under = blocks[i + 1];
      if (under?.kind === 'prose') intro.underSection = under.text;
      break;
    }
  }
  return {
    opening: { title: title === '' ? null : title, subtitle: subtitle === '' ? null : subtitle, paragraph: first?.kind === 'prose' ? first.text : null },
    afterTagline,
    intro,
  };
}

const STATUS = String.raw`(?:deprecated|deprecation|unmaintained|no longer (?:actively )?(?:maintained|supported|developed|updated)|not (?:being )?(?:actively )?maintained(?: anymore)?|archived|abandoned|obsolete|obsolescence|discontinued|end[- ]of[- ](?:life|support))`;

/** A title that names the status as a word of its own: "Deprecated!", "foo (DEPRECATED)", "Note: pending deprecation". */
const TITLE_STATUS = new RegExp(String.raw`(?<![\w-])${STATUS}(?![\w-])`, 'i');
/**
 * A section heading that is a status notice: the status first, after at most a notice word
 * ("Project status: archived / unmaintained", "⚠️ Deprecated", "DEPRECATED", "Deprecation notice",
 * "Deprecated, use y instead"), and no more words run on from it — "Deprecated APIs",
 * "Deprecated options" and "Deprecation" alone head a section about something else.
 */
const HEADING_STATUS = new RegExp(
  String.raw`^\W{0,8}(?:(?:(?:project|package|module|library|maintenance) )?(?:status|notice|warning|note|important|attention|caution)\W{1,8})?` +
    String.raw`(?:${STATUS.replace('deprecation|', '')}|deprecation (?:notice|warning))(?: (?:notice|warning))?(?![\w-])(?!\s+(?!(?:in favou?r of|as of)\b)\w)`,
  'i',
);
/** A section heading whose paragraph is the notice ("## ⚠️ Warning" / "This package is deprecated."). */
const NOTICE_HEADING = /^\W{0,8}(?:(?:project|package|maintenance|important) )?(?:status|notice|warning|note|important|attention|caution|announcement)\W{0,8}$/i;
/** A paragraph that opens with the status: "Deprecated: …", "⚠️ Unmaintained.", "Notice: archived". */
const PARAGRAPH_STARTS = new RegExp(String.raw`^(?:\W{0,4}(?:warning|note|notice|important|attention)(?:\W{1,4}| of ))?${STATUS}(?![\w-])`, 'i');
/**
 * "This package is deprecated", "this module has been replaced by …", "it is no longer maintained",
 * and the package beside another it goes with: "LibSass and Node Sass are deprecated" (node-sass
 * 9.0.0), "this tool and its CLI are deprecated". Each neighbour is one bounded word.
 */
const SELF_ALONE = String.raw`(?:this (?:\w+ ){0,2}?(?:package|module|library|lib|project|repo|repository|plugin|tool|component|fork|codebase|code)|the it (?:package|module|library|project|plugin|tool)|it)`;
const SELF = String.raw`(?:[\w.-]{1,40} (?:and|&) )?${SELF_ALONE}(?: (?:and|&) (?:its )?[\w.-]{1,40})?`;
/**
 * Merged into another project, named and then done with: "JSCS has merged with ESLint!", "… has
 * been merged into @babel/core." — not "has merged with TypeScript types in v4" or "has merged
 * with upstream fixes", where what follows the name says the package took something in.
 */
const MERGED = String.raw`merged (?:into|with) (?:the )?[@\w./-]{1,60}?(?: (?:project|package|library|repository|repo|organi[sz]ation))?(?=\s*(?:[.!;,)]|$)|\s(?:and|—|-)\s)`;
/**
 * Moved elsewhere, named and then done with: "This project has moved to y.", "x has moved to
 * @scope/x2.", "… has moved to a new home" — not "has moved to ESM" or "has moved to TypeScript",
 * where the package changed, not its place, nor "has moved to promises in v4". A repository that
 * moved (`this repo has moved to github.com/new-owner/x`) says where its source lives, not that
 * the package was replaced: the subject is the package, the project, the module…, not its repo.
 */
const MOVED_TARGET = String.raw`(?:a new (?:home|location|place|name|repository|repo|organi[sz]ation|org)|(?:the )?(?!(?:esm|es ?modules?|esmodules?|commonjs|cjs|typescript|ts|promises?|async|await|github actions|vitest|jest|rollup|vite|node(?:js)?)(?![\w-]))[@\w./:-]{1,100}?(?: (?:project|package|library|repository|repo|organi[sz]ation))?(?=\s*(?:[.!;,)]|$)|\s(?:and|—|-)\s))`;
// "The Amp CLI npm package has moved to @ampcode/cli." (@sourcegraph/amp): the package named as
// "the … npm package" is the package itself, as "this package" is.
const MOVED_SELF = String.raw`(?:[\w.-]{1,40} (?:and|&) )?(?:this (?:\w+ ){0,2}?(?:package|module|library|lib|project|plugin|tool|component|fork)|the (?:[\w.-]+ ){0,3}?npm package|it)`;
/** No more updates: "This package will not receive further updates.", "it is no longer receiving updates". */
const NO_UPDATES = String.raw`(?:will (?:not|no longer)|won't|does not|doesn't|is no longer|is not|will never) (?:be )?receiv(?:e|ing) (?:any )?(?:further |more |new |future )?(?:updates|releases|maintenance)`;
const SELF_STATUS = new RegExp(
  String.raw`\b${SELF} (?:(?:is|has been|was|will be|have been|are) (?:now |officially |fully |being |permanently |currently |effectively )*(?:${STATUS}|superseded|replaced|renamed|moved|${MERGED})|(?:has|have) ${MERGED}|${NO_UPDATES})\b` +
    String.raw`|\b${MOVED_SELF} (?:has|have) (?:now |officially |permanently )?moved (?:permanently )?(?:over )?(?:to|into) ${MOVED_TARGET}`,
  'i',
);
/** A sentence that sends users elsewhere: "Use X instead.", "Please switch to Y instead!", "Use Y instead; …", "Moved to Z." */
const REPLACED = /(?:^|[.!?:]\s)(?:please\s+)?(?:use|switch to|migrate to|move to)\s(?:[^.!?]|[.!?](?=\S)){1,80}?\sinstead\s*(?:[.!?);]|$)|(?:^|[.!?]\s)(?:moved to|superseded by|replaced by|renamed to)\s/i;

/**
 * A paragraph that opens by calling the package a stub — kept in place of what moved, as
 * DefinitelyTyped leaves a stub of a library that came to ship its own types ("This is a stub
 * types definition for axios … axios provides its own type definitions, so you don't need
 * @types/axios installed!"): "This is a stub package.", "This package is a stub." Not a
 * library of test stubs ("This is a stub server for …", "stubs and mocks"): after "stub" only a
 * definition, declaration, package or module, then "for" or the sentence's end.
 */
const STUB = /^(?:this|it)(?: (?:package|module))? is (?:now )?(?:only |just )?an? (?:empty )?stub(?: (?:types? )?(?:definitions?|declarations?|package|module))?(?=\s*[.!;:(]|\s*$| for\s)/i;

export interface DeclaredStatus {
  /** Where it was said. */
  where: 'title' | 'subtitle' | 'first paragraph' | 'paragraph under the tagline' | 'notice in the opening' | 'first section heading' | 'paragraph under the first section heading';
  /** The words that say it, as evidence (at most 160 characters). */
  excerpt: string;
}

function excerpt(text: string): string {
  const chars = Array.from(text);
  return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…`;
}

/** Escape a package name for use inside a regular expression. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** A capitalised word right before a name: the name ends another one ("Node Sass" for `sass`). */
const CAPITALISED_BEFORE = /(?:^|[^\w-])(?!(?:The|This) $)\p{Lu}[\w-]{0,40} $/u;
/** A package name as a pattern, its hyphens also written as spaces (`node-sass` → "Node Sass"). */
const namePattern = (name: string) => escape(name).replaceAll('\\-', '[-\\s]');

/**
 * Whether the README's opening declares the package deprecated, unmaintained or replaced, and
 * the words that do; null when it does not. The package's own name never counts (a package
 * called `deprecation`, or `request is fully deprecated` read with `request` as the subject).
 */
export function declaredDeprecation(text: string, packageName: string): DeclaredStatus | null {
  const { opening, afterTagline, intro } = openingOf(firstBlocks(text));
  const bare = withoutScope(packageName);
  const names = [packageName, bare].filter((n) => n !== '').map(namePattern);
  const nameless = (value: string) => names.reduce((acc, n) => acc.replace(new RegExp(`(?<![\\w-])${n}(?![\\w-])`, 'gi'), ' '), value);
  // The package's own name is a subject like "it": "request is fully deprecated". Not when it
  // ends another capitalised name: `sass` in "Node Sass" is another package's last word.
  const asSubject = (value: string) =>
    names.reduce(
      (acc, n) =>
        acc.replace(new RegExp(`(?<![\\w-])${n}(?![\\w-])`, 'gi'), (name: string, at: number) =>
          CAPITALISED_BEFORE.test(acc.slice(Math.max(0, at - 42), at)) ? name : 'it',
        ),
      value,
    );
  // A title names the status, or says the package was replaced ("JSCS has merged with ESLint!", jscs 3.0.7).
  const title = opening.title;
  if (title !== null && (TITLE_STATUS.test(nameless(title)) || SELF_STATUS.test(asSubject(title)))) return { where: 'title', excerpt: excerpt(title) };
  // A subtitle is read as a title is: a heading that names the status (vscode 1.1.37: "## ⚠️ Deprecated, use @types/vscode … instead ⚠️").
  if (opening.subtitle !== null && TITLE_STATUS.test(nameless(opening.subtitle))) return { where: 'subtitle', excerpt: excerpt(opening.subtitle) };
  const declares = (paragraph: string) => PARAGRAPH_STARTS.test(paragraph) || SELF_STATUS.test(asSubject(paragraph)) || REPLACED.test(paragraph) || STUB.test(paragraph);
  const paragraphs = [['first paragraph', opening.paragraph], ['paragraph under the tagline', afterTagline]] as const;
  for (const [where, paragraph] of paragraphs) {
    if (paragraph !== null && declares(paragraph)) return { where, excerpt: excerpt(paragraph) };
  }
  // Before the first ordinary section: an alert or warning among the paragraphs, then the first
  // section's heading ("## Karma is deprecated …", "### DEPRECATED") or, under a notice heading
  // ("## ⚠️ Warning"), its paragraph. Nothing further down is read.
  for (const notice of intro.notices) if (declares(notice)) return { where: 'notice in the opening', excerpt: excerpt(notice) };
  const section = intro.section;
  if (section !== null && (HEADING_STATUS.test(nameless(section).trim()) || SELF_STATUS.test(asSubject(section)) || REPLACED.test(section))) {
    return { where: 'first section heading', excerpt: excerpt(section) };
  }
  if (section !== null && NOTICE_HEADING.test(section) && intro.underSection !== null && declares(intro.underSection)) {
    return { where: 'paragraph under the first section heading', excerpt: excerpt(intro.underSection) };
  }
  return null;
}

/**
 * A registry description that declares the package deprecated, unmaintained or replaced: it says
 * so of itself ("This package is deprecated", "x has been renamed to y"), sends users elsewhere
 * ("Renamed to @scope/x - see …", "Use y instead."), or opens with the status as a word of its own
 * ("DEPRECATED: …", "[Deprecated] …", "Deprecated in favour of y") or ends in it ("x (deprecated)").
 * Not a description about deprecation ("Deprecation warnings for …", "Abandoned cart e-mails"):
 * an opening status word must be followed by punctuation, the end, or a pointer elsewhere.
 * The excerpt (at most 160 characters), or null.
 */
export function descriptionDeclaredDeprecation(description: string, packageName: string): string | null {
  const text = description.trim();
  if (text === '') return null;
  const bare = withoutScope(packageName);
  const names = [packageName, bare].filter((n) => n !== '').map(namePattern);
  const asSubject = names.reduce((acc, n) => acc.replace(new RegExp(`(?<![\\w-])${n}(?![\\w-])`, 'gi'), 'it'), text);
  const declares = DESCRIPTION_STARTS.test(text) || DESCRIPTION_MARKED.test(text) || SELF_STATUS.test(asSubject) || REPLACED.test(text) || STUB.test(text);
  return declares ? excerpt(text) : null;
}

/** A description that opens with the status, then punctuation, the end or a pointer elsewhere: "DEPRECATED - use y", "Deprecated in favour of y". */
const DESCRIPTION_STARTS = new RegExp(
  String.raw`^\W{0,4}(?:${STATUS.replace('deprecation|', '')})(?:\s*(?:[-–—:.!,;()\]]|$)|\s+(?:in favou?r of|use|see|please|since|as of)\b)`,
  'i',
);
/**
 * A description marked with the status in brackets as its first words or its last: "[UNMAINTAINED]
 * x", "A helper for z (unmaintained)". Not a bracket in the middle ("Legacy support (deprecated)
 * for old browsers"): the status there is another thing's.
 */
const MARK = String.raw`[([]\s*(?:deprecated|unmaintained|no longer maintained|obsolete|discontinued|abandoned|archived)\s*[)\]]`;
const DESCRIPTION_MARKED = new RegExp(String.raw`^\W{0,4}${MARK}|${MARK}\W{0,4}$`, 'i');

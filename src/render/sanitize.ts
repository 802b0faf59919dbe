/**
 * Output sanitising for strings that came from the network (docs/security.md).
 *
 * Package names, descriptions, deprecation notices, advisory summaries and check messages
 * are hostile data. Before any of them reaches a terminal, `sanitizeForTerminal` removes
 * escape sequences (CSI, OSC — hyperlinks and title changes included —, DCS, SOS, PM, APC
 * and the short ESC forms), every remaining C0/C1 control character, bidirectional controls
 * and invisible characters. `escapeMarkdown` and `escapeHtml` sanitise first and then escape
 * what the target syntax would interpret, so a hostile string stays plain text.
 */

export interface SanitizeOptions {
  /** Keep line breaks (normalised to `\n`). Default false: every line break becomes a space. */
  multiline?: boolean;
}

/**
 * Complete escape sequences, 7-bit and 8-bit forms:
 * - control strings (OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _`), ended
 *   by BEL or ST (`ESC \` or U+009C); the payload cannot contain ESC or another introducer,
 *   so the scan stays linear;
 * - CSI (`ESC [` or U+009B) with parameter, intermediate and final bytes;
 * - the short forms: ESC, intermediate bytes, one final byte (`ESC ( B`, `ESC c`, `ESC 7`).
 * An unterminated control string loses its introducer below and its payload stays visible
 * as inert text.
 */
const ESCAPE_SEQUENCE =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u0090\u0098\u009c-\u009f]*(?:\u0007|\u001b\\|\u009c)|(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|\u001b[\u0020-\u002f]*[\u0030-\u007e]/g;

/** CR LF, CR, LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR, vertical tab, form feed. */
const LINE_BREAK = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g;

/** Tabs read as a space; anything else in C0 (line feed aside), DEL and C1 is dropped. */
const TAB = /\t/g;
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/**
 * Invisible characters that can reorder or hide text: every format character (Unicode category
 * Cf: bidirectional controls U+061C, U+200E/F, U+202A–202E, U+2066–2069; zero-width and
 * invisible-operator characters U+180E, U+200B–200D, U+2060–2064, U+FEFF; the soft hyphen;
 * interlinear annotation controls U+FFF9–FFFB; tag characters, "ASCII smuggling" — the whole block
 * U+E0000–E007F, as its unassigned code points (U+E0000, U+E0002–E001F) are not Cf yet render as nothing;
 * the shorthand and musical format controls), the fillers that render as blank (combining
 * grapheme joiner U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0), and variation selectors
 * (U+FE00–FE0F, U+E0100–E01EF), a run of which carries bytes no one sees.
 */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** Strip escape sequences, control, format (bidirectional, zero-width…) and other invisible characters. */
export function sanitizeForTerminal(s: string, options: SanitizeOptions = {}): string {
  const lineBreak = options.multiline === true ? '\n' : ' ';
  return s
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, lineBreak)
    .replace(TAB, ' ')
    .replace(CONTROL, '')
    .replace(INVISIBLE, '');
}

/** ASCII punctuation that Markdown (CommonMark, GFM, GitHub math) or inline HTML could interpret. */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>|#!~&$]/g;

/** A line start that would open a list item, block quote or heading. */
const MARKDOWN_LINE_START = /^(\s*)(?:([-+=])|(\d+)([.)]))/gm;

/**
 * `@name` mentions notify people in pull-request comments: a zero-width space entity after
 * the `@` keeps the text readable and stops the mention (the entity is ours, not the input's).
 * An `@` right after a letter or digit (`chalk@5.3.0`, `a@b.example`) is no mention.
 */
const MENTION = /(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])/g;

/**
 * A package named with its version in running text (`chalk@5.3.0`, `npm:@scope/pkg@1.0.0`,
 * `io.github.acme/server@0.0.79`): GitHub turns the bare form into a mailto: link and reads a
 * scoped name as a mention, so it is written as a code span, which copies as it is. It starts
 * only where no name character precedes it (one attempt per word, so the scan stays linear) and
 * its version ends on a letter or digit (a sentence's full stop stays outside).
 */
const PACKAGE_AT_VERSION = /(?<![\w.@/:+-])(?:[a-z][a-z0-9-]*:)?@?[\w.-]+(?:\/[\w.-]+)*@\w+(?:[.+-]\w+)*/g;

/** Escape one run of text holding no package reference. */
function escapeMarkdownText(s: string): string {
  return s
    .replace(MARKDOWN_SPECIAL, (c) => `\\${c}`)
    .replace(MARKDOWN_LINE_START, (_whole, indent: string, mark?: string, digits?: string, dot?: string) =>
      mark !== undefined ? `${indent}\\${mark}` : `${indent}${digits ?? ''}\\${dot ?? ''}`,
    )
    .replace(MENTION, '@&#8203;');
}

/**
 * Sanitise (single line unless `multiline`), then escape Markdown and HTML specials so the
 * string renders as the literal text: no links, images, HTML, entities, emphasis, table breaks,
 * headings, list items or mentions. A package named with its version becomes a code span
 * (PACKAGE_AT_VERSION), the only code span the input can cause, holding name characters only.
 */
export function escapeMarkdown(s: string, options: SanitizeOptions = {}): string {
  const text = sanitizeForTerminal(s, options);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PACKAGE_AT_VERSION)) {
    out += escapeMarkdownText(text.slice(last, match.index)) + markdownCode(match[0]);
    last = match.index + match[0].length;
  }
  return out + escapeMarkdownText(text.slice(last));
}

/**
 * A code span holding the literal text (sanitised to one line): what a reader copies into
 * `npm install`. Nothing inside a code span is a link, mention, e-mail address (GitHub turns a
 * bare `chalk@5.3.0` into a mailto: link), emphasis or HTML, so no zero-width character is
 * needed. The fence is longer than any run of backticks inside; a space pads text that starts
 * or ends with one. In a table cell (`inTable`) a `|` is escaped as `\|`, which GFM reads as a
 * pipe inside the cell, code spans included.
 */
export function markdownCode(s: string, options: { inTable?: boolean } = {}): string {
  let text = sanitizeForTerminal(s).trim();
  if (text === '') return '';
  if (options.inTable === true) text = text.replaceAll('|', '\\|');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * For inside HTML (a `<summary>`): the literal text as `<code>`, HTML-escaped, with Markdown's
 * marks as entities too (for renderers that read Markdown inside HTML). No zero-width character
 * after an `@`: nothing in `<code>` mentions anyone, and the name must copy as it is.
 */
export function htmlCode(s: string): string {
  const text = sanitizeForTerminal(s)
    .trim()
    .replace(/[&<>"'[\]()`*_~|]/g, (c) => HTML_SPECIAL[c] ?? `&#${c.charCodeAt(0)};`);
  return text === '' ? '' : `<code>${text}</code>`;
}

const HTML_SPECIAL: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Sanitise to one line, then escape for an HTML context inside Markdown (a `<summary>`):
 * there Markdown escapes are not processed, so entities are used instead.
 */
export function escapeHtml(s: string): string {
  return sanitizeForTerminal(s)
    .replace(/[&<>"']/g, (c) => HTML_SPECIAL[c] ?? c)
    .replace(MENTION, '@&#8203;');
}

/**
 * Every string of a JSON-like value as one plain line: `sanitizeForTerminal` (escape sequences,
 * control, bidirectional, zero-width and tag characters removed; line breaks made spaces), then
 * cut to `max` characters. For answers read by programs and AI agents (docs/security.md, "Text
 * written for AI agents"): a quoted string cannot start a line of its own, hide text, or run on.
 */
export function plainStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') {
    const line = sanitizeForTerminal(value);
    return (line.length > max ? `${line.slice(0, max - 1)}…` : line) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => plainStrings(v, max)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainStrings(v, max)])) as T;
  return value;
}

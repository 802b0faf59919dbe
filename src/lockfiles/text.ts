/**
 * Small text helpers shared by the readers: 1-based line numbers from offsets, and quoting of
 * file content inside error messages (the audited tree is untrusted: what it says is shown
 * sanitised and short).
 */
import { sanitizeForTerminal } from '../render/sanitize.js';

/** Line starts of a text, for offset → 1-based line lookups by binary search. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The 1-based line holding `offset` (clamped to the text). */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** The text split into physical lines (a trailing `\r` dropped). */
export function splitLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * The text split into lines as Python's `str.splitlines()` splits it, which is how pip reads a
 * requirements file: at `\n`, `\r\n`, a lone `\r`, `\v`, `\f`, `\x1c`–`\x1e`, `\x85`, U+2028
 * and U+2029 (docs/security.md, "nerq judges what the package manager will do"). Every one
 * counts as a line, so line numbers are pip's.
 */
export function splitPythonLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
}

const MAX_QUOTED = 80;

/**
 * A value from the file, made safe and short for a one-line message: `"name"`, a JSON string
 * literal whose characters outside printable ASCII are written as `\uXXXX` escapes (as the
 * target parser quotes a bad target). Nothing is removed: a name with a zero-width, bidirectional
 * or look-alike character (`"chalk\u200b"`, `"ch\u0430lk"`) reads differently from the name it
 * imitates, in every format, and escape sequences and control characters are inert text.
 */
export function quote(value: unknown): string {
  const text = String(value);
  const quoted = JSON.stringify(text.length > MAX_QUOTED ? text.slice(0, MAX_QUOTED - 1) : text).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return text.length > MAX_QUOTED ? `${quoted}…` : quoted;
}

/** Longest error message kept from a parser (the patterns that trim it then run on little text). */
const MAX_MESSAGE = 300;

/** The first line of an error message, sanitised and short (library messages can span lines and quote the file). */
export function firstLine(message: string): string {
  const line = message.slice(0, 4 * MAX_MESSAGE).split('\n').find((part) => part.trim() !== '') ?? message.slice(0, MAX_MESSAGE);
  return sanitizeForTerminal(line).trim().slice(0, MAX_MESSAGE);
}

/** What a parser's failure says when the text nests deeper than a reader goes (as the TOML parser says it). */
export const TOO_DEEP = 'excessively nested structures';

/**
 * A parser's error in a few words: a stack overflow (a recursive parser on absurd nesting) is
 * TOO_DEEP, never the engine's own message; anything else its first line.
 */
export function parserMessage(error: unknown): string {
  if (error instanceof RangeError) return TOO_DEEP;
  return firstLine(error instanceof Error ? error.message : String(error));
}

/** `a/b/c` joined and normalised as a `/`-separated relative path (`.` parts dropped). */
export function joinPath(...parts: string[]): string {
  const out: string[] = [];
  for (const part of parts.join('/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.length === 0 ? '.' : out.join('/');
}

/** The directory of a relative path (`.` for a file at the top). */
export function dirOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '.' : joinPath(file.slice(0, slash));
}

/** The last path component. */
export function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

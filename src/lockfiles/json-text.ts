/**
 * JSON (and bun's JSONC) with line numbers. `JSON.parse` does the parsing and validation;
 * a second pass over the (then known valid) text records the line of every member key and
 * array item, so readers can say where a dependency is pinned. JSONC comments and trailing
 * commas are first blanked out with spaces, which keeps every offset and line in place.
 */
import { LockfileError } from '../audit/types.js';
import { firstLine, LineIndex } from './text.js';

/** Where a value sits: the line of its key (members) or of its first character (items, root). */
export interface JsonLineNode {
  line: number;
  /** Members by key, array items by index (as a string); only for objects and arrays. */
  children?: Map<string, JsonLineNode>;
}

export interface ParsedJson {
  value: unknown;
  /** Lines down to the depth asked for. */
  lines: JsonLineNode;
  /** The line at any `path` (deeper than the depth asked for: scanned again, once, in full). */
  lineOf(path: readonly PropertyKey[]): number;
}

export interface ParseJsonOptions {
  /** JSONC: comments and trailing commas allowed (bun.lock). */
  jsonc?: boolean;
  /**
   * Record lines only this many levels deep (`packages` → `node_modules/x` is 2). Building a
   * node for every value of a big lockfile costs more than parsing it; error positions deeper
   * than this still come out right through `lineOf`.
   */
  depth?: number;
}

/** Parse JSON (or JSONC when `jsonc`), throwing a `LockfileError` at the offending line. */
export function parseJson(text: string, file: string, options: ParseJsonOptions = {}): ParsedJson {
  const bare = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const source = options.jsonc === true ? blankJsonc(bare) : bare;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw jsonError(error, source, file);
  }
  const depth = options.depth ?? Number.POSITIVE_INFINITY;
  const lines = scanLines(source, depth);
  let full: JsonLineNode | undefined;
  return {
    value,
    lines,
    lineOf(path) {
      if (path.length <= depth) return jsonLine(lines, path);
      full ??= scanLines(source, Number.POSITIVE_INFINITY);
      return jsonLine(full, path);
    },
  };
}

/** The line of the value at `path`, or of its nearest ancestor the tree knows. */
export function jsonLine(tree: JsonLineNode, path: readonly PropertyKey[]): number {
  let node = tree;
  for (const key of path) {
    const next = node.children?.get(String(key));
    if (next === undefined) break;
    node = next;
  }
  return node.line;
}

function jsonError(error: unknown, source: string, file: string): LockfileError {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const lines = new LineIndex(source);
  let line: number | null = null;
  if (position?.[1] !== undefined) {
    // A missing comma is noticed at the next token; the value it should follow ends the line to fix.
    let offset = Number(position[1]);
    if (/^Expected ',' or/.test(message)) while (offset > 0 && /\s/.test(source[offset - 1] ?? '')) offset -= 1;
    line = lines.lineAt(offset === Number(position[1]) ? offset : offset - 1);
  }
  else if (/end of JSON input/i.test(message)) line = lines.lineCount;
  else {
    // V8's "Unexpected token 'x', "…" is not valid JSON" gives no position: find the first bad character.
    line = lines.lineAt(firstInvalidOffset(source));
  }
  // Drop V8's position suffix and its quotation of the file: the line number says where.
  const detail = firstLine(message)
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/, ".*" is not valid JSON$/, '')
    .replace(/^Unexpected token '(.)'.*$/, "unexpected character '$1'");
  return new LockfileError(file, line, `invalid JSON: ${detail}`);
}

/** Offset of the first character that cannot start or continue JSON (best effort, for the line only). */
function firstInvalidOffset(source: string): number {
  const masked = source.replace(/"(?:[^"\\\n]|\\.)*"/g, (s) => `"${' '.repeat(s.length - 2)}"`);
  const match = /[^\s{}[\]:,"0-9.eE+\-truefalsn]/.exec(masked);
  return match?.index ?? 0;
}

/**
 * Replace JSONC comments and trailing commas by spaces (newlines kept), so the result is
 * plain JSON with the same offsets. Strings are skipped with their escapes.
 */
export function blankJsonc(text: string): string {
  const out = text.split('');
  const n = text.length;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let lastComma = -1;
  for (let i = 0; i < n; ) {
    const c = text[i];
    if (c === '"') {
      lastComma = -1;
      i += 1;
      while (i < n && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === ',') {
      lastComma = i;
      i += 1;
    } else if (c === '}' || c === ']') {
      if (lastComma !== -1) out[lastComma] = ' ';
      lastComma = -1;
      i += 1;
    } else {
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') lastComma = -1;
      i += 1;
    }
  }
  return out.join('');
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

interface Frame {
  node: JsonLineNode;
  array: boolean;
  index: number;
}

/**
 * Record the line of every key and item of valid JSON, without recursion (any depth). Only
 * whitespace between tokens can hold a line break in valid JSON, so that is where lines are
 * counted; strings are skipped to their closing quote.
 */
function scanLines(text: string, maxDepth: number): JsonLineNode {
  let i = 0;
  let line = 1;
  const n = text.length;
  const skipWhitespace = () => {
    for (; i < n; i += 1) {
      const c = text.charCodeAt(i);
      if (c === LF) line += 1;
      else if (c !== SPACE && c !== TAB && c !== CR) return;
    }
  };
  /** Skip a string starting at `i` (its opening quote); return its raw text with the quotes. */
  const skipString = (): string => {
    const start = i;
    let end = text.indexOf('"', i + 1);
    for (;;) {
      if (end < 0) {
        end = n - 1;
        break;
      }
      let slashes = 0;
      for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k -= 1) slashes += 1;
      if (slashes % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    i = end + 1;
    return text.slice(start, i);
  };
  /** Skip a whole object or array starting at `i`, counting its lines. */
  const skipContainer = () => {
    let nesting = 0;
    for (; i < n; i += 1) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        skipString();
        i -= 1;
      } else if (c === LF) line += 1;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) nesting += 1;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --nesting === 0) {
        i += 1;
        return;
      }
    }
  };
  const stack: Frame[] = [];
  const startValue = (node: JsonLineNode) => {
    const c = text.charCodeAt(i);
    if ((c === OPEN_BRACE || c === OPEN_BRACKET) && stack.length >= maxDepth) skipContainer();
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      node.children = new Map();
      stack.push({ node, array: c === OPEN_BRACKET, index: 0 });
      i += 1;
    } else if (c === QUOTE) skipString();
    else {
      for (; i < n; i += 1) {
        const d = text.charCodeAt(i);
        if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === SPACE || d === LF || d === CR || d === TAB) break;
      }
    }
  };

  skipWhitespace();
  const root: JsonLineNode = { line };
  startValue(root);
  while (stack.length > 0 && i < n) {
    const frame = stack[stack.length - 1] as Frame;
    skipWhitespace();
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
      i += 1;
    } else if (c === COMMA) i += 1;
    else if (frame.array) {
      const child: JsonLineNode = { line };
      frame.node.children?.set(String(frame.index), child);
      frame.index += 1;
      startValue(child);
    } else {
      const keyLine = line;
      const raw = skipString();
      const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      skipWhitespace();
      i += 1; // the colon
      skipWhitespace();
      const child: JsonLineNode = { line: keyLine };
      frame.node.children?.set(key, child);
      startValue(child);
    }
  }
  return root;
}

/**
 * TOML (poetry.lock, uv.lock, pdm.lock, pyproject.toml, Pipfile) through smol-toml, plus a
 * light layout scan for line numbers, which smol-toml does not keep: the line of every table
 * header and of every key directly in a table. The scan only looks at line starts outside
 * multi-line values, strings and comments; values always come from smol-toml.
 */
import { parse, TomlError } from 'smol-toml';
import { LockfileError } from '../audit/types.js';
import { firstLine, splitLines } from './text.js';

export function parseToml(text: string, file: string): Record<string, unknown> {
  const { deepestKey } = tomlLayout(text);
  if (deepestKey.parts > MAX_KEY_PARTS) {
    throw new LockfileError(file, deepestKey.line, `invalid TOML: a key of ${deepestKey.parts} dotted parts (at most ${MAX_KEY_PARTS} are read)`);
  }
  try {
    return parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const detail = firstLine(error.message).replace(/^Invalid TOML document:\s*/, '');
      throw new LockfileError(file, error.line, `invalid TOML: ${detail}`);
    }
    throw new LockfileError(file, null, `invalid TOML: ${firstLine(error instanceof Error ? error.message : String(error))}`);
  }
}

/** One table of a TOML document, in document order (the root table first, header ''). */
export interface TomlTable {
  /** Dotted header with quotes removed, e.g. `tool.poetry.dependencies`; `package` for `[[package]]`. */
  header: string;
  /** `[[array.of.tables]]`. */
  array: boolean;
  /** Line of the header (1 for the root table). */
  line: number;
  /** Line of each key written directly in this table (dotted keys as written, quotes removed). */
  keys: Map<string, number>;
  /** Last line that belongs to this table. */
  endLine: number;
}

export interface TomlLayout {
  tables: TomlTable[];
  lines: string[];
  /** The key with the most dotted parts (table headers and keys in inline tables included) and its line. */
  deepestKey: { parts: number; line: number };
}

/**
 * Real lockfiles and manifests never nest a key beyond a few parts. A key of thousands of dotted
 * parts builds as many nested tables (memory and time the TOML parser spends super-linearly):
 * such a file is refused before it is parsed.
 */
export const MAX_KEY_PARTS = 64;

const BARE_OR_QUOTED = String.raw`(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')`;
const KEY = new RegExp(String.raw`^\s*(${BARE_OR_QUOTED}(?:\s*\.\s*${BARE_OR_QUOTED})*)\s*=`);
const HEADER = new RegExp(String.raw`^\s*(\[\[?)\s*(${BARE_OR_QUOTED}(?:\s*\.\s*${BARE_OR_QUOTED})*)\s*\]`);

/** The last layout made: every reader asks for it, then parseToml asks again for the same text. */
let last: { text: string; layout: TomlLayout } | null = null;

/** The layout of a TOML text (one linear scan, kept for the next call with the same text). */
export function tomlLayout(text: string): TomlLayout {
  if (last !== null && last.text === text) return last.layout;
  const layout = scanLayout(text);
  last = { text, layout };
  return layout;
}

function scanLayout(text: string): TomlLayout {
  const lines = splitLines(text);
  const deepestKey = { parts: 0, line: 1 };
  const deeper = (parts: number, line: number): void => {
    if (parts > deepestKey.parts) Object.assign(deepestKey, { parts, line });
  };
  const root: TomlTable = { header: '', array: false, line: 1, keys: new Map(), endLine: lines.length };
  const tables: TomlTable[] = [root];
  let current = root;
  let depth = 0;
  let multi: string | null = null;
  lines.forEach((lineText, index) => {
    const lineNo = index + 1;
    let start = 0;
    if (depth === 0 && multi === null) {
      const header = HEADER.exec(lineText);
      if (header !== null) {
        current.endLine = lineNo - 1;
        const parts = splitKey(header[2] ?? '');
        deeper(parts.length, lineNo);
        current = { header: parts.join('.'), array: header[1] === '[[', line: lineNo, keys: new Map(), endLine: lines.length };
        tables.push(current);
        return;
      }
      const key = KEY.exec(lineText);
      if (key === null) return;
      const parts = splitKey(key[1] ?? '');
      deeper(parts.length, lineNo);
      const name = parts.join('.');
      if (!current.keys.has(name)) current.keys.set(name, lineNo);
      start = key[0].length;
    }
    // Follow the value: strings, comments and brackets decide where it ends. Dots outside strings
    // between two delimiters are a dotted key of an inline table (a number or date has two at most).
    let dots = 0;
    for (let i = start; i < lineText.length; i += 1) {
      if (multi !== null) {
        if (lineText.startsWith(multi, i)) {
          multi = null;
          i += 2;
        } else if (multi === '"""' && lineText[i] === '\\') i += 1;
        continue;
      }
      const c = lineText[i];
      if (c === '#') break;
      if (c === '.') {
        dots += 1;
        deeper(dots + 1, lineNo);
      } else if (c === ',' || c === '=' || c === '{' || c === '}' || c === '[' || c === ']') dots = 0;
      if (lineText.startsWith('"""', i) || lineText.startsWith("'''", i)) {
        multi = lineText.slice(i, i + 3);
        i += 2;
      } else if (c === '"') {
        i += 1;
        while (i < lineText.length && lineText[i] !== '"') i += lineText[i] === '\\' ? 2 : 1;
      } else if (c === "'") {
        const end = lineText.indexOf("'", i + 1);
        i = end === -1 ? lineText.length : end;
      } else if (c === '[' || c === '{') depth += 1;
      else if ((c === ']' || c === '}') && depth > 0) depth -= 1;
    }
  });
  return { tables, lines, deepestKey };
}


/** The parts of a dotted key, quotes removed, each trimmed. */
function splitKey(raw: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quote = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '.') {
      parts.push(unquote(raw.slice(start, i).trim()));
      start = i + 1;
    }
  }
  parts.push(unquote(raw.slice(start).trim()));
  return parts;
}

function unquote(part: string): string {
  return part.length >= 2 && (part[0] === '"' || part[0] === "'") && part.at(-1) === part[0] ? part.slice(1, -1) : part;
}

/** The tables with this header, in document order (e.g. every `[[package]]`). */
export function tablesNamed(layout: TomlLayout, header: string): TomlTable[] {
  return layout.tables.filter((table) => table.header === header);
}

/** The first table with this header. */
export function tableNamed(layout: TomlLayout, header: string): TomlTable | undefined {
  return layout.tables.find((table) => table.header === header);
}

/** The first line in `[from, to]` that holds the string literal `"value"` or `'value'`. */
export function literalLine(layout: TomlLayout, from: number, to: number, value: string): number | null {
  const double = JSON.stringify(value);
  const single = `'${value}'`;
  for (let line = Math.max(from, 1); line <= Math.min(to, layout.lines.length); line += 1) {
    const text = layout.lines[line - 1] ?? '';
    if (text.includes(double) || text.includes(single)) return line;
  }
  return null;
}

/**
 * The line of each `[[<header>]]` block's `name = ` key, matched to the parsed array by
 * position (checked against the name; the block's header line when they disagree).
 */
export function arrayTableNameLines(layout: TomlLayout, header: string, names: readonly string[]): (number | null)[] {
  const tables = tablesNamed(layout, header);
  return names.map((name, index) => {
    const table = tables[index];
    if (table === undefined) return null;
    const line = table.keys.get('name');
    return line !== undefined && (layout.lines[line - 1] ?? '').includes(name) ? line : table.line;
  });
}

/**
 * Line of a key path in a TOML document, for error messages: `[[array]]` blocks by position,
 * then the deepest table header or key the layout knows.
 */
export function tomlLineOf(layout: TomlLayout, path: readonly PropertyKey[]): number | null {
  if (path.length >= 2 && typeof path[1] === 'number') {
    const block = tablesNamed(layout, String(path[0])).filter((t) => t.array)[path[1]];
    if (block !== undefined) return (path[2] === undefined ? undefined : block.keys.get(String(path[2]))) ?? block.line;
  }
  const parts = path.map(String);
  for (let cut = parts.length; cut > 0; cut -= 1) {
    for (let split = cut - 1; split >= 0; split -= 1) {
      const line = tableNamed(layout, parts.slice(0, split).join('.'))?.keys.get(parts.slice(split, cut).join('.'));
      if (line !== undefined) return line;
    }
    const table = tableNamed(layout, parts.slice(0, cut).join('.'));
    if (table !== undefined) return table.line;
  }
  return null;
}

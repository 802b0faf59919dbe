/**
 * Following data through a Python module's text (import-code.ts and saved-downloads.ts): a call's
 * arguments, the top-level items of an argument list, the assignments of every name, and a span
 * with the values of the names it uses followed a few steps back. Pure text reading, never
 * executed; every step is bounded (MAX_SPAN, MAX_VALUE, TRACE_LINES, TRACE_DEPTH).
 */

/** Characters of a call's arguments read at most, and of a multi-line assigned value. */
const MAX_SPAN = 8_000;
const MAX_VALUE = 2_000;
/** How many lines before a call an assignment it uses may lie, and how many steps back data is followed. */
export const TRACE_LINES = 80;
/** Seven: host data encoded before it is sent (`h = uname()`, `m = a + h`, `b = m.encode()`, `e = b64encode(b)`, `t = e.decode()`) takes five, and a payload renames it once or twice more. */
export const TRACE_DEPTH = 7;

/**
 * Each character of `text` from `from` to `end` outside string literals (escapes and triple quotes
 * read), with the bracket depth after it, starting at `depth`; stops at the first for which `visit`
 * is true and gives its index, else -1. One pass: the readers below share it.
 */
function scanCode(text: string, from: number, end: number, depth: number, visit: (c: string, i: number, depth: number) => boolean): number {
  let quote: string | null = null;
  for (let i = from; i < end; i += 1) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    else if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') depth -= 1;
    if (visit(c, i, depth)) return i;
  }
  return -1;
}

/** The text from `open` (just after a `(`) to its matching `)`, strings skipped; at most `max` characters. */
export function callArguments(text: string, open: number, max = MAX_SPAN): string {
  const end = Math.min(text.length, open + max);
  const close = scanCode(text, open, end, 1, (c, _i, depth) => depth === 0 && (c === ')' || c === ']' || c === '}'));
  return text.slice(open, close === -1 ? end : close);
}

/** The value of a statement starting at `from`: up to the first newline outside brackets. */
function statementValue(text: string, from: number): string {
  const line = text.indexOf('\n', from);
  const first = text.slice(from, line === -1 ? text.length : line);
  const opens = (first.match(/[([{]/g) ?? []).length - (first.match(/[)\]}]/g) ?? []).length;
  if (opens <= 0) return first;
  const open = from + first.search(/[([{]/) + 1;
  return text.slice(from, open) + callArguments(text, open, MAX_VALUE);
}

export interface Assignment {
  line: number;
  value: string;
}

/** Assignments by name: `x = …`, `x += …`, `a, b = …`, `with … as x`, `for x in …`. */
function assignments(text: string, lineAt: (offset: number) => number): Map<string, Assignment[]> {
  const found = new Map<string, Assignment[]>();
  const add = (names: string, value: string, offset: number): void => {
    for (const name of names.split(/[\s,()]+/).filter((n) => /^[A-Za-z_]\w*$/.test(n))) {
      const list = found.get(name) ?? [];
      list.push({ line: lineAt(offset), value });
      found.set(name, list);
    }
  };
  for (const m of text.matchAll(/^[ \t]*((?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*)\s*(?:\+|-)?=(?!=)\s*/gm)) add(m[1] as string, statementValue(text, m.index + m[0].length), m.index);
  for (const m of text.matchAll(/\bwith\s+([^\n]{1,400}?)\s+as\s+([A-Za-z_]\w*)\s*:/g)) {
    add(m[2] as string, m[1] as string, m.index);
    // `with A as a, B as b:` — the earlier items' names too.
    for (const item of splitArguments(m[1] as string).slice(0, -1)) {
      const named = /\sas\s+([A-Za-z_]\w*)$/.exec(item);
      if (named !== null) add(named[1] as string, item.slice(0, named.index).trim(), m.index);
    }
  }
  for (const m of text.matchAll(/^[ \t]*(?:async\s+)?for\s+([\w \t,()]{1,200}?)\s+in\s+/gm)) add(m[1] as string, statementValue(text, m.index + m[0].length), m.index);
  for (const list of found.values()) list.sort((a, b) => a.line - b.line);
  return found;
}

/** Text with the words inside string literals dropped, but an f-string's `{…}` fields kept (they are code). */
export function codeOf(text: string): string {
  return text.replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, (literal) => (literal.match(/\{[^{}'"]*\}/g) ?? []).join(' '));
}

/** `span` and the values of the names it uses, followed back TRACE_DEPTH steps, within TRACE_LINES before `line`. */
export function traced(span: string, line: number, named: Map<string, Assignment[]>): string {
  const seen = new Set<string>();
  let frontier = [span];
  const parts = [span];
  for (let depth = 0; depth < TRACE_DEPTH && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const text of frontier) {
      for (const [name] of codeOf(text).matchAll(/(?<![\w.])[A-Za-z_]\w*/g)) {
        if (seen.has(name)) continue;
        seen.add(name);
        const list = named.get(name) ?? [];
        // The list is sorted by line: start at the first assignment inside the window.
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((list[mid] as Assignment).line < line - TRACE_LINES) lo = mid + 1;
          else hi = mid;
        }
        for (let i = lo; i < list.length && (list[i] as Assignment).line <= line; i += 1) {
          next.push((list[i] as Assignment).value);
          parts.push((list[i] as Assignment).value);
        }
      }
    }
    frontier = next;
  }
  return parts.join('\n');
}

/** The top-level items of an argument list (commas inside strings and brackets skipped). */
export function splitArguments(args: string): string[] {
  const items: string[] = [];
  let start = 0;
  scanCode(args, 0, args.length, 0, (c, i, depth) => {
    if (c === ',' && depth === 0) {
      items.push(args.slice(start, i).trim());
      start = i + 1;
    }
    return false;
  });
  const last = args.slice(start).trim();
  if (last !== '') items.push(last);
  return items;
}

/**
 * The name a call's result is assigned to, from the text before the call on its line
 * (`f = open(`, `name, headers = urllib.request.urlretrieve(` → `f`, `name`); read backwards
 * character by character, so a long line costs its length once.
 */
export function assignedName(before: string): string | null {
  let i = before.length;
  while (i > 0 && /[\w.]/.test(before[i - 1] as string)) i -= 1;
  while (i > 0 && /[ \t]/.test(before[i - 1] as string)) i -= 1;
  if (i === 0 || before[i - 1] !== '=' || /[=!<>]/.test(before[i - 2] ?? '')) return null;
  let start = i - 1;
  while (start > 0 && /[\w \t,]/.test(before[start - 1] as string)) start -= 1;
  const first = before.slice(start, i - 1).split(',')[0]?.trim() ?? '';
  return /^[A-Za-z_]\w*$/.test(first) ? first : null;
}

/**
 * The expression a method is called on, from the text before its `.` on the line (`target`,
 * `Path(tmp, "a")`, `(Path(tmp) / "a")`); read backwards over names, dots and bracketed groups,
 * at most the 200 characters given. Empty when there is none.
 */
export function receiverOf(before: string): string {
  let i = before.length;
  let depth = 0;
  while (i > 0) {
    const c = before[i - 1] as string;
    if (c === ')' || c === ']') depth += 1;
    else if (c === '(' || c === '[') {
      if (depth === 0) break;
      depth -= 1;
    } else if (depth === 0 && !/[\w.]/.test(c)) break;
    i -= 1;
  }
  return depth === 0 ? before.slice(i).trim() : '';
}


/** A module's text with its line index, its assignments by name, and the lookups the readers share. */
export interface FlowText {
  text: string;
  lineStarts: number[];
  /** The line (0-based) of an offset. */
  lineAt(offset: number): number;
  /** The whole line an offset is on. */
  lineText(offset: number): string;
  named: Map<string, Assignment[]>;
  /** The values assigned to a name within TRACE_LINES before `line`. */
  valuesAt(line: number): (name: string) => string[];
}

export function flowText(text: string): FlowText {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const lineText = (offset: number): string => {
    const n = lineAt(offset);
    return text.slice(lineStarts[n], (lineStarts[n + 1] ?? text.length + 1) - 1);
  };
  const named = assignments(text, lineAt);
  const valuesAt =
    (line: number) =>
    (name: string): string[] =>
      (named.get(name) ?? []).filter((a) => a.line <= line && a.line >= line - TRACE_LINES).map((a) => a.value);
  return { text, lineStarts, lineAt, lineText, named, valuesAt };
}

/**
 * The functions a Python module defines, read from its text (saved-downloads.ts and
 * download-calls.ts follow data through them): each `def`'s name, parameters, body lines and
 * what it returns, and the calls of a function with the argument each call gives a parameter.
 * Pure text reading, never executed; bounded (MAX_FUNCTIONS, MAX_CALL_SITES).
 */
import { callArguments, splitArguments, type FlowText } from './python-flow.js';

/** Functions read at most per module, and calls of one function followed at most. */
const MAX_FUNCTIONS = 2_000;
const MAX_CALL_SITES = 16;

export interface PythonFunction {
  name: string;
  /** Parameter names in order (`*args` / `**kw` as `args` / `kw`; annotations and defaults dropped). */
  params: string[];
  /** The `def` line and the last line of its body (0-based). */
  line: number;
  end: number;
  /** What its body returns (`return x` lines, nested functions' included). */
  returns: { line: number; value: string }[];
}

/** A call of a function: its line, the text of its arguments, and its items. */
export interface CallSite {
  line: number;
  offset: number;
  items: string[];
  /** The call is a method call on `self` / `cls`: the method's first parameter is the receiver. */
  method: boolean;
}

/**
 * The functions defined in the text, in order; a body runs while lines are blank or indented
 * deeper than its `def`. One pass over the lines with a stack of the open functions, however
 * deep they nest.
 */
export function functionsOf(flow: FlowText): PythonFunction[] {
  const { text, lineStarts, lineAt } = flow;
  const found: (PythonFunction & { indent: number; header: number })[] = [];
  for (const m of text.matchAll(/^([ \t]*)(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm)) {
    if (found.length === MAX_FUNCTIONS) break;
    const args = callArguments(text, m.index + m[0].length, 2_000);
    const params = splitArguments(args).flatMap((p) => {
      const name = /^\*{0,2}\s*([A-Za-z_]\w*)/.exec(p)?.[1];
      return name === undefined ? [] : [name];
    });
    const close = m.index + m[0].length + args.length;
    const header = lineAt(close);
    // A one-line function: `def f(u): return urlopen(u).read()`.
    const inline = /^[^\n:]{0,200}:[ \t]*return[ \t]+([^\n]+)/.exec(text.slice(close, close + 4_000));
    const returns = inline === null ? [] : [{ line: header, value: (inline[1] as string).trim() }];
    found.push({ name: m[2] as string, params, line: lineAt(m.index), end: header, returns, indent: (m[1] as string).length, header });
  }
  const returns = [...text.matchAll(/^[ \t]*return[ \t]+([^\n]+)/gm)].map((m) => ({ line: lineAt(m.index), value: (m[1] as string).trim() }));
  type Open = (typeof found)[number];
  const open: Open[] = [];
  let next = 0;
  let r = 0;
  let last = 0;
  for (let n = 0; n < lineStarts.length; n += 1) {
    const start = lineStarts[n] as number;
    const stop = (lineStarts[n + 1] ?? text.length + 1) - 1;
    let i = start;
    while (i < stop && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i += 1;
    if (i < stop) {
      // A line as shallow as an open def (past its header) ends that def's body at the line before.
      for (let top = open.at(-1); top !== undefined && top.header < n && i - start <= top.indent; top = open.at(-1)) {
        top.end = Math.max(top.header, last);
        open.pop();
      }
      last = n;
    }
    while (r < returns.length && (returns[r] as { line: number }).line === n) {
      for (const f of open) if (f.header < n) f.returns.push(returns[r] as { line: number; value: string });
      r += 1;
    }
    while (next < found.length && (found[next] as Open).line === n) {
      open.push(found[next] as Open);
      next += 1;
    }
  }
  for (const f of open) f.end = Math.max(f.header, last);
  return found.map(({ name, params, line, end, returns: own }) => ({ name, params, line, end, returns: own }));
}

/** The innermost function whose body holds the line, if any. */
export function enclosingFunction(functions: PythonFunction[], line: number): PythonFunction | undefined {
  let best: PythonFunction | undefined;
  for (const f of functions) if (f.line < line && line <= f.end && (best === undefined || f.line > best.line)) best = f;
  return best;
}

/**
 * The calls of the module's functions, by name (bare, or as a method of `self` / `cls`; a `def` line left out): one
 * pass over the text for all of them, at most MAX_CALL_SITES kept per name, each call's
 * arguments split when first asked for.
 */
export function callSitesOf(flow: FlowText, functions: PythonFunction[]): (name: string) => CallSite[] {
  const names = new Set(functions.map((f) => f.name));
  const offsets = new Map<string, { offset: number; open: number; method: boolean }[]>();
  if (names.size > 0) {
    for (const m of flow.text.matchAll(/(?<![\w.])(self\.|cls\.)?([A-Za-z_]\w*)[ \t]*\(/g)) {
      const name = m[2] as string;
      if (!names.has(name) || /\bdef[ \t]+$/.test(flow.text.slice(Math.max(0, m.index - 12), m.index))) continue;
      const list = offsets.get(name) ?? [];
      if (list.length < MAX_CALL_SITES) list.push({ offset: m.index, open: m.index + m[0].length, method: m[1] !== undefined });
      offsets.set(name, list);
    }
  }
  const split = new Map<string, CallSite[]>();
  return (name) => {
    let sites = split.get(name);
    if (sites === undefined) {
      sites = (offsets.get(name) ?? []).map((o) => ({ line: flow.lineAt(o.offset), offset: o.offset, items: splitArguments(callArguments(flow.text, o.open, 2_000)), method: o.method }));
      split.set(name, sites);
    }
    return sites;
  };
}

/** The argument a call gives a parameter: by keyword, else by position (a method's receiver skipped); undefined when none. */
export function argumentFor(f: PythonFunction, param: string, site: CallSite): string | undefined {
  const keyword = site.items.find((i) => new RegExp(String.raw`^${param}\s*=(?!=)`).test(i));
  if (keyword !== undefined) return keyword.replace(/^\w+\s*=\s*/, '');
  const receiver = site.method && /^(?:self|cls)$/.test(f.params[0] ?? '') ? 1 : 0;
  const index = f.params.indexOf(param) - receiver;
  const positional = site.items.filter((i) => !/^\*|^[A-Za-z_]\w*\s*=(?!=)/.test(i));
  return index < 0 ? undefined : positional[index];
}

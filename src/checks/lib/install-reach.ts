/**
 * What of a module the install code runs (docs/checks.md, `install-scripts`; docs/security.md,
 * "Install-time code"). A file a command names runs whole. A module it loads runs its load-time
 * code (load-code.ts: its top level, and what that calls), and the functions it exports only when
 * the code that runs calls them: `require('./x')` alone runs x's top level, `const { go } =
 * require('./x'); go()` runs go too. What the loading code does with a module that this reading
 * cannot follow (the module passed on whole, called itself, a class made from it) is taken to
 * run all of it, as is a module whose called exports cannot be found by name: a payload is never
 * left out because a use was not understood.
 *
 * Pure text inspection, never executed.
 */
import { localImports } from './install-targets.js';
import { loadTimeText } from './load-code.js';

/** The exports of a module the running code calls (by the names it exports them as), or `all`. */
export type Calls = ReadonlySet<string> | 'all';

export const NO_CALLS: Calls = new Set<string>();

const NAME = /^[A-Za-z_$][\w$]*$/;
/** Exports of one module followed by name at most (each a walk over its text); past them, all of it is judged. */
const MAX_CALLED_NAMES = 64;
const escape = (name: string): string => name.replace(/\$/g, '\\$');

/** `calls` with `more` added (`all` absorbs everything). */
export function joinCalls(calls: Calls, more: Calls): Calls {
  if (calls === 'all' || more === 'all') return 'all';
  if ([...more].every((name) => calls.has(name))) return calls;
  return new Set([...calls, ...more]);
}

/** Whether `more` adds to `calls`. */
export function addsCalls(calls: Calls, more: Calls): boolean {
  if (calls === 'all') return false;
  if (more === 'all') return true;
  return [...more].some((name) => !calls.has(name));
}

/**
 * The text of a loaded module that runs when its `calls` are called: its load-time code with the
 * bodies of the called exports (load-code.ts follows the calls, appended to the text as calls by
 * name and as `exports.name()`). The whole text when the calls are `all`, when a called name is
 * not found as something the module defines (a getter that re-exports, an alias, a class: what
 * runs is not followed) or when the text's brackets are not followed.
 */
export function runningText(text: string, calls: Calls): string {
  if (calls === 'all' || calls.size > MAX_CALLED_NAMES) return text;
  const names = [...calls];
  const aliases = exportedAliases(text);
  if (!names.every((name) => NAME.test(name) && name !== 'default' && !aliases.has(name) && defines(text, name))) return text;
  const calling = names.map((name) => `;${name}();exports.${name}();`).join('');
  return loadTimeText(`${text}\n${calling}\n`) ?? text;
}

/**
 * The names `export { impl as name }` clauses export under another name than the one they are
 * defined by (what runs is not followed by name). One pass: a clause ends at the next brace, so
 * unclosed clauses cost no more than their text.
 */
function exportedAliases(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\bexport\s*\{([^{}]*)\}/g)) {
    for (const alias of m[1]!.matchAll(/\bas\s+([\w$]+)/g)) out.add(alias[1]!);
  }
  return out;
}

/** Whether `text` defines `name` as a function this reading can follow: `function name(`, `name = `, `name: `, a method `name(…) {`; not a class. */
function defines(text: string, name: string): boolean {
  const n = escape(name);
  if (new RegExp(`\\bclass\\s+${n}(?![\\w$])`).test(text)) return false;
  return new RegExp(`\\bfunction\\s*\\*?\\s*${n}\\s*\\(|(?<![\\w$])${n}\\s*(?:=(?![=>])|:(?!:))|(?<![\\w$.])${n}\\s*\\([^()]*\\)\\s*\\{`).test(text);
}

const STATIC_IMPORT = /\bimport\s+([\w$]+\s*,?\s*)?(\*\s*as\s+[\w$]+|\{[^{}]{0,2000}\})?\s*from\s*(['"])(\.{1,2}\/[^'"\n]{1,200})\3/g;
const BARE_IMPORT = /\bimport\s*(['"])(\.{1,2}\/[^'"\n]{1,200})\1/g;
const RE_EXPORT = /\bexport\s*(\*(?:\s*as\s+([\w$]+))?|\{[^{}]{0,2000}\})\s*from\s*(['"])(\.{1,2}\/[^'"\n]{1,200})\3/g;
const CALL_IMPORT = /\b(?:require|import)\s*\(\s*(['"`])(\.{1,2}\/[^'"`\n]{1,200})\1\s*\)/g;
/** Load statements of one module whose uses are followed (each is a walk over its text); past them, all of a module may run. */
const MAX_STATEMENTS = 400;
/** Where a module's load statement is (its own names there are no use). */
type Skip = readonly [number, number];
/** Helpers compilers wrap a `require` in (TypeScript's, Babel's, esbuild's). */
const INTEROP = /(?:__importDefault|__importStar|_interopRequireDefault|_interopRequireWildcard|__toESM|__toCommonJS)\s*\(\s*$/;

/**
 * The local modules `running` (the text of `from` that runs) loads, each with the exports of it
 * that running code calls (merged over every place it is loaded). `own`: the exports of `from`
 * that are called, passed through its re-exports (`export * from './x'`, `module.exports = require('./x')`).
 */
export function loadedCalls(running: string, from: string, own: Calls): Map<string, Calls> {
  const out = new Map<string, Calls>();
  const add = (spec: string, calls: Calls): void => {
    const path = localImports(`require('${spec}')`, from)[0]?.[0];
    if (path === undefined) return;
    const had = out.get(path);
    out.set(path, had === undefined ? calls : joinCalls(had, calls));
  };
  let statements = 0;
  const names = new Names(running);
  for (const m of running.matchAll(STATIC_IMPORT)) {
    statements += 1;
    // Past MAX_STATEMENTS, a module's uses are not followed: all of it may run.
    if (statements > MAX_STATEMENTS) {
      add(m[4]!, 'all');
      continue;
    }
    const skip: Skip = [m.index, m.index + m[0].length];
    let calls: Calls = NO_CALLS;
    const defaultName = m[1]?.replace(/[\s,]/g, '');
    // A default export is one this reading does not follow by name: any use runs all of it.
    if (defaultName !== undefined && defaultName !== '' && uses(names, defaultName, skip)) calls = 'all';
    const clause = m[2];
    if (clause?.startsWith('*')) calls = joinCalls(calls, membersUsed(names, clause.replace(/^\*\s*as\s+/, ''), skip));
    else if (clause !== undefined) calls = joinCalls(calls, namedUsed(names, clause, /\s+as\s+/, skip));
    add(m[4]!, calls);
  }
  for (const m of running.matchAll(BARE_IMPORT)) add(m[2]!, NO_CALLS);
  for (const m of running.matchAll(RE_EXPORT)) {
    const clause = m[1]!;
    let calls: Calls = NO_CALLS;
    if (own === 'all') calls = 'all';
    else if (clause.startsWith('*')) calls = m[2] === undefined ? own : own.has(m[2]) ? 'all' : NO_CALLS;
    else {
      const names = new Set<string>();
      for (const [inner, outer] of pairs(clause, /\s+as\s+/)) if (own.has(outer)) names.add(inner);
      calls = names.has('default') ? 'all' : names;
    }
    add(m[4]!, calls);
  }
  for (const m of running.matchAll(CALL_IMPORT)) {
    statements += 1;
    add(m[2]!, statements > MAX_STATEMENTS ? 'all' : callImport(names, m.index, m.index + m[0].length, own));
  }
  return out;
}

/** The `name as alias` (or, in a destructuring, `name: alias`) pairs of a `{ … }` clause. */
function pairs(clause: string, separator: RegExp): [string, string][] {
  return clause
    .replace(/^\{|\}$/g, '')
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part !== '' && !part.startsWith('...'))
    .map((part) => {
      const [inner, outer] = part.split(separator).map((s) => s.trim().replace(/\s*=[\s\S]*$/, ''));
      return [inner!, outer ?? inner!];
    });
}

/** The names of a `{ … }` clause whose local binding is used: each a call (a function handed on may be called too). */
function namedUsed(text: Names, clause: string, separator: RegExp, skip: Skip): Calls {
  const names = new Set<string>();
  for (const [inner, outer] of pairs(clause, separator)) {
    if (!NAME.test(outer)) return 'all';
    if (uses(text, outer, skip)) {
      if (inner === 'default' || !NAME.test(inner)) return 'all';
      names.add(inner);
    }
  }
  return names;
}

/** Whether `name` is used in `text`, as itself (not as a member `x.name` or a key `name:`). */
function uses(names: Names, name: string, skip: Skip): boolean {
  const after = name.length;
  for (const at of names.positions(name)) if ((at < skip[0] || at >= skip[1]) && !names.follows(KEY_AFTER, at + after)) return true;
  return false;
}

const KEY_AFTER = /\s*:(?!:)/y;
const MEMBER_AFTER = /\s*(?:\?\.|\.)\s*([\w$]+)/y;
const ASSIGNED_AFTER = /\s*=(?![=>])/y;

/** Where each name stands in a text (not after a `.`: a member of something else), found in one pass when first asked. */
class Names {
  private at: Map<string, number[]> | undefined;

  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  positions(name: string): readonly number[] {
    if (this.at === undefined) {
      this.at = new Map();
      for (const m of this.text.matchAll(/[\w$]+/g)) {
        if (this.text[m.index - 1] === '.' || /^[0-9]/.test(m[0])) continue;
        const list = this.at.get(m[0]);
        if (list === undefined) this.at.set(m[0], [m.index]);
        else list.push(m.index);
      }
    }
    return this.at.get(name) ?? [];
  }

  /** Whether `sticky` matches at `at`; its match. */
  follows(sticky: RegExp, at: number): RegExpExecArray | null {
    sticky.lastIndex = at;
    return sticky.exec(this.text);
  }
}

/** The members of a module object bound to `name` that `text` uses (`name.go`), or `all` when it uses the object otherwise. */
function membersUsed(text: Names, name: string, skip: Skip): Calls {
  const names = new Set<string>();
  for (const at of text.positions(name)) {
    if (at >= skip[0] && at < skip[1]) continue;
    const member = text.follows(MEMBER_AFTER, at + name.length)?.[1];
    // Its declaration (`const name = require(…)`) is no use.
    if (member === undefined && text.follows(ASSIGNED_AFTER, at + name.length) !== null) continue;
    if (member === undefined || member === 'default') return 'all';
    names.add(member);
  }
  return names;
}

/** The exports of the module a `require('./x')` or `import('./x')` at `start`…`end` loads that the code calls. */
function callImport(names: Names, start: number, end: number, own: Calls): Calls {
  const { text } = names;
  const from = Math.max(0, start - 300);
  let before = text.slice(from, start);
  let after = text.slice(end, end + 300);
  let wrapped = 0;
  // `(await import('./x'))`, `__importDefault(require('./x'))`: looked through.
  for (;;) {
    const interop = INTEROP.exec(before);
    const paren = /\(\s*$/.exec(before);
    if (interop !== null) before = before.slice(0, interop.index);
    else if (paren !== null && /^\s*\)/.test(after)) before = before.slice(0, paren.index);
    else break;
    after = after.replace(/^\s*\)/, '');
    wrapped += 1;
    before = before.replace(/\bawait\s*$/, '');
  }
  before = before.replace(/\bawait\s*$/, '');
  if (wrapped > 4) return 'all';
  const member = /^\s*(?:\?\.|\.)\s*([\w$]+)/.exec(after);
  if (member !== null) return member[1] === 'default' || member[1] === 'then' ? 'all' : new Set([member[1]!]);
  if (/^\s*(?:\?\.\s*)?\(/.test(after)) return 'all';
  // `const x = require('./x')`, `var x = …, y = require('./y')`.
  const bound = /(?:\b(?:const|let|var)\s+|,\s*)([\w$]+)\s*=\s*$/.exec(before);
  if (bound !== null) return membersUsed(names, bound[1]!, [from + bound.index, end]);
  const destructured = /\b(?:const|let|var)\s*(\{[^{}]{0,2000}\})\s*=\s*$/.exec(before);
  if (destructured !== null) return namedUsed(names, destructured[1]!, /\s*:\s*/, [from + destructured.index, end]);
  // `module.exports = require('./x')`: what calls this module calls that one.
  if (/\b(?:module\.)?exports\s*=\s*$/.test(before) && /^\s*(?:[;\n}]|$)/.test(after)) return own;
  // A statement that only loads it: `require('./x');`, `await import('./x')`.
  if (/(?:^|[;{}\n]|\bvoid)\s*$/.test(before) && /^\s*(?:[;\n}]|$)/.test(after)) return NO_CALLS;
  return 'all';
}

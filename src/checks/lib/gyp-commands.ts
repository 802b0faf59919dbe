/**
 * The commands a `binding.gyp` runs when npm builds it (`node-gyp rebuild`, implicit for a package
 * that ships one): GYP's command expansions (`<!(cmd)`, `<!@(cmd)`, their `>` and `^` phases, and
 * `<!pymod_do_main(…)`), run through the shell while the file is read, the `action` lists of
 * actions, rules and postbuilds and the tools `make_global_settings` names, run while the addon
 * builds, and the files its `includes` list names (docs/checks.md, `install-scripts`).
 * A build file can run code with no install script in package.json: the June 2026 binding.gyp
 * worm's was `<!(node index.js > /dev/null 2>&1 && echo stub.c)`. Pure text reading of the
 * file's string literals (GYP files are Python literals), never evaluated.
 */

import { installTargets, pathFrom, type InstallTarget } from './install-targets.js';
import { MAX_SCANNED_CHARS } from './js-code.js';

/** Commands read from one file at most. */
const MAX_COMMANDS = 64;
/** The build tools `make_global_settings` can point elsewhere: each pair's program runs for every file built. */
const TOOL_SETTING = /^(?:CC|CXX|LINK|LD|AR|NM|READELF)(?:\.host)?(?:_wrapper)?$/;
/** Words of one action read at most. */
const MAX_ACTION_WORDS = 64;
/** Text read at most: what install code is scanned to (a build file is a few KiB). */
const MAX_CHARS = MAX_SCANNED_CHARS;

export interface GypCommand {
  /** `expansion`: run when the file is read, its output put in its place; `action`: run by the build. */
  kind: 'expansion' | 'action';
  command: string;
}

interface Literal {
  value: string;
  /** Index in the text of its opening quote. */
  start: number;
  /** Index in the text just past the literal. */
  end: number;
}

/** The string literals of a Python-literal text, in order, with `#` comments skipped. */
function literals(text: string): Literal[] {
  const out: Literal[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol;
      continue;
    }
    if (c !== "'" && c !== '"') continue;
    const triple = text.startsWith(c.repeat(3), i);
    const close = triple ? c.repeat(3) : c;
    let value = '';
    let j = i + close.length;
    for (; j < text.length; j++) {
      const d = text[j]!;
      if (d === '\\' && j + 1 < text.length) {
        const next = text[++j]!;
        value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
        continue;
      }
      if (text.startsWith(close, j)) break;
      // A plain literal ends at its line (an unclosed quote is read as ending there).
      if (d === '\n' && !triple) break;
      value += d;
    }
    out.push({ value, start: i, end: j + close.length });
    i = j + close.length - 1;
  }
  return out;
}

/** `<!(`, `<!@(`, `>!(`, `^!@(`, `<!pymod_do_main(`: where a command expansion's text starts. */
const EXPANSION = /[<>^]!@?(?:pymod_do_main)?\(/g;

/** A text with each command expansion in it (balanced parentheses) replaced by `GYP`. */
function withoutExpansions(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(EXPANSION)) {
    if (match.index < from) continue;
    let depth = 1;
    let j = match.index + match[0].length;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')') depth--;
    }
    out += `${text.slice(from, match.index)}GYP`;
    from = j;
  }
  return out + text.slice(from);
}

/** Where a command expansion opens, tried at one position. */
const OPENER = /[<>^]!@?(?:pymod_do_main)?\(/y;

/**
 * The command expansions in one string, nested ones too (each with its own text), in the order
 * they close: one pass with a stack of open expansions (at most MAX_COMMANDS deep), each body
 * read once more when it closes.
 */
function expansions(value: string): string[] {
  const out: string[] = [];
  const open: { from: number; depth: number; pymod: boolean }[] = [];
  let depth = 0;
  const close = (frame: { from: number; pymod: boolean }, to: number): void => {
    // A nested expansion is a command of its own: in its place here, a word that names no file.
    const body = withoutExpansions(value.slice(frame.from, to)).trim();
    const command = frame.pymod ? `python -c "pymod_do_main ${body}"` : body;
    if (command !== '' && out.length < MAX_COMMANDS) out.push(command);
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if ((c === '<' || c === '>' || c === '^') && open.length < MAX_COMMANDS) {
      OPENER.lastIndex = i;
      const match = OPENER.exec(value);
      if (match !== null) {
        depth++;
        open.push({ from: i + match[0].length, depth, pymod: match[0].includes('pymod_do_main') });
        i += match[0].length - 1;
        continue;
      }
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (open.length > 0 && open.at(-1)!.depth === depth) close(open.pop()!, i);
      depth = Math.max(0, depth - 1);
    }
  }
  // Unclosed ones run to the end of the string (GYP would reject the file; nerq reads what is there).
  while (open.length > 0) close(open.pop()!, value.length);
  return out;
}

/** The commands a binding.gyp runs: expansions first found, then actions, each once. */
export function gypCommands(source: string): GypCommand[] {
  return readGypText(source).commands;
}

/** Where a list of strings after a key ends: the next `]` after it (keys come in order: one scan of the text in all). */
class ListEnds {
  private next = -2;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  after(at: number): number {
    if (this.next !== -1 && this.next < at) this.next = this.text.indexOf(']', at);
    return this.next;
  }
}

/** A build file's commands, and the files its `includes` lists name (`common.gypi`), read by node-gyp with it. */
function readGypText(source: string): { commands: GypCommand[]; includes: string[] } {
  const text = source.length > MAX_CHARS ? source.slice(0, MAX_CHARS) : source;
  const out: GypCommand[] = [];
  const includes: string[] = [];
  const seen = new Set<string>();
  const add = (kind: GypCommand['kind'], command: string): void => {
    const key = `${kind}\0${command}`;
    if (seen.has(key) || out.length >= MAX_COMMANDS) return;
    seen.add(key);
    out.push({ kind, command });
  };
  const all = literals(text);
  const ends = new ListEnds(text);
  // `'key': ['a', 'b', …]`: the list's strings, up to its closing bracket (at most MAX_ACTION_WORDS).
  const listAfter = (k: number): string[] => {
    const literal = all[k]!;
    if (!/^\s*:\s*\[/.test(text.slice(literal.end, literal.end + 64))) return [];
    const close = ends.after(literal.end);
    const words: string[] = [];
    for (let m = k + 1; m < all.length && words.length < MAX_ACTION_WORDS && (close < 0 || all[m]!.end <= close + 1); m++) words.push(all[m]!.value);
    return words;
  };
  for (let k = 0; k < all.length && out.length < MAX_COMMANDS; k++) {
    const literal = all[k]!;
    for (const command of expansions(literal.value)) add('expansion', command);
    // `'action': ['node', 'x.js', …]` is one command.
    if (literal.value === 'action') {
      const words = listAfter(k);
      if (words.length > 0) add('action', words.map((w) => (/[\s"'$`;&|<>()]/.test(w) ? `"${w.replaceAll('"', '\\"')}"` : w)).join(' '));
    }
    // `'make_global_settings': [['CC', './cc.sh'], …]`: the program the build runs as its compiler or linker.
    const next = all[k + 1];
    // A pair of its own in a list of pairs: `[['CC', x]`, `, ['CC', x]` (not `'defines': ['CC', 'X']`).
    const pair =
      next !== undefined &&
      TOOL_SETTING.test(literal.value) &&
      /[[,]\s*\[\s*$/.test(text.slice(Math.max(0, literal.start - 32), literal.start)) &&
      /^\s*,\s*$/.test(text.slice(literal.end, next.start)) &&
      /^\s*\]/.test(text.slice(next.end, next.end + 16));
    if (pair) {
      add('action', next.value);
    }
    if (literal.value === 'includes' && includes.length < MAX_COMMANDS) {
      for (const word of listAfter(k)) if (/\.gypi?$/i.test(word) && !includes.includes(word)) includes.push(word);
    }
  }
  return { commands: out, includes };
}

/** Standard output sent nowhere: `> /dev/null`, `1>/dev/null`, `&> /dev/null`, `>NUL` (not `2>/dev/null`, which only quiets errors). */
const STDOUT_DISCARDED = /(?:^|[^\d&>])>\s*(?:\/dev\/null|nul)\b|(?:^|\s)1>\s*(?:\/dev\/null|nul)\b|&>\s*(?:\/dev\/null|nul)\b/i;
/** A command whose value is a constant printed after another command (`… && echo stub.c`, `…; echo x`). */
const CONSTANT_AFTER = /(?:&&|;|(?:^|[^&])&(?!&))\s*(?:echo|printf)\b[^|;&<>`$]*$/;
/** Commands before such a constant that are only checks or moves (`cd x && echo y`, `test -f x && echo 1`). */
const HARMLESS_BEFORE = /^\s*(?:cd|test|\[|true|:)(?:\s[^|;&]*)?$/;

/**
 * A command expansion run for what it does, not for its output — the output thrown away, or
 * replaced by a constant printed after it: GYP puts an expansion's output in the build file, so
 * an expansion whose output is not its result ran a program for its side effects.
 */
export function runsForSideEffects(command: GypCommand): boolean {
  if (command.kind !== 'expansion') return false;
  if (STDOUT_DISCARDED.test(command.command)) return true;
  const constant = CONSTANT_AFTER.exec(command.command);
  if (constant === null) return false;
  const before = command.command.slice(0, constant.index).trim();
  return before !== '' && !HARMLESS_BEFORE.test(before);
}

/**
 * The files of the tarball a build file's commands run (installTargets), and the build files it
 * includes. GYP reads an include's path from the file that names it, and runs every command
 * while it loads the build file node-gyp named, with that file's folder as the working folder:
 * `buildDir`, by default the folder of the file itself. A command's path is resolved from there
 * as the shell would, `../x.js` included (a file of the package, or of the package that bundles
 * it), and named while it stays inside the tarball.
 */
export function gypTargets(gypPath: string, source: string, buildDir: string = folderOf(gypPath)): InstallTarget[] {
  const { commands, includes } = readGypText(source);
  const included = includes.flatMap((file): InstallTarget[] => {
    const path = pathFrom(folderOf(gypPath), file);
    return path === null ? [] : [{ language: 'gyp', path, candidates: [path] }];
  });
  return [...included, ...commands.flatMap((command) => installTargets(command.command, buildDir))];
}

/** The folder of a path inside the tarball ('' for the package folder). */
export function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

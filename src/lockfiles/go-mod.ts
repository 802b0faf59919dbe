/**
 * `go.mod` (https://go.dev/ref/mod#go-mod-file, summarised in docs/checks.md, "Repository
 * targets"): since Go 1.17 the `require` directives list every module the main module's build
 * needs, at exact versions, `// indirect` marking the ones it does not import itself. `replace`
 * changes what is built: `old [v] => new v` builds `new@v` instead; `old [v] => ./path` builds
 * local code (unvouched, listed, never in the set). `module`, `go`, `toolchain`, `exclude`,
 * `retract`, `godebug` and `ignore` add no dependency. Pseudo-versions and `+incompatible`
 * versions are versions as written. Pure; a malformed line is skipped with a note, never guessed.
 */
import { LockfileError } from '../audit/types.js';
import type { SkippedEntry } from '../audit/types.js';
import { localSource, skippedEntry } from './source-kind.js';
import { quote, splitLines } from './text.js';
import type { ModuleDependency, ModuleInput } from './module-types.js';

/** A module path as go.mod may write it (letters, digits, `-._~/+!`), at most 500 characters. */
const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9\-._~/+!]{0,499}$/;
/** A canonical module version: `v` + semver (pre-release and build metadata allowed). */
const VERSION = /^v(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
/** A replacement that is a directory: a path starting with `./`, `../` or `/` (or a Windows drive). */
const LOCAL_PATH = /^(?:\.{1,2}(?:[/\\]|$)|\/|[A-Za-z]:[/\\])/;
const KNOWN = new Set(['module', 'go', 'toolchain', 'require', 'replace', 'exclude', 'retract', 'godebug', 'ignore', 'tool']);
/** More lines than this is not a go.mod (the tree reader caps the bytes first). */
const MAX_LINES = 200_000;

interface Line {
  no: number;
  /** The directive's arguments (module path, version, `=>` …), quotes removed. */
  words: string[];
  indirect: boolean;
}

/** The words of a line without its comment; `// indirect` noted. Quoted paths ("…" or `…`) are one word. */
function wordsOf(text: string): { words: string[]; indirect: boolean } | null {
  const words: string[] = [];
  let indirect = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i += 1;
    } else if (text.startsWith('//', i)) {
      indirect = /^\/\/\s*indirect\s*(?:;|$)/.test(text.slice(i).trim());
      break;
    } else if (c === '"' || c === '`') {
      let end = i + 1;
      while (end < text.length && text[end] !== c) end += c === '"' && text[end] === '\\' ? 2 : 1;
      if (end >= text.length) return null;
      words.push(text.slice(i + 1, end));
      i = end + 1;
    } else {
      let end = i;
      while (end < text.length && !/\s/.test(text[end] as string) && !text.startsWith('//', end)) end += 1;
      words.push(text.slice(i, end));
      i = end;
    }
  }
  return { words, indirect };
}

export function readGoMod(text: string, file: string): ModuleInput {
  const lines = splitLines(text);
  if (lines.length > MAX_LINES) throw new LockfileError(file, null, `more than ${MAX_LINES} lines: not a go.mod`);
  const notes: string[] = [];
  const unvouched: string[] = [];
  const skipped: SkippedEntry[] = [];
  const requires: Array<{ path: string; version: string; indirect: boolean; line: number }> = [];
  const replaces: Array<{ path: string; version: string | null; to: string; toVersion: string | null; line: number }> = [];
  let module: string | null = null;
  let block: string | null = null;
  const skip = (no: number, why: string) => notes.push(`${file}:${no}: skipped: ${why}`);

  const directive = (verb: string, line: Line): void => {
    const w = line.words;
    if (verb === 'module') {
      if (w.length === 1 && MODULE_PATH.test(w[0] as string)) module = w[0] as string;
      else skip(line.no, 'a module directive that names no module path');
    } else if (verb === 'require') {
      const [path, version] = w;
      if (w.length !== 2 || path === undefined || version === undefined || !MODULE_PATH.test(path) || !VERSION.test(version)) {
        skip(line.no, `a require that is not "<module path> <version>" (${quote(w.join(' ').slice(0, 120))})`);
        return;
      }
      requires.push({ path, version, indirect: line.indirect, line: line.no });
    } else if (verb === 'replace') {
      const arrow = w.indexOf('=>');
      const left = arrow < 0 ? [] : w.slice(0, arrow);
      const right = arrow < 0 ? [] : w.slice(arrow + 1);
      const [path, version = null] = left;
      const [to, toVersion = null] = right;
      const badLeft = path === undefined || left.length > 2 || !MODULE_PATH.test(path) || (version !== null && !VERSION.test(version));
      const local = to !== undefined && right.length === 1 && LOCAL_PATH.test(to);
      const badRight = to === undefined || right.length > 2 || (!local && (toVersion === null || !MODULE_PATH.test(to) || !VERSION.test(toVersion)));
      if (badLeft || badRight) {
        skip(line.no, `a replace that is not "<module> [version] => <module> <version>" or "=> <directory>" (${quote(w.join(' ').slice(0, 120))})`);
        return;
      }
      replaces.push({ path, version, to, toVersion: local ? null : toVersion, line: line.no });
    }
    // go, toolchain, exclude, retract, godebug, ignore, tool: no dependency of their own.
  };

  lines.forEach((raw, index) => {
    const no = index + 1;
    const parsed = wordsOf(raw);
    if (parsed === null) {
      skip(no, 'an unterminated quoted string');
      return;
    }
    const { words, indirect } = parsed;
    if (words.length === 0) return;
    if (block !== null) {
      if (words.length === 1 && words[0] === ')') block = null;
      else directive(block, { no, words, indirect });
      return;
    }
    const [verb, ...rest] = words as [string, ...string[]];
    if (!KNOWN.has(verb)) {
      skip(no, `unknown directive ${quote(verb.slice(0, 40))}`);
      return;
    }
    if (rest.length === 1 && rest[0] === '(') {
      block = verb;
      return;
    }
    directive(verb, { no, words: rest, indirect });
  });
  if (block !== null) notes.push(`${file}: a ${block} block is not closed`);

  // By module and version ('' for every version), the first of each kept: one lookup per require.
  const replaceOf = new Map<string, (typeof replaces)[number]>();
  for (const r of replaces) {
    const key = `${r.path}\u0000${r.version ?? ''}`;
    if (!replaceOf.has(key)) replaceOf.set(key, r);
  }
  const dependencies: ModuleDependency[] = [];
  for (const req of requires) {
    // A replace for this exact version wins over one for every version (as the go command reads them).
    const replace = replaceOf.get(`${req.path}\u0000${req.version}`) ?? replaceOf.get(`${req.path}\u0000`);
    if (replace !== undefined && replace.toVersion === null) {
      const note = `${file}:${replace.line}: ${quote(`${req.path}@${req.version}`)} skipped: replaced by the local directory ${quote(replace.to)} (the project's own or vendored code, not from a module proxy)`;
      unvouched.push(note);
      skipped.push(skippedEntry('go', req.path, file, replace.line, localSource(replace.to), note, { direct: !req.indirect, dev: false }));
      continue;
    }
    const name = replace?.to ?? req.path;
    const version = replace?.toVersion ?? req.version;
    dependencies.push({ ecosystem: 'go', name, version, direct: !req.indirect, dev: false, ...(req.indirect ? {} : { via: [] }), file, line: replace?.line ?? req.line });
  }
  return { file, format: module === null ? 'go.mod' : `go.mod (${module})`, dependencies, notes, unvouched, skipped };
}

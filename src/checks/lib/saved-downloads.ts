/**
 * A download saved to a file, and whether a command runs it (import-code.ts, "download then
 * run"): where `urlretrieve`, `wget.download`, `Path.write_bytes` / `write_text` or an
 * `open(path, 'wb')` handle given downloaded data save it (the calls as download-calls.ts finds
 * them, under their imported names too), the names and file names that stand for that file —
 * through the module's own functions too: a path given as a parameter stands for each call's
 * argument, and a function that returns the path stands for the file at each call —, and whether
 * a process call, a command line or chmod starts it, hands it to an interpreter or makes it
 * executable. A file only handed to another program (`tar`, `gpg`, `sha256sum`) is not run.
 * Pure text reading, never executed (docs/checks.md, `import-time-code`).
 */
import { type DownloadCalls } from './download-calls.js';
import { assignedName, callArguments, codeOf, receiverOf, splitArguments, traced, TRACE_DEPTH, type FlowText } from './python-flow.js';
import { argumentFor, enclosingFunction } from './python-functions.js';

/** Programs that run the file they are given: interpreters, shells, installers, openers. */
const INTERPRETER = /^(?:python[\d.]*w?|py|(?:ba|z|da|k)?sh|cmd|powershell|pwsh|wscript|cscript|mshta|msiexec|rundll32|regsvr32|node|perl|ruby|php|open|xdg-open)(?:\.exe)?$/i;
/** Words before the program in a command line (`start /B x`, `nohup x`, `cmd /c x`). */
const COMMAND_PREFIX = /^(?:start|nohup|sudo|exec|call|cmd(?:\.exe)?|\/\w+|\+x|""|'')$/i;
/** A mode that sets an execute bit: `stat.S_IEXEC`, `S_IXUSR`, `0o755`, `777`. */
export const EXECUTE_MODE = /\bS_I(?:EXEC|X(?:USR|GRP|OTH)|RWXU)\b|(?<![\w.])(?:0o?)?[0-7]?[1357][0-7]{2}\b/;
/** How long a file's writes are looked for after it is opened, in lines and characters. */
const WRITE_LINES = 30;
const WRITE_CHARS = 4_000;

/** A file a download was saved to: the names holding its path, its file names, its expression. */
export interface SavedDownload {
  line: number;
  /** The names, as one pattern (none: null). */
  names: RegExp | null;
  files: string[];
  expression: string;
}

const STRING_LITERAL = /[rRbBuUfF]{0,2}(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const compact = (code: string): string => code.replace(/\s+/g, '');
/** The last part of a path (`./a`, `/tmp/a`, `C:\\x\\a` → `a`), none for a template. */
const baseName = (path: string): string | null => {
  const base = path.replace(/^.*[\\/]/, '');
  return base === '' || /[{}%]/.test(base) ? null : base;
};
const literalFiles = (code: string): string[] => [...code.matchAll(STRING_LITERAL)].flatMap((m) => baseName(m[2] as string) ?? []);
const PLAIN_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** Whether `code` names a saved download: one of its names, its file name, or the same expression. */
export function namesDownload(code: string, saved: SavedDownload): boolean {
  const bare = codeOf(code);
  if (saved.names?.test(bare) === true) return true;
  if (literalFiles(code).some((f) => saved.files.includes(f))) return true;
  return saved.expression.length >= 6 && compact(code) === saved.expression;
}

/**
 * An expression that starts with a string read as a command line: the strings' text, and the
 * code between them kept as `{…}` fields (`"./" + p` → `./{+p}`, f"./{p}" → `./{p}`).
 */
function commandLine(expression: string): string | null {
  let out = '';
  let at = 0;
  for (const m of expression.matchAll(STRING_LITERAL)) {
    const code = compact(expression.slice(at, m.index));
    if (at === 0 && code !== '') return null;
    if (code !== '') out += `{${code}}`;
    out += m[2] as string;
    at = m.index + m[0].length;
  }
  if (at === 0) return null;
  const rest = compact(expression.slice(at));
  return rest === '' ? out : `${out}{${rest}}`;
}

/** Whether a word of a command line is the saved file: a `{field}` naming it, or its file name. */
function wordIsDownload(word: string, saved: SavedDownload): boolean {
  for (const field of word.matchAll(/\{([^{}]*)\}/g)) if (namesDownload(field[1] as string, saved)) return true;
  const base = baseName(word.replace(/\{[^{}]*\}/g, '').replace(/^['"]|['"]$/g, ''));
  return base !== null && saved.files.includes(base);
}

/** Whether a command line runs the saved file, hands it to an interpreter, or makes it executable. */
function commandRuns(line: string, saved: SavedDownload): boolean {
  for (const command of line.split(/&&|\|\||[;&|\n]/)) {
    const words = command.trim().split(/\s+/).filter((w) => w !== '');
    while (words.length > 1 && COMMAND_PREFIX.test(words[0] as string)) words.shift();
    const program = words[0];
    if (program === undefined) continue;
    const rest = words.slice(1);
    if (INTERPRETER.test(baseName(program) ?? '')) {
      if (rest.some((w) => wordIsDownload(w, saved))) return true;
    } else if (/^chmod$/.test(program)) {
      if (rest.some((w) => /^(?:[ugoa]*\+[rwx]*x|[0-7]?[1357][0-7]{2})$/.test(w)) && rest.some((w) => wordIsDownload(w, saved))) return true;
    } else if (wordIsDownload(program, saved)) return true;
  }
  return false;
}

/**
 * Whether what stands in a process call's program position — the first argument, the first item
 * of a list, the value of a name followed back — is the saved file, or an interpreter or chmod
 * given it. A file only handed to another program (`tar xzf`, `echo`, `gpg --verify`) is not run.
 */
export function launches(expression: string, saved: SavedDownload, resolve: (name: string) => string[], depth = 0, seen = new Set<string>()): boolean {
  const e = expression.trim().replace(/^\*/, '');
  if (/^[[(]/.test(e)) {
    const items = splitArguments(e.slice(1, /[\])]$/.test(e) ? -1 : undefined));
    const head = items[0];
    if (head === undefined) return false;
    const headLine = commandLine(head);
    const word = headLine === null ? head : (headLine.trim().split(/\s+/)[0] ?? '');
    if (head === 'sys.executable' || INTERPRETER.test(baseName(word) ?? '')) return items.slice(1).some((i) => namesDownload(i, saved));
    if (word === 'chmod') return items.some((i) => EXECUTE_MODE.test(i) || /\+[rwx]*x/.test(i)) && items.slice(1).some((i) => namesDownload(i, saved));
    return launches(head, saved, resolve, depth, seen);
  }
  const line = commandLine(e);
  if (line !== null) return commandRuns(line, saved);
  if (PLAIN_NAME.test(e)) {
    if (namesDownload(e, saved)) return true;
    // Each name followed once (`a = a` a hundred times is one step, not a hundred to the fourth).
    if (seen.has(e) || depth >= TRACE_DEPTH) return false;
    seen.add(e);
    return resolve(e).some((value) => launches(value, saved, resolve, depth + 1, seen));
  }
  return namesDownload(e, saved);
}

/** A path built from pieces that ends in a literal: `Path(d) / "a"`, `os.path.join(d, "a")`. */
const JOINED_PATH = /(?:\/|\bjoin\s*\([^\n]{0,200}?,)\s*[rRbBuU]?(['"])[^'"\n]*\1\s*\)?\s*$/;


/** A binary write mode (`wb`, `ab`, `xb+`, `w+b`…) as a string literal. */
const WRITE_BINARY = /^[rRbBuU]?['"](?:[wxa]b|b[wxa]|[wxa]\+b)\+?['"]$/;

/**
 * The file a `saves` match (download-calls.ts) saves a download to: `urlretrieve(url, path)` /
 * `wget.download(url, path)` (and the name their result is assigned to; with no path, wget's
 * file is named by the URL), `path.write_bytes(data)` / `Path(path).write_text(data)`, or
 * `open(path, 'wb')` — the mode also in a name assigned a binary write mode — whose `.write(…)` /
 * `copyfileobj(…)` within WRITE_LINES is given downloaded data (traced from the write's own line:
 * `for chunk in r.iter_content(…)` is often inside the `with`). Null for a file written with
 * anything else.
 */
export function savedDownloadAt(flow: FlowText, calls: DownloadCalls, at: number, match: string): SavedDownload | null {
  const { text, lineStarts, lineAt, named, valuesAt } = flow;
  const line = lineAt(at);
  const open = at + match.indexOf('(') + 1;
  const args = callArguments(text, open);
  const items = splitArguments(args);
  const before = text.slice(Math.max(lineStarts[line] as number, at - 200), at);
  const kind = calls.kindOf(match);
  let path: string | undefined;
  const names: string[] = [];
  const files = new Set<string>();
  if (kind === 'retrieve' || kind === 'wget') {
    const keyword = kind === 'wget' ? /^out\s*=\s*/ : /^filename\s*=\s*/;
    path = items.find((i) => keyword.test(i))?.replace(keyword, '') ?? items[1];
    if (path === undefined && kind === 'wget' && items[0] !== undefined) for (const f of literalFiles(items[0])) files.add(f);
    const result = assignedName(before);
    if (result !== null) names.push(result);
  } else if (kind === 'method') {
    if (items[0] === undefined) return null;
    const dataFlow = traced(items[0], line, named);
    if (!calls.downloaded().test(dataFlow) && !calls.viaParameters(dataFlow, line)) return null;
    // The path is what the method is called on; `Path(p)` / `pathlib.Path(p)` stands for `p`.
    const receiver = receiverOf(before);
    const wrapped = /^(?:pathlib\.)?(?:Pure)?Path\s*\(/.exec(receiver);
    const inner = wrapped === null ? '' : callArguments(receiver, wrapped[0].length);
    const single = splitArguments(inner);
    path = wrapped !== null && single.length === 1 && wrapped[0].length + inner.length + 1 === receiver.length ? single[0] : receiver;
    if (path === '') return null;
  } else {
    // `p.open('wb')`: the mode comes first and the path is what `open` is called on.
    const pathOpen = before.endsWith('.') && /^(?:[rRbB]?['"][rwxab+t]{1,4}['"]|mode\s*=[^\n]*)$/.test(items[0] ?? '');
    path = pathOpen ? receiverOf(before.slice(0, -1)) : items[0];
    // A mode in a name (`open(p, mode)`, `open(p, mode=m)`): a binary write mode assigned to it.
    const mode = (pathOpen ? items[0] : (items.find((i) => /^mode\s*=/.test(i)) ?? items[1]))?.replace(/^mode\s*=\s*/, '');
    if (mode !== undefined && /^[A-Za-z_]\w*$/.test(mode) && !valuesAt(line)(mode).some((v) => WRITE_BINARY.test(v.trim()))) return null;
    const after = open + args.length + 1;
    const rest = text.slice(after, Math.min(text.length, after + WRITE_CHARS, lineStarts[line + WRITE_LINES] ?? text.length));
    let data: string | null = null;
    let dataLine = line;
    const chained = /^\s*\.write\s*\(/.exec(rest);
    const handle = /^\s*as\s+([A-Za-z_]\w*)/.exec(rest)?.[1] ?? assignedName(before) ?? undefined;
    if (chained !== null) data = callArguments(text, after + chained[0].length);
    else if (handle !== undefined) {
      const write = new RegExp(String.raw`\b${handle}\.write(?:lines)?\s*\(|\bcopyfileobj\s*\(`, 'g');
      for (const w of rest.matchAll(write)) {
        const written = splitArguments(callArguments(rest, w.index + w[0].length));
        if (w[0].startsWith('copyfileobj') && written[1] !== handle) continue;
        data = written[0] ?? null;
        dataLine = lineAt(after + w.index);
        break;
      }
    }
    if (data === null) return null;
    const dataFlow = traced(data, dataLine, named);
    if (!calls.downloaded().test(dataFlow) && !calls.viaParameters(dataFlow, dataLine)) return null;
  }
  return savedFile(flow, line, path, names, files);
}

/** The saved download at `line` whose path is the expression `path` (with the names and file names already known). */
function savedFile(flow: FlowText, line: number, path: string | undefined, names: string[], files: Set<string>): SavedDownload | null {
  if (path !== undefined) {
    for (const f of literalFiles(path)) files.add(f);
    if (PLAIN_NAME.test(path)) {
      names.push(path);
      // A name holding a literal path: the file name too (`dst = "/tmp/a"` … `os.system("/tmp/a")`),
      // and a path joined from pieces, its last piece (`t = Path(d) / "a.exe"`, `os.path.join(d, "a.exe")`).
      for (const value of flow.valuesAt(line)(path)) {
        if (commandLine(value) !== null) for (const f of literalFiles(value)) files.add(f);
        else if (JOINED_PATH.test(value)) for (const f of literalFiles(value).slice(-1)) files.add(f);
      }
    }
  }
  if (names.length === 0 && files.size === 0) return null;
  const pattern = names.length === 0 ? null : new RegExp(String.raw`(?<![\w.])(?:${names.map((n) => n.replace(/\./g, '\\.')).join('|')})(?!\w)`);
  return { line, names: pattern, files: [...files], expression: path === undefined ? '' : compact(path) };
}

/**
 * The same file where the module's own functions hand it on: a download saved to a parameter's
 * path is saved to the argument each call of the function gives it (`def fetch(url, dest):
 * urlretrieve(url, dest)` … `fetch(u, p)`), and a function that returns the saved path gives it to
 * each call (`x = fetch(u)`, and the call itself: `Popen([fetch(u)])`). Followed TRACE_DEPTH
 * functions deep.
 */
export function savedThroughCalls(flow: FlowText, calls: DownloadCalls, saved: SavedDownload): SavedDownload[] {
  const found: SavedDownload[] = [];
  let frontier = [saved];
  for (let depth = 0; depth < TRACE_DEPTH && frontier.length > 0; depth += 1) {
    const next: SavedDownload[] = [];
    for (const d of frontier) {
      const f = enclosingFunction(calls.functions(), d.line);
      if (f === undefined) continue;
      const param = f.params.find((p) => d.expression === p);
      const returned = f.returns.some((r) => namesDownload(r.value, d));
      if (param === undefined && !returned) continue;
      for (const site of calls.callsOf(f.name)) {
        if (site.line >= f.line && site.line <= f.end) continue;
        const names: string[] = [];
        if (returned) {
          const result = assignedName(flow.text.slice(Math.max(flow.lineStarts[site.line] as number, site.offset - 200), site.offset));
          if (result !== null) names.push(result);
          names.push(f.name);
        }
        const argument = param === undefined ? undefined : argumentFor(f, param, site);
        const at = savedFile(flow, site.line, argument, names, new Set(returned ? d.files : []));
        if (at !== null) next.push(at);
      }
    }
    found.push(...next);
    frontier = next;
  }
  return found;
}

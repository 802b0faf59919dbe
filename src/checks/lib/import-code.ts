/**
 * Reading the Python code a package runs when it is imported: a top-level package's
 * `__init__.py` or a single-module `.py` file of a wheel (docs/checks.md, `import-time-code`).
 * Pure text inspection, never executed.
 *
 * Library code fetches, decodes, spawns processes and reads the environment all the time, so
 * none of that is a finding by itself (unlike a `.pth` line, lib/python-code.ts). What is a
 * finding is a shape that joins them: decoded or downloaded data handed to exec/eval or a
 * process, a downloaded file made executable, host data (credentials, the whole environment,
 * user and host names, browser stores) in the arguments of a network call, a socket wired to a
 * shell, a hidden detached process, names hidden from the reader, and a large encoded blob next
 * to code that runs data. Data is followed through assignments a few steps back, by name.
 */
import { excerpt, importedNamesOf, PROCESS_NAMES, suspiciousPattern } from './python-code.js';

export interface ImportCodeReading {
  /** Labels of the shapes found, in IMPORT_FLAGS order. */
  flags: ImportFlag[];
  /** The lines that carry them (single-line, capped), at most MAX_EXCERPTS. */
  excerpts: string[];
  /**
   * False when the text holds more calls than MAX_CALLS: those past it were not followed. No
   * real module comes near it, a payload padded to hide past it would: the flag `padded`.
   */
  complete: boolean;
}

/** Every label readImportCode gives, most serious first. */
export const IMPORT_FLAGS = ['reverse-shell', 'exfiltration', 'download-and-run', 'exec-decoded', 'ip-endpoint', 'silent-process', 'obfuscation', 'dynamic-import', 'encoded-blob', 'padded'] as const;
export type ImportFlag = (typeof IMPORT_FLAGS)[number];
/** The flags that leave no doubt about intent: the check scores them 0. */
export const UNAMBIGUOUS_FLAGS: readonly ImportFlag[] = ['reverse-shell', 'exfiltration'];

const MAX_EXCERPTS = 3;
/** Characters of a call's arguments read at most, and of a multi-line assigned value. */
const MAX_SPAN = 8_000;
const MAX_VALUE = 2_000;
/**
 * Calls (exec/eval/compile, processes, network sends, file writes) followed at most per text:
 * the most any of 105,768 real modules of 967 wheels holds is 157.
 */
export const MAX_CALLS = 1_000;
/** How many lines before a call an assignment it uses may lie, and how many steps back data is followed. */
const TRACE_LINES = 80;
const TRACE_DEPTH = 4;

/** exec/eval/compile as builtins: bare, or through `builtins` (never `re.compile`). */
const EXEC_CALL = /(?:(?<![\w.])|\b(?:builtins|__builtins__)\.|__import__\(\s*['"]builtins['"]\s*\)\.)(?:exec|eval|compile)\s*\(/g;
/** Calls that start a process. */
const PROCESS_CALL =
  /\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(|(?<![\w.])(?:Popen|check_output|check_call)\s*\(|\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|startfile)\s*\(|\bcommand\.run\s*\(/g;
/** Process functions imported by name followed at most per text: the pattern tries each at every position. */
const MAX_IMPORTED_PROCESS = 32;
/**
 * Calls of process functions imported by name (`from subprocess import call`, `from os import
 * system as _s`), by the names they are bound to; null when there are none beyond PROCESS_CALL's
 * own bare names.
 */
function importedProcessCall(text: string): RegExp | null {
  const names = new Set<string>();
  for (const i of importedNamesOf(text)) {
    if (names.size === MAX_IMPORTED_PROCESS) break;
    if ((i.module === 'os' || i.module === 'subprocess') && (PROCESS_NAMES[i.module] as RegExp).test(i.name) && !/^(?:Popen|check_output|check_call)$/.test(i.as)) names.add(i.as);
  }
  return names.size === 0 ? null : new RegExp(String.raw`(?<![\w.])(?:${[...names].join('|')})\s*\(`, 'g');
}
/** Decoding, decompressing, decrypting, reversing or assembling text from character codes. */
const DECODED =
  /\bb(?:64|32|16|85)decode\b|\ba85decode\b|\bdecompress\b|\bmarshal\.loads\b|\bunhexlify\b|\bfromhex\b|\bcodecs\.decode\b|\bgetencoder\b|\bdecrypt\s*\(|\.decode\s*\(\s*['"](?:base64|hex|rot_?13|zlib|bz2|uu|cp(?:1026|037|500|875|1140))['"]|\bjoin\s*\(\s*(?:map\s*\(\s*chr\b|chr\s*\()|\[::-1\]/;
/** …and, in the arguments of exec/eval/compile themselves, any call named `decode` or `chr`. */
const DECODED_IN_EXEC = /(?<![\w.])decode\s*\(|\.decode\s*\(\s*['"](?!utf-?8|ascii|latin-?1|utf-?16|utf-?32)[^'"]+['"]|\bchr\s*\(/;
/** A read from the network. */
const DOWNLOADED =
  /\burlopen\s*\(|\brequests\.(?:get|post|request|Session)\s*\(|\bhttpx\.(?:get|post|request|Client)\s*\(|\burlretrieve\s*\(|\.recv\s*\(|\bwget\.download\s*\(|\.iter_content\s*\(|\.getresponse\s*\(|\burllib3\.(?:PoolManager|request)\s*\(/;
/** A network call that sends its arguments somewhere (HTTP, raw socket, DNS lookup of a made-up name). */
const SEND_CALL =
  /\b(?:requests|httpx|session|client|aiohttp)\.(?:get|post|put|patch|request)\s*\(|\.(?:post|sendall|sendto)\s*\(|\b(?:s|sock|socket|conn|connection|client)\.send\s*\(|(?<![\w.])(?:request|urlopen|post)\s*\(|\.urlopen\s*\(|\b(?:urllib\d?|urlrequest|request)\.Request\s*\(|\b(?:gethostbyname(?:_ex)?|getaddrinfo)\s*\(|\.(?:query|resolve)\s*\(/g;
/** Sends that are DNS lookups: only a name built on a domain of someone else's counts. */
const DNS_SEND = /^(?:gethostbyname|getaddrinfo|\.(?:query|resolve))/;
const DOMAIN_SUFFIX = /[}\w]\.[a-z0-9-]+\.[a-z]{2,}['"]/i;
/** The network at all (a send only counts in a file that uses it). */
const NETWORK = /\b(?:requests|urllib\d?|urlrequest|http\.client|httpx|aiohttp|socket|dns\.resolver|aiodns|smtplib)\b/;
/** Host data worth stealing: credentials, the whole environment, who and where the machine is, browser and wallet stores. */
const HOST_DATA = [
  /\.ssh\b|\bid_rsa\b|\bid_ed25519\b|\.aws\/|\.aws\b['"]|\.pypirc\b|\.npmrc\b|\.git-credentials\b|\.docker\/config\.json|\.kube\/config/,
  /\b(?:AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|GITHUB_TOKEN|GH_TOKEN|NPM_TOKEN|PYPI_TOKEN|TWINE_PASSWORD|COMPUTERNAME)\b/,
  /\bgetuser\s*\(|\bgethostname\s*\(|\bplatform\.(?:node|uname)\s*\(|\bos\.(?:uname|getlogin|getcwd)\s*\(|\bgetlogin\s*\(|\bwhoami\b/,
  /\bos\.environ\b(?!\s*(?:\.get\b|\[|\.setdefault\b|\.pop\b|\.__contains__\b|\.(?:items|keys|values)\s*\(\s*\)[^\n]{0,400}?\bif\b))/,
  /\bbrowser_cookie3\b|\bLogin Data\b|\bLocal State\b|\bpassword_value\b|\bencrypted_value\b|\bFROM\s+(?:logins|cookies|moz_cookies)\b|\bwallet\.dat\b|\bExodus\b|\bElectrum\b|Local Storage[\\/]+leveldb/,
];
/** A URL to a literal IPv4 address… */
const IP_URL = /\b(?:https?|ftp):\/\/(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}\b/g;

/** …outside loopback, private, link-local (cloud metadata) and unspecified ranges. */
function publicAddress(a: number, b: number): boolean {
  return !(a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a > 255 || b > 255);
}

/** A file made executable or started. */
const MADE_EXECUTABLE = /\bS_IEXEC\b|\bS_IXUSR\b|\bchmod\s+\+x\b|\+x\s|\bos\.chmod\s*\([^)]{0,200}?,\s*(?:0o?)?7[0-7]{2}\b|\bos\.chmod\s*\([^)]{0,200}?,\s*777\b|\bos\.startfile\s*\(|\bstart\s+(?:\/B\s+)?\{|\.\/\{/i;
/** An executable's name, on a line that writes, renames or starts a file. */
const EXECUTABLE_NAME = /['"][^'"\n]*\.(?:exe|bat|cmd|vbs|ps1|scr|msi)['"]/i;
const WRITES_OR_STARTS = /\bopen\s*\(|\burlretrieve\s*\(|\brename\s*\(|\bsubprocess\.|\bPopen\s*\(|\bos\.(?:system|popen|startfile)\s*\(/;
/** Writing bytes to a file, or downloading straight to one. */
const WRITES_FILE = /\bopen\s*\([^)]{0,200}?['"]wb\+?['"]|\burlretrieve\s*\(/;
/** …and the other ways a download is saved: the other binary write modes, `Path.write_bytes` / `write_text`, `wget.download` (read for the data flow only). */
const SAVES_FILE = new RegExp(String.raw`${WRITES_FILE.source}|\bopen\s*\([^)]{0,200}?['"](?:[xa]b|b[wxa]|[wxa]\+b)\+?['"]|\.write_(?:bytes|text)\s*\(|\bwget\.download\s*\(`, 'g');
/** Programs that run the file they are given: interpreters, shells, installers, openers. */
const INTERPRETER = /^(?:python[\d.]*w?|py|(?:ba|z|da|k)?sh|cmd|powershell|pwsh|wscript|cscript|mshta|msiexec|rundll32|regsvr32|node|perl|ruby|php|open|xdg-open)(?:\.exe)?$/i;
/** Words before the program in a command line (`start /B x`, `nohup x`, `cmd /c x`). */
const COMMAND_PREFIX = /^(?:start|nohup|sudo|exec|call|cmd(?:\.exe)?|\/\w+|\+x|""|'')$/i;
/** A mode that sets an execute bit: `stat.S_IEXEC`, `S_IXUSR`, `0o755`, `777`. */
const EXECUTE_MODE = /\bS_I(?:EXEC|X(?:USR|GRP|OTH)|RWXU)\b|(?<![\w.])(?:0o?)?[0-7]?[1357][0-7]{2}\b/;
/** How long a file's writes are looked for after it is opened, in lines and characters. */
const WRITE_LINES = 30;
const WRITE_CHARS = 4_000;
/** A socket's descriptors handed to what runs next… */
const SOCKET_WIRED = /\bos\.dup2\s*\(\s*\w+\.fileno\s*\(|\bstdin\s*=\s*\w+\.fileno\s*\(/;
/** …when that is a shell; or the shell one-liners that need no Python socket. */
const SHELL = /\bpty\.spawn\s*\(|['"](?:\/bin\/)?(?:ba|z)?sh['"]|['"][^'"\n]*\b(?:cmd|powershell)(?:\.exe)?['"]/i;
const SHELL_ONE_LINER = /\/dev\/(?:tcp|udp)\/|\bnc\s+-e\b|\b(?:ba)?sh\s+-i\s*[>&]/;
/** A process started detached or with no console (or, counted apart, with stdin, stdout and stderr all DEVNULL)… */
const SILENT_PROCESS = /\bDETACHED_PROCESS\b|\bCREATE_NO_WINDOW\b|\bstart_new_session\s*=\s*True\b/;
/** …running the package's own file, an interpreter or a shell (a viewer or a helper tool is ordinary). */
const SILENT_TARGET = /\b__file__\b|\bsys\.executable\b|['"]pythonw?(?:3[.\d]*)?(?:\.exe)?['"]|['"](?:\/bin\/)?(?:ba|z)?sh['"]|\b(?:cmd|powershell|pwsh|wscript|cscript|mshta)(?:\.exe)?\b/i;
/** A hidden or encoded PowerShell, wherever it is started. */
/**
 * PowerShell told to hide its window or to run encoded text; it takes any prefix of a parameter's
 * name (`-w`, `-win`, `-window`, `-WindowStyle`; `-e`, `-enc`, `-EncodedCommand`), in a command
 * line or as items of an argument list (`["powershell", "-enc", …]`).
 */
const HIDDEN_POWERSHELL =
  /\bpowershell\b[^\n]{0,400}?(?:[\s"'`]-w(?:i(?:n(?:d(?:o(?:w(?:s(?:t(?:y(?:l(?:e)?)?)?)?)?)?)?)?)?)?[\s"',]{1,6}hidden\b|[\s"'`]-e(?:n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?)?)?)?)?)?)?)?[\s"'`])/i;
/** Hidden names: eval/exec/getattr stored in an underscore-only name, getattr on builtins with a computed name, escaped strings handed to them, EBCDIC-decoded bytes. */
const OBFUSCATION = [
  /(?<![\w.])_{3,}\s*=\s*(?:eval|exec|getattr|__import__)\b/,
  /\bgetattr\s*\(\s*(?:builtins|__builtins__)\s*,\s*(?:b?['"](?:\\x[0-9a-fA-F]{2}|\\[0-7]{3})|[^,)]{0,200}?(?:\.decode\s*\(\s*['"](?!utf|ascii|latin)|\bchr\s*\(|\[::-1\]))/,
  /(?<![\w.])(?:eval|exec|getattr|__import__)\s*\([^)]{0,40}?['"](?:\\(?:[0-7]{3}|x[0-9a-fA-F]{2})){3,}/,
  /\bb['"](?:\\x[0-9a-fA-F]{2}){3,}[^'"\n]*['"]\s*\)?\s*\.decode\s*\(\s*['"]cp(?:1026|037|500|875|1140)['"]/,
];
/** `__import__` / `import_module` of a name computed by decoding, reversing or joining pieces. */
const HIDDEN_IMPORT = /\b(?:__import__|import_module)\s*\(\s*(?=[^)]{0,400}?(?:\bdecode\s*\(|\bb64decode\b|\bchr\s*\(|\[::-1\]|['"]\w{1,3}['"]\s*\+\s*['"]\w{1,3}['"]))/;
/** A long base64 run, or a long run of `\x` escapes. */
const LONG_BLOB = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{1000,}={0,2}|(?<!\\x[0-9a-fA-F]{2})(?:\\x[0-9a-fA-F]{2}){400,}/;
/** Code that runs data: what makes a blob worth a flag. */
const RUNS_DATA = /(?:(?<![\w.])(?:exec|eval)|\bmarshal\.loads|(?<![\w.])__import__)\s*\(/;

/**
 * The package's own modules a package's `__init__.py` imports, as dotted names relative to the
 * package (`from .app import X` → `app`, `from . import a, b` → `a`, `b`, `from pkg.sub.x import
 * y` / `import pkg.sub.x` → `sub.x`), in the order written, once each. Text only: an import
 * inside a function or behind a condition is listed too, a computed one is not.
 */
export function packageImports(text: string, packageName: string): string[] {
  const found: string[] = [];
  const add = (name: string): void => {
    if (/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/.test(name) && !found.includes(name)) found.push(name);
  };
  const own = packageName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of text.matchAll(/^[ \t]*from[ \t]+\.([\w.]*)[ \t]+import[ \t]+(\([^)]{0,2000}\)|[^\n#;]+)/gm)) {
    if (m[1] !== '') add(m[1] as string);
    else for (const part of (m[2] as string).replace(/[()\\]/g, ' ').split(',')) add(part.trim().split(/\s+as\s+/)[0]?.trim() ?? '');
  }
  for (const m of text.matchAll(new RegExp(String.raw`^[ \t]*(?:from[ \t]+${own}\.([\w.]+)[ \t]+import|import[ \t]+${own}\.([\w.]+))`, 'gm'))) add((m[1] ?? m[2]) as string);
  return found;
}

/** The text from `open` (just after a `(`) to its matching `)`, strings skipped; at most `max` characters. */
function callArguments(text: string, open: number, max = MAX_SPAN): string {
  let depth = 1;
  let quote: string | null = null;
  const end = Math.min(text.length, open + max);
  for (let i = open; i < end; i += 1) {
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
    else if (c === ')' || c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(open, i);
    }
  }
  return text.slice(open, end);
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

interface Assignment {
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
function codeOf(text: string): string {
  return text.replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, (literal) => (literal.match(/\{[^{}'"]*\}/g) ?? []).join(' '));
}

/** `span` and the values of the names it uses, followed back TRACE_DEPTH steps, within TRACE_LINES before `line`. */
function traced(span: string, line: number, named: Map<string, Assignment[]>): string {
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
function splitArguments(args: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < args.length; i += 1) {
    const c = args[i] as string;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (args.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = args.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    else if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') depth -= 1;
    else if (c === ',' && depth === 0) {
      items.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = args.slice(start).trim();
  if (last !== '') items.push(last);
  return items;
}

/** A file a download was saved to: the names holding its path, its file names, its expression. */
interface SavedDownload {
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
function namesDownload(code: string, saved: SavedDownload): boolean {
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
function launches(expression: string, saved: SavedDownload, resolve: (name: string) => string[], depth = 0, seen = new Set<string>()): boolean {
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

/**
 * The name a call's result is assigned to, from the text before the call on its line
 * (`f = open(`, `name, headers = urllib.request.urlretrieve(` → `f`, `name`); read backwards
 * character by character, so a long line costs its length once.
 */
function assignedName(before: string): string | null {
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
function receiverOf(before: string): string {
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

/** A path built from pieces that ends in a literal: `Path(d) / "a"`, `os.path.join(d, "a")`. */
const JOINED_PATH = /(?:\/|\bjoin\s*\([^\n]{0,200}?,)\s*[rRbBuU]?(['"])[^'"\n]*\1\s*\)?\s*$/;

/** Full-line comments out (their words are not code); line numbers kept. */
function withoutComments(text: string): string {
  return text.replace(/^[ \t]*#[^\n]*/gm, '');
}

/** Classify the text of one module an import runs. */
export function readImportCode(source: string): ImportCodeReading {
  const text = withoutComments(source);
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
  /** The values assigned to a name within TRACE_LINES before `line`. */
  const valuesAt =
    (line: number) =>
    (name: string): string[] =>
      (named.get(name) ?? []).filter((a) => a.line <= line && a.line >= line - TRACE_LINES).map((a) => a.value);
  const near = (downloads: SavedDownload[], line: number): SavedDownload[] => downloads.filter((d) => Math.abs(d.line - line) <= TRACE_LINES);
  /**
   * The file a `SAVES_FILE` match saves a download to: `urlretrieve(url, path)` / `wget.download(url,
   * path)` (and the name their result is assigned to; with no path, wget's file is named by the
   * URL), `path.write_bytes(data)` / `Path(path).write_text(data)`, or `open(path, 'wb')` whose
   * `.write(…)` / `copyfileobj(…)` within WRITE_LINES is given downloaded data (traced from the
   * write's own line: `for chunk in r.iter_content(…)` is often inside the `with`). Null for a file
   * written with anything else.
   */
  const savedDownload = (at: number, match: string): SavedDownload | null => {
    const line = lineAt(at);
    const open = at + match.indexOf('(') + 1;
    const args = callArguments(text, open);
    const items = splitArguments(args);
    const before = text.slice(Math.max(lineStarts[line] as number, at - 200), at);
    let path: string | undefined;
    const names: string[] = [];
    const files = new Set<string>();
    if (match.startsWith('urlretrieve') || match.startsWith('wget')) {
      const keyword = match.startsWith('wget') ? /^out\s*=\s*/ : /^filename\s*=\s*/;
      path = items.find((i) => keyword.test(i))?.replace(keyword, '') ?? items[1];
      if (path === undefined && match.startsWith('wget') && items[0] !== undefined) for (const f of literalFiles(items[0])) files.add(f);
      const result = assignedName(before);
      if (result !== null) names.push(result);
    } else if (match.startsWith('.')) {
      if (items[0] === undefined || !DOWNLOADED.test(traced(items[0], line, named))) return null;
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
      if (data === null || !DOWNLOADED.test(traced(data, dataLine, named))) return null;
    }
    if (path !== undefined) {
      for (const f of literalFiles(path)) files.add(f);
      if (PLAIN_NAME.test(path)) {
        names.push(path);
        // A name holding a literal path: the file name too (`dst = "/tmp/a"` … `os.system("/tmp/a")`),
        // and a path joined from pieces, its last piece (`t = Path(d) / "a.exe"`, `os.path.join(d, "a.exe")`).
        for (const value of valuesAt(line)(path)) {
          if (commandLine(value) !== null) for (const f of literalFiles(value)) files.add(f);
          else if (JOINED_PATH.test(value)) for (const f of literalFiles(value).slice(-1)) files.add(f);
        }
      }
    }
    if (names.length === 0 && files.size === 0) return null;
    const pattern = names.length === 0 ? null : new RegExp(String.raw`(?<![\w.])(?:${names.map((n) => n.replace(/\./g, '\\.')).join('|')})(?!\w)`);
    return { line, names: pattern, files: [...files], expression: path === undefined ? '' : compact(path) };
  };
  const found = new Map<ImportFlag, string>();
  const flag = (label: ImportFlag, at: number): void => {
    if (!found.has(label)) found.set(label, lineText(at));
  };
  let calls = 0;
  /** The matches of `pattern`, counted against MAX_CALLS. */
  const followed = function* (pattern: RegExp): Generator<RegExpExecArray> {
    for (const m of text.matchAll(pattern)) {
      calls += 1;
      if (calls > MAX_CALLS) return;
      yield m;
    }
  };

  // A downloaded file made executable or started, within a few lines of each other; and where
  // downloads are saved, for the process calls below to follow.
  const saved: SavedDownload[] = [];
  for (const m of followed(SAVES_FILE)) {
    const line = lineAt(m.index);
    if (WRITES_FILE.test(m[0])) {
      const window = text.slice(lineStarts[Math.max(0, line - 25)], lineStarts[line + 26] ?? text.length);
      const startsExecutable = window.split('\n').some((l) => WRITES_OR_STARTS.test(l) && EXECUTABLE_NAME.test(l));
      if (DOWNLOADED.test(window) && (MADE_EXECUTABLE.test(window) || startsExecutable)) flag('download-and-run', m.index);
    }
    const download = savedDownload(m.index, m[0]);
    if (download !== null) saved.push(download);
  }

  // Data handed to exec/eval/compile or to a process; a saved download run as a program.
  const imported = importedProcessCall(text);
  for (const pattern of imported === null ? [EXEC_CALL, PROCESS_CALL] : [EXEC_CALL, PROCESS_CALL, imported]) {
    for (const m of followed(pattern)) {
      const args = callArguments(text, m.index + m[0].length);
      const line = lineAt(m.index);
      const flow = traced(args, line, named);
      if (DECODED.test(flow) || (pattern === EXEC_CALL && DECODED_IN_EXEC.test(args))) flag('exec-decoded', m.index);
      if (DOWNLOADED.test(flow)) flag('download-and-run', m.index);
      const silent = SILENT_PROCESS.test(args) || (args.match(/\bDEVNULL\b/g) ?? []).length >= 3;
      if (pattern !== EXEC_CALL && ((silent && SILENT_TARGET.test(flow)) || HIDDEN_POWERSHELL.test(flow))) flag('silent-process', m.index);
      const first = splitArguments(args)[0];
      if (pattern !== EXEC_CALL && first !== undefined && near(saved, line).some((d) => launches(first, d, valuesAt(line)))) flag('download-and-run', m.index);
    }
  }
  // A saved download given an execute bit: `os.chmod(path, mode)`, `path.chmod(mode)`.
  if (saved.length > 0) {
    for (const m of followed(/\.chmod\s*\(/g)) {
      const args = splitArguments(callArguments(text, m.index + m[0].length));
      const receiver = receiverOf(text.slice(Math.max(lineStarts[lineAt(m.index)] as number, m.index - 200), m.index));
      const [target, mode] = receiver === 'os' ? args : [receiver, args[0]];
      if (target !== undefined && mode !== undefined && EXECUTE_MODE.test(mode) && near(saved, lineAt(m.index)).some((d) => namesDownload(target, d))) flag('download-and-run', m.index);
    }
  }
  // Host data in the arguments of a network call.
  if (NETWORK.test(text)) {
    for (const m of followed(SEND_CALL)) {
      const args = callArguments(text, m.index + m[0].length);
      if (DNS_SEND.test(m[0].replace(/^\w+\./, '.')) && !DOMAIN_SUFFIX.test(args)) continue;
      const flow = traced(args, lineAt(m.index), named);
      if (HOST_DATA.some((p) => p.test(flow))) flag('exfiltration', m.index);
      if ([...flow.matchAll(IP_URL)].some((u) => publicAddress(Number(u[1]), Number(u[2])))) flag('ip-endpoint', m.index);
    }
  }
  const first = (pattern: RegExp): number => text.search(pattern);
  let at = first(SOCKET_WIRED);
  if (at !== -1 && /\bsocket\b/.test(text) && SHELL.test(text)) flag('reverse-shell', at);
  at = first(SHELL_ONE_LINER);
  if (at !== -1) flag('reverse-shell', at);
  for (const pattern of OBFUSCATION) {
    at = first(pattern);
    if (at !== -1) flag('obfuscation', at);
  }
  at = first(HIDDEN_IMPORT);
  if (at !== -1) flag('dynamic-import', at);
  at = first(suspiciousPattern('dynamic-import'));
  if (at !== -1) flag('dynamic-import', at);
  at = first(LONG_BLOB);
  if (at !== -1 && RUNS_DATA.test(text)) flag('encoded-blob', at);
  // Calls past MAX_CALLS were not followed: the excerpt says so.
  if (calls > MAX_CALLS) found.set('padded', `more than ${MAX_CALLS} calls`);

  const flags = IMPORT_FLAGS.filter((f) => found.has(f));
  return { flags, excerpts: flags.slice(0, MAX_EXCERPTS).map((f) => excerpt(found.get(f) as string)), complete: calls <= MAX_CALLS };
}

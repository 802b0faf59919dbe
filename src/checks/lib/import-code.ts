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
 * to code that runs data. Data is followed through assignments a few steps back, by name
 * (python-flow.ts) and through the module's own functions (python-functions.ts); which calls
 * download, under the names the imports give them, is download-calls.ts; where a download is
 * saved and what runs it is saved-downloads.ts.
 */
import { excerpt, importedNamesOf, PROCESS_NAMES, suspiciousPattern } from './python-code.js';
import { callArguments, codeOf, flowText, receiverOf, splitArguments, traced, TRACE_LINES, type FlowText } from './python-flow.js';
import { downloadCalls, WRITES_FILE } from './download-calls.js';
import { EXECUTE_MODE, launches, namesDownload, savedDownloadAt, savedThroughCalls, type SavedDownload } from './saved-downloads.js';
import { REQUEST_CATCHER } from './catcher-hosts.js';
import { functionsOf } from './python-functions.js';
import { capturesOf, clipboardSwap, downloadThenDll, PERSISTENT_COMMAND, persistenceAt, processInjection, RUNS_DLL } from './python-spying.js';
import { escapeRegExp } from '../../util/escape-regexp.js';

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
export const IMPORT_FLAGS = [
  'reverse-shell',
  'exfiltration',
  'clipboard-swap',
  'process-injection',
  'download-and-run',
  'exec-decoded',
  'persistence',
  'ip-endpoint',
  'catcher-endpoint',
  'silent-process',
  'obfuscation',
  'dynamic-import',
  'encoded-blob',
  'padded',
] as const;
export type ImportFlag = (typeof IMPORT_FLAGS)[number];
/** The flags that leave no doubt about intent: the check scores them 0. */
export const UNAMBIGUOUS_FLAGS: readonly ImportFlag[] = ['reverse-shell', 'exfiltration', 'clipboard-swap'];

const MAX_EXCERPTS = 3;
/**
 * Calls (exec/eval/compile, processes, network sends, file writes) followed at most per text:
 * the most any of 105,768 real modules of 967 wheels holds is 157.
 */
export const MAX_CALLS = 1_000;
/** exec/eval/compile as builtins: bare, or through `builtins` (never `re.compile`). */
const EXEC_CALL = /(?:(?<![\w.])|\b(?:builtins|__builtins__)\.|__import__\(\s*['"]builtins['"]\s*\)\.)(?:exec|eval|compile)\s*\(/g;
/** Calls that start a process. */
const PROCESS_CALL =
  /\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(|(?<![\w.])(?:Popen|check_output|check_call)\s*\(|\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|startfile)\s*\(|\bcommand\.run\s*\(/g;
/** Process functions imported by name followed at most per text: the pattern tries each at every position. */
const MAX_IMPORTED_PROCESS = 32;
/**
 * Calls of process functions imported by name (`from subprocess import call`, `from os import
 * system as _s`), by the names they are bound to, and through `os` / `subprocess` imported under
 * another name (`import subprocess as _s` … `_s.Popen(`); null when there are none beyond
 * PROCESS_CALL's own names.
 */
function importedProcessCall(text: string): RegExp | null {
  const names = new Set<string>();
  for (const i of importedNamesOf(text)) {
    if (names.size === MAX_IMPORTED_PROCESS) break;
    if ((i.module === 'os' || i.module === 'subprocess') && (PROCESS_NAMES[i.module] as RegExp).test(i.name) && !/^(?:Popen|check_output|check_call)$/.test(i.as)) names.add(i.as);
  }
  const modules: string[] = [];
  // One quick scan before the import statements are read: most modules import neither under another name.
  for (const m of /\b(?:os|subprocess)[ \t]+as\b/.test(text) ? text.matchAll(/^[ \t]*import[ \t]+([^\n#;]{1,400})/gm) : []) {
    for (const part of (m[1] as string).split(',')) {
      const one = /^\s*(os|subprocess)\s+as\s+([A-Za-z_]\w*)\s*$/.exec(part);
      if (one !== null && modules.length < MAX_IMPORTED_PROCESS) modules.push(String.raw`(?<![\w.])${one[2]}\.${(PROCESS_NAMES[one[1] as string] as RegExp).source.slice(1, -1)}\s*\(`);
    }
  }
  const calls = [...(names.size === 0 ? [] : [String.raw`(?<![\w.])(?:${[...names].join('|')})\s*\(`]), ...modules];
  return calls.length === 0 ? null : new RegExp(calls.join('|'), 'g');
}
/** Decoding, decompressing, decrypting, reversing, assembling text from character codes, or revealing text hidden in an image. */
const DECODED =
  /\b(?:lsb|Steganography|steganography)\.(?:reveal|decode)\s*\(|\bb(?:64|32|16|85)decode\b|\ba85decode\b|\bdecompress\b|\bmarshal\.loads\b|\bunhexlify\b|\bfromhex\b|\bcodecs\.decode\b|\bgetencoder\b|\bdecrypt\s*\(|\.decode\s*\(\s*['"](?:base64|hex|rot_?13|zlib|bz2|uu|cp(?:1026|037|500|875|1140))['"]|\bjoin\s*\(\s*(?:map\s*\(\s*chr\b|chr\s*\()|\[::-1\]/;
/** …and, in the arguments of exec/eval/compile themselves, any call named `decode` or `chr`. */
const DECODED_IN_EXEC = /(?<![\w.])decode\s*\(|\.decode\s*\(\s*['"](?!utf-?8|ascii|latin-?1|utf-?16|utf-?32)[^'"]+['"]|\bchr\s*\(/;
/** A network call that sends its arguments somewhere (HTTP, raw socket, mail, DNS lookup of a made-up name). */
const SEND_CALL =
  /\b(?:requests|httpx|session|client|aiohttp)\.(?:get|post|put|patch|request)\s*\(|\.(?:post|sendall|sendto|sendmail|send_message)\s*\(|\b(?:s|sock|socket|conn|connection|client|\w*(?:Sock(?:et)?|Conn(?:ection)?|Client|_sock(?:et)?|_conn|_client))\.send\s*\(|(?<![\w.])(?:request|urlopen|post)\s*\(|\.urlopen\s*\(|\b(?:urllib\d?|urlrequest|request)\.Request\s*\(|\b(?:gethostbyname(?:_ex)?|getaddrinfo)\s*\(|\.(?:query|resolve)\s*\(/g;
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
/** Programs that send what their command line names (a process call's arguments). */
const NETWORK_TOOL = /['"\s](?:curl|wget|nc|ncat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)(?:\.exe)?['"\s]/i;
/** A URL to a Windows program or script, or a download piped into a shell or PowerShell's `iex`. */
const DOWNLOADED_PROGRAM = /\b(?:https?|ftp):\/\/[^\s'"]+\.(?:exe|scr|msi|bat|cmd|ps1|vbs)\b/i;
const PIPED_TO_SHELL = /\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\|\s*(?:iex|Invoke-Expression)\b/i;
/** What curl or wget printed, captured: a process given it runs what was downloaded. */
const TOOL_OUTPUT_RUN = /\b(?:getoutput|getstatusoutput|check_output|popen)\s*\(\s*\[?\s*[rbuf]?['"](?:[^'"\n]*\s)?(?:curl|wget)\b/;
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
/**
 * Hidden names: eval/exec/getattr stored in an underscore-only name, getattr on builtins with a
 * computed name, escaped strings handed to them, EBCDIC-decoded bytes, and exec/eval/compile
 * taken out of the builtins' dictionary (`vars(__builtins__)['exec']`, `.get('eval')`).
 */
const OBFUSCATION = [
  /\bvars\s*\(\s*(?:__builtins__|builtins|(?:globals|locals)\s*\(\s*\)\s*\[\s*['"]__builtins__['"]\s*\])\s*\)\s*(?:\[|\.get\s*\()\s*['"](?:exec|eval|compile|__import__)['"]/,
  /(?<![\w.])_{3,}\s*=\s*(?:eval|exec|getattr|__import__)\b/,
  /\bgetattr\s*\(\s*(?:builtins|__builtins__)\s*,\s*(?:b?['"](?:\\x[0-9a-fA-F]{2}|\\[0-7]{3})|[^,)]{0,200}?(?:\.decode\s*\(\s*['"](?!utf|ascii|latin)|\bchr\s*\(|\[::-1\]))/,
  // A name spelled with letters picked out of other objects' text: `oct.__str__()[-3] + hex.__str__()[-4] + …`.
  /(?:\.__(?:str|repr|doc|name)__(?:\s*\(\s*\))?\s*\[[^\]\n]{1,40}\]\s*\+\s*[\w.]*){2}\.__(?:str|repr|doc|name)__(?:\s*\(\s*\))?\s*\[/,
  /(?<![\w.])(?:eval|exec|getattr|__import__)\s*\([^)]{0,40}?['"](?:\\(?:[0-7]{3}|x[0-9a-fA-F]{2})){3,}/,
  /\bb['"](?:\\x[0-9a-fA-F]{2}){3,}[^'"\n]*['"]\s*\)?\s*\.decode\s*\(\s*['"]cp(?:1026|037|500|875|1140)['"]/,
];
/**
 * A name spelled in look-alike letters that Python reads as a plain one (it normalises names
 * with NFKC: `𝚎𝚡𝚎𝚌(…)` is `exec(…)`; mathematical, fullwidth, ligature, super- and subscript
 * letters), when the plain name runs code, starts a process or decodes.
 */
const DISGUISED_NAME = /(?<![\p{L}\p{N}_])[\p{L}\p{N}_]*[\u{1D400}-\u{1D7FF}\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFB00-\uFB06\u1D2C-\u1D6A\u2070-\u209C\u2100-\u214F][\p{L}\p{N}_]*/gu;
const CODE_NAMES = /^(?:exec|eval|compile|__import__|getattr|globals|locals|vars|__builtins__|builtins|os|subprocess|system|popen|Popen|b64decode|base64|marshal|loads|socket|requests|urlopen)$/;
const LOOK_ALIKE = /[\u{1D400}-\u{1D7FF}\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFB00-\uFB06\u1D2C-\u1D6A\u2070-\u209C\u2100-\u214F]/u;
function disguisedName(text: string): number {
  // Most texts hold none of the letters: one quick scan before the word-by-word one.
  if (!LOOK_ALIKE.test(text)) return -1;
  for (const m of text.matchAll(DISGUISED_NAME)) if (CODE_NAMES.test(m[0].normalize('NFKC'))) return m.index;
  return -1;
}

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
  const own = escapeRegExp(packageName);
  for (const m of text.matchAll(/^[ \t]*from[ \t]+\.([\w.]*)[ \t]+import[ \t]+(\([^)]{0,2000}\)|[^\n#;]+)/gm)) {
    if (m[1] !== '') add(m[1] as string);
    else for (const part of (m[2] as string).replace(/[()\\]/g, ' ').split(',')) add(part.trim().split(/\s+as\s+/)[0]?.trim() ?? '');
  }
  for (const m of text.matchAll(new RegExp(String.raw`^[ \t]*(?:from[ \t]+${own}\.([\w.]+)[ \t]+import|import[ \t]+${own}\.([\w.]+))`, 'gm'))) add((m[1] ?? m[2]) as string);
  return found;
}

/** Functions followed at most as decoders. */
const MAX_DECODERS = 32;

/**
 * Calls of the module's own functions that return decoded data (`def d(s): return
 * base64.b64decode(s).decode()` … `os.system(d("…"))`), as one pattern; null when none does.
 * What a function returns is followed through its own assignments (python-flow.ts, `traced`).
 */
function decodingFunctions(flow: FlowText): RegExp | null {
  const { text, lineStarts, named } = flow;
  if (!/^[ \t]*(?:async[ \t]+)?def[ \t]/m.test(text) || !DECODED.test(text)) return null;
  const names: string[] = [];
  for (const f of functionsOf(flow)) {
    if (names.length === MAX_DECODERS) break;
    // Only a body that decodes, and only its own assignments: a name means what the function made it.
    if (!DECODED.test(text.slice(lineStarts[f.line], lineStarts[f.end + 1] ?? text.length))) continue;
    const own = new Map([...named].map(([name, list]) => [name, list.filter((a) => a.line > f.line && a.line <= f.end)] as const));
    if (f.returns.some((r) => r.line > f.line && r.line <= f.end && DECODED.test(traced(r.value, r.line, own)))) names.push(f.name);
  }
  return names.length === 0 ? null : new RegExp(String.raw`(?<![\w.])(?:self\.)?(?:${names.join('|')})\s*\(`);
}

/** Full-line comments out (their words are not code); line numbers kept. */
function withoutComments(text: string): string {
  return text.replace(/^[ \t]*#[^\n]*/gm, '');
}

/** Classify the text of one module an import runs. */
export function readImportCode(source: string): ImportCodeReading {
  const flow = flowText(withoutComments(source));
  const { text, lineStarts, lineAt, lineText, named, valuesAt } = flow;
  const near = (downloads: SavedDownload[], line: number): SavedDownload[] => downloads.filter((d) => Math.abs(d.line - line) <= TRACE_LINES);
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
  const network = downloadCalls(flow);
  const saved: SavedDownload[] = [];
  for (const m of followed(network.saves)) {
    const line = lineAt(m.index);
    if (WRITES_FILE.test(m[0])) {
      const window = text.slice(lineStarts[Math.max(0, line - 25)], lineStarts[line + 26] ?? text.length);
      const startsExecutable = window.split('\n').some((l) => WRITES_OR_STARTS.test(l) && EXECUTABLE_NAME.test(l));
      if (network.downloaded().test(window) && (MADE_EXECUTABLE.test(window) || startsExecutable)) flag('download-and-run', m.index);
    }
    const download = savedDownloadAt(flow, network, m.index, m[0]);
    if (download !== null) saved.push(download, ...savedThroughCalls(flow, network, download));
  }

  // Data handed to exec/eval/compile or to a process; a saved download run as a program.
  const decoders = decodingFunctions(flow);
  const decoded = (code: string): boolean => DECODED.test(code) || (decoders !== null && decoders.test(codeOf(code)));
  const imported = importedProcessCall(text);
  for (const pattern of imported === null ? [EXEC_CALL, PROCESS_CALL] : [EXEC_CALL, PROCESS_CALL, imported]) {
    for (const m of followed(pattern)) {
      const args = callArguments(text, m.index + m[0].length);
      const line = lineAt(m.index);
      const flow = traced(args, line, named);
      if (decoded(flow) || (pattern === EXEC_CALL && DECODED_IN_EXEC.test(args))) flag('exec-decoded', m.index);
      if (network.downloaded().test(flow) || network.viaParameters(flow, line)) flag('download-and-run', m.index);
      const silent = SILENT_PROCESS.test(args) || (args.match(/\bDEVNULL\b/g) ?? []).length >= 3;
      if (pattern !== EXEC_CALL && ((silent && SILENT_TARGET.test(flow)) || HIDDEN_POWERSHELL.test(flow))) flag('silent-process', m.index);
      if (pattern !== EXEC_CALL && PERSISTENT_COMMAND.test(flow)) flag('persistence', m.index);
      if (pattern !== EXEC_CALL && RUNS_DLL.test(flow)) flag('process-injection', m.index);
      // A process that talks to the network itself (curl, wget …): host data in its command is
      // sent; a request catcher's host in it is a probe.
      // A command that downloads a program and runs it, pipes a download into a shell, or is
      // itself what curl or wget fetched.
      if (pattern !== EXEC_CALL && (TOOL_OUTPUT_RUN.test(flow) || (NETWORK_TOOL.test(flow) && (DOWNLOADED_PROGRAM.test(flow) || PIPED_TO_SHELL.test(flow))))) flag('download-and-run', m.index);
      if (pattern !== EXEC_CALL && NETWORK_TOOL.test(flow)) {
        if (HOST_DATA.some((p) => p.test(flow))) flag('exfiltration', m.index);
        if (REQUEST_CATCHER.test(flow)) flag('catcher-endpoint', m.index);
      }
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
  // Host data, or what the module captured of the screen, clipboard or keys, in the arguments of
  // a network call; a capture beside a send to a catcher host or a public IP address.
  if (NETWORK.test(text)) {
    const captures = capturesOf(flow);
    for (const m of followed(SEND_CALL)) {
      const args = callArguments(text, m.index + m[0].length);
      const sent = traced(args, lineAt(m.index), named);
      // A DNS lookup counts for a name built on someone else's domain, or on a request catcher's.
      if (DNS_SEND.test(m[0].replace(/^\w+\./, '.')) && !DOMAIN_SUFFIX.test(args) && !REQUEST_CATCHER.test(sent)) continue;
      const publicIp = [...sent.matchAll(IP_URL)].some((u) => publicAddress(Number(u[1]), Number(u[2])));
      if (HOST_DATA.some((p) => p.test(sent)) || captures?.sends(sent, publicIp, lineAt(m.index)) === true) flag('exfiltration', m.index);
      if (publicIp) flag('ip-endpoint', m.index);
      if (REQUEST_CATCHER.test(sent)) flag('catcher-endpoint', m.index);
    }
  }
  const first = (pattern: RegExp): number => text.search(pattern);
  let at = clipboardSwap(text);
  if (at !== -1) flag('clipboard-swap', at);
  at = downloadThenDll(text);
  if (at !== -1) flag('download-and-run', at);
  at = processInjection(text);
  if (at !== -1) flag('process-injection', at);
  at = persistenceAt(flow, followed);
  if (at !== -1) flag('persistence', at);
  at = first(SOCKET_WIRED);
  if (at !== -1 && /\bsocket\b/.test(text) && SHELL.test(text)) flag('reverse-shell', at);
  at = first(SHELL_ONE_LINER);
  if (at !== -1) flag('reverse-shell', at);
  for (const pattern of OBFUSCATION) {
    at = first(pattern);
    if (at !== -1) flag('obfuscation', at);
  }
  at = disguisedName(text);
  if (at !== -1) flag('obfuscation', at);
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

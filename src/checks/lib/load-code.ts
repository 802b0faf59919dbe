/**
 * Reading the code a package's entry module runs when it is loaded (docs/checks.md,
 * `load-time-code`): the module's text with the bodies of the functions that are not run by the
 * load itself blanked, then the install-code reader (js-code.ts) on what is left, keeping only what
 * no library needs to do while it is loaded. A function runs at load when it is called at once
 * (`(function () { … })()`), handed to a call that runs it (a callback of a request, a process,
 * a timer, a promise, an event: `https.get(url, (res) => { … })`), or
 * declared and then called by name in code that runs (`function go() { … } go()`); a class's
 * constructor and methods when the code that runs makes it with `new` and calls them. Everything
 * else (an exported function, an object's method, a class no one makes) is what a user calls
 * later, on purpose: an SDK that sends the host name when asked is not a finding.
 *
 * Pure text inspection, never executed; one pass for the structure and a few linear passes to
 * follow names, whatever the text.
 */
import { readInstallJavaScript, type CodeFlag } from './js-code.js';
import { isName, nameEndingAt, next, previous, regexEnd, regexStarts, stringEnd, stripComments } from './js-lex.js';

/** Words before `(` that do not make it a call. */
const NOT_CALLERS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'in', 'of', 'new', 'await', 'yield', 'void', 'delete', 'case', 'do', 'else', 'instanceof', 'throw', 'function']);
/** Words before `(…) {` that open a block, not a function's body. */
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
/**
 * Calls that run the functions handed to them, now or when what they start ends: requests and
 * lookups, processes, file reads, timers, promises, events, array walks. Any other call (a
 * getter defined, a route registered, a function wrapped) is taken to keep its function for later.
 */
const RUNNERS = new Set([
  'get', 'request', 'post', 'put', 'fetch', 'lookup', 'resolve', 'resolve4', 'resolve6', 'resolveTxt', 'connect', 'createConnection', 'write', 'end',
  'exec', 'execSync', 'execFile', 'spawn', 'fork',
  'readFile', 'readdir', 'stat', 'access', 'writeFile', 'appendFile', 'mkdir',
  'setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask',
  'then', 'catch', 'finally', 'Promise', 'all', 'on', 'once', 'addListener',
  'forEach', 'map', 'filter', 'reduce', 'some', 'every', 'call', 'apply',
]);
/** How far back `class Name extends Base` is looked for before a `{`. */
const CLASS_HEAD_CHARS = 200;
/** Rounds of following names to the functions they call (each one more level of calls). */
const MAX_NAME_ROUNDS = 6;

interface FunctionBody {
  open: number;
  close: number;
  runs: boolean;
  /** A declaration's name (`function go() {`). */
  name: string | null;
  /** A class's method: the class and the method's name. */
  method: { className: string; name: string } | null;
  /** Where the name before its parameters starts (a declaration's or a method's), else -1: left out with the body. */
  nameAt: number;
}

interface Open {
  char: string;
  pos: number;
  call: boolean;
  /** A call that runs the functions handed to it (RUNNERS). */
  runner: boolean;
  body: FunctionBody | null;
  className: string | null;
}

/**
 * The text of a module that runs when it is loaded (comments dropped, the bodies of functions it
 * does not run left empty), or null when its brackets do not balance (a file cut by a cap, or text
 * this reading does not follow): such a file is not read at all.
 */
export function loadTimeText(source: string): string | null {
  const text = stripComments(source, { regexLiterals: true });
  const stack: Open[] = [];
  const bodies: FunctionBody[] = [];
  /** Where the `(` of the last `(…)` closed opened. */
  let lastParens = -1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i) - 1;
    } else if (c === '/') {
      if (regexStarts(text, i)) i = regexEnd(text, i) - 1;
    } else if (c === '(' || c === '[') {
      const p = previous(text, i);
      const callee = p >= 0 && isName(text[p]) ? nameEndingAt(text, p) : '';
      const call = c === '(' && p >= 0 && (callee !== '' ? !NOT_CALLERS.has(callee) : text[p] === ')' || text[p] === ']');
      stack.push({ char: c, pos: i, call, runner: call && RUNNERS.has(callee), body: null, className: null });
    } else if (c === ')' || c === ']') {
      const open = stack.pop();
      if (open?.char !== (c === ')' ? '(' : '[')) return null;
      if (c === ')') lastParens = open.pos;
    } else if (c === '{') {
      const body = bodyOpening(text, i, stack.at(-1), lastParens);
      if (body !== null) bodies.push(body);
      const head = body === null ? /\bclass\s+([\w$]+)(?:\s+extends\s+[\w$.]+)?\s*$/.exec(text.slice(Math.max(0, i - CLASS_HEAD_CHARS), i)) : null;
      stack.push({ char: '{', pos: i, call: false, runner: false, body, className: head?.[1] ?? null });
    } else if (c === '}') {
      const open = stack.pop();
      if (open?.char !== '{') return null;
      if (open.body !== null) {
        open.body.close = i;
        if (calledAtOnce(text, i)) open.body.runs = true;
      }
    }
  }
  if (stack.length > 0) return null;
  return followNames(text, bodies);
}

/** `params`: where the `(` of the last `(…)` closed opened (the parameters, when `)` precedes this `{`). */
function bodyOpening(text: string, i: number, outer: Open | undefined, params: number): FunctionBody | null {
  const p = previous(text, i);
  const body = (name: string | null, method: FunctionBody['method'] = null, nameAt = -1): FunctionBody => ({
    open: i,
    close: -1,
    // A function handed to a call that runs it (a callback of a request, a process, a timer, a promise).
    runs: outer?.char === '(' && outer.runner,
    name,
    method,
    nameAt,
  });
  if (p >= 1 && text[p] === '>' && text[p - 1] === '=') return body(null);
  if (p < 0 || text[p] !== ')' || params < 0) return null;
  const q = previous(text, params);
  const word = nameEndingAt(text, q);
  if (word === 'function') return body(null);
  if (word === '' || CONTROL.has(word)) return null;
  const before = nameEndingAt(text, previous(text, q - word.length + 1));
  const nameAt = q - word.length + 1;
  if (before === 'function') return body(word, null, nameAt);
  return body(null, outer?.className != null ? { className: outer.className, name: word } : null, nameAt);
}

/** A function expression called where it ends: `}()`, `})()`, `}).call(this)`. */
function calledAtOnce(text: string, close: number): boolean {
  const a = next(text, close + 1);
  if (text[a] === '(') return true;
  if (text[a] !== ')') return false;
  const b = next(text, a + 1);
  return text[b] === '(' || text.startsWith('.call(', b) || text.startsWith('.apply(', b);
}

const CALLED_NAME = /(?<![\w$.])(?<!\bfunction\s{0,20}\*?\s{0,20})([\w$]+)\s*(?:\(|\.\s*(?:call|apply)\s*\()/g;
const MADE_CLASS = /\bnew\s+([\w$]+)/g;
const CALLED_METHOD = /\.\s*([\w$]+)\s*\(/g;

function nameLength(text: string, at: number): number {
  let j = at;
  while (isName(text[j])) j += 1;
  return j - at;
}

function render(text: string, bodies: readonly FunctionBody[]): string {
  let out = '';
  let at = 0;
  for (const body of bodies) {
    if (body.runs || body.close < 0 || body.open < at) continue;
    // The name goes with the body (a method named `hostname` is not a call to it).
    if (body.nameAt >= at) out += text.slice(at, body.nameAt) + text.slice(body.nameAt + nameLength(text, body.nameAt), body.open + 1);
    else out += text.slice(at, body.open + 1);
    at = body.close;
  }
  return out + text.slice(at);
}

/** Functions that the code which runs calls by name run too (a few levels deep). */
function followNames(text: string, bodies: readonly FunctionBody[]): string {
  let kept = render(text, bodies);
  for (let round = 0; round < MAX_NAME_ROUNDS; round += 1) {
    const called = new Set([...kept.matchAll(CALLED_NAME)].map((m) => m[1]!));
    const made = new Set([...kept.matchAll(MADE_CLASS)].map((m) => m[1]!));
    const methods = new Set([...kept.matchAll(CALLED_METHOD)].map((m) => m[1]!));
    let grew = false;
    for (const body of bodies) {
      if (body.runs) continue;
      const runs =
        body.method !== null
          ? made.has(body.method.className) && (body.method.name === 'constructor' || methods.has(body.method.name))
          : body.name !== null && called.has(body.name);
      if (runs) {
        body.runs = true;
        grew = true;
      }
    }
    if (!grew) break;
    kept = render(text, bodies);
  }
  return kept;
}

/** The findings kept at load: host data sent, a request catcher, download-and-run, decoded code run, startup persistence, a shell wired to a socket. */
export type LoadFlag = Extract<CodeFlag, 'exfiltration' | 'beacon' | 'reverse-shell' | 'download-exec' | 'remote-eval' | 'decoded-eval' | 'persistence'>;
/** The findings that score 0: what no library does, at load or ever, without being asked. */
export const HOSTILE_LOAD_FLAGS: readonly LoadFlag[] = ['exfiltration', 'beacon', 'reverse-shell'];
const LOAD_FLAGS: readonly LoadFlag[] = [...HOSTILE_LOAD_FLAGS, 'download-exec', 'remote-eval', 'decoded-eval', 'persistence'];

const NETWORK_MODULES = '(?:node:)?(?:https?|http2|net|tls|dgram|dns|axios|node-fetch|request|got|needle|undici|superagent|ws)';
/** A name a network module is bound to: `const h = require(…https…)` or an `import * as h` of https. */
const NETWORK_BINDING = new RegExp(
  `(?:\\b(?:const|let|var)\\s+|,\\s*)([\\w$]+)\\s*=\\s*(?:(?:__importDefault|__importStar|_interopRequireDefault)\\s*\\(\\s*)?require\\s*\\(\\s*['"\`]${NETWORK_MODULES}['"\`]\\s*\\)(?!\\s*[.[])|\\bimport\\s+(?:\\*\\s+as\\s+)?([\\w$]+)\\s+from\\s*['"]${NETWORK_MODULES}['"]`,
  'g',
);
/** A network call the code makes (an import alone sends nothing). */
const NETWORK_CALL =
  /\b(?:https?|http2|net|tls|dns|dgram)\.(?:get|request|connect|createConnection|lookup|resolve\w*|createSocket)\s*\(|(?<![\w$.])fetch\s*\(|\baxios(?:\.(?:get|post|put|request))?\s*\(|\bnew\s+(?:WebSocket|XMLHttpRequest)\b|\b(?:got|needle|superagent)(?:\.\w+)?\s*\(|\brequire\s*\(\s*['"`](?:node:)?(?:https?|net|tls|dns)['"`]\s*\)\s*\.\s*(?:get|request|connect|lookup)\s*\(/;
const BOUND_CALL = '(?:\\.(?:default\\.)?(?:get|post|put|request|connect|createConnection|lookup|resolve\\w*|createSocket))?\\s*\\(';
const FILE_WRITE = /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile)\s*\(|\bcrontab\s+-|\breg(?:\.exe)?\s+add\b/;
const CHILD_PROCESS = /\b(?:require|import)\s*\(\s*['"`](?:node:)?child_process['"`]\s*\)|\bfrom\s*['"](?:node:)?child_process['"]/;
const SHELL_DOWNLOAD = /['"`][^'"`]{0,200}?\b(?:curl|wget)\b/;
const GLOBAL_THIS = /(?<![\w$.])(?:new\s+)?Function\s*\(\s*(['"`])return this;?\1\s*\)\s*\(\s*\)/g;

/** The text with each string literal that holds a `(` emptied (one pass; regular expression literals skipped). */
function withoutCallsInStrings(text: string): string {
  let out = '';
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = Math.min(stringEnd(text, i), text.length);
      if (text.slice(i, end).includes('(')) {
        out += `${text.slice(start, i)}${c}${c}`;
        start = end;
      }
      i = end;
    } else if (c === '/' && regexStarts(text, i)) i = regexEnd(text, i);
    else i += 1;
  }
  return out + text.slice(start);
}

/** Whether the code that runs makes a network call (directly, or through a name a network module is bound to). */
function sendsAtLoad(text: string): boolean {
  if (NETWORK_CALL.test(text)) return true;
  const names = new Set([...text.matchAll(NETWORK_BINDING)].map((m) => (m[1] ?? m[2])!));
  if (names.size === 0) return false;
  const called = new Set([...text.matchAll(new RegExp(`(?<![\\w$.])([\\w$]+)${BOUND_CALL}`, 'g'))].map((m) => m[1]!));
  return [...names].some((name) => called.has(name));
}

/**
 * The load-time findings of one JavaScript module, or null when its text could not be followed
 * (loadTimeText). A send needs a network call in the code that runs, not only an import beside
 * host data that an exported function reads; startup persistence needs a file write or a process.
 */
export function readLoadJavaScript(source: string): LoadFlag[] | null {
  const loaded = loadTimeText(source);
  if (loaded === null) return null;
  // `Function('return this')()` is how older bundles find the global object, not code run.
  const text = loaded.replace(GLOBAL_THIS, 'globalThis');
  const flags = new Set(readInstallJavaScript(text).map((f) => f.flag));
  const spawns = CHILD_PROCESS.test(text);
  // A call written inside a string (`"use 'http.request()' instead"`) is text, not a call.
  const code = withoutCallsInStrings(text);
  const sends = (): boolean => sendsAtLoad(code) || (spawns && SHELL_DOWNLOAD.test(text));
  return LOAD_FLAGS.filter((flag) => {
    if (!flags.has(flag)) return false;
    if (flag === 'exfiltration' || flag === 'remote-eval') return sends();
    if (flag === 'persistence') return FILE_WRITE.test(text) || spawns;
    return true;
  });
}

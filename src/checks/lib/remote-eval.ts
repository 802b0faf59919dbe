/**
 * Downloaded text evaluated (docs/checks.md, `install-scripts`, flag `remote-eval`): an
 * evaluation (`eval`, `Function`, `vm`, written directly or indirectly: `(0, eval)`,
 * `globalThis.eval`, `[eval][0]`, a name given `eval`; a module's `_compile`; an import from a
 * `data:` or object address) of what a network call answered. A file that both uses
 * the network and evaluates is not enough: Emscripten's glue fetches its `.wasm` and, elsewhere,
 * evaluates the JavaScript its own module carries (EM_ASM, embind's invokers). The evaluation
 * must be linked to the network by one of:
 *
 * - its argument makes the call (`eval(await (await fetch(u)).text())`);
 * - it sits inside a network call's arguments or the calls chained on it (the response
 *   callback of `https.get(u, (r) => …)`, `fetch(u).then((r) => r.text()).then(eval)`), or in a
 *   handler set on a name bound to one (`xhr.onload = () => eval(xhr.responseText)`);
 * - a name in its argument was last assigned, before it, from such a call, from a name so
 *   assigned (`const r = await fetch(u); const code = await r.text(); new Function(code)()`,
 *   up to LINKS steps), from a parameter of a function called with one (`function keep(s) {
 *   stash = s } … keep(d)`), from a function whose body makes one (`const code = await get(u)`), inside
 *   a network call's callbacks, or from a chunk a `data` or `message` handler is given
 *   (`res.on('data', (d) => (body += d))`);
 * - a network call, or the import of a network module, is within NEAR code characters of it
 *   (string literals over LONG_STRING characters count as empty: a payload carried as hex is
 *   data, not distance).
 *
 * A member of an object every function shares (`global.p`, `globalThis['p']`, `process.env.P`,
 * `module.exports.p`) is a name followed back REACH characters, however short: a minifier does
 * not rename it. An evaluator, a function whose evaluation reads one of its parameters (the
 * innermost function around it with such a parameter, directly or through a name assigned
 * from it: `function run(code) { eval(code) }`, `const go = (s) => new Function('require', s)`,
 * a method `exec(code) { … }`, a handler `bus.on('code', (s) => eval(s))`), is an evaluation too,
 * linked by the same rules except nearness:
 *
 * - its calls (`run(d)`, `loader.exec(d)`, `run.call(o, d)`, `run.apply(o, [d])`,
 *   `Reflect.apply(run, o, [d])`, a timer's extra arguments: `setTimeout(run, 0, d)`,
 *   `setImmediate(run, d)`, `process.nextTick(run, d)`; transitively: a function that hands its
 *   parameter to an evaluator is one) are evaluations of the arguments in those parameters' places;
 * - the evaluator handed over as a value within a network call's callbacks (`.then(run)`) is an
 *   evaluation there;
 * - an event whose handler is an evaluator (set inline, or by name: `bus.on('code', run)`) makes
 *   each `emit` of that event an evaluation of the arguments it hands the handler; an event named
 *   by a variable (`bus.on(topic, run)`), each `emit` by the same variable.
 *
 * A file written and then loaded by the same path (`writeFileSync(p, d)` or
 * `createWriteStream(p)`, then within REACH `require(p)`, `import(p)`, `new Worker(p)`,
 * `fork(p)`, or a process that runs node with it: `exec('node ' + p)`, `spawn(process.execPath,
 * [p])`) is an evaluation of what was written, linked by the same rules except nearness. Paths
 * are compared by the folders and file they name, however spelled (`path.join(__dirname,
 * 'x.js')`, `__dirname + '/x.js'`, `` `${__dirname}/x.js` ``; a plain name also by its last
 * assignment); a path to a native addon, JSON or WebAssembly (`.node`, `.json`, `.wasm`, in the
 * path or the name's last assignment) is data.
 *
 * Code handed to node as text (a process whose command names node or `process.execPath` with
 * `-e`, `-p`, `--eval`, `--print` or an `input` option) and a worker made with `eval: true` are
 * evaluations of their arguments, linked the same way. So is a member of `global`, `globalThis`,
 * `window` or `self` looked up by a computed name and called (`globalThis[name](d)`, or given to
 * a name first: `const run = global[k]; run(d)`) unless its name is spelled out as a literal, or a
 * name last given one (`const k = 'log'`), other than `eval` or `Function` — fail closed: the
 * caller asks only of a file that uses the network. A handler of an event named at run time
 * (`res.on(ev, (d) => …)`) is a chunk handler unless the name is spelled out as another event's.
 *
 * The same for a member of vm (`vm[k](d)`, vm required inline and indexed: unless spelled out as another
 * than its evaluations), of module (its `_compile`), and of an object a member of which was given
 * an evaluation (`loader.run = eval`, `{ go: vm.runInThisContext }`; that member called by name
 * too). A handler is one set by any listener method or by a computed member (`res[on]('data', …)`)
 * unless spelled out as another member, or a collector's callback a stream is piped to
 * (`res.pipe(concat((b) => …))`); the chunk read inside a `data` handler is the answer. An event
 * spelled out is emitted by a computed name (`bus.emit(E, d)`) unless that name is spelled out as
 * another. A file address is the path it names (`new URL('./x.js', import.meta.url)`,
 * `fileURLToPath`, `pathToFileURL(p).href`, `import.meta.dirname`).
 *
 * Not linked: an event named by a variable emitted by another variable, a member computed on an
 * object given no evaluation as written (`o[k](d)`), a path spelled by other calls on the two sides
 * than path's joins and file addresses, a stream read whole by a helper it is neither piped into
 * nor assigned from, code run by a shell or another interpreter (`download-exec`'s shell downloads).
 *
 * An evaluator's name of one or two characters declared inside a line (a minifier's, given again
 * in every function: Emscripten's glue evaluates its EM_ASM code in such functions) is read
 * SHORT_NAME_REACH characters around its header; one declared at a line's start, everywhere.
 * The calls of a name given `eval` or `Function` itself (`const e = eval; e(d)`) are evaluations,
 * after it: everywhere, or within SHORT_NAME_REACH for a name of one or two characters.
 *
 * Pure text inspection of comment-free code, never executed; every step reads a bounded stretch
 * of the text from a bounded number of places, so the time is linear in the text.
 */

import { regexEnd, regexStarts, stringEnd } from './js-lex.js';

/** A string literal longer than this counts as empty: what a file carries as data is not code between two calls. */
const LONG_STRING = 64;
/** Code characters between an evaluation and a network call or import that make them one piece of code. */
const NEAR = 600;
/** Characters before a name's use read for its last assignment. */
const REACH = 16_000;
/**
 * The same for a name of one or two characters: a minifier gives such names to the variables of
 * every function again, so the last assignment further up is another function's variable.
 */
const SHORT_NAME_REACH = 1000;
/** Characters of an argument, a right side or a function's body read at most. */
const EXPRESSION_CHARS = 4000;
/** Characters of a network call with the calls chained on it (its callbacks) read at most. */
const SPAN_CHARS = 20_000;
/** Characters after a name is bound to a network call within which the handlers set on it are read. */
const HANDLER_REACH = 2000;
/** Assignments followed from an evaluation's argument back to a network call, at most. */
const LINKS = 3;
/** Evaluations, network calls, names and look-ups at most per text. */
const MAX_EVALUATIONS = 50;
const MAX_CALLS = 64;
const MAX_NAMES = 8;
const MAX_LOOKUPS = 96;
/** Evaluators (functions that evaluate a parameter, events whose handler does) at most per text. */
const MAX_EVALUATORS = 8;
/** Function headers before an evaluation read for the one whose parameter it evaluates, at most. */
const MAX_HEADERS = 16;

const NETWORK_MODULES = String.raw`(?:node:)?(?:https?|http2|net|tls|dgram|dns|axios|node-fetch|cross-fetch|isomorphic-fetch|request|got|needle|undici|superagent|ws|phin|bent)`;
/** A network call written with its module's usual name. */
const NETWORK_CALL = new RegExp(
  String.raw`\b(?:https?|http2|net|tls|dns|dgram)\s*(?:\.\s*|\[\s*['"\x60])(?:get|request|connect|createConnection|lookup|resolve\w*|createSocket)\b|(?<![\w$.])fetch\s*\(|\baxios\s*(?:\.\s*(?:get|post|put|request)\s*)?\(|\bnew\s+(?:WebSocket|XMLHttpRequest|EventSource)\b|\b(?:got|needle|superagent|undici)\s*(?:\.\s*\w+\s*)?\(|\brequire\s*\(\s*['"\x60]${NETWORK_MODULES}['"\x60]\s*\)\s*(?:\.\s*[\w$]+\s*)?\(`,
  'g',
);
/** A network module loaded or imported: a use of the network for NEAR. */
const NETWORK_IMPORT = new RegExp(String.raw`\brequire\s*\(\s*['"\x60]${NETWORK_MODULES}['"\x60]\s*\)|\bfrom\s*['"]${NETWORK_MODULES}['"]|\bimport\s*\(\s*['"]${NETWORK_MODULES}['"]\s*\)`, 'g');
/** A name a network module is bound to: by a require of https, a default import of got, a namespace import of https. */
const NETWORK_BINDING = new RegExp(
  String.raw`(?:\b(?:const|let|var)\s+|,\s*)([\w$]+)\s*=\s*(?:(?:__importDefault|__importStar|_interopRequireDefault)\s*\(\s*)?require\s*\(\s*['"\x60]${NETWORK_MODULES}['"\x60]\s*\)|\bimport\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s*['"]${NETWORK_MODULES}['"]`,
  'g',
);
/** Functions taken out of a network module by name: `{ get, request: r } = require(…https…)`, `import { get } from …https…`. */
const NETWORK_NAMED = new RegExp(
  String.raw`\{([^{}]{1,200})\}\s*=\s*require\s*\(\s*['"\x60]${NETWORK_MODULES}['"\x60]\s*\)|\bimport\s*\{([^{}]{1,200})\}\s*from\s*['"]${NETWORK_MODULES}['"]`,
  'g',
);
/**
 * An evaluation called: `eval(`, `(0, eval)(`, `[eval][0](`, `Function(`, `vm.runIn…Context(`,
 * `compileFunction(`, `new vm.Script(`, a module's `_compile(` (`new Module()._compile(code)`),
 * `eval` handed with its arguments to `Reflect.apply` or a timer (`setTimeout(eval, 0, code)`), a
 * module imported from a `data:` address or an object address (`import(URL.createObjectURL(blob))`).
 */
const EVALUATION =
  /(?:(?<![\w$.])|\b(?:global|globalThis|window|self)\s*\.\s*)eval\s*\(|(?<![\w$.])\(\s*0\s*,\s*eval\s*\)\s*\(|(?<![\w$.])\[\s*eval\s*\]\s*\[\s*0\s*\]\s*\(|(?<![\w$.])(?:new\s+)?Function\s*\(|(?<![\w$])(?:runIn(?:This|New)?Context|compileFunction)\s*\(|\bnew\s+(?:vm\s*\.\s*)?Script\s*\(|\.\s*_compile\s*\(|(?<![\w$.])(?:Reflect\s*\.\s*apply|setTimeout|setInterval|setImmediate|process\s*\.\s*nextTick)\s*\((?=\s*(?:eval|Function)\s*,)|(?<![\w$.])import\s*\((?=\s*(?:['"\x60]data:|URL\s*\.\s*createObjectURL\s*\())/g;
/** A file written: `writeFileSync(p, d)`, `writeFile(p, d, …)`, `createWriteStream(p)` (group: the stream). */
const FILE_WRITE = /(?<![\w$])(?:writeFileSync|writeFile|(createWriteStream))\s*\(/g;
/**
 * A process started (group: the function). It runs downloaded code when it runs node on it:
 * `fork(p)`, or a command that names node or the running node (RUNS_NODE).
 */
const PROCESS_CALL = /(?<![\w$])(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)\s*\(/g;
/** A command that runs node: a string naming it first, or the running node's own path. */
const RUNS_NODE = /['"`]\s*node(?:\.exe)?(?=[\s'"`])|\bprocess\s*\.\s*(?:execPath\b|argv\s*\[\s*0\s*\])/;
/** Node told to run the text it is given, not a file: `node -e`, `-p`, `--eval`, `--print`, or code on its standard input. */
const NODE_EVAL = /(?:^|[\s'"`])(?:-e|-p|--eval|--print)(?=[\s'"`=]|$)|\binput\s*:/;
/** A worker started: `new Worker(p)` runs the file at p, `new Worker(code, { eval: true })` the code. */
const WORKER = /\bnew\s+(?:[\w$]+\s*\.\s*)?Worker\s*\(/g;
/** A module loaded by path: `require(p)`, `import(p)`. */
const LOAD = /(?<![\w$.])(?:require|import)\s*\(/g;
/** The object a member looked up by a name computed at run time is taken from, by the members of it that evaluate. */
const SHARED_OBJECTS = '(?:global|globalThis|window|self)';
const VM_OBJECT = String.raw`require\s*\(\s*['"\x60](?:node:)?vm['"\x60]\s*\)`;
/** What a shared object's, vm's and module's members that evaluate are named. */
const GLOBAL_EVALUATORS = new Set(['eval', 'Function']);
const VM_EVALUATORS = new Set(['runInThisContext', 'runInNewContext', 'runInContext', 'compileFunction', 'Script']);
const MODULE_EVALUATORS = new Set(['_compile']);
/** A name vm is bound to: a const given its require, a namespace or default import of it. */
const VM_BINDING = new RegExp(String.raw`(?:\b(?:const|let|var)\s+|,\s*)([\w$]+)\s*=\s*${VM_OBJECT}|\bimport\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s*['"](?:node:)?vm['"]`, 'g');
/** An evaluation as a value: `eval`, `globalThis.Function`, `vm.runInThisContext`. */
const EVALUATION_AS_VALUE = String.raw`(?:(?:global|globalThis|window|self)\s*\.\s*)?(?:eval|Function)|(?:[\w$]+\s*\.\s*)?(?:runIn(?:This|New)?Context|compileFunction)`;
/** A member of an object given an evaluation: `loader.run = eval`, `o['go'] = vm.runInThisContext`. Groups: the object, the member. */
const HELD_EVALUATION = new RegExp(String.raw`(?<![\w$.])([\w$]+)\s*(?:\.\s*([\w$]+)|\[\s*['"\x60]([\w$]+)['"\x60]\s*\])\s*=\s*(?:${EVALUATION_AS_VALUE})\s*(?=[;,)}\n]|$)`, 'g');
/** An evaluation given as a value to a name, a member or an entry somewhere in the text: what HELD_EVALUATION and HELD_ENTRY look for, found first in one pass. */
const EVALUATION_GIVEN = /(?:eval|Function|runIn(?:This|New)?Context|compileFunction)\s*(?:[;,)}\n]|$)/g;
/** An object literal given to a name (groups: the name, its entries). */
const OBJECT_LITERAL = /(?<![\w$.])([\w$]+)\s*=\s*\{([^{}]{0,400})\}/g;
/** An entry of an object literal holding an evaluation (`run: eval`, `{ eval }`); group: the member. */
const HELD_ENTRY = new RegExp(String.raw`(?:^|,)\s*(?:([\w$]+)\s*:\s*(?:${EVALUATION_AS_VALUE})|(eval))\s*(?=,|$)`, 'g');
/** The methods that set a handler for an event. */
const LISTENERS = 'on|once|addListener|prependListener|prependOnceListener|addEventListener';
/** A handler set for an event by a listener method, its first argument read apart (CHUNK_HANDLER reads the literal names). */
const ANY_HANDLER = new RegExp(String.raw`\.\s*(?:${LISTENERS})\s*\(`, 'g');
/** A member computed at run time and called (`res[on](…)`, group: its name): a listener unless spelled out as something else. */
const COMPUTED_CALL = /\[([^[\]\n]{1,60})\]\s*\(/g;
const LISTENER_NAMES = new Set(LISTENERS.split('|'));
/** A function written at the start of the text: `(d) =>`, `d =>`, `async function (d) {`. */
const FUNCTION_START = /^\s*(?:async\s+)?(?:function\b|\([^()]{0,200}\)\s*=>|[\w$]+\s*=>)/;
/** The first parameter of a handler that starts the text: `(d) =>`, `d =>`, `function (d) {`. */
const HANDLER_PARAMETER = /^\s*(?:async\s+)?(?:function\s*[\w$]*\s*)?\(?\s*([\w$]+)/;
/** Words of a path expression that name no folder or file: the calls that join it. */
const PATH_CALLS = new Set([
  'path',
  'join',
  'resolve',
  'normalize',
  'path.join',
  'path.resolve',
  'path.normalize',
  'posix',
  'win32',
  // A file address made of a path and back: `new URL(…)`, `fileURLToPath(…)`, `pathToFileURL(p).href`.
  'new',
  'URL',
  'fileURLToPath',
  'pathToFileURL',
  'url.fileURLToPath',
  'url.pathToFileURL',
  'href',
  'pathname',
]);
/** `new URL('./x.js', base)`: the file named under its base, read base first (group 1: the name, group 2: the base). */
const URL_UNDER_BASE = /\bnew\s+URL\s*\(\s*(['"`][^'"`]{0,200}['"`])\s*,\s*([\w$.]{1,100})\s*\)/g;
/** Words that name the module's own folder or file, however spelled: one word for each. */
const HERE: ReadonlyMap<string, string> = new Map([
  ['import.meta.dirname', '__dirname'],
  ['import.meta.filename', '__filename'],
  ['import.meta.url', '__filename'],
]);
/** A path to data, not code: a native addon, JSON, WebAssembly. */
const DATA_PATH = /\.(?:node|json|wasm)\b/;
/** A name given the evaluation itself: `const e = eval`, `run = (0, eval)`, `F = globalThis.Function`. Group: the name. */
const EVALUATION_ALIAS = /(?<![\w$.])([\w$]+)\s*=\s*(?:\(\s*0\s*,\s*)?(?:(?:global|globalThis|window|self)\s*\.\s*)?(?:eval|Function)\s*\)?\s*(?=[;,)}\n]|$)/g;
/** An evaluation handed over as a value, to be called with what it is given: `.then(eval)`, `.on('end', vm.runInThisContext)`. */
const EVALUATION_VALUE = /[(,]\s*((?:eval|Function|(?:vm\s*\.\s*)?runIn(?:This|New)?Context)(?=\s*[),]))/g;
/**
 * A function's header: `function run(code) {`, `run = (code) => {`, `run = code =>`, `run:
 * function (code) {`, a method `run(code) {`. Groups: the name it is bound to, the name of a
 * function declaration, its parameters (one group per form), a method's name and parameters.
 */
const FUNCTION_HEAD =
  /(?:(?<![\w$])([\w$]+)\s*(?::|=(?![=>]))\s*)?(?:async\s+)?(?:\bfunction\b\s*\*?\s*([\w$]*)\s*\(([^()]{0,200})\)\s*\{|\(([^()]{0,200})\)\s*=>|(?<![\w$])([\w$]+)\s*=>)|(?<![\w$.])([\w$]+)\s*\(([^()]{0,200})\)\s*\{/g;
/** Words a method's header cannot start with: `if (a) {` is no method. */
const NOT_METHODS = new Set('if for while switch catch with function return typeof await'.split(' '));
/** A handler set for a named event, just before its function: `bus.on('code', `. */
const EVENT_HANDLER = /\.\s*(?:on|once|addListener|prependListener|prependOnceListener|addEventListener)\s*\(\s*(?:(['"`])([\w$:.-]{1,60})\1|([A-Za-z_$][\w$]{0,59}))\s*,\s*$/;
/**
 * A member of an object every function of the code shares: `global.p`, `globalThis['p']`,
 * `process.env.P`, `module.exports.p`. Groups: the object, the member.
 */
const SHARED_MEMBER =
  /(?<![\w$.])(global|globalThis|window|self|module\s*\.\s*exports|exports|process\s*\.\s*env)\s*(?:\.\s*([\w$]+)|\[\s*['"`]([\w$]+)['"`]\s*\])/g;
/** A handler given the chunks of a stream or the messages of a socket: its first parameter. */
const CHUNK_HANDLER = new RegExp(
  String.raw`\.\s*(?:${LISTENERS})\s*\(\s*['"\x60](?:data|message)['"\x60]\s*,\s*(?:async\s+)?(?:function\s*[\w$]*\s*)?\(?\s*([\w$]+)`,
  'g',
);
/**
 * A stream piped to a collector that hands its whole content to a callback
 * (`res.pipe(concat((body) => …))`): the callback's first parameter is the content.
 */
const PIPE_COLLECTOR =
  /\.\s*pipe\s*\(\s*(?:new\s+)?[\w$]+(?:\s*\.\s*[\w$]+)?\s*\(\s*(?:async\s+)?(?:function\s*[\w$]*\s*\(\s*([\w$]+)|\(\s*([\w$]+)[^()]{0,200}\)\s*=>|([\w$]+)\s*=>)/g;
/** A stream of local data: a file read, standard input, a child process's output. */
const LOCAL_STREAM = /\bcreateReadStream\s*\(|\bprocess\s*\.\s*stdin\b|\.\s*std(?:out|err)\b/;
/** Members of a name bound to a network call whose handlers get its answer. */
const HANDLER_MEMBER = /^\s*\.\s*(?:on\w*|once|addEventListener|then)\s*(?:\(|=(?![=>]))/;
/**
 * A name read for its value: not one tested or compared (`c ? 1 : 2`, `e === 1`, `n < 3`), whose
 * value decides which value is taken and is not the value itself.
 */
const IDENTIFIER = /(?<![\w$]|(?:[!=]==?|[<>]=?)\s{0,8})[A-Za-z_$][\w$]*(?![\w$]|\s{0,8}(?:[!=]==?|[<>]=?|\?(?![.?])))/g;
/** Names in an expression that are no variable of the code's own. */
const NOT_NAMES = new Set(
  (
    'await async new typeof function return this var let const true false null undefined void in of instanceof ' +
    'JSON Buffer String Object Array Math Number Promise window global globalThis self document console require module exports ' +
    'toString trim join concat from utf8 base64 hex then eval Function vm'
  ).split(' '),
);

/** The event an EVENT_HANDLER match handles: its literal name, or `[name]` for the variable holding it (`bus.on(ev, run)`). */
function eventOf(match: RegExpExecArray | null): string | undefined {
  if (match === null) return undefined;
  return match[2] ?? `[${match[3]!}]`;
}

function escapeName(name: string): string {
  return name.replace(/\$/g, '\\$');
}

/** The code with each string literal over LONG_STRING characters emptied (one pass; templates with substitutions kept). */
function withoutLongStrings(text: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    // `"`, `'`, a backtick, `/`.
    if (c === 34 || c === 39 || c === 96) {
      const end = Math.min(stringEnd(text, i), text.length);
      if (end - i > LONG_STRING + 2 && !(c === 96 && text.slice(i, end).includes('${'))) {
        out += `${text.slice(start, i)}${text[i]}${text[i]}`;
        start = end;
      }
      i = end;
    } else if (c === 47 && regexStarts(text, i)) i = regexEnd(text, i);
    else i += 1;
  }
  return out + text.slice(start);
}

/** The position of the bracket that closes the one at `open` (strings skipped), or -1 past `limit` characters. */
function closing(code: string, open: number, limit: number): number {
  let depth = 0;
  const end = Math.min(code.length, open + limit);
  for (let i = open; i < end; i++) {
    const c = code.charCodeAt(i);
    if (c === 34 || c === 39 || c === 96) i = stringEnd(code, i) - 1;
    else if (c === 40 || c === 91 || c === 123) depth += 1;
    else if ((c === 41 || c === 93 || c === 125) && --depth === 0) return i;
  }
  return -1;
}

/**
 * Where an expression that starts at `from` ends: at a `;`, or a `,` or line end outside
 * brackets, or a bracket that closes one opened before it (at most EXPRESSION_CHARS).
 */
function expressionEnd(code: string, from: number): number {
  let depth = 0;
  const end = Math.min(code.length, from + EXPRESSION_CHARS);
  for (let i = from; i < end; i++) {
    const c = code.charCodeAt(i);
    if (c === 34 || c === 39 || c === 96) i = stringEnd(code, i) - 1;
    else if (c === 40 || c === 91 || c === 123) depth += 1;
    else if (c === 41 || c === 93 || c === 125) {
      if (--depth < 0) return i;
    } else if (depth === 0 && (c === 59 || c === 44 || c === 10)) return i;
  }
  return end;
}

/** Where a call whose `(` is at `open` ends with the calls chained on it (`.then(…).catch(…)`), or -1 when it does not close. */
function chainEnd(code: string, open: number): number {
  let close = closing(code, open, SPAN_CHARS);
  while (close >= 0) {
    const chained = /^\s*\??\.\s*[\w$]+\s*\(/.exec(code.slice(close + 1, close + 80));
    if (chained === null || close + chained[0].length - open > SPAN_CHARS) return close + 1;
    close = closing(code, close + chained[0].length, SPAN_CHARS - (close - open));
  }
  return -1;
}

/** The names an expression reads, string literals left out. */
function namesIn(expression: string): string[] {
  const names = new Set<string>();
  for (const match of expression.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, '""').matchAll(IDENTIFIER)) {
    if (!NOT_NAMES.has(match[0])) names.add(match[0]);
    if (names.size >= MAX_NAMES) break;
  }
  return [...names];
}

/** The arguments at `indexes` of a call whose `(` is at `open`, joined by commas ('' when it has none there). */
function argumentsAt(code: string, open: number, indexes: readonly number[]): string {
  const parts: string[] = [];
  const last = Math.max(...indexes);
  let start = open + 1;
  for (let index = 0; index <= last; index++) {
    while (start < code.length && /\s/.test(code[start]!)) start += 1;
    const end = expressionEnd(code, start);
    if (indexes.includes(index)) parts.push(code.slice(start, end));
    if (code[end] !== ',') break;
    start = end + 1;
  }
  return parts.join(',');
}

/**
 * The string a name was last given within REACH before `at`, when that was a string literal
 * (`const ev = 'data'`), else undefined: a value the text does not spell out.
 */
function literalValue(code: string, name: string, at: number): string | undefined {
  const from = Math.max(0, at - REACH);
  let last: RegExpExecArray | null = null;
  for (const match of code.slice(from, at).matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(name)}\s*=(?![=>])`, 'g'))) last = match;
  if (last === null) return undefined;
  const sign = from + last.index + last[0].length;
  return /^\s*(['"`])([^'"`\\$]{0,60})\1\s*$/.exec(code.slice(sign, expressionEnd(code, sign)))?.[2];
}

/**
 * What a name computed at run time may be: the literal it spells or a name holding one
 * (`'data'`, `ev` after `const ev = 'data'`), else undefined: any value (fail closed).
 */
function computedName(code: string, expression: string, at: number): string | undefined {
  const text = expression.trim();
  const literal = /^(['"`])([^'"`\\$]{0,60})\1$/.exec(text);
  if (literal !== null) return literal[2];
  return /^[A-Za-z_$][\w$]*$/.test(text) ? literalValue(code, text, at) : undefined;
}

/**
 * A path expression as the folders and file it names, however it is spelled: `path.join(__dirname,
 * 'x.js')`, `__dirname + '/x.js'` and `` `${__dirname}/x.js` `` are all `__dirname/x.js`.
 */
function pathKey(expression: string): string {
  // A URL's base is the folder of the module whose address it is (`new URL('./x.js', import.meta.url)`).
  return expression
    .replace(URL_UNDER_BASE, (_all, name: string, base: string) => `${base === 'import.meta.url' ? '__dirname' : base} ${name}`)
    .split(/[^\w$.-]+/)
    .map((part) => HERE.get(part) ?? part.replace(/^\.(?=[\w$])/, ''))
    .filter((part) => part !== '' && part !== '.' && part !== '$' && !PATH_CALLS.has(part))
    .join('/');
}

/** The path keys an expression may name: its own, and for a plain name that of its last assignment within REACH before `at`. */
function pathKeys(code: string, expression: string, at: number): string[] {
  const keys = [pathKey(expression)];
  if (/^[\w$]+$/.test(expression)) {
    const from = Math.max(0, at - REACH);
    let last: RegExpExecArray | null = null;
    for (const match of code.slice(from, at).matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(expression)}\s*=(?![=>])`, 'g'))) last = match;
    if (last !== null) {
      const sign = from + last.index + last[0].length;
      const right = code.slice(sign, expressionEnd(code, sign)).trim();
      if (right.length <= 200) keys.push(pathKey(right));
    }
  }
  return keys.filter((key) => key !== '');
}

/** Whether the tokens of key `inner` run, whole and in order, inside key `outer`. */
function keyWithin(outer: string, inner: string): boolean {
  return `/${outer}/`.includes(`/${inner}/`);
}

/** The pattern of a member of a shared object (SHARED_MEMBER's match), under each of the object's names. */
function sharedMember(match: RegExpMatchArray): string {
  const object = match[1]!;
  const root = object.endsWith('exports') ? String.raw`(?:module\s*\.\s*)?exports` : object.endsWith('env') ? String.raw`process\s*\.\s*env` : '(?:global|globalThis|window|self)';
  const member = escapeName((match[2] ?? match[3])!);
  return String.raw`${root}\s*(?:\.\s*${member}|\[\s*['"\x60]${member}['"\x60]\s*\])`;
}

interface Span {
  start: number;
  end: number;
}

/** Where code runs text: an evaluation, or a call of an evaluator; `argument` is the text it runs. */
interface Site {
  at: number;
  argument: string;
  /** Written as an evaluation (not a call of an evaluator): a network use NEAR it links it too. */
  direct: boolean;
}

/** A function that evaluates some of its parameters (their indexes), by the name it is bound to or the event it handles. */
interface Evaluator {
  /** Where its header starts. */
  at: number;
  name: string | undefined;
  event: string | undefined;
  parameters: number[];
}

/** A `data` or `message` handler: its call's span and its first parameter, the chunk. */
interface ChunkHandler extends Span {
  chunk: string;
  /** Its event spelled out as `data` or `message` (or a collector's callback): the chunk itself read there is the answer. */
  named: boolean;
}

class Reader {
  readonly code: string;
  /** The network calls and the handlers of names bound to them: what runs with their answer. */
  readonly spans: Span[] = [];
  /** Where the network is used: calls and imports. */
  readonly uses: number[] = [];
  readonly call: RegExp;
  readonly chunkHandlers: ChunkHandler[] = [];
  lookups = 0;
  /** Functions followed to their calls for a parameter they store (storedParameter). */
  private stores = 0;

  constructor(code: string) {
    this.code = code;
    const bound = new Set<string>();
    for (const match of code.matchAll(NETWORK_BINDING)) {
      bound.add((match[1] ?? match[2])!);
      if (bound.size >= MAX_NAMES) break;
    }
    for (const match of code.matchAll(NETWORK_NAMED)) {
      // The local name: after `:` (require) or `as` (import), else the name itself.
      for (const part of (match[1] ?? match[2])!.split(',')) {
        const local = /([\w$]+)\s*$/.exec(part)?.[1];
        if (local !== undefined && bound.size < MAX_NAMES * 2) bound.add(local);
      }
    }
    const boundCall = [...bound].map((name) => String.raw`(?<![\w$.])${escapeName(name)}\s*(?:\.\s*[\w$]+\s*|\[\s*['"\x60][\w$]+['"\x60]\s*\]\s*)?\(`);
    this.call = new RegExp([NETWORK_CALL.source, ...boundCall].join('|'), 'g');
    for (const match of code.matchAll(CHUNK_HANDLER)) {
      if (this.chunkHandlers.length >= MAX_CALLS) break;
      if (this.readsLocalStream(match.index)) continue;
      const open = code.indexOf('(', match.index);
      const end = chainEnd(code, open);
      this.chunkHandlers.push({ start: match.index, end: end < 0 ? Math.min(code.length, open + SPAN_CHARS) : end, chunk: match[1]!, named: true });
    }
    for (const match of code.matchAll(PIPE_COLLECTOR)) {
      if (this.chunkHandlers.length >= MAX_CALLS) break;
      if (this.readsLocalStream(match.index)) continue;
      const open = code.indexOf('(', match.index);
      const end = chainEnd(code, open);
      this.chunkHandlers.push({ start: match.index, end: end < 0 ? Math.min(code.length, open + SPAN_CHARS) : end, chunk: (match[1] ?? match[2] ?? match[3])!, named: true });
    }
    // An event named at run time (`res.on(ev, (d) => …)`, `const ev = 'data'`): a chunk handler
    // unless its name is spelled out as another event's (fail closed: the file uses the network).
    let resolved = 0;
    let computedListeners = 0;
    const computedCalls = (function* (): Generator<RegExpExecArray> {
      for (const match of code.matchAll(COMPUTED_CALL)) if (/[\w$)\]]/.test(code[match.index - 1] ?? '')) yield match;
    })();
    for (const match of [code.matchAll(ANY_HANDLER), computedCalls].flatMap((matches) => [...matches])) {
      if (this.chunkHandlers.length >= MAX_CALLS) break;
      const open = match.index + match[0].length - 1;
      const head = code.slice(open + 1, open + 201);
      const comma = expressionEnd(head, 0);
      if (head[comma] !== ',') continue;
      let checked = true;
      if (match[1] !== undefined) {
        // `res[on](ev, (d) => …)`: a listener unless its name is spelled out as another member;
        // only a function written as its second argument is a handler.
        if (!FUNCTION_START.test(head.slice(comma + 1))) continue;
        const method = ++resolved > MAX_LOOKUPS ? undefined : computedName(code, match[1], match.index);
        if (method !== undefined && !LISTENER_NAMES.has(method)) continue;
        // Past the look-up budget, taken as a stream's handler unread (fail closed).
        checked = ++computedListeners <= MAX_LOOKUPS;
      }
      const name = head.slice(0, comma).trim();
      if (name === '' || (match[1] === undefined && /^['"`]/.test(name) && !name.includes('${'))) continue;
      const event = ++resolved > MAX_LOOKUPS ? undefined : computedName(code, name, match.index);
      if (event !== undefined && event !== 'data' && event !== 'message') continue;
      const chunk = HANDLER_PARAMETER.exec(head.slice(comma + 1))?.[1];
      if (chunk === undefined || (checked && this.readsLocalStream(match.index))) continue;
      const end = chainEnd(code, open);
      this.chunkHandlers.push({ start: match.index, end: end < 0 ? Math.min(code.length, open + SPAN_CHARS) : end, chunk, named: event !== undefined });
    }
    let calls = 0;
    for (const match of code.matchAll(this.call)) {
      if (++calls > MAX_CALLS) break;
      this.uses.push(match.index);
      // The call's own parenthesis: after its name, a member or a bracketed name at most.
      const open = code.indexOf('(', match.index);
      if (open >= 0 && open - match.index < 80 && /^[\w$'"`\]\s]*$/.test(code.slice(match.index + match[0].length, open))) {
        const end = chainEnd(code, open);
        this.spans.push({ start: match.index, end: end < 0 ? Math.min(code.length, open + SPAN_CHARS) : end });
      }
      // `const req = https.get(…)`, `xhr = new XMLHttpRequest()`: the handlers set on that name.
      const bind = /([\w$]+)\s*=\s*(?:await\s+)?$/.exec(code.slice(Math.max(0, match.index - 60), match.index));
      if (bind !== null) this.handlersOf(bind[1]!, match.index);
    }
    let imports = 0;
    for (const match of code.matchAll(NETWORK_IMPORT)) {
      if (++imports > MAX_CALLS) break;
      this.uses.push(match.index);
    }
  }

  /**
   * Whether the handler set at `at` listens to a local stream: the statement before it names one
   * (`fs.createReadStream(p).on(…)`), or the name it is set on was last assigned one.
   */
  private readsLocalStream(at: number): boolean {
    const before = this.code.slice(Math.max(0, at - 200), at);
    const statement = before.slice(Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'), before.lastIndexOf('}'), before.lastIndexOf('\n')) + 1);
    if (LOCAL_STREAM.test(statement)) return true;
    const name = /(?<![\w$.])([\w$]+)\s*$/.exec(statement)?.[1];
    if (name === undefined) return false;
    const from = Math.max(0, at - REACH);
    let last: RegExpExecArray | null = null;
    for (const match of this.code.slice(from, at).matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(name)}\s*=(?![=>])`, 'g'))) last = match;
    if (last === null) return false;
    const sign = from + last.index + last[0].length;
    return LOCAL_STREAM.test(this.code.slice(sign, expressionEnd(this.code, sign)));
  }

  /** The handlers set on `name` within HANDLER_REACH after `from`, as spans. */
  private handlersOf(name: string, from: number): void {
    const after = this.code.slice(from, from + HANDLER_REACH);
    let seen = 0;
    for (const use of after.matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(name)}(?=\s*\.)`, 'g'))) {
      if (++seen > MAX_NAMES * 4) break;
      const at = from + use.index + name.length;
      const member = HANDLER_MEMBER.exec(this.code.slice(at, at + 80));
      if (member === null) continue;
      const sign = at + member[0].length - 1;
      const end = this.code[sign] === '(' ? chainEnd(this.code, sign) : expressionEnd(this.code, sign + 1);
      this.spans.push({ start: at, end: end < 0 ? Math.min(this.code.length, sign + SPAN_CHARS) : end });
    }
  }

  inSpan(at: number): boolean {
    return this.spans.some((span) => at > span.start && at < span.end);
  }

  near(at: number): boolean {
    return this.uses.some((use) => Math.abs(use - at) <= NEAR);
  }

  makesCall(expression: string): boolean {
    this.call.lastIndex = 0;
    return this.call.test(expression);
  }

  /** Whether `expression`, read at `at`, holds what the network answered. */
  downloaded(expression: string, at: number, links: number): boolean {
    if (this.makesCall(expression)) return true;
    if (links === 0) return false;
    for (const name of namesIn(expression)) {
      // The chunk a `data` or `message` handler around it is given (`res.once('data', (c) => eval(c))`).
      if (this.chunkHandlers.some((h) => h.named && at > h.start && at < h.end && h.chunk === name)) return true;
      if (this.lookups++ >= MAX_LOOKUPS) return false;
      const reach = name.length <= 2 ? SHORT_NAME_REACH : REACH;
      if (this.assignedDownload(escapeName(name), reach, at, links - 1) || this.functionCalls(name, expression, at)) return true;
    }
    // `global.p`: every function reads the same member, however short its name.
    let members = 0;
    for (const match of expression.matchAll(SHARED_MEMBER)) {
      if (++members > MAX_NAMES || this.lookups++ >= MAX_LOOKUPS) return false;
      if (this.assignedDownload(sharedMember(match), REACH, at, links - 1)) return true;
    }
    return false;
  }

  /** Whether the last assignment before `at` (within `reach`) of the name matched by `n` gives it what the network answered. */
  private assignedDownload(n: string, reach: number, at: number, links: number): boolean {
    const from = Math.max(0, at - reach);
    const before = this.code.slice(from, at);
    const assignment = new RegExp(
      String.raw`(?<![\w$])${n}(?:\s*\.\s*[\w$]+|\s*\[[^\]\n]{0,40}\])*\s*(?:\+|\|\||\?\?|&&)?=(?![=>])|(?<![\w$.])${n}\s*\.\s*push\s*\(|\b(?:const|let|var)\s+${n}\s+of\b|(?<![\w$.])${n}\s*(?::\s*[\w$]+\s*)?(?=[,}\]])(?=[^;=(){}]{0,200}?[}\]]\s*=(?![=>]))`,
      'g',
    );
    let last: RegExpExecArray | null = null;
    for (const match of before.matchAll(assignment)) last = match;
    if (last === null) return false;
    const place = from + last.index;
    if (this.inSpan(place)) return true;
    const sign = from + last.index + last[0].length;
    let right: string;
    if (/\bof$/.test(last[0])) right = this.code.slice(sign, expressionEnd(this.code, sign));
    else if (last[0].endsWith('(')) right = this.code.slice(sign, expressionEnd(this.code, sign));
    else if (last[0].endsWith('=')) right = this.code.slice(sign, expressionEnd(this.code, sign));
    else {
      // A destructuring pattern: its right side follows the `=` after the pattern's end.
      const equals = this.code.indexOf('=', sign);
      right = equals < 0 ? '' : this.code.slice(equals + 1, expressionEnd(this.code, equals + 1));
    }
    // `res.on('data', (d) => (body += d))`: the chunk kept.
    if (this.chunkHandlers.some((h) => place > h.start && place < h.end && namesIn(right).includes(h.chunk))) return true;
    return this.downloaded(right, place, links) || this.storedParameter(right, place, links);
  }

  /**
   * Whether `right`, assigned at `place`, is a parameter of the function around it that is
   * called with what the network answered (`function keep(s) { stash = s } … keep(d)`): the
   * function's calls followed as an evaluator's are, at most MAX_EVALUATORS functions per text.
   */
  private storedParameter(right: string, place: number, links: number): boolean {
    if (links === 0 || this.stores >= MAX_EVALUATORS) return false;
    const keeper = this.evaluatorAround(place, right);
    if (keeper?.name === undefined || NOT_NAMES.has(keeper.name)) return false;
    this.stores += 1;
    return this.callsOf(keeper).some((site) => this.inSpan(site.at) || this.downloaded(site.argument, site.at, links - 1));
  }

  /**
   * The function around `at` (its header within EXPRESSION_CHARS before it) whose parameters
   * `argument` reads, directly or through a name assigned in between (`var func =
   * \`(${args}) => { ${body} }\`; eval(func)`): the innermost such function.
   */
  evaluatorAround(at: number, argument: string): Evaluator | undefined {
    const { code } = this;
    const from = Math.max(0, at - EXPRESSION_CHARS);
    const before = code.slice(from, at);
    const names = new Set(namesIn(argument));
    for (const name of [...names]) {
      let last: RegExpExecArray | null = null;
      for (const match of before.matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(name)}\s*\+?=(?![=>])`, 'g'))) last = match;
      if (last === null) continue;
      const sign = from + last.index + last[0].length;
      for (const read of namesIn(code.slice(sign, expressionEnd(code, sign)))) names.add(read);
    }
    const heads = [...before.matchAll(FUNCTION_HEAD)];
    let checked = 0;
    for (let i = heads.length - 1; i >= 0 && checked < MAX_HEADERS; i--) {
      const head = heads[i]!;
      if (head[6] !== undefined && NOT_METHODS.has(head[6])) continue;
      const list = head[3] ?? head[4] ?? head[5] ?? head[7] ?? '';
      const parameters = list.split(',').flatMap((parameter, index) => {
        const name = /^\s*(?:\.\.\.)?([\w$]+)/.exec(parameter)?.[1];
        return name !== undefined && names.has(name) ? [index] : [];
      });
      if (parameters.length === 0) continue;
      checked += 1;
      const start = from + head.index;
      let body = start + head[0].length;
      if (!head[0].endsWith('{')) while (body < code.length && /\s/.test(code[body]!)) body += 1;
      const end = code[body - 1] === '{' ? closing(code, body - 1, at - body + EXPRESSION_CHARS) : code[body] === '{' ? closing(code, body, at - body + EXPRESSION_CHARS) : expressionEnd(code, body);
      // A body that does not close within the stretch read runs past `at`.
      if (end >= 0 && end <= at) continue;
      const name = head[1] ?? (head[2] || undefined) ?? head[6];
      const event = eventOf(EVENT_HANDLER.exec(code.slice(Math.max(0, start - 100), start)));
      return { at: start, name, event, parameters };
    }
    return undefined;
  }

  /**
   * The stretch in which the evaluator's name means it: the whole code, or SHORT_NAME_REACH
   * around its header for a name of one or two characters declared inside a line (a minifier's,
   * given again in every function; one declared at a line's start was named by hand).
   */
  private scope(evaluator: Evaluator): Span {
    const line = this.code.lastIndexOf('\n', evaluator.at) + 1;
    const declaredAtLineStart = evaluator.at - line < 40 && /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?$/.test(this.code.slice(line, evaluator.at));
    if (evaluator.name!.length > 2 || declaredAtLineStart) return { start: 0, end: this.code.length };
    return { start: Math.max(0, evaluator.at - SHORT_NAME_REACH), end: evaluator.at + SHORT_NAME_REACH };
  }

  /**
   * The calls of a named evaluator (`run(d)`, `o.run(d)`, `run.call(o, d)`, `run.apply(o, [d])`;
   * not its declaration), as sites running the arguments it evaluates.
   */
  callsOf(evaluator: Evaluator): Site[] {
    const { code } = this;
    const sites: Site[] = [];
    const { start, end } = this.scope(evaluator);
    for (const found of code.slice(start, end).matchAll(new RegExp(String.raw`(?<![\w$])${escapeName(evaluator.name!)}\s*(?:\.\s*(call|apply)\s*)?\(`, 'g'))) {
      if (sites.length >= MAX_CALLS) break;
      const match = { index: start + found.index, 0: found[0] };
      // `.call(o, d)` hands the arguments one place later; `.apply(o, [d])` hands them all in its second.
      const places = found[1] === 'call' ? evaluator.parameters.map((index) => index + 1) : found[1] === 'apply' ? [1] : evaluator.parameters;
      // Not its declaration, nor a method of a regular expression or a string (`/x/.exec(s)`).
      if (/\bfunction\s*\*?\s*$|[^\w$)\]\s?]\s*\.\s*$/.test(code.slice(Math.max(0, match.index - 20), match.index))) continue;
      const open = match.index + match[0].length - 1;
      const close = closing(code, open, EXPRESSION_CHARS);
      // `run(code) {`: a method's header.
      if (close >= 0 && /^\s*\{/.test(code.slice(close + 1, close + 20))) continue;
      sites.push({ at: match.index, argument: argumentsAt(code, open, places), direct: false });
    }
    // Called by another function with the arguments handed along: `Reflect.apply(run, o, [d])`
    // (all in its third), a timer's extra arguments (`setTimeout(run, 0, d)`, `setImmediate(run, d)`).
    const handed = new RegExp(String.raw`(?<![\w$.])(?:(Reflect\s*\.\s*apply)|(setTimeout|setInterval)|setImmediate|process\s*\.\s*nextTick)\s*\(\s*${escapeName(evaluator.name!)}\s*,`, 'g');
    for (const found of code.slice(start, end).matchAll(handed)) {
      if (sites.length >= MAX_CALLS) break;
      const open = code.indexOf('(', start + found.index);
      const places = found[1] !== undefined ? [2] : evaluator.parameters.map((index) => index + (found[2] !== undefined ? 2 : 1));
      sites.push({ at: start + found.index, argument: argumentsAt(code, open, places), direct: false });
    }
    return sites;
  }

  /**
   * The evaluator `name` handed over as a value (`.then(run)`, `bus.on('code', o.run)`): whether
   * it is handed to a network call or its handlers; the events it is set to handle go to `events`.
   */
  handedOver(evaluator: Evaluator, events: Map<string, readonly number[]>): boolean {
    const name = evaluator.name!;
    const { start, end } = this.scope(evaluator);
    let seen = 0;
    for (const found of this.code.slice(start, end).matchAll(new RegExp(String.raw`[(,]\s*(?:[\w$]+\s*\.\s*)*${escapeName(name)}(?=\s*[),])`, 'g'))) {
      if (++seen > MAX_CALLS) break;
      const match = { index: start + found.index, 0: found[0] };
      const at = match.index + match[0].length - name.length;
      if (this.inSpan(at)) return true;
      const event = eventOf(EVENT_HANDLER.exec(this.code.slice(Math.max(0, match.index + 1 - 100), match.index + 1)));
      if (event !== undefined && events.size < MAX_EVALUATORS && !events.has(event)) events.set(event, evaluator.parameters);
    }
    return false;
  }

  /** The events `event` emitted (`bus.emit('code', c)`), as sites running the arguments its handler evaluates. */
  emitsOf(event: string, parameters: readonly number[]): Site[] {
    const sites: Site[] = [];
    // An event named by a variable is emitted by the same variable (`bus.emit(ev, d)`).
    const name = event.startsWith('[') ? String.raw`(?<![\w$.])${escapeName(event.slice(1, -1))}` : String.raw`(['"\x60])${event.replace(/[$.]/g, '\\$&')}\1`;
    const emit = new RegExp(String.raw`\.\s*emit\s*\(\s*${name}\s*,`, 'g');
    for (const match of this.code.matchAll(emit)) {
      if (sites.length >= MAX_CALLS) break;
      const open = this.code.indexOf('(', match.index);
      sites.push({ at: match.index, argument: argumentsAt(this.code, open, parameters.map((index) => index + 1)), direct: false });
    }
    if (event.startsWith('[')) return sites;
    // An event spelled out, emitted by a name computed at run time (`bus.emit(E, d)`, `const E =
    // ['co', 'de'].join('')`): that event unless the name is spelled out as another's (fail closed).
    let resolved = 0;
    for (const match of this.code.matchAll(/\.\s*emit\s*\(\s*(?!['"`\s])/g)) {
      if (sites.length >= MAX_CALLS) break;
      const open = this.code.indexOf('(', match.index);
      const first = argumentsAt(this.code, open, [0]).trim();
      if (first === '' || first === 'null' || /^['"`]/.test(first) || this.code[open + 1 + first.length] === ')') continue;
      const spelled = ++resolved > MAX_LOOKUPS ? undefined : computedName(this.code, first, match.index);
      if (spelled !== undefined && spelled !== event) continue;
      sites.push({ at: match.index, argument: argumentsAt(this.code, open, parameters.map((index) => index + 1)), direct: false });
    }
    return sites;
  }

  /** Whether `expression` calls `name` as a function whose body (the last declared before `at` within REACH, else the first after) makes a network call. */
  private functionCalls(name: string, expression: string, at: number): boolean {
    const n = escapeName(name);
    if (!new RegExp(String.raw`(?<![\w$.])${n}\s*\(`).test(expression)) return false;
    const from = Math.max(0, at - REACH);
    const declared = new RegExp(String.raw`\bfunction\s*\*?\s*${n}\s*\([^)]{0,200}\)\s*\{|(?<![\w$.])${n}\s*=\s*(?:async\s+)?(?:function\b[^{]{0,200}|\([^)]{0,200}\)\s*=>\s*|[\w$]+\s*=>\s*)\{`, 'g');
    let found: RegExpExecArray | null = null;
    for (const match of this.code.slice(from, at + REACH).matchAll(declared)) {
      if (found !== null && from + match.index > at) break;
      found = match;
    }
    if (found === null) return false;
    const open = from + found.index + found[0].length - 1;
    const close = closing(this.code, open, EXPRESSION_CHARS);
    return this.makesCall(this.code.slice(open, close < 0 ? open + EXPRESSION_CHARS : close));
  }
}

/**
 * Whether code within REACH of a write to the path whose keys are `written` loads that path
 * however it is spelled (pathKey): `require(p)` or `import(p)`, a worker or `fork` started on it,
 * or a process that runs node with it among its arguments (`exec('node ' + p)`,
 * `spawn(process.execPath, [p])`). The loads read are bounded per write.
 */
function loadsWritten(code: string, written: readonly string[], at: number): boolean {
  if (written.length === 0) return false;
  const from = Math.max(0, at - REACH);
  const window = code.slice(from, at + REACH);
  let resolved = 0;
  const loads = (path: string, place: number): boolean => {
    const keys = /^[\w$]+$/.test(path) && ++resolved <= MAX_NAMES ? pathKeys(code, path, place) : [pathKey(path)];
    return keys.some((key) => written.includes(key));
  };
  for (const pattern of [LOAD, WORKER]) {
    let seen = 0;
    for (const match of window.matchAll(pattern)) {
      if (++seen > MAX_CALLS * 4) break;
      const open = from + match.index + match[0].length - 1;
      const path = argumentsAt(code, open, [0]).trim();
      if (path !== '' && path.length <= 200 && loads(path, from + match.index)) return true;
    }
  }
  let seen = 0;
  for (const match of window.matchAll(PROCESS_CALL)) {
    if (++seen > MAX_CALLS * 4) break;
    const open = from + match.index + match[0].length - 1;
    if (match[1] === 'fork') {
      const path = argumentsAt(code, open, [0]).trim();
      if (path !== '' && path.length <= 200 && loads(path, from + match.index)) return true;
      continue;
    }
    const close = closing(code, open, EXPRESSION_CHARS);
    const args = code.slice(open + 1, close < 0 ? open + EXPRESSION_CHARS : close);
    if (!RUNS_NODE.test(args)) continue;
    const key = pathKey(args);
    if (written.some((w) => keyWithin(key, w))) return true;
  }
  return false;
}

/** The objects a member of which was given an evaluation (HELD_EVALUATION, HELD_ENTRY), with those members; at most MAX_NAMES objects. */
function heldEvaluations(code: string): Map<string, Set<string>> {
  const held = new Map<string, Set<string>>();
  // Only where an evaluation ends a value (`= eval;`, `{ run: eval }`): the patterns below read the text whole.
  if (![...code.matchAll(EVALUATION_GIVEN)].some((m) => /[=:{,]\s*(?:[\w$]+\s*\.\s*)?$/.test(code.slice(Math.max(0, m.index - 40), m.index)))) return held;
  const add = (holder: string, member: string): void => {
    const members = held.get(holder);
    if (members !== undefined) {
      if (members.size < MAX_NAMES) members.add(member);
    }
    else if (held.size < MAX_NAMES && !NOT_NAMES.has(holder)) held.set(holder, new Set([member]));
  };
  for (const match of code.matchAll(HELD_EVALUATION)) add(match[1]!, (match[2] ?? match[3])!);
  for (const match of code.matchAll(OBJECT_LITERAL)) {
    if (!/eval|Function|runIn|compileFunction/.test(match[2]!)) continue;
    for (const entry of match[2]!.matchAll(HELD_ENTRY)) add(match[1]!, (entry[1] ?? entry[2])!);
  }
  return held;
}

/**
 * The objects whose members looked up by a computed name and called are evaluations unless the
 * name is spelled out as another member: the shared objects, vm (by its names), module, and the
 * objects given an evaluation. `evaluators` tells, for a match of `pattern`, the members that evaluate.
 */
function computedReceivers(code: string, holders: ReadonlyMap<string, ReadonlySet<string>>): { pattern: RegExp; evaluators: (match: RegExpExecArray) => ReadonlySet<string> } {
  const vm = new Set(['vm']);
  for (const match of code.includes('vm') ? code.matchAll(VM_BINDING) : []) {
    if (vm.size >= MAX_NAMES) break;
    vm.add((match[1] ?? match[2])!);
  }
  const names = (set: Iterable<string>) => [...set].map(escapeName).join('|');
  const held = [...holders.keys()].filter((holder) => !vm.has(holder) && holder !== 'module');
  const pattern = new RegExp(
    String.raw`(?<![\w$.])(?:(${SHARED_OBJECTS})|(${names(vm)})|(module)${held.length > 0 ? String.raw`|(${names(held)})` : ''})\s*\[|(${VM_OBJECT})\s*\[`,
    'g',
  );
  return {
    pattern,
    evaluators: (match) =>
      match[1] !== undefined ? GLOBAL_EVALUATORS : match[2] !== undefined || match.at(-1) !== undefined ? VM_EVALUATORS : match[3] !== undefined ? MODULE_EVALUATORS : (holders.get(match[4]!) ?? GLOBAL_EVALUATORS),
  };
}

/** Whether the code evaluates what a network call answered (see the module's comment); `text` is comment-free. */
export function evaluatesDownloaded(text: string): boolean {
  const reader = new Reader(withoutLongStrings(text));
  const { code } = reader;
  const sites: Site[] = [];
  // A budget spent is not a file cleared: decoy evaluations or evaluators placed before the one
  // that runs the download would otherwise hide it, so a file whose evaluations were not all
  // followed is taken as linked (the caller asks only of a file that uses the network).
  let unread = false;
  for (const match of code.matchAll(EVALUATION)) {
    if (sites.length >= MAX_EVALUATIONS) {
      unread = true;
      break;
    }
    const open = match.index + match[0].length - 1;
    const close = closing(code, open, EXPRESSION_CHARS);
    sites.push({ at: match.index, argument: code.slice(open + 1, close < 0 ? open + EXPRESSION_CHARS : close), direct: true });
  }
  // `const e = eval; e(d)`: the calls of a name given the evaluation, after it (a name of one or
  // two characters within SHORT_NAME_REACH: a minifier's is another function's variable further on).
  let aliases = 0;
  for (const alias of code.matchAll(EVALUATION_ALIAS)) {
    if (++aliases > MAX_NAMES) break;
    const name = alias[1]!;
    const from = alias.index + alias[0].length;
    const end = name.length <= 2 ? from + SHORT_NAME_REACH : code.length;
    for (const call of code.slice(from, end).matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(name)}\s*\(`, 'g'))) {
      if (sites.length >= MAX_EVALUATIONS) {
        unread = true;
        break;
      }
      const open = from + call.index + call[0].length - 1;
      const close = closing(code, open, EXPRESSION_CHARS);
      sites.push({ at: from + call.index, argument: code.slice(open + 1, close < 0 ? open + EXPRESSION_CHARS : close), direct: true });
    }
  }
  const direct = sites.length;
  // `globalThis[name](d)`, `const run = global[k]; run(d)`: a member of a shared object looked up
  // by a name the text does not spell out may be eval (fail closed; the caller asks only of a
  // file that uses the network); one spelled out (`const k = 'log'`) is what it names. Not an
  // argument parsed as JSON: eval of an object is the object.
  // The same for vm (`vm[k](d)`, vm required inline), module (its `_compile`) and an object a
  // member of which was given an evaluation (`loader.run = eval; loader[k](d)`), whose members so
  // given are evaluations when called by name too (`loader.run(d)`).
  const holders = heldEvaluations(code);
  for (const [holder, members] of holders) {
    for (const member of members) {
      for (const call of code.matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(holder)}\s*\.\s*${escapeName(member)}\s*\(`, 'g'))) {
        if (sites.length >= MAX_EVALUATIONS * 2) {
          unread = true;
          break;
        }
        const open = call.index + call[0].length - 1;
        const close = closing(code, open, EXPRESSION_CHARS);
        sites.push({ at: call.index, argument: code.slice(open + 1, close < 0 ? open + EXPRESSION_CHARS : close), direct: false });
      }
    }
  }
  const receivers = computedReceivers(code, holders);
  let computed = 0;
  let resolved = 0;
  for (const match of code.matchAll(receivers.pattern)) {
    const open = match.index + match[0].length - 1;
    const close = closing(code, open, 200);
    if (close < 0) continue;
    const name = ++resolved > MAX_LOOKUPS ? undefined : computedName(code, code.slice(open + 1, close), match.index);
    if (name !== undefined && !receivers.evaluators(match).has(name)) continue;
    const called = /^\s*\(/.exec(code.slice(close + 1, close + 20));
    const alias = called === null ? /(?<![\w$.])([\w$]+)\s*=\s*$/.exec(code.slice(Math.max(0, match.index - 60), match.index)) : null;
    if (called === null && alias === null) continue;
    if (++computed > MAX_EVALUATIONS) {
      unread = true;
      break;
    }
    const calls = called !== null ? [close + called[0].length] : [];
    if (alias !== null) {
      const aliasName = alias[1]!;
      const end = aliasName.length <= 2 ? close + SHORT_NAME_REACH : code.length;
      for (const call of code.slice(close, end).matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(aliasName)}\s*\(`, 'g'))) {
        if (calls.length >= MAX_CALLS) break;
        calls.push(close + call.index + call[0].length - 1);
      }
    }
    for (const call of calls) {
      const end = closing(code, call, EXPRESSION_CHARS);
      const argument = code.slice(call + 1, end < 0 ? call + EXPRESSION_CHARS : end);
      if (!/^\s*JSON\s*\.\s*parse\s*\(/.test(argument)) sites.push({ at: match.index, argument, direct: false });
    }
  }
  // Code handed to node as text (`execSync('node -e ' + d)`) or to a worker made with `eval: true`.
  let processes = 0;
  for (const match of code.matchAll(PROCESS_CALL)) {
    if (match[1] === 'fork') continue;
    const open = match.index + match[0].length - 1;
    const close = closing(code, open, EXPRESSION_CHARS);
    const args = code.slice(open + 1, close < 0 ? open + EXPRESSION_CHARS : close);
    if (!RUNS_NODE.test(args) || !NODE_EVAL.test(args)) continue;
    if (++processes > MAX_CALLS) break;
    sites.push({ at: match.index, argument: args, direct: false });
  }
  let workers = 0;
  for (const match of code.matchAll(WORKER)) {
    if (++workers > MAX_CALLS) break;
    const open = match.index + match[0].length - 1;
    if (/\beval\s*:\s*true\b/.test(argumentsAt(code, open, [1]))) sites.push({ at: match.index, argument: argumentsAt(code, open, [0]), direct: false });
  }
  // A file written, then loaded by the same path (`writeFileSync(p, d); require(p)`): the load
  // runs what was written, so the write is an evaluation of its data, or, inside a network call's
  // callbacks, of the answer (`r.pipe(fs.createWriteStream(p))`).
  let writes = 0;
  for (const write of code.matchAll(FILE_WRITE)) {
    if (++writes > MAX_CALLS) break;
    const open = write.index + write[0].length - 1;
    const path = argumentsAt(code, open, [0]).trim();
    if (path === '' || path.length > 200 || DATA_PATH.test(path)) continue;
    if (/^[\w$]+$/.test(path)) {
      const before = code.slice(Math.max(0, write.index - REACH), write.index);
      let last: RegExpExecArray | null = null;
      for (const match of before.matchAll(new RegExp(String.raw`(?<![\w$.])${escapeName(path)}\s*=(?![=>])`, 'g'))) last = match;
      if (last !== null) {
        const sign = write.index - before.length + last.index + last[0].length;
        if (DATA_PATH.test(code.slice(sign, expressionEnd(code, sign)))) continue;
      }
    }
    if (!loadsWritten(code, pathKeys(code, path, write.index), write.index)) continue;
    sites.push({ at: write.index, argument: write[1] === undefined ? argumentsAt(code, open, [1]) : '', direct: false });
  }
  // Evaluators found so far, by name and by event; each adds its calls to the sites.
  const names = new Set<string>();
  const events = new Map<string, readonly number[]>();
  const handled = new Set<string>();
  let derived = false;
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i]!;
    if (!site.direct && !derived) {
      // The calls of evaluators have a look-up budget of their own.
      derived = true;
      reader.lookups = 0;
    }
    if ((site.direct && reader.near(site.at)) || reader.inSpan(site.at) || reader.downloaded(site.argument, site.at, LINKS)) return true;
    const evaluator = reader.evaluatorAround(site.at, site.argument);
    if (evaluator === undefined) continue;
    if (names.size + events.size >= MAX_EVALUATORS) {
      unread = true;
      continue;
    }
    const found: Site[] = [];
    if (evaluator.name !== undefined && !NOT_NAMES.has(evaluator.name) && !names.has(evaluator.name)) {
      names.add(evaluator.name);
      if (reader.handedOver(evaluator, events)) return true;
      found.push(...reader.callsOf(evaluator));
    }
    if (evaluator.event !== undefined && !events.has(evaluator.event)) events.set(evaluator.event, evaluator.parameters);
    for (const [event, parameters] of events) {
      if (handled.has(event)) continue;
      handled.add(event);
      found.push(...reader.emitsOf(event, parameters));
    }
    if (found.length > MAX_EVALUATIONS * 2 - sites.length) unread = true;
    sites.push(...found.slice(0, MAX_EVALUATIONS * 2 - sites.length));
  }
  let seen = Math.min(direct, MAX_EVALUATIONS);
  for (const match of code.matchAll(EVALUATION_VALUE)) {
    if (++seen > MAX_EVALUATIONS * 2) {
      unread = true;
      break;
    }
    const at = match.index + match[0].length - match[1]!.length;
    if (reader.near(at) || reader.inSpan(at)) return true;
  }
  return unread;
}

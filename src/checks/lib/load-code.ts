/**
 * Reading the code a package's entry module runs when it is loaded (docs/checks.md,
 * `load-time-code`): the module's text with the bodies of the functions that are not run by the
 * load itself blanked, then the install-code reader (js-code.ts) on what is left, keeping only what
 * no library needs to do while it is loaded. A function runs at load when it is called at once
 * (`(function () { … })()`), handed to a call that runs it, inline or by name (a callback of a
 * request, a process, a timer, a promise, an event, an array walk: `https.get(url, (res) => { … })`,
 * `setTimeout(main, 100)`, `list.filter((e) => …)`, parentheses around the callback looked through), or
 * declared or bound to a name and then called by it in code that runs (`function go() { … } go()`,
 * `const go = () => { … }; go()`, `exports.go = function () { … }; exports.go()`; an arrow whose
 * body is an expression, `const go = () => send()`, the same, its body ending where the
 * expression does; an object's
 * method `o.go()`, or any of them by a computed name `o[k]()`); functions in an array walked by a
 * callback that calls each (`[a, b].forEach((f) => f())`, `for (const f of steps) f()`),
 * `Reflect.apply(go, …)`, `go.bind(…)()`; a class's constructor and methods when the code that
 * runs makes it with `new` (a class without a name too: `new (class { … })()`) and calls them;
 * methods set on a constructor's prototype (TypeScript's ES5 classes) likewise;
 * the factories of a bundle's module map (webpack's, ncc's) whose keys its loader is asked for
 * (`__webpack_require__(12)`, a minified `r(12)`, a running module's own loader parameter `n(12)`,
 * the function handed to webpack 5's startup helpers `r.O(0, [736], () => r(12))`), esbuild's wrapped modules when their
 * `require_x()` / `init_x()` is called (minified: `var f = c((e, t) => { … }); f()`), a parcel 1 or 2 bundle's entry modules and those they list as
 * required, parcel 2's registered modules (`parcelRegister("id", function … )`) when asked for (`parcelRequire("id")`). Everything
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
  'forEach', 'map', 'filter', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex', 'flatMap', 'call', 'apply',
]);
/** The characters the structure pass acts on, by code (every other character is passed over as it is met). */
const STRUCTURE = new Uint8Array(128);
for (const c of '"\'`/([)]{}=?:\n;,') STRUCTURE[c.charCodeAt(0)] = 1;
/** How far back `class Name extends Base` is looked for before a `{`. */
const CLASS_HEAD_CHARS = 200;
/** `class Name extends Base` ending where a `{` opens (read on the CLASS_HEAD_CHARS before it). */
const CLASS_HEAD = /(?<![\w$.])class(?:\s+(?!extends\b)([\w$]+))?(?:\s+extends\s+[\w$.]+)?\s*$/;

/**
 * Whether CLASS_HEAD may match the text from `from` to the `{` at `open`: only when the last
 * character before the brace that is not a space is one of `[\w$.]` and a `class` sits between
 * (`lastClass`: where the last `class` that ends before the brace starts, -1 for none) — cheap
 * tests that pass whenever it would match, so it is run at few braces.
 */
function mayBeClassHead(text: string, from: number, open: number, lastClass: number): boolean {
  if (lastClass < from) return false;
  const p = previous(text, open);
  return p >= from && (isName(text[p]) || text[p] === '.');
}

/** Where each `class` in the text starts, in order (one pass). */
function classPositions(text: string): number[] {
  const at: number[] = [];
  for (let k = text.indexOf('class'); k >= 0; k = text.indexOf('class', k + 1)) at.push(k);
  return at;
}
/** Rounds of following names to the functions they call (each one more level of calls). */
const MAX_NAME_ROUNDS = 10;

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
  /** The name a function expression is given (`const go = () => {`, `exports.go = function () {`, `go` of an object `o` assigned by name: `o.go`). */
  binding: string | null;
  /** Its key in an object or a bundle's module map (`12: (module) => {`, `"./src/index.js": function (…) {`). */
  key: string | null;
  /** Where the array literal it is an element of opens (`[function () { … }, …]`), else -1. */
  array: number;
  /** A parcel bundle's module (`"Focm": [function (require, module, exports) { … }, { "./x": "abc" }]`): its id and the ids of the modules it requires. */
  parcel: { id: string; deps: string[] } | null;
  /** The dotted name of the call it is handed to (parentheses around it looked through), else null: `r.O` of webpack's `r.O(0, [736], () => r(12))`. */
  handedTo: string | null;
  /** A bundle's module factory's third parameter (webpack's `(module, exports, require)`, minified `(e, t, n)`): the loader as the module calls it. */
  requireParam: string | null;
  /** Handed to a call after a string (`parcelRegister("iZ3Qp", function (module, exports) { … })`, parcel 2's scope-hoisted modules): the call's name and the string. */
  registered: { via: string; id: string } | null;
}

interface Open {
  char: string;
  pos: number;
  call: boolean;
  /** A call that runs the functions handed to it (RUNNERS). */
  runner: boolean;
  body: FunctionBody | null;
  className: string | null;
  /** An object literal's name (`const o = {`, `exports.o = {`, a key of a named object). */
  objectName: string | null;
  /** Commas met directly inside (an array's elements so far: a bundle's module map by index). */
  commas: number;
  /** An array literal (not an index `a[i]`). */
  literal: boolean;
  /** An array literal's key in the object it is a value of. */
  key: string | null;
  /** A call's dotted name, once read (handedTo). */
  callee?: string;
  /**
   * The bracket reached from this one by looking out through grouping parentheses, kept when it is
   * pushed so each lookup is one step, however deep the parentheses (a long run of `(((…` read once
   * per function, not once per level): `outerPastGroups` past every `(` that is no call (handedTo),
   * `outerPastPlainGroups` past those with no name before them (callAround). Undefined: this bracket
   * itself; null: none (the groups reach the top).
   */
  outerPastGroups?: Open | null;
  outerPastPlainGroups?: Open | null;
  /** An arrow's expression body: the `?` of conditionals opened directly in it whose `:` is still to come. */
  ternaries?: number;
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
  /** Classes without a name made where they are written (`new (class { … })()`). */
  const madeAtOnce = new Set<string>();
  /** Where the `(` of the last `(…)` closed opened. */
  let lastParens = -1;
  const classes = classPositions(text);
  /** How many of `classes` end before the brace being read. */
  let classesBefore = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 128 || STRUCTURE[code] === 0) continue;
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i) - 1;
    } else if (c === '/') {
      if (regexStarts(text, i)) i = regexEnd(text, i) - 1;
    } else if (c === '(' || c === '[') {
      const p = previous(text, i);
      const callee = p >= 0 && isName(text[p]) ? nameEndingAt(text, p) : '';
      const call = c === '(' && p >= 0 && (callee !== '' ? !NOT_CALLERS.has(callee) : text[p] === ')' || text[p] === ']');
      const literal = c === '[' && (p < 0 || (!isName(text[p]) && text[p] !== ')' && text[p] !== ']') || NOT_CALLERS.has(callee));
      // A named array (`const steps = [a, b]`): its elements are `steps.0`, `steps.1`, … for the calls by a computed name.
      const { binding: objectName, key } = literal ? assignedTo(text, i, stack) : { binding: null, key: null };
      const opened: Open = { char: c, pos: i, call, runner: call && RUNNERS.has(callee), body: null, className: null, objectName, commas: 0, literal, key };
      if (c === '(' && !call) {
        const parent = stack.at(-1);
        opened.outerPastGroups = parent === undefined ? null : pastGroups(parent);
        opened.outerPastPlainGroups = callee === '' ? (parent === undefined ? null : pastPlainGroups(parent)) : undefined;
      }
      stack.push(opened);
    } else if (c === '=' && text[i + 1] === '>') {
      // An arrow whose body is an expression (`const f = (a) => fetch(a)`): a body like a block's, up to where the expression ends.
      if (text[next(text, i + 2)] !== '{') {
        const body = bodyOpening(text, i + 2, stack, lastParens);
        if (body !== null) {
          body.open = i + 1;
          bodies.push(body);
          stack.push({ char: '=>', pos: i + 1, call: false, runner: false, body, className: null, objectName: null, commas: 0, literal: false, key: null });
        }
      }
      i += 1;
    } else if (c === '?') {
      // `??` and `??=` are no conditional; `?.` is optional chaining unless a digit follows (`a ?.5 : 1`).
      if (text[i + 1] === '?') i += 1;
      else if (text[i + 1] === '.' && !/[0-9]/.test(text[i + 2] ?? '')) i += 1;
      else {
        const top = stack.at(-1);
        if (top?.char === '=>') top.ternaries = (top.ternaries ?? 0) + 1;
      }
    } else if (c === ':') {
      endAtColon(i, stack);
    } else if (c === '\n') {
      if (stack.at(-1)?.char === '=>' && endsLine(text, i)) endExpressions(text, i, stack);
    } else if (c === ';') {
      endExpressions(text, i, stack);
    } else if (c === ',') {
      endExpressions(text, i, stack);
      const top = stack.at(-1);
      if (top !== undefined) top.commas += 1;
    } else if (c === ')' || c === ']') {
      endExpressions(text, i, stack);
      const open = stack.pop();
      if (open?.char !== (c === ')' ? '(' : '[')) return null;
      if (c === ')') lastParens = open.pos;
      // An array literal walked by a callback that calls each element (`[function () { … }].forEach((f) => f())`): its functions run.
      else if (open.literal && text[next(text, i + 1)] === '.' && WALKED_AFTER.test(text.slice(i + 1, i + 1 + WALK_CHARS))) {
        for (let b = bodies.length - 1; b >= 0 && bodies[b]!.open > open.pos; b -= 1) if (bodies[b]!.array === open.pos) bodies[b]!.runs = true;
      }
    } else if (c === '{') {
      const body = bodyOpening(text, i, stack, lastParens);
      if (body !== null) bodies.push(body);
      const from = Math.max(0, i - CLASS_HEAD_CHARS);
      while (classesBefore < classes.length && classes[classesBefore]! <= i - 5) classesBefore += 1;
      const lastClass = classesBefore > 0 ? classes[classesBefore - 1]! : -1;
      const head = body === null && mayBeClassHead(text, from, i, lastClass) ? CLASS_HEAD.exec(text.slice(from, i)) : null;
      const className = head === null ? null : (head[1] ?? anonymousClass(text, from + head.index, i, stack, madeAtOnce));
      const objectName = body === null && head === null ? assignedTo(text, i, stack).binding : null;
      stack.push({ char: '{', pos: i, call: false, runner: false, body, className, objectName, commas: 0, literal: false, key: null });
    } else if (c === '}') {
      endExpressions(text, i, stack);
      const open = stack.pop();
      if (open?.char !== '{') return null;
      if (open.body !== null) {
        open.body.close = i;
        if (calledAtOnce(text, i)) open.body.runs = true;
        if (open.body.parcel !== null) open.body.parcel.deps = parcelDeps(text, i);
      }
    }
  }
  endExpressions(text, text.length, stack);
  if (stack.length > 0) return null;
  if (bodies.some((b) => b.parcel !== null)) runParcel(text, bodies);
  return followNames(text, bodies, madeAtOnce);
}

/**
 * The arrows with an expression for a body that end at `at` (a `,`, `;`, closing bracket or
 * line end where the expression stops, or the text's end): their bodies close there. One wrapped in
 * parentheses called where they close (`(() => go())()`, `(() => go()).call(this)`) runs.
 */
function endExpressions(text: string, at: number, stack: Open[]): void {
  let outermost: FunctionBody | null = null;
  while (stack.at(-1)?.char === '=>') {
    outermost = stack.pop()!.body!;
    outermost.close = at;
  }
  const paren = stack.at(-1);
  if (outermost === null || text[at] !== ')' || paren?.char !== '(' || paren.call) return;
  const a = next(text, at + 1);
  if (text[a] === '(' || text.startsWith('.call(', a) || text.startsWith('.apply(', a)) outermost.runs = true;
}

/**
 * A `:` met directly in arrows' expression bodies: it belongs to the innermost one's own
 * conditional when it opened one (`() => a ? b : c`); otherwise it is the `:` of a conditional
 * the arrows sit in (`cond ? () => a : b`), and their bodies end before it — the alternative
 * `b` is the enclosing expression's, run when that runs.
 */
function endAtColon(at: number, stack: Open[]): void {
  for (let top = stack.at(-1); top?.char === '=>'; top = stack.at(-1)) {
    if ((top.ternaries ?? 0) > 0) {
      top.ternaries! -= 1;
      return;
    }
    stack.pop()!.body!.close = at;
  }
}

/** Characters after which a line goes on (an operator, a `.`, a `,` or the arrow itself). */
const GOES_ON_BEFORE = new Set([...'=+-*/%&|^!?:,<>~.']);
/** Characters that carry the line before on when they start the next (as JavaScript reads it, no `;` is assumed before them). */
const GOES_ON_AFTER = new Set([...'.?:+-*/%&|^=<>,([`']);

/**
 * Whether an expression stops at the line end at `at` (as JavaScript's semicolon insertion reads
 * it, for the common cases). Only the first line end of a run of blank lines is read (the others
 * say the same), so a run costs one walk over it.
 */
function endsLine(text: string, at: number): boolean {
  let p = at - 1;
  while (text[p] === ' ' || text[p] === '\t' || text[p] === '\r') p -= 1;
  if (p < 0 || text[p] === '\n') return false;
  const n = next(text, at);
  return n < text.length && !GOES_ON_BEFORE.has(text[p]!) && !GOES_ON_AFTER.has(text[n]!) && !/^(?:instanceof|in)\b/.test(text.slice(n, n + 11));
}

/** What follows a parcel module's function: its map of required paths to module ids, and the array's end. */
const PARCEL_DEPS = /^\s*,\s*\{([^{}]{0,5000})\}\s*\]/;
const PARCEL_DEP = /:\s*(?:"([^"\n]{1,300})"|'([^'\n]{1,300})'|(\d+))/g;

function parcelDeps(text: string, close: number): string[] {
  const map = PARCEL_DEPS.exec(text.slice(close + 1, close + 5100));
  return map === null ? [] : [...map[1]!.matchAll(PARCEL_DEP)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/**
 * A parcel bundle's entry ids: parcel 1's `parcelRequire = (function (modules, cache, entry,
 * globalName) { … })({ … }, {}, ["Focm"], null)`, parcel 2's (without scope hoisting) `(function
 * (modules, entry, mainEntry, parcelRequireName, globalName) { … })({ … }, ["gLLPy"], "gLLPy",
 * "parcelRequire94c2")`.
 */
const PARCEL_ENTRY = /\}\s*,\s*\{\s*\}\s*,\s*\[([^[\]]{0,2000})\]\s*(?:,\s*(?:null|"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const PARCEL2_ENTRY = /\}\s*,\s*\[([^[\]]{0,2000})\]\s*,\s*(?:null|"[^"\n]{0,300}"|'[^'\n]{0,300}')\s*,\s*(["'])parcelRequire[\w$]{0,40}\2/g;

/** The modules of a parcel bundle that run: its entries and, from them, the modules each lists as required. */
function runParcel(text: string, bodies: readonly FunctionBody[]): void {
  const entry = [...text.matchAll(PARCEL_ENTRY)].at(-1) ?? [...text.matchAll(PARCEL2_ENTRY)].at(-1);
  if (entry === undefined) return;
  const byId = new Map(bodies.filter((b) => b.parcel !== null).map((b) => [b.parcel!.id, b]));
  const queue = [...entry[1]!.matchAll(/"([^"\n]{1,300})"|'([^'\n]{1,300})'|(\d+)/g)].map((m) => (m[1] ?? m[2] ?? m[3])!);
  const seen = new Set<string>();
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    const body = byId.get(id);
    if (seen.has(id) || body === undefined) continue;
    seen.add(id);
    body.runs = true;
    queue.push(...body.parcel!.deps);
  }
}

/** A walk whose callback calls each element: `.forEach((f) => f())`, `.map(function (fn) { return fn(); })`. */
const WALKED_AFTER =
  /^\s*\.\s*(?:forEach|map|filter|some|every|flatMap|find)\s*\(\s*(?:async\s+)?(?:function\s*[\w$]*\s*)?\(?\s*([\w$]+)\s*(?:,[^()]{0,80})?\)?\s*(?:=>)?\s*\{?\s*(?:return\s+)?(?:await\s+)?\1\s*(?:\.\s*(?:call|apply)\s*)?\(/;
/** How far after an array literal's `]` the walk is looked for. */
const WALK_CHARS = 200;

/**
 * The name of a class written without one: the name it is bound to (`const X = class {`), or, when
 * it is made where it is written (`new (class { … })()`, `new class { … }()`), a name of its own
 * recorded in `madeAtOnce`.
 */
function anonymousClass(text: string, classAt: number, open: number, stack: readonly Open[], madeAtOnce: Set<string>): string | null {
  let j = previous(text, classAt);
  while (j >= 0 && text[j] === '(') j = previous(text, j);
  if (j >= 2 && nameEndingAt(text, j) === 'new') {
    const name = `new class@${open}`;
    madeAtOnce.add(name);
    return name;
  }
  const { binding } = assignedTo(text, classAt, stack);
  return binding !== null && !binding.includes('.') ? binding : null;
}

/** `module.exports…` spelled `exports…` (the regular expression run only on a name that starts so). */
function exportsSpelled(name: string): string {
  return name.startsWith('module.exports') ? name.replace(/^module\.exports\b/, 'exports') : name;
}

/** The dotted name that ends at `end` (inclusive), `module.exports.x` spelled `exports.x`. */
function dottedEndingAt(text: string, end: number): string {
  let j = end;
  while (j >= 0 && (isName(text[j]) || text[j] === '.')) j -= 1;
  return exportsSpelled(text.slice(j + 1, end + 1));
}

/**
 * What the expression that starts at `start` is assigned to: the name before `=`, or its key in
 * an object literal (`key:`; the object's name joined to it when the object has one). Parentheses
 * wrapped around the expression are looked through (`12: ((module) => {`). `skip`: how many of the
 * innermost open brackets to pass over (the call and object the expression sits in).
 */
function assignedTo(text: string, start: number, stack: readonly Open[], skip = 0): { binding: string | null; key: string | null; array?: number; arrayKey?: string | null } {
  let j = previous(text, start);
  let depth = 1 + skip;
  while (j >= 0 && text[j] === '(' && stack.at(-depth)?.pos === j) {
    depth += 1;
    j = previous(text, j);
  }
  if (j < 1) return { binding: null, key: null };
  if (text[j] === '=' && !'=!<>+-*/%&|^?'.includes(text[j - 1]!)) {
    const name = dottedEndingAt(text, previous(text, j));
    return { binding: /^[\w$]+(?:\.[\w$]+)*$/.test(name) && !name.startsWith('this.') ? name : null, key: null };
  }
  const container = stack.at(-depth);
  // An element of an array: its index (webpack 4's module map `[function (module, exports, require) {…}, …]`).
  if ((text[j] === '[' || text[j] === ',') && container?.char === '[') {
    const key = String(container.commas);
    return { binding: container.objectName !== null ? `${container.objectName}.${key}` : null, key, array: container.literal ? container.pos : -1, arrayKey: container.key };
  }
  if (text[j] !== ':' || container?.char !== '{' || container.body !== null) return { binding: null, key: null };
  const k = previous(text, j);
  const key = text[k] === '"' || text[k] === "'" ? /(["'])([^"'\n]{1,300})\1$/.exec(text.slice(Math.max(0, k - 301), k + 1))?.[2] ?? null : nameEndingAt(text, k) || null;
  return { binding: key !== null && container.objectName !== null ? `${container.objectName}.${key}` : null, key };
}

/** Where the function whose parameters open at `params` (or whose single parameter ends just before `=>`) starts, `async` included. */
function expressionStart(text: string, at: number): number {
  const p = previous(text, at);
  return p >= 4 && nameEndingAt(text, p) === 'async' ? p - 4 : at;
}

/** `params`: where the `(` of the last `(…)` closed opened (the parameters, when `)` precedes this `{`). */
function bodyOpening(text: string, i: number, stack: readonly Open[], params: number): FunctionBody | null {
  const outer = stack.at(-1);
  const p = previous(text, i);
  const body = (name: string | null, method: FunctionBody['method'] = null, nameAt = -1, start = -1): FunctionBody => {
    const { binding, key, array = -1, arrayKey = null } = start >= 0 ? assignedTo(text, start, stack) : { binding: null, key: null };
    return {
      open: i,
      close: -1,
      // A function handed to a call that runs it (a callback of a request, a process, a timer, a promise, an array walk), wrapped in parentheses or not (`.filter((e => …))`, as minifiers write it).
      runs: callAround(stack)?.runner === true,
      name,
      method,
      nameAt,
      binding: binding ?? wrapped(text, start, stack, key).binding,
      key,
      array,
      parcel: key === '0' && arrayKey !== null ? { id: arrayKey, deps: [] } : null,
      handedTo: handedTo(text, stack),
      requireParam: key === null || params < 0 ? null : (FACTORY_PARAMS.exec(text.slice(params, params + 200))?.[1] ?? null),
      registered: start < 0 ? null : registered(text, start, stack),
    };
  };
  if (p >= 1 && text[p] === '>' && text[p - 1] === '=') {
    const a = previous(text, p - 1);
    if (text[a] === ')' && params >= 0) return body(null, null, -1, expressionStart(text, params));
    const name = nameEndingAt(text, a);
    return body(null, null, -1, name === '' ? -1 : expressionStart(text, a - name.length + 1));
  }
  if (p < 0 || text[p] !== ')' || params < 0) return null;
  const q = previous(text, params);
  const word = nameEndingAt(text, q);
  if (word === 'function') return body(null, null, -1, expressionStart(text, q - word.length + 1));
  if (word === '' && (text[q] === '"' || text[q] === "'")) return bundledModule(text, stack, body(null));
  if (word === '' || CONTROL.has(word)) return null;
  const before = nameEndingAt(text, previous(text, q - word.length + 1));
  const nameAt = q - word.length + 1;
  if (before === 'function') return body(word, null, nameAt, expressionStart(text, previous(text, nameAt) - before.length + 1));
  if (outer?.className != null) return body(null, { className: outer.className, name: word }, nameAt);
  // An object's method (`go() {`): named after the object, when it has a name.
  const method = body(null, null, nameAt);
  if (outer?.char === '{' && outer.objectName !== null) method.binding = `${outer.objectName}.${word}`;
  return method;
}

/**
 * esbuild's module wrappers (`var require_x = __commonJS({ "x.js"(exports, module) { … } })`,
 * `var init_x = __esm({ "x.js"() { … } })`): the body runs when the name is called
 * (`require_x()`). Any other string-keyed method is read as run, as before (null: not a body).
 */
function bundledModule(text: string, stack: readonly Open[], body: FunctionBody): FunctionBody | null {
  const object = stack.at(-1);
  const call = stack.at(-2);
  if (object?.char !== '{' || object.body !== null || call?.char !== '(' || !call.call) return null;
  const end = previous(text, call.pos);
  const callee = nameEndingAt(text, end);
  if (callee !== '__commonJS' && callee !== '__esm') return null;
  const { binding } = assignedTo(text, end - callee.length + 1, stack, 2);
  if (binding === null) return null;
  body.binding = binding;
  return body;
}

/** A function handed to a call right after a string argument (`r("iZ3Qp", function (e, t) {`): the call's name and the string. */
function registered(text: string, start: number, stack: readonly Open[]): FunctionBody['registered'] {
  const p = previous(text, start);
  if (text[p] !== ',') return null;
  const via = handedTo(text, stack);
  const id = via === null ? undefined : /(["'])([^"'\n]{1,300})\1\s*$/.exec(text.slice(Math.max(0, p - 302), p))?.[2];
  return via === null || id === undefined ? null : { via, id };
}

/**
 * The bracket a function opening now sits in directly, parentheses that only group looked through
 * (`a.filter((e) => …)`, `a.reduce(((e, t) => …), {})`: a minifier's output): the call it is an
 * argument of, when it is one. Only a `(` after no name is a group (`if (` is no group: its
 * condition is the statement's, not a call's).
 */
function callAround(stack: readonly Open[]): Open | undefined {
  const top = stack.at(-1);
  return top === undefined ? undefined : (pastPlainGroups(top) ?? undefined);
}

/** `open`, or the bracket its grouping parentheses (with no name before them) sit in (`outerPastPlainGroups`). */
function pastPlainGroups(open: Open): Open | null {
  return open.outerPastPlainGroups === undefined ? open : open.outerPastPlainGroups;
}

/** `open`, or the bracket its parentheses that are no call sit in (`outerPastGroups`). */
function pastGroups(open: Open): Open | null {
  return open.outerPastGroups === undefined ? open : open.outerPastGroups;
}

/** The dotted name of the call a function opening now is an argument of, parentheses that only group looked through. */
function handedTo(text: string, stack: readonly Open[]): string | null {
  const top = stack.at(-1);
  const call = top === undefined ? undefined : pastGroups(top);
  if (call?.char !== '(' || !call.call) return null;
  // Read once for each call, however many functions are handed to it.
  call.callee ??= dottedEndingAt(text, previous(text, call.pos));
  return call.callee === '' ? null : call.callee;
}

/**
 * A function handed as first argument to a call by a plain name whose result is bound to a name
 * (`var require_x = c((exports, module) => { … })`, minified esbuild's `__commonJS`; `const f =
 * once(() => { … })`): it runs when that name is called. `known`: a binding or key found already.
 */
function wrapped(text: string, start: number, stack: readonly Open[], known: string | null): { binding: string | null } {
  const call = stack.at(-1);
  if (known !== null || start < 0 || call?.char !== '(' || !call.call || call.runner || previous(text, start) !== call.pos) return { binding: null };
  const end = previous(text, call.pos);
  const callee = nameEndingAt(text, end);
  if (callee === '' || NOT_CALLERS.has(callee) || text[previous(text, end - callee.length + 1)] === '.') return { binding: null };
  const { binding } = assignedTo(text, end - callee.length + 1, stack, 1);
  return { binding: binding !== null && !binding.includes('.') ? binding : null };
}

/** A function expression called where it ends: `}()`, `})()`, `}).call(this)`. */
function calledAtOnce(text: string, close: number): boolean {
  const a = next(text, close + 1);
  if (text[a] === '(') return true;
  if (text[a] !== ')') return false;
  const b = next(text, a + 1);
  return text[b] === '(' || text.startsWith('.call(', b) || text.startsWith('.apply(', b);
}

/** A call by a plain name (`go()`, `go.call(…)`), not a declaration's (`function go()`); `(?=[\w$])` first, so the lookbehinds run only where a name starts. */
const CALLED_NAME = /(?=[\w$])(?<![\w$.])(?<!\bfunction\s{0,20}\*?\s{0,20})([\w$]+)\s*(?:\(|\.\s*(?:call|apply)\s*\()/g;
const MADE_CLASS = /\bnew\s+([\w$]+)/g;
/** A call by a (dotted) name: `go()`, `exports.go()`, `o.go.call(…)`. */
const CALLED_DOTTED = /(?<![\w$.])([\w$]+(?:\s*\.\s*[\w$]+)*)\s*\(/g;
/** A bundle's loader: a function of one parameter that calls its map's entry by it (`function r(n) { … e[n](i, i.exports, r) … }`, `modules[moduleId].call(…)`). */
const LOADER_HEAD = /\bfunction\s+([\w$]+)\s*\(\s*([\w$]+)\s*\)\s*$/;
const LOADER_NAMES = ['__webpack_require__', '__nccwpck_require__'];
/** A module factory's three parameters, up to its body: `(e, t, n) => {`, `function (module, exports, __webpack_require__) {`. */
const FACTORY_PARAMS = /^\(\s*[\w$]+\s*,\s*[\w$]+\s*,\s*([\w$]+)\s*\)\s*(?:=>|\{)/;
/** A webpack 5 loader's helpers that run the function handed to them: `O` (on chunks loaded) and `X` (startup entrypoint). */
const WEBPACK_STARTUPS = ['O', 'X'];

/** A map's entry called by a computed key, from its `[`: `[n](`, `[moduleId].call(`. */
const CALLED_KEY = /\[\s*([\w$]+)\s*\]\s*(?:\.\s*call\s*)?\(/g;

/**
 * The calls of a map's entry by a computed key: `e[n](`, `modules[moduleId].call(` — where each
 * starts, the map's name when it has one (the dotted name before the `[`, spaces between allowed)
 * and the key's. Found from each `[…](` back to the name, so that no name in the text is read
 * unless a key call follows it (as `(?:(?<![\w$.])([\w$][\w$.]*)\s*)?` before CALLED_KEY would
 * match, without trying it at every name).
 */
function calledByKey(text: string): { index: number; map: string | undefined; key: string }[] {
  const found: { index: number; map: string | undefined; key: string }[] = [];
  for (const m of text.matchAll(CALLED_KEY)) {
    const end = previous(text, m.index);
    let start = end;
    while (start >= 0 && (isName(text[start]) || text[start] === '.')) start -= 1;
    start += 1;
    // The map's name starts with a name's character (`.a[k](` has none: the call starts at `[`).
    const named = start <= end && isName(text[start]);
    found.push({ index: named ? start : m.index, map: named ? text.slice(start, end + 1) : undefined, key: m[1]! });
  }
  return found;
}

/** A bundle's loaders (webpack's and ncc's by name, and any function shaped like one) and the names of the maps they call into. */
function loaders(text: string, bodies: readonly FunctionBody[]): { names: string[]; maps: Set<string> } {
  const names = new Set(LOADER_NAMES);
  const maps = new Set<string>();
  const at = new Map<string, { index: number; map: string | undefined }[]>();
  for (const call of calledByKey(text)) {
    const list = at.get(call.key) ?? [];
    list.push({ index: call.index, map: call.map });
    at.set(call.key, list);
  }
  for (const body of bodies) {
    if (body.name === null) continue;
    const head = LOADER_HEAD.exec(text.slice(Math.max(0, body.open - 100), body.open));
    const list = head === null ? undefined : at.get(head[2]!);
    if (list === undefined) continue;
    // The first call by that key after the body opens, if it is before the body closes.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.index < body.open) lo = mid + 1;
      else hi = mid;
    }
    if (lo < list.length && list[lo]!.index < body.close) {
      names.add(head![1]!);
      if (list[lo]!.map !== undefined) maps.add(list[lo]!.map!.replace(/^module\.exports\b/, 'exports'));
    }
  }
  return { names: [...names], maps };
}

/** A call of an object's member by a computed name: `handlers[name](`, `steps[k].call(`. */
const COMPUTED_CALL = /(?<![\w$.])([\w$]+(?:\s*\.\s*[\w$]+)*)\s*\[[^[\]\n]{1,200}\]\s*(?:\.\s*(?:call|apply)\s*)?\(/g;
/** What any match of COMPUTED_CALL holds: a `]` called (`](`, `].call(`). */
const COMPUTED_CALL_END = /\]\s*(?:\.\s*(?:call|apply)\s*)?\(/;

/** The keys of a bundle's module map its loaders are asked for: `__webpack_require__(12)`, `r("./src/x.js")`, `__webpack_require__(__webpack_require__.s = 0)`. */
function requiredKeys(kept: string, names: readonly string[]): Set<string> {
  const name = `(?:${names.map((n) => n.replace(/[$.]/g, '\\$&')).join('|')})`;
  const call = new RegExp(`(?<![\\w$.])${name}\\s*\\(\\s*(?:${name}\\.s\\s*=\\s*)?(?:(\\d+)|(["'])([^"'\\n]{1,300})\\2)\\s*\\)`, 'g');
  return new Set([...kept.matchAll(call)].map((m) => (m[1] ?? m[3])!));
}

/** A call that runs a function handed to it by name (`setTimeout(main, 100)`, `process.on('exit', onExit)`, `.then(main)`): RUNNERS but those that only take values. */
const PASSED_TO_RUNNER = new RegExp(`(?<![\\w$])(?:${[...RUNNERS].filter((name) => !['call', 'apply', 'resolve', 'write', 'end', 'all'].includes(name)).join('|')})\\s*\\(([^()]{0,300})\\)`, 'g');

/** A function run through `Reflect.apply(fn, …)` or bound and called at once (`fn.bind(this)()`). */
const REFLECTED = /\bReflect\s*\.\s*apply\s*\(\s*([\w$]+(?:\s*\.\s*[\w$]+)*)|(?<![\w$.])([\w$]+(?:\s*\.\s*[\w$]+)*)\s*\.\s*bind\s*\([^()]{0,200}\)\s*\(/g;
/** An array walked by a callback that calls each element (`[a, b].forEach((f) => f())`, `steps.map(fn => fn())`). */
const WALKED = new RegExp(`(?<![\\w$.])(?:([\\w$]+(?:\\.[\\w$]+)*)|\\[([^[\\]]{0,300})\\])(?=${WALKED_AFTER.source.slice(1).replace('\\1', '\\3')})`, 'g');
/**
 * What any match of WALKED holds: the walk whose callback calls each element (WALKED_AFTER from its
 * `.`, anywhere). Without WALKED_AFTER's leading `^\s*`: unanchored, a leading `\s*` would rescan a
 * run of blanks from each of its positions (quadratic time on a text of blanks).
 */
const WALK_ANYWHERE = new RegExp(WALKED_AFTER.source.slice('^\\s*'.length));
/** What any match of REFLECTED's second form holds: `.bind(` (its first holds `Reflect`). */
const BIND_CALL = /\.\s*bind\s*\(/;
/** A `for … of` whose body calls each element (`for (const f of [a, b]) f()`). */
const FOR_OF_CALLED = /\bfor\s*(?:await\s*)?\(\s*(?:const|let|var)\s+([\w$]+)\s+of\s+(?:([\w$]+(?:\.[\w$]+)*)|\[([^[\]]{0,300})\])\s*\)\s*\{?\s*(?:await\s+)?\1\s*(?:\.\s*(?:call|apply)\s*)?\(/g;
/** A name bound to another function or to it bound (`const g = main.bind(null)`, `const run = main`). */
const ALIAS = /(?<![\w$.])(?:const|let|var)\s+([\w$]+)\s*=\s*([\w$]+(?:\.[\w$]+)*)(?:\s*\.\s*bind\s*\([^()]{0,200}\))?\s*[;,\n]/g;
/** A named array of names (`const steps = [collect, send]`). */
const NAMED_ARRAY = /(?<![\w$.])(?:const|let|var)\s+([\w$]+)\s*=\s*\[([^[\]{}()]{0,300})\]/g;
/** A method called by a computed name on `this` (`this[step]()`). */
const THIS_COMPUTED = /(?<![\w$.])this\s*\[[^[\]\n]{1,200}\]\s*(?:\.\s*(?:call|apply)\s*)?\(/;

function namesIn(list: string): string[] {
  return list.split(',').map((n) => n.trim().replace(/^module\.exports\b/, 'exports')).filter((n) => /^[\w$]+(?:\.[\w$]+)*$/.test(n));
}

function calledNames(kept: string, arrays: ReadonlyMap<string, string[]>, aliases: ReadonlyMap<string, string>): { names: Set<string>; walked: Set<string> } {
  const names = new Set<string>();
  /** Named arrays whose elements are all called. */
  const walked = new Set<string>();
  const walk = (name: string | undefined, list: string | undefined): void => {
    if (list !== undefined) for (const n of namesIn(list)) names.add(n);
    if (name !== undefined) {
      walked.add(name);
      for (const n of arrays.get(name) ?? []) names.add(n);
    }
  };
  // Each regular expression below is tried only when a cheap one finds what any match of it holds.
  if (WALK_ANYWHERE.test(kept)) for (const m of kept.matchAll(WALKED)) walk(m[1], m[2]);
  for (const m of kept.matchAll(FOR_OF_CALLED)) walk(m[2], m[3]);
  if (kept.includes('Reflect') || BIND_CALL.test(kept)) for (const m of kept.matchAll(REFLECTED)) names.add(exportsSpelled((m[1] ?? m[2])!.replace(/\s+/g, '')));
  for (const m of kept.matchAll(PASSED_TO_RUNNER)) {
    for (const arg of m[1]!.split(',')) {
      const name = exportsSpelled(arg.trim());
      if (/^[\w$]+(?:\.[\w$]+)*$/.test(name)) names.add(name);
    }
  }
  for (const m of kept.matchAll(CALLED_DOTTED)) {
    const name = exportsSpelled(m[1]!.replace(/\s+/g, ''));
    names.add(name.endsWith('.call') || name.endsWith('.apply') ? name.replace(/\.(?:call|apply)$/, '') : name);
  }
  for (const name of [...names]) {
    const target = aliases.get(name);
    if (target !== undefined) names.add(target);
  }
  return { names, walked };
}
const CALLED_METHOD = /\.\s*([\w$]+)\s*\(/g;

/** A method set on a constructor's prototype (`Client.prototype.send = function () { … }`, TypeScript's ES5 classes): it runs, as a class's method does, when the code that runs makes the class and calls the method. */
const PROTOTYPE_METHOD = /^([\w$]+)\.prototype\.([\w$]+)$/;

function prototypeMethodRuns(binding: string, made: ReadonlySet<string>, methods: ReadonlySet<string>): boolean {
  const m = PROTOTYPE_METHOD.exec(binding);
  return m !== null && made.has(m[1]!) && methods.has(m[2]!);
}

function nameLength(text: string, at: number): number {
  let j = at;
  while (isName(text[j])) j += 1;
  return j - at;
}

/** The text from `from` to `to` with the bodies that do not run emptied; `first`: the first body that opens after `from` (bodies are in the order they open). */
function render(text: string, bodies: readonly FunctionBody[], from = 0, to = text.length, first = 0): string {
  let out = '';
  let at = from;
  for (let b = first; b < bodies.length && bodies[b]!.open < to; b += 1) {
    const body = bodies[b]!;
    if (body.runs || body.close < 0 || body.open < at) continue;
    // The name goes with the body (a method named `hostname` is not a call to it).
    if (body.nameAt >= at) out += text.slice(at, body.nameAt) + text.slice(body.nameAt + nameLength(text, body.nameAt), body.open + 1);
    else out += text.slice(at, body.open + 1);
    at = body.close;
  }
  return out + text.slice(at, to);
}

/**
 * The keys a bundle's running modules ask for through their own loader parameter (`12: (e, t, n)
 * => { n(34) }`): each module's running text read once a round; one inside another read with it
 * (by the outer one's name), so no text is read twice.
 */
function requiredByModules(text: string, bodies: readonly FunctionBody[]): Set<string> {
  const keys = new Set<string>();
  let readUntil = -1;
  for (let b = 0; b < bodies.length; b += 1) {
    const body = bodies[b]!;
    if (!body.runs || body.requireParam === null || body.close < 0 || body.open < readUntil) continue;
    readUntil = body.close;
    for (const key of requiredKeys(render(text, bodies, body.open + 1, body.close, b + 1), [body.requireParam])) keys.add(key);
  }
  return keys;
}

/**
 * Parcel 2's scope-hoisted modules (`var parcelRegister = parcelRequire.register;
 * parcelRegister("iZ3Qp", function (module, exports) { … })`, minified `var r = t.register;
 * r("iZ3Qp", function (e, t) { … })`): each gets its id as a key, run when the require its
 * register belongs to is asked for it (`parcelRequire("iZ3Qp")`, `t("iZ3Qp")`). The names of those requires.
 */
function registeredModules(bodies: readonly FunctionBody[], aliases: ReadonlyMap<string, string>): string[] {
  const requires = new Set<string>();
  for (const body of bodies) {
    if (body.registered === null || body.key !== null) continue;
    const { via, id } = body.registered;
    const register = via === 'parcelRegister' ? 'parcelRequire.register' : via.endsWith('.register') ? via : aliases.get(via);
    if (register === undefined || !register.endsWith('.register')) continue;
    body.key = id;
    requires.add(register.slice(0, -'.register'.length));
  }
  return [...requires];
}

/** Functions that the code which runs calls by name run too (a few levels deep). */
function followNames(text: string, bodies: readonly FunctionBody[], madeAtOnce: ReadonlySet<string>): string {
  const aliases = new Map([...text.matchAll(ALIAS)].map((m) => [m[1]!, m[2]!.replace(/^module\.exports\b/, 'exports')]));
  const parcelRequires = registeredModules(bodies, aliases);
  let kept = render(text, bodies);
  const bundle = bodies.some((b) => b.key !== null) ? loaders(text, bodies) : { names: [], maps: new Set<string>() };
  bundle.names.push(...parcelRequires);
  // webpack 5 runs its entry through its loader's startup helpers once the chunks it needs are in: `r.O(0, [736], () => r(12))`, `__webpack_require__.X(0, [736], () => …)`.
  const startups = new Set(bundle.names.flatMap((name) => WEBPACK_STARTUPS.map((helper) => `${name}.${helper}`)));
  for (const body of bodies) if (body.handedTo !== null && startups.has(body.handedTo)) body.runs = true;
  if (startups.size > 0) kept = render(text, bodies);
  const arrays = new Map([...text.matchAll(NAMED_ARRAY)].map((m) => [m[1]!, namesIn(m[2]!)]));
  /** Classes one of whose running methods calls a method by a computed name on `this`: all their methods may be the one. */
  const computedThis = new Set<string>();
  const readForThis = new Set<FunctionBody>();
  for (let round = 0; round < MAX_NAME_ROUNDS; round += 1) {
    const { names: dotted, walked } = calledNames(kept, arrays, aliases);
    const called = new Set([...[...kept.matchAll(CALLED_NAME)].map((m) => m[1]!), ...dotted]);
    const made = new Set([...[...kept.matchAll(MADE_CLASS)].map((m) => m[1]!), ...madeAtOnce]);
    for (const body of bodies) {
      if (!body.runs || body.method === null || readForThis.has(body)) continue;
      readForThis.add(body);
      if (THIS_COMPUTED.test(text.slice(body.open, body.close))) computedThis.add(body.method.className);
    }
    const methods = new Set([...kept.matchAll(CALLED_METHOD)].map((m) => m[1]!));
    const required = bundle.names.length > 0 ? new Set([...requiredKeys(kept, bundle.names), ...requiredByModules(text, bodies)]) : new Set<string>();
    // An object's functions called by a computed name may each be the one called (a bundle's map is followed by key instead).
    const computed = new Set([...(COMPUTED_CALL_END.test(kept) ? [...kept.matchAll(COMPUTED_CALL)] : []).map((m) => exportsSpelled(m[1]!.replace(/\s+/g, ''))).filter((name) => !bundle.maps.has(name)), ...walked]);
    let grew = false;
    for (const body of bodies) {
      if (body.runs) continue;
      const runs =
        (body.method !== null
          ? made.has(body.method.className) && (body.method.name === 'constructor' || methods.has(body.method.name) || computedThis.has(body.method.className))
          : body.name !== null && called.has(body.name)) ||
        (body.binding !== null && (dotted.has(body.binding) || computed.has(body.binding.slice(0, body.binding.lastIndexOf('.'))) || prototypeMethodRuns(body.binding, made, methods))) ||
        (body.key !== null && required.has(body.key));
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

/** The findings kept at load: host data sent, a request catcher, download-and-run, decoded code run, startup persistence, writes into the user's own folders, a shell wired to a socket. */
export type LoadFlag = Extract<CodeFlag, 'exfiltration' | 'beacon' | 'reverse-shell' | 'download-exec' | 'remote-eval' | 'decoded-eval' | 'persistence' | 'user-files'>;
/** The findings that score 0: what no library does, at load or ever, without being asked. */
export const HOSTILE_LOAD_FLAGS: readonly LoadFlag[] = ['exfiltration', 'beacon', 'reverse-shell'];
const LOAD_FLAGS: readonly LoadFlag[] = [...HOSTILE_LOAD_FLAGS, 'download-exec', 'remote-eval', 'decoded-eval', 'persistence', 'user-files'];

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
/** curl or wget run as a command (lib/js-code.ts, SHELL_DOWNLOAD): with an argument or more of the line joined on, or as a program named alone. */
const SHELL_DOWNLOAD = /['"`][^'"`]{0,200}?\b(?:curl|wget)(?:[ \t]+[^\s'"`]|[ \t]*['"`]\s*\+)|(?:\(|[=:])\s*['"`](?:curl|wget)['"`]\s*[,;)}\n]/;
const GLOBAL_THIS = /(?<![\w$.])(?:new\s+)?Function\s*\(\s*(['"`])return this;?\1\s*\)\s*\(\s*\)/g;

/** The text with each string literal that holds a `(` emptied (one pass; regular expression literals skipped). */
function withoutCallsInStrings(text: string): string {
  let out = '';
  let start = 0;
  let i = 0;
  /** The first `(` at or after `i` (-1: none left), looked for again only once `i` has passed it. */
  let paren = text.indexOf('(');
  while (i < text.length) {
    // By the character's code: `"`, `'`, a backtick, `/`.
    const code = text.charCodeAt(i);
    if (code === 34 || code === 39 || code === 96) {
      const end = Math.min(stringEnd(text, i), text.length);
      if (paren >= 0 && paren < i) paren = text.indexOf('(', i);
      if (paren >= 0 && paren < end) {
        const c = text[i]!;
        out += `${text.slice(start, i)}${c}${c}`;
        start = end;
      }
      i = end;
    } else if (code === 47 && regexStarts(text, i)) i = regexEnd(text, i);
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
  // `obfuscated` is no load-time finding (LOAD_FLAGS): not searched for.
  const flags = new Set(readInstallJavaScript(text, { obfuscated: false }).map((f) => f.flag));
  const spawns = CHILD_PROCESS.test(text);
  // A call written inside a string (`"use 'http.request()' instead"`) is text, not a call.
  const code = withoutCallsInStrings(text);
  const sends = (): boolean => sendsAtLoad(code) || (spawns && SHELL_DOWNLOAD.test(text));
  return LOAD_FLAGS.filter((flag) => {
    if (!flags.has(flag)) return false;
    if (flag === 'exfiltration' || flag === 'remote-eval') return sends();
    if (flag === 'persistence') return FILE_WRITE.test(text) || spawns;
    if (flag === 'user-files') return FILE_WRITE.test(text);
    return true;
  });
}

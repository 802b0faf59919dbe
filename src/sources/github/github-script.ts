/**
 * What an `actions/github-script` step outputs (docs/checks.md, `workflow-safety`): the values its
 * script hands to `core.setOutput('<name>', <value>)`, by output name (lower case), and what it
 * `return`s (its `result` output); and whether one of them carries the pull request's head — an
 * expression naming it (`${{ github.event.pull_request.head.sha }}`), the event payload or a
 * pull request the script fetched (`context.payload.pull_request.head.sha`, `pr.data.head.ref`,
 * `….workflow_run.head_sha`), a `process.env` variable set from the head, or an identifier
 * assigned one of those (`headSha = context.payload.pull_request.head.sha`, one level). A head read
 * from the event payload (`context.payload.<object>…`, or `github.event.<object>…` in an expression)
 * is the head only under the triggers whose payload carries that object (workflow-expressions.ts
 * `payloadCarries`: `context.payload.pull_request` is undefined under `issue_comment`); one read
 * from anything else (a fetched pull request) under any trigger. A value from anything else (the
 * base sha, a number) stays safe. The same reading tells whether one carries attacker-written
 * text (`context.payload.pull_request.title`, `….comment.body`, a branch name: `JS_TEXT`; read from
 * the payload, likewise under the triggers whose payload carries it), or the `title` / `body` of a
 * pull request or issue it fetched (an identifier assigned `…pulls.get(…)` / `…issues.get(…)`, or
 * `{ data: pr }` / `{ data }` destructured from one: `pr.data.title`, `pr.title`), for a script
 * injection through the output. The same reading
 * judges the command lines the script runs itself (`COMMAND_CALL`: `exec.exec`, `execSync`…): the
 * first argument, and the second after a shell program (`exec.exec('git', ['checkout', ref])`
 * passes the ref as one argument, no shell: the safe form). Limits: no JS parser — a fetched
 * object passed on through another identifier, a property of it read other than so, or text passed
 * through two identifiers (`a = body; cmd = 'echo ' + a`), is not followed.
 *
 * Pure, and linear in the script's length: calls and `return`s are found with indexOf, each value
 * read at most `MAX_VALUE_CHARS` characters, assignments collected in one pass, and each
 * identifier judged once.
 */
import { payloadCarries } from './workflow-expressions.js';

/** Characters of one value (a `setOutput` argument, a `return`, an assignment's right side) read at most. */
export const MAX_VALUE_CHARS = 300;

/**
 * The pull request's head in script code: a payload or a fetched pull request's `head`, a workflow
 * run's head. Case-sensitive, as script properties are (`process.env.HEAD_SHA` is a variable, read
 * through the step's `env:`).
 */
const JS_HEAD = /\.head\.(?:sha|ref|repo\.full_name)\b|\.head_(?:sha|branch)\b|\.head_commit\.id\b/g;
/**
 * The event payload's object a head read starts from, on the text just before the read:
 * `context.payload.pull_request`, `payload.workflow_run.pull_requests[0]`, `github.event.pull_request`
 * (an expression in the script). Anchored at the end of a bounded slice (`PAYLOAD_LOOKBACK`).
 */
const PAYLOAD_OBJECT = /(?:\bpayload|\bgithub\.event)\.(\w+)(?:\.pull_requests(?:\.\w+|\[\w*\]))?$/i;
/** Characters before a head read searched for the payload object it reads. */
const PAYLOAD_LOOKBACK = 64;

/**
 * Whether script code reads the pull request's head under one of `triggers` (null: any): a head
 * read from the payload counts under the triggers whose payload carries its object
 * (`payloadCarries`), any other (a fetched pull request's, one not read here) under every trigger.
 */
function jsNamesHead(text: string, triggers: readonly string[] | null): boolean {
  for (const m of text.matchAll(JS_HEAD)) {
    if (triggers === null) return true;
    const object = PAYLOAD_OBJECT.exec(text.slice(Math.max(0, m.index - PAYLOAD_LOOKBACK), m.index));
    if (object === null || payloadCarries((object[1] ?? '').toLowerCase(), triggers)) return true;
  }
  return false;
}
/**
 * Attacker-written text in script code: a payload's (or a fetched) issue, pull request, comment,
 * review or discussion title or body (the object captured), a branch name, a commit message.
 * Case-sensitive, as `JS_HEAD`.
 */
const JS_TEXT =
  /\b(issue|pull_request|comment|review|review_comment|discussion)\.(?:title|body)\b|\.head\.(?:ref|label)\b|\.head_branch\b|\.display_title\b|\.(?:head_commit|commit)\.message\b|\bpayload\.commits\b/g;
/** The event payload right before an object's name (`context.payload.` before `issue.title`). */
const PAYLOAD_PREFIX = /(?:\bpayload|\bgithub\.event)\.$/;

/**
 * Whether script code reads attacker-written text under one of `triggers` (null: any): text read
 * from the payload (`context.payload.pull_request.title`, `….pull_request.head.ref`) under the
 * triggers whose payload carries its object, any other (a fetched pull request's) under every
 * trigger.
 */
function jsNamesText(text: string, triggers: readonly string[] | null): boolean {
  for (const m of text.matchAll(JS_TEXT)) {
    if (triggers === null) return true;
    const before = text.slice(Math.max(0, m.index - PAYLOAD_LOOKBACK), m.index);
    const object = m[1] !== undefined ? (PAYLOAD_PREFIX.test(before) ? m[1] : null) : (PAYLOAD_OBJECT.exec(before)?.[1] ?? null);
    if (object === null || payloadCarries(object.toLowerCase(), triggers)) return true;
  }
  return false;
}
/** What an output is judged for: the pull request's head, or attacker-written text. */
export type Carried = 'head' | 'text';

/** Whether script code reads what is judged (`carried`) under one of `triggers` (null: any). */
function jsCarries(text: string, carried: Carried, triggers: readonly string[] | null): boolean {
  return carried === 'head' ? jsNamesHead(text, triggers) : jsNamesText(text, triggers);
}
const PROCESS_ENV = /\bprocess\.env\.([A-Za-z_]\w*)/g;
/** An identifier that starts where no identifier or property access does. */
const IDENTIFIER = /(?<![\w$.])[A-Za-z_$][\w$]*/g;
/** `name = value` (not `==`, `=>`): the identifier and where its value starts. */
const ASSIGNMENT = /(?<![\w$.])([A-Za-z_$][\w$]*)[ \t]*=(?![=>])/g;
/** A call fetching a pull request or an issue (`github.rest.pulls.get(`, `github.issues.get(`): its `title` and `body` are attacker text. */
const FETCH_CALL = /\b(?:pulls|issues)\.get[ \t]*\(/;
/** `{ data }` or `{ data: pr }` destructured from a call: the identifier holding the fetched object. */
const DESTRUCTURED_DATA = /\{[ \t]*data(?:[ \t]*:[ \t]*([A-Za-z_$][\w$]*))?[ \t]*\}[ \t]*=(?![=>])/g;
/** `<identifier>.title` / `.body`, or `<identifier>.data.title` / `.data.body`. */
const FETCHED_TEXT = /(?<![\w$.])([A-Za-z_$][\w$]*)(?:\.data)?\.(?:title|body)\b/g;

/**
 * A call that runs a command line: @actions/exec's `exec.exec(` / `exec.getExecOutput(` (the line
 * split into arguments, no shell: attacker text there picks the command's arguments and options)
 * and child_process's `execSync(`, `exec(`, `spawn(`… (bare, or on `child_process.`, `cp.`,
 * `require('child_process').`: a shell for `exec` / `execSync`). `re.exec(` and other receivers are
 * not calls of a command.
 */
const COMMAND_CALL =
  /\bexec\.(?:exec|getExecOutput)[ \t]*\(|(?<![\w$.])(?:(?:child_process|childProcess|cp)\.|require\([ \t]*['"](?:node:)?child_process['"][ \t]*\)\.)?(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)[ \t]*\(/g;
/** A shell named as the program (`exec.exec('bash', ['-c', …])`): its arguments are a command line too. */
const SHELL_PROGRAM = /^(['"`])(?:(?:ba|z|da|k)?sh|pwsh|powershell|cmd)\1$/i;

/** One command call of a script: the call as written (bounded) and its first two arguments. */
export interface CommandCall {
  call: string;
  first: string;
  second: string;
}

/** The output name argument of `core.setOutput(`, on a bounded slice after it. */
const NAME_ARGUMENT = /^[ \t\r\n]*(['"`])([\w-]{1,100})\1[ \t\r\n]*,/;

export interface ScriptOutputs {
  /** Values by output name (lower case); `result` holds what the script returns. */
  values: ReadonlyMap<string, readonly string[]>;
  /** Values handed to `core.exportVariable` (later steps' environment), by variable name (lower case; `''`: a name not spelled as a literal). */
  exported: ReadonlyMap<string, readonly string[]>;
  /** Right sides of assignments, by identifier. */
  assigned: ReadonlyMap<string, readonly string[]>;
  /** Identifiers assigned a fetched pull request or issue (`const pr = await github.rest.pulls.get(…)`, `const { data: pr } = …`). */
  fetched: ReadonlySet<string>;
  /** The script (`scriptNames`: whether it names the head, or attacker-written text, anywhere). */
  script: string;
  /** `scriptNames` verdicts, by what is judged and the triggers in effect. */
  named: Map<string, boolean>;
  /** The command calls it makes (`COMMAND_CALL`). */
  commands: readonly CommandCall[];
}

/** The text of one value from `start`: up to a `,` or `)` outside brackets (or, with `statement`, a `;` or line end), bounded. */
function valueAt(script: string, start: number, statement: boolean): string {
  const end = Math.min(script.length, start + MAX_VALUE_CHARS);
  let depth = 0;
  for (let i = start; i < end; i += 1) {
    const ch = script[i];
    if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return script.slice(start, i);
      depth -= 1;
    } else if (depth === 0 && (statement ? ch === ';' || ch === '\n' : ch === ',')) return script.slice(start, i);
  }
  return script.slice(start, end);
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Read a github-script step's script once. */
export function readScriptOutputs(script: string): ScriptOutputs {
  const values = new Map<string, string[]>();
  const CALL = 'core.setOutput(';
  for (let at = script.indexOf(CALL); at >= 0; at = script.indexOf(CALL, at + CALL.length)) {
    const from = at + CALL.length;
    const m = NAME_ARGUMENT.exec(script.slice(from, from + 200));
    if (m === null) continue;
    push(values, (m[2] ?? '').toLowerCase(), valueAt(script, from + m[0].length, false));
  }
  const exported = new Map<string, string[]>();
  const EXPORT = 'core.exportVariable(';
  for (let at = script.indexOf(EXPORT); at >= 0; at = script.indexOf(EXPORT, at + EXPORT.length)) {
    const from = at + EXPORT.length;
    const m = NAME_ARGUMENT.exec(script.slice(from, from + 200));
    // A name not spelled as a literal may be any variable: its value is kept under `''`.
    push(exported, m === null ? '' : (m[2] ?? '').toLowerCase(), m === null ? valueAt(script, from, true) : valueAt(script, from + m[0].length, false));
  }
  for (let at = script.indexOf('return'); at >= 0; at = script.indexOf('return', at + 6)) {
    if (/[\w$.]/.test(script[at - 1] ?? ' ') || /[\w$]/.test(script[at + 6] ?? ' ')) continue;
    push(values, 'result', valueAt(script, at + 6, true));
  }
  const assigned = new Map<string, string[]>();
  const fetched = new Set<string>();
  for (const m of script.matchAll(ASSIGNMENT)) {
    const value = valueAt(script, (m.index ?? 0) + m[0].length, true);
    push(assigned, m[1] ?? '', value);
    if (FETCH_CALL.test(value)) fetched.add(m[1] ?? '');
  }
  for (const m of script.matchAll(DESTRUCTURED_DATA)) {
    if (FETCH_CALL.test(valueAt(script, (m.index ?? 0) + m[0].length, true))) fetched.add(m[1] ?? 'data');
  }
  const commands: CommandCall[] = [];
  for (const m of script.matchAll(COMMAND_CALL)) {
    const from = (m.index ?? 0) + m[0].length;
    const first = valueAt(script, from, false);
    const after = from + first.length;
    const second = script[after] === ',' ? valueAt(script, after + 1, false) : '';
    commands.push({ call: `${m[0]}${first}${second === '' ? '' : `,${second}`})`, first: first.trim(), second: second.trim() });
  }
  return { values, exported, assigned, fetched, script, named: new Map(), commands };
}

/**
 * Whether the script names the head (`carried` 'head', under one of `triggers`; null: any), or
 * attacker-written text, anywhere: for an output it sets in a form not read here. Judged once per
 * script, what is judged and triggers.
 */
export function scriptNames(outputs: ScriptOutputs, carried: Carried, triggers: readonly string[] | null): boolean {
  const key = `${carried} ${triggers === null ? '*' : triggers.join(' ')}`;
  let verdict = outputs.named.get(key);
  if (verdict === undefined) outputs.named.set(key, (verdict = jsCarries(outputs.script, carried, triggers)));
  return verdict;
}

/** The text a command call runs as a command line: its first argument, and its second after a shell program. */
export function commandLine(call: CommandCall): string {
  return SHELL_PROGRAM.test(call.first) ? `${call.first} ${call.second}` : call.first;
}

/** A command call's program and arguments as words (`exec.exec('git', ['fetch', ref])` → `git fetch ref`). */
export function commandWords(call: CommandCall): string {
  return `${call.first} ${call.second}`.replace(/['"`[\],]/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Whether output `name` carries the head (`carried` 'head') or attacker-written text ('text');
 * null when the script does not set it in a form read here. `headText` judges a text's
 * expressions (workflow-expressions.ts `textNamesHead` / `textUntrusted`), `env` a variable of the
 * step's or job's `env:`, `triggers` the triggers in effect (null: any) for a head read from the
 * payload.
 */
export function scriptOutputCarries(
  outputs: ScriptOutputs,
  name: string,
  carried: Carried,
  headText: (text: string) => boolean,
  env: (variable: string) => string | null,
  triggers: readonly string[] | null,
): boolean | null {
  const values = outputs.values.get(name);
  if (values === undefined) return null;
  return values.some(textCarrier(outputs, carried, headText, env, triggers));
}

/**
 * A test of script text (an output's value, a command's argument): whether it carries the head or
 * attacker-written text — directly (`headText`, the script patterns — a head read from the
 * payload under `triggers` alone: `jsNamesHead` —, a fetched object's `title`/`body`, a
 * `process.env` variable set from it), or through an identifier assigned such a value (one level),
 * each identifier judged once.
 */
export function textCarrier(
  outputs: ScriptOutputs,
  carried: Carried,
  headText: (text: string) => boolean,
  env: (variable: string) => string | null,
  triggers: readonly string[] | null,
): (text: string) => boolean {
  const direct = (text: string): boolean =>
    headText(text) ||
    jsCarries(text, carried, triggers) ||
    (carried === 'text' && outputs.fetched.size > 0 && [...text.matchAll(FETCHED_TEXT)].some((m) => outputs.fetched.has(m[1] ?? ''))) ||
    [...text.matchAll(PROCESS_ENV)].some((m) => {
      const value = env(m[1] ?? '');
      return value !== null && headText(value);
    });
  const judged = new Map<string, boolean>();
  const identifierHead = (identifier: string): boolean => {
    let verdict = judged.get(identifier);
    if (verdict === undefined) {
      verdict = (outputs.assigned.get(identifier) ?? []).some(direct);
      judged.set(identifier, verdict);
    }
    return verdict;
  };
  return (v) => direct(v) || [...v.matchAll(IDENTIFIER)].some((m) => identifierHead(m[0]));
}

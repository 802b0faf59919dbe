/**
 * Which way a `run:` script's permission check goes (docs/scoring.md, "Workflows"; docs/checks.md,
 * `workflow-safety`): a script that asks `gh api` for `/collaborators/<the actor>/permission` and
 * exits non-zero is a gate only when the exit is reached for every permission below write (`read`,
 * `triage`, `none`, or any other word) — the comparison read, not merely present. Shapes read:
 *  - `if <not strong>; then … exit 1; fi` — `[ "$perm" != admin ] && [ "$perm" != write ]`,
 *    `[[ $perm != admin && $perm != write ]]`, `! <strong>`;
 *  - `if <strong>; then …; else … exit 1; fi`;
 *  - `<strong> || exit 1` (also `|| { echo …; exit 1; }`), `<not strong> && exit 1`;
 * where `<strong>` is an `||` of `"$perm" == admin|maintain|write` (`=`, `==`, `=~` on a pattern
 * of those words), `echo "$perm" | grep -q 'admin|write'` (no `-v`; `<<< "$perm"` too), or
 * `gh api …/permission | jq -e '.permission == "admin"'` (`.role_name`, ` or `), and `$perm` a
 * variable assigned from the `gh api` call. A list of weak levels (`== read`), a comparison with
 * another variable beside it, an exit under a second `if`, a `case`, a loop or an `elif`, a
 * `gh api --jq '.permission == "admin"'` (it prints `false` and succeeds), and anything after an
 * `exit 0` (or a bare `exit`) is not read: no gate, the findings counted.
 *
 * Pure and linear: the script is split once into statements (at `;` and line ends outside quotes,
 * `$( )` and `{ }` groups), each matched by anchored patterns.
 */
import { splitTop } from './workflow-expressions.js';

/** Levels that may run the gated code. */
const STRONG = new Set(['admin', 'maintain', 'write']);
const GH_API = /\bgh\s+api\b/;
/** The actor named in a permission path: the expression or the runner's variable. */
export const ACTOR_PATH = /\/collaborators\/(?:\$\{\{\s*github\.(?:triggering_)?actor\s*\}\}|\$\{?GITHUB_(?:TRIGGERING_)?ACTOR\}?)\/permission\b/;
/** `name=…` (after `export`, `local`, `readonly`, `declare`). */
const ASSIGNED = /^(?:(?:export|local|readonly|declare)\s+)?([A-Za-z_]\w*)=/;
/** A variable as a test operand: `$p`, `${p}`, `"$p"`, `"${p}"`. */
const VARIABLE = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/;
/** A word as a test operand: `admin`, `'admin'`, `"admin"`. */
const WORD = /^(["']?)([\w-]+)\1$/;
/** A non-zero exit: `exit 1`. */
const EXIT_FAILING = /^exit\s+0*[1-9]\d*$/;
/** Any exit (a bare `exit` or `exit 0` lets the step succeed). */
const EXIT_ANY = /^exit(?:\s|$)/;
/** `|| exit 1`, `&& exit 1` ending a statement: the operator (the test is what comes before). */
const TRAILING_EXIT = /(\|\||&&)\s*exit\s+0*[1-9]\d*$/;
/** `|| { …; exit 1; }` ending a statement: the group's body. */
const TRAILING_GROUP = /\|\|\s*\{([^{}]*)\}$/;

/** What a test says of the permission: true only for write or above, true for every level below write, or not read. */
type Reading = 'strong' | 'not-strong' | null;
const negate = (r: Reading): Reading => (r === 'strong' ? 'not-strong' : r === 'not-strong' ? 'strong' : null);

/** The script's statements: split at `;` and line ends outside quotes, `$( )`, `( )` and `{ }` groups (line continuations joined). */
function statements(script: string): string[] {
  const text = script.replace(/\\\r?\n/g, ' ');
  const out: string[] = [];
  let quote: string | null = null;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i += 1;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(' || (c === '{' && /\s/.test(text[i + 1] ?? ''))) depth += 1;
    else if ((c === ')' || (c === '}' && /[\s;]/.test(text[i - 1] ?? ''))) && depth > 0) depth -= 1;
    else if (depth === 0 && (c === ';' || c === '\n')) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '' && !s.startsWith('#'));
}

/** A grep pattern of strong words only (`admin|write`, `^(admin|maintain)$`, `admin\|write`). */
function strongPattern(pattern: string): boolean {
  const words = pattern.replace(/\\b|\\<|\\>|[\^$()]/g, '').split(/\\?\|/);
  return words.length > 0 && words.every((w) => STRONG.has(w));
}

/** `'…'` or `"…"` or a bare word: its text. */
function unquoted(text: string): string | null {
  const m = /^'([^']*)'$|^"([^"]*)"$|^([^\s'"]+)$/.exec(text.trim());
  return m === null ? null : (m[1] ?? m[2] ?? m[3] ?? '');
}

/** `grep -qE 'admin|write'` (flags with `q`, no `v`): whether it succeeds only on strong words. */
function grepStrong(command: string): boolean {
  const m = /^grep((?:\s+-[A-Za-z]+)+)\s+(.+)$/.exec(command);
  if (m === null) return false;
  const flags = (m[1] ?? '').replace(/[\s-]/g, '');
  const pattern = unquoted(m[2] ?? '');
  return flags.includes('q') && !/[vf]/.test(flags) && pattern !== null && strongPattern(pattern);
}

/** `jq -e '.permission == "admin" or …'`: whether it exits 0 only on strong levels. */
function jqStrong(command: string): boolean {
  const m = /^jq((?:\s+-[A-Za-z]+|\s+--exit-status)+)\s+(.+)$/.exec(command);
  if (m === null || !/(?:^|\s)(?:-[A-Za-z]*e[A-Za-z]*|--exit-status)(?=\s|$)/.test(m[1] ?? '')) return false;
  const filter = unquoted(m[2] ?? '');
  if (filter === null) return false;
  const terms = filter.replace(/[()\s]/g, '').split('or');
  return terms.length > 0 && terms.every((t) => {
    const eq = /^\.(?:permission|role_name)=="([\w-]+)"$/.exec(t);
    return eq !== null && STRONG.has(eq[1] ?? '');
  });
}

/** Splits at `|` outside quotes (`||` already split off). */
function pipeline(text: string): string[] {
  const out: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '|') {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/** One test (an `&&` / `||` operand, brackets stripped): what it says of the permission, given the permission variables. */
function readAtom(raw: string, permission: ReadonlySet<string>): Reading {
  let t = raw.trim();
  const devNull = /(?:^|\s)>\s*\/dev\/null(?:\s+2>&1)?$/.exec(t);
  if (devNull !== null) t = t.slice(0, devNull.index).trimEnd();
  // `! test`, `[ ! a = b ]`: each `!` turns the reading round.
  let negations = 0;
  for (;;) {
    if (t.startsWith('! ')) {
      negations += 1;
      t = t.slice(2).trimStart();
    } else if (t.startsWith('[[') || t.startsWith('[')) {
      const inner = t.startsWith('[[') ? (t.endsWith(']]') ? t.slice(2, -2) : null) : t.endsWith(']') ? t.slice(1, -1) : null;
      if (inner === null) return null;
      t = inner.trim();
    } else if (t.startsWith('test ')) t = t.slice(5).trimStart();
    else break;
  }
  const reading = readTest(t, permission);
  return negations % 2 === 0 ? reading : negate(reading);
}

/** A test without brackets or `!`: a comparison of a permission variable, or a pipeline. */
function readTest(t: string, permission: ReadonlySet<string>): Reading {
  const m = /^(\S+)\s*(!=|==|=~|=)\s*(\S+)$/.exec(t);
  if (m === null) return t.includes('|') || t.startsWith('grep') ? readPipeline(t, permission) : null;
  const [, left = '', op = '', right = ''] = m;
  const variable = VARIABLE.exec(left)?.[1];
  if (variable === undefined || !permission.has(variable)) return null;
  if (op === '=~') return strongPattern(unquoted(right) ?? '') ? 'strong' : null;
  const word = WORD.exec(right)?.[2];
  if (word === undefined || !STRONG.has(word)) return null;
  return op === '!=' ? 'not-strong' : 'strong';
}

/** `echo "$perm" | grep -q …`, `grep -q … <<< "$perm"`, `gh api …/permission [--jq .permission] | [jq -r .permission |] grep -q …` or `| jq -e …`. */
function readPipeline(text: string, permission: ReadonlySet<string>): Reading {
  const here = /^(grep\s.+?)\s*<<<\s*(\S+)$/.exec(text);
  if (here !== null) {
    const variable = VARIABLE.exec(here[2] ?? '')?.[1];
    return variable !== undefined && permission.has(variable) && grepStrong(here[1] ?? '') ? 'strong' : null;
  }
  const stages = pipeline(text);
  if (stages.length < 2 || stages.length > 3) return null;
  const [source = '', ...rest] = stages;
  const last = rest[rest.length - 1] ?? '';
  const middle = rest.length === 2 ? (rest[0] ?? '') : null;
  const echoed = /^(?:echo(?:\s+-n)?|printf\s+(["'])%s(?:\\n)?\1)\s+(\S+)$/.exec(source);
  const echoedVariable = echoed === null ? undefined : VARIABLE.exec(echoed[2] ?? '')?.[1];
  const fromVariable = echoedVariable !== undefined && permission.has(echoedVariable);
  const fromApi = GH_API.test(source) && ACTOR_PATH.test(source);
  const extracts = (s: string): boolean => /(?:--jq|-q)\s+["']?\.(?:permission|role_name)["']?(?:\s|$)/.test(`${s} `);
  if (grepStrong(last)) {
    if (fromVariable && middle === null) return 'strong';
    if (fromApi && (middle === null ? extracts(source) : /^jq\s+-r\s+["']?\.(?:permission|role_name)["']?$/.test(middle))) return 'strong';
    return null;
  }
  if (jqStrong(last) && middle === null && (fromVariable || (fromApi && !/--jq|\s-q\s/.test(source)))) return 'strong';
  return null;
}

/** A condition: an `||` of strong tests, or an `&&` of not-strong ones (`[[ a && b ]]` read like `[ a ] && [ b ]`). */
function readCondition(text: string, permission: ReadonlySet<string>): Reading {
  const t = text.trim();
  const alternatives = splitTop(t, '||');
  if (alternatives.length > 1) return alternatives.every((a) => readAtom(unbracket(a), permission) === 'strong') ? 'strong' : null;
  const terms = splitTop(t, '&&');
  if (terms.length > 1) return terms.every((a) => readAtom(unbracket(a), permission) === 'not-strong') ? 'not-strong' : null;
  return readAtom(t, permission);
}

/** An operand of a `[[ a && b ]]` split at its inner operator: its half bracket kept whole (`[[ a ` → `a`, ` b ]]` → `b`). */
function unbracket(part: string): string {
  const t = part.trim();
  if (t.startsWith('[[') && !t.endsWith(']]')) return t.slice(2);
  if (t.endsWith(']]') && !t.startsWith('[[')) return t.slice(0, -2);
  return t;
}

interface Frame {
  condition: string;
  branch: 'then' | 'else';
  /** An `elif`, a `case` or a loop: what reaches its body is not read. */
  unread: boolean;
}

/**
 * How a `run:` script fails unless the actor has write or above (the shapes this file's comment
 * lists), or null when it does not or cannot be read so.
 */
export function permissionExit(run: string): string | null {
  const permission = new Set<string>();
  const frames: Frame[] = [];
  const holds = (r: Reading, want: Reading): string | null => (r === want ? 'gh api …/collaborators/<actor>/permission, then exit 1 below write' : null);
  for (const raw of statements(run)) {
    let s = raw;
    for (;;) {
      const kw = /^(then|do|else)\s+/.exec(s);
      if (kw === null) break;
      if (kw[1] === 'else') {
        const top = frames[frames.length - 1];
        if (top !== undefined) top.branch = 'else';
      }
      s = s.slice(kw[0].length);
    }
    if (s === 'then' || s === 'do') continue;
    if (s === 'else') {
      const top = frames[frames.length - 1];
      if (top !== undefined) top.branch = 'else';
      continue;
    }
    if (s === 'fi' || s === 'done' || s === 'esac') {
      frames.pop();
      continue;
    }
    if (s.startsWith('if ')) {
      frames.push({ condition: s.slice(3), branch: 'then', unread: false });
      continue;
    }
    if (s.startsWith('elif ')) {
      const top = frames[frames.length - 1];
      if (top !== undefined) top.unread = true;
      continue;
    }
    if (/^(?:for|while|until|case|select)\s/.test(s)) {
      frames.push({ condition: '', branch: 'then', unread: true });
      continue;
    }
    const assigned = ASSIGNED.exec(s);
    if (assigned !== null && GH_API.test(s) && ACTOR_PATH.test(s)) permission.add(assigned[1] ?? '');
    if (EXIT_FAILING.test(s)) {
      if (frames.length === 0) return 'gh api …/collaborators/<actor>/permission, then exit 1 whatever it says';
      const [frame] = frames;
      if (frames.length === 1 && frame !== undefined && !frame.unread) {
        const how = holds(readCondition(frame.condition, permission), frame.branch === 'then' ? 'not-strong' : 'strong');
        if (how !== null) return how;
      }
      continue;
    }
    if (EXIT_ANY.test(s)) return null;
    if (frames.length > 0) continue;
    const trailing = TRAILING_EXIT.exec(s);
    if (trailing !== null) {
      const how = holds(readCondition(s.slice(0, trailing.index), permission), trailing[1] === '||' ? 'strong' : 'not-strong');
      if (how !== null) return how;
      continue;
    }
    const group = TRAILING_GROUP.exec(s);
    if (group !== null) {
      const body = statements(group[1] ?? '');
      const exit = body.find((b) => EXIT_ANY.test(b));
      if (exit !== undefined && EXIT_FAILING.test(exit)) {
        const how = holds(readCondition(s.slice(0, group.index), permission), 'strong');
        if (how !== null) return how;
      }
      if (exit !== undefined && !EXIT_FAILING.test(exit)) return null;
    }
  }
  return null;
}

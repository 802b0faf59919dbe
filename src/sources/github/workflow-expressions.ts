/**
 * What a GitHub Actions `${{ }}` expression names (docs/checks.md, `workflow-safety`): whether it
 * carries attacker-written text (an issue or pull request title or body, a branch name, a comment,
 * a commit message …, or an input a caller filled with one) or the pull request's own code (its
 * head ref or sha). Pure, and linear in the expression's length: whitespace is dropped and
 * bracket property access (`github.event['issue']['title']`, `github['head_ref']`,
 * `commits[0]`) rewritten to dots before patterns without nested repetition are tried, so
 * `format('{0}', github.event.comment.body)`, `join(github.event.commits.*.message)` and
 * `toJSON(github.event.pull_request)` are recognised like the plain spelling.
 */

/** Attacker-written text in the `github` context (the names GitHub's hardening guide lists), on a normalised expression. */
const UNTRUSTED =
  /\bgithub\.(?:head_ref|event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.(?:ref|label|repo\.default_branch))|comment\.body|review\.body|review_comment\.body|pages\.[\w*]+\.page_name|commits\.[\w*]+\.(?:message|author\.(?:email|name))|head_commit\.(?:message|author\.(?:email|name))|workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author\.(?:email|name))|pull_requests\.[\w*]+\.head\.ref)|discussion\.(?:title|body)))\b/gi;
/** A whole object holding such text, dumped as JSON. */
const UNTRUSTED_DUMP =
  /\btojson\((github(?:\.event(?:\.(?:issue|pull_request(?:\.head)?|comment|review|review_comment|discussion|head_commit|commits|pages|workflow_run(?:\.head_commit)?))?)?)\)/gi;
/**
 * Which triggers' event payload carries which object (GitHub's webhook event payloads, as
 * `github.event` and a github-script's `context.payload`): a `pull_request` for the pull request
 * events — not for `issue_comment`, whose `issue.pull_request` holds only links —, a
 * `workflow_run` for `workflow_run` only, an `issue` for issue events … Under a trigger whose
 * payload does not carry the object, what is read from it is empty: neither attacker text nor the
 * pull request's head. An object not listed here is taken as carried by every trigger.
 */
const TRIGGERS_CARRYING: Readonly<Record<string, ReadonlySet<string>>> = {
  pull_request: new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']),
  issue: new Set(['issues', 'issue_comment']),
  comment: new Set(['issue_comment', 'pull_request_review_comment', 'discussion_comment', 'commit_comment']),
  review: new Set(['pull_request_review']),
  workflow_run: new Set(['workflow_run']),
  discussion: new Set(['discussion', 'discussion_comment']),
};
/** `github.head_ref`: set for the pull request events only. */
const HEAD_REF_TRIGGERS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target']);

/** Whether one of `triggers` (null: any) has a payload carrying `object` (`TRIGGERS_CARRYING`; lower case). */
export function payloadCarries(object: string, triggers: readonly string[] | null): boolean {
  if (triggers === null) return true;
  const carrying = Object.hasOwn(TRIGGERS_CARRYING, object) ? TRIGGERS_CARRYING[object] : undefined;
  return carrying === undefined || triggers.some((t) => carrying.has(t));
}

/** Whether a context (normalised, lower case) can hold a value under one of `triggers` (null: any trigger). */
function carried(context: string, triggers: readonly string[] | null): boolean {
  if (triggers === null) return true;
  if (context.startsWith('github.head_ref')) return triggers.some((t) => HEAD_REF_TRIGGERS.has(t));
  const m = /^github\.event\.(\w+)/.exec(context);
  return m === null || payloadCarries(m[1] ?? '', triggers);
}

/** A ref or repository that names the pull request's own code (each match judged by `carried`: `refs/pull/` under any trigger). */
const HEAD_REF =
  /\bgithub\.event\.pull_request\.head\.(?:sha|ref|repo\.full_name)\b|\bgithub\.head_ref\b|refs\/pull\/|\bgithub\.event\.workflow_run\.(?:head_sha|head_branch|head_commit\.id)\b/gi;
/**
 * The pull request's code written out in a script or a ref: `refs/pull/…`, or the refspec
 * `pull/<number>/head|merge` (`git fetch origin pull/${{ github.event.issue.number }}/head`).
 */
const WRITTEN_HEAD = /refs\/pull\/|(?<![\w.-])pull\/[^/\n]{1,100}\/(?:head|merge)\b/i;
const INPUT = /\b(?:github\.event\.)?inputs\.([\w-]+)/gi;
const INPUT_DUMP = /\btojson\((?:github\.event\.)?inputs\)/i;

/** Inputs (lower case) a caller filled with attacker-written text or the pull request's head. */
export interface Taint {
  text: ReadonlySet<string>;
  head: ReadonlySet<string>;
}
export const NO_TAINT: Taint = { text: new Set(), head: new Set() };

/** Whitespace out, `['name']` / `["name"]` / `[0]` / `[*]` as `.name`. */
export function normaliseExpression(expression: string): string {
  return expression
    .replace(/\s+/g, '')
    .replace(/\['([\w-]*)'\]|\["([\w-]*)"\]|\[(\d+|\*)\]/g, (_m, a?: string, b?: string, c?: string) => `.${a ?? b ?? c ?? ''}`);
}

function namesInput(normalised: string, inputs: ReadonlySet<string>): boolean {
  if (inputs.size === 0) return false;
  if (INPUT_DUMP.test(normalised)) return true;
  for (const m of normalised.matchAll(INPUT)) if (inputs.has((m[1] ?? '').toLowerCase())) return true;
  return false;
}

/**
 * Whether the inside of one `${{ }}` carries attacker-written text under one of `triggers` (the
 * outsider triggers in effect; null: under any).
 */
export function expressionUntrusted(inside: string, taint: Taint = NO_TAINT, triggers: readonly string[] | null = null): boolean {
  const e = normaliseExpression(inside);
  for (const m of e.matchAll(UNTRUSTED)) if (carried(m[0].toLowerCase(), triggers)) return true;
  for (const m of e.matchAll(UNTRUSTED_DUMP)) if (carried((m[1] ?? '').toLowerCase(), triggers)) return true;
  return namesInput(e, taint.text);
}

/**
 * Whether the inside of one `${{ }}` names the pull request's own code under one of `triggers`
 * (null: under any): `github.event.pull_request.head.sha` is empty under `issue_comment`, whose
 * payload has no pull request (`TRIGGERS_CARRYING`).
 */
export function expressionNamesHead(inside: string, taint: Taint = NO_TAINT, triggers: readonly string[] | null = null): boolean {
  const e = normaliseExpression(inside);
  for (const m of e.matchAll(HEAD_REF)) if (carried(m[0].toLowerCase(), triggers)) return true;
  return namesInput(e, taint.head);
}

/** The expressions of a text: each `${{ … }}` whole and its inside (found with indexOf: linear). */
function expressionSpans(text: string): Array<{ whole: string; inside: string }> {
  const out: Array<{ whole: string; inside: string }> = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('${{', from);
    if (start < 0) return out;
    const end = text.indexOf('}}', start + 3);
    if (end < 0) return out;
    out.push({ whole: text.slice(start, end + 2), inside: text.slice(start + 3, end) });
    from = end + 2;
  }
}

/** The expressions of a text (the inside of each `${{ }}`). */
export function expressionsOf(text: string): string[] {
  return expressionSpans(text).map((s) => s.inside);
}

/** Whether any expression in `text` carries attacker-written text. */
export function textUntrusted(text: string, taint: Taint = NO_TAINT, triggers: readonly string[] | null = null): boolean {
  return expressionsOf(text).some((e) => expressionUntrusted(e, taint, triggers));
}

/**
 * Whether `text` names the pull request's head under one of `triggers` (null: under any): in an
 * expression, or written out (`refs/pull/…`, `pull/<n>/head` in a script: `WRITTEN_HEAD`).
 */
export function textNamesHead(text: string, taint: Taint = NO_TAINT, triggers: readonly string[] | null = null): boolean {
  return WRITTEN_HEAD.test(text) || expressionsOf(text).some((e) => expressionNamesHead(e, taint, triggers));
}

/** The first line of `text` with an expression carrying attacker-written text (or the expression, when it spans lines); null when none. */
export function injectedLine(text: string, taint: Taint = NO_TAINT, triggers: readonly string[] | null = null): string | null {
  for (const line of text.split('\n')) {
    for (const e of expressionsOf(line)) if (expressionUntrusted(e, taint, triggers)) return line;
  }
  for (const s of expressionSpans(text)) if (expressionUntrusted(s.inside, taint, triggers)) return s.whole;
  return null;
}

/** `text` split at `op` outside parentheses and quoted strings (linear). */
export function splitTop(text: string, op: '&&' | '||'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (depth === 0 && text.startsWith(op, i)) {
      parts.push(text.slice(start, i));
      start = i + op.length;
      i += op.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `text` without parentheses that wrap all of it (linear per layer, bounded layers). */
export function stripParens(text: string): string {
  let t = text;
  for (let layer = 0; layer < 20; layer += 1) {
    if (!t.startsWith('(') || !t.endsWith(')')) return t;
    let depth = 0;
    for (let i = 0; i < t.length - 1; i += 1) {
      if (t[i] === '(') depth += 1;
      else if (t[i] === ')') depth -= 1;
      if (depth === 0) return t;
    }
    t = t.slice(1, -1);
  }
  return t;
}

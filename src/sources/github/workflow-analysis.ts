/**
 * GitHub Actions workflows that let outsiders run code with the repository's secrets
 * (docs/checks.md, `workflow-safety`): pure analysis of one workflow file's text.
 *
 * A workflow is **outsider-triggered with secrets** when one of its triggers runs it in the base
 * repository's context (its secrets and a token that may write) on an event anyone can cause:
 * `pull_request_target`, `workflow_run` (a fork's pull request finishes a workflow), `issues`,
 * `issue_comment`, `discussion`, `discussion_comment`, `pull_request_review`,
 * `pull_request_review_comment` (anyone may review or comment on a pull request from a branch of
 * the repository itself). A fork's `pull_request` runs the fork's code, but with a read-only token
 * and no secrets: what it runs cannot reach the secrets, so nothing in such a workflow is a finding.
 *
 * Findings, each with the file, job, step and a short excerpt:
 *  - `untrusted-checkout`: a `pull_request_target` or `workflow_run` workflow, or an
 *    `issue_comment` job (`CHECKOUT_TRIGGERS`; each judged as its payload names the head —
 *    workflow-expressions.ts `TRIGGERS_CARRYING` —: under `issue_comment` by number,
 *    `refs/pull/${{ github.event.issue.number }}/head`, or looked up: `headCheckoutUnder`), checks out the
 *    pull request's code (`actions/checkout` whose `ref` or `repository` names the head — directly,
 *    through an earlier step's output, or through an output of a job it needs that is set from the
 *    head or from such a step output (two levels: also a job output passed on from a job that job
 *    needs); a step output is the head when a `run:` writes it to `$GITHUB_OUTPUT` from the head
 *    or from a jq lookup of it (`HEAD_LOOKUP`),
 *    when an `actions/github-script` step sets it from the head (`core.setOutput`, `return`:
 *    github-script.ts), or when another action's inputs name it —, or a `run:` that fetches it /
 *    `gh pr checkout`, or a github-script script running `git fetch|checkout` of it through
 *    `exec.exec` / `execSync`: github-script.ts) and a later step of the job runs something (`run:`, or a local action
 *    `uses: ./…`). A checkout with nothing run after it is not a finding.
 *  - `script-injection`: an expression naming attacker-written text (an issue or pull request
 *    title or body, a branch name, a comment, a commit message …: UNTRUSTED below) spliced into a
 *    `run:` script or an `actions/github-script` `script:` of an outsider-triggered workflow —
 *    directly, or through an earlier step's output or a needed job's output that carries it
 *    (followed like the head: `stepOutputCarries`, `jobOutputsCarrying`, judged for text).
 *    Passing the value through `env:` and reading `"$VAR"` is the safe form, and is not flagged;
 *    expanding that variable inline as `${{ env.VAR }}` is an injection like the direct form
 *    (`injectedEnvLine`: the step's `env:`, else the job's over the workflow's, and what earlier
 *    steps wrote to `$GITHUB_ENV` or exported by a github-script `core.exportVariable`).
 *    A github-script script that runs a command line carrying such text itself (`exec.exec`,
 *    `execSync`…: `injectedCommand`) is flagged too; an argument array is the safe form.
 * A job or step whose `if:` admits only the repository's own branches (`head.repo.full_name`,
 * `head.repo.fork`) is not flagged; one whose `if:` admits only some events
 * (`github.event_name == 'pull_request' && …`) is judged under those triggers alone. One whose
 * `if:` requires an output set by a step that asks GitHub for the actor's permission, or an
 * author association of the repository's owners, members or collaborators (permission-gate.ts),
 * is judged, but its findings are listed as `gated`, not counted; what it calls (a reusable
 * workflow, a local action) is followed with the gate, and its findings are gated too.
 *
 * Calls (workflow-calls.ts follows them): a job's `uses:` of a reusable workflow of this
 * repository (`./.github/workflows/x.yml`, the self-repository `$/.github/workflows/x.yml`, or
 * `owner/repo/.github/workflows/x.yml@ref` naming the repository itself) and a step's `uses:` of an
 * action of this repository (`./path`, `$/path`, `owner/repo@ref`, `owner/repo/path@ref`) are listed with the outsider triggers in effect and the inputs the
 * caller fills with attacker-written text or the pull request's head (`with:`); the called file
 * is then judged with those triggers and those inputs tainted (`analyseWorkflow` with a
 * `CallContext`, `analyseAction`). An action or reusable workflow of another repository is
 * named (`remoteActions`), never read, never judged safe.
 *
 * Not judged (limits): actions of other repositories, local actions that are not composite
 * (JavaScript, Docker), repository settings. Unpinned third-party actions are counted as context
 * only (pinning is hygiene, not this finding).
 *
 * YAML is read with the failsafe schema (every scalar a string: `on` stays the key `on`) and
 * at most `MAX_ALIASES` alias expansions, so an alias bomb is refused, never expanded.
 */
import { parseDocument } from 'yaml';
import { commandLine, commandWords, readScriptOutputs, scriptNames, scriptOutputCarries, textCarrier, type Carried, type ScriptOutputs } from './github-script.js';
import { failureGate, firstFailingStep, needsOf, permissionGate, stepsById, type GateJobs } from './permission-gate.js';
import { oneLine } from './request.js';
import { expressionsOf, injectedLine, NO_TAINT, normaliseExpression, splitTop, stripParens, textNamesHead, textUntrusted, type Taint } from './workflow-expressions.js';

export type WorkflowFindingCode = 'untrusted-checkout' | 'script-injection';

export interface WorkflowFinding {
  code: WorkflowFindingCode;
  path: string;
  job: string;
  /** The step's name, its id, or `step N` (1-based). */
  step: string;
  /** The outsider triggers that run it with secrets. */
  triggers: string[];
  /** The line that shows it (the checkout's ref or the injected line), cut and flattened. */
  excerpt: string;
  /** The callers when the step is in a called workflow or action, outermost first (`file (job …, step …)`). */
  via?: string[];
}

/** A finding behind a permission gate (permission-gate.ts): recorded, not counted. */
export interface GatedFinding extends WorkflowFinding {
  /** The gate: the `if:` comparison and the step that asks for the actor's permission. */
  gate: string;
}

/** A reusable workflow or an action of this repository, called from an outsider-triggered job. */
export interface WorkflowCall {
  kind: 'workflow' | 'action';
  /** The called workflow's path, or the action's folder (`''` for the repository's root). */
  target: string;
  /** The calling job. */
  job: string;
  /** The outsider triggers in effect in the caller. */
  triggers: string[];
  /** Inputs (lower case) the caller fills with attacker-written text, and with the pull request's head. */
  taint: { text: string[]; head: string[] };
  /** `secrets: inherit` (a reusable workflow handed every secret). */
  secretsInherit: boolean;
  /** The callers, outermost first, this one last. */
  via: string[];
  /** For an action: the first later step of the calling job that runs code (a head checkout the action leaves behind is run by it). */
  runsAfter?: string;
  /** The gate of the calling job or step (permission-gate.ts): what the called file does is gated too. */
  gate?: string;
}

/** A checkout of the pull request's head an action leaves behind with nothing run after it inside the action. */
export interface CheckoutLeft {
  step: string;
  excerpt: string;
  /** The triggers under which it checks out the head (`issue_comment` only when it names the head there). */
  triggers: string[];
  /** The gate the checkout is behind (permission-gate.ts), when it is. */
  gate?: string;
}

export interface Judged {
  findings: WorkflowFinding[];
  /** Findings in jobs or steps gated on a permission check (permission-gate.ts): not counted. */
  gated: GatedFinding[];
  calls: WorkflowCall[];
  /** Actions and reusable workflows of other repositories used by outsider-triggered jobs (`uses:` as written). */
  remoteActions: string[];
  unpinnedActions: number;
}

export type WorkflowAnalysis =
  | ({ ok: true; path: string; triggers: string[]; outsider: boolean } & Judged)
  | { ok: false; path: string; reason: string };

export type ActionAnalysis =
  | ({ ok: true; path: string; composite: true; checkoutLeft: CheckoutLeft | null } & Judged)
  | { ok: true; path: string; composite: false; using: string }
  | { ok: false; path: string; reason: string };

/** How a called workflow or action runs: its caller's outsider triggers and tainted inputs. */
export interface CallContext {
  triggers: string[];
  taint: Taint;
  via: string[];
  /** The job that called it (an action's steps are reported under the caller's job). */
  job?: string;
  /** The caller's gate (permission-gate.ts): every finding in the called file is gated by it. */
  gate?: string;
}

/** The repository judged (to tell its own `owner/repo@ref` actions from other repositories'). */
export interface RepoName {
  owner: string;
  name: string;
}

/** Alias expansions allowed while reading a workflow (real workflows use a few, if any). */
export const MAX_ALIASES = 50;
/** Characters of an excerpt kept. */
const EXCERPT_CHARS = 160;

/** Triggers that run the workflow with the base repository's secrets on an event anyone can cause. */
export const OUTSIDER_TRIGGERS: readonly string[] = [
  'pull_request_target',
  'workflow_run',
  'issues',
  'issue_comment',
  'discussion',
  'discussion_comment',
  'pull_request_review',
  'pull_request_review_comment',
];
/**
 * Triggers under which checking out the pull request's code runs it with the secrets: a
 * `pull_request_target` or `workflow_run` run, and an `issue_comment` on a pull request (its
 * `/test` command jobs run on the default branch with the secrets, whoever comments). A review or
 * review comment (`pull_request_review`, `pull_request_review_comment`) on a fork's pull request
 * runs like `pull_request` (read-only token, no secrets: GitHub's "Events that trigger
 * workflows", docs/security.md), and on one of the repository's own branches the head is a
 * collaborator's code: neither is counted here. Their text is still attacker text
 * (`OUTSIDER_TRIGGERS`: anyone may review a branch's pull request, which runs with the secrets).
 */
const CHECKOUT_TRIGGERS = new Set(['pull_request_target', 'workflow_run', 'issue_comment']);
/** The triggers among `triggers` under which checking out the pull request's code runs it with the secrets. */
export const checkoutTriggersOf = (triggers: readonly string[]): string[] => triggers.filter((t) => CHECKOUT_TRIGGERS.has(t));

const GIT_FETCH = /\bgit\s+(?:fetch|checkout|pull|switch)\b|\bgh\s+pr\s+checkout\b/i;
/** A guard that admits only the repository's own branches (an author-association gate is read by permission-gate.ts). */
const GUARD = /head\.repo\.full_name|head\.repo\.fork/i;
const SHA_PIN = /@[0-9a-f]{40}$/i;
/** `owner/repo[/path]@ref`. */
const REMOTE_USES = /^([\w.-]+)\/([\w.-]+)((?:\/[\w.-]+)*)@[^\s@]+$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function workflowTriggers(on: unknown): string[] {
  if (typeof on === 'string') return [on.trim()];
  if (Array.isArray(on)) return on.flatMap((t) => (typeof t === 'string' ? [t.trim()] : []));
  if (isObj(on)) return Object.keys(on);
  return [];
}

function stepLabel(step: Obj, index: number): string {
  return oneLine(str(step.name) ?? str(step.id) ?? `step ${index + 1}`, 80);
}

function withOf(step: Obj): Obj {
  return isObj(step.with) ? step.with : {};
}

function usesOf(step: Obj): string {
  return (str(step.uses) ?? '').trim();
}

/**
 * What a `uses:` names: this repository's file (`./…`, `$/…`, or `owner/repo…@ref` naming the
 * repository itself — all read as they are on the default branch), another repository's, or a
 * container image.
 */
export function usesTarget(uses: string, repo: RepoName | null): { local: string } | { remote: string } | { image: true } | { invalid: true } {
  if (uses.startsWith('docker://')) return { image: true };
  // `./path` (the workspace's checkout) and `$/path` (the repository itself at the running commit).
  if (uses.startsWith('./') || uses.startsWith('$/')) {
    const rel = uses.slice(2).replace(/\/+$/, '');
    if (rel.split('/').some((seg) => seg === '..' || seg === '.')) return { invalid: true };
    return { local: rel };
  }
  const m = REMOTE_USES.exec(uses);
  if (m !== null && repo !== null && m[1]?.toLowerCase() === repo.owner.toLowerCase() && m[2]?.toLowerCase() === repo.name.toLowerCase()) {
    const rel = (m[3] ?? '').replace(/^\//, '');
    if (rel.split('/').some((seg) => seg === '..' || seg === '.')) return { invalid: true };
    return { local: rel };
  }
  return { remote: oneLine(uses, 120) };
}

/**
 * Inputs (lower case) a `with:` fills with attacker-written text (named, or — `carries` given — read
 * from a variable that holds it: `${{ env.T }}`) or the pull request's head.
 */
function taintOfWith(w: Obj, taint: Taint, triggers: readonly string[], carries: (value: string) => boolean = () => false): { text: string[]; head: string[] } {
  const text: string[] = [];
  const head: string[] = [];
  for (const [key, value] of Object.entries(w)) {
    if (typeof value !== 'string') continue;
    if (textUntrusted(value, taint, triggers) || carries(value)) text.push(key.toLowerCase());
    if (textNamesHead(value, taint, triggers)) head.push(key.toLowerCase());
  }
  return { text, head };
}

/** Lower-case output names a job's `outputs:` (or a step's) are read by: `steps.<id>.outputs.<name>`, `needs.<job>.outputs.<name>`. */
const STEP_OUTPUT = /\bsteps\.([\w-]+)\.outputs\.([\w-]+)/gi;
const NEEDS_OUTPUT = /\bneeds\.([\w-]+)\.outputs\.([\w-]+)/gi;
/** The name a `run:` command writes to `$GITHUB_OUTPUT` (`echo "name=value" >> "$GITHUB_OUTPUT"`): the first `name=` after a blank or a quote. */
const WRITTEN_NAME = /(?:^|[\s"'])([\w-]+)=/;
/** A shell variable read in a written value (`$HEAD_SHA`, `${HEAD_SHA}`). */
const SHELL_VAR = /\$\{?([A-Za-z_]\w*)/g;
/**
 * A `run:` lookup of the pull request's head through GitHub's API or CLI, read by jq: `gh api
 * repos/…/pulls/N --jq .head.sha` (or `curl … | jq -r .head.ref`), `gh pr view N --json
 * headRefOid` — the head under any trigger, `issue_comment` too (an expression naming a payload's
 * head is judged by the triggers, not here).
 */
const HEAD_LOOKUP = /(?:\bjq\b|--jq\b|--json\b)[^\n]{0,200}?(?:\.head\.(?:sha|ref)\b|\bheadRef(?:Oid|Name)\b)/;
/** `VAR=…` (also after `export`, `local`, `readonly`, `declare`) at the start of a line. */
const SHELL_ASSIGNMENT = /^[ \t]*(?:(?:export|local|readonly|declare)[ \t]+)?([A-Za-z_]\w*)=/;
/** The shell variables a `run:` assigns a head lookup (`HEAD_LOOKUP`), read once per step. */
const lookupsRead = new WeakMap<Obj, Set<string>>();

/** The variables a step's `run:` assigns from a head lookup (`SHA=$(gh api … --jq .head.sha)`): one pass over the lines. */
function headLookupVariables(step: Obj, run: string): Set<string> {
  let found = lookupsRead.get(step);
  if (found !== undefined) return found;
  found = new Set();
  for (const line of run.split('\n')) {
    const m = SHELL_ASSIGNMENT.exec(line);
    if (m !== null && HEAD_LOOKUP.test(line)) found.add(m[1] ?? '');
  }
  lookupsRead.set(step, found);
  return found;
}

/** `(id, output)` pairs, lower case, an expression-bearing text reads through `pattern` (each `${{ }}` normalised: `needs['x'].outputs['y']` too). */
function outputRefs(text: string, pattern: RegExp): Array<[string, string]> {
  return expressionsOf(text).flatMap((e) => [...normaliseExpression(e).matchAll(pattern)].map((m): [string, string] => [(m[1] ?? '').toLowerCase(), (m[2] ?? '').toLowerCase()]));
}

/**
 * What a `run:` script writes to `$GITHUB_OUTPUT` (or `file`: `GITHUB_ENV`), by output name (lower
 * case): the text after `name=` up to the redirection, per command (lines split at `;`, `&&`,
 * `||`); a command writing to it whose name is not read here (a heredoc) under the name `''`.
 * Linear: one pass per command.
 */
function writtenOutputs(run: string, file = 'GITHUB_OUTPUT'): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of run.split('\n')) {
    if (!line.includes(file)) continue;
    for (const command of line.split(/;|&&|\|\|/)) {
      if (!command.includes(file)) continue;
      const m = WRITTEN_NAME.exec(command);
      if (m === null) {
        out.set('', command);
        continue;
      }
      const from = m.index + m[0].length;
      const to = command.indexOf('>>', from);
      const name = (m[1] ?? '').toLowerCase();
      out.set(name, `${out.get(name) ?? ''} ${command.slice(from, to < 0 ? undefined : to)}`);
    }
  }
  return out;
}

/** Tells whether a text names the pull request's head (its expressions, or outputs of needed jobs that carry it). */
type HeadTest = (text: string) => boolean;

/** A github-script step's script, read once per step (`readScriptOutputs`). */
const scriptsRead = new WeakMap<Obj, ScriptOutputs>();
/** A `run:` step's writes to `$GITHUB_OUTPUT`, read once per step (`writtenOutputs`). */
const writesRead = new WeakMap<Obj, Map<string, string>>();
/** Whether a `run:` names what a test looks for, judged once per step and test (many outputs read from one step). */
const runsJudged = new WeakMap<HeadTest, WeakMap<Obj, boolean>>();

function runJudged(step: Obj, run: string, heads: HeadTest): boolean {
  let byStep = runsJudged.get(heads);
  if (byStep === undefined) runsJudged.set(heads, (byStep = new WeakMap()));
  let verdict = byStep.get(step);
  if (verdict === undefined) byStep.set(step, (verdict = heads(run)));
  return verdict;
}

/** Whether an `env:` value names what a test looks for, judged once per value and test (many outputs written from one variable). */
const valuesJudged = new WeakMap<HeadTest, Map<string, boolean>>();

function valueJudged(value: string, heads: HeadTest): boolean {
  let byValue = valuesJudged.get(heads);
  if (byValue === undefined) valuesJudged.set(heads, (byValue = new Map()));
  let verdict = byValue.get(value);
  if (verdict === undefined) byValue.set(value, (verdict = heads(value)));
  return verdict;
}

function isGithubScript(step: Obj): boolean {
  const uses = usesOf(step).toLowerCase();
  return uses === 'actions/github-script' || uses.startsWith('actions/github-script@');
}

/** A github-script step's script read once (`readScriptOutputs`). */
function scriptOf(step: Obj, script: string): ScriptOutputs {
  let outputs = scriptsRead.get(step);
  if (outputs === undefined) scriptsRead.set(step, (outputs = readScriptOutputs(script)));
  return outputs;
}

/**
 * A job's `env:` over the workflow's (`outer`, itself such a layer), as one object read by
 * variable: the job's own entries on a prototype that is the workflow's, built once per job (the
 * workflow's entries are not copied into each job). Objects without Object.prototype, so a
 * variable named `__proto__` or `constructor` is only a variable.
 */
function envLayer(own: unknown, outer: Obj | null): Obj {
  const layer = Object.create(outer) as Obj;
  if (isObj(own)) for (const [name, value] of Object.entries(own)) layer[name] = value;
  return layer;
}

/** A variable of the step's `env:`, else the job's (looked up, not merged). */
function envOf(step: Obj, jobEnv: Obj): (variable: string) => string | null {
  const stepEnv = isObj(step.env) ? step.env : {};
  return (variable) => str(Object.hasOwn(stepEnv, variable) ? stepEnv[variable] : jobEnv[variable]);
}

/**
 * The first command a github-script script runs (`exec.exec`, `execSync`…: github-script.ts
 * `commandLine`) whose command line carries attacker-written text (`textCarrier`: the payload's or
 * a fetched pull request's title, body, branch name…, an identifier assigned one, a `process.env`
 * variable set from one, an expression naming one); null when none.
 */
function injectedCommand(step: Obj, script: string, scope: Scope, triggers: readonly string[]): string | null {
  const outputs = scriptOf(step, script);
  if (outputs.commands.length === 0) return null;
  const carries = textCarrier(outputs, 'text', (text) => textUntrusted(text, scope.taint, triggers) || readsHeadOutput(text, scope.needsText), envOf(step, scope.jobEnv), triggers);
  return outputs.commands.find((c) => carries(commandLine(c)))?.call ?? null;
}

/**
 * Whether a step's output `name` carries the pull request's head (`carried` 'head', `heads`
 * judging a text) or attacker-written text ('text'): a `run:` that writes it to `$GITHUB_OUTPUT`
 * from an expression naming it (or from a variable of the step's or job's `env:` that does) — a
 * value written from anything else stays safe —; a `run:` that names it but writes the output in
 * a form not read here (a heredoc, `printf`); an `actions/github-script` step whose script sets it
 * (`core.setOutput`, or `return` for `result`) from it (github-script.ts) — or names it and sets
 * the output in a form not read here —; or another action whose `with:` inputs name it (what it
 * outputs is not known, so it may pass it on). `triggers` (null: any) are those in effect, for a
 * script's read of the payload (github-script.ts).
 */
function stepOutputCarries(step: Obj, name: string, carried: Carried, heads: HeadTest, jobEnv: Obj, triggers: readonly string[] | null): boolean {
  // The step's `env:` over the job's, looked up (not merged: many outputs read under a large job `env:`).
  const stepEnv = isObj(step.env) ? step.env : {};
  const env = (variable: string): unknown => (Object.hasOwn(stepEnv, variable) ? stepEnv[variable] : jobEnv[variable]);
  const run = str(step.run);
  if (run !== null) {
    let writes = writesRead.get(step);
    if (writes === undefined) writesRead.set(step, (writes = writtenOutputs(run)));
    const written = writes.get(name);
    if (written === undefined) return runJudged(step, run, heads);
    if (heads(written)) return true;
    if (carried === 'head') {
      if (HEAD_LOOKUP.test(written)) return true;
      const lookups = headLookupVariables(step, run);
      if (lookups.size > 0 && [...written.matchAll(SHELL_VAR)].some((m) => lookups.has(m[1] ?? ''))) return true;
    }
    return [...written.matchAll(SHELL_VAR)].some((m) => {
      const value = env(m[1] ?? '');
      return typeof value === 'string' && valueJudged(value, heads);
    });
  }
  const script = isGithubScript(step) ? str(withOf(step).script) : null;
  if (script !== null) {
    const outputs = scriptOf(step, script);
    const verdict = scriptOutputCarries(outputs, name, carried, heads, (variable) => str(env(variable)), triggers);
    if (verdict !== null) return verdict;
    if (scriptNames(outputs, carried, triggers)) return true;
  }
  return Object.values(withOf(step)).some((v) => typeof v === 'string' && heads(v));
}

/** Whether a text reads an output of a needed job that carries the head, or attacker text (`needs.<job>.outputs.<name>`). */
function readsHeadOutput(text: string, needsHead: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  return needsHead.size > 0 && outputRefs(text, NEEDS_OUTPUT).some(([jobId, output]) => needsHead.get(jobId)?.has(output) === true);
}

/**
 * The outputs (lower case) of each job (by lower-case id) that carry the pull request's head
 * (`carried` 'head', `base` judging a text) — or attacker-written text ('text') —, for the jobs
 * that `needs:` it: an output set from an expression naming it, or from a step output that does
 * (`stepOutputCarries`), or — given the outputs found a level before (`before`) — passed on from
 * a job it needs. Two levels in all (`NEEDS_LEVELS`): an output passed on further is not followed.
 * `triggers` (null: any) are those in effect, for a script's read of the payload.
 */
function jobOutputsCarrying(
  jobs: Obj,
  workflowEnv: Obj,
  carried: Carried,
  base: HeadTest,
  triggers: readonly string[] | null,
  before: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const heads: HeadTest = (text) => base(text) || readsHeadOutput(text, before);
  for (const [id, job] of Object.entries(jobs)) {
    if (!isObj(job) || !isObj(job.outputs)) continue;
    const steps = stepsById(Array.isArray(job.steps) ? job.steps.filter(isObj) : []);
    const jobEnv = envLayer(job.env, workflowEnv);
    const names = new Set<string>();
    for (const [name, value] of Object.entries(job.outputs)) {
      if (typeof value !== 'string') continue;
      const head =
        heads(value) ||
        outputRefs(value, STEP_OUTPUT).some(([stepId, output]) => {
          const source = steps.get(stepId);
          return source !== undefined && stepOutputCarries(source, output, carried, heads, jobEnv, triggers);
        });
      if (head) names.add(name.toLowerCase());
    }
    if (names.size > 0) out.set(id.toLowerCase(), names);
  }
  return out;
}

/** The outputs of each job that carry `carried`, followed through `NEEDS_LEVELS` levels of `needs`. */
function jobOutputsFollowed(jobs: Obj, workflowEnv: Obj, carried: Carried, base: HeadTest, triggers: readonly string[] | null): Map<string, Set<string>> {
  let found = new Map<string, Set<string>>();
  for (let level = 0; level < NEEDS_LEVELS; level += 1) found = jobOutputsCarrying(jobs, workflowEnv, carried, base, triggers, found);
  return found;
}

/** Levels of `needs` a head output is followed through: a job's output, and one passed on by a job that needs it. */
const NEEDS_LEVELS = 2;

/** A test of texts and its verdicts on earlier steps' outputs (`<step id>.<output>`, lower case), each judged once per job. */
interface OutputVerdicts {
  test: HeadTest;
  /** The triggers in effect (null: any), for a script's read of the payload. */
  triggers: readonly string[] | null;
  verdicts: Map<string, boolean>;
}

/**
 * What the steps before the one judged contribute, kept as `judgeSteps` advances, so that a job of
 * many steps reading many earlier outputs stays linear: the first earlier step of each id (as a
 * `steps.<id>` expression reads it), and the verdicts on their outputs, for the head — under each
 * checkout trigger, as its payload names it — and, by the triggers in effect, for attacker text.
 */
interface Earlier {
  byId: Map<string, Obj>;
  /** The head as named under one checkout trigger (`textNamesHead` with that trigger), by trigger. */
  heads: Map<string, OutputVerdicts>;
  text: Map<string, OutputVerdicts>;
  jobEnv: Obj;
  scope: Scope;
  /** Earlier steps whose `run:` writes a variable to `$GITHUB_ENV`, by lower-case name (`''`: a write whose name is not read). */
  envWriters: Map<string, Obj[]>;
  /** Verdicts on the variables written so far, by triggers and name: how many writers were judged, and whether one carries the text. */
  envVerdicts: Map<string, Map<string, { judged: number; carries: boolean }>>;
}

function earlierOf(scope: Scope): Earlier {
  return { byId: new Map(), heads: new Map(), text: new Map(), jobEnv: scope.jobEnv, scope, envWriters: new Map(), envVerdicts: new Map() };
}

/** The verdicts on the head as named under `trigger` (its payload: `TRIGGERS_CARRYING` in workflow-expressions.ts). */
function headUnder(earlier: Earlier, trigger: string): OutputVerdicts {
  let judged = earlier.heads.get(trigger);
  if (judged === undefined) {
    const { taint, needsHead } = earlier.scope;
    const needs = needsHead.get(trigger) ?? new Map<string, Set<string>>();
    const triggers = [trigger];
    judged = { test: (text) => textNamesHead(text, taint, triggers) || readsHeadOutput(text, needs), triggers, verdicts: new Map() };
    earlier.heads.set(trigger, judged);
  }
  return judged;
}

/** Adds a step judged to the earlier ones (the first step of an id is the one read). */
function remember(earlier: Earlier, step: Obj): void {
  const id = str(step.id)?.toLowerCase();
  if (id !== undefined && !earlier.byId.has(id)) earlier.byId.set(id, step);
  const written = envWrittenNames(step);
  if (written === null) return;
  for (const name of [...written, ANY_WRITE]) {
    const writers = earlier.envWriters.get(name);
    if (writers === undefined) earlier.envWriters.set(name, [step]);
    else if (writers.at(-1) !== step) writers.push(step);
  }
}

/** The github-script script of a step that exports variables (`core.exportVariable`), else null. */
function exportingScript(step: Obj): string | null {
  if (!isGithubScript(step)) return null;
  const script = str(withOf(step).script);
  return script !== null && script.includes('exportVariable') ? script : null;
}

/** The variables (lower case; `''`: a name not read) a step writes for later steps — a `run:` to `$GITHUB_ENV`, a github-script by `core.exportVariable` —; null when it writes none. */
function envWrittenNames(step: Obj): string[] | null {
  const run = str(step.run);
  if (run !== null) return run.includes('GITHUB_ENV') ? [...envWritesOf(step, run).keys()] : null;
  const script = exportingScript(step);
  return script === null ? null : [...scriptOf(step, script).exported.keys()];
}

/** A `run:` step's writes to `$GITHUB_ENV`, read once per step (`writtenOutputs`). */
const envWritesRead = new WeakMap<Obj, Map<string, string>>();

function envWritesOf(step: Obj, run: string): Map<string, string> {
  let writes = envWritesRead.get(step);
  if (writes === undefined) envWritesRead.set(step, (writes = writtenOutputs(run, 'GITHUB_ENV')));
  return writes;
}

/** Whether output `output` of the earlier step `stepId` carries what `judged` looks for (`stepOutputCarries`), judged once per job. */
function earlierCarries(earlier: Earlier, judged: OutputVerdicts, carried: Carried, [stepId, output]: [string, string]): boolean {
  const source = earlier.byId.get(stepId);
  if (source === undefined) return false;
  const key = `${stepId}.${output}`;
  let verdict = judged.verdicts.get(key);
  if (verdict === undefined) judged.verdicts.set(key, (verdict = stepOutputCarries(source, output, carried, judged.test, earlier.jobEnv, judged.triggers)));
  return verdict;
}

/**
 * Whether a checkout step's `ref`/`repository` names the head (`judged`: as named under the
 * triggers in effect): directly, through an earlier step's output, or through an output of a job
 * it needs (`jobOutputsCarrying`); `triggers` for the expressions of a `run:` line.
 */
function headCheckout(step: Obj, earlier: Earlier, judged: OutputVerdicts, taint: Taint): string | null {
  const uses = usesOf(step).toLowerCase();
  if (uses.startsWith('actions/checkout@') || uses === 'actions/checkout') {
    const w = withOf(step);
    for (const key of ['ref', 'repository']) {
      const value = str(w[key]);
      if (value === null) continue;
      if (judged.test(value)) return `${key}: ${value}`;
      if (outputRefs(value, STEP_OUTPUT).some((ref) => earlierCarries(earlier, judged, 'head', ref))) return `${key}: ${value}`;
    }
    return null;
  }
  const script = isGithubScript(step) ? str(withOf(step).script) : null;
  if (script !== null) {
    // `exec.exec('git', ['fetch', 'origin', pr.data.head.ref])`: a git fetch or checkout of the head run by the script.
    const outputs = scriptOf(step, script);
    const carries = textCarrier(outputs, 'head', judged.test, envOf(step, earlier.jobEnv), judged.triggers);
    return outputs.commands.find((c) => GIT_FETCH.test(commandWords(c)) && carries(`${c.first} ${c.second}`))?.call ?? null;
  }
  const run = str(step.run);
  if (run === null) return null;
  const line = run.split('\n').find((l) => (GIT_FETCH.test(l) && textNamesHead(l, taint, judged.triggers)) || /\bgh\s+pr\s+checkout\b/i.test(l));
  return line ?? null;
}

/**
 * The head checkout of a step under the checkout triggers in effect, and the triggers under which
 * it is one, each judged as its payload names the head (`headUnder`): `github.event.pull_request.head.sha`
 * (or a script's `context.payload.pull_request.head.sha`) under `pull_request_target`,
 * `github.event.workflow_run.head_sha` under `workflow_run`; under `issue_comment`, whose payload
 * carries no pull request, only a head named by number (`refs/pull/${{ github.event.issue.number }}/head`),
 * looked up through the API, or `gh pr checkout` — the others are empty there, and the checkout is
 * of the default branch.
 */
function headCheckoutUnder(step: Obj, earlier: Earlier, taint: Taint, triggers: readonly string[]): { excerpt: string; triggers: string[] } | null {
  let excerpt: string | null = null;
  const under: string[] = [];
  for (const trigger of triggers) {
    const found = headCheckout(step, earlier, headUnder(earlier, trigger), taint);
    if (found === null) continue;
    excerpt ??= found;
    under.push(trigger);
  }
  return excerpt === null ? null : { excerpt, triggers: under };
}

/** Whether a script runs a command after the line that fetched the head (other than git, gh, echo, cd). */
function runsAfterFetch(run: string | null, fetchLine: string): boolean {
  if (run === null) return false;
  const lines = run.split('\n');
  const at = lines.indexOf(fetchLine);
  const sameLineRest = fetchLine.split(/&&|;|\|\|/).slice(1);
  const after = [...sameLineRest, ...lines.slice(at + 1)].map((l) => l.trim());
  return after.some((l) => l !== '' && !l.startsWith('#') && !/^(?:git|gh|echo|cd|set|export|fi|then|else|done)\b/.test(l));
}

function runsCode(step: Obj): boolean {
  return str(step.run) !== null || usesOf(step).startsWith('./');
}

function guarded(...ifs: unknown[]): boolean {
  return ifs.some((v) => typeof v === 'string' && GUARD.test(v));
}

/** Longest `if:` read for the events it admits (longer: not narrowed). */
const MAX_IF_CHARS = 2000;

const EVENT_IS = /^github\.event_name==(['"])([a-z_]+)\1$|^(['"])([a-z_]+)\3==github\.event_name$/i;

/**
 * The events an `if:` admits when one of its `&&` terms is nothing but `github.event_name == '…'`
 * comparisons joined by `||` (`(github.event_name == 'pull_request' || github.event_name ==
 * 'pull_request_target') && …`); null when it does not say (then every trigger counts).
 */
export function eventsAdmitted(ifValue: unknown): Set<string> | null {
  if (typeof ifValue !== 'string' || ifValue.length > MAX_IF_CHARS) return null;
  let e = ifValue.replace(/\s+/g, '');
  if (e.startsWith('${{') && e.endsWith('}}')) e = e.slice(3, -2);
  const admittedBy: Array<Set<string>> = [];
  for (const conjunct of splitTop(e, '&&')) {
    const events = new Set<string>();
    let onlyEvents = true;
    for (const part of splitTop(stripParens(conjunct), '||')) {
      const m = EVENT_IS.exec(stripParens(part));
      if (m === null) {
        onlyEvents = false;
        break;
      }
      events.add((m[2] ?? m[4] ?? '').toLowerCase());
    }
    if (onlyEvents) admittedBy.push(events);
  }
  const [first, ...rest] = admittedBy;
  return first === undefined ? null : new Set([...first].filter((x) => rest.every((set) => set.has(x))));
}

/** The triggers in effect under an `if:` (those it admits, when it says). */
function narrowed(triggers: readonly string[], ifValue: unknown): string[] {
  const admitted = eventsAdmitted(ifValue);
  return admitted === null ? [...triggers] : triggers.filter((t) => admitted.has(t));
}

interface Scope {
  path: string;
  job: string;
  /** Outsider triggers in effect (empty: nothing is judged, only counted). */
  outsider: string[];
  taint: Taint;
  via: string[];
  repo: RepoName | null;
  jobGuarded: boolean;
  /** The job's `env:` over the workflow's (`envLayer`: a step output written from one of their variables). */
  jobEnv: Obj;
  /** The same by lower-case name (`${{ env.X }}` ignores case): the job's layer, then the workflow's. */
  envByName: ReadonlyArray<ReadonlyMap<string, string>>;
  /** The tests for attacker text by triggers in effect, shared by the file's jobs (`textVerdicts`). */
  textTests: Map<string, HeadTest>;
  /**
   * The outputs of the workflow's jobs that carry the pull request's head (`jobOutputsCarrying`),
   * by checkout trigger: as its payload names the head (`github.event.pull_request.head.sha` is
   * empty under `issue_comment` and `workflow_run`).
   */
  needsHead: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;
  /** The outputs of the workflow's jobs that carry attacker-written text (`jobOutputsCarrying`). */
  needsText: ReadonlyMap<string, ReadonlySet<string>>;
  /** The job's permission gate (permission-gate.ts), or null. */
  gate: string | null;
  /** The workflow's jobs and this job's `needs`, for a step's `needs.` gate (null in an action). */
  gateJobs: GateJobs | null;
}

/**
 * The first line of a script with an expression reading a step output (`steps.<id>.outputs.<n>`,
 * an earlier step's) or a needed job's output (`needs.<job>.outputs.<n>`) that carries
 * attacker-written text (`stepOutputCarries`, `jobOutputsCarrying`): the expression expands to
 * that text before the shell or the script runs — also in an expression spanning lines (then the
 * expression is the excerpt). Each `(step, output)` is judged once per job and triggers in effect.
 */
function injectedOutputLine(script: string, earlier: Earlier, scope: Scope, triggers: readonly string[]): string | null {
  if (!script.includes('outputs')) return null;
  const untrusted = textVerdicts(earlier, scope, triggers);
  const carries = (ref: [string, string]): boolean => earlierCarries(earlier, untrusted, 'text', ref);
  for (const line of script.split('\n')) {
    if (!line.includes('outputs')) continue;
    if (readsHeadOutput(line, scope.needsText) || outputRefs(line, STEP_OUTPUT).some(carries)) return line;
  }
  // An expression spanning lines (`${{\n steps.t.outputs.title\n }}`): judged whole, shown whole.
  for (const inside of expressionsOf(script)) {
    if (!inside.includes('\n') || !inside.includes('outputs')) continue;
    const whole = `\${{${inside}}}`;
    if (readsHeadOutput(whole, scope.needsText) || outputRefs(whole, STEP_OUTPUT).some(carries)) return whole;
  }
  return null;
}

/** The verdicts on attacker text under `triggers` (its expressions, or a needed job's output carrying it), kept per job. */
function textVerdicts(earlier: Earlier, scope: Scope, triggers: readonly string[]): OutputVerdicts {
  const triggersKey = triggers.join(' ');
  let judged = earlier.text.get(triggersKey);
  if (judged === undefined) {
    // One test per triggers for the whole file, so that what it judged (an `env:` value, a layer) is judged once, not once per job.
    let test = scope.textTests.get(triggersKey);
    if (test === undefined) scope.textTests.set(triggersKey, (test = (text) => textUntrusted(text, scope.taint, triggers) || readsHeadOutput(text, scope.needsText)));
    earlier.text.set(triggersKey, (judged = { test, triggers, verdicts: new Map() }));
  }
  return judged;
}

/** `env.NAME` in a normalised expression (not `inputs.env`, `matrix.env.x`); `toJSON(env)` reads every variable. */
const ENV_REF = /(?<![\w.-])env\.([\w-]+)/gi;
const ENV_DUMP = /\btojson\(env\)/i;

/** An `env:` by lower-case name; two names differing in case are both kept (either may be the one read). */
function envByName(own: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObj(own)) return out;
  for (const [name, value] of Object.entries(own)) {
    if (typeof value !== 'string') continue;
    const key = name.toLowerCase();
    const before = out.get(key);
    out.set(key, before === undefined ? value : `${before} ${value}`);
  }
  return out;
}

/** A step's `env:` by lower-case name, read once per step. */
const stepEnvRead = new WeakMap<Obj, Map<string, string>>();

function stepEnvByName(step: Obj): Map<string, string> {
  let env = stepEnvRead.get(step);
  if (env === undefined) stepEnvRead.set(step, (env = envByName(step.env)));
  return env;
}

/** The lower-case names of the variables a text's expressions read as `env.NAME`, and whether one reads them all (`toJSON(env)`). */
function envNamesRead(text: string): { names: Set<string>; all: boolean } {
  const names = new Set<string>();
  let all = false;
  for (const e of expressionsOf(text)) {
    const normalised = normaliseExpression(e);
    if (ENV_DUMP.test(normalised)) all = true;
    for (const m of normalised.matchAll(ENV_REF)) names.add((m[1] ?? '').toLowerCase());
  }
  return { names, all };
}

/** Whether any variable of an `env:` layer carries what `judged` looks for, judged once per layer and test. */
const layersJudged = new WeakMap<ReadonlyMap<string, string>, WeakMap<HeadTest, boolean>>();

function layerCarries(layer: ReadonlyMap<string, string>, judged: OutputVerdicts): boolean {
  let byTest = layersJudged.get(layer);
  if (byTest === undefined) layersJudged.set(layer, (byTest = new WeakMap()));
  let verdict = byTest.get(judged.test);
  if (verdict === undefined) byTest.set(judged.test, (verdict = [...layer.values()].some((value) => valueJudged(value, judged.test))));
  return verdict;
}

/**
 * Whether the variable `name` (lower case) that `step` reads as `${{ env.NAME }}` carries attacker
 * text (`judged`): the step's own `env:` decides when it sets it (a value naming the text, an
 * earlier step's output or a needed job's output carrying it, or `env.X` of the job's or the
 * workflow's that does); otherwise the job's `env:` over the workflow's, and what earlier steps
 * wrote to `$GITHUB_ENV` (either may be the value: a write replaces the job's for later steps).
 */
function envCarries(name: string, step: Obj, earlier: Earlier, judged: OutputVerdicts): boolean {
  const own = stepEnvByName(step).get(name);
  return own === undefined ? outerEnvCarries(name, earlier, judged) : ownEnvCarries(own, earlier, judged);
}

/** Whether a value of the step's own `env:` carries attacker text: named in it, or read from an earlier step's output or an outer variable that carries it. */
function ownEnvCarries(value: string, earlier: Earlier, judged: OutputVerdicts): boolean {
  if (valueJudged(value, judged.test) || outputRefs(value, STEP_OUTPUT).some((ref) => earlierCarries(earlier, judged, 'text', ref))) return true;
  const read = envNamesRead(value);
  if (read.all && allOuterEnvCarries(earlier, judged)) return true;
  return [...read.names].some((name) => outerEnvCarries(name, earlier, judged));
}

/** `envCarries` for a variable the step does not set: the job's or workflow's `env:`, or a write to `$GITHUB_ENV` before it. */
function outerEnvCarries(name: string, earlier: Earlier, judged: OutputVerdicts): boolean {
  for (const layer of earlier.scope.envByName) {
    const value = layer.get(name);
    if (value === undefined) continue;
    if (valueJudged(value, judged.test)) return true;
    break;
  }
  return writtenEnvCarries(name, earlier, judged);
}

/** Whether any variable outside the step carries attacker text (`toJSON(env)`): of the job's or workflow's `env:`, or written to `$GITHUB_ENV` before it (each writer's script judged whole). */
function allOuterEnvCarries(earlier: Earlier, judged: OutputVerdicts): boolean {
  return earlier.scope.envByName.some((layer) => layerCarries(layer, judged)) || writtenEnvCarries(ANY_WRITE, earlier, judged);
}

/** The name under which every step writing to `$GITHUB_ENV` is kept (a name no variable has). */
const ANY_WRITE = '*';

/**
 * Whether an earlier step wrote `name` to `$GITHUB_ENV` from attacker text: written from an
 * expression naming it or a variable of its `env:` (or the job's) holding it; a write whose name
 * is not read (a heredoc) is judged by its whole script. Each writer is judged once per name and
 * triggers, as the steps advance.
 */
function writtenEnvCarries(name: string, earlier: Earlier, judged: OutputVerdicts): boolean {
  const triggersKey = (judged.triggers ?? []).join(' ');
  let byName = earlier.envVerdicts.get(triggersKey);
  if (byName === undefined) earlier.envVerdicts.set(triggersKey, (byName = new Map()));
  let verdict = byName.get(name);
  if (verdict === undefined) byName.set(name, (verdict = { judged: 0, carries: false }));
  const writers = earlier.envWriters.get(name) ?? [];
  // A write whose name is not read (`''`), or any write (`toJSON(env)`): the writer's whole script.
  const whole = name === '' || name === ANY_WRITE;
  const carries = (writer: Obj): boolean => {
    const script = exportingScript(writer);
    if (script !== null) {
      // A github-script's `core.exportVariable` values, judged as its outputs are (github-script.ts).
      const outputs = scriptOf(writer, script);
      const values = name === ANY_WRITE ? [...outputs.exported.values()].flat() : (outputs.exported.get(name) ?? []);
      return values.some(textCarrier(outputs, 'text', judged.test, envOf(writer, earlier.jobEnv), judged.triggers));
    }
    const run = str(writer.run) ?? '';
    const written = whole ? run : (envWritesOf(writer, run).get(name) ?? run);
    if (judged.test(written)) return true;
    const stepEnv = isObj(writer.env) ? writer.env : {};
    return [...written.matchAll(SHELL_VAR)].some((m) => {
      const variable = m[1] ?? '';
      const value = Object.hasOwn(stepEnv, variable) ? stepEnv[variable] : earlier.jobEnv[variable];
      return typeof value === 'string' && valueJudged(value, judged.test);
    });
  };
  for (; verdict.judged < writers.length && !verdict.carries; verdict.judged += 1) verdict.carries = carries(writers[verdict.judged]!);
  // A write not read may have set any name: judged once for all names.
  return verdict.carries || (!whole && writtenEnvCarries('', earlier, judged));
}

/** Whether a text's expressions read an `env:` variable that carries attacker text (`envCarries`), in `step`. */
function envTextCarries(text: string, step: Obj, earlier: Earlier, judged: OutputVerdicts): boolean {
  if (!/env/i.test(text)) return false;
  const read = envNamesRead(text);
  if (read.all && ([...stepEnvByName(step).values()].some((value) => ownEnvCarries(value, earlier, judged)) || allOuterEnvCarries(earlier, judged))) return true;
  return [...read.names].some((name) => envCarries(name, step, earlier, judged));
}

/**
 * The first line of a script with an expression reading an `env:` variable that carries attacker
 * text (`envCarries`): `${{ env.NAME }}` expands before the shell or the script runs, as the text
 * itself would (`"$NAME"` is the safe form: the shell reads it). An expression spanning lines is
 * shown whole.
 */
function injectedEnvLine(script: string, step: Obj, earlier: Earlier, scope: Scope, triggers: readonly string[]): string | null {
  if (!/env/i.test(script)) return null;
  const judged = textVerdicts(earlier, scope, triggers);
  const carries = (text: string): boolean => envTextCarries(text, step, earlier, judged);
  for (const line of script.split('\n')) if (/env/i.test(line) && carries(line)) return line;
  for (const inside of expressionsOf(script)) {
    if (!inside.includes('\n')) continue;
    const whole = `\${{${inside}}}`;
    if (carries(whole)) return whole;
  }
  return null;
}

const where = (scope: Scope, step: string | null): string => `${scope.path} (job ${scope.job}${step === null ? '' : `, ${step}`})`;

/** Judge one job's steps (a workflow job's, or a composite action's `runs.steps`). */
/** Judge the steps; returns the head checkout left with nothing run after it (for an action's caller to run). */
function judgeSteps(scope: Scope, steps: readonly Obj[], out: Judged): CheckoutLeft | null {
  const finding = (code: WorkflowFindingCode, step: string, triggers: string[], excerpt: string): WorkflowFinding => ({
    code,
    path: scope.path,
    job: scope.job,
    step,
    triggers,
    excerpt: oneLine(excerpt, EXCERPT_CHARS),
    ...(scope.via.length === 0 ? {} : { via: scope.via }),
  });
  const record = (f: WorkflowFinding, gate: string | null): void => {
    if (gate === null) out.findings.push(f);
    else out.gated.push({ ...f, gate });
  };
  let checkout: { step: Obj; index: number; excerpt: string; triggers: string[]; gate: string | null; gatedNoted: boolean } | null = null;
  // A step that fails unless the actor is permitted stops the steps after it (permission-gate.ts).
  const failing = firstFailingStep(steps);
  const earlier = earlierOf(scope);
  const earlierStep = (id: string): Obj | undefined => earlier.byId.get(id);
  // The first step after each that runs code (-1: none), found in one pass from the end.
  const nextRunning: number[] = [];
  for (let i = steps.length - 1, next = -1; i >= 0; i -= 1) {
    nextRunning[i] = next;
    if (runsCode(steps[i] ?? {})) next = i;
  }
  steps.forEach((step, index) => {
    const previous = steps[index - 1];
    if (previous !== undefined) remember(earlier, previous);
    const uses = usesOf(step);
    if (uses !== '' && !uses.startsWith('./') && !uses.startsWith('$/') && !uses.startsWith('docker://') && !SHA_PIN.test(uses)) out.unpinnedActions += 1;
    // The triggers under which this step runs (an `if:` on `github.event_name` narrows them).
    const outsider = narrowed(scope.outsider, step.if);
    if (outsider.length === 0 || scope.jobGuarded || guarded(step.if)) return;
    const checkoutTriggers = outsider.filter((t) => CHECKOUT_TRIGGERS.has(t));
    const label = stepLabel(step, index);
    const gate = scope.gate ?? permissionGate(step.if, earlierStep, scope.gateJobs, outsider) ?? failureGate(step.if, failing !== null && failing.index < index ? failing.how : null, null);
    if (uses !== '') {
      const target = usesTarget(uses, scope.repo);
      if ('local' in target) {
        const later = nextRunning[index] ?? -1;
        out.calls.push({
          kind: 'action',
          target: target.local,
          job: scope.job,
          triggers: outsider,
          taint: taintOfWith(withOf(step), scope.taint, outsider, (value) => envTextCarries(value, step, earlier, textVerdicts(earlier, scope, outsider))),
          secretsInherit: false,
          via: [...scope.via, where(scope, label)],
          ...(later < 0 ? {} : { runsAfter: stepLabel(steps[later] ?? {}, later) }),
          ...(gate === null ? {} : { gate }),
        });
      } else if ('remote' in target) {
        out.remoteActions.push(target.remote);
      }
    }
    // An untrusted checkout followed by code: reported once per checkout, at the checkout.
    if (checkoutTriggers.length > 0) {
      // The triggers under which both the checkout named the head and this step runs.
      const runTriggers = checkout === null ? [] : checkout.triggers.filter((t) => checkoutTriggers.includes(t));
      if (checkout !== null && runsCode(step) && runTriggers.length > 0) {
        const found = finding('untrusted-checkout', stepLabel(checkout.step, checkout.index), runTriggers, `${checkout.excerpt} → then runs: ${label}`);
        // A gated checkout never happens for outsiders; a gated step that runs it is recorded
        // once, and a later ungated step that runs it is still a finding.
        if (checkout.gate !== null || gate === null) {
          record(found, checkout.gate ?? gate);
          checkout = null;
        } else if (!checkout.gatedNoted) {
          record(found, gate);
          checkout.gatedNoted = true;
        }
      }
      const head = checkout === null ? headCheckoutUnder(step, earlier, scope.taint, checkoutTriggers) : null;
      if (head !== null) {
        checkout = { step, index, excerpt: head.excerpt, triggers: head.triggers, gate, gatedNoted: false };
        // `gh pr checkout 1 && npm ci` or a script that builds after fetching: the same step runs it.
        if (runsAfterFetch(str(step.run), head.excerpt)) {
          record(finding('untrusted-checkout', label, head.triggers, `${head.excerpt} → then runs: ${label}`), gate);
          checkout = null;
        }
      }
    }
    const ghScript = uses.toLowerCase().startsWith('actions/github-script@') ? str(withOf(step).script) : null;
    for (const script of [str(step.run), ghScript]) {
      if (script === null) continue;
      const line =
        injectedLine(script, scope.taint, outsider) ??
        injectedOutputLine(script, earlier, scope, outsider) ??
        injectedEnvLine(script, step, earlier, scope, outsider) ??
        (script === ghScript ? injectedCommand(step, script, scope, outsider) : null);
      if (line === null) continue;
      record(finding('script-injection', label, outsider, line), gate);
      break;
    }
  });
  // Assigned inside the callback, which TypeScript's narrowing of `checkout` does not follow.
  const left = checkout as { step: Obj; index: number; excerpt: string; triggers: string[]; gate: string | null } | null;
  return left === null ? null : { step: stepLabel(left.step, left.index), excerpt: left.excerpt, triggers: left.triggers, ...(left.gate === null ? {} : { gate: left.gate }) };
}

function parseYaml(text: string, what: string): { ok: true; value: Obj } | { ok: false; reason: string } {
  try {
    const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false, logLevel: 'silent' });
    if (doc.errors.length > 0) return { ok: false, reason: `the ${what} is not valid YAML` };
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIASES });
    return isObj(value) ? { ok: true, value } : { ok: false, reason: `the ${what} is not a mapping` };
  } catch {
    return { ok: false, reason: `the ${what} is not valid YAML (or expands too many aliases)` };
  }
}

const emptyJudged = (): Judged => ({ findings: [], gated: [], calls: [], remoteActions: [], unpinnedActions: 0 });

/**
 * Parse and judge one workflow file (pure): with its own triggers, or — `context` given — as
 * called by an outsider-triggered job (the caller's triggers, its tainted inputs).
 */
export function analyseWorkflow(path: string, text: string, options: { repo?: RepoName; context?: CallContext } = {}): WorkflowAnalysis {
  const parsed = parseYaml(text, 'workflow');
  if (!parsed.ok) return { ok: false, path, reason: parsed.reason };
  const value = parsed.value;
  const triggers = workflowTriggers(value.on);
  const { context } = options;
  const outsider = context !== undefined ? context.triggers : triggers.filter((t) => OUTSIDER_TRIGGERS.includes(t));
  const out = emptyJudged();
  const jobs = isObj(value.jobs) ? value.jobs : {};
  const taint = context?.taint ?? NO_TAINT;
  // The workflow's `env:`, under each job's (`envLayer`); by lower-case name for `${{ env.X }}`.
  const workflowEnv = envLayer(value.env, null);
  const workflowEnvByName = envByName(value.env);
  const textTests = new Map<string, HeadTest>();
  const needsHead = new Map(checkoutTriggersOf(outsider).map((t) => [t, jobOutputsFollowed(jobs, workflowEnv, 'head', (text) => textNamesHead(text, taint, [t]), [t])] as const));
  const needsText = jobOutputsFollowed(jobs, workflowEnv, 'text', (text) => textUntrusted(text, taint, outsider), outsider);
  for (const [rawJobId, job] of Object.entries(jobs)) {
    if (!isObj(job)) continue;
    // A job's id is the file's text too: flattened and cut like the excerpts.
    const jobId = oneLine(rawJobId, 80);
    const jobOutsider = narrowed(outsider, job.if);
    const scope: Scope = {
      path,
      job: jobId,
      outsider: jobOutsider,
      taint: context?.taint ?? NO_TAINT,
      via: context?.via ?? [],
      repo: options.repo ?? null,
      jobGuarded: guarded(job.if),
      jobEnv: envLayer(job.env, workflowEnv),
      envByName: [envByName(job.env), workflowEnvByName],
      textTests,
      needsHead,
      needsText,
      gate: null,
      gateJobs: { jobs, needs: needsOf(job) },
    };
    scope.gate = context?.gate ?? permissionGate(job.if, () => undefined, scope.gateJobs, jobOutsider) ?? failureGate(job.if, null, scope.gateJobs);
    const jobUses = str(job.uses)?.trim() ?? null;
    if (jobUses !== null) {
      if (!jobUses.startsWith('./') && !jobUses.startsWith('$/') && !SHA_PIN.test(jobUses)) out.unpinnedActions += 1;
      if (jobOutsider.length > 0 && !scope.jobGuarded) {
        const target = usesTarget(jobUses, scope.repo);
        if ('local' in target) {
          const secrets = str(job.secrets)?.trim() === 'inherit';
          out.calls.push({
            kind: 'workflow',
            target: target.local,
            job: jobId,
            triggers: jobOutsider,
            taint: taintOfWith(withOf(job), scope.taint, jobOutsider),
            secretsInherit: secrets,
            via: [...scope.via, `${where(scope, null)}${secrets ? ' with secrets: inherit' : ''}`],
            ...(scope.gate === null ? {} : { gate: scope.gate }),
          });
        } else if ('remote' in target) out.remoteActions.push(target.remote);
      }
    }
    judgeSteps(scope, Array.isArray(job.steps) ? job.steps.filter(isObj) : [], out);
  }
  return { ok: true, path, triggers, outsider: outsider.length > 0, ...out };
}

/**
 * Parse and judge one action's `action.yml` as called by an outsider-triggered job (pure): a
 * composite action's `runs.steps` see the caller's `github` context (`github.head_ref` is the
 * same attacker text) and its `inputs.*` as the caller filled them. Any other kind of action
 * (JavaScript, Docker) is not judged: `composite: false`.
 */
export function analyseAction(path: string, text: string, context: CallContext, repo: RepoName | null = null): ActionAnalysis {
  const parsed = parseYaml(text, 'action');
  if (!parsed.ok) return { ok: false, path, reason: parsed.reason };
  const runs = isObj(parsed.value.runs) ? parsed.value.runs : null;
  const using = oneLine(str(runs?.using) ?? 'unknown', 40);
  if (runs === null || using.toLowerCase() !== 'composite') return { ok: true, path, composite: false, using };
  const out = emptyJudged();
  const scope: Scope = { path, job: context.job ?? 'action', outsider: context.triggers, taint: context.taint, via: context.via, repo, jobGuarded: false, jobEnv: envLayer(null, null), envByName: [], textTests: new Map(), needsHead: new Map(), needsText: new Map(), gate: context.gate ?? null, gateJobs: null };
  const checkoutLeft = judgeSteps(scope, Array.isArray(runs.steps) ? runs.steps.filter(isObj) : [], out);
  return { ok: true, path, composite: true, checkoutLeft, ...out };
}

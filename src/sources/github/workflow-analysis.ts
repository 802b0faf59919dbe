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
 *  - `untrusted-checkout`: a `pull_request_target` or `workflow_run` workflow checks out the
 *    pull request's code (`actions/checkout` whose `ref` or `repository` names the head — directly
 *    or through an earlier step's output whose inputs name it —, or a `run:` that fetches it /
 *    `gh pr checkout`) and a later step of the job runs something (`run:`, or a local action
 *    `uses: ./…`). A checkout with nothing run after it is not a finding.
 *  - `script-injection`: an expression naming attacker-written text (an issue or pull request
 *    title or body, a branch name, a comment, a commit message …: UNTRUSTED below) spliced into a
 *    `run:` script or an `actions/github-script` `script:` of an outsider-triggered workflow.
 *    Passing the value through `env:` and reading `"$VAR"` is the safe form, and is not flagged.
 * A job or step whose `if:` admits only the repository's own branches or known authors
 * (`head.repo.full_name`, `head.repo.fork`, `author_association`) is not flagged.
 *
 * Not judged (limits): the steps inside a called action or reusable workflow, expressions
 * written in bracket form (`github.event['issue']['title']`), repository settings. Unpinned
 * third-party actions are counted as context only (pinning is hygiene, not this finding).
 *
 * YAML is read with the failsafe schema (every scalar a string: `on` stays the key `on`) and
 * at most `MAX_ALIASES` alias expansions, so an alias bomb is refused, never expanded.
 */
import { parseDocument } from 'yaml';
import { oneLine } from './request.js';

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
}

export type WorkflowAnalysis =
  | { ok: true; path: string; triggers: string[]; outsider: boolean; findings: WorkflowFinding[]; unpinnedActions: number }
  | { ok: false; path: string; reason: string };

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
/** Triggers under which checking out the pull request's code runs it with the secrets. */
const CHECKOUT_TRIGGERS = new Set(['pull_request_target', 'workflow_run']);

/** Attacker-written text in the `github` context (the names GitHub's hardening guide lists). */
const UNTRUSTED =
  /\bgithub\s*\.\s*(?:head_ref|event\s*\.\s*(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.(?:ref|label|repo\.default_branch))|comment\.body|review\.body|review_comment\.body|pages\.[\w*]+\.page_name|commits\.[\w*]+\.(?:message|author\.(?:email|name))|head_commit\.(?:message|author\.(?:email|name))|workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author\.(?:email|name))|pull_requests\.[\w*]+\.head\.ref)|discussion\.(?:title|body)))\b/i;
/** A ref that names the pull request's own code. */
const HEAD_REF =
  /github\.event\.pull_request\.head\.(?:sha|ref)\b|github\.head_ref\b|refs\/pull\/|github\.event\.workflow_run\.(?:head_sha|head_branch|head_commit\.id)\b|github\.event\.pull_request\.head\.repo\.full_name\b/i;
const GIT_FETCH = /\bgit\s+(?:fetch|checkout|pull|switch)\b|\bgh\s+pr\s+checkout\b/i;
/** A guard that admits only the repository's own branches or known authors. */
const GUARD = /head\.repo\.full_name|head\.repo\.fork|author_association/i;
const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;
const SHA_PIN = /@[0-9a-f]{40}$/i;

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

/** The first line of `text` holding an untrusted expression, or null. */
function injectedLine(text: string): string | null {
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(EXPRESSION)) if (UNTRUSTED.test(m[1] ?? '')) return line;
  }
  // An expression split over lines.
  for (const m of text.matchAll(EXPRESSION)) if (UNTRUSTED.test(m[1] ?? '')) return m[0];
  return null;
}

function withOf(step: Obj): Obj {
  return isObj(step.with) ? step.with : {};
}

function usesOf(step: Obj): string {
  return (str(step.uses) ?? '').trim();
}

/** Whether a checkout step's `ref`/`repository` names the head, directly or through an earlier step's output. */
function headCheckout(step: Obj, earlier: readonly Obj[]): string | null {
  const uses = usesOf(step).toLowerCase();
  if (uses.startsWith('actions/checkout@') || uses === 'actions/checkout') {
    const w = withOf(step);
    for (const key of ['ref', 'repository']) {
      const value = str(w[key]);
      if (value === null) continue;
      if (HEAD_REF.test(value)) return `${key}: ${value}`;
      for (const m of value.matchAll(/steps\.([\w-]+)\.outputs/g)) {
        const source = earlier.find((s) => str(s.id) === m[1]);
        if (source === undefined) continue;
        const inputs = [...Object.values(withOf(source)), source.run].filter((v): v is string => typeof v === 'string');
        if (inputs.some((v) => HEAD_REF.test(v))) return `${key}: ${value}`;
      }
    }
    return null;
  }
  const run = str(step.run);
  if (run === null) return null;
  const line = run.split('\n').find((l) => (GIT_FETCH.test(l) && HEAD_REF.test(l)) || /\bgh\s+pr\s+checkout\b/i.test(l));
  return line ?? null;
}

function checkoutFinding(path: string, job: string, checkout: { step: Obj; index: number; excerpt: string }, runner: string, triggers: string[]): WorkflowFinding {
  return {
    code: 'untrusted-checkout',
    path,
    job,
    step: stepLabel(checkout.step, checkout.index),
    triggers,
    excerpt: oneLine(`${checkout.excerpt} → then runs: ${runner}`, EXCERPT_CHARS),
  };
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

/** Parse and judge one workflow file (pure). */
export function analyseWorkflow(path: string, text: string): WorkflowAnalysis {
  let value: unknown;
  try {
    const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false, logLevel: 'silent' });
    if (doc.errors.length > 0) return { ok: false, path, reason: 'the workflow is not valid YAML' };
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch {
    return { ok: false, path, reason: 'the workflow is not valid YAML (or expands too many aliases)' };
  }
  if (!isObj(value)) return { ok: false, path, reason: 'the workflow is not a mapping' };
  const triggers = workflowTriggers(value.on);
  const outsider = triggers.filter((t) => OUTSIDER_TRIGGERS.includes(t));
  const checkoutTriggers = outsider.filter((t) => CHECKOUT_TRIGGERS.has(t));
  const findings: WorkflowFinding[] = [];
  let unpinnedActions = 0;
  const jobs = isObj(value.jobs) ? value.jobs : {};
  for (const [rawJobId, job] of Object.entries(jobs)) {
    if (!isObj(job)) continue;
    // A job's id is the file's text too: flattened and cut like the excerpts.
    const jobId = oneLine(rawJobId, 80);
    const jobUses = str(job.uses);
    if (jobUses !== null && !jobUses.startsWith('./') && !SHA_PIN.test(jobUses.trim())) unpinnedActions += 1;
    const steps = Array.isArray(job.steps) ? job.steps.filter(isObj) : [];
    const jobGuarded = guarded(job.if);
    let checkout: { step: Obj; index: number; excerpt: string } | null = null;
    steps.forEach((step, index) => {
      const uses = usesOf(step);
      if (uses !== '' && !uses.startsWith('./') && !uses.startsWith('docker://') && !SHA_PIN.test(uses)) unpinnedActions += 1;
      if (outsider.length === 0 || jobGuarded || guarded(step.if)) return;
      // An untrusted checkout followed by code: reported once per checkout, at the checkout.
      if (checkoutTriggers.length > 0) {
        if (checkout !== null && runsCode(step)) {
          findings.push(checkoutFinding(path, jobId, checkout, stepLabel(step, index), checkoutTriggers));
          checkout = null;
        }
        const head = checkout === null ? headCheckout(step, steps.slice(0, index)) : null;
        if (head !== null) {
          checkout = { step, index, excerpt: head };
          // `gh pr checkout 1 && npm ci` or a script that builds after fetching: the same step runs it.
          if (runsAfterFetch(str(step.run), head)) {
            findings.push(checkoutFinding(path, jobId, checkout, stepLabel(step, index), checkoutTriggers));
            checkout = null;
          }
        }
      }
      const scripts = [str(step.run), uses.toLowerCase().startsWith('actions/github-script@') ? str(withOf(step).script) : null];
      for (const script of scripts) {
        if (script === null) continue;
        const line = injectedLine(script);
        if (line === null) continue;
        findings.push({ code: 'script-injection', path, job: jobId, step: stepLabel(step, index), triggers: outsider, excerpt: oneLine(line, EXCERPT_CHARS) });
        break;
      }
    });
  }
  return { ok: true, path, triggers, outsider: outsider.length > 0, findings, unpinnedActions };
}

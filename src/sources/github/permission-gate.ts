/**
 * Permission gates in GitHub Actions workflows (docs/scoring.md, "Workflows"; docs/checks.md,
 * `workflow-safety`): a job or step whose `if:` requires — an `&&` term, never an `||`
 * alternative — an output to equal a value, where that output is set by a step that asks GitHub
 * for the actor's permission on the repository. Code behind such a gate runs only for those the
 * step admits (maintainers, writers), so a finding there is recorded as gated, not counted.
 *
 * The output is `needs.<job>.outputs.<name>` of a job among the gated job's `needs` (its
 * `outputs:` entry exactly one `steps.<id>.outputs.<name>`, or — two levels — exactly one
 * `needs.<job>.outputs.<name>` of a job that job needs), or `steps.<id>.outputs.<name>` of an
 * earlier step of the same job. The step that sets it asks for the permission when it is:
 *  - an `actions/github-script` step whose script calls the collaborator-permission API
 *    (`getCollaboratorPermissionLevel`, `checkCollaborator`, or a `/collaborators/{user}/permission`
 *    path) and sets the output with `core.setOutput('<name>', …)`;
 *  - a `run:` step that calls `gh api …/collaborators/…/permission` and writes the output to
 *    `$GITHUB_OUTPUT`;
 *  - `actions-cool/check-user-permission` with a `require:` of `write`, `maintain` or `admin` (its
 *    `require-result`, or `result` in v1), or its `user-permission` output compared to one of those
 *    (its README and action.yml; not with `check-bot: true`, which makes v1's `result` say whether
 *    the user is a bot, nor with a `username:` other than the actor);
 *  - `prince-chrismc/check-actor-permissions-action` with a `permission:` of `write`, `maintain` or
 *    `admin`, its `permitted` output compared with `'true'` (its action.yml and source: the actor's
 *    permission). lannonbr/repo-permission-check-action sets no output (it fails the step): it is
 *    read as a failing check (`failingCheck`, `failureGate`) instead.
 * An author-association gate is an `&&` term (or the whole `if:`) comparing
 * `github.event.<comment|issue|pull_request|review|discussion>.author_association` with `==`, an
 * `||` of such comparisons, or `contains(fromJSON('["OWNER","MEMBER"]'), …)`, admitting only
 * `OWNER`, `MEMBER` or `COLLABORATOR` (GitHub's `author_association`: `CONTRIBUTOR` is anyone with
 * a merged commit). `contains` on a string is none (the empty association of an event without that
 * object is in every string). The association must be the actor's under every trigger in effect
 * (`associationHolds`): on a comment event the comment's (`github.event.issue.author_association`
 * on `issue_comment` is the issue's author: an outsider commenting on a member's issue passes it),
 * on a review the review's; a field whose object the event does not carry is empty and never
 * equal, so the code runs for nobody under that event.
 * Not a gate (the code is judged as before): a comparison under `||`, `!=`, an `if:` with
 * `always()`, `failure()` or `cancelled()`, a comparison with `''`, `'false'` or `'0'`, an
 * output passed through anything but one plain expression, a step that never asks for the
 * permission, a gate on another job than the one running the code.
 *
 * Pure and linear: an `if:` longer than `MAX_GATE_IF_CHARS` is not read; each term is matched by
 * anchored patterns; a step's script is read once (github-script.ts, `permissionFacts`) and each
 * output and value it is compared with judged once, however many steps or jobs it gates; jobs,
 * their steps and their outputs are looked up by id.
 */
import { readScriptOutputs } from './github-script.js';
import { ACTOR_PATH, permissionExit } from './permission-exit.js';
import { expressionsOf, normaliseExpression, splitTop, stripParens } from './workflow-expressions.js';

/** Longest `if:` read for a gate. */
const MAX_GATE_IF_CHARS = 2000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** What the gated code needs to resolve a `needs.` term: the workflow's jobs and the gated job's `needs`. */
export interface GateJobs {
  jobs: Obj;
  needs: readonly string[];
}

/** `needs.x.outputs.y == 'v'` or `'v' == needs.x.outputs.y` (whitespace out). */
const TERM = /^(needs|steps)\.([\w-]+)\.outputs\.([\w-]+)==(['"])([^'"]*)\4$|^(['"])([^'"]*)\6==(needs|steps)\.([\w-]+)\.outputs\.([\w-]+)$/i;
/** Anything in an `if:` that lets it pass whatever the output says. */
const NOT_A_GATE = /\b(?:always|failure|cancelled)\(/i;
/** A job output or a step output that is one plain expression reading another output. */
const PLAIN = /^(needs|steps)\.([\w-]+)\.outputs\.([\w-]+)$/i;
const PERMISSION_API = /\bgetCollaboratorPermissionLevel\b|\bcheckCollaborator\b|\/collaborators\/[^/\n]+\/permission\b/;
const GH_API = /\bgh\s+api\b/;
const PERMISSION_PATH = /\/collaborators\/[^/\n]+\/permission\b/;
const STRONG = new Set(['write', 'maintain', 'admin']);

/** An author association (`github.event.<object>.author_association`) compared with one value. */
const ASSOCIATION_EQ = /^(github\.event\.(?:comment|issue|pull_request|review|discussion)\.author_association)=='(\w+)'$|^'(\w+)'==(github\.event\.(?:comment|issue|pull_request|review|discussion)\.author_association)$/i;
/** `contains(fromJSON('["OWNER","MEMBER"]'), github.event.<object>.author_association)` (whitespace out). */
const ASSOCIATION_LIST = /^contains\(fromjson\('\[([^'\]]*)\]'\),(github\.event\.(?:comment|issue|pull_request|review|discussion)\.author_association)\)$/i;
/** Associations only the repository's owners, its organisation's members and its collaborators have (GitHub's `author_association`). */
const STRONG_ASSOCIATIONS = new Set(['owner', 'member', 'collaborator']);

/**
 * The payload object (its `author_association`) of whoever causes each outsider event, and the
 * objects each event's payload carries (GitHub's webhook payloads: `issue_comment` carries the
 * `issue` and the `comment`, the comment's author being the one who triggers the run). An event
 * not listed carries nothing read here.
 */
const ACTOR_OBJECT: Readonly<Record<string, string>> = {
  issues: 'issue',
  issue_comment: 'comment',
  discussion: 'discussion',
  discussion_comment: 'comment',
  pull_request_review: 'review',
  pull_request_review_comment: 'comment',
  pull_request_target: 'pull_request',
};
const OBJECTS_CARRIED: Readonly<Record<string, readonly string[]>> = {
  issues: ['issue'],
  issue_comment: ['issue', 'comment'],
  discussion: ['discussion'],
  discussion_comment: ['discussion', 'comment'],
  pull_request_review: ['pull_request', 'review'],
  pull_request_review_comment: ['pull_request', 'comment'],
  pull_request_target: ['pull_request'],
  workflow_run: [],
};

/**
 * Whether an association field (`github.event.<object>.author_association`, lower case) admits only
 * the permitted under every trigger: it is the actor's object there, or the event carries no such
 * object (the field is empty and never equal to `OWNER`…: the code runs for nobody then).
 */
function associationHolds(field: string, triggers: readonly string[]): boolean {
  const object = field.split('.')[2] ?? '';
  return triggers.every((t) => {
    const carried = Object.hasOwn(OBJECTS_CARRIED, t) ? OBJECTS_CARRIED[t] : undefined;
    return carried !== undefined && (!carried.includes(object) || ACTOR_OBJECT[t] === object);
  });
}

/** The levels lannonbr/repo-permission-check-action ranks (its index.js): any other `permission:` ranks below `none`, so everyone passes. */
const LANNONBR_BLOCKS = new Set(['write', 'admin']);

/** `name=` the first word written to `$GITHUB_OUTPUT` on a line (as workflow-analysis.ts reads it). */
const WRITTEN_NAME = /(?:^|[\s"'])([\w-]+)=/;

interface Term {
  kind: 'needs' | 'steps';
  id: string;
  output: string;
  value: string;
}

/**
 * The `&&` terms an `if:` requires, whitespace out and outer parentheses stripped: none when it
 * passes whatever they say, the whole `if:` as one term when it is an `||` of alternatives (only an
 * `||` of author-association comparisons is read as a gate then).
 */
function requiredTerms(ifValue: unknown): string[] {
  if (typeof ifValue !== 'string' || ifValue.length > MAX_GATE_IF_CHARS) return [];
  let e = ifValue.trim();
  if (e.startsWith('${{') && e.endsWith('}}')) e = e.slice(3, -2);
  if (e.includes('${{')) return [];
  e = e.replace(/\s+/g, '');
  if (NOT_A_GATE.test(e)) return [];
  if (splitTop(e, '||').length > 1) return [e];
  return splitTop(e, '&&').map(stripParens);
}

/** The output comparisons an `if:` requires (its `&&` terms, when it is not an `||` of alternatives). */
function requiredComparisons(terms: readonly string[]): Term[] {
  const out: Term[] = [];
  for (const conjunct of terms) {
    const m = TERM.exec(normaliseExpression(conjunct));
    if (m === null) continue;
    const value = (m[5] ?? m[7] ?? '').toLowerCase();
    if (value === '' || value === 'false' || value === '0') continue;
    out.push({
      kind: (m[1] ?? m[8] ?? '').toLowerCase() as 'needs' | 'steps',
      id: (m[2] ?? m[9] ?? '').toLowerCase(),
      output: (m[3] ?? m[10] ?? '').toLowerCase(),
      value,
    });
  }
  return out;
}

/** The associations (lower case) one comparison admits: `<field> == 'X'`, `'X' == <field>`, `contains(fromJSON('["X","Y"]'), <field>)`; null when it is none of those. */
function associationsAdmitted(comparison: string): { field: string; values: string[] } | null {
  const eq = ASSOCIATION_EQ.exec(comparison);
  if (eq !== null) return { field: (eq[1] ?? eq[4] ?? '').toLowerCase(), values: [(eq[2] ?? eq[3] ?? '').toLowerCase()] };
  const list = ASSOCIATION_LIST.exec(comparison);
  if (list === null) return null;
  const values: string[] = [];
  for (const item of (list[1] ?? '').split(',')) {
    const m = /^"(\w+)"$/.exec(item);
    if (m === null) return null;
    values.push((m[1] ?? '').toLowerCase());
  }
  return { field: (list[2] ?? '').toLowerCase(), values };
}

/** One admitted comparison's field and values, when it admits only owners, members and collaborators and holds under `triggers`. */
type Admitted = { field: string; values: string[] };

/** An `||` of association comparisons (or one) admitting only the permitted under every trigger; null otherwise. */
function plainAssociation(term: string, triggers: readonly string[]): Admitted[] | null {
  const out: Admitted[] = [];
  for (const part of splitTop(term, '||')) {
    const admitted = associationsAdmitted(stripParens(part));
    if (admitted === null || admitted.values.length === 0 || !admitted.values.every((v) => STRONG_ASSOCIATIONS.has(v))) return null;
    if (!associationHolds(admitted.field, triggers)) return null;
    out.push(admitted);
  }
  return out;
}

/** `github.event_name == 'x'` (either way round). */
const EVENT_IS = /^github\.event_name==(['"])([a-z_]+)\1$|^(['"])([a-z_]+)\3==github\.event_name$/i;

/** The events a term admits when it is nothing but `github.event_name == '…'` comparisons joined by `||`; null otherwise. */
function eventsOf(term: string): Set<string> | null {
  const events = new Set<string>();
  for (const part of splitTop(term, '||')) {
    const m = EVENT_IS.exec(stripParens(part));
    if (m === null) return null;
    events.add((m[2] ?? m[4] ?? '').toLowerCase());
  }
  return events;
}

/**
 * The author-association gate a term sets under `triggers` (the outsider triggers in effect): an
 * `||` of alternatives, each one comparison (or an `||` of them in parentheses) admitting only
 * owners, members and collaborators of the repository (`STRONG_ASSOCIATIONS`) on the actor's
 * association (`associationHolds`), or an `&&` of terms with one such comparison holding under
 * the events its `github.event_name == '…'` terms admit (`(github.event_name == 'issue_comment' &&
 * <the comment's association>) || (github.event_name == 'issues' && <the issue's>)`); an
 * alternative whose events are none of `triggers` (`github.event_name == 'workflow_dispatch'`)
 * admits no outsider. Null otherwise: `CONTRIBUTOR`
 * (anyone with a merged commit), `!= 'NONE'`, the issue's author on a comment, an alternative
 * with no association.
 */
function associationGate(term: string, triggers: readonly string[]): string | null {
  const found: Admitted[] = [];
  for (const part of splitTop(term, '||')) {
    const alternative = stripParens(part);
    const plain = plainAssociation(alternative, triggers);
    if (plain !== null) {
      found.push(...plain);
      continue;
    }
    const terms = splitTop(alternative, '&&').map(stripParens);
    let under = triggers;
    for (const t of terms) {
      const events = eventsOf(t);
      if (events !== null) under = under.filter((x) => events.has(x));
    }
    if (under.length === 0) continue;
    const held = terms.map((t) => plainAssociation(t, under)).find((a) => a !== null);
    if (held === undefined) return null;
    found.push(...held);
  }
  if (found.length === 0) return null;
  const fields = new Set(found.map((a) => a.field));
  const values = new Set(found.flatMap((a) => a.values.map((v) => v.toUpperCase())));
  return `${[...fields].join(', ')} in ${[...values].join(', ')} (author association)`;
}

/** What a step's script says about a permission, read once per step (many steps gated on one). */
interface PermissionFacts {
  /** The permission call a github-script script makes (null: none), and the outputs it sets. */
  api: string | null;
  /** A `run:` that asks `gh api` for a collaborator's permission. */
  asks: boolean;
  /** The outputs (lower case) the script sets: `core.setOutput` names, or the first `name=` of each `$GITHUB_OUTPUT` line. */
  sets: ReadonlySet<string> | ReadonlyMap<string, unknown>;
}
const factsRead = new WeakMap<Obj, PermissionFacts>();

function permissionFacts(step: Obj, githubScript: boolean): PermissionFacts {
  const known = factsRead.get(step);
  if (known !== undefined) return known;
  const facts = readPermissionFacts(step, githubScript);
  factsRead.set(step, facts);
  return facts;
}

function readPermissionFacts(step: Obj, githubScript: boolean): PermissionFacts {
  const script = githubScript && isObj(step.with) ? str(step.with.script) : null;
  if (script !== null) return { api: PERMISSION_API.exec(script)?.[0] ?? null, asks: false, sets: readScriptOutputs(script).values };
  const run = str(step.run);
  if (run === null) return { api: null, asks: false, sets: new Set() };
  const lines = run.split('\n');
  const sets = new Set<string>();
  for (const l of lines) {
    const name = l.includes('GITHUB_OUTPUT') ? WRITTEN_NAME.exec(l)?.[1]?.toLowerCase() : undefined;
    if (name !== undefined) sets.add(name);
  }
  return { api: null, asks: lines.some((l) => GH_API.test(l) && PERMISSION_PATH.test(l)), sets };
}

/** `permissionStep` verdicts by step and `output value` (many steps gated on one step's output). */
const stepsJudged = new WeakMap<Obj, Map<string, string | null>>();

/** How a step asks for the actor's permission and sets `output` (lower case), compared with `value`; null when it does not. Judged once per step, output and value. */
function permissionStep(step: Obj, output: string, value: string): string | null {
  let byTerm = stepsJudged.get(step);
  if (byTerm === undefined) stepsJudged.set(step, (byTerm = new Map()));
  const key = `${output} ${value}`;
  let how = byTerm.get(key);
  if (how === undefined) byTerm.set(key, (how = judgePermissionStep(step, output, value)));
  return how;
}

function judgePermissionStep(step: Obj, output: string, value: string): string | null {
  const uses = (str(step.uses) ?? '').trim().toLowerCase();
  const w = isObj(step.with) ? step.with : {};
  if (uses === 'actions/github-script' || uses.startsWith('actions/github-script@')) {
    const script = str(w.script);
    if (script === null || output === 'result') return null;
    const { api, sets } = permissionFacts(step, true);
    if (api === null || !sets.has(output)) return null;
    return `actions/github-script calls ${api.startsWith('/') ? 'the collaborators permission path' : api} and sets ${output}`;
  }
  const run = str(step.run);
  if (run !== null) {
    const { asks, sets } = permissionFacts(step, false);
    return asks && sets.has(output) ? `gh api …/collaborators/…/permission, written to $GITHUB_OUTPUT as ${output}` : null;
  }
  if (uses.startsWith('actions-cool/check-user-permission@')) {
    // v1 sets `result` to whether the user is a bot under `check-bot`; `username` may name someone else than the actor.
    if ((str(w['check-bot']) ?? '').trim().toLowerCase() === 'true') return null;
    const username = normaliseExpression(str(w.username) ?? '').toLowerCase();
    if (username !== '' && !['github.actor', 'github.triggering_actor', '${{github.actor}}', '${{github.triggering_actor}}'].includes(username)) return null;
    const require = (str(w.require) ?? '').trim().toLowerCase();
    if ((output === 'require-result' || output === 'result') && value === 'true' && STRONG.has(require)) return `actions-cool/check-user-permission requires ${require}`;
    if (output === 'user-permission' && STRONG.has(value)) return `actions-cool/check-user-permission reads the actor's permission`;
  }
  if (uses.startsWith('prince-chrismc/check-actor-permissions-action@')) {
    const permission = (str(w.permission) ?? '').trim().toLowerCase();
    if (output === 'permitted' && value === 'true' && STRONG.has(permission)) return `prince-chrismc/check-actor-permissions-action requires ${permission}`;
  }
  return null;
}

/**
 * How a step fails unless the actor is permitted (so that what runs after it, or needs its job,
 * runs only for the permitted); null when it does not. It must run whatever happens (no `if:`) and
 * its failure must stop the job (no `continue-on-error`).
 *  - lannonbr/repo-permission-check-action with `permission:` `write` or `admin`, spelt so (its
 *    index.js compares the actor's level's index in `none, read, write, admin` with the input's: any
 *    other spelling is index -1 and lets everyone pass), and no `fail:` input (a later version
 *    succeeds under `fail: false` and only sets an output);
 *  - a `run:` that asks `gh api` for `/collaborators/<the actor>/permission` and exits non-zero for
 *    every level below write, the comparison read (permission-exit.ts: a shape not read there, or
 *    one that lets `read` pass, is no gate).
 */
export function failingCheck(step: Obj): string | null {
  if (step.if !== undefined || continuesOnError(step)) return null;
  const uses = (str(step.uses) ?? '').trim().toLowerCase();
  const w = isObj(step.with) ? step.with : {};
  if (uses.startsWith('lannonbr/repo-permission-check-action@')) {
    const permission = (str(w.permission) ?? '').trim();
    if (!LANNONBR_BLOCKS.has(permission) || w.fail !== undefined) return null;
    return `lannonbr/repo-permission-check-action fails unless the actor has ${permission}`;
  }
  const run = str(step.run);
  if (run === null) return null;
  const lines = run.split('\n');
  const asks = lines.some((l) => GH_API.test(l) && ACTOR_PATH.test(l));
  return asks ? permissionExit(run) : null;
}

/** Continues past a failure: `continue-on-error` set to anything but `false`. */
function continuesOnError(o: Obj): boolean {
  const v = o['continue-on-error'];
  return v !== undefined && (typeof v !== 'string' || v.trim().toLowerCase() !== 'false');
}

/** A workflow's jobs by lower-case id, built once per workflow (many jobs needing many jobs). */
const jobIndexes = new WeakMap<Obj, Map<string, [string, Obj]>>();
function jobsById(jobs: Obj): Map<string, [string, Obj]> {
  let index = jobIndexes.get(jobs);
  if (index === undefined) {
    index = new Map();
    for (const [key, job] of Object.entries(jobs)) if (isObj(job) && !index.has(key.toLowerCase())) index.set(key.toLowerCase(), [key, job]);
    jobIndexes.set(jobs, index);
  }
  return index;
}

/** The failing check a job runs (`failingCheck`, in a job without `continue-on-error`), judged once per job. */
const jobsFailing = new WeakMap<Obj, string | null>();
function jobFailing(job: Obj): string | null {
  let how = jobsFailing.get(job);
  if (how === undefined) {
    how = null;
    if (!continuesOnError(job)) {
      const steps = Array.isArray(job.steps) ? job.steps.filter(isObj) : [];
      for (const [index, step] of steps.entries()) {
        const found = failingCheck(step);
        if (found !== null) {
          how = `${str(step.name) ?? str(step.id) ?? `step ${index + 1}`}: ${found}`;
          break;
        }
      }
    }
    jobsFailing.set(job, how);
  }
  return how;
}

/** `failingThrough` verdicts by workflow, job and levels left (each judged once: many jobs needing many jobs stay linear). */
const reached = new WeakMap<Obj, Map<string, string | null>>();

/**
 * The failing check job `id` runs, or — `levels` above one, and the job not run whatever its own
 * needs did (`always()`, `failure()`, `cancelled()`) — one a job it needs reaches with a level less.
 */
function failingThrough(jobs: Obj, id: string, levels: number): string | null {
  let memo = reached.get(jobs);
  if (memo === undefined) reached.set(jobs, (memo = new Map()));
  const key = `${levels} ${id}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  memo.set(key, null);
  let how: string | null = null;
  const found = jobsById(jobs).get(id);
  if (found !== undefined) {
    const [name, job] = found;
    const step = jobFailing(job);
    if (step !== null) how = `needs: ${name} (job ${name}, ${step})`;
    else if (levels > 1 && (job.if === undefined || (typeof job.if === 'string' && !NOT_A_GATE.test(job.if.replace(/\s+/g, ''))))) {
      for (const need of needsOf(job)) {
        how = failingThrough(jobs, need, levels - 1);
        if (how !== null) break;
      }
    }
  }
  memo.set(key, how);
  return how;
}

/** Levels of `needs` a failing check is followed through (a job needing one that needs the check). */
const FAILING_LEVELS = 3;

/** The first step of a job that fails unless the actor is permitted (`failingCheck`), its index and how; null when none. */
export function firstFailingStep(steps: readonly Obj[]): { index: number; how: string } | null {
  for (const [index, step] of steps.entries()) {
    const how = failingCheck(step);
    if (how !== null) return { index, how: `step ${str(step.name) ?? str(step.id) ?? `step ${index + 1}`} fails first (${how})` };
  }
  return null;
}

/**
 * The gate a failing check sets (`failingCheck`): an earlier step of the same job (`earlier`, as
 * `firstFailingStep` describes it, or null), or a job among `jobs.needs` (followed through
 * `FAILING_LEVELS` levels of jobs that do not run anyway) with such a step and no
 * `continue-on-error`; null when there is none, or when `ifValue` (the job's `if:` for a `needs`
 * gate, the step's for an earlier step) runs it whatever happened before (`always()`,
 * `failure()`, `cancelled()`).
 */
export function failureGate(ifValue: unknown, earlier: string | null, jobs: GateJobs | null): string | null {
  if (typeof ifValue === 'string' && (ifValue.length > MAX_GATE_IF_CHARS || NOT_A_GATE.test(ifValue.replace(/\s+/g, '')))) return null;
  if (typeof ifValue !== 'string' && ifValue !== undefined) return null;
  if (earlier !== null) return earlier;
  if (jobs === null) return null;
  for (const id of jobs.needs) {
    const how = failingThrough(jobs.jobs, id, FAILING_LEVELS);
    if (how !== null) return how;
  }
  return null;
}

/** The one output a value reads when it is nothing but `${{ <kind>.<id>.outputs.<name> }}`. */
function plainOutput(value: unknown): { kind: string; id: string; output: string } | null {
  if (typeof value !== 'string') return null;
  const t = value.trim();
  if (!t.startsWith('${{') || !t.endsWith('}}')) return null;
  const inside = expressionsOf(t);
  if (inside.length !== 1) return null;
  const m = PLAIN.exec(normaliseExpression(inside[0] ?? ''));
  return m === null ? null : { kind: (m[1] ?? '').toLowerCase(), id: (m[2] ?? '').toLowerCase(), output: (m[3] ?? '').toLowerCase() };
}

/** A job's steps by lower-case id (the first of each id) and its outputs by lower-case name (the first of each), built once per job. */
const jobContents = new WeakMap<Obj, { steps: Map<string, Obj>; outputs: Map<string, unknown> }>();
function jobIndex(job: Obj): { steps: Map<string, Obj>; outputs: Map<string, unknown> } {
  let index = jobContents.get(job);
  if (index === undefined) {
    index = { steps: stepsById(Array.isArray(job.steps) ? job.steps.filter(isObj) : []), outputs: new Map() };
    if (isObj(job.outputs)) for (const [name, value] of Object.entries(job.outputs)) if (!index.outputs.has(name.toLowerCase())) index.outputs.set(name.toLowerCase(), value);
    jobContents.set(job, index);
  }
  return index;
}

/** Steps by lower-case id, the first step of each id (as a `steps.<id>` expression reads it). */
export function stepsById(steps: readonly Obj[]): Map<string, Obj> {
  const byId = new Map<string, Obj>();
  for (const step of steps) {
    const id = str(step.id)?.toLowerCase();
    if (id !== undefined && !byId.has(id)) byId.set(id, step);
  }
  return byId;
}

/** The lower-case ids a job `needs:`. */
export function needsOf(job: Obj): string[] {
  if (typeof job.needs === 'string') return [job.needs.trim().toLowerCase()];
  if (Array.isArray(job.needs)) return job.needs.flatMap((n) => (typeof n === 'string' ? [n.trim().toLowerCase()] : []));
  return [];
}

/** How output `output` of job `id` (among `needs`) is set by a permission step: one level, or two through another job's output. */
function jobOutputGate(jobs: Obj, needs: readonly string[], id: string, output: string, value: string, level: number): string | null {
  if (!needs.includes(id)) return null;
  const found = jobsById(jobs).get(id);
  if (found === undefined) return null;
  const [key, job] = found;
  if (!isObj(job.outputs)) return null;
  const index = jobIndex(job);
  const source = plainOutput(index.outputs.get(output));
  if (source === null) return null;
  if (source.kind === 'steps') {
    const step = index.steps.get(source.id);
    const how = step === undefined ? null : permissionStep(step, source.output, value);
    return how === null ? null : `job ${key}, step ${source.id}: ${how}`;
  }
  if (level >= 2) return null;
  return jobOutputGate(jobs, needsOf(job), source.id, source.output, value, level + 1);
}

/**
 * The permission gate an `if:` sets, described (`needs.authorize.outputs.authorized == 'true'
 * (job authorize, step check: …)`); null when it sets none. `earlier` are the steps before the
 * gated one in its job, looked up by lower-case id (a `steps.` term: the first earlier step of that
 * id, `stepsById`); `jobs` the workflow's jobs and the gated job's `needs` (a `needs.` term; null
 * in an action); `triggers` the outsider triggers in effect (an author association must be the
 * actor's under each).
 */
export function permissionGate(ifValue: unknown, earlier: (id: string) => Obj | undefined, jobs: GateJobs | null, triggers: readonly string[]): string | null {
  const terms = requiredTerms(ifValue);
  for (const term of requiredComparisons(terms)) {
    let how: string | null = null;
    if (term.kind === 'steps') {
      const step = earlier(term.id);
      const asked = step === undefined ? null : permissionStep(step, term.output, term.value);
      how = asked === null ? null : `step ${term.id}: ${asked}`;
    } else if (jobs !== null) {
      how = jobOutputGate(jobs.jobs, jobs.needs, term.id, term.output, term.value, 1);
    }
    if (how !== null) return `${term.kind}.${term.id}.outputs.${term.output} == '${term.value}' (${how})`;
  }
  for (const term of terms) {
    const gate = associationGate(term, triggers);
    if (gate !== null) return gate;
  }
  return null;
}

/**
 * A repository's workflows judged together (docs/checks.md, `workflow-safety`): each workflow with
 * its own triggers (workflow-analysis.ts), then what its outsider-triggered jobs call in the same
 * repository — a reusable workflow (`jobs.<id>.uses`) is judged with the caller's outsider
 * triggers and the inputs it fills with attacker-written text tainted (a workflow whose only
 * trigger is `workflow_call` is thus judged as its callers run it); a composite action
 * (`dir/action.yml` or `action.yaml`) likewise, its steps seeing the caller's `github` context;
 * an action that checks out the pull request's head and returns is an untrusted checkout when the
 * calling job runs something after it.
 * Nested calls are followed to `MAX_CALL_DEPTH`; a call already judged with the same triggers and
 * inputs is not judged again (so cycles end). Pure: the texts are read beforehand
 * (workflow-files.ts), and `wanted` names the called files not read yet so the reader can fetch
 * them and judge again. A called file that cannot be read is `unreadCalled`: unknown, never safe.
 */
import { oneLine } from './request.js';
import { analyseAction, analyseWorkflow, checkoutTriggersOf, type GatedFinding, type RepoName, type WorkflowCall, type WorkflowFinding } from './workflow-analysis.js';

/** Calls followed from a workflow at most (GitHub itself nests reusable workflows 4 deep, composite actions 10). */
export const MAX_CALL_DEPTH = 6;
/** Called workflows and actions judged per repository at most (each with its own triggers and inputs). */
export const MAX_CALLS_JUDGED = 64;
/** Actions of other repositories named in the report at most. */
const MAX_REMOTE_NAMED = 20;
/** Calls described in the report at most. */
const MAX_CALLS_NAMED = 30;

export interface CallGraphInput {
  repo: RepoName;
  /** The workflow files listed (`.github/workflows/*.yml|yaml`), in the listing's order. */
  workflows: readonly string[];
  /** The action manifests listed (`action.yml` / `action.yaml` anywhere in the tree). */
  actionManifests: ReadonlySet<string>;
  /** Texts read so far, by path (workflows and action manifests). */
  texts: ReadonlyMap<string, string>;
  /** Paths asked for that could not be read, with why. */
  failed: ReadonlyMap<string, string>;
  /** The listing was cut short: a called file not in it may exist. */
  treeTruncated: boolean;
}

export interface CallGraphResult {
  /** Workflows read and judged (listing order). */
  read: string[];
  /** Workflows read whose text does not parse. */
  notParsed: Array<{ path: string; reason: string }>;
  outsiderTriggered: string[];
  findings: WorkflowFinding[];
  /** Findings behind a permission gate (permission-gate.ts): recorded, not counted. */
  gated: GatedFinding[];
  unpinnedActions: number;
  remoteActions: string[];
  /** `caller (job, step) → called file`, for the report. */
  calls: string[];
  /** Action manifests read and judged. */
  actionsRead: string[];
  /** Actions of this repository that are not composite (`path: runs using node20`): not judged. */
  notJudged: string[];
  /** Called files listed but not read yet. */
  wanted: string[];
  /**
   * Called files that cannot be read or followed, with why; `cause` when this judgement knows it
   * (not in the listing: `missing`, or `limit` when the listing was cut short; nested too deep:
   * `limit`; text that does not parse: `unparsed`) — a read that failed is the reader's to
   * classify (workflow-files.ts).
   */
  unreadCalled: Array<{ path: string; reason: string; cause?: 'limit' | 'missing' | 'unparsed' }>;
}

/** The manifest of the action in folder `dir` (`''`: the root) in the listing, or null. */
export function actionManifestOf(dir: string, listed: ReadonlySet<string>): string | null {
  const prefix = dir === '' ? '' : `${dir}/`;
  for (const name of ['action.yml', 'action.yaml']) if (listed.has(`${prefix}${name}`)) return `${prefix}${name}`;
  return null;
}

const callKey = (path: string, call: WorkflowCall): string =>
  [path, [...call.triggers].sort().join(','), [...call.taint.text].sort().join(','), [...call.taint.head].sort().join(','), call.gate ?? ''].join('|');

export function judgeWorkflowCalls(input: CallGraphInput): CallGraphResult {
  const result: CallGraphResult = {
    read: [],
    notParsed: [],
    outsiderTriggered: [],
    findings: [],
    gated: [],
    unpinnedActions: 0,
    remoteActions: [],
    calls: [],
    actionsRead: [],
    notJudged: [],
    wanted: [],
    unreadCalled: [],
  };
  const seenFindings = new Set<string>();
  const addFindings = (findings: readonly WorkflowFinding[]) => {
    for (const f of findings) {
      const key = [f.code, f.path, f.job, f.step, f.excerpt].join('|');
      if (seenFindings.has(key)) continue;
      seenFindings.add(key);
      result.findings.push(f);
    }
  };
  const addGated = (gated: readonly GatedFinding[]) => {
    for (const f of gated) {
      const key = ['gated', f.code, f.path, f.job, f.step, f.excerpt].join('|');
      if (seenFindings.has(key)) continue;
      seenFindings.add(key);
      result.gated.push(f);
    }
  };
  const addRemote = (names: readonly string[]) => {
    for (const n of names) if (!result.remoteActions.includes(n) && result.remoteActions.length < MAX_REMOTE_NAMED) result.remoteActions.push(n);
  };
  const unread = (path: string, reason: string, cause?: 'limit' | 'missing' | 'unparsed') => {
    if (!result.unreadCalled.some((u) => u.path === path)) result.unreadCalled.push({ path, reason, ...(cause === undefined ? {} : { cause }) });
  };
  const want = (path: string) => {
    if (!result.wanted.includes(path)) result.wanted.push(path);
  };

  const queue: WorkflowCall[] = [];
  const listedWorkflows = new Set(input.workflows);
  for (const path of input.workflows) {
    const text = input.texts.get(path);
    if (text === undefined) continue;
    const a = analyseWorkflow(path, text, { repo: input.repo });
    if (!a.ok) {
      result.notParsed.push({ path, reason: a.reason });
      continue;
    }
    result.read.push(path);
    if (a.outsider) result.outsiderTriggered.push(path);
    result.unpinnedActions += a.unpinnedActions;
    addFindings(a.findings);
    addGated(a.gated);
    addRemote(a.remoteActions);
    queue.push(...a.calls);
  }

  const judged = new Set<string>();
  const unpinnedCounted = new Set<string>();
  while (queue.length > 0) {
    const call = queue.shift();
    if (call === undefined) break;
    const caller = call.via[call.via.length - 1] ?? '';
    const path = call.kind === 'workflow' ? call.target : actionManifestOf(call.target, input.actionManifests);
    const shown = path ?? (call.target === '' ? 'action.yml' : `${call.target}/action.yml`);
    if (result.calls.length < MAX_CALLS_NAMED) result.calls.push(`${caller} → ${shown}`);
    if (path === null || (call.kind === 'workflow' && !listedWorkflows.has(path))) {
      if (input.treeTruncated) unread(shown, 'called, but not in the listing (cut short)', 'limit');
      else unread(shown, 'called, but not in the repository listing', 'missing');
      continue;
    }
    const key = callKey(path, call);
    if (judged.has(key)) continue;
    if (call.via.length > MAX_CALL_DEPTH || judged.size >= MAX_CALLS_JUDGED) {
      unread(path, `calls nested deeper than ${MAX_CALL_DEPTH} or more than ${MAX_CALLS_JUDGED} of them: not followed`, 'limit');
      continue;
    }
    const failed = input.failed.get(path);
    if (failed !== undefined) {
      unread(path, failed);
      continue;
    }
    const text = input.texts.get(path);
    if (text === undefined) {
      want(path);
      continue;
    }
    judged.add(key);
    const context = { triggers: call.triggers, taint: { text: new Set(call.taint.text), head: new Set(call.taint.head) }, via: call.via, job: call.job, ...(call.gate === undefined ? {} : { gate: call.gate }) };
    if (call.kind === 'workflow') {
      const a = analyseWorkflow(path, text, { repo: input.repo, context });
      // Its parse failure is the workflow's own (notParsed, from the first pass).
      if (!a.ok) continue;
      if (!result.outsiderTriggered.includes(path)) result.outsiderTriggered.push(path);
      addFindings(a.findings);
      addGated(a.gated);
      addRemote(a.remoteActions);
      queue.push(...a.calls);
      continue;
    }
    const a = analyseAction(path, text, context, input.repo);
    if (!a.ok) {
      unread(path, a.reason, 'unparsed');
      continue;
    }
    if (!a.composite) {
      const note = `${path}: runs using ${a.using}`;
      if (!result.notJudged.includes(note)) result.notJudged.push(note);
      continue;
    }
    if (!result.actionsRead.includes(path)) result.actionsRead.push(path);
    if (!unpinnedCounted.has(path)) {
      unpinnedCounted.add(path);
      result.unpinnedActions += a.unpinnedActions;
    }
    addFindings(a.findings);
    addGated(a.gated);
    // The action checks out the pull request's head and returns; the calling job runs something after it.
    const checkoutTriggers = checkoutTriggersOf(call.triggers).filter((t) => a.checkoutLeft?.triggers.includes(t) === true);
    if (a.checkoutLeft !== null && call.runsAfter !== undefined && checkoutTriggers.length > 0) {
      const found: WorkflowFinding = {
        code: 'untrusted-checkout',
        path,
        job: call.job,
        step: a.checkoutLeft.step,
        triggers: checkoutTriggers,
        excerpt: oneLine(`${a.checkoutLeft.excerpt} → then the caller runs: ${call.runsAfter}`, 160),
        via: call.via,
      };
      // Behind the caller's gate, or a gate inside the action (a skipped checkout leaves nothing to run).
      const gate = call.gate ?? a.checkoutLeft.gate;
      if (gate === undefined) addFindings([found]);
      else addGated([{ ...found, gate }]);
    }
    addRemote(a.remoteActions);
    queue.push(...a.calls);
  }
  return result;
}

/**
 * A repository's GitHub Actions workflow files, and the composite actions of the repository their
 * outsider-triggered jobs call, read within a stated budget and judged together
 * (workflow-calls.ts, workflow-analysis.ts) — part of reading a repository's own files
 * (repo-files.ts).
 *
 * Requests: without a token, for a github.com repository whose listed tree is pinned to a commit
 * (repo-files.ts), none of the REST API's: at most `MAX_WORKFLOW_FILES_RAW` (30) workflows and
 * `MAX_ACTION_FILES_RAW` (10) called actions' `action.yml` from raw file hosting (raw-files.ts), one
 * request each; otherwise (GitHub Enterprise, no commit to pin to) at most `MAX_WORKFLOW_FILES_REST`
 * (8) REST file reads of workflows and at most `MAX_ACTION_FILES_REST` (4) of called actions'
 * `action.yml`, one request each. The
 * workflows are read in `readingOrder` (workflow-order.ts: names suggesting outsider events, then
 * releases, then the rest, each in the listing's order), except that when more are listed than
 * the cap, the last `CALLEE_RESERVE` (2) reads go first to the reusable workflows the others
 * call, then to the rest in that order. With a token one GraphQL query reads up to `MAX_WORKFLOW_FILES_GRAPHQL` (30)
 * workflows (the same reserve when more are listed) and up to `MAX_ACTION_FILES_GRAPHQL` (10)
 * action manifests of the listing at once (Blob `text`); a called file not among them is read by
 * one query more, with the rest of the workflows up to the cap (up to 10 called action files
 * more; at most `MAX_READ_ROUNDS` queries in all, 2 in practice). For a package's repository, whose
 * only listing is its workflows folder (`unlisted`), a called action's folder is probed by both
 * manifest names in one such query. None when the repository has no workflow. Each file is at most
 * `MAX_WORKFLOW_BYTES` (128 KiB). A file not read — beyond the count, over the size, a 404, a
 * failure, a rate limit, text that does not parse — is listed in `unread` with why: what it
 * would show is unknown, never safe.
 */
import type { GithubWorkflowSafety } from '../../evidence/github-facts.js';
import { graphqlFileSource, type BlobReader } from './graphql.js';
import type { FileRead } from './link.js';
import type { RepoTreeItem } from './repo-tree.js';
import { readRawFiles, type RawAt } from './raw-files.js';
import { GithubStop, type GithubCall } from './request.js';
import { restFileSource } from './rest.js';
import type { CallGraphResult } from './workflow-calls.js';
import { readingOrder } from './workflow-order.js';

/** Bytes of a workflow (or action) file read at most. */
export const MAX_WORKFLOW_BYTES = 128 * 1024;
/** Workflow files read without a token (one REST request each). */
export const MAX_WORKFLOW_FILES_REST = 8;
/** Workflow files read without a token from raw file hosting (raw-files.ts: no REST request spent), one request each. */
export const MAX_WORKFLOW_FILES_RAW = 30;
/** Called actions' manifests read without a token from raw file hosting. */
export const MAX_ACTION_FILES_RAW = 10;
/** Workflow files read with a token, in one GraphQL query. */
export const MAX_WORKFLOW_FILES_GRAPHQL = 30;
/** Called actions' manifests read without a token (one REST request each). */
export const MAX_ACTION_FILES_REST = 4;
/** Action manifests of the listing read with a token, in the same GraphQL query. */
export const MAX_ACTION_FILES_GRAPHQL = 10;
/** Workflow reads kept, without a token, for the reusable workflows the first ones call (when more are listed than the cap). */
export const CALLEE_RESERVE = 2;
/** Rounds of reading (each one REST batch or one GraphQL query) at most: the workflows, then what they call, then what that calls. */
export const MAX_READ_ROUNDS = 3;

const ACTION_MANIFEST = /(?:^|\/)action\.ya?ml$/i;

type UnreadCause = NonNullable<GithubWorkflowSafety['unread'][number]['cause']>;

/** A read that gave no usable text: a 404, a limit (over a size cap, a request bound) or a fault (anything else). */
function causeOf(read: FileRead): UnreadCause {
  if (read.kind === 'missing') return 'missing';
  if (read.kind === 'file' || read.limited === true || read.oversize === true) return 'limit';
  return 'fault';
}

/** Whether a workflow reading met a fault (a failure, a rate limit, a malformed answer): its answer is incomplete, and is not kept. */
export function workflowReadFaulted(safety: GithubWorkflowSafety): boolean {
  return safety.unread.some((u) => u.cause === 'fault');
}

async function readTexts(
  call: GithubCall,
  repo: { owner: string; name: string },
  base: string,
  paths: readonly string[],
  prefetched: ReadonlyMap<string, FileRead>,
  blobs: BlobReader | undefined,
  raw: RawAt | undefined,
  commit: string | undefined,
): Promise<Map<string, FileRead>> {
  try {
    if (call.tokenInUse) return await graphqlFileSource(call, repo.owner, repo.name, null, prefetched, blobs, commit).read(paths);
    return raw === undefined ? await restFileSource(call, base, null, commit).read(paths) : await readRawFiles(call, raw, paths, MAX_WORKFLOW_BYTES);
  } catch (error) {
    const reason = error instanceof GithubStop ? error.reason : 'GitHub source: unexpected error while reading the workflows';
    return new Map(paths.map((p) => [p, { kind: 'error', reason }]));
  }
}

export async function readWorkflows(
  call: GithubCall,
  repo: { owner: string; name: string },
  base: string,
  workflows: readonly RepoTreeItem[],
  tree: readonly RepoTreeItem[] = [],
  treeTruncated = false,
  /** Texts already in hand (a package's repository: the facts query's `workflowFiles`), read without a request. */
  prefetched: ReadonlyMap<string, FileRead> = new Map(),
  /** With a token, how the files are read (repo-files.ts: in the query that reads the repository's other files). */
  blobs?: BlobReader,
  /** Without a token, where raw file hosting serves the repository at the commit of the listed tree (repo-files.ts); REST when absent. */
  rawAt?: RawAt,
  /** A pinned target's commit (ref-commit.ts): every file is read at it; absent, the default branch. */
  commit?: string,
  /**
   * No listing of the repository beyond its workflows (a package's repository: only the workflows
   * folder comes with the facts query): a called action's manifest is looked for by reading both
   * `action.yml` and `action.yaml` of its folder in one round, each counted against the budget.
   */
  unlisted = false,
): Promise<GithubWorkflowSafety> {
  const token = call.tokenInUse;
  const raw = token ? undefined : rawAt;
  const workflowCap = token ? MAX_WORKFLOW_FILES_GRAPHQL : raw === undefined ? MAX_WORKFLOW_FILES_REST : MAX_WORKFLOW_FILES_RAW;
  const actionCap = token ? MAX_ACTION_FILES_GRAPHQL : raw === undefined ? MAX_ACTION_FILES_REST : MAX_ACTION_FILES_RAW;
  const manifests = tree.filter((i) => i.type === 'blob' && ACTION_MANIFEST.test(i.path));
  const sizeOf = new Map([...workflows, ...manifests].map((i) => [i.path, i.size]));
  const listedManifests = new Set(manifests.map((i) => i.path));
  const workflowPaths = workflows.map((i) => i.path);
  // When not all can be read, the names that suggest outsider events, then releases, go first (workflow-order.ts).
  const ordered = readingOrder(workflowPaths);

  const texts = new Map<string, string>();
  const failed = new Map<string, string>();
  /** Why each failed read failed: a limit, a 404, or a fault (any other failure: another run may read it). */
  const failedCause = new Map<string, UnreadCause>();
  const attempted = new Set<string>();
  const oversize = new Map<string, string>();
  let workflowReads = 0;
  let actionReads = 0;
  const readable = (path: string): boolean => {
    const size = sizeOf.get(path) ?? null;
    if (size !== null && size > MAX_WORKFLOW_BYTES) {
      oversize.set(path, `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap (${size} bytes)`);
      return false;
    }
    return !attempted.has(path);
  };
  const take = (paths: readonly string[], kind: 'workflow' | 'action', cap: number): string[] => {
    const out: string[] = [];
    for (const p of paths) {
      if (!readable(p) || out.includes(p)) continue;
      const used = kind === 'workflow' ? workflowReads : actionReads;
      if (used + out.length >= cap) break;
      out.push(p);
    }
    if (kind === 'workflow') workflowReads += out.length;
    else actionReads += out.length;
    return out;
  };
  const readRound = async (paths: readonly string[]) => {
    if (paths.length === 0) return;
    for (const p of paths) attempted.add(p);
    const got = await readTexts(call, repo, base, paths, prefetched, blobs, raw, commit);
    for (const path of paths) {
      const read: FileRead = got.get(path) ?? { kind: 'error', reason: 'not read' };
      if (read.kind === 'file' && Buffer.byteLength(read.text, 'utf8') <= MAX_WORKFLOW_BYTES) {
        texts.set(path, read.text);
        continue;
      }
      failed.set(path, read.kind === 'missing' ? 'GitHub answered 404 for the file' : read.kind === 'error' ? read.reason : `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap`);
      failedCause.set(path, causeOf(read));
    }
  };

  // First round: the workflows (keeping reads for callees when more are listed than the cap); with a token the listing's action manifests too, shallowest first.
  const firstCap = workflowPaths.length > workflowCap ? workflowCap - CALLEE_RESERVE : workflowCap;
  const first = take(ordered, 'workflow', firstCap);
  const firstActions = token && first.length > 0 ? take([...manifests].sort((a, b) => a.path.split('/').length - b.path.split('/').length).map((i) => i.path), 'action', actionCap) : [];
  await readRound([...first, ...firstActions]);
  // With a token the listing's action files were read unasked: the called ones not among them get a budget of their own.
  const calledActionCap = token ? actionReads + MAX_ACTION_FILES_GRAPHQL : actionCap;
  // The YAML parser and the workflow reading load with the first repository whose workflows are read (a warm run, served from the facts cache, reads none).
  const { judgeWorkflowCalls } = await import('./workflow-calls.js');
  const judge = (): CallGraphResult => judgeWorkflowCalls({ repo, workflows: workflowPaths, actionManifests: listedManifests, texts, failed, treeTruncated });
  let judged = judge();
  const probedFolders = new Set<string>();
  for (let round = 1; round < MAX_READ_ROUNDS; round += 1) {
    const wantedWorkflows = judged.wanted.filter((p) => workflowPaths.includes(p));
    const wantedActions = judged.wanted.filter((p) => !workflowPaths.includes(p));
    // Unlisted: the folders of called actions no listing names, probed by both manifest names (`''` is the root).
    const folders = unlisted ? [...new Set(judged.unreadCalled.filter((u) => u.cause === 'missing' && /(?:^|\/)action\.yml$/.test(u.path)).map((u) => u.path.slice(0, -'action.yml'.length)))].filter((f) => !probedFolders.has(f)) : [];
    for (const f of folders) probedFolders.add(f);
    const probes = take(folders.flatMap((f) => [`${f}action.yml`, `${f}action.yaml`]), 'action', calledActionCap);
    const next = [...take(wantedWorkflows, 'workflow', workflowCap), ...take(wantedActions, 'action', calledActionCap), ...probes];
    // No callee left to read — or a token, where the rest ride in the same query —: the reads kept for callees go to the rest of the workflows, in order.
    if (wantedWorkflows.length === 0 || token) next.push(...take(ordered, 'workflow', workflowCap));
    // A folder no probe fits in the budget is listed by its first name: judged as wanted, it is unread as beyond the budget (a limit).
    for (const f of folders) if (!probes.includes(`${f}action.yml`) && !probes.includes(`${f}action.yaml`)) listedManifests.add(`${f}action.yml`);
    if (next.length === 0) break;
    await readRound(next);
    // What a probe found is the folder's manifest; else the one a fault or a limit left unread (never a 404 in its place); else action.yml, answered 404.
    for (const f of folders) {
      const names = [`${f}action.yml`, `${f}action.yaml`].filter((p) => probes.includes(p));
      const found = names.find((p) => texts.has(p)) ?? names.find((p) => failedCause.get(p) !== 'missing') ?? names[0];
      if (found !== undefined) listedManifests.add(found);
    }
    judged = judge();
  }

  // Each unread file says why in kind too: a limit (the budget: the same next run) or a fault (the next run may read it; source.ts keeps no facts holding one).
  const unread: GithubWorkflowSafety['unread'] = [];
  const addUnread = (path: string, reason: string, cause: UnreadCause) => {
    if (!unread.some((u) => u.path === path)) unread.push({ path, reason, cause });
  };
  const failure = (path: string): { reason: string; cause: UnreadCause } | undefined => {
    const size = oversize.get(path);
    if (size !== undefined) return { reason: size, cause: 'limit' };
    const reason = failed.get(path);
    return reason === undefined ? undefined : { reason, cause: failedCause.get(path) ?? 'fault' };
  };
  for (const path of workflowPaths) {
    if (texts.has(path)) continue;
    const why = failure(path) ?? { reason: `beyond the ${workflowCap} workflow files read per repository${token ? '' : ' without a token'}`, cause: 'limit' };
    addUnread(path, why.reason, why.cause);
  }
  for (const u of judged.notParsed) addUnread(u.path, u.reason, 'unparsed');
  for (const u of judged.unreadCalled) addUnread(u.path, u.reason, u.cause ?? failure(u.path)?.cause ?? 'fault');
  for (const path of judged.wanted) {
    addUnread(path, oversize.get(path) ?? `called, but beyond the ${actionCap} action files read per repository${token ? '' : ' without a token'}`, 'limit');
  }
  return {
    listed: workflows.length,
    read: judged.read,
    unread,
    outsiderTriggered: judged.outsiderTriggered,
    findings: judged.findings,
    ...(judged.gated.length === 0 ? {} : { gated: judged.gated }),
    unpinnedActions: judged.unpinnedActions,
    ...(judged.actionsRead.length === 0 ? {} : { actionsRead: judged.actionsRead }),
    ...(judged.calls.length === 0 ? {} : { calls: judged.calls }),
    ...(judged.remoteActions.length === 0 ? {} : { remoteActions: judged.remoteActions }),
    ...(judged.notJudged.length === 0 ? {} : { notJudged: judged.notJudged }),
  };
}

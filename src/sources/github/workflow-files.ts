/**
 * A repository's GitHub Actions workflow files, read within a stated budget and judged
 * (workflow-analysis.ts) — part of reading a repository's own files (repo-files.ts).
 *
 * Requests: without a token at most `MAX_WORKFLOW_FILES_REST` (8) REST file reads, one per
 * workflow, in the listing's order; with a token one GraphQL query reads up to
 * `MAX_WORKFLOW_FILES_GRAPHQL` (30) of them at once (Blob `text`). None when the repository has no
 * workflow. Each file is at most `MAX_WORKFLOW_BYTES` (128 KiB). A file not read — beyond the
 * count, over the size, a 404, a failure, a rate limit, text that does not parse — is listed in
 * `unread` with why: what it would show is unknown, never safe.
 */
import type { GithubWorkflowSafety } from '../../evidence/github-facts.js';
import { graphqlFileSource } from './graphql.js';
import type { FileRead } from './link.js';
import type { RepoTreeItem } from './repo-tree.js';
import { GithubStop, type GithubCall } from './request.js';
import { restFileSource } from './rest.js';
import { analyseWorkflow } from './workflow-analysis.js';

/** Bytes of a workflow file read at most. */
export const MAX_WORKFLOW_BYTES = 128 * 1024;
/** Workflow files read without a token (one REST request each). */
export const MAX_WORKFLOW_FILES_REST = 8;
/** Workflow files read with a token, in one GraphQL query. */
export const MAX_WORKFLOW_FILES_GRAPHQL = 30;

async function readTexts(call: GithubCall, repo: { owner: string; name: string }, base: string, paths: readonly string[]): Promise<Map<string, FileRead>> {
  try {
    return call.tokenInUse
      ? await graphqlFileSource(call, repo.owner, repo.name, null, new Map()).read(paths)
      : await restFileSource(call, base, null).read(paths);
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
): Promise<GithubWorkflowSafety> {
  const limit = call.tokenInUse ? MAX_WORKFLOW_FILES_GRAPHQL : MAX_WORKFLOW_FILES_REST;
  const unread: GithubWorkflowSafety['unread'] = [];
  const toRead: string[] = [];
  for (const item of workflows) {
    if (item.size !== null && item.size > MAX_WORKFLOW_BYTES) unread.push({ path: item.path, reason: `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap (${item.size} bytes)` });
    else if (toRead.length >= limit) unread.push({ path: item.path, reason: `beyond the ${limit} workflow files read per repository${call.tokenInUse ? '' : ' without a token'}` });
    else toRead.push(item.path);
  }
  const texts = toRead.length === 0 ? new Map<string, FileRead>() : await readTexts(call, repo, base, toRead);
  const result: GithubWorkflowSafety = { listed: workflows.length, read: [], unread, outsiderTriggered: [], findings: [], unpinnedActions: 0 };
  for (const path of toRead) {
    const read = texts.get(path) ?? { kind: 'error', reason: 'not read' };
    if (read.kind !== 'file') {
      unread.push({ path, reason: read.kind === 'missing' ? 'GitHub answered 404 for the file' : read.reason });
      continue;
    }
    if (Buffer.byteLength(read.text, 'utf8') > MAX_WORKFLOW_BYTES) {
      unread.push({ path, reason: `over the ${MAX_WORKFLOW_BYTES / 1024} KiB cap` });
      continue;
    }
    const analysis = analyseWorkflow(path, read.text);
    if (!analysis.ok) {
      unread.push({ path, reason: analysis.reason });
      continue;
    }
    result.read.push(path);
    if (analysis.outsider) result.outsiderTriggered.push(path);
    result.findings.push(...analysis.findings);
    result.unpinnedActions += analysis.unpinnedActions;
  }
  return result;
}

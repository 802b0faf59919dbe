/**
 * In an audit, many packages ask for their repositories at about the same time. With a token,
 * their GitHub lookups are gathered into batches (several repositories per GraphQL query) instead
 * of one query each: a lookup waits at most `windowMs` for others to join, and a full batch goes
 * at once. Without a token there is nothing to batch (REST is per repository): lookups go through.
 */
import type { RunContext } from '../pipeline/context.js';
import {
  fetchGithubFacts,
  fetchGithubFactsBatch,
  githubItemKey,
  type GithubBatchItem,
  type GithubClaim,
  type GithubRepoRef,
  type GithubResult,
} from '../sources/github.js';

export type GithubLookup = (repo: GithubRepoRef, claim: GithubClaim) => Promise<GithubResult>;

export interface BatcherOptions {
  /** Repositories gathered before a batch leaves (default 25). */
  batchSize?: number;
  /** How long the first lookup of a batch waits for others (default 25 ms). */
  windowMs?: number;
}

export function githubBatcher(ctx: RunContext, options: BatcherOptions = {}): GithubLookup {
  const source = { http: ctx.http, endpoints: ctx.endpoints, token: ctx.githubToken, now: ctx.now };
  if (ctx.githubToken === null) return (repo, claim) => fetchGithubFacts(source, repo, claim);
  const batchSize = options.batchSize ?? 25;
  const windowMs = options.windowMs ?? 25;
  let pending: { item: GithubBatchItem; resolve: (r: GithubResult) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    fetchGithubFactsBatch(source, batch.map((p) => p.item), { batchSize })
      .then((results) => {
        for (const { item, resolve } of batch) {
          resolve(results.get(githubItemKey(item)) ?? { status: 'unavailable', reason: 'GitHub gave no answer for the repository' });
        }
      })
      .catch((error: unknown) => {
        const reason = `GitHub: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        for (const { resolve } of batch) resolve({ status: 'unavailable', reason });
      });
  };

  return (repo, claim) =>
    new Promise<GithubResult>((resolve) => {
      pending.push({ item: { repo, claim }, resolve });
      if (pending.length >= batchSize) flush();
      else timer ??= setTimeout(flush, windowMs);
    });
}

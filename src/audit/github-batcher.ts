/**
 * In an audit, many packages ask for their repositories at about the same time. With a token,
 * their GitHub lookups are gathered into full batches (25 repositories per GraphQL query; the
 * packages of one repository share its place)
 * instead of one query each. A batch leaves when it is full, when no new lookup has arrived for
 * `quietMs` (the evaluations in flight have all asked), or when its oldest lookup has waited
 * `maxWaitMs` (a steady trickle never holds one back for long). A repository the facts cache
 * answers never enters a batch. Without a token there is nothing to batch (REST is per
 * repository): lookups go through, still answered from the facts cache first.
 */
import { githubSourceContext } from '../pipeline/collect-github-source.js';
import type { RunContext } from '../pipeline/context.js';
import {
  cachedGithubResult,
  fetchGithubFacts,
  fetchGithubFactsBatch,
  githubItemKey,
  thrownGithubResult,
  type GithubBatchItem,
  type GithubClaim,
  type GithubRepoRef,
  type GithubResult,
} from '../sources/github/source.js';

export type GithubLookup = (repo: GithubRepoRef, claim: GithubClaim) => Promise<GithubResult>;

export interface BatcherOptions {
  /** Repositories gathered before a batch leaves (default 25). */
  batchSize?: number;
  /** A batch leaves once no new lookup arrived for this long (default 30 ms). */
  quietMs?: number;
  /** …or once its oldest lookup has waited this long (default 250 ms). */
  maxWaitMs?: number;
}

export const BATCHER_DEFAULTS = { batchSize: 25, quietMs: 30, maxWaitMs: 250 } as const;

interface Pending {
  item: GithubBatchItem;
  resolve: (result: GithubResult) => void;
}

export function githubBatcher(ctx: RunContext, options: BatcherOptions = {}): GithubLookup {
  const source = githubSourceContext(ctx);
  if (ctx.githubToken === null) return (repo, claim) => fetchGithubFacts(source, repo, claim);
  const batchSize = Math.max(1, options.batchSize ?? BATCHER_DEFAULTS.batchSize);
  const quietMs = options.quietMs ?? BATCHER_DEFAULTS.quietMs;
  const maxWaitMs = options.maxWaitMs ?? BATCHER_DEFAULTS.maxWaitMs;
  let pending: Pending[] = [];
  // Distinct repositories pending: the packages of a monorepo share one slot of a batch.
  let repositories = new Set<string>();
  let quiet: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;

  const send = (batch: readonly Pending[]): void => {
    fetchGithubFactsBatch(source, batch.map((p) => p.item), { batchSize })
      .then((results) => {
        for (const { item, resolve } of batch) {
          resolve(results.get(githubItemKey(item)) ?? { status: 'unavailable', reason: 'GitHub gave no answer for the repository', code: 'bad-answer' });
        }
      })
      .catch((error: unknown) => {
        const result = thrownGithubResult(error, `GitHub: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
        for (const { resolve } of batch) resolve(result);
      });
  };

  const flush = (): void => {
    clearTimeout(quiet);
    clearTimeout(deadline);
    quiet = undefined;
    deadline = undefined;
    const batch = pending;
    pending = [];
    repositories = new Set();
    if (batch.length > 0) send(batch);
  };

  return (repo, claim) => {
    const item = { repo, claim };
    const cached = cachedGithubResult(source, item);
    if (cached !== undefined) return Promise.resolve(cached);
    return new Promise<GithubResult>((resolve) => {
      pending.push({ item, resolve });
      repositories.add(`${repo.host}/${repo.owner}/${repo.name}`.toLowerCase());
      if (repositories.size >= batchSize) {
        flush();
        return;
      }
      clearTimeout(quiet);
      quiet = setTimeout(flush, quietMs);
      deadline ??= setTimeout(flush, maxWaitMs);
    });
  };
}

/**
 * GitHub facts in the facts cache (facts-cache.ts): one entry per repository and claim, so that
 * a warm run asks GitHub nothing. The key names the host, `owner/name`, the API the facts came
 * from (REST and GraphQL measure responsiveness differently; only REST has the community health
 * percentage) and a hash of the claim (the package name, directory and provenance repository
 * decide the link check). Never the token. Only complete `ok` facts are stored: a rate-limited
 * or failed lookup, a section GitHub could not answer this time, a file the link check could not
 * read, a listing the security policy needed, a verified repository's workflow files the query
 * could not give (source.ts) or a workflow file a fault left unread is asked again on the next run.
 */
import { createHash } from 'node:crypto';
import { GithubFactsSchema, type GithubFacts } from '../../evidence/github-facts.js';
import type { FactsCache } from '../facts-cache.js';
import { FRESHNESS_DEFAULTS } from '../http/freshness.js';
import type { GithubClaim } from './link.js';
import { workflowReadFaulted } from './workflow-files.js';

export interface GithubCacheItem {
  repo: { host: string; owner: string; name: string };
  claim: GithubClaim;
}

/**
 * What GitHub facts a lookup derives, as a number raised whenever their meaning changes, so that a
 * store warmed by the same nerq version before the change is not read (2: REST counts
 * contributors over the branch's newest 100 commits, as GraphQL does).
 */
const FACTS_FORMAT = 2;

/** The facts-cache key of a repository lookup (`graphql` with a token, `rest` without). */
export function githubFactsKey(item: GithubCacheItem, api: 'rest' | 'graphql'): string {
  const { repo, claim } = item;
  const what =
    claim.kind === 'target'
      ? ['target']
      : ['package', claim.ecosystem, claim.name, claim.directory ?? '', claim.provenanceRepository ?? ''];
  const hash = createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 32);
  return `github:${api}:v${FACTS_FORMAT}:${repo.host.toLowerCase()}/${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}:${hash}`;
}

/** Cached facts for the lookup, when fresh and still valid facts; else undefined. */
export function cachedGithubFacts(cache: FactsCache | undefined, item: GithubCacheItem, api: 'rest' | 'graphql'): GithubFacts | undefined {
  if (cache === undefined) return undefined;
  const value = cache.get<unknown>(githubFactsKey(item, api), FRESHNESS_DEFAULTS.github);
  if (value === undefined) return undefined;
  const parsed = GithubFactsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether facts are complete enough to keep: every section GitHub was asked for answered, no
 * file the link check needed went unread (`unreadable`; a request bound, `budget`, is by design),
 * no listing the security policy depends on failed (`securityPolicy` null: unknown), and no
 * workflow file went unread on a fault (workflow-files.ts: a file left unread by the read budget
 * is a complete, limited answer and is kept).
 */
export function cacheableGithubFacts(facts: GithubFacts): boolean {
  return (
    Object.keys(facts.unknown).length === 0 &&
    facts.link.code !== 'unreadable' &&
    facts.community?.securityPolicy !== null &&
    (facts.workflowSafety === undefined || !workflowReadFaulted(facts.workflowSafety))
  );
}

/** Keep the facts of a lookup that fully succeeded. */
export function rememberGithubFacts(cache: FactsCache | undefined, item: GithubCacheItem, api: 'rest' | 'graphql', facts: GithubFacts): void {
  if (cache === undefined || !cacheableGithubFacts(facts)) return;
  cache.put(githubFactsKey(item, api), facts);
}

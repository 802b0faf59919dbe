/**
 * Peers of a `github:` target: GitHub's repository search by the target's first topics (a
 * repository matches when it carries all of them), most stars first. The target itself, forks,
 * archived repositories and those another category by their topics and description are left
 * out before evaluation; the rest are evaluated as `github:` targets (docs/scoring.md §13).
 */
import type { Evidence } from '../../evidence/schema.js';
import { queryTopics, REPO_SEARCH_MAX_PER_PAGE, searchRepositories } from '../../sources/github/search.js';
import { parseTarget } from '../../target/parse.js';
import type { Target } from '../../target/types.js';
import type { CallOptions, Runtime } from '../runtime.js';
import { sameCategoryByListing, specificKeywords, withinRateLimit, type Candidate, type PeerSearch } from './candidate.js';

export const GITHUB_SEARCH_SOURCE = 'github-search';
export const NOTE_INCOMPLETE = "GitHub's search stopped before searching every repository (its time limit): the candidates are partial";

/** A target text nerq accepts for a repository's full name, or null. */
function repositoryTarget(fullName: string): Target | null {
  try {
    const target = parseTarget(`github:${fullName}`);
    return target.ecosystem === 'github' && target.name.toLowerCase() === fullName.toLowerCase() ? target : null;
  } catch {
    return null;
  }
}

export async function findRepositoryPeers(
  runtime: Runtime,
  evidence: Evidence | null,
  request: CallOptions & { limit: number; category: string; name: string },
): Promise<PeerSearch> {
  const github = evidence?.sources.github;
  const repository = github?.status === 'ok' ? github.facts.repository : null;
  if (repository === null || repository === undefined) return { status: 'unavailable', reason: 'GitHub search: the repository facts to search by are not at hand', code: 'depends-on-source', notes: [] };
  if (!repository.topicsKnown) return { status: 'unavailable', reason: "GitHub search: GitHub's answer did not say the repository's topics", code: 'not-asked', notes: [] };
  // Generic topics ("mcp", "typescript") say nothing of what it does: neither searched by nor shared.
  const specific = specificKeywords(repository.topics);
  const topics = queryTopics(specific);
  if (topics.length === 0) {
    const reason =
      repository.topics.length === 0
        ? 'GitHub search: the repository has no topic to search its peers by'
        : `GitHub search: the repository has only generic topics (${queryTopics(repository.topics, 3).join(', ')}) to search its peers by`;
    return { status: 'unavailable', reason, code: 'not-asked', notes: [] };
  }

  const ctx = runtime.callContext(request);
  const tokenInUse = runtime.githubToken !== null;
  const search = await searchRepositories(
    { http: ctx.http, api: runtime.endpoints.githubApi, limiter: ctx.githubLimiter, tokenInUse, now: ctx.now },
    { topics, perPage: Math.min(REPO_SEARCH_MAX_PER_PAGE, Math.max(request.limit * 3, 25)) },
  );
  if (search.status === 'unavailable') return { status: 'unavailable', reason: search.reason, code: search.code, notes: [] };

  const self = new Set([request.name, repository.fullName, repository.renamedFrom ?? ''].map((n) => n.toLowerCase()));
  const targetTopics = new Set(specific.map((t) => t.toLowerCase()));
  const listings = search.listings.filter((l) => !self.has(l.fullName.toLowerCase()));
  const chosen: Candidate[] = [];
  for (const listing of listings) {
    if (chosen.length === request.limit) break;
    if (listing.fork || listing.archived) continue;
    const shared = listing.topics.filter((t) => targetTopics.has(t));
    if (shared.length === 0 || !sameCategoryByListing(listing.topics, listing.description, request.category)) continue;
    const target = repositoryTarget(listing.fullName);
    if (target !== null) chosen.push({ target, sharedKeywords: shared, curated: null });
  }
  // What the target's evaluation left of GitHub's REST budget decides how many are evaluated.
  const budget = withinRateLimit(chosen, tokenInUse, ctx.githubLimiter.remaining(runtime.endpoints.githubApi, ctx.now));
  return {
    status: 'ok',
    source: GITHUB_SEARCH_SOURCE,
    query: search.query,
    listed: listings.length,
    chosen: budget.chosen,
    unevaluated: budget.unevaluated,
    notes: [...budget.notes, ...(search.incomplete ? [NOTE_INCOMPLETE] : [])],
  };
}

/**
 * GitHub's repository search (`GET {api}/search/repositories?q=topic:a topic:b&sort=stars&order=desc&per_page=N`,
 * REST "Search repositories"): the repositories that carry all of a target's first topics, as
 * candidates for its peers (README, "Compared with its peers"; docs/scoring.md §13).
 *
 * The answer is untrusted input: the body is size-capped, validated item by item (an item that
 * does not fit — no `full_name`, a name that is not `owner/repo` — is dropped and counted, never
 * repaired), and every string kept is sanitised and cut. The search API has a rate limit of its
 * own (10 requests a minute without a token, 30 with one): a refusal makes the search
 * unavailable and does not stop the other GitHub requests of the run. A failure is data
 * (`unavailable` with a one-line reason), never an exception.
 */
import { z } from 'zod';
import { sanitizeForTerminal } from '../../render/sanitize.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl, withQuery } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';
import { queryTerms } from '../../util/query-terms.js';
import { jsonOf, keepListings } from '../search-listings.js';
import { validGithubFullName } from './names.js';
import { classifyRateLimit, type GithubRateLimiter } from './rate-limit.js';
import { ACCEPT_JSON, GITHUB_API_VERSION } from './request.js';

/** GitHub answers at most 100 items per page; one page is read. */
export const REPO_SEARCH_MAX_PER_PAGE = 100;
/** 100 items with their owner objects and URLs are about 600 KB. */
export const REPO_SEARCH_MAX_BYTES = 4 * 1024 * 1024;
/** Topics put in one query: every qualifier must match, so more than two narrows it to the target alone. */
export const REPO_SEARCH_TOPICS = 2;
const MAX_DESCRIPTION = 300;
const MAX_TOPICS_PER_ITEM = 30;

/** A topic as GitHub allows it: lower-case letters, digits and hyphens, at most 50 characters. */
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;

/** One repository an answer lists, as far as nerq reads it. */
export interface RepositoryListing {
  fullName: string;
  description: string | null;
  /** Lower case, each a valid topic. */
  topics: string[];
  fork: boolean;
  archived: boolean;
  stars: number | null;
}

export type RepositorySearchResult =
  | {
      status: 'ok';
      /** The `q` asked (`topic:a topic:b`). */
      query: string;
      total: number;
      /** GitHub stopped before searching everything (its time limit): the list is partial. */
      incomplete: boolean;
      listings: RepositoryListing[];
      /** Items dropped because they did not validate (or repeated one kept). */
      dropped: number;
    }
  | { status: 'unavailable'; query: string; reason: string; code: SourceUnavailableCode };

/** The topics of a list that can be asked for, lower case, first occurrence kept, at most `max`. */
export function queryTopics(topics: readonly string[], max = REPO_SEARCH_TOPICS): string[] {
  return queryTerms(topics, TOPIC, max);
}

/** The `q` of a topic search: `topic:a topic:b` (a repository matches when it has all of them). */
export function topicQuery(topics: readonly string[]): string {
  return topics.map((t) => `topic:${t}`).join(' ');
}

const AnswerSchema = z.object({
  total_count: z.number().int().nonnegative(),
  incomplete_results: z.boolean(),
  items: z.array(z.unknown()),
});

const ItemSchema = z.object({
  full_name: z.string().max(160),
  description: z.string().nullish(),
  fork: z.boolean(),
  archived: z.boolean(),
  topics: z.array(z.unknown()).optional(),
  stargazers_count: z.number().int().nonnegative().optional(),
});

function clean(text: string, max: number): string {
  return sanitizeForTerminal(text).replace(/\s+/g, ' ').trim().slice(0, max);
}

/** One item of the answer as a listing, or null when it does not validate. */
export function repositoryListingOf(item: unknown): RepositoryListing | null {
  const parsed = ItemSchema.safeParse(item);
  if (!parsed.success || !validGithubFullName(parsed.data.full_name)) return null;
  const repo = parsed.data;
  const topics = queryTopics(
    (repo.topics ?? []).flatMap((t) => (typeof t === 'string' ? [t] : [])),
    MAX_TOPICS_PER_ITEM,
  );
  const description = typeof repo.description === 'string' ? clean(repo.description, MAX_DESCRIPTION) : '';
  return {
    fullName: repo.full_name,
    description: description === '' ? null : description,
    topics,
    fork: repo.fork,
    archived: repo.archived,
    stars: repo.stargazers_count ?? null,
  };
}

/** GitHub's `message` from an error body (untrusted: only matched, never printed), or null. */
function messageOf(body: string | undefined): string | null {
  try {
    const message = (JSON.parse(body ?? '') as { message?: unknown }).message;
    return typeof message === 'string' ? message.slice(0, 500) : null;
  } catch {
    return null;
  }
}

export interface RepositorySearchContext {
  http: HttpClient;
  /** The REST base URL (endpoints.ts, NERQ_GITHUB_API_URL). */
  api: string;
  limiter: GithubRateLimiter;
  tokenInUse: boolean;
  now: Date;
}

/** Ask GitHub for up to `perPage` repositories carrying every one of `topics`, most stars first. Never throws. */
export async function searchRepositories(
  ctx: RepositorySearchContext,
  request: { topics: readonly string[]; perPage: number },
): Promise<RepositorySearchResult> {
  const query = topicQuery(request.topics);
  const unavailable = (reason: string, code: SourceUnavailableCode): RepositorySearchResult => ({ status: 'unavailable', query, reason: `GitHub search: ${oneLine(reason)}`, code });
  if (request.topics.length === 0) return unavailable('the repository has no topic to search by', 'not-asked');
  // GitHub is not asked while a rate limit of the run holds (rate-limit.ts).
  const stopped = ctx.limiter.stoppedFor(ctx.api, ctx.now);
  if (stopped !== null) return unavailable(stopped, 'rate-limited');
  const perPage = Math.max(1, Math.min(REPO_SEARCH_MAX_PER_PAGE, Math.floor(request.perPage)));
  const response = await ctx.http.request({
    url: withQuery(joinUrl(ctx.api, 'search', 'repositories'), { q: query, sort: 'stars', order: 'desc', per_page: perPage }),
    headers: { accept: ACCEPT_JSON, 'x-github-api-version': GITHUB_API_VERSION },
    maxBytes: REPO_SEARCH_MAX_BYTES,
    retryRateLimited: false,
  });
  if (!response.ok) {
    if (response.kind === 'status' && response.status !== undefined) {
      // The search limit is its own: it is reported here and never stops the run's other requests.
      const verdict = classifyRateLimit(response.status, response.headers, messageOf(response.body), ctx.now, ctx.tokenInUse);
      if (verdict.kind !== 'fine') return unavailable(verdict.reason, 'rate-limited');
    }
    return unavailable(response.reason, httpFailureCode(response));
  }
  const json = jsonOf(response.body);
  if (json === undefined) return unavailable('the answer is not JSON', 'bad-answer');
  const answer = AnswerSchema.safeParse(json);
  if (!answer.success) return unavailable('the answer has no list of items', 'bad-answer');
  const { listings, dropped } = keepListings(answer.data.items, REPO_SEARCH_MAX_PER_PAGE, repositoryListingOf, (l) => l.fullName.toLowerCase());
  return { status: 'ok', query, total: answer.data.total_count, incomplete: answer.data.incomplete_results, listings, dropped };
}

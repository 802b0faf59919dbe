/**
 * Dates for a repository's version tags (docs/scoring.md §9, "Maturity"). GitHub's REST tag
 * listing carries no dates; with a token, one GraphQL query lists the newest tags by date:
 *
 *   repository { refs(refPrefix: "refs/tags/", first: 100, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
 *     totalCount nodes { name target { … on Commit { committedDate } … on Tag { tagger { date } target { … on Commit { committedDate } } } } } } }
 *
 * An annotated tag is dated by its tagger, a lightweight one by its commit (an annotated tag
 * without a tagger date by the commit it tags). Both dates are whatever the tagger or committer
 * set. Only version tags (version-tags.ts) are kept. Nothing is guessed: a listed version tag
 * with no target, no date, a date that does not parse or one more than a day in the future makes
 * the whole set unknown, with the reason — the tag left out could be the newest. So does any
 * failure (GraphQL errors, 401/403, a rate limit, 5xx, an answer of the wrong shape). Without a
 * token there is no request: the dates are unknown, and say why.
 */
import { z } from 'zod';
import type { GithubTagDates } from '../../evidence/github-facts.js';
import { fieldErrors, postGraphql } from './graphql.js';
import { GithubStop, type GithubCall } from './request.js';
import { isVersionTag } from './version-tags.js';
import { isFutureTime } from '../../checks/lib/releases.js';

/** Tags asked for: the newest this many by date (GitHub's page limit). */
export const TAG_DATES_FIRST = 100;

export const NO_TOKEN_TAG_DATES = "GitHub's REST tag listing carries no dates; GITHUB_TOKEN dates them (GraphQL)";

const QUERY = `query NerqTagDates($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    refs(refPrefix: "refs/tags/", first: ${TAG_DATES_FIRST}, orderBy: { field: TAG_COMMIT_DATE, direction: DESC }) {
      totalCount
      nodes { name target { __typename ... on Commit { committedDate } ... on Tag { tagger { date } target { __typename ... on Commit { committedDate } } } } }
    }
  }
}`;

const Dated = z.object({ committedDate: z.string().nullish() }).passthrough();
const RefsSchema = z.object({
  totalCount: z.number().int().nonnegative(),
  nodes: z.array(
    z
      .object({
        name: z.string(),
        target: z
          .object({
            __typename: z.string(),
            committedDate: z.string().nullish(),
            tagger: z.object({ date: z.string().nullish() }).nullish(),
            target: Dated.nullish(),
          })
          .nullable(),
      })
      .nullable(),
  ),
});
type RefNode = NonNullable<z.infer<typeof RefsSchema>['nodes'][number]>;

function unknown(reason: string): GithubTagDates {
  return { tags: null, complete: false, reason };
}

/** A version tag's date and where it comes from, or why it has none. */
function dateOf(node: RefNode, now: Date): { at: string; source: 'tagger' | 'commit' } | string {
  const target = node.target;
  if (target === null) return `GitHub gave tag ${node.name} no target`;
  const candidate =
    target.__typename === 'Tag'
      ? typeof target.tagger?.date === 'string'
        ? { raw: target.tagger.date, source: 'tagger' as const }
        : { raw: target.target?.committedDate ?? null, source: 'commit' as const }
      : target.__typename === 'Commit'
        ? { raw: target.committedDate ?? null, source: 'commit' as const }
        : null;
  if (candidate === null) return `tag ${node.name} points at a ${target.__typename}, which has no date`;
  if (candidate.raw === null) return `GitHub gave tag ${node.name} no date`;
  const at = Date.parse(candidate.raw);
  if (!Number.isFinite(at)) return `tag ${node.name} carries a date that does not parse`;
  if (isFutureTime(new Date(at), now)) return `tag ${node.name} is dated in the future (${new Date(at).toISOString().slice(0, 10)})`;
  return { at: new Date(at).toISOString(), source: candidate.source };
}

/** The version tags' dates from one GraphQL answer's `repository` value (exported for the tests of odd answers). */
export function tagDatesFrom(repository: unknown, now: Date): GithubTagDates {
  if (typeof repository !== 'object' || repository === null) return unknown('tag dates: GitHub GraphQL gave no repository');
  const parsed = RefsSchema.safeParse((repository as { refs?: unknown }).refs);
  if (!parsed.success) return unknown('tag dates: GitHub GraphQL answered with an unexpected shape');
  const tags: NonNullable<GithubTagDates['tags']> = [];
  for (const node of parsed.data.nodes) {
    if (node === null) return unknown('tag dates: GitHub GraphQL listed a tag it could not give');
    if (!isVersionTag(node.name)) continue;
    const dated = dateOf(node, now);
    if (typeof dated === 'string') return unknown(`tag dates: ${dated}`);
    tags.push({ name: node.name, ...dated });
  }
  tags.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return { tags, complete: parsed.data.totalCount <= parsed.data.nodes.length, reason: null };
}

/** One GraphQL query (with a token); any failure is the reason, never an exception. */
export async function graphqlTagDates(call: GithubCall, owner: string, name: string): Promise<GithubTagDates> {
  if (!call.tokenInUse) return unknown(NO_TOKEN_TAG_DATES);
  try {
    const answer = await postGraphql(call, QUERY, { owner, name });
    if (answer.kind !== 'data') return unknown(`tag dates: ${answer.reason}`);
    const error = fieldErrors(answer.errors, 'repository').values().next().value ?? answer.errors[0]?.message;
    if (error !== undefined) return unknown(`tag dates: GitHub GraphQL: ${error}`);
    return tagDatesFrom(answer.data.repository, call.now);
  } catch (error) {
    // A rate limit stops GitHub for the run (request.ts); here it only leaves the dates unknown.
    if (error instanceof GithubStop) return unknown(`tag dates: ${error.reason}`);
    throw error;
  }
}

/**
 * Repository facts from GitHub's GraphQL API (with a token): one query per repository — or one
 * query for several, each under its own alias — returns the repository, commit counts and
 * authors, releases and their assets, recent issues and pull requests with their first
 * responses, the root / `.github` / `docs` trees and the manifests for the link check, the
 * authors of the newest 100 commits (contributors, counted as over REST) — and, in place of
 * REST's community profile, the code of conduct, contributing guidelines and templates.
 *
 * A batch that GitHub cannot finish (a timeout, the node limit, 502/504) is halved and retried;
 * a repository GraphQL cannot answer for (not found, blocked, forbidden) is handed back for the
 * REST path, which tells missing from blocked.
 */
import { z } from 'zod';
import type {
  GithubActivity,
  GithubCommunity,
  GithubContributors,
  GithubReleases,
  GithubRepository,
  GithubResponsiveness,
} from '../../evidence/github-facts.js';
import { forkParent, forkParentBranch, validGithubFullName } from './names.js';
import { communityFilesIn, entryType, type RepoListings, type TreeEntry } from './files.js';
import type { DirRead, FileRead, RepoFileSource } from './link.js';
import type { RepoTreeItem } from './repo-tree.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';
import { primaryLimitReason, rateLimitHeaders, UNKNOWN_RESET_PAUSE_MS } from './rate-limit.js';
import { failureReason, githubRequest, GithubStop, jsonBody, oneLine, type GithubCall, type Section } from './request.js';
import { firstResponse, summariseResponsiveness, type ThreadInfo } from './responsiveness.js';
import {
  commitAuthor,
  commitIdentity,
  daysBefore,
  isBot,
  isBotCommit,
  RECENT_COMMITS,
  summariseActivity,
  summariseRecentContributors,
  summariseReleases,
  type CommitInfo,
  type ReleaseInfo,
} from './summaries.js';

const MAX_GRAPHQL_BYTES = 32 * 1024 * 1024;

/** Repositories per GraphQL query before any shrinking. */
export const GRAPHQL_BATCH_SIZE = 10;
/** Bounded samples asked for in the query. */
export const GRAPHQL_LIMITS = { commits: 100, contributorCommits: RECENT_COMMITS, releases: 50, assets: 30, threads: 50, replies: 10, topics: 20 } as const;

// ---------------------------------------------------------------------------------------------
// The query

const L = GRAPHQL_LIMITS;
const ACTOR = '{ __typename login }';

/** Everything asked about one repository (the manifests are added per alias). */
export const REPOSITORY_FRAGMENT = `fragment NerqRepository on Repository {
  nameWithOwner databaseId url isArchived isDisabled isFork isEmpty createdAt pushedAt
  parent { nameWithOwner defaultBranchRef { name } }
  stargazerCount forkCount watchers { totalCount }
  openIssues: issues(states: OPEN) { totalCount }
  openPulls: pullRequests(states: OPEN) { totalCount }
  licenseInfo { spdxId }
  repositoryTopics(first: ${L.topics}) { nodes { topic { name } } }
  homepageUrl hasIssuesEnabled isSecurityPolicyEnabled
  codeOfConduct { key } contributingGuidelines { resourcePath }
  issueTemplates { name } pullRequestTemplates { filename }
  defaultBranchRef {
    name
    target {
      ... on Commit {
        year: history(since: $since365, first: ${L.commits}) { totalCount nodes { committedDate author { name email user { login } } } }
        quarter: history(since: $since90) { totalCount }
        last: history(first: 1) { nodes { committedDate } }
        recent: history(first: ${L.contributorCommits}) { nodes { author { name email user { login } } } }
      }
    }
  }
  releases(first: ${L.releases}, orderBy: { field: CREATED_AT, direction: DESC }) {
    nodes { tagName publishedAt isDraft isPrerelease description releaseAssets(first: ${L.assets}) { totalCount nodes { name } } }
  }
  recentIssues: issues(first: ${L.threads}, orderBy: { field: CREATED_AT, direction: DESC }, filterBy: { since: $since180 }) {
    nodes { createdAt closedAt author ${ACTOR} comments(first: ${L.replies}) { nodes { createdAt author ${ACTOR} } } }
  }
  recentPulls: pullRequests(first: ${L.threads}, orderBy: { field: CREATED_AT, direction: DESC }) {
    nodes {
      createdAt closedAt mergedAt author ${ACTOR}
      comments(first: ${L.replies}) { nodes { createdAt author ${ACTOR} } }
      reviews(first: ${L.replies}) { nodes { submittedAt createdAt author ${ACTOR} } }
    }
  }
  rootTree: object(expression: "HEAD:") { ... on Tree { entries { name type } } }
  githubTree: object(expression: "HEAD:.github") { ... on Tree { entries { name type object { ... on Tree { entries { name type } } } } } }
  docsTree: object(expression: "HEAD:docs") { ... on Tree { entries { name type } } }
}`;

/**
 * The workflow files with their texts, asked beside the fragment for a repository a package
 * claims (its workflows are judged from them: workflow-safety); a repository target reads its
 * own with its files.
 */
const WORKFLOW_FILES = 'workflowFiles: object(expression: "HEAD:.github/workflows") { ... on Tree { entries { name type object { ... on Blob { byteSize text isTruncated isBinary } } } } }';

/**
 * The security policy's possible paths (root, `.github/`, `docs/`), asked beside the fragment for
 * a repository a package claims (the policy's text is judged for a working channel:
 * security-policy); a repository target reads its own with its files. Aliases `securityPolicy0…2`.
 */
export const SECURITY_POLICY_PATHS = ['SECURITY.md', '.github/SECURITY.md', 'docs/SECURITY.md'] as const;
const SECURITY_POLICY_FIELDS = SECURITY_POLICY_PATHS.map((path, i) => `securityPolicy${i}: object(expression: "HEAD:${path}") { ...NerqBlob }`).join(' ');

const BLOB_FRAGMENT = `fragment NerqBlob on GitObject { ... on Blob { byteSize text isTruncated isBinary } }`;
const TREE_FRAGMENT = `fragment NerqTree on GitObject { ... on Tree { entries { name type } } }`;

export interface GraphqlItem {
  /** `r0`, `r1`, … */
  alias: string;
  owner: string;
  name: string;
  /** Files to read at the default branch (manifests for the link check). */
  files: readonly string[];
  /** Ask for the workflow files and their texts, and the security policy's, too (a package claims the repository). */
  workflows?: boolean;
}

/** The batched query and its variables (owner, name and file paths are variables, never spliced into the text). */
export function buildRepositoriesQuery(items: readonly GraphqlItem[], now: Date): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {
    since90: daysBefore(now, 90),
    since365: daysBefore(now, 365),
    since180: daysBefore(now, 180),
  };
  const declarations = ['$since90: GitTimestamp!', '$since365: GitTimestamp!', '$since180: DateTime!'];
  const selections: string[] = [];
  items.forEach((item, i) => {
    variables[`o${i}`] = item.owner;
    variables[`n${i}`] = item.name;
    declarations.push(`$o${i}: String!`, `$n${i}: String!`);
    const files = item.files.map((path, j) => {
      variables[`f${i}_${j}`] = `HEAD:${path}`;
      declarations.push(`$f${i}_${j}: String!`);
      return `f${j}: object(expression: $f${i}_${j}) { ...NerqBlob }`;
    });
    selections.push(`${item.alias}: repository(owner: $o${i}, name: $n${i}) { ...NerqRepository ${files.join(' ')}${item.workflows === true ? ` ${WORKFLOW_FILES} ${SECURITY_POLICY_FIELDS}` : ''} }`);
  });
  const usesBlob = items.some((item) => item.files.length > 0 || item.workflows === true);
  const query = [
    `query NerqRepositories(${declarations.join(', ')}) {`,
    ...selections.map((s) => `  ${s}`),
    '}',
    REPOSITORY_FRAGMENT,
    ...(usesBlob ? [BLOB_FRAGMENT] : []),
  ].join('\n');
  return { query, variables };
}

// ---------------------------------------------------------------------------------------------
// The answer

/** A count is never below zero: a negative one is invalid data (docs/security.md). */
const Count = z.object({ totalCount: z.number().int().nonnegative() });
const Actor = z.object({ __typename: z.string().optional(), login: z.string() }).nullable();
const Entries = z.array(z.object({ name: z.string(), type: z.string(), object: z.object({ entries: z.array(z.object({ name: z.string(), type: z.string() })).optional() }).nullish() }));
const TreeObject = z.object({ entries: Entries.optional() }).nullable();
const GitAuthor = z.object({ name: z.string().nullable(), email: z.string().nullable(), user: z.object({ login: z.string() }).nullable() }).nullable();
const Reply = z.object({ createdAt: z.string().nullish(), submittedAt: z.string().nullish(), author: Actor }).nullable();

export const GraphqlRepositorySchema = z.object({
  nameWithOwner: z.string().refine(validGithubFullName),
  databaseId: z.number().int().nullish(),
  url: z.string(),
  isArchived: z.boolean(),
  isDisabled: z.boolean(),
  isFork: z.boolean(),
  parent: z.object({ nameWithOwner: z.string(), defaultBranchRef: z.object({ name: z.string() }).nullish() }).nullish(),
  isEmpty: z.boolean(),
  createdAt: z.string().nullable(),
  pushedAt: z.string().nullable(),
  stargazerCount: z.number().int().nonnegative(),
  forkCount: z.number().int().nonnegative(),
  watchers: Count.nullable(),
  openIssues: Count,
  openPulls: Count,
  licenseInfo: z.object({ spdxId: z.string().nullable() }).nullable(),
  repositoryTopics: z.object({ nodes: z.array(z.object({ topic: z.object({ name: z.string() }) }).nullable()) }).nullable(),
  homepageUrl: z.string().nullable(),
  hasIssuesEnabled: z.boolean(),
  isSecurityPolicyEnabled: z.boolean().nullable(),
  codeOfConduct: z.object({ key: z.string().nullish() }).nullable(),
  contributingGuidelines: z.object({ resourcePath: z.string().nullish() }).nullable(),
  issueTemplates: z.array(z.object({ name: z.string().nullish() })).nullable(),
  pullRequestTemplates: z.array(z.object({ filename: z.string().nullish() })).nullable(),
  defaultBranchRef: z
    .object({
      name: z.string(),
      target: z
        .object({
          year: z.object({
            totalCount: z.number().int().nonnegative(),
            nodes: z.array(
              z
                .object({
                  committedDate: z.string(),
                  author: GitAuthor,
                })
                .nullable(),
            ),
          }),
          quarter: Count,
          last: z.object({ nodes: z.array(z.object({ committedDate: z.string() }).nullable()) }),
          recent: z.object({ nodes: z.array(z.object({ author: GitAuthor }).nullable()) }),
        })
        .partial()
        .nullable(),
    })
    .nullable(),
  releases: z
    .object({
      nodes: z.array(
        z
          .object({
            tagName: z.string(),
            publishedAt: z.string().nullable(),
            isDraft: z.boolean(),
            isPrerelease: z.boolean(),
            description: z.string().nullish(),
            releaseAssets: z.object({ totalCount: z.number().int().nonnegative(), nodes: z.array(z.object({ name: z.string() }).nullable()) }),
          })
          .nullable(),
      ),
    })
    .nullable(),
  recentIssues: z
    .object({
      nodes: z.array(
        z
          .object({
            createdAt: z.string(),
            closedAt: z.string().nullable(),
            author: Actor,
            comments: z.object({ nodes: z.array(Reply) }),
          })
          .nullable(),
      ),
    })
    .nullable(),
  recentPulls: z
    .object({
      nodes: z.array(
        z
          .object({
            createdAt: z.string(),
            closedAt: z.string().nullable(),
            mergedAt: z.string().nullable(),
            author: Actor,
            comments: z.object({ nodes: z.array(Reply) }),
            reviews: z.object({ nodes: z.array(Reply) }).nullable(),
          })
          .nullable(),
      ),
    })
    .nullable(),
  rootTree: TreeObject,
  githubTree: TreeObject,
  docsTree: TreeObject,
  /** The workflow files with their texts (a package's repository: workflow-safety); absent from answers recorded before it was asked. */
  workflowFiles: z.object({ entries: z.array(z.object({ name: z.string(), type: z.string(), object: z.unknown().nullish() })).optional() }).nullable().optional(),
  /** The security policy at SECURITY_POLICY_PATHS (a package's repository); absent from answers recorded before it was asked. */
  securityPolicy0: z.unknown().optional(),
  securityPolicy1: z.unknown().optional(),
  securityPolicy2: z.unknown().optional(),
});
export type GraphqlRepository = z.infer<typeof GraphqlRepositorySchema>;

const BlobSchema = z.object({ text: z.string().nullish(), isTruncated: z.boolean().optional(), isBinary: z.boolean().nullish() }).nullable();

const ErrorsSchema = z.array(
  z.object({
    type: z.string().optional(),
    message: z.string().optional(),
    path: z.array(z.union([z.string(), z.number()])).optional(),
  }),
);

export interface GraphqlError {
  type: string | null;
  message: string;
  path: ReadonlyArray<string | number>;
}

/** A blob read through GraphQL: `null` = no such path; a tree or a submodule is not a file either. */
export function blobRead(value: unknown): FileRead {
  const parsed = BlobSchema.safeParse(value ?? null);
  if (!parsed.success || parsed.data === null) return { kind: 'missing' };
  const blob = parsed.data;
  if (blob.text === undefined && blob.isTruncated === undefined) return { kind: 'missing' };
  if (blob.isTruncated === true) return { kind: 'error', reason: 'the file is too large to read', oversize: true, code: 'too-large' };
  if (blob.isBinary === true || typeof blob.text !== 'string') return { kind: 'error', reason: 'the file is not text' };
  return { kind: 'file', text: blob.text };
}

// ---------------------------------------------------------------------------------------------
// From the answer to sections

/** The repository section; `defaultBranch` is the `defaultBranchRef` name (absent only in an empty repository). */
export function graphqlRepository(host: string, asked: string, node: GraphqlRepository, defaultBranch: string): GithubRepository {
  return {
    host,
    fullName: node.nameWithOwner,
    id: node.databaseId === undefined || node.databaseId === null ? null : String(node.databaseId),
    renamedFrom: node.nameWithOwner.toLowerCase() === asked.toLowerCase() ? null : asked,
    htmlUrl: node.url,
    archived: node.isArchived,
    disabled: node.isDisabled,
    fork: node.isFork,
    parent: forkParent(node.isFork, node.parent?.nameWithOwner),
    parentBranch: forkParentBranch(node.isFork, node.parent?.nameWithOwner, node.parent?.defaultBranchRef?.name),
    createdAt: node.createdAt,
    pushedAt: node.pushedAt,
    defaultBranch,
    stars: node.stargazerCount,
    forks: node.forkCount,
    watchers: node.watchers?.totalCount ?? null,
    openIssues: node.openIssues.totalCount + node.openPulls.totalCount,
    license: node.licenseInfo?.spdxId ?? null,
    topics: (node.repositoryTopics?.nodes ?? []).flatMap((n) => (n === null ? [] : [n.topic.name])),
    homepage: node.homepageUrl === null || node.homepageUrl.trim() === '' ? null : node.homepageUrl,
    hasIssues: node.hasIssuesEnabled,
    description: null,
    topicsKnown: node.repositoryTopics !== undefined && node.repositoryTopics !== null,
    licenseKnown: true,
  };
}

export function graphqlActivity(node: GraphqlRepository, now: Date): Section<GithubActivity> {
  if (node.isEmpty || node.defaultBranchRef === null) {
    return { ok: true, value: { commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, botCommits90d: 0, botCommits365d: 0, lastCommitAt: null, truncated: false } };
  }
  const target = node.defaultBranchRef.target;
  if (target === null || target.year === undefined || target.quarter === undefined) {
    return { ok: false, reason: 'GitHub gave no commit history for the default branch' };
  }
  const sample: CommitInfo[] = target.year.nodes.flatMap((c) =>
    c === null
      ? []
      : [
          {
            author: commitIdentity(c.author?.user?.login, c.author?.email, c.author?.name),
            bot: isBotCommit(c.author?.user?.login, null, c.author?.email, c.author?.name),
            at: c.committedDate,
          },
        ],
  );
  return {
    ok: true,
    value: summariseActivity({
      now,
      sample,
      complete: target.year.totalCount <= sample.length,
      count365: target.year.totalCount,
      count90: target.quarter.totalCount,
      lastCommitAt: target.last?.nodes[0]?.committedDate ?? sample[0]?.at ?? null,
    }),
  };
}

export function graphqlReleases(node: GraphqlRepository, now: Date): Section<GithubReleases> {
  if (node.releases === null) return { ok: false, reason: 'GitHub gave no releases' };
  const releases: ReleaseInfo[] = node.releases.nodes.flatMap((r) =>
    r === null
      ? []
      : [
          {
            tag: r.tagName,
            draft: r.isDraft,
            prerelease: r.isPrerelease,
            publishedAt: r.publishedAt,
            assetNames: r.releaseAssets.nodes.flatMap((a) => (a === null ? [] : [a.name])),
            assetCount: r.releaseAssets.totalCount,
            notes: r.description ?? null,
          },
        ],
  );
  return { ok: true, value: summariseReleases(releases, now, node.releases.nodes.length < L.releases) };
}

/**
 * Contributors from the authors of the default branch's newest commits, derived as over REST
 * (summariseRecentContributors): a commit's account is `author.user`.
 */
export function graphqlContributors(node: GraphqlRepository): Section<GithubContributors> {
  const recent = node.defaultBranchRef?.target?.recent;
  if (recent === undefined) return { ok: false, reason: 'GitHub gave no recent commits for the default branch' };
  const authors = recent.nodes.flatMap((commit) =>
    commit === null ? [] : [commitAuthor(commit.author?.user?.login, null, commit.author?.email, commit.author?.name)],
  );
  return { ok: true, value: summariseRecentContributors(authors) };
}

/**
 * The community profile's files without `/community/profile`: GraphQL's code of conduct,
 * contributing guidelines and templates, and the root / `.github` / `docs` listings (README,
 * and any of those files GraphQL does not recognise). GraphQL has no health percentage: null.
 */
export function graphqlCommunity(
  node: GraphqlRepository,
  listings: RepoListings,
  problem: string | null,
): Section<Omit<GithubCommunity, 'securityPolicy'>> {
  const listed = communityFilesIn(listings);
  if (listed === null) return { ok: false, reason: problem ?? 'the repository file listing is unknown' };
  return {
    ok: true,
    value: {
      readme: listed.readme,
      contributing: listed.contributing || node.contributingGuidelines !== null,
      codeOfConduct: listed.codeOfConduct || node.codeOfConduct !== null,
      issueTemplate: listed.issueTemplate || (node.issueTemplates?.length ?? 0) > 0,
      pullRequestTemplate: listed.pullRequestTemplate || (node.pullRequestTemplates?.length ?? 0) > 0,
      healthPercentage: null,
    },
  };
}

type ReplyNode = z.infer<typeof Reply>;

function replies(nodes: ReadonlyArray<ReplyNode>): Array<{ login: string | null; bot: boolean; at: string | null }> {
  return nodes.flatMap((r) =>
    r === null ? [] : [{ login: r.author?.login ?? null, bot: r.author === null ? false : isBot(r.author.login, r.author.__typename), at: r.submittedAt ?? r.createdAt ?? null }],
  );
}

export function graphqlResponsiveness(node: GraphqlRepository, now: Date): Section<GithubResponsiveness> {
  if (node.recentIssues === null || node.recentPulls === null) return { ok: false, reason: 'GitHub gave no recent issues or pull requests' };
  const threads: ThreadInfo[] = [];
  for (const issue of node.recentIssues.nodes) {
    if (issue === null) continue;
    const at = firstResponse(issue.author?.login ?? null, replies(issue.comments.nodes), issue.closedAt);
    threads.push({
      kind: 'issue',
      createdAt: issue.createdAt,
      closedAt: issue.closedAt,
      mergedAt: null,
      authorBot: issue.author !== null && isBot(issue.author.login, issue.author.__typename),
      responded: at !== null,
      respondedAt: at,
    });
  }
  for (const pull of node.recentPulls.nodes) {
    if (pull === null) continue;
    const all = [...replies(pull.comments.nodes), ...replies(pull.reviews?.nodes ?? [])];
    const at = firstResponse(pull.author?.login ?? null, all, pull.closedAt);
    threads.push({
      kind: 'pull',
      createdAt: pull.createdAt,
      closedAt: pull.closedAt,
      mergedAt: pull.mergedAt,
      authorBot: pull.author !== null && isBot(pull.author.login, pull.author.__typename),
      responded: at !== null,
      respondedAt: at,
    });
  }
  return { ok: true, value: summariseResponsiveness(threads, now, 'first-response') };
}

function treeEntries(tree: z.infer<typeof TreeObject>): TreeEntry[] {
  return (tree?.entries ?? []).map((e) => ({ path: e.name, type: entryType(e.type) }));
}

/** The root, `.github` (two levels: enough for `workflows/*.yml` and `ISSUE_TEMPLATE/*`) and `docs` trees. */
export function graphqlListings(node: GraphqlRepository): RepoListings {
  const github: TreeEntry[] = [];
  for (const entry of node.githubTree?.entries ?? []) {
    github.push({ path: entry.name, type: entryType(entry.type) });
    for (const child of entry.object?.entries ?? []) github.push({ path: `${entry.name}/${child.name}`, type: entryType(child.type) });
  }
  return { root: treeEntries(node.rootTree), github, docs: treeEntries(node.docsTree) };
}

// ---------------------------------------------------------------------------------------------
// Sending a query

export type GraphqlAnswer =
  | { kind: 'data'; data: Record<string, unknown>; errors: GraphqlError[] }
  /** GitHub could not finish the query (timeout, node limit, 502/504): a smaller one may pass. */
  | { kind: 'too-big'; reason: string }
  /** The query failed as a whole for another reason (the REST path may still work). */
  | { kind: 'failed'; reason: string; code: SourceUnavailableCode; rest: boolean };

const SHRINK_TYPES = new Set(['MAX_NODE_LIMIT_EXCEEDED', 'RESOURCE_LIMITS_EXCEEDED', 'TIMEOUT']);

function tooBig(error: GraphqlError): boolean {
  return (error.type !== null && SHRINK_TYPES.has(error.type.toUpperCase())) || /time(d)?\s?out/i.test(error.message);
}

/** POST a query; a rate-limit answer trips the limiter and throws GithubStop. */
export async function postGraphql(call: GithubCall, query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
  const answer = await githubRequest(call, {
    url: call.graphql,
    method: 'POST',
    body: JSON.stringify({ query, variables }),
    maxBytes: MAX_GRAPHQL_BYTES,
  });
  if (!answer.ok) {
    if (answer.status === null || answer.status === 502 || answer.status === 503 || answer.status === 504) {
      return { kind: 'too-big', reason: `GitHub GraphQL: ${answer.reason}` };
    }
    return { kind: 'failed', reason: `GitHub GraphQL: ${failureReason(answer)}`, code: answer.code, rest: answer.status !== 401 };
  }
  const json = jsonBody(answer.body);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'failed', reason: "GitHub GraphQL: the answer is not valid JSON", code: 'bad-answer', rest: false };
  }
  const body = json as { data?: unknown; errors?: unknown };
  const parsedErrors = body.errors === undefined ? { success: true as const, data: [] } : ErrorsSchema.safeParse(body.errors);
  if (!parsedErrors.success) return { kind: 'failed', reason: 'GitHub GraphQL: the answer has an unexpected shape at errors', code: 'bad-answer', rest: false };
  const errors: GraphqlError[] = parsedErrors.data.map((e) => ({ type: e.type ?? null, message: oneLine(e.message ?? 'unknown error', 160), path: e.path ?? [] }));

  if (errors.some((e) => e.type === 'RATE_LIMITED')) {
    const { reset } = rateLimitHeaders(answer.headers);
    const reason = primaryLimitReason(reset, call.now, call.tokenInUse);
    const resumeAt = reset !== null && reset * 1000 > call.now.getTime() ? reset * 1000 : call.now.getTime() + UNKNOWN_RESET_PAUSE_MS;
    call.limiter.stop(call.api, reason, resumeAt, call.now);
    throw new GithubStop(reason);
  }
  const data = body.data;
  const noData = typeof data !== 'object' || data === null || Array.isArray(data);
  if (errors.some(tooBig) && (noData || errors.some((e) => e.path.length <= 1))) {
    return { kind: 'too-big', reason: `GitHub GraphQL: ${errors.find(tooBig)?.message ?? 'the query was too large'}` };
  }
  if (noData) {
    const first = errors[0];
    return { kind: 'failed', reason: `GitHub GraphQL: ${first === undefined ? 'the answer has no data' : first.message}`, code: 'bad-answer', rest: true };
  }
  return { kind: 'data', data: data as Record<string, unknown>, errors };
}

/** Errors below an alias, by the field they hit (`releases`, `f0`, …). */
export function fieldErrors(errors: readonly GraphqlError[], alias: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const error of errors) {
    if (error.path[0] !== alias || error.path.length < 2) continue;
    const field = String(error.path[1]);
    if (!out.has(field)) out.set(field, error.message);
  }
  return out;
}

/**
 * Git objects of one repository by expression (`HEAD:path`, `<branch>:path`) in one `NerqFiles`
 * query, each under its own alias: the object (null when there is none, or when GitHub reported an
 * error for that field), or why the query as a whole failed. A rate limit throws GithubStop.
 */
export async function graphqlObjects(
  call: GithubCall,
  owner: string,
  name: string,
  expressions: readonly string[],
  fragment: 'NerqBlob' | 'NerqTree',
): Promise<ObjectsRead> {
  const variables: Record<string, string> = { o: owner, n: name };
  const fields = expressions.map((expression, i) => {
    variables[`p${i}`] = expression;
    return `x${i}: object(expression: $p${i}) { ...${fragment} }`;
  });
  const declarations = ['$o: String!', '$n: String!', ...expressions.map((_, i) => `$p${i}: String!`)];
  const query = [
    `query NerqFiles(${declarations.join(', ')}) { repository(owner: $o, name: $n) { ${fields.join(' ')} } }`,
    fragment === 'NerqBlob' ? BLOB_FRAGMENT : TREE_FRAGMENT,
  ].join('\n');
  const answer = await postGraphql(call, query, variables);
  if (answer.kind !== 'data') return answer.reason;
  const repo = answer.data.repository;
  if (typeof repo !== 'object' || repo === null || Array.isArray(repo)) return 'GitHub GraphQL gave no repository';
  const problems = fieldErrors(answer.errors, 'repository');
  const objects = new Map<number, unknown>();
  const failed = new Map<number, string>();
  expressions.forEach((_, i) => {
    const problem = problems.get(`x${i}`);
    if (problem !== undefined) failed.set(i, `GitHub GraphQL: ${problem}`);
    objects.set(i, (repo as Record<string, unknown>)[`x${i}`] ?? null);
  });
  return { objects, failed };
}

/** What `graphqlObjects` gives: the objects by the index of their expression, or why the query failed. */
export type ObjectsRead = { objects: Map<number, unknown>; failed: Map<number, string> } | string;
/** Blobs of one repository by expression (one `NerqFiles` query, or a share of one: `blobBatch`). */
export type BlobReader = (expressions: readonly string[]) => Promise<ObjectsRead>;

/**
 * A BlobReader whose reads asked in the same turn (a repository's files and its workflows, read
 * side by side: repo-files.ts) go out as one `NerqFiles` query; each reader gets its own objects,
 * or the failure, or the rate limit (GithubStop) the query met.
 */
export function blobBatch(call: GithubCall, owner: string, name: string): BlobReader {
  let queue: Array<{ expressions: readonly string[]; resolve: (read: ObjectsRead) => void; reject: (error: unknown) => void }> = [];
  const flush = async (): Promise<void> => {
    const waiting = queue;
    queue = [];
    const all = [...new Set(waiting.flatMap((w) => w.expressions))];
    let got: ObjectsRead;
    try {
      got = await graphqlObjects(call, owner, name, all, 'NerqBlob');
    } catch (error) {
      for (const w of waiting) w.reject(error);
      return;
    }
    for (const w of waiting) {
      if (typeof got === 'string') {
        w.resolve(got);
        continue;
      }
      const objects = new Map<number, unknown>();
      const failed = new Map<number, string>();
      w.expressions.forEach((expression, i) => {
        const j = all.indexOf(expression);
        objects.set(i, got.objects.get(j) ?? null);
        const problem = got.failed.get(j);
        if (problem !== undefined) failed.set(i, problem);
      });
      w.resolve({ objects, failed });
    }
  };
  return (expressions) =>
    new Promise<ObjectsRead>((resolve, reject) => {
      if (queue.length === 0) queueMicrotask(() => void flush());
      queue.push({ expressions, resolve, reject });
    });
}

/**
 * Files and directories read with follow-up GraphQL queries (workspace members), with the main
 * query's reads first; `blobs` reads the files (default: a query of their own).
 */
export function graphqlFileSource(
  call: GithubCall,
  owner: string,
  name: string,
  rootEntries: readonly TreeEntry[] | null,
  prefetched: ReadonlyMap<string, FileRead>,
  blobs: BlobReader = (expressions) => graphqlObjects(call, owner, name, expressions, 'NerqBlob'),
  /** The revision the paths are read at: `HEAD` (the default branch), or a pinned target's commit sha. */
  rev = 'HEAD',
): RepoFileSource {
  return {
    rootEntries,
    async read(paths) {
      const out = new Map<string, FileRead>();
      const needed = paths.filter((p) => {
        const known = prefetched.get(p);
        if (known !== undefined) out.set(p, known);
        return known === undefined;
      });
      if (needed.length === 0) return out;
      const got = await blobs(needed.map((p) => `${rev}:${p}`));
      // A field GitHub reported an error for is a fault, never a missing file.
      needed.forEach((path, i) => {
        if (typeof got === 'string') return void out.set(path, { kind: 'error', reason: got });
        const problem = got.failed.get(i);
        out.set(path, problem === undefined ? blobRead(got.objects.get(i)) : { kind: 'error', reason: problem });
      });
      return out;
    },
    async list(dirs) {
      const out = new Map<string, DirRead>();
      const needed = dirs.filter((d) => {
        if (d === '' && rootEntries !== null) {
          out.set(d, { kind: 'dir', entries: rootEntries });
          return false;
        }
        return true;
      });
      if (needed.length === 0) return out;
      const got = await graphqlObjects(call, owner, name, needed.map((d) => `${rev}:${d}`), 'NerqTree');
      needed.forEach((dir, i) => {
        if (typeof got === 'string') {
          out.set(dir, { kind: 'error', reason: got });
          return;
        }
        const problem = got.failed.get(i);
        if (problem !== undefined) return void out.set(dir, { kind: 'error', reason: problem });
        const tree = TreeObject.safeParse(got.objects.get(i) ?? null);
        if (!tree.success || tree.data === null || tree.data.entries === undefined) out.set(dir, { kind: 'missing' });
        else out.set(dir, { kind: 'dir', entries: treeEntries(tree.data) });
      });
      return out;
    },
  };
}

/**
 * The security policy of the facts query's answer (a package's repository): the first of
 * SECURITY_POLICY_PATHS that is a readable blob. `undefined` when the answer does not hold them
 * (recorded before they were asked); null when none is there; `unread` when one is there but
 * could not be read as text (too large, binary), with why.
 */
export function graphqlSecurityPolicy(
  node: GraphqlRepository,
): { path: string; text: string } | { unread: string } | null | undefined {
  const values = [node.securityPolicy0, node.securityPolicy1, node.securityPolicy2];
  if (values.every((v) => v === undefined)) return undefined;
  for (const [i, value] of values.entries()) {
    const read = blobRead(value);
    if (read.kind === 'missing') continue;
    const path = SECURITY_POLICY_PATHS[i] ?? '';
    return read.kind === 'file' ? { path, text: read.text.replace(/^\uFEFF/, '') } : { unread: `${path}: ${read.reason}` };
  }
  return null;
}

/**
 * The `.github/workflows` files of the facts query's answer, with their texts, for reading a
 * package's repository's workflows without another request (workflow-files.ts): YAML blobs only,
 * as a tree listing would give them. Null when the answer does not hold them (recorded before
 * they were asked).
 */
export function graphqlWorkflowFiles(node: GraphqlRepository): { items: RepoTreeItem[]; texts: Map<string, FileRead> } | null {
  if (node.workflowFiles === undefined) return null;
  const items: RepoTreeItem[] = [];
  const texts = new Map<string, FileRead>();
  for (const entry of node.workflowFiles?.entries ?? []) {
    if (entry.type !== 'blob' || !/\.ya?ml$/i.test(entry.name)) continue;
    const path = `.github/workflows/${entry.name}`;
    const size = (entry.object as { byteSize?: unknown } | null | undefined)?.byteSize;
    items.push({ path, type: 'blob', size: typeof size === 'number' && Number.isFinite(size) ? size : null });
    texts.set(path, blobRead(entry.object));
  }
  return { items, texts };
}

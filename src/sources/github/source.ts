/**
 * The GitHub source: facts about a source repository (github.com or the configured GitHub
 * Enterprise host) for a `github:owner/repo` target or a package's declared repository.
 *
 * - Without a token: REST only, the fewest requests (see github/rest.ts; 6–9 per repository,
 *   up to 3 more for a branch with over 100 commits in the year).
 * - With a token (GITHUB_TOKEN / GH_TOKEN): one GraphQL query per batch of repositories and
 *   nothing else — the community files come from GraphQL's fields and the tree listings
 *   (github/graphql.ts), and for a package's verified repository its workflows and SECURITY.md
 *   too; one REST request more only when that policy's only channel is private reporting
 *   (github/private-reporting.ts). Batches shrink when GitHub cannot finish them.
 * - Either way, contributors are the authors of the default branch's newest 100 commits,
 *   derived by one function (github/summaries.ts `summariseRecentContributors`).
 * - With a facts cache (`GithubSourceContext.facts`), a repository whose facts were derived
 *   within the GitHub freshness is answered from it without a request; only complete `ok`
 *   facts are kept (a rate-limited or failed lookup, or a section left unknown, never is).
 * - Rate limits stop GitHub requests until the reset (never a sleep until then): the facts become
 *   unavailable with a reason that says when the limit resets.
 * - The token goes only to the configured GitHub API / GraphQL URLs (`githubAuthFor`); the HTTP
 *   client drops it on a redirect to another origin. It never appears in facts or reasons.
 *
 * Never throws: every failure is `{ status: 'unavailable', reason }`, or a section left null
 * with its reason in `unknown`.
 */
import hostedGitInfo from 'hosted-git-info';
import {
  GithubFactsSchema,
  type GithubCi,
  type GithubCommunity,
  type GithubFacts,
  type GithubFiles,
  type GithubLink,
  type GithubRepository,
  type GithubSection,
} from '../../evidence/github-facts.js';
import { packageRulesOf } from '../../ecosystems/rules.js';
import type { RepositoryRef } from '../../evidence/repository-ref.js';
import type { Sources } from '../../evidence/schema.js';
import { githubApiFor, GITHUB_HOST, type Endpoints } from '../endpoints.js';
import type { FactsCache } from '../facts-cache.js';
import { pathUnder } from '../http/freshness.js';
import { cachedGithubFacts, rememberGithubFacts } from './facts-cache.js';
import { ciIn, securityPolicyIn, type RepoListings } from './files.js';
import {
  blobRead,
  buildRepositoriesQuery,
  graphqlCommunity,
  graphqlContributors,
  fieldErrors,
  graphqlActivity,
  graphqlFileSource,
  graphqlListings,
  graphqlReleases,
  graphqlRepository,
  graphqlResponsiveness,
  graphqlSecurityPolicy,
  graphqlWorkflowFiles,
  GraphqlRepositorySchema,
  GRAPHQL_BATCH_SIZE,
  postGraphql,
  type GraphqlItem,
} from './graphql.js';
import { validGithubNames } from './names.js';
import { forkOwnCommits, type ForkCommitsResult } from './fork-commits.js';
import { normaliseDirectory, verifyLink, type FileRead, type GithubClaim, type RepoFileSource } from './link.js';
import type { GithubRateLimiter } from './rate-limit.js';
import { GithubStop, type GithubCall, type Section } from './request.js';
import { restRepoFiles, SECURITY_POLICY_TEXT_CHARS } from './repo-files.js';
import { privateReportingFor } from './private-reporting.js';
import { resolveRefCommit } from './ref-commit.js';
import { readWorkflows } from './workflow-files.js';
import { alreadyReadFileSource, type RepositoryAlreadyRead } from './tree-file-source.js';
import {
  repoBase,
  restCommits,
  restCommunity,
  restFileSource,
  restListings,
  restReleases,
  restRepository,
  restResponsiveness,
  shapeProblem,
} from './rest.js';
import type { HttpClient } from '../http/types.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { mapLimit } from '../../util/map-limit.js';
import type { SourceUnavailable } from '../../model/source-codes.js';

export type { GithubClaim } from './link.js';
export { GithubRateLimiter } from './rate-limit.js';

export interface GithubSourceContext {
  http: HttpClient;
  endpoints: Endpoints;
  token: string | null;
  now: Date;
  /** The runtime's rate-limit switch, shared by every lookup (github/rate-limit.ts). */
  limiter: GithubRateLimiter;
  /** Derived facts kept between runs (absent = none): a fresh entry answers without a request (github/facts-cache.ts). */
  facts?: FactsCache;
}

export interface GithubRepoRef {
  host: string;
  owner: string;
  name: string;
}

export type GithubResult = { status: 'ok'; facts: GithubFacts } | SourceUnavailable;

/**
 * Facts served for this run only, never kept in the facts cache: a part GitHub was asked for did
 * not answer, with nothing in the facts to say so (a verified package repository whose workflow
 * files the query could not give: its `workflowSafety` is absent, as when they are not asked).
 */
const incompleteFacts = new WeakSet<GithubFacts>();

export interface GithubBatchItem {
  repo: GithubRepoRef;
  claim: GithubClaim;
}

export interface GithubBatchOptions {
  /** Repositories per GraphQL query before shrinking (default GRAPHQL_BATCH_SIZE). */
  batchSize?: number;
  /** Repositories fetched at the same time (default 4). */
  concurrency?: number;
}


// ---------------------------------------------------------------------------------------------
// Repository references, token and credentials

function refFromParts(host: string, owner: string | undefined, name: string | undefined): GithubRepoRef | null {
  if (owner === undefined || name === undefined) return null;
  const repo = name.replace(/\.git$/i, '');
  return validGithubNames(owner, repo) ? { host, owner, name: repo } : null;
}

/** A repository URL on the GitHub Enterprise host named by GITHUB_SERVER_URL. */
function enterpriseRef(raw: string, endpoints: Endpoints): GithubRepoRef | null {
  const server = endpoints.githubServer;
  if (server === undefined) return null;
  const text = raw.trim().replace(/^git\+/, '').replace(/^([^@/:]+@)?([^:/]+):(?!\/)/, 'ssh://$1$2/');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.host.toLowerCase() !== server.host) return null;
  const [owner, name] = url.pathname.split('/').filter((s) => s !== '');
  return refFromParts(server.host, owner, name);
}

/** Parse a repository URL / hosted-git-info RepositoryRef into a ref, or null when not GitHub (github.com or the GHES host in endpoints.githubServer). */
export function githubRepoOf(ref: RepositoryRef | string | null, endpoints: Endpoints): GithubRepoRef | null {
  if (ref === null) return null;
  if (typeof ref !== 'string') {
    if (ref.host === 'github' && ref.slug !== null) {
      const [owner, name] = ref.slug.split('/');
      return refFromParts(GITHUB_HOST, owner, name);
    }
    return enterpriseRef(ref.url ?? ref.raw, endpoints) ?? (ref.url === null ? null : enterpriseRef(ref.raw, endpoints));
  }
  if (ref.length > 2048) return null;
  try {
    const info = hostedGitInfo.fromUrl(ref.trim());
    if (info?.type === 'github') return refFromParts(GITHUB_HOST, info.user, info.project);
  } catch {
    // not a hosted-git-info URL: maybe the Enterprise host
  }
  return enterpriseRef(ref, endpoints);
}

/** Authorization header provider for createHttpClient's `authFor`: `Bearer <token>` ONLY for URLs on the configured GitHub API / GraphQL origins (github.com's and the GHES one), undefined otherwise. */
export function githubAuthFor(endpoints: Endpoints, token: string | null): (url: string) => string | undefined {
  if (token === null) return () => undefined;
  const bases = [endpoints.githubApi, endpoints.githubGraphql, endpoints.githubServer?.api, endpoints.githubServer?.graphql].filter(
    (b): b is string => b !== undefined,
  );
  const header = `Bearer ${token}`;
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    // Same origin AND under the configured base path: a fixture server (or a proxy path) that
    // mounts other services on the same origin never sees the token.
    return bases.some((base) => pathUnder(parsed, base) !== undefined) ? header : undefined;
  };
}

/** The token from the environment: GITHUB_TOKEN, else GH_TOKEN; blank → null. */
export function githubToken(env: NodeJS.ProcessEnv): string | null {
  for (const name of ['GITHUB_TOKEN', 'GH_TOKEN']) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return value;
  }
  return null;
}

/** The key of a batch item in `fetchGithubFactsBatch`'s answer. */
export function githubItemKey(item: GithubBatchItem): string {
  const repo = `${item.repo.host}/${item.repo.owner}/${item.repo.name}`.toLowerCase();
  const { claim } = item;
  return claim.kind === 'target' ? repo : `${repo}#${claim.ecosystem}:${claim.name}:${claim.directory ?? ''}:${claim.provenanceRepository ?? ''}`;
}

// ---------------------------------------------------------------------------------------------
// Assembling the facts

const SECTIONS_NULL = {
  repository: null,
  activity: null,
  releases: null,
  contributors: null,
  responsiveness: null,
  community: null,
  ci: null,
} as const;

function absentLink(claim: GithubClaim, state: 'missing' | 'blocked'): GithubLink {
  if (claim.kind === 'target') return { verifiedBy: 'target', reason: 'the target is the repository itself' };
  return {
    verifiedBy: null,
    reason: state === 'missing' ? 'the repository does not exist on GitHub' : 'GitHub blocks access to the repository',
  };
}

function absentFacts(claim: GithubClaim, state: 'missing' | 'blocked', reason: string | null, call: GithubCall, api: 'rest' | 'graphql'): GithubFacts {
  return {
    state,
    absentReason: reason,
    ...SECTIONS_NULL,
    link: absentLink(claim, state),
    unknown: {},
    via: { api, requests: call.counter.requests },
  };
}

interface PresentParts {
  repository: GithubRepository;
  activity: Section<GithubFacts['activity'] & object>;
  releases: Section<GithubFacts['releases'] & object>;
  contributors: Section<GithubFacts['contributors'] & object>;
  responsiveness: Section<GithubFacts['responsiveness'] & object>;
  community: Section<GithubCommunity>;
  ci: Section<GithubCi>;
  link: GithubLink;
}

function presentFacts(parts: PresentParts, call: GithubCall, api: 'rest' | 'graphql'): GithubFacts {
  const unknown: Partial<Record<GithubSection, string>> = {};
  const take = <T>(section: GithubSection, value: Section<T>): T | null => {
    if (value.ok) return value.value;
    unknown[section] = value.reason;
    return null;
  };
  return {
    state: 'present',
    absentReason: null,
    repository: parts.repository,
    activity: take('activity', parts.activity),
    releases: take('releases', parts.releases),
    contributors: take('contributors', parts.contributors),
    responsiveness: take('responsiveness', parts.responsiveness),
    community: take('community', parts.community),
    ci: take('ci', parts.ci),
    link: parts.link,
    unknown,
    via: { api, requests: call.counter.requests },
  };
}

function communityOf(profile: Section<Omit<GithubCommunity, 'securityPolicy'>>, securityPolicy: boolean | null): Section<GithubCommunity> {
  return profile.ok ? { ok: true, value: { ...profile.value, securityPolicy } } : profile;
}

function ciOf(listings: RepoListings, problem: string | null): Section<GithubCi> {
  const ci = ciIn(listings);
  return ci === null ? { ok: false, reason: problem ?? 'the repository file listing is unknown' } : { ok: true, value: ci };
}

function validated(facts: GithubFacts): GithubResult {
  const checked = GithubFactsSchema.safeParse(facts);
  return checked.success
    ? { status: 'ok', facts: checked.data }
    : { status: 'unavailable', reason: `GitHub facts failed validation (${shapeProblem(checked.error)})`, code: 'bad-answer' };
}

function linkNames(asked: GithubRepoRef, fullName: string): string[] {
  return [`${asked.owner}/${asked.name}`, fullName];
}

// ---------------------------------------------------------------------------------------------
// The REST path

async function collectViaRest(call: GithubCall, ref: GithubRepoRef, claim: GithubClaim): Promise<GithubResult> {
  const lookup = await restRepository(call, ref.host, ref.owner, ref.name);
  if (lookup.kind === 'failed') return { status: 'unavailable', reason: lookup.reason, code: lookup.code };
  if (lookup.kind === 'missing') return validated(absentFacts(claim, 'missing', null, call, 'rest'));
  if (lookup.kind === 'blocked') return validated(absentFacts(claim, 'blocked', lookup.reason, call, 'rest'));
  const { repository } = lookup;
  const base = repoBase(call.api, repository.fullName);
  const listingsP = restListings(call, base);
  const linkP = listingsP.then((listings) =>
    verifyLink({
      claim,
      host: ref.host,
      fullName: repository.fullName,
      names: linkNames(ref, repository.fullName),
      branch: repository.defaultBranch,
      files: restFileSource(call, base, listings.root),
    }),
  );
  const [{ activity, contributors }, releases, responsiveness, profile, listings, link] = await Promise.all([
    restCommits(call, base, repository.defaultBranch),
    restReleases(call, base),
    restResponsiveness(call, base),
    restCommunity(call, base),
    listingsP,
    linkP,
  ]);
  return validated(
    presentFacts(
      {
        repository,
        activity,
        releases,
        contributors,
        responsiveness,
        community: communityOf(profile, securityPolicyIn(listings)),
        ci: ciOf(listings, listings.problem),
        link,
      },
      call,
      'rest',
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The GraphQL path

interface Prepared {
  key: string;
  item: GithubBatchItem;
  call: GithubCall;
  gql: GraphqlItem;
}

/** The manifests worth reading in the main query for a claim (the link check reads them first). */
export function manifestPaths(claim: GithubClaim): string[] {
  if (claim.kind === 'target') return [];
  const dir = normaliseDirectory(claim.directory);
  const bases = dir === null ? [''] : [dir, ''];
  const { files, workspaceFiles } = packageRulesOf(claim.ecosystem).registry.linkManifests;
  const paths = bases.flatMap((base) => files.map((file) => (base === '' ? file : `${base}/${file}`)));
  return [...paths, ...workspaceFiles];
}

async function completeFromGraphql(prepared: Prepared, node: unknown, errors: Map<string, string>): Promise<GithubResult | 'rest'> {
  const { call, item, gql } = prepared;
  const parsed = GraphqlRepositorySchema.safeParse(node);
  if (!parsed.success) {
    // A field GitHub could not resolve (it says so in `errors`): the REST path may still answer.
    if (errors.size > 0) return 'rest';
    return { status: 'unavailable', reason: `GitHub GraphQL: the answer has an ${shapeProblem(parsed.error)}`, code: 'bad-answer' };
  }
  const data = parsed.data;
  // An empty repository has no default branch in GraphQL; REST still names it (and has little else to ask).
  if (data.defaultBranchRef === null) return 'rest';
  const ref = item.repo;
  const repository = graphqlRepository(ref.host, `${ref.owner}/${ref.name}`, data, data.defaultBranchRef.name);
  const failed = (field: string): string | null => {
    const message = errors.get(field);
    return message === undefined ? null : `GitHub GraphQL: ${message}`;
  };
  const sectionOr = <T>(fields: readonly string[], compute: () => Section<T>): Section<T> => {
    const problem = fields.map(failed).find((p) => p !== null);
    return problem === undefined || problem === null ? compute() : { ok: false, reason: problem };
  };

  const listed = graphqlListings(data);
  const listings: RepoListings = {
    root: failed('rootTree') === null ? listed.root : null,
    github: failed('githubTree') === null ? listed.github : null,
    docs: failed('docsTree') === null ? listed.docs : null,
  };
  const listingProblem = failed('rootTree') ?? failed('githubTree') ?? failed('docsTree');
  const prefetched = new Map<string, FileRead>(
    gql.files.map((path, j) => {
      const problem = failed(`f${j}`);
      return [path, problem === null ? blobRead((node as Record<string, unknown>)[`f${j}`]) : { kind: 'error', reason: problem }];
    }),
  );
  const [owner = ref.owner, name = ref.name] = repository.fullName.split('/');

  const link = await verifyLink({
    claim: item.claim,
    host: ref.host,
    fullName: repository.fullName,
    names: linkNames(ref, repository.fullName),
    branch: repository.defaultBranch,
    files: graphqlFileSource(call, owner, name, listings.root, prefetched),
  });
  const profile = sectionOr(['codeOfConduct', 'contributingGuidelines', 'issueTemplates', 'pullRequestTemplates'], () =>
    graphqlCommunity(data, listings, listingProblem),
  );
  const security = data.isSecurityPolicyEnabled === true ? true : securityPolicyIn(listings);
  // A package's verified repository: its workflows came with the query (docs/checks.md, workflow-safety).
  const workflowFiles = item.claim.kind === 'package' && link.verifiedBy !== null && failed('workflowFiles') === null ? graphqlWorkflowFiles(data) : null;
  const workflowSafety =
    workflowFiles === null ? undefined : await readWorkflows(call, { owner, name }, '', workflowFiles.items, [], false, workflowFiles.texts, undefined, undefined, undefined, true);
  const workflowsFailed = item.claim.kind === 'package' && link.verifiedBy !== null && failed('workflowFiles') !== null;
  // Its security policy's text came with the query too (security-policy judges its channel); a
  // path GitHub could not resolve leaves the text unread (the policy then counts by its presence).
  const policyFailed = ['securityPolicy0', 'securityPolicy1', 'securityPolicy2'].some((f) => failed(f) !== null);
  const policyAnswer = item.claim.kind === 'package' && link.verifiedBy !== null && !policyFailed ? graphqlSecurityPolicy(data) : undefined;
  const policyText =
    policyAnswer === undefined || (policyAnswer !== null && 'unread' in policyAnswer)
      ? undefined
      : policyAnswer === null
        ? null
        : { path: policyAnswer.path, text: policyAnswer.text.slice(0, SECURITY_POLICY_TEXT_CHARS), truncated: policyAnswer.text.length > SECURITY_POLICY_TEXT_CHARS };
  const privateReporting = policyText === undefined ? undefined : await privateReportingFor(call, repoBase(call.api, repository.fullName), policyText?.text ?? null);
  const facts = presentFacts(
    {
      repository,
      activity: sectionOr(['defaultBranchRef'], () => graphqlActivity(data, call.now)),
      releases: sectionOr(['releases'], () => graphqlReleases(data, call.now)),
      contributors: sectionOr(['defaultBranchRef'], () => graphqlContributors(data)),
      responsiveness: sectionOr(['recentIssues', 'recentPulls'], () => graphqlResponsiveness(data, call.now)),
      community: communityOf(profile, security),
      ci: ciOf(listings, listingProblem),
      link,
    },
    call,
    'graphql',
  );
  const result = validated({
    ...facts,
    ...(workflowSafety === undefined ? {} : { workflowSafety }),
    ...(policyText === undefined ? {} : { securityPolicyText: policyText }),
    ...(privateReporting === undefined ? {} : { privateReporting }),
  });
  // A policy the query could not give, or whose private reporting GitHub could not vouch for, is this run's alone.
  const policyIncomplete = item.claim.kind === 'package' && link.verifiedBy !== null && (policyFailed || privateReporting?.enabled === null);
  if ((workflowsFailed || policyIncomplete) && result.status === 'ok') incompleteFacts.add(result.facts);
  return result;
}

/**
 * Something the GitHub source threw, as a result: a rate-limit stop is `rate-limited` with its
 * reason; anything else has `fallback` as its reason and the code of its kind (http/thrown-code.ts),
 * `unclassified` only for an unexpected error.
 */
export function thrownGithubResult(error: unknown, fallback: string): GithubResult {
  if (error instanceof GithubStop) return { status: 'unavailable', reason: error.reason, code: 'rate-limited' };
  return { status: 'unavailable', reason: fallback, code: thrownFailureCode(error) };
}

/** Turn anything a collector throws into a result (a rate-limit stop carries its reason). */
async function guarded(work: () => Promise<GithubResult>): Promise<GithubResult> {
  try {
    return await work();
  } catch (error) {
    return thrownGithubResult(error, 'GitHub source: unexpected error while reading the answers');
  }
}

async function viaRest(prepared: Prepared, results: Map<string, GithubResult>): Promise<void> {
  results.set(prepared.key, await guarded(() => collectViaRest(prepared.call, prepared.item.repo, prepared.item.claim)));
}

/** Lookups of the same repository (several packages of a monorepo): one alias in a query. */
type RepoGroup = readonly Prepared[];

/** The repository a lookup asks about, case-insensitively (its claim aside). */
function repoKey(p: Prepared): string {
  const { repo } = p.item;
  return `${p.call.graphql}\n${repo.owner}/${repo.name}`.toLowerCase();
}

/** Group lookups by repository, keeping the order in which each repository was first asked. */
function groupByRepository(prepared: readonly Prepared[]): RepoGroup[] {
  const groups = new Map<string, Prepared[]>();
  for (const p of prepared) {
    const key = repoKey(p);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [p]);
    else group.push(p);
  }
  return [...groups.values()];
}

/**
 * One GraphQL query for `groups` (one alias per repository, reading the manifests every claim
 * on it needs); halves it when GitHub cannot finish it; repositories GraphQL cannot answer for
 * go the REST way.
 */
async function runGraphqlBatch(groups: readonly RepoGroup[], results: Map<string, GithubResult>, concurrency: number): Promise<void> {
  const first = groups[0]?.[0];
  if (first === undefined) return;
  const all = groups.flat();
  const gqlItems = groups.map((group, i) => {
    const files = [...new Set(group.flatMap((p) => p.gql.files))];
    // The workflow texts only where a package claims the repository (its workflows are judged from them).
    const workflows = group.some((p) => p.item.claim.kind === 'package');
    return { ...first.gql, owner: group[0]?.gql.owner ?? '', name: group[0]?.gql.name ?? '', files, workflows, alias: `r${i}` };
  });
  const { query, variables } = buildRepositoriesQuery(gqlItems, first.call.now);
  const shared: GithubCall = { ...first.call, counter: { requests: 0 } };
  let answer: Awaited<ReturnType<typeof postGraphql>>;
  try {
    answer = await postGraphql(shared, query, variables);
  } catch (error) {
    const result = thrownGithubResult(error, 'GitHub GraphQL: unexpected error');
    for (const p of all) results.set(p.key, result);
    return;
  } finally {
    for (const p of all) p.call.counter.requests += shared.counter.requests;
  }
  if (answer.kind === 'too-big') {
    if (groups.length > 1) {
      const half = Math.ceil(groups.length / 2);
      await runGraphqlBatch(groups.slice(0, half), results, concurrency);
      await runGraphqlBatch(groups.slice(half), results, concurrency);
    } else {
      await mapLimit(all, concurrency, (p) => viaRest(p, results));
    }
    return;
  }
  if (answer.kind === 'failed') {
    if (answer.rest) await mapLimit(all, concurrency, (p) => viaRest(p, results));
    else for (const p of all) results.set(p.key, { status: 'unavailable', reason: answer.reason, code: answer.code });
    return;
  }
  const { data, errors } = answer;
  const jobs = groups.flatMap((group, i) => group.map((p) => ({ p: { ...p, gql: gqlItems[i] ?? p.gql }, alias: `r${i}` })));
  await mapLimit(jobs, concurrency, async ({ p, alias }) => {
    const node = data[alias];
    if (node === null || node === undefined) {
      // Not found, blocked, forbidden…: REST tells missing (404) from blocked (451).
      await viaRest(p, results);
      return;
    }
    const outcome = await guarded(async () => {
      const done = await completeFromGraphql(p, node, fieldErrors(errors, alias));
      return done === 'rest' ? collectViaRest(p.call, p.item.repo, p.item.claim) : done;
    });
    results.set(p.key, outcome);
  });
}

// ---------------------------------------------------------------------------------------------
// Entry points

/**
 * Facts for several repositories: with a token, several per GraphQL query (aliases), the batch
 * halved when GitHub answers with a timeout or a node-limit error; without one, REST for each.
 * The answer is keyed by `githubItemKey(item)`.
 */
export async function fetchGithubFactsBatch(
  ctx: GithubSourceContext,
  items: readonly GithubBatchItem[],
  options: GithubBatchOptions = {},
): Promise<Map<string, GithubResult>> {
  const results = new Map<string, GithubResult>();
  const api = githubApiKind(ctx);
  const { limiter } = ctx;
  const prepared: Prepared[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const key = githubItemKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    const cached = cachedGithubFacts(ctx.facts, item, api);
    if (cached !== undefined) {
      results.set(key, { status: 'ok', facts: cached });
      continue;
    }
    const { repo } = item;
    if (!validGithubNames(repo.owner, repo.name)) {
      results.set(key, { status: 'unavailable', reason: 'not a valid GitHub owner/repository name', code: 'not-asked' });
      continue;
    }
    const apis = githubApiFor(ctx.endpoints, repo.host);
    if (apis === undefined) {
      results.set(key, { status: 'unavailable', reason: `no GitHub API is configured for ${repo.host}`, code: 'not-asked' });
      continue;
    }
    prepared.push({
      key,
      item,
      call: { http: ctx.http, limiter, api: apis.api, graphql: apis.graphql, tokenInUse: ctx.token !== null, now: ctx.now, counter: { requests: 0 } },
      gql: { alias: '', owner: repo.owner, name: repo.name, files: manifestPaths(item.claim) },
    });
  }
  const concurrency = options.concurrency ?? 4;
  if (ctx.token === null) {
    await mapLimit(prepared, concurrency, (p) => viaRest(p, results));
  } else {
    const size = Math.max(1, options.batchSize ?? GRAPHQL_BATCH_SIZE);
    // One batch per GraphQL endpoint (github.com and an Enterprise host are asked separately),
    // `size` repositories each: the lookups of one repository share its alias.
    const byEndpoint = new Map<string, Prepared[]>();
    for (const p of prepared) byEndpoint.set(p.call.graphql, [...(byEndpoint.get(p.call.graphql) ?? []), p]);
    for (const list of byEndpoint.values()) {
      const groups = groupByRepository(list);
      for (let i = 0; i < groups.length; i += size) await runGraphqlBatch(groups.slice(i, i + size), results, concurrency);
    }
  }
  for (const p of prepared) {
    const result = results.get(p.key);
    if (result?.status === 'ok' && !incompleteFacts.has(result.facts)) rememberGithubFacts(ctx.facts, p.item, api, result.facts);
  }
  return results;
}

/** Which API a lookup uses (and so which facts-cache entries it reads): GraphQL with a token. */
export function githubApiKind(ctx: Pick<GithubSourceContext, 'token'>): 'rest' | 'graphql' {
  return ctx.token === null ? 'rest' : 'graphql';
}

/** The cached result of a lookup, when the facts cache holds fresh facts for it (no request). */
export function cachedGithubResult(ctx: GithubSourceContext, item: GithubBatchItem): GithubResult | undefined {
  const facts = cachedGithubFacts(ctx.facts, item, githubApiKind(ctx));
  return facts === undefined ? undefined : { status: 'ok', facts };
}

export async function fetchGithubFacts(ctx: GithubSourceContext, repo: GithubRepoRef, claim: GithubClaim): Promise<GithubResult> {
  const item = { repo, claim };
  const results = await fetchGithubFactsBatch(ctx, [item]);
  return results.get(githubItemKey(item)) ?? { status: 'unavailable', reason: 'GitHub source: no answer', code: 'bad-answer' };
}

/**
 * A repository's own files at its default branch, or at the commit a target's ref names
 * (github/ref-commit.ts) (github/repo-files.ts): the one way nerq reads
 * them, for a repository target (ecosystems/github/collect.ts) and for any repository whose files
 * a caller needs. REST, with the token when there is one (it raises the rate limit), and with a
 * token one GraphQL query that dates the version tags (tag-dates.ts); a rate limit or any failure
 * is the section's reason, never an exception.
 */
/** A call on one repository's host with its own request counter; a reason when no API is configured or the name is invalid. */
function repositoryCall(ctx: GithubSourceContext, repo: GithubRepoRef): GithubCall | string {
  const apis = githubApiFor(ctx.endpoints, repo.host);
  if (apis === undefined) return `no GitHub API is configured for ${repo.host}`;
  if (!validGithubNames(repo.owner, repo.name)) return 'not a valid GitHub owner/repository name';
  return {
    http: ctx.http,
    limiter: ctx.limiter,
    api: apis.api,
    graphql: apis.graphql,
    tokenInUse: ctx.token !== null,
    now: ctx.now,
    counter: { requests: 0 },
  };
}

/**
 * A repository's files, and the dependency set its manifests and lockfiles give (repo-dependencies.ts).
 * `missingRef`: the ref the target names is not the repository's (ref-commit.ts) — nothing was read.
 * `missingFolder`: the folder asked for is not in the repository's listing — nothing was read.
 */
export type RepositoryFilesResult =
  | { ok: true; value: GithubFiles; dependencies: Sources['dependencies']; read: RepositoryAlreadyRead; requests: number }
  | { ok: false; reason: string; requests: number; missingRef?: true; missingFolder?: true };

export async function fetchRepositoryFiles(
  ctx: GithubSourceContext,
  repo: GithubRepoRef,
  branch: string,
  /**
   * The ref a target names (`github:owner/repo@ref`): resolved to its commit once, and every file
   * read at that commit — never at the default branch in its place (ref-commit.ts).
   */
  ref?: string,
  /** A folder the package's own files are read in (repo-folder.ts `normaliseFolder`); absent, the root. */
  folder?: string,
): Promise<RepositoryFilesResult> {
  const call = repositoryCall(ctx, repo);
  if (typeof call === 'string') return { ok: false, reason: call, requests: 0 };
  try {
    const base = repoBase(call.api, `${repo.owner}/${repo.name}`);
    let commit: string | undefined;
    if (ref !== undefined) {
      const resolved = await resolveRefCommit(call, base, ref);
      if (resolved.kind === 'missing') return { ok: false, reason: resolved.reason, requests: call.counter.requests, missingRef: true };
      if (resolved.kind === 'error') return { ok: false, reason: resolved.reason, requests: call.counter.requests };
      commit = resolved.sha;
    }
    // Raw file hosting is github.com's alone: a GitHub Enterprise host is read through its API.
    const onGithubCom = repo.host.toLowerCase() === GITHUB_HOST || repo.host.toLowerCase() === `www.${GITHUB_HOST}`;
    const files = await restRepoFiles(call, repo, base, ref ?? branch, onGithubCom ? ctx.endpoints.githubRaw : undefined, commit, folder);
    if (!files.ok) return { ...files, requests: call.counter.requests };
    return {
      ok: true,
      value: files.value,
      // Loaded here: the lockfile readers (and their YAML/TOML parsers) only for a repository target.
      dependencies: (await import('./repo-dependencies.js')).repositoryDependencies(files.value, files.texts, {
        npm: [ctx.endpoints.npmPublicRegistry, ...(ctx.endpoints.yarnPublicRegistry === undefined ? [] : [ctx.endpoints.yarnPublicRegistry])],
        pypi: [ctx.endpoints.pypi],
      }),
      read: { tree: files.tree, truncated: files.value.treeTruncated, texts: files.texts },
      requests: call.counter.requests,
    };
  } catch (error) {
    const reason = error instanceof GithubStop ? error.reason : 'GitHub source: unexpected error while reading the repository files';
    return { ok: false, reason, requests: call.counter.requests };
  }
}

/**
 * A fork target's own commits, told from its parent's (fork-commits.ts): one request when the
 * repository is a fork whose parent and its branch GitHub named, none otherwise. Any failure, a
 * rate limit included, is the reason (the fork's facts then stay the copied ones, unknown).
 */
export async function fetchForkCommits(ctx: GithubSourceContext, repository: GithubRepository): Promise<{ result: ForkCommitsResult; requests: number }> {
  const [owner = '', name = ''] = repository.fullName.split('/');
  const call = repositoryCall(ctx, { host: repository.host, owner, name });
  if (typeof call === 'string') return { result: { ok: false, reason: call }, requests: 0 };
  try {
    return { result: await forkOwnCommits(call, repository), requests: call.counter.requests };
  } catch (error) {
    const reason = error instanceof GithubStop ? error.reason : 'GitHub source: unexpected error while comparing the fork with its parent';
    return { result: { ok: false, reason }, requests: call.counter.requests };
  }
}

/**
 * Whether a repository vouches for the packages that link to it — the same verification a
 * package's repository gets (link.ts `verifyLink`), over the REST contents API: one root listing
 * (so only files that exist are read), then each claim's manifests. Given what reading the
 * repository's files already gave (`known`: its tree and texts), folders are listed from the tree
 * and manifests already read are not asked again (tree-file-source.ts). `names` are the
 * spellings of the repository that count (as asked, as the API spells it).
 */
export async function verifyPackageClaims(
  ctx: GithubSourceContext,
  /** `commit`: a pinned target's (ref-commit.ts), whose files are read at it; absent, the default branch. */
  repo: GithubRepoRef & { fullName: string; names: readonly string[]; branch: string; commit?: string },
  claims: readonly GithubClaim[],
  known?: RepositoryAlreadyRead,
): Promise<{ links: GithubLink[]; requests: number }> {
  const call = repositoryCall(ctx, repo);
  if (typeof call === 'string') return { links: claims.map(() => ({ verifiedBy: null, reason: call })), requests: 0 };
  try {
    const base = repoBase(call.api, repo.fullName);
    let rest: RepoFileSource;
    if (known !== undefined && !known.truncated) {
      rest = alreadyReadFileSource(known, restFileSource(call, base, null, repo.commit));
    } else {
      const root = (await restFileSource(call, base, null, repo.commit).list([''])).get('');
      rest = restFileSource(call, base, root?.kind === 'dir' ? root.entries : null, repo.commit);
    }
    // Claims on one monorepo read the same workspace manifests: each file is asked once.
    const reads = new Map<string, Promise<FileRead>>();
    const files = {
      ...rest,
      async read(paths: readonly string[]) {
        const fresh = paths.filter((p) => !reads.has(p));
        const batch = fresh.length === 0 ? null : rest.read(fresh);
        for (const p of fresh) reads.set(p, batch!.then((m) => m.get(p) ?? { kind: 'error', reason: 'not read' }));
        return new Map(await Promise.all(paths.map(async (p) => [p, await reads.get(p)!] as const)));
      },
    };
    const links = await Promise.all(
      claims.map((claim) => verifyLink({ claim, host: repo.host, fullName: repo.fullName, names: repo.names, branch: repo.branch, files })),
    );
    return { links, requests: call.counter.requests };
  } catch (error) {
    const reason = error instanceof GithubStop ? error.reason : 'GitHub source: unexpected error while verifying the link';
    return { links: claims.map(() => ({ verifiedBy: null, reason })), requests: call.counter.requests };
  }
}

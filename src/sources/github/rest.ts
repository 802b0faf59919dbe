/**
 * Repository facts from GitHub's REST API — the path without a token, and the fallback when
 * GraphQL cannot answer for a repository. The fewest requests that give the facts:
 *
 *  1. `GET /repos/{o}/{r}` — the repository (a 301 rename is followed by the HTTP client);
 *  2. `GET …/commits?sha=<branch>&per_page=100` — the branch's newest 100 commits: contributors
 *     (their authors, as GraphQL counts them) and activity (the year's commits among them; only
 *     when all 100 are from the last year, a second page and `per_page=1` counts since 365 and
 *     90 days, read from the `Link` header);
 *  3. `GET …/releases?per_page=50`;
 *  4. `GET …/issues?state=all&since=<180 d>&sort=created&direction=desc&per_page=100` (PRs included);
 *  5. `GET …/community/profile`;
 *  6. `GET …/contents` — the root listing;
 *  7. `GET …/git/trees/<.github sha>?recursive=1` — workflows, dependabot, renovate, SECURITY.md
 *     (only when `.github/` exists; `docs/` is listed only when no policy was found before it);
 *  8. the manifest(s) for the link check (`…/contents/<path>`, raw), only for package claims.
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
import { entryType, needsDocs, type RepoListings, type TreeEntry } from './files.js';
import type { DirRead, FileRead, RepoFileSource } from './link.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';
import {
  ACCEPT_RAW,
  failureReason,
  githubRequest,
  jsonBody,
  lastPageOf,
  oneLine,
  type GithubAnswer,
  type GithubCall,
  type Section,
} from './request.js';
import { summariseResponsiveness, type ThreadInfo } from './responsiveness.js';
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
  type CommitAuthor,
  type CommitInfo,
  type ReleaseInfo,
} from './summaries.js';
import { joinUrl, withQuery } from '../http/url.js';

const MiB = 1024 * 1024;
/** Response caps, sized for real answers (a page of 100 commits is ~0.5 MB; release notes can be long). */
const MAX_REPO_BYTES = 2 * MiB;
const MAX_LIST_BYTES = 16 * MiB;
const MAX_FILE_BYTES = 1 * MiB;

/** Commit pages listed for the year's authors before switching to count requests. */
export const MAX_COMMIT_PAGES = 2;
export const RELEASES_PER_PAGE = 50;
const PAGE = 100;

// ---------------------------------------------------------------------------------------------
// Answer shapes (only the fields used; GitHub sends many more).

const Actor = z.object({ login: z.string(), type: z.string().optional() });
const GitPerson = z.object({ name: z.string().nullish(), email: z.string().nullish(), date: z.string().nullish() });

export const RestRepoSchema = z.object({
  id: z.number().int(),
  // The canonical name goes into further request URLs, store keys and reports (names.ts).
  full_name: z.string().refine(validGithubFullName),
  html_url: z.string(),
  archived: z.boolean(),
  // Absent only in old GitHub Enterprise answers, which predate disabling repositories.
  disabled: z.boolean().optional(),
  fork: z.boolean(),
  // Present when the repository is a fork: the repository it was forked from.
  parent: z.object({ full_name: z.string(), default_branch: z.string().nullish() }).nullish(),
  created_at: z.string().nullish(),
  pushed_at: z.string().nullish(),
  default_branch: z.string().min(1),
  // Counts are never below zero: a negative one is invalid data (the answer unavailable), never
  // saved as evidence nerq score would refuse (docs/security.md).
  stargazers_count: z.number().int().nonnegative(),
  forks_count: z.number().int().nonnegative(),
  subscribers_count: z.number().int().nonnegative().optional(),
  open_issues_count: z.number().int().nonnegative(),
  license: z.object({ spdx_id: z.string().nullish() }).nullish(),
  topics: z.array(z.string()).optional(),
  homepage: z.string().nullish(),
  has_issues: z.boolean(),
  description: z.string().nullish(),
});

const CommitsSchema = z.array(
  z.object({
    commit: z.object({ author: GitPerson.nullish(), committer: GitPerson.nullish() }),
    author: Actor.nullish(),
  }),
);

const ReleasesSchema = z.array(
  z.object({
    tag_name: z.string(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    published_at: z.string().nullish(),
    assets: z.array(z.object({ name: z.string() })).nullish(),
    body: z.string().nullish(),
  }),
);

const IssuesSchema = z.array(
  z.object({
    created_at: z.string(),
    closed_at: z.string().nullish(),
    comments: z.number().int().nonnegative(),
    user: Actor.nullish(),
    pull_request: z.object({ merged_at: z.string().nullish() }).optional(),
  }),
);

const present = z.unknown().nullish();
const CommunitySchema = z.object({
  health_percentage: z.number().nullish(),
  files: z.object({
    readme: present,
    contributing: present,
    code_of_conduct: present,
    code_of_conduct_file: present,
    issue_template: present,
    pull_request_template: present,
  }),
});

const ContentsListSchema = z.array(z.object({ name: z.string(), type: z.string(), sha: z.string().optional() }));
const TreeSchema = z.object({ tree: z.array(z.object({ path: z.string(), type: z.string() })), truncated: z.boolean().optional() });

// ---------------------------------------------------------------------------------------------

type Fetched<T> =
  | { ok: true; value: T; headers: Record<string, string>; status: number; url: string }
  | { ok: false; reason: string; code: SourceUnavailableCode; status: number | null; answer: Extract<GithubAnswer, { ok: false }> | null };

/** The first zod issue as `field: message`. */
export function shapeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unexpected shape';
  const where = issue.path.length === 0 ? 'the answer' : issue.path.join('.');
  return `unexpected shape at ${where}`;
}

/** GET a JSON answer and validate it; 204 (empty) parses as `empty` when given. */
export async function getJson<T>(
  call: GithubCall,
  url: string,
  schema: z.ZodType<T>,
  what: string,
  options: { maxBytes?: number; empty?: T } = {},
): Promise<Fetched<T>> {
  const answer = await githubRequest(call, { url, maxBytes: options.maxBytes ?? MAX_LIST_BYTES });
  if (!answer.ok) return { ok: false, reason: `${what}: ${failureReason(answer)}`, code: answer.code, status: answer.status, answer };
  if (answer.status === 202) {
    return { ok: false, reason: `${what}: GitHub is computing statistics, try again in a minute`, code: 'http-status', status: 202, answer: null };
  }
  if (answer.status === 204 || answer.body.length === 0) {
    if (options.empty !== undefined) return { ok: true, value: options.empty, headers: answer.headers, status: answer.status, url: answer.url };
    return { ok: false, reason: `${what}: GitHub answered with an empty body`, code: 'bad-answer', status: answer.status, answer: null };
  }
  const json = jsonBody(answer.body);
  if (json === undefined) return { ok: false, reason: `${what}: GitHub's answer is not valid JSON`, code: 'bad-answer', status: answer.status, answer: null };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: `${what}: GitHub's answer has an ${shapeProblem(parsed.error)}`, code: 'bad-answer', status: answer.status, answer: null };
  }
  return { ok: true, value: parsed.data, headers: answer.headers, status: answer.status, url: answer.url };
}

/** `…/repos/{owner}/{name}` for further requests. */
export function repoBase(api: string, fullName: string): string {
  const [owner = '', name = ''] = fullName.split('/');
  return joinUrl(api, 'repos', owner, name);
}

// ---------------------------------------------------------------------------------------------
// The repository

export type RepoLookup =
  | { kind: 'present'; repository: GithubRepository }
  | { kind: 'missing' }
  | { kind: 'blocked'; reason: string }
  | { kind: 'failed'; reason: string; code: SourceUnavailableCode };

/** Why GitHub blocks a repository (451): its message and `block.reason`, one line. */
export function blockReason(json: unknown, message: string | null): string {
  const block = typeof json === 'object' && json !== null ? (json as { block?: { reason?: unknown } }).block : undefined;
  const why = typeof block?.reason === 'string' ? oneLine(block.reason, 60) : null;
  const text = message ?? 'Repository access blocked';
  return why === null ? text : `${text} (${why})`;
}

export function toRepository(
  host: string,
  asked: string,
  repo: z.infer<typeof RestRepoSchema>,
): GithubRepository {
  return {
    host,
    fullName: repo.full_name,
    id: String(repo.id),
    renamedFrom: repo.full_name.toLowerCase() === asked.toLowerCase() ? null : asked,
    htmlUrl: repo.html_url,
    archived: repo.archived,
    disabled: repo.disabled ?? false,
    fork: repo.fork,
    parent: forkParent(repo.fork, repo.parent?.full_name),
    parentBranch: forkParentBranch(repo.fork, repo.parent?.full_name, repo.parent?.default_branch),
    createdAt: repo.created_at ?? null,
    pushedAt: repo.pushed_at ?? null,
    defaultBranch: repo.default_branch,
    stars: repo.stargazers_count,
    forks: repo.forks_count,
    watchers: repo.subscribers_count ?? null,
    openIssues: repo.open_issues_count,
    license: repo.license?.spdx_id ?? null,
    topics: repo.topics ?? [],
    homepage: repo.homepage === undefined || repo.homepage === null || repo.homepage.trim() === '' ? null : repo.homepage,
    hasIssues: repo.has_issues,
    description: repo.description === undefined || repo.description === null || repo.description.trim() === '' ? null : oneLine(repo.description, 300),
    // Older GitHub Enterprise answers lack these keys: unknown, not "none".
    topicsKnown: repo.topics !== undefined,
    licenseKnown: repo.license !== undefined,
  };
}

export async function restRepository(call: GithubCall, host: string, owner: string, name: string): Promise<RepoLookup> {
  const got = await getJson(call, joinUrl(call.api, 'repos', owner, name), RestRepoSchema, 'GitHub repository', {
    maxBytes: MAX_REPO_BYTES,
  });
  if (got.ok) return { kind: 'present', repository: toRepository(host, `${owner}/${name}`, got.value) };
  if (got.status === 404) return { kind: 'missing' };
  if (got.status === 451 && got.answer !== null) return { kind: 'blocked', reason: blockReason(got.answer.json, got.answer.message) };
  return { kind: 'failed', reason: got.reason, code: got.code };
}

// ---------------------------------------------------------------------------------------------
// Commits: activity and contributors

type CommitItem = z.infer<typeof CommitsSchema>[number];

function commitInfo(item: CommitItem): CommitInfo | null {
  const person = item.commit.author;
  const at = item.commit.committer?.date ?? person?.date ?? null;
  if (at === null) return null;
  return {
    author: commitIdentity(item.author?.login, person?.email, person?.name),
    bot: isBotCommit(item.author?.login, item.author?.type, person?.email, person?.name),
    at,
  };
}

/** The commit's author as GitHub links it: `author` is the account (null when none), `commit.author` the git author. */
function authorOf(item: CommitItem): CommitAuthor {
  return commitAuthor(item.author?.login, item.author?.type, item.commit.author?.email, item.commit.author?.name);
}

const EMPTY_ACTIVITY: GithubActivity = {
  commits90d: 0,
  commits365d: 0,
  authors90d: 0,
  authors365d: 0,
  botCommits90d: 0,
  botCommits365d: 0,
  lastCommitAt: null,
  truncated: false,
};

export interface RestCommits {
  activity: Section<GithubActivity>;
  contributors: Section<GithubContributors>;
}

/**
 * Activity and contributors from the branch's commits, newest first. The first page (100, no
 * `since`) is GraphQL's `recent` window: its authors are the contributors. It holds the whole
 * year too unless all of it is from the last 365 days (more pages follow); only then is a
 * second page read for authors, and the counts since 365 and 90 days come from `per_page=1`
 * listings' `Link` headers. When the first page fails, both sections are unknown with the reason.
 */
export async function restCommits(call: GithubCall, base: string, branch: string): Promise<RestCommits> {
  const since365 = daysBefore(call.now, 365);
  const since90 = daysBefore(call.now, 90);
  const commitsUrl = (query: Record<string, string | number>) => withQuery(joinUrl(base, 'commits'), { sha: branch, ...query });
  const yearStart = Date.parse(since365);
  const reachesPastYear = (commits: readonly CommitInfo[]) => commits.some((c) => Date.parse(c.at) < yearStart);
  const morePages = (headers: Record<string, string>, page: number) => {
    const last = lastPageOf(headers.link);
    return last !== null && last > page;
  };

  const first = await getJson(call, commitsUrl({ per_page: RECENT_COMMITS }), CommitsSchema, 'commits', { empty: [] });
  if (!first.ok) {
    // 409 "Git Repository is empty": no commits, nobody.
    if (first.status === 409) return { activity: { ok: true, value: EMPTY_ACTIVITY }, contributors: { ok: true, value: summariseRecentContributors([]) } };
    return { activity: { ok: false, reason: first.reason }, contributors: { ok: false, reason: first.reason } };
  }
  const contributors: Section<GithubContributors> = { ok: true, value: summariseRecentContributors(first.value.map(authorOf)) };

  const sample = first.value.map(commitInfo).filter((c): c is CommitInfo => c !== null);
  let complete = reachesPastYear(sample) || !morePages(first.headers, 1);
  for (let page = 2; !complete && page <= MAX_COMMIT_PAGES; page++) {
    const next = await getJson(call, commitsUrl({ per_page: RECENT_COMMITS, page }), CommitsSchema, 'commits', { empty: [] });
    if (!next.ok) break;
    const listed = next.value.map(commitInfo).filter((c): c is CommitInfo => c !== null);
    sample.push(...listed);
    complete = reachesPastYear(listed) || !morePages(next.headers, page);
  }

  /** The number of commits since `since`, from the last page number of a `per_page=1` listing. */
  const countSince = async (since: string): Promise<number | null> => {
    const got = await getJson(call, commitsUrl({ since, per_page: 1 }), CommitsSchema, 'commits', { empty: [] });
    if (!got.ok) return null;
    return lastPageOf(got.headers.link) ?? got.value.length;
  };

  // Without a count, the commits listed are a lower bound (`truncated`).
  let count365: number | null = null;
  let count90: number | null = null;
  if (!complete) {
    count365 = await countSince(since365);
    const oldest = sample[sample.length - 1]?.at;
    const coversQuarter = oldest !== undefined && Date.parse(oldest) < Date.parse(since90);
    if (!coversQuarter) count90 = await countSince(since90);
  }
  const activity = summariseActivity({ now: call.now, sample, complete, count365, count90, lastCommitAt: sample[0]?.at ?? null });
  return { activity: { ok: true, value: activity }, contributors };
}

// ---------------------------------------------------------------------------------------------
// Releases, responsiveness, community

export async function restReleases(call: GithubCall, base: string): Promise<Section<GithubReleases>> {
  const got = await getJson(call, withQuery(joinUrl(base, 'releases'), { per_page: RELEASES_PER_PAGE }), ReleasesSchema, 'releases', {
    empty: [],
  });
  if (!got.ok) return { ok: false, reason: got.reason };
  const releases: ReleaseInfo[] = got.value.map((r) => ({
    tag: r.tag_name,
    draft: r.draft,
    prerelease: r.prerelease,
    publishedAt: r.published_at ?? null,
    assetNames: (r.assets ?? []).map((a) => a.name),
    assetCount: (r.assets ?? []).length,
    notes: r.body ?? null,
  }));
  // Fewer than a page and no further page: the listing holds every release.
  return { ok: true, value: summariseReleases(releases, call.now, got.value.length < RELEASES_PER_PAGE && lastPageOf(got.headers.link) === null) };
}

export async function restResponsiveness(call: GithubCall, base: string): Promise<Section<GithubResponsiveness>> {
  const url = withQuery(joinUrl(base, 'issues'), {
    state: 'all',
    since: daysBefore(call.now, 180),
    sort: 'created',
    direction: 'desc',
    per_page: PAGE,
  });
  const got = await getJson(call, url, IssuesSchema, 'issues', { empty: [] });
  if (!got.ok) return { ok: false, reason: got.reason };
  const threads: ThreadInfo[] = got.value.map((item) => {
    const closedAt = item.closed_at ?? null;
    return {
      kind: item.pull_request === undefined ? 'issue' : 'pull',
      createdAt: item.created_at,
      closedAt,
      mergedAt: item.pull_request?.merged_at ?? null,
      authorBot: isBot(item.user?.login, item.user?.type),
      responded: item.comments > 0 || closedAt !== null,
      respondedAt: closedAt,
    };
  });
  return { ok: true, value: summariseResponsiveness(threads, call.now, 'comments-or-close') };
}

/** The community profile's files (the SECURITY policy is not among them: it is filled in from the listings). */
export async function restCommunity(call: GithubCall, base: string): Promise<Section<Omit<GithubCommunity, 'securityPolicy'>>> {
  const got = await getJson(call, joinUrl(base, 'community', 'profile'), CommunitySchema, 'community profile', {
    maxBytes: MAX_REPO_BYTES,
  });
  if (!got.ok) return { ok: false, reason: got.reason };
  const f = got.value.files;
  const has = (value: unknown): boolean => value !== null && value !== undefined;
  return {
    ok: true,
    value: {
      readme: has(f.readme),
      contributing: has(f.contributing),
      codeOfConduct: has(f.code_of_conduct) || has(f.code_of_conduct_file),
      issueTemplate: has(f.issue_template),
      pullRequestTemplate: has(f.pull_request_template),
      // A percentage outside 0–100 is no figure GitHub gives: unknown, not kept (evidence/github-facts.ts).
      healthPercentage: percentageOrNull(got.value.health_percentage),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Listings and files

export interface RestListings extends RepoListings {
  /** Why a listing is unknown, when one is. */
  problem: string | null;
}

function treeEntries(tree: z.infer<typeof TreeSchema>): TreeEntry[] {
  return tree.tree.map((e) => ({ path: e.path, type: entryType(e.type) }));
}

/** Root listing, `.github/` (recursive, one request), and `docs/` only when still needed. */
export async function restListings(call: GithubCall, base: string): Promise<RestListings> {
  const root = await getJson(call, joinUrl(base, 'contents'), ContentsListSchema, 'root listing', { empty: [] });
  if (!root.ok) {
    // 404 "This repository is empty": nothing at the root.
    if (root.status === 404) return { root: [], github: [], problem: null };
    return { root: null, github: null, problem: root.reason };
  }
  const rootEntries: TreeEntry[] = root.value.map((e) => ({ path: e.name, type: entryType(e.type) }));
  const shaOf = (name: string) => root.value.find((e) => entryType(e.type) === 'dir' && e.name.toLowerCase() === name)?.sha;
  const tree = async (sha: string | undefined, recursive: boolean, what: string): Promise<{ entries: TreeEntry[] | null; problem: string | null }> => {
    if (sha === undefined) return { entries: [], problem: null };
    // A git object id is hex; anything else (an empty or dot-only sha) names no tree we can ask for.
    if (!/^[0-9a-f]{4,64}$/i.test(sha)) return { entries: null, problem: `GitHub: the root listing gives the ${what.split(' ')[0]} folder an invalid tree id` };
    const got = await getJson(call, withQuery(joinUrl(base, 'git', 'trees', sha), { recursive: recursive ? 1 : undefined }), TreeSchema, what);
    return got.ok ? { entries: treeEntries(got.value), problem: null } : { entries: null, problem: got.reason };
  };
  const github = await tree(shaOf('.github'), true, '.github listing');
  const listings: RestListings = { root: rootEntries, github: github.entries, problem: github.problem };
  if (needsDocs(listings)) {
    const docs = await tree(shaOf('docs'), false, 'docs listing');
    listings.docs = docs.entries;
    listings.problem ??= docs.problem;
  }
  return listings;
}

/** Files through the contents API (raw), directories through its listings. */
export function restFileSource(
  call: GithubCall,
  base: string,
  rootEntries: readonly TreeEntry[] | null,
  /** The commit to read at (a pinned target's: ref-commit.ts); absent, the default branch. */
  ref?: string,
): RepoFileSource {
  const at = (url: string) => (ref === undefined ? url : withQuery(url, { ref }));
  const contentsUrl = (path: string) => at(joinUrl(base, 'contents', ...path.split('/').filter((s) => s !== '')));
  return {
    rootEntries,
    async read(paths) {
      const out = new Map<string, FileRead>();
      await Promise.all(
        paths.map(async (path) => {
          const answer = await githubRequest(call, { url: contentsUrl(path), accept: ACCEPT_RAW, maxBytes: MAX_FILE_BYTES });
          if (answer.ok) out.set(path, { kind: 'file', text: answer.body.toString('utf8') });
          else if (answer.status === 404) out.set(path, { kind: 'missing' });
          else out.set(path, { kind: 'error', reason: failureReason(answer), code: answer.code, ...(answer.oversize === true ? { oversize: true as const } : {}) });
        }),
      );
      return out;
    },
    async list(dirs) {
      const out = new Map<string, DirRead>();
      await Promise.all(
        dirs.map(async (dir) => {
          if (dir === '' && rootEntries !== null) {
            out.set(dir, { kind: 'dir', entries: rootEntries });
            return;
          }
          const got = await getJson(call, dir === '' ? at(joinUrl(base, 'contents')) : contentsUrl(dir), ContentsListSchema, `listing of ${dir || 'the root'}`);
          if (got.ok) out.set(dir, { kind: 'dir', entries: got.value.map((e) => ({ path: e.name, type: entryType(e.type) })) });
          else if (got.status === 404) out.set(dir, { kind: 'missing' });
          else out.set(dir, { kind: 'error', reason: got.reason });
        }),
      );
      return out;
    },
  };
}

/** A percentage (0–100), or null for none or one outside that range. */
function percentageOrNull(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && value >= 0 && value <= 100 ? value : null;
}

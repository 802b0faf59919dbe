/**
 * Facts about a source repository on GitHub (github.com or a GitHub Enterprise host).
 *
 * Conventions as everywhere in evidence: `null` = the API did not tell us (unknown; the
 * reason is in `unknown[section]`); `false` / `0` / `[]` = it told us and the thing is absent.
 * Bot accounts (`[bot]` logins, type `Bot`) are left out of every person count.
 */
import { z } from 'zod';
import { IncludedPackageSchema, LINK_GAP_CODES } from '../report/schema.js';
import { LicenseFileSchema, ReadmeFileSchema } from './readme-file.js';
import { SOURCE_UNAVAILABLE_CODES } from '../model/source-codes.js';

const iso = z.string();

export const GITHUB_SECTIONS = [
  'activity',
  'releases',
  'contributors',
  'responsiveness',
  'community',
  'ci',
  'link',
  'files',
] as const;
export type GithubSection = (typeof GITHUB_SECTIONS)[number];

export const GithubRepositorySchema = z.object({
  /** Host of the repository (github.com or the Enterprise host). */
  host: z.string(),
  /** `owner/name` as the API spells it (`full_name`). */
  fullName: z.string(),
  /**
   * GitHub's numeric repository id (REST `id`, GraphQL `databaseId`) as a string: it survives
   * renames and transfers and changes when a repository is deleted and created again. Null when
   * the answer lacked it (evidence saved before it was recorded: null).
   */
  id: z.string().nullable().default(null),
  /** The `owner/name` that was asked for when the API answered with a rename (301), else null. */
  renamedFrom: z.string().nullable(),
  htmlUrl: z.string(),
  archived: z.boolean(),
  disabled: z.boolean(),
  fork: z.boolean(),
  /**
   * For a fork: the `owner/name` it was forked from (REST `parent.full_name`, GraphQL
   * `parent.nameWithOwner`). Null when it is not a fork, or when GitHub did not name the parent
   * (one deleted or private) — and in evidence saved before it was recorded.
   */
  parent: z.string().nullable().default(null),
  /**
   * For a fork: its parent's default branch (REST `parent.default_branch`, GraphQL
   * `parent { defaultBranchRef { name } }`), which the fork's own commits are compared with
   * (github/fork-commits.ts). Null when it is no fork, GitHub did not name it, and in evidence
   * saved before it was recorded.
   */
  parentBranch: z.string().nullable().default(null),
  createdAt: iso.nullable(),
  pushedAt: iso.nullable(),
  defaultBranch: z.string(),
  stars: z.number().int().nonnegative(),
  forks: z.number().int().nonnegative(),
  /** `subscribers_count` (watchers); null when the answer did not carry it. */
  watchers: z.number().int().nonnegative().nullable(),
  /** Open issues + open pull requests, as GitHub counts them. */
  openIssues: z.number().int().nonnegative(),
  /** The licence GitHub detected (`license.spdx_id`); `NOASSERTION` kept as is; null = none detected. */
  license: z.string().nullable(),
  topics: z.array(z.string()),
  homepage: z.string().nullable(),
  hasIssues: z.boolean(),
  /** The repository's one-line description; null when it has none or the answer lacks the key (evidence saved before it was recorded: null). */
  description: z.string().nullable().default(null),
  /** False when the answer carried no `topics` key (older GitHub Enterprise): `topics` is then unknown, not empty. Absent in older evidence: true. */
  topicsKnown: z.boolean().default(true),
  /** False when the answer carried no `license` key: the detected licence is unknown, not "none". Absent in older evidence: true. */
  licenseKnown: z.boolean().default(true),
});
export type GithubRepository = z.infer<typeof GithubRepositorySchema>;

export const GithubActivitySchema = z.object({
  /** Commits on the default branch in the last 90 / 365 days (before `now` of collection). */
  commits90d: z.number().int().nonnegative(),
  commits365d: z.number().int().nonnegative(),
  /** Distinct non-bot commit authors in those windows; null when the API gave only counts. */
  authors90d: z.number().int().nonnegative().nullable(),
  authors365d: z.number().int().nonnegative().nullable(),
  /**
   * Bots' commits (dependency updates, automation: not maintenance) among the commits listed in
   * those windows; lower bounds when `truncated`. Absent in evidence saved before they were
   * recorded: none counted.
   */
  botCommits90d: z.number().int().nonnegative().optional(),
  botCommits365d: z.number().int().nonnegative().optional(),
  lastCommitAt: iso.nullable(),
  /** True when a count hit the request budget (the real number is at least this). */
  truncated: z.boolean(),
});
export type GithubActivity = z.infer<typeof GithubActivitySchema>;

export const GithubReleasesSchema = z.object({
  /** Non-draft, non-prerelease releases published in the last 12 months. */
  last12Months: z.number().int().nonnegative(),
  latest: z
    .object({
      tag: z.string(),
      publishedAt: iso.nullable(),
      /** Asset names that are signatures or provenance (`.sig`, `.asc`, `.sigstore`, `.intoto.jsonl`, …). */
      signatureAssets: z.array(z.string()),
      assets: z.number().int().nonnegative(),
      /** Whether it carries release notes (more than GitHub's bare "Full Changelog" link). Absent in evidence saved before it was recorded. */
      hasNotes: z.boolean().optional(),
    })
    .nullable(),
  /** Releases (of those looked at, newest first) whose assets carry signatures or provenance. */
  signedReleases: z.number().int().nonnegative(),
  /** How many releases were looked at for `signedReleases`. */
  examined: z.number().int().nonnegative(),
  /** Published (non-draft) releases listed, prereleases included; the listing is bounded (the newest 50). Absent in evidence saved before it was recorded. */
  listed: z.number().int().nonnegative().optional(),
  /** Of those listed, how many carry release notes (more than GitHub's bare "Full Changelog" link). Absent in evidence saved before it was recorded. */
  withNotes: z.number().int().nonnegative().optional(),
  /** True when the listing holds every release GitHub has (fewer than a page). */
  complete: z.boolean().optional(),
  /** Of those listed, published in the last RECENT_RELEASE_DAYS days (a lower bound when all listed are that recent and the listing is not complete). */
  recent: z.number().int().nonnegative().optional(),
  /** The oldest listed release's publication time: the first release when `complete`, else a time the first release is no later than; null when none is published. */
  oldestPublishedAt: iso.nullable().optional(),
  /** Of those listed, how many GitHub dated more than a day in the future: read as undated (never recent, never the first; the latest one's `publishedAt` null). Absent when none. */
  futureDated: z.number().int().positive().optional(),
});
export type GithubReleases = z.infer<typeof GithubReleasesSchema>;
/** The window of `GithubReleases.recent`, in days: release churn is judged over it (docs/scoring.md §9). */
export const RECENT_RELEASE_DAYS = 30;

/**
 * When a repository's history starts (github/repo-history.ts): the earliest date on the oldest
 * commits of the default branch, and how many commits it has. Commit dates are what the committer
 * set, unlike the repository's creation date, which GitHub sets. Unknown (`firstCommitAt` null)
 * with the reason when GitHub could not say (an empty repository, no `Link` header, a failure).
 */
export const GithubHistorySchema = z.object({
  firstCommitAt: iso.nullable(),
  commits: z.number().int().nonnegative().nullable(),
  reason: z.string().nullable(),
});
export type GithubHistory = z.infer<typeof GithubHistorySchema>;

/**
 * Dated version tags (github/tag-dates.ts): with a token, the repository's newest tags by date
 * through one GraphQL query — an annotated tag's tagger date, a lightweight tag's commit date,
 * both set by whoever tagged or committed, unlike GitHub's release dates. `tags` is null (with the
 * reason) when they could not be dated: no token (REST tag listings carry no dates), a failure, or
 * one listed version tag without a date GitHub gave and nerq could parse (a missing one may be the
 * newest). Absent when there is no version tag to date, and in evidence saved before tags were dated.
 */
export const GithubTagDatesSchema = z.object({
  /** Version tags among the newest tags listed (newest first), each with its date and where the date comes from. */
  tags: z.array(z.object({ name: z.string(), at: iso, source: z.enum(['tagger', 'commit']) })).nullable(),
  /** The listing holds every tag of the repository (GitHub's total is no more than it lists). */
  complete: z.boolean(),
  reason: z.string().nullable(),
});
export type GithubTagDates = z.infer<typeof GithubTagDatesSchema>;

export const GithubContributorsSchema = z.object({
  /**
   * Non-bot contributors: with `recent-commits`, the people with a GitHub account among the
   * authors of the examined commits; with `contributors`, the length (or last-page estimate)
   * of GitHub's contributors list.
   */
  count: z.number().int().nonnegative(),
  /**
   * Smallest number of those contributors who together made at least half of their commits
   * (the bus factor); 0 when there is nobody; null when contribution counts were not available.
   */
  busFactor: z.number().int().nonnegative().nullable(),
  /** Share (0–1) of those commits made by the single top contributor; null when unknown. */
  topShare: z.number().min(0).max(1).nullable(),
  /**
   * What the figures are counted over: `recent-commits` — the authors of the default branch's
   * newest `commitsExamined` commits, the same with and without a token (REST lists the
   * branch's commits, GraphQL its history), so `count` is the people in that window, not an
   * all-time total; `contributors` — GitHub's all-time contributors list, which REST used
   * before. Absent in evidence saved before the basis was recorded: `contributors`.
   */
  basis: z.enum(['contributors', 'recent-commits']).optional(),
  /** With `recent-commits`: how many commits were examined (at most 100). */
  commitsExamined: z.number().int().nonnegative().optional(),
  /**
   * With `recent-commits`: how many of the examined commits are a person's that no GitHub
   * account names (a mail address alone), counted for nobody. Absent when there is none, and in
   * evidence saved before it was recorded.
   */
  unlinked: z.number().int().positive().optional(),
});
export type GithubContributors = z.infer<typeof GithubContributorsSchema>;

/**
 * A fork target's own commits (github/fork-commits.ts; docs/scoring.md §9, "A fork"): GitHub's
 * comparison of the parent's default branch with the fork's, which tells the commits the fork
 * made from those it copied. `activity` and `contributors` are counted over the own commits GitHub
 * listed (at most 250 of `aheadBy`): when it listed fewer (`activity.truncated`), the counts and
 * the newest date are lower bounds. Absent for a repository that is no fork, when the comparison
 * was not asked or GitHub could not answer it (the fork's facts are then the copied ones, unknown),
 * and in evidence saved before it was recorded.
 */
export const GithubForkCommitsSchema = z.object({
  /** The parent compared with (`owner/name`) and its default branch. */
  parent: z.string(),
  base: z.string(),
  /** GitHub's `status`: `identical` and `behind` mean the fork has no commit of its own. */
  status: z.enum(['ahead', 'behind', 'diverged', 'identical']),
  /** Commits on the fork's branch that the parent's lacks (its own), and the other way round. */
  aheadBy: z.number().int().nonnegative(),
  behindBy: z.number().int().nonnegative(),
  /** Own commits GitHub listed (it lists at most 250). */
  listed: z.number().int().nonnegative(),
  /** Over the listed own commits: counts in 90 / 365 days, distinct non-bot authors, the newest date. */
  activity: GithubActivitySchema,
  /** Over the newest 100 listed own commits (`recent-commits`). */
  contributors: GithubContributorsSchema,
});
export type GithubForkCommits = z.infer<typeof GithubForkCommitsSchema>;

export const GithubResponsivenessSchema = z.object({
  /** The window looked at, in days (180). */
  windowDays: z.number().int().nonnegative(),
  issues: z.object({
    /** Issues opened in the window and sampled (bounded). */
    sampled: z.number().int().nonnegative(),
    /** Of those, answered by someone other than the author, or closed. */
    responded: z.number().int().nonnegative(),
    /** Median hours to the first response or close, over the responded ones; null when none. */
    medianHoursToResponse: z.number().nonnegative().nullable(),
  }),
  pulls: z.object({
    sampled: z.number().int().nonnegative(),
    responded: z.number().int().nonnegative(),
    merged: z.number().int().nonnegative(),
    /** Closed without merge. */
    closedUnmerged: z.number().int().nonnegative(),
    medianHoursToResponse: z.number().nonnegative().nullable(),
  }),
  /**
   * `comments-or-close` (REST without a token: a comment count or a close counts as a response,
   * and the time is the close time) or `first-response` (GraphQL: the first comment or review by
   * someone other than the author).
   */
  method: z.enum(['comments-or-close', 'first-response']),
});
export type GithubResponsiveness = z.infer<typeof GithubResponsivenessSchema>;

export const GithubCommunitySchema = z.object({
  readme: z.boolean(),
  contributing: z.boolean(),
  codeOfConduct: z.boolean(),
  issueTemplate: z.boolean(),
  pullRequestTemplate: z.boolean(),
  /** A SECURITY policy in the root, `.github/` or `docs/` (or GraphQL `isSecurityPolicyEnabled`); null = unknown. */
  securityPolicy: z.boolean().nullable(),
  /** Community profile `health_percentage` (0–100); null when not given or outside that range. */
  healthPercentage: z.number().min(0).max(100).nullable(),
});
export type GithubCommunity = z.infer<typeof GithubCommunitySchema>;

export const GithubCiSchema = z.object({
  /** Workflow files under `.github/workflows/`. */
  workflows: z.number().int().nonnegative(),
  /** Other CI configuration found at the root (`.travis.yml`, `.circleci`, `azure-pipelines.yml`, …). */
  otherCi: z.array(z.string()),
  /** Dependency update tool configured: Dependabot (`.github/dependabot.yml`) or Renovate (any of its config files). */
  dependencyUpdates: z.array(z.enum(['dependabot', 'renovate'])),
});
export type GithubCi = z.infer<typeof GithubCiSchema>;

export const GithubLinkSchema = z.object({
  /**
   * Whether the repository is verified to be the package's: `target` (the target is the
   * repository itself), `manifest` (its package.json / pyproject at the default branch, or a
   * workspace member, names the package), `provenance` (an attestation names the repository),
   * or null when not verified.
   */
  verifiedBy: z.enum(['target', 'manifest', 'provenance']).nullable(),
  /** One line: why it is (not) verified, e.g. `package.json at main names "other-pkg"`. */
  reason: z.string(),
  /**
   * Why it is not verified (a package's link only; absent when verified or in facts saved before):
   * `budget` a request bound cut the search (a member may have been missed), `unreadable` GitHub
   * could not give a file or folder it needed, `refused` a manifest names the package but may not
   * vouch (private, a test/fixture/example folder, not a workspace member), `not-named` every
   * manifest read names something else.
   */
  code: z.enum(LINK_GAP_CODES).optional(),
});
export type GithubLink = z.infer<typeof GithubLinkSchema>;


/** A manifest found in the repository's tree, read and reduced to the facts checks use. */
export const RepoManifestSchema = z.object({
  path: z.string(),
  ecosystem: z.enum(['npm', 'pypi']),
  /** The package name it declares; null when none. */
  name: z.string().nullable(),
  /** npm `private: true`: never published. */
  private: z.boolean(),
  /** The licence it declares (npm `license`, pyproject `license` / `license.text` or PEP 639 expression); null when none. */
  license: z.string().nullable(),
  keywords: z.array(z.string()),
  description: z.string().nullable(),
  /** Runtime dependency names (npm `dependencies`, pyproject `project.dependencies`). */
  dependencies: z.array(z.string()),
  /** Development-only dependency names (npm `devDependencies`, dependency groups / optional dev extras). */
  devDependencies: z.array(z.string()),
  /** Ships a command (npm `bin`, pyproject `project.scripts`). */
  hasBin: z.boolean(),
});
export type RepoManifest = z.infer<typeof RepoManifestSchema>;

const WorkflowFindingSchema = z.object({
  code: z.enum(['untrusted-checkout', 'script-injection']),
  path: z.string(),
  job: z.string(),
  step: z.string(),
  triggers: z.array(z.string()),
  excerpt: z.string(),
  /** When the step is in a called workflow or action: its callers, outermost first; absent otherwise and in older evidence. */
  via: z.array(z.string()).optional(),
});

/**
 * What the repository's GitHub Actions workflows let outsiders do (github/workflow-analysis.ts):
 * the workflow files listed, those read and judged, those not read (a cap, a 404, a failure, a
 * file that does not parse: what they would show is unknown, never safe), and the findings.
 */
export const GithubWorkflowSafetySchema = z.object({
  /** Workflow files under `.github/workflows/` in the listing. */
  listed: z.number().int().nonnegative(),
  /** The files read and judged (paths). */
  read: z.array(z.string()),
  /**
   * Files not read, with why. `cause` (absent in evidence saved before it was recorded): `limit` —
   * the count or size budget, or GitHub's own cut (the same on the next run: a complete answer,
   * limited); `fault` — a failure, a rate limit, a malformed answer (the next run may read it, so
   * facts holding one are never kept in the facts cache); `missing` — a 404, or not in the listing;
   * `unparsed` — text that does not parse.
   */
  unread: z.array(z.object({ path: z.string(), reason: z.string(), cause: z.enum(['limit', 'fault', 'missing', 'unparsed']).optional() })),
  /** Read files with a trigger that runs them with the secrets on an event anyone can cause. */
  outsiderTriggered: z.array(z.string()),
  findings: z.array(WorkflowFindingSchema),
  /** Findings in jobs or steps gated on a check of the actor's permission (github/permission-gate.ts): recorded, not counted; absent when none and in older evidence. */
  gated: z.array(WorkflowFindingSchema.extend({ gate: z.string() })).optional(),
  /** Third-party actions not pinned to a commit SHA in the files read (context; not scored). */
  unpinnedActions: z.number().int().nonnegative(),
  /** Composite actions of the repository read and judged as their outsider-triggered callers run them (paths); absent when none. */
  actionsRead: z.array(z.string()).optional(),
  /** What outsider-triggered jobs call in the repository (`caller (job, step) → file`); absent when nothing. */
  calls: z.array(z.string()).optional(),
  /** Actions and reusable workflows of other repositories used by outsider-triggered jobs: not read, not judged; absent when none. */
  remoteActions: z.array(z.string()).optional(),
  /** Called actions of the repository that are not composite (JavaScript, Docker): not judged; absent when none. */
  notJudged: z.array(z.string()).optional(),
});
export type GithubWorkflowSafety = z.infer<typeof GithubWorkflowSafetySchema>;

/** A security policy's text: its first 16 KiB (`truncated` when there was more). */
export const SecurityPolicyTextSchema = z.object({ path: z.string(), text: z.string(), truncated: z.boolean() });

/**
 * Whether GitHub's private vulnerability reporting is on for the repository
 * (`GET /repos/{owner}/{repo}/private-vulnerability-reporting`), asked only when the policy's only
 * channel is private reporting: `enabled` true or false as GitHub says, null with the `reason`
 * when it could not say (a failure, a refusal, an answer of another shape).
 */
export const PrivateReportingSchema = z.object({ enabled: z.boolean().nullable(), reason: z.string().nullable() });
export type PrivateReporting = z.infer<typeof PrivateReportingSchema>;

/**
 * The repository's own files at the default branch — or at the commit a target's ref names
 * (`github:owner/repo@ref`) — (github/repo-files.ts): one recursive tree
 * listing, then only the files that matter, each within a size cap, never executed, never
 * written to disk. `unread` lists the files that matter which could not be read (a 404 on the
 * file, a size cap, a failure): the facts they feed are unknown, the others stand.
 */
export const GithubFilesSchema = z.object({
  /** The default branch the files were read at, or the ref the target names. */
  branch: z.string(),
  /** The commit the target's ref resolved to, at which every file was read; absent without a ref, and in evidence saved before it was recorded. */
  commit: z.string().optional(),
  /**
   * The folder an MCP Registry entry names (`repository.subfolder`, normalised): its README,
   * changelog, manifests and dependency set were read there; the licence there when it has one,
   * the security policy and workflows the repository's. Absent for the root (docs/scoring.md §9).
   */
  folder: z.string().optional(),
  /**
   * At a pinned commit: the licence GitHub detects there (`spdx_id`, null when it names none), in
   * the file at `path` whose blob `sha` is the one the commit's listing holds — so it describes the
   * files read. Absent without a ref, when GitHub's answer names another blob (a server that
   * ignores `ref` answers with the default branch's), when it could not answer, and in older evidence.
   */
  licenceAtRef: z.object({ license: z.string().nullable(), path: z.string(), sha: z.string() }).optional(),
  /** GitHub cut the recursive listing short: a file not listed may still exist. */
  treeTruncated: z.boolean(),
  /** Entries in the listing (files and folders). */
  entries: z.number().int().nonnegative(),
  /**
   * The root README; null when the tree has none (and is complete). `text` is its first 64 KiB,
   * the rest read for its headings and code blocks (evidence/readme-file.ts).
   */
  readme: ReadmeFileSchema.nullable(),
  /** Root licence files, with the SPDX id their text matches (null when unrecognised or unread) and any further licences the file holds. */
  licenseFiles: z.array(LicenseFileSchema),
  /** A changelog file at the root (or in `docs/`), else beside a published workspace member's manifest (repo-tree.ts `memberChangelogs`); null when none. */
  changelog: z.string().nullable(),
  /** A `docs/` (or `doc/`) folder with files in it. */
  docsFolder: z.boolean(),
  /** An `examples/` (or `example/`) folder with files in it. */
  examplesFolder: z.boolean(),
  /** The security policy file (root, `.github/` or `docs/`); null when none. */
  securityPolicy: z.string().nullable(),
  /** The security policy's text (at most 16 KiB of it); null when there is none or it could not be read (`unread`); absent in evidence saved before it was read. */
  securityPolicyText: SecurityPolicyTextSchema.nullable().optional(),
  /** Private reporting's state, when the policy's only channel is private reporting; absent when it was not asked and in evidence saved before it was. */
  privateReporting: PrivateReportingSchema.optional(),
  /** Manifests of the published packages (root first; test fixtures and examples left out). */
  manifests: z.array(RepoManifestSchema),
  /** Lockfiles found next to those manifests (paths). */
  lockfiles: z.array(z.string()),
  /**
   * The Go and Rust files read for the dependency set (`go.mod`, `Cargo.lock`, the `Cargo.toml`
   * manifests beside them: repo-tree.ts); absent when there are none, and in evidence saved before
   * they were read.
   */
  moduleFiles: z.array(z.string()).optional(),
  /**
   * Dependency manifests of ecosystems nerq does not evaluate (`Gemfile` → RubyGems, `pom.xml` →
   * Maven, a `Cargo.toml` no `Cargo.lock` pins …) in the published folders, from the listing alone;
   * absent in evidence saved before they were listed.
   */
  unevaluatedManifests: z.array(z.object({ path: z.string(), ecosystem: z.string() })).optional(),
  /**
   * Entry files of the commands a Go or Rust project builds (`main.go`, `cmd/<name>/main.go`,
   * `src/main.rs`, `src/bin/<name>.rs`), from the listing alone (repo-tree.ts); absent when there
   * are none, and in evidence saved before they were listed.
   */
  commandEntries: z.array(z.string()).optional(),
  /**
   * The licence the root `Cargo.toml`, `composer.json`, `setup.cfg`, `.gemspec`, `pom.xml`,
   * `Directory.Build.props` or a published `.csproj` declares (licence-manifests.ts; null: none declared); a file that could not be read or parsed is in
   * `unread`. Absent when there is no such file, and in evidence saved before they were read.
   */
  declaredLicenses: z
    .array(
      z.object({
        path: z.string(),
        license: z.string().nullable(),
        /** The declaration as written when it names no SPDX licence unambiguously, or is code nerq does not evaluate (licence-manifests.ts); `license` is then null. */
        unmapped: z.string().optional(),
      }),
    )
    .optional(),
  /** Workflow files under `.github/workflows/`. */
  workflows: z.number().int().nonnegative(),
  /** The workflows read and judged; absent in evidence saved before they were read. */
  workflowSafety: GithubWorkflowSafetySchema.optional(),
  /**
   * Version tags (`1.2.3`, `v1.2.3`, `2024.1`, `1.0rc1`: github/version-tags.ts; not `nightly`, `latest` or a
   * monorepo's per-package `name@1.2.3`): how many were listed, and whether that is all of them
   * (`complete: false`: at least that many). Null when the tags could not be listed. Evidence saved
   * before the filter counted every tag.
   */
  tags: z.object({ count: z.number().int().nonnegative(), complete: z.boolean() }).nullable(),
  /** The version tags' dates; absent when there is none to date or in evidence saved before they were dated. */
  tagDates: GithubTagDatesSchema.optional(),
  /** When the default branch's history starts; absent in evidence saved before it was read (unknown). */
  history: GithubHistorySchema.optional(),
  /**
   * Files that matter which could not be read, with why; `code` when a request failed or a cap
   * stopped it (the failure as a source code: `not-found`, `too-large`, `timeout`, …), absent when
   * the file is there but no text nerq reads (a link, a submodule, a binary) and in evidence saved
   * before it was recorded.
   */
  unread: z.array(z.object({ path: z.string(), reason: z.string(), code: z.enum(SOURCE_UNAVAILABLE_CODES).optional() })),
  /** Requests this reading took (tree, tags, files). */
  requests: z.number().int().nonnegative(),
});
export type GithubFiles = z.infer<typeof GithubFilesSchema>;

/**
 * A package the repository advertises (an install command in its README's code) or declares (a
 * published manifest's name), looked up in its registry: is it published, and does it point back
 * to this repository (sources/github/link.ts verifies it as for a package's repository)?
 *
 * - `verified`: published, links here, and this repository's manifests (or a provenance
 *   attestation) vouch for it;
 * - `unconfirmed`: published and links here, but nothing in this repository vouches for it;
 * - `elsewhere`: published with a link to another repository (`linksTo`);
 * - `unlinked`: published, names no source repository;
 * - `missing`: the registry has no such package;
 * - `unavailable`: the registry could not answer (`reason`).
 */
export const DistributedPackageSchema = z.object({
  ecosystem: z.enum(['npm', 'pypi']),
  name: z.string(),
  /** The README's install command that names it; null when only a manifest declares it. */
  command: z.string().nullable(),
  /** A published manifest of the repository declares this name. */
  declared: z.boolean(),
  status: z.enum(['verified', 'unconfirmed', 'elsewhere', 'unlinked', 'missing', 'unavailable']),
  /** The repository the published package links to, as it declares it; null when none or not published. */
  linksTo: z.string().nullable(),
  /** One line: why the status holds (the link verifier's reason, the registry's answer). */
  reason: z.string(),
  /** `unconfirmed` only: why the link verifier could not confirm it (GithubLink `code`). */
  reasonCode: GithubLinkSchema.shape.code,
});
export type DistributedPackage = z.infer<typeof DistributedPackageSchema>;

export type IncludedPackage = z.infer<typeof IncludedPackageSchema>;

/** What a repository target distributes: its packages looked up, its container images listed. */
export const GithubDistributionSchema = z.object({
  packages: z.array(DistributedPackageSchema),
  /** Container images its README runs (`docker run …`): listed, not evaluated. */
  images: z.array(z.object({ name: z.string(), command: z.string() })),
  /** Names beyond the lookup limit, not looked up (`npm:x`, `pypi:y`). */
  skipped: z.array(z.string()),
  /**
   * The README's lines that pipe a download into a shell (`curl … | sh`, `irm … | iex`):
   * the URL without credentials, its host, whether https, whether credentials were removed.
   * Absent in evidence saved before they were read.
   */
  scripts: z.array(z.object({ url: z.string(), host: z.string(), https: z.boolean(), credentials: z.boolean(), command: z.string() })).optional(),
});
export type GithubDistribution = z.infer<typeof GithubDistributionSchema>;

export const GithubFactsSchema = z.object({
  /** `present`, or `missing` (404) / `blocked` (451, with `absentReason`). */
  state: z.enum(['present', 'missing', 'blocked']),
  absentReason: z.string().nullable(),
  /** Null unless `state` is `present`. */
  repository: GithubRepositorySchema.nullable(),
  activity: GithubActivitySchema.nullable(),
  releases: GithubReleasesSchema.nullable(),
  contributors: GithubContributorsSchema.nullable(),
  responsiveness: GithubResponsivenessSchema.nullable(),
  community: GithubCommunitySchema.nullable(),
  ci: GithubCiSchema.nullable(),
  link: GithubLinkSchema,
  /**
   * The repository's own files (repository targets): null when they could not be listed (the
   * reason in `unknown.files`); absent when they were not read (a package's repository, evidence
   * saved before they were).
   */
  files: GithubFilesSchema.nullable().optional(),
  /**
   * A package's verified repository's workflows, judged as a repository target's are
   * (`files.workflowSafety`): read with a GitHub token, from the facts query itself; absent
   * without a token, for a repository target (its `files` hold them), when the link is not
   * verified, and in evidence saved before they were read.
   */
  workflowSafety: GithubWorkflowSafetySchema.optional(),
  /**
   * A package's verified repository's security policy text (`SECURITY.md` in the root, `.github/`
   * or `docs/`), read with a GitHub token from the facts query itself; null when the query found
   * none at those paths; absent without a token, for a repository target (its `files` hold it),
   * when the link is not verified, and in evidence saved before it was read.
   */
  securityPolicyText: SecurityPolicyTextSchema.nullable().optional(),
  /** As `files.privateReporting`, for that policy. */
  privateReporting: PrivateReportingSchema.optional(),
  /**
   * What a repository target distributes (its README's install commands and its manifests'
   * names, looked up in their registries); absent for a package's repository and in evidence
   * saved before it was read.
   */
  distribution: GithubDistributionSchema.optional(),
  /** A fork target's own commits, told from its parent's (see GithubForkCommitsSchema); absent otherwise. */
  forkCommits: GithubForkCommitsSchema.optional(),
  /**
   * `--include-package` (repository targets): the verified package whose sources were folded into
   * the evidence (docs/scoring.md §9), or why none was; absent when the flag was not given.
   */
  includedPackage: IncludedPackageSchema.optional(),
  /** For each section that is null while the repository is present: why (one line). */
  unknown: z.partialRecord(z.enum(GITHUB_SECTIONS), z.string()),
  /** How the facts were fetched and how many requests it took (for docs and the bench). */
  via: z.object({
    api: z.enum(['rest', 'graphql']),
    requests: z.number().int().nonnegative(),
  }),
});
export type GithubFacts = z.infer<typeof GithubFactsSchema>;

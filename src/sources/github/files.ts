/**
 * What a repository's file listings at the default branch say: a SECURITY policy (root,
 * `.github/`, `docs/`), CI configuration, and a dependency update tool. Pure.
 */
import type { GithubCi } from '../../evidence/github-facts.js';

export interface TreeEntry {
  /** Path relative to the listed directory (`workflows/ci.yml` inside `.github`). */
  path: string;
  type: 'file' | 'dir' | 'other';
}

/**
 * The listings looked at. `null` = unknown (the request failed); `[]` = the directory is
 * absent or empty. `github` is recursive (paths below `.github/`); `root` and `docs` are one level.
 */
export interface RepoListings {
  root: readonly TreeEntry[] | null;
  github: readonly TreeEntry[] | null;
  /** `undefined` when it was not needed (a policy was found before it) or there is no `docs/`. */
  docs?: readonly TreeEntry[] | null;
}

/** `blob` / `tree` (git trees, GraphQL) and `file` / `dir` (contents API) → one vocabulary. */
export function entryType(type: string): TreeEntry['type'] {
  const lower = type.toLowerCase();
  if (lower === 'blob' || lower === 'file' || lower === 'symlink') return 'file';
  if (lower === 'tree' || lower === 'dir') return 'dir';
  return 'other';
}

const SECURITY_FILE = /^security(\.(md|markdown|txt|rst|adoc))?$/i;

function hasSecurityFile(entries: readonly TreeEntry[], nested = false): boolean {
  return entries.some((e) => e.type === 'file' && SECURITY_FILE.test(e.path) && (nested || !e.path.includes('/')));
}

/** True when the root has a directory called `name` (case-insensitive). */
export function hasDir(entries: readonly TreeEntry[] | null, name: string): boolean {
  return entries?.some((e) => e.type === 'dir' && e.path.toLowerCase() === name.toLowerCase()) ?? false;
}

/** Whether the `docs/` listing is needed to decide the security policy. */
export function needsDocs(listings: RepoListings): boolean {
  if (listings.root === null) return false;
  if (hasSecurityFile(listings.root)) return false;
  if (listings.github !== null && hasSecurityFile(listings.github)) return false;
  return hasDir(listings.root, 'docs');
}

/** A SECURITY policy file in the root, `.github/` or `docs/`: true, false, or null when a needed listing is unknown. */
export function securityPolicyIn(listings: RepoListings): boolean | null {
  const { root, github, docs } = listings;
  if (root !== null && hasSecurityFile(root)) return true;
  if (github !== null && hasSecurityFile(github)) return true;
  if (docs !== undefined && docs !== null && hasSecurityFile(docs)) return true;
  if (root === null) return null;
  if (hasDir(root, '.github') && github === null) return null;
  if (hasDir(root, 'docs') && (docs === undefined || docs === null)) return null;
  return false;
}

/** Root files and directories of CI services other than GitHub Actions. */
const OTHER_CI: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\.travis\.ya?ml$/i, '.travis.yml'],
  [/^\.circleci$/i, '.circleci'],
  [/^azure-pipelines\.ya?ml$/i, 'azure-pipelines.yml'],
  [/^\.azure-pipelines$/i, '.azure-pipelines'],
  [/^\.gitlab-ci\.ya?ml$/i, '.gitlab-ci.yml'],
  [/^\.?appveyor\.ya?ml$/i, 'appveyor.yml'],
  [/^jenkinsfile$/i, 'Jenkinsfile'],
  [/^\.drone\.ya?ml$/i, '.drone.yml'],
  [/^bitbucket-pipelines\.ya?ml$/i, 'bitbucket-pipelines.yml'],
  [/^\.buildkite$/i, '.buildkite'],
  [/^\.?cirrus\.ya?ml$/i, '.cirrus.yml'],
  [/^\.woodpecker(\.ya?ml)?$/i, '.woodpecker'],
  [/^\.semaphore$/i, '.semaphore'],
];

/** Renovate's configuration file names (root, or `.github/` for the first two). */
const RENOVATE_ROOT = /^(renovate\.json5?|\.renovaterc(\.json5?)?)$/i;
const RENOVATE_GITHUB = /^renovate\.json5?$/i;
const DEPENDABOT = /^dependabot\.ya?ml$/i;
const WORKFLOW = /^workflows\/[^/]+\.ya?ml$/i;

/** CI and dependency-update facts, or null when the root (or a needed `.github/`) listing is unknown. */
export function ciIn(listings: RepoListings): GithubCi | null {
  const { root, github } = listings;
  if (root === null) return null;
  if (hasDir(root, '.github') && github === null) return null;
  const gh = github ?? [];
  const otherCi = OTHER_CI.filter(([pattern]) => root.some((e) => e.type !== 'other' && pattern.test(e.path))).map(([, name]) => name);
  const dependencyUpdates: GithubCi['dependencyUpdates'] = [];
  if (gh.some((e) => e.type === 'file' && DEPENDABOT.test(e.path))) dependencyUpdates.push('dependabot');
  if (root.some((e) => e.type === 'file' && RENOVATE_ROOT.test(e.path)) || gh.some((e) => e.type === 'file' && RENOVATE_GITHUB.test(e.path))) {
    dependencyUpdates.push('renovate');
  }
  return {
    workflows: gh.filter((e) => e.type === 'file' && WORKFLOW.test(e.path)).length,
    otherCi,
    dependencyUpdates,
  };
}

/** The community-profile files as the listings show them (GitHub looks in the root, `.github/` and `docs/`). */
export interface ListedCommunityFiles {
  readme: boolean;
  contributing: boolean;
  codeOfConduct: boolean;
  issueTemplate: boolean;
  pullRequestTemplate: boolean;
}

const README_FILE = /^readme(\.[a-z0-9]+)*$/i;
const CONTRIBUTING_FILE = /^contributing(\.[a-z0-9]+)?$/i;
const CONDUCT_FILE = /^code[_-]of[_-]conduct(\.[a-z0-9]+)?$/i;
const ISSUE_TEMPLATE = /^issue_template(\.[a-z0-9]+)?$/i;
const PR_TEMPLATE = /^pull_request_template(\.[a-z0-9]+)?$/i;
/** `config.yml` in ISSUE_TEMPLATE/ configures the chooser; it is not a template. */
const TEMPLATE_CONFIG = /^config\.ya?ml$/i;

function topLevelFile(entries: readonly TreeEntry[], pattern: RegExp): boolean {
  return entries.some((e) => e.type === 'file' && !e.path.includes('/') && pattern.test(e.path));
}

/** A template file, or a template directory: one level deep only `.github` shows its files, elsewhere the directory counts. */
function hasTemplate(entries: readonly TreeEntry[], pattern: RegExp, nested: boolean): boolean {
  return entries.some((e) => {
    const [head = '', child] = e.path.split('/');
    if (!pattern.test(head)) return false;
    if (child === undefined) return e.type === 'file' || (e.type === 'dir' && !nested);
    return e.type === 'file' && !TEMPLATE_CONFIG.test(child);
  });
}

/**
 * The files GitHub's community profile reports, read from the listings (what GraphQL gives
 * instead of `/community/profile`); null when a listing the answer depends on is unknown.
 */
export function communityFilesIn(listings: RepoListings): ListedCommunityFiles | null {
  const { root, github } = listings;
  if (root === null) return null;
  if (hasDir(root, '.github') && github === null) return null;
  if (hasDir(root, 'docs') && (listings.docs === undefined || listings.docs === null)) return null;
  const places: Array<{ entries: readonly TreeEntry[]; nested: boolean }> = [
    { entries: root, nested: false },
    { entries: github ?? [], nested: true },
    { entries: listings.docs ?? [], nested: false },
  ];
  const anyFile = (pattern: RegExp) => places.some((p) => topLevelFile(p.entries, pattern));
  const anyTemplate = (pattern: RegExp) => places.some((p) => hasTemplate(p.entries, pattern, p.nested));
  return {
    readme: anyFile(README_FILE),
    contributing: anyFile(CONTRIBUTING_FILE),
    codeOfConduct: anyFile(CONDUCT_FILE),
    issueTemplate: anyTemplate(ISSUE_TEMPLATE),
    pullRequestTemplate: anyTemplate(PR_TEMPLATE),
  };
}

/**
 * How a GitHub repository is written as a target (docs/architecture.md, "Add an ecosystem"):
 * `github:owner/repo[@ref]`, `pkg:github/owner/repo[@ref]`, and the github.com URLs and git URLs
 * the target parser (target/parse.ts) hands here.
 */
import hostedGitInfo from 'hosted-git-info';
import { atFirstSlash, fail, quoteForMessage } from '../../target/syntax.js';
import type { PurlParts, Target } from '../../target/types.js';
import { withoutCredentials } from '../../util/url-credentials.js';
import { normaliseFolder } from '../../target/folder.js';
import type { TargetSyntax } from '../types.js';

const GITHUB_OWNER = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;
const GITHUB_REF = /^[A-Za-z0-9_][A-Za-z0-9._/-]{0,99}$/;
/** First path segments of github.com that are site pages, not owners. */
const GITHUB_RESERVED = new Set([
  'about', 'apps', 'collections', 'enterprise', 'explore', 'features', 'login', 'marketplace',
  'new', 'notifications', 'orgs', 'organizations', 'pricing', 'search', 'settings', 'site',
  'sponsors', 'topics', 'users',
]);

/** Validate owner and repository; returns the canonical `owner/repo` (case kept, `.git` dropped). */
function githubName(owner: string, repoWithSuffix: string): string {
  if (owner.length < 1 || owner.length > 39 || !GITHUB_OWNER.test(owner)) {
    fail(
      `invalid GitHub owner ${quoteForMessage(owner)}: 1-39 letters, digits or single hyphens, not at either end`,
    );
  }
  if (GITHUB_RESERVED.has(owner.toLowerCase())) fail(`${quoteForMessage(owner)} is a GitHub page, not an owner`);
  const repo = repoWithSuffix.endsWith('.git') ? repoWithSuffix.slice(0, -4) : repoWithSuffix;
  if (!GITHUB_REPO.test(repo) || repo === '.' || repo === '..') {
    fail(`invalid GitHub repository name ${quoteForMessage(repoWithSuffix)}: 1-100 letters, digits, ".", "_" or "-"`);
  }
  return `${owner}/${repo}`;
}

/**
 * A tag, branch or commit sha as git's ref rules allow it (`git check-ref-format`), within the
 * characters GITHUB_REF keeps: no `..`, no component starting with `.` or ending in `.lock`, no
 * empty component, no `.` or `/` at the end.
 */
function assertGitRef(ref: string): void {
  const components = ref.split('/');
  if (
    !GITHUB_REF.test(ref) ||
    ref.includes('..') ||
    ref.endsWith('.') ||
    components.some((c) => c === '' || c.startsWith('.') || c.endsWith('.lock'))
  ) {
    fail(`invalid git ref ${quoteForMessage(ref)}`);
  }
}

/** `github:owner/repo` when `owner` and `repo` are valid GitHub names, else null. */
export function githubTargetOf(owner: string, repo: string): string | null {
  try {
    return `github:${githubName(owner, repo)}`;
  } catch {
    return null;
  }
}

/**
 * A git URL naming a GitHub repository (`git+https://github.com/o/r.git`, `git@github.com:o/r.git`,
 * `git://…`, `ssh://git@…`, as package.json `repository` fields write them, read by hosted-git-info;
 * `github.com:o/r` read as `git@github.com:o/r`)
 * is refused with the target that names the repository. It is not taken as that target: as a
 * dependency it installs a commit (`#ref`, else the default branch at install time), and a
 * repository target reads the repository as it is now (README.md, "Targets").
 */
export function gitUrlOfGithub(text: string, asGitUrl: string): void {
  let info: ReturnType<typeof hostedGitInfo.fromUrl>;
  try {
    info = hostedGitInfo.fromUrl(asGitUrl);
  } catch {
    return;
  }
  if (info?.type !== 'github' || info.user === '' || info.project === '') return;
  const target = githubTargetOf(info.user, info.project);
  if (target !== null) fail(`${quoteForMessage(withoutCredentials(text))} is a git URL, not a target: for the repository, check ${target}`);
}

/** A folder of the repository named after `owner/repo` (repo-folder.ts rules), as a target field; refused: a TargetError. */
function folderOf(segments: readonly string[]): { folder?: string } {
  if (segments.length === 0) return {};
  const folder = normaliseFolder(segments.join('/'));
  if (!folder.ok) fail(`invalid folder ${quoteForMessage(segments.join('/'))}: ${folder.reason.replace(/^the registry's repository subfolder is refused: /, '')}`);
  return folder.folder === undefined ? {} : { folder: folder.folder };
}

/** `github:owner/repo[/folder…][@ref]`. */
function parseGithubShorthand(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in a GitHub target');
  const at = text.indexOf('@');
  const path = at < 0 ? text : text.slice(0, at);
  const parts = path.split('/');
  if (parts.length < 2) fail(`expected github:owner/repo, got ${quoteForMessage(text)}`);
  const name = githubName(parts[0] ?? '', parts[1] ?? '');
  const folder = folderOf(parts.slice(2));
  if (at < 0) return { input, ecosystem: 'github', name, ...folder };
  const ref = text.slice(at + 1);
  assertGitRef(ref);
  return { input, ecosystem: 'github', name, spec: ref, ...folder };
}

/**
 * `http(s)://[www.]github.com/owner/repo[.git][/anything]`. A folder's page
 * (`/tree/<ref>/<folder…>`) names that folder; its ref is not taken (the default branch is read,
 * as for every other page of the repository): `github:owner/repo/folder@ref` names one.
 */
export function parseGithubUrl(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in a GitHub URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`not a valid URL: ${quoteForMessage(text)}`);
  }
  const host = url.hostname.toLowerCase();
  if (host !== 'github.com' && host !== 'www.github.com') {
    fail(`unsupported host ${quoteForMessage(url.hostname)}: only https://github.com/owner/repo URLs are accepted`);
  }
  if (url.username !== '' || url.password !== '' || url.port !== '') {
    fail('a GitHub URL must not carry credentials or a port');
  }
  const segments = url.pathname.split('/').filter((s) => s !== '');
  if (segments.length < 2) fail(`expected https://github.com/owner/repo, got ${quoteForMessage(text)}`);
  const name = githubName(segments[0] ?? '', segments[1] ?? '');
  return { input, ecosystem: 'github', name, ...(segments[2] === 'tree' ? folderOf(segments.slice(4)) : {}) };
}

/** `pkg:github/owner/repo[@ref]`. */
function parseGithubPurl(input: string, { namespace, name, version }: PurlParts): Target {
  if (namespace === undefined || namespace.includes('/')) {
    fail('expected pkg:github/owner/repo');
  }
  const full = githubName(namespace, name);
  if (version === undefined) return { input, ecosystem: 'github', name: full };
  assertGitRef(version);
  return { input, ecosystem: 'github', name: full, spec: version };
}

export const GITHUB_TARGET_SYNTAX: TargetSyntax = { prefixed: parseGithubShorthand, purl: parseGithubPurl, purlName: atFirstSlash };

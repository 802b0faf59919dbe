/**
 * GitHub's owner and repository name rules, for the names nerq asks for and the canonical names
 * GitHub answers with (`full_name`, `nameWithOwner`, a search hit's `full_name`): an answer's
 * name goes into further request URLs, store keys and reports, so one that `.`/`..`, a
 * percent sign, a space, a control or bidirectional character would slip through is no name
 * (docs/security.md, "A failing network never crashes nerq and never invents a value"). The
 * owner may hold `_` (GitHub Enterprise managed users) and legacy hyphens; `github:` targets are
 * held to github.com's stricter rule in src/target/parse.ts.
 */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** GitHub's owner and repository name rules (checked before any request). */
export function validGithubNames(owner: string, name: string): boolean {
  return OWNER.test(owner) && NAME.test(name) && name !== '.' && name !== '..';
}

/** A canonical `owner/repo` as GitHub spells one: exactly one slash, each side by the rules above. */
export function validGithubFullName(fullName: string): boolean {
  const slash = fullName.indexOf('/');
  if (slash < 0 || fullName.indexOf('/', slash + 1) >= 0) return false;
  return validGithubNames(fullName.slice(0, slash), fullName.slice(slash + 1));
}

/** A fork's parent as GitHub names it; null for a repository that is no fork, or a name that is no valid `owner/name` (never put into a command). */
export function forkParent(fork: boolean, parent: string | null | undefined): string | null {
  return fork && parent !== null && parent !== undefined && validGithubFullName(parent) ? parent : null;
}

/**
 * Branch names nerq puts into a comparison (github/fork-commits.ts): letters, digits, `.`, `_`,
 * `-` and `/` between parts, no `..` (the comparison's own separator), no part starting with `.`
 * or `-`. Git allows more; a branch outside this set is not compared (its fork's facts stay unknown).
 */
const BRANCH = /^(?![.-])[A-Za-z0-9._-]+(?:\/(?![.-])[A-Za-z0-9._-]+)*$/;

/** A fork's parent's default branch, when the parent is named and the branch is one nerq compares with (BRANCH); else null. */
export function forkParentBranch(fork: boolean, parent: string | null | undefined, branch: string | null | undefined): string | null {
  if (forkParent(fork, parent) === null || branch === null || branch === undefined) return null;
  return comparableBranch(branch) ? branch : null;
}

/** A branch name within BRANCH, at most 255 characters and without `..`. */
export function comparableBranch(branch: string): boolean {
  return branch.length <= 255 && !branch.includes('..') && BRANCH.test(branch);
}

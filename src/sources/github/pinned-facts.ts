/**
 * A pinned target's (`github:owner/repo@ref`) file-based facts from the tree listed at its
 * commit, not the default branch's: the security policy, the community files and the CI and
 * dependency-update configuration are what that commit holds (docs/scoring.md §9, "A pinned
 * ref"). The repository's own facts — stars, commit activity, contributors, releases, issues, the
 * licence GitHub detects — stay the repository's. Pure.
 */
import type { GithubCi, GithubCommunity, GithubFacts } from '../../evidence/github-facts.js';
import { ciIn, communityFilesIn, entryType, securityPolicyIn, type RepoListings, type TreeEntry } from './files.js';
import type { RepoTreeItem } from './repo-tree.js';

/** The root, `.github/` (recursive) and `docs/` listings the recursive tree gives. */
function listingsOf(tree: readonly RepoTreeItem[]): RepoListings {
  const under = (folder: string, recursive: boolean): TreeEntry[] =>
    tree.flatMap((item) => {
      if (!item.path.startsWith(`${folder}/`)) return [];
      const path = item.path.slice(folder.length + 1);
      return recursive || !path.includes('/') ? [{ path, type: entryType(item.type) }] : [];
    });
  const root = tree.filter((item) => !item.path.includes('/')).map((item) => ({ path: item.path, type: entryType(item.type) }));
  return { root, github: under('.github', true), docs: under('docs', false) };
}

/** `facts` with its community files and CI unknown for `reason`. */
function unknownAtCommit(facts: GithubFacts, reason: string): GithubFacts {
  return { ...facts, community: null, ci: null, unknown: { ...facts.unknown, community: reason, ci: reason } };
}

/**
 * `facts` with the community files and CI facts of the tree at the pinned commit; unknown (with
 * the reason) when that listing could not be read (`tree` null: the ref could not be resolved or
 * the listing failed, `reason` says why) or GitHub cut it short — never the default branch's in
 * their place.
 */
export function factsAtCommit(facts: GithubFacts, tree: readonly RepoTreeItem[] | null, truncated: boolean, reason = 'the tree listing at the commit is unknown'): GithubFacts {
  if (tree === null) return unknownAtCommit(facts, `the files at the target's ref could not be read: ${reason}`);
  if (truncated) return unknownAtCommit(facts, "GitHub cut the tree listing at the target's commit short");
  const unknown = Object.fromEntries(Object.entries(facts.unknown).filter(([section]) => section !== 'community' && section !== 'ci'));
  const listings = listingsOf(tree);
  const listed = communityFilesIn(listings);
  const ci: GithubCi | null = ciIn(listings);
  // The community profile's health percentage is the default branch's: not this commit's.
  const community: GithubCommunity | null = listed === null ? null : { ...listed, securityPolicy: securityPolicyIn(listings), healthPercentage: null };
  const incomplete = 'the tree listing at the commit is incomplete';
  return {
    ...facts,
    community,
    ci,
    unknown: { ...unknown, ...(community === null ? { community: incomplete } : {}), ...(ci === null ? { ci: incomplete } : {}) },
  };
}

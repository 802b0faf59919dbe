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

/**
 * `facts` with the community files and CI facts of the tree at the pinned commit; unknown (with
 * the reason) when GitHub cut that listing short, never the default branch's in their place.
 */
export function factsAtCommit(facts: GithubFacts, tree: readonly RepoTreeItem[], truncated: boolean): GithubFacts {
  const unknown = Object.fromEntries(Object.entries(facts.unknown).filter(([section]) => section !== 'community' && section !== 'ci'));
  if (truncated) {
    const reason = "GitHub cut the tree listing at the target's commit short";
    return { ...facts, community: null, ci: null, unknown: { ...unknown, community: reason, ci: reason } };
  }
  const listings = listingsOf(tree);
  const listed = communityFilesIn(listings);
  const ci: GithubCi | null = ciIn(listings);
  // The community profile's health percentage is the default branch's: not this commit's.
  const community: GithubCommunity | null = listed === null ? null : { ...listed, securityPolicy: securityPolicyIn(listings), healthPercentage: null };
  const reason = 'the tree listing at the commit is incomplete';
  return {
    ...facts,
    community,
    ci,
    unknown: { ...unknown, ...(community === null ? { community: reason } : {}), ...(ci === null ? { ci: reason } : {}) },
  };
}

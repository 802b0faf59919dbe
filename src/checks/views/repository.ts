/**
 * The `repository` view: a repository target's own files and the repository facts they are read
 * with (sources/github/repo-files.ts), and an MCP Registry entry's repository read the same way — the tree's documents, manifests, lockfiles, workflows and
 * tags, when its history starts, with the repository's age, releases and detected licence. `not-applicable` for a package (its
 * documents come from the package: the `documents` view) and for evidence that holds no files;
 * `unavailable` with GitHub's reason when the repository or its tree could not be read.
 *
 * Shape:
 *   files       GithubFiles (evidence/github-facts.ts)
 *   repository  GithubRepository: createdAt, license (+ licenseKnown), topics (+ topicsKnown), description
 *   releases    GithubReleases: the releases listed (their recent count and oldest date among them, how many carry notes); null when unknown, with GitHub's reason in `releasesUnknown`
 *   distribution  GithubDistribution: the packages it advertises or declares, looked up; null when not looked up
 */
import type { Evidence, GithubDistribution, GithubFiles, GithubReleases, GithubRepository } from '../../evidence/schema.js';
import { defineView, type ViewResult } from './define-view.js';

export interface RepositoryFacts {
  files: GithubFiles;
  repository: GithubRepository;
  distribution: GithubDistribution | null;
  releases: GithubReleases | null;
  /** Why `releases` is null (GitHub's reason), when it is. */
  releasesUnknown?: string;
}

/** The targets whose own repository is read for its files: a `github:` target and an MCP Registry entry. */
const REPOSITORY_READERS: ReadonlySet<string> = new Set(['github', 'mcp']);

export function deriveRepository(evidence: Evidence): ViewResult<RepositoryFacts> {
  const github = evidence.sources.github;
  // A repository target, or an MCP Registry entry, whose repository is read as a target's is (docs/scoring.md §8a).
  if (!REPOSITORY_READERS.has(evidence.target.ecosystem)) return { status: 'not-applicable', reason: 'a package is documented by its own files' };
  if (github.status === 'not-applicable') {
    // An entry that names no repository nerq can read: its repository checks are unknown, not left out (docs/scoring.md §1).
    return github.undeclared === true ? { status: 'not-applicable', reason: github.reason, undeclared: true } : { status: 'not-applicable', reason: github.reason };
  }
  if (github.status === 'unavailable') return { status: 'unavailable', reason: github.reason, source: 'github' };
  const { facts } = github;
  if (facts.repository === null) return { status: 'unavailable', reason: facts.absentReason ?? 'the repository is not on GitHub', source: 'github' };
  if (facts.files === undefined) return { status: 'not-applicable', reason: 'the evidence holds no repository files (saved before they were read)' };
  if (facts.files === null) return { status: 'unavailable', reason: facts.unknown.files ?? 'the repository files could not be read', source: 'github' };
  const releasesUnknown = facts.releases === null ? (facts.unknown.releases ?? 'the releases could not be listed') : undefined;
  return {
    status: 'ok',
    facts: {
      files: facts.files,
      repository: facts.repository,
      distribution: facts.distribution ?? null,
      releases: facts.releases,
      ...(releasesUnknown === undefined ? {} : { releasesUnknown }),
    },
  };
}

export const repositoryView = defineView<RepositoryFacts>({
  description:
    "A repository target's own files, or an MCP Registry entry's repository's read the same way (one recursive tree listing, then README, licence files and manifests within a size cap) with its age, detected licence and topics; not-applicable for packages.",
  derive: deriveRepository,
});

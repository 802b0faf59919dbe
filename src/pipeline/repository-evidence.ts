/**
 * A repository GitHub answered as present, read as a repository is read wherever nerq reads one —
 * a `github:` target, an MCP Registry entry's repository (docs/scoring.md §8a, §9): its own files
 * (one tree listing, then the files that matter, each within a size cap), what it tells people to
 * install looked up in the registries, a fork's own commits, and the dependency set its manifests
 * and lockfiles give. One code path, so an entry's repository is judged as a repository target is.
 */
import type { GithubFacts, Sources } from '../evidence/schema.js';
import { fetchForkCommits, fetchRepositoryFiles } from '../sources/github/source.js';
import { normaliseFolder } from '../target/folder.js';
import { factsAtCommit } from '../sources/github/pinned-facts.js';
import { githubSourceContext } from './collect-github-source.js';
import type { RunContext } from './context.js';
import { resolveRepositoryRanges } from './repository-ranges.js';
import { collectDistribution } from './repository-distribution.js';

export type RepositoryEvidence =
  /** The ref the caller named does not exist in the repository. */
  | { kind: 'missing-ref'; fullName: string }
  /** The folder a `github:owner/repo/folder` target names is not in the repository (an MCP entry's is read as unknown instead). */
  | { kind: 'missing-folder'; fullName: string; folder: string }
  /**
   * The repository facts with its files (null when they could not be read, with why in
   * `unknown.files`), and its dependencies, resolved when asked for: resolving ranges asks the
   * registries (within a budget), which a caller that does not score them need not spend.
   */
  | { kind: 'read'; facts: GithubFacts; dependencies: () => Promise<Sources['dependencies']> };

/**
 * `facts`: GitHub's answer for the repository, state `present`. `asked`: the owner/name it was
 * asked by (what the distribution's packages must point back to). `ref`: a commit, tag or branch
 * the files are read at (never the default branch in its place); undefined for the default branch.
 */
export async function readRepositoryEvidence(
  ctx: RunContext,
  facts: GithubFacts,
  asked: { owner: string; name: string },
  ref: string | undefined,
  /**
   * The folder a registry entry names (`repository.subfolder`), as the registry gave it: checked
   * and normalised here (sources/github/repo-folder.ts). Refused, the files are unknown with why —
   * never the root's read in the folder's place.
   */
  subfolder?: string,
  /** `folderMustExist`: a folder the user named (a `github:` target's) that is not there is an answer of its own, not unknowns. */
  options: { folderMustExist?: boolean } = {},
): Promise<RepositoryEvidence> {
  const repository = facts.repository;
  if (repository === null) {
    return { kind: 'read', facts, dependencies: () => Promise.resolve({ status: 'unavailable', reason: 'the repository answer named no repository to read', code: 'bad-answer' }) };
  }
  const folder = normaliseFolder(subfolder);
  if (!folder.ok) {
    const reason = folder.reason;
    return {
      kind: 'read',
      facts: { ...facts, files: null, unknown: { ...facts.unknown, files: reason } },
      dependencies: () => Promise.resolve({ status: 'unavailable', reason: `the repository files could not be read: ${reason}`, code: 'depends-on-source' }),
    };
  }
  const fullName = repository.fullName;
  const [repoOwner = asked.owner, repoName = asked.name] = fullName.split('/');
  // A ref (`github:owner/repo@ref`) is read at the commit it names, never at the default branch in its place.
  const files = await fetchRepositoryFiles(githubSourceContext(ctx), { host: repository.host, owner: repoOwner, name: repoName }, repository.defaultBranch, ref, folder.folder);
  if (!files.ok && files.missingRef === true) return { kind: 'missing-ref', fullName };
  if (!files.ok && files.missingFolder === true && options.folderMustExist === true && folder.folder !== undefined) return { kind: 'missing-folder', fullName, folder: folder.folder };
  // What it tells people to install, looked up in the registries (docs/scoring.md §9).
  const distribution = files.ok ? await collectDistribution(ctx, repository, `${asked.owner}/${asked.name}`, files.value, files.read) : undefined;
  // A pinned ref's security policy, community files and CI are its commit's, or unknown — never the default branch's (sources/github/pinned-facts.ts).
  let read = facts;
  if (ref !== undefined) read = files.ok ? factsAtCommit(read, files.read.tree, files.value.treeTruncated) : factsAtCommit(read, null, false, files.reason);
  // A fork: its own commits told from its parent's (one request); unanswered, its facts stay the copied ones (docs/scoring.md §9, "A fork").
  const own = repository.fork ? await fetchForkCommits(githubSourceContext(ctx), repository) : undefined;
  read = {
    ...read,
    files: files.ok ? files.value : null,
    ...(distribution === undefined ? {} : { distribution }),
    ...(own?.result.ok === true ? { forkCommits: own.result.value } : {}),
    unknown: files.ok ? read.unknown : { ...read.unknown, files: files.reason },
    via: { ...read.via, requests: read.via.requests + files.requests + (own?.requests ?? 0) },
  };
  // Direct ranges no lockfile pins: resolved as the package manager would today, within a budget.
  const dependencies = (): Promise<Sources['dependencies']> =>
    files.ok
      ? resolveRepositoryRanges(ctx, files.dependencies)
      : Promise.resolve({ status: 'unavailable', reason: `the repository files could not be read: ${files.reason}`, code: 'depends-on-source' });
  return { kind: 'read', facts: read, dependencies };
}

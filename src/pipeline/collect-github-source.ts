/**
 * The `github` source for a package: its declared repository when that is on GitHub (github.com
 * or the configured Enterprise host), verified against the package (starjacking) by the source.
 */
import type { PackageEcosystem } from '../ecosystems/types.js';
import type { AttestationFacts, RepositoryRef, Sources } from '../evidence/schema.js';
import { fetchGithubFacts, githubRepoOf, type GithubSourceContext } from '../sources/github/source.js';
import type { RunContext } from './context.js';

/** The GitHub source's view of a run: its client, endpoints, token, clock and facts cache. */
export function githubSourceContext(ctx: RunContext): GithubSourceContext {
  const source: GithubSourceContext = {
    http: ctx.http,
    endpoints: ctx.endpoints,
    token: ctx.githubToken,
    now: ctx.now,
    limiter: ctx.githubLimiter,
  };
  if (ctx.facts !== undefined) source.facts = ctx.facts;
  return source;
}

/**
 * The `github` source of a package whose declared repository is not one nerq can read (none, or
 * not on GitHub): its repository checks are unknown, not left out — hiding the source earns
 * nothing (docs/scoring.md §1).
 */
export function undeclaredRepository(repository: RepositoryRef | null): Sources['github'] {
  const reason = repository === null ? 'the package declares no source repository' : 'the declared repository is not on GitHub';
  return { status: 'not-applicable', reason, undeclared: true };
}

export async function githubSourceFor(
  ctx: RunContext,
  pkg: { ecosystem: PackageEcosystem; name: string; repository: RepositoryRef | null },
  attestations: Promise<Sources['attestations']>,
): Promise<Sources['github']> {
  if (ctx.repositoryAlreadyRead !== undefined) return { status: 'not-applicable', reason: ctx.repositoryAlreadyRead };
  const repo = githubRepoOf(pkg.repository, ctx.endpoints);
  if (repo === null) return undeclaredRepository(pkg.repository);
  // A provenance attestation that names the repository verifies the link as well as the manifest does.
  const attested = await attestations;
  const provenance: AttestationFacts | null = attested.status === 'ok' ? attested.facts : null;
  const lookup = ctx.githubLookup ?? ((r, c) => fetchGithubFacts(githubSourceContext(ctx), r, c));
  return lookup(
    repo,
    {
      kind: 'package',
      ecosystem: pkg.ecosystem,
      name: pkg.name,
      directory: pkg.repository?.directory ?? null,
      provenanceRepository: provenance?.provenance === true ? provenance.sourceRepository : null,
    },
  );
}

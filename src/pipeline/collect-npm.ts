/**
 * npm: resolve the target's version from its packument, then collect the facts every
 * check needs in parallel: the tarball, download counts, provenance attestations, the
 * direct dependencies (resolved as npm would install them today) and, for the target and
 * those dependencies, OSV advisories. Failures become data.
 */
import type { Evidence, Sources } from '../evidence/schema.js';
import { fetchAttestations, NO_PROVENANCE } from '../sources/npm-attestations.js';
import { resolveDependencies } from '../sources/npm-dependencies.js';
import { fetchDownloads } from '../sources/npm-downloads.js';
import { registryFacts } from '../sources/npm-facts.js';
import { fetchPackument } from '../sources/npm-registry.js';
import { fetchTarballFacts } from '../sources/tarball.js';
import { purlOf } from '../target/purl.js';
import { resolveNpmVersion } from '../target/resolve-npm.js';
import type { Target } from '../target/types.js';
import { githubSourceFor } from './collect-github-source.js';
import type { RunContext } from './context.js';
import { vulnerabilitiesFor } from './vulnerabilities-for.js';
import { evidenceOf } from './evidence-of.js';

export type Collected =
  | { kind: 'evidence'; evidence: Evidence }
  | { kind: 'error'; code: 'not-found' | 'version-not-found' | 'registry-unavailable'; message: string; version?: string };


export async function collectNpm(target: Target, ctx: RunContext): Promise<Collected> {
  const registry = ctx.npm.registryFor(target.name);
  const packument = await fetchPackument(ctx.http, registry, target.name);
  if (packument.status === 'not-found') {
    return { kind: 'error', code: 'not-found', message: `${target.name} was not found in the npm registry` };
  }
  if (packument.status === 'unavailable') {
    return { kind: 'error', code: 'registry-unavailable', message: `the npm registry could not answer for ${target.name}: ${packument.reason}` };
  }
  const resolved = resolveNpmVersion(packument.packument, target.spec);
  if (!resolved.ok) {
    const nearest = resolved.nearest.length > 0 ? ` (nearest: ${resolved.nearest.join(', ')})` : '';
    return { kind: 'error', code: 'version-not-found', message: `${target.name}: ${resolved.reason}${nearest}` };
  }
  const version = resolved.version;
  const facts = registryFacts(packument.packument, version);

  const dependenciesResult: Promise<Sources['dependencies']> = ctx.skipDependencies
    ? Promise.resolve({ status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' })
    : resolveDependencies(ctx.http, ctx.npm, facts.dependencyRanges);
  const attestationsResult: Promise<Sources['attestations']> = facts.attestations
    ? fetchAttestations(ctx.http, registry, facts.name, version)
    : Promise.resolve({ status: 'ok' as const, facts: NO_PROVENANCE });
  const [tarball, downloads, attestations, dependencies, vulnerabilities, github] = await Promise.all([
    facts.tarballUrl
      ? fetchTarballFacts(ctx.http, facts.tarballUrl, { integrity: facts.integrity })
      : Promise.resolve({ status: 'unavailable' as const, reason: 'the registry gave no tarball URL' }),
    ctx.prefetchedDownloads?.(target.name) ?? fetchDownloads(ctx.http, ctx.endpoints.npmApi, target.name),
    attestationsResult,
    dependenciesResult,
    // One OSV batch for the target and every dependency that resolved (or the audit's shared batch).
    vulnerabilitiesFor(ctx, 'npm', { name: facts.name, version }, dependenciesResult),
    githubSourceFor(ctx, { ecosystem: 'npm', name: facts.name, repository: facts.repository }, attestationsResult),
  ]);

  const sources: Sources = {
    registry: { status: 'ok', facts },
    tarball,
    downloads,
    dependencies,
    vulnerabilities,
    attestations,
    pypi: { status: 'not-applicable', reason: 'not a PyPI project' },
    github,
  };
  return {
    kind: 'evidence',
    evidence: evidenceOf(
      ctx,
      {
        input: target.input,
        ecosystem: 'npm',
        name: facts.name,
        version,
        purl: purlOf('npm', target.name, version),
        repository: facts.repository?.url ?? facts.repository?.raw ?? null,
      },
      sources,
    ),
  };
}

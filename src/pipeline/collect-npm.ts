/**
 * npm: resolve the target's version from its packument, then collect the facts every
 * check needs in parallel: the tarball, download counts, provenance attestations, the
 * direct dependencies (resolved as npm would install them today) and, for the target and
 * those dependencies, OSV advisories. Failures become data.
 */
import type { Evidence, Sources } from '../evidence/schema.js';
import { EVIDENCE_SCHEMA_VERSION } from '../evidence/schema.js';
import { fetchAttestations, NO_PROVENANCE } from '../sources/npm-attestations.js';
import { resolveDependencies } from '../sources/npm-dependencies.js';
import { fetchDownloads } from '../sources/npm-downloads.js';
import { registryFacts } from '../sources/npm-facts.js';
import { fetchPackument } from '../sources/npm-registry.js';
import { fetchVulnerabilities } from '../sources/osv.js';
import { fetchTarballFacts } from '../sources/tarball.js';
import { purlOf } from '../target/purl.js';
import { resolveNpmVersion } from '../target/resolve-npm.js';
import type { Target } from '../target/types.js';
import { VERSION } from '../version.js';
import type { RunContext } from './context.js';

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

  const dependenciesResult = resolveDependencies(ctx.http, ctx.npm, facts.dependencyRanges);
  const [tarball, downloads, attestations, dependencies, vulnerabilities] = await Promise.all([
    facts.tarballUrl
      ? fetchTarballFacts(ctx.http, facts.tarballUrl, { integrity: facts.integrity })
      : Promise.resolve({ status: 'unavailable' as const, reason: 'the registry gave no tarball URL' }),
    fetchDownloads(ctx.http, ctx.endpoints.npmApi, target.name),
    facts.attestations
      ? fetchAttestations(ctx.http, registry, facts.name, version)
      : Promise.resolve({ status: 'ok' as const, facts: NO_PROVENANCE }),
    dependenciesResult,
    // One OSV batch for the target and every dependency that resolved.
    dependenciesResult.then((deps) =>
      fetchVulnerabilities(ctx.http, ctx.endpoints.osvApi, {
        ecosystem: 'npm',
        target: { name: facts.name, version },
        dependencies:
          deps.status === 'ok'
            ? deps.facts.dependencies.flatMap((d) => (d.version === null ? [] : [{ name: d.name, version: d.version }]))
            : null,
      }),
    ),
  ]);

  const sources: Sources = {
    registry: { status: 'ok', facts },
    tarball,
    downloads,
    dependencies,
    vulnerabilities,
    attestations,
    pypi: { status: 'not-applicable', reason: 'not a PyPI project' },
    github: { status: 'not-applicable', reason: 'GitHub facts are not collected yet' },
  };
  return {
    kind: 'evidence',
    evidence: {
      evidenceVersion: EVIDENCE_SCHEMA_VERSION,
      capturedAt: ctx.now.toISOString(),
      tool: { name: 'nerq', version: VERSION },
      target: {
        input: target.input,
        ecosystem: 'npm',
        name: facts.name,
        version,
        purl: purlOf('npm', target.name, version),
        repository: facts.repository?.url ?? facts.repository?.raw ?? null,
      },
      categoryOverride: ctx.category ?? null,
      sources,
    },
  };
}

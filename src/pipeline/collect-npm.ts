/**
 * npm: resolve the target's version from its packument, then collect the facts every
 * check needs (registry, tarball, downloads) in parallel. Failures become data.
 */
import type { Evidence, Sources } from '../evidence/schema.js';
import { EVIDENCE_SCHEMA_VERSION } from '../evidence/schema.js';
import { fetchDownloads } from '../sources/npm-downloads.js';
import { registryFacts } from '../sources/npm-facts.js';
import { fetchPackument } from '../sources/npm-registry.js';
import { fetchTarballFacts } from '../sources/tarball.js';
import { purlOf } from '../target/purl.js';
import { resolveNpmVersion } from '../target/resolve-npm.js';
import type { Target } from '../target/types.js';
import { VERSION } from '../version.js';
import type { RunContext } from './context.js';

export type Collected =
  | { kind: 'evidence'; evidence: Evidence }
  | { kind: 'error'; code: 'not-found' | 'version-not-found' | 'registry-unavailable'; message: string; version?: string };

export const NO_VULNERABILITY_SOURCE = 'no vulnerability source yet';

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

  const [tarball, downloads] = await Promise.all([
    facts.tarballUrl
      ? fetchTarballFacts(ctx.http, facts.tarballUrl, { integrity: facts.integrity })
      : Promise.resolve({ status: 'unavailable' as const, reason: 'the registry gave no tarball URL' }),
    fetchDownloads(ctx.http, ctx.endpoints.npmApi, target.name),
  ]);

  const sources: Sources = {
    registry: { status: 'ok', facts },
    tarball,
    downloads,
    vulnerabilities: { status: 'unavailable', reason: NO_VULNERABILITY_SOURCE },
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

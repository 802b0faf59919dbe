/**
 * The `vulnerabilities` source for a package: from the audit's shared batch when it was prefetched
 * there, else one OSV batch for the package and its resolved direct dependencies.
 */
import type { Sources } from '../evidence/schema.js';
import type { OsvEcosystem } from '../sources/osv-advisory.js';
import { fetchVulnerabilities } from '../sources/osv.js';
import type { RunContext } from './context.js';

export async function vulnerabilitiesFor(
  ctx: RunContext,
  ecosystem: OsvEcosystem,
  target: { name: string; version: string },
  dependencies: Promise<Sources['dependencies']>,
): Promise<Sources['vulnerabilities']> {
  const deps = await dependencies;
  if (deps.status === 'not-applicable') {
    const prefetched = ctx.prefetchedVulnerabilities?.(ecosystem, target.name, target.version);
    if (prefetched !== undefined) return prefetched;
  }
  return fetchVulnerabilities(ctx.http, ctx.endpoints.osvApi, {
    ecosystem,
    target,
    dependencies:
      deps.status === 'ok'
        ? deps.facts.dependencies.flatMap((d) => (d.version === null ? [] : [{ name: d.name, version: d.version }]))
        : null,
  });
}

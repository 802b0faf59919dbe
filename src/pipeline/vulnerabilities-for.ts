/**
 * The `vulnerabilities` source for a package: from the audit's shared batch when it was prefetched
 * there, else two OSV batches merged — the package's own, asked at once, and its resolved direct
 * dependencies', asked when they resolve. A dependency that stalls or fails therefore never holds
 * the package's own advisories back: only the dependencies' advisories are then unknown.
 */
import type { Sources } from '../evidence/schema.js';
import type { OsvEcosystem } from '../sources/osv/advisory.js';
import type { PackageOsvEcosystem } from '../ecosystems/types.js';
import { osvEcosystemOfDependency } from '../ecosystems/osv-ecosystems.js';
import { mergeVulnerabilities } from '../sources/osv/merge.js';
import { fetchDependencyAdvisories, fetchVulnerabilities, osvRecordReader, type DependencyAdvisoriesResult, type OsvRecordReader } from '../sources/osv/query.js';
import type { RunContext } from './context.js';

export async function vulnerabilitiesFor(
  ctx: RunContext,
  ecosystem: PackageOsvEcosystem,
  target: { name: string; version: string },
  dependencies: Promise<Sources['dependencies']>,
): Promise<Sources['vulnerabilities']> {
  if (ctx.prefetchedVulnerabilities !== undefined) {
    // An audit: every dependency is a subject of its own (not-applicable here, at once).
    const deps = await dependencies;
    const prefetched = deps.status === 'not-applicable' ? ctx.prefetchedVulnerabilities(ecosystem, target.name, target.version) : undefined;
    if (prefetched !== undefined) return prefetched;
  }
  // Both queries read each advisory record once between them.
  const read = osvRecordReader(ctx.http, ctx.endpoints.osvApi);
  const own = fetchVulnerabilities(ctx.http, ctx.endpoints.osvApi, { ecosystem, target, dependencies: null }, read);
  const theirs = dependencies.then((deps) => dependencyAdvisories(ctx, ecosystem, deps, read));
  const [ownResult, theirResult] = await Promise.all([own, theirs]);
  return mergeVulnerabilities(ownResult, theirResult);
}

/** The advisories of the dependencies that resolved, or why they are unknown. */
async function dependencyAdvisories(
  ctx: RunContext,
  ecosystem: OsvEcosystem,
  deps: Sources['dependencies'],
  read: OsvRecordReader,
): Promise<DependencyAdvisoriesResult> {
  if (deps.status === 'unavailable') return { status: 'unavailable', reason: `the dependencies could not be resolved: ${deps.reason}`, code: 'depends-on-source' };
  if (deps.status === 'not-applicable') return { status: 'unavailable', reason: `the dependencies were not resolved: ${deps.reason}`, code: 'depends-on-source' };
  const resolved = deps.facts.dependencies.flatMap((d) => (d.version === null ? [] : [{ name: d.name, version: d.version }]));
  return fetchDependencyAdvisories(ctx.http, ctx.endpoints.osvApi, ecosystem, resolved, read);
}

/**
 * The `vulnerabilities` source for a repository target: its dependency set (the pins of its
 * lockfiles) asked of OSV through the same dependency batch a package's direct dependencies
 * use — one batch per ecosystem (npm, PyPI, Go modules, crates), each advisory record read once. The repository has no version
 * of its own to ask about (`ownAsked: false`). The versions asked are the lockfiles' pins and the
 * direct ranges resolved against the registry (repository-ranges.ts); a dependency with no
 * version is not asked. An OSV failure makes the source unavailable, never clean.
 */
export async function repositoryVulnerabilities(ctx: RunContext, deps: Sources['dependencies']): Promise<Sources['vulnerabilities']> {
  if (deps.status === 'not-applicable') return deps;
  if (deps.status === 'unavailable') return { status: 'unavailable', reason: `the dependencies could not be read: ${deps.reason}`, code: 'depends-on-source' };
  const read = osvRecordReader(ctx.http, ctx.endpoints.osvApi);
  const byEcosystem = new Map<OsvEcosystem, { name: string; version: string }[]>();
  const asked = new Set<string>();
  for (const d of deps.facts.dependencies) {
    // Two manifests' ranges may resolve to one version: it is asked once.
    const key = `${d.ecosystem ?? 'npm'}\u0000${d.name}\u0000${d.version ?? ''}`;
    if (d.version === null || asked.has(key)) continue;
    asked.add(key);
    const ecosystem = osvEcosystemOfDependency(d.ecosystem ?? 'npm');
    byEcosystem.set(ecosystem, [...(byEcosystem.get(ecosystem) ?? []), { name: d.name, version: d.version }]);
  }
  const results = await Promise.all([...byEcosystem].map(([ecosystem, packages]) => fetchDependencyAdvisories(ctx.http, ctx.endpoints.osvApi, ecosystem, packages, read)));
  const failed = results.find((r) => r.status === 'unavailable');
  if (failed !== undefined && failed.status === 'unavailable') return { status: 'unavailable', reason: failed.reason, code: failed.code };
  const ok = results.flatMap((r) => (r.status === 'ok' ? [r] : []));
  return {
    status: 'ok',
    facts: {
      advisories: [],
      dependencyAdvisories: ok.flatMap((r) => r.advisories),
      dependenciesQueried: ok.reduce((sum, r) => sum + r.queried, 0),
      dependencyAdvisoriesReason: null,
      ownAsked: false,
    },
  };
}

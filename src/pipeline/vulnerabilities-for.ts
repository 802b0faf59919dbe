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
import type { SourceUnavailableCode } from '../model/source-codes.js';

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
 * version is not asked. A package OSV cannot answer for (its ecosystem's batch, or that batch's
 * request, failed) is unknown alone, listed in `dependencyAdvisoriesUnknown`: the other packages
 * keep their answers, and no check calls the set clean. When OSV answers for none, the source is
 * unavailable, never clean.
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
  // Each package OSV cannot answer for is unknown alone (its ecosystem's batch, or that batch's request, failed): the others keep their answers.
  const asks = [...byEcosystem];
  const results = await Promise.all(asks.map(([ecosystem, packages]) => fetchDependencyAdvisories(ctx.http, ctx.endpoints.osvApi, ecosystem, packages, read, true)));
  const unknown = new Map<string, { ecosystem: string; packages: number; reason: string; code: SourceUnavailableCode }>();
  const addUnknown = (ecosystem: string, reason: string, code: SourceUnavailableCode, count: number) => {
    const key = `${ecosystem}\u0000${reason}`;
    const entry = unknown.get(key) ?? { ecosystem, packages: 0, reason, code };
    entry.packages += count;
    unknown.set(key, entry);
  };
  results.forEach((r, i) => {
    const [ecosystem, packages] = asks[i] ?? ['npm', []];
    if (r.status === 'unavailable') addUnknown(ecosystem, r.reason, r.code, new Set(packages.map((p) => `${p.name}\u0000${p.version}`)).size);
    else for (const u of r.unknown ?? []) addUnknown(ecosystem, u.reason, u.code, 1);
  });
  const ok = results.flatMap((r) => (r.status === 'ok' ? [r] : []));
  const answered = ok.reduce((sum, r) => sum + r.queried, 0);
  // OSV answered for none of them: nothing is known.
  const first = [...unknown.values()][0];
  if (first !== undefined && answered === 0) return { status: 'unavailable', reason: first.reason, code: first.code };
  return {
    status: 'ok',
    facts: {
      advisories: [],
      dependencyAdvisories: ok.flatMap((r) => r.advisories),
      dependenciesQueried: answered,
      dependencyAdvisoriesReason: null,
      ownAsked: false,
      ...(unknown.size === 0 ? {} : { dependencyAdvisoriesUnknown: [...unknown.values()].map(({ ecosystem, packages, reason }) => ({ ecosystem, packages, reason })) }),
    },
  };
}

/**
 * A release the registry no longer serves may be gone because it was malicious: npm removes a
 * version found malicious (the lockfile that pinned it still names it), PyPI removes the whole
 * project, and npm sometimes the whole package. Before such a target is reported as not found,
 * OSV is asked:
 * - a pinned version: about that exact version (in an audit, the audit's batch answers);
 * - a range, a tag or no version, when the package itself is gone (not just a version): about the
 *   package, with no version — one `/v1/query` — and only a malicious-package record that affects
 *   every version (open from 0, docs/security.md) counts.
 * When such a record answers, the target is evaluated on it alone — `malicious-package` scores 0
 * and its cap makes the verdict `NO — DO NOT USE` (exit 1) — and every other source says why it
 * is unknown (docs/scoring.md §5). Anything else (OSV unavailable, no such record, a record with
 * a fix or a list of versions) leaves the target not evaluated, as before.
 */
import type { Evidence, Sources } from '../evidence/schema.js';
import type { Collected } from '../ecosystems/adapter.js';
import { isPackageEcosystem, packageRulesOf, packageRulesOfOsv, registrySources } from '../ecosystems/rules.js';
import { affectsEveryVersion, everyVersionAdvisory, isMalicious, sortAdvisories } from '../sources/osv/advisory.js';
import type { PackageOsvEcosystem } from '../ecosystems/types.js';
import { loadCvssCalculator } from '../sources/osv/cvss.js';
import { fetchPackageRecords } from '../sources/osv/query.js';
import { purlOf } from '../target/purl.js';
import type { Target } from '../target/types.js';
import type { RunContext } from './context.js';
import { evidenceOf } from './evidence-of.js';
import { vulnerabilitiesFor } from './vulnerabilities-for.js';

type CollectError = Extract<Collected, { kind: 'error' }>;

/** The version a spec pins exactly (`1.2.3`, `=1.2.3`, `==1.2.3`), read by the ecosystem's own version order; null for a range, a tag or nothing. */
export function pinnedVersion(target: Target): string | null {
  if (!isPackageEcosystem(target.ecosystem)) return null;
  const spec = target.spec?.trim().replace(/^={1,3}\s*/, '');
  if (spec === undefined || spec === '') return null;
  const { compareVersions } = packageRulesOf(target.ecosystem).registry;
  return compareVersions(spec, spec) === 0 ? spec : null;
}

export async function removedButMalicious(target: Target, error: CollectError, ctx: RunContext): Promise<Evidence | null> {
  if (error.code !== 'not-found' && error.code !== 'version-not-found') return null;
  if (!isPackageEcosystem(target.ecosystem)) return null;
  const version = pinnedVersion(target);
  // A range, a tag or no version: asked about only when the package itself is gone.
  if (version === null && error.code !== 'not-found') return null;
  const osv = packageRulesOf(target.ecosystem).registry.osvEcosystem;
  const gone = `${error.message} (the registry no longer serves it)`;
  const vulnerabilities =
    version === null
      ? await everyVersionMalicious(ctx, osv, target.name)
      : await vulnerabilitiesFor(ctx, osv, { name: target.name, version }, Promise.resolve({ status: 'not-applicable', reason: gone }));
  if (vulnerabilities.status !== 'ok' || !vulnerabilities.facts.advisories.some((a) => a.malicious && a.affectsResolved)) return null;
  const unknown = { status: 'unavailable' as const, reason: gone, code: 'not-found' as const };
  const registry = registrySources(target.ecosystem, unknown);
  const sources: Sources = {
    registry: registry.registry,
    tarball: registry.tarball,
    pypi: registry.pypi,
    downloads: unknown,
    attestations: unknown,
    dependencies: { status: 'not-applicable', reason: gone },
    vulnerabilities,
    github: { status: 'not-applicable', reason: 'the registry no longer names a repository for it' },
  };
  const purl = version === null ? purlOf(target.ecosystem, target.name) : purlOf(target.ecosystem, target.name, version);
  return evidenceOf(ctx, { input: target.input, ecosystem: target.ecosystem, name: target.name, version, purl, repository: null }, sources);
}

/**
 * The package's malicious-package records that affect every version, asked of OSV by name with no
 * version (one request); the `vulnerabilities` source they make, matched against no version.
 */
async function everyVersionMalicious(ctx: RunContext, osv: PackageOsvEcosystem, name: string): Promise<Sources['vulnerabilities']> {
  const canonical = packageRulesOfOsv(osv).canonicalName(name);
  const answer = await fetchPackageRecords(ctx.http, ctx.endpoints.osvApi, osv, canonical);
  if (answer.status !== 'ok') return answer;
  if (answer.records.length > 0) await loadCvssCalculator();
  const advisories = answer.records.filter((r) => isMalicious(r) && affectsEveryVersion(r, osv, canonical)).map((r) => everyVersionAdvisory(r, osv, canonical));
  return { status: 'ok', facts: { advisories: sortAdvisories(advisories), dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null, versionless: true } };
}

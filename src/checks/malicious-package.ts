/**
 * malicious-package: a known-malicious record (an OSV `MAL-` advisory or one from the
 * malicious-packages database, decided upstream by id and source, never by summary words)
 * for the resolved version, or a direct dependency that is malicious or a registry
 * security-holding placeholder. Either one scores 0 and sets the verdict to "do not use".
 * A repository target (its dependency set from its lockfiles, docs/scoring.md §9) has no version
 * of its own: the check is about every dependency its lockfiles pin, transitive ones included,
 * and is unknown — never clean — when some of them could not be checked: where no lockfile pins
 * them, only the direct dependencies resolved from ranges are checked (a malicious one still
 * scores 0), and the transitive ones are unknown.
 */
import type { AdvisoryFacts } from '../evidence/schema.js';
import type { CapRequest, EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { osvEcosystemOfDependency, type DependencyEcosystem } from '../ecosystems/osv-ecosystems.js';
import { maliciousAdvisories } from './lib/advisories.js';
import { rangeResolvedOf } from './lib/range-resolved.js';
import { unevaluatedOf } from './lib/unevaluated.js';
import { plainReason } from '../util/plain-reason.js';

/** A direct dependency judged malicious, and why. */
interface MaliciousDependency {
  name: string;
  version: string | null;
  placeholder: boolean;
  ids: string[];
  /** A repository's dependency no lockfile pins: the range its version was resolved from. */
  fromRange?: string;
  /** `crates.io: ` when the repository's set spans several ecosystems (OSV's name of the dependency's); '' otherwise. */
  prefix: string;
}

/**
 * Placeholders (dependencies facts) and malicious advisories (OSV), one entry per dependency: per
 * ecosystem and name where both say their ecosystem (a repository's set may hold a crate and an
 * npm package of one name); a package's direct dependencies, which name none, are its own ecosystem's.
 */
function maliciousDependencies(
  declared: readonly { name: string; range: string; version: string | null; securityHolding: boolean; resolvedFromRange?: boolean | undefined; ecosystem?: DependencyEcosystem | undefined }[],
  advisories: readonly AdvisoryFacts[],
): MaliciousDependency[] {
  const found = new Map<string, MaliciousDependency>();
  const sameEcosystem = (a: DependencyEcosystem | undefined, b: DependencyEcosystem | undefined) => a === undefined || b === undefined || a === b;
  const rangeOf = (name: string, version: string | null, ecosystem: DependencyEcosystem | undefined): { fromRange?: string } => {
    const dep = declared.find((d) => d.name === name && d.version === version && d.resolvedFromRange === true && sameEcosystem(d.ecosystem, ecosystem));
    return dep === undefined ? {} : { fromRange: dep.range };
  };
  const keyOf = (ecosystem: string | undefined, name: string) => `${ecosystem ?? ''}\u0000${name}`;
  const several = new Set(declared.map((d) => d.ecosystem ?? 'npm')).size > 1;
  const prefixOf = (ecosystem: DependencyEcosystem | undefined) => (several && ecosystem !== undefined ? `${osvEcosystemOfDependency(ecosystem)}: ` : '');
  for (const dep of declared) {
    if (dep.securityHolding) found.set(keyOf(dep.ecosystem, dep.name), { name: dep.name, version: dep.version, placeholder: true, ids: [], prefix: prefixOf(dep.ecosystem), ...rangeOf(dep.name, dep.version, dep.ecosystem) });
  }
  for (const advisory of advisories) {
    // A placeholder filed without an ecosystem is the same dependency as an advisory filed with one.
    const key = found.has(keyOf(advisory.ecosystem, advisory.package)) ? keyOf(advisory.ecosystem, advisory.package) : found.has(keyOf(undefined, advisory.package)) ? keyOf(undefined, advisory.package) : keyOf(advisory.ecosystem, advisory.package);
    const entry = found.get(key) ?? { name: advisory.package, version: advisory.version, placeholder: false, ids: [], prefix: prefixOf(advisory.ecosystem), ...rangeOf(advisory.package, advisory.version, advisory.ecosystem) };
    entry.ids.push(advisory.id);
    found.set(key, entry);
  }
  return [...found.values()];
}

/** "dep-a@1.0.0 (MAL-2025-1)", "dep-b@0.0.1-security (security-holding placeholder)", "dep-c@2.0.0 (resolved from range ^2.0.0, direct only, MAL-2025-2)". */
function describeDependency(dep: MaliciousDependency): string {
  const why = [...(dep.fromRange === undefined ? [] : [`resolved from range ${dep.fromRange}, direct only`]), ...(dep.placeholder ? ['security-holding placeholder'] : []), ...dep.ids];
  return `${dep.prefix}${dep.version === null ? dep.name : `${dep.name}@${dep.version}`} (${why.join(', ')})`;
}

export default defineCheck({
  id: 'malicious-package',
  dimension: 'security',
  weight: 5,
  needs: ['vulnerabilities'],
  optional: ['dependencies', 'release'],
  guardsDanger: true,
  title: 'Not known malicious',
  description:
    'Looks for a known-malicious record (an OSV `MAL-` advisory or the malicious-packages database, in the npm or PyPI ecosystem) for the resolved version, and for its direct dependencies (also, for npm, a dependency the registry replaced with a security-holding placeholder). ' +
    'Either one scores 0, caps the overall score at 9.9 and sets the verdict to "do not use"; otherwise 100 (for a repository target — its npm, PyPI, Go, crates.io and Maven pins — unknown when its dependency set is partial: no lockfile (a Cargo.toml without Cargo.lock, a Gradle version catalog or a pom.xml too), manifests of an ecosystem nerq does not evaluate such as a Gemfile, or dependencies OSV could not answer for, such as those of one ecosystem whose batch failed).',
  messages: {
    malicious: 'Known malicious package: {ids}',
    'malicious-dependency': 'Malicious direct dependency: {details}',
    clean: 'No known-malicious record for this package or its direct dependencies',
    'clean-package-only': 'No known-malicious record for this package; its direct dependencies could not all be checked',
    'malicious-locked-dependency': "Malicious dependency in the repository's lockfiles: {details}",
    'malicious-resolved-dependency': "Malicious dependency among the repository's dependencies (lockfile pins, and direct ranges resolved today where no lockfile pins them): {details}",
    'clean-repository': "No known-malicious record among the {pinned} dependencies the repository's lockfiles pin",
    'no-dependencies': 'The repository declares no dependencies',
    'repository-unchecked': "Not all of the repository's dependencies could be checked (no lockfile pins them): not known to be clean",
    'repository-osv-partial': 'Not known to be clean: OSV could not answer for {osvUnknownCount} of the repository\'s dependencies ({osvUnknownList}); no known-malicious record among the {answered} it answered for',
    'repository-unevaluated': "Not known to be clean: nerq does not evaluate the {unevaluatedList} dependencies; dependencies checked beside them: {evaluatedCount}, none known malicious",
    'repository-direct-only':
      'No known-malicious record among the {pinned} dependencies checked, {rangeResolved} of them resolved from ranges, direct only; without a lockfile for {rangeFiles} their transitive dependencies are unknown: not known to be clean',
  },
  evaluate: ({ vulnerabilities, dependencies, release }) => {
    const own = maliciousAdvisories(vulnerabilities.advisories);
    const depAdvisories = vulnerabilities.dependencyAdvisories === null ? [] : maliciousAdvisories(vulnerabilities.dependencyAdvisories);
    const deps = maliciousDependencies(dependencies?.dependencies ?? [], depAdvisories);
    const noDependencies = release?.dependencies === 0 || dependencies?.dependencies.length === 0;
    // Checked only when every direct dependency resolved and was queried.
    const dependenciesChecked =
      noDependencies ||
      (dependencies !== undefined &&
        vulnerabilities.dependencyAdvisories !== null &&
        (vulnerabilities.dependencyAdvisoriesUnknown ?? []).length === 0 &&
        dependencies.dependencies.every((d) => d.version !== null));
    const ids = own.map((a) => a.id);
    const details = deps.map(describeDependency);
    const data: Record<string, EvidenceValue> = {
      ids,
      dependencies: deps.map((d) => d.name),
      dependencyIds: deps.flatMap((d) => d.ids),
      placeholders: deps.filter((d) => d.placeholder).map((d) => d.name),
      details,
      dependenciesChecked,
    };
    if (release !== undefined) data.version = release.version;
    // A repository's dependency set: what its lockfiles pin, transitive ones included.
    const repository = dependencies?.lockfiles !== undefined;
    if (repository) data.pinned = (dependencies?.dependencies ?? []).filter((d) => d.version !== null).length;

    // Some of the set is resolved from ranges (no lockfile pins it): the message says so, not "lockfiles".
    const ranges = dependencies === undefined ? { resolved: 0, files: [] } : rangeResolvedOf(dependencies);
    const rangeResolved = repository && ranges.files.length > 0;
    const caps: CapRequest[] = [];
    if (own.length > 0) {
      caps.push({ id: 'malicious', limit: 9.9, doNotUse: true, reason: `known malicious package: ${ids.join(', ')}`, args: { advisories: ids.join(', ') } });
    }
    if (deps.length > 0) {
      const dependencies = deps.map((d) => d.name).join(', ');
      const what = !repository
        ? 'malicious direct dependency'
        : rangeResolved
          ? "malicious dependency among the repository's dependencies"
          : "malicious dependency in the repository's lockfiles";
      caps.push({ id: 'malicious-dependency', limit: 9.9, doNotUse: true, reason: `${what}: ${details.join('; ')}`, args: { dependencies } });
    }
    if (own.length > 0) return { score: 0, messageId: 'malicious', data, caps };
    if (deps.length > 0) {
      const messageId = !repository ? 'malicious-dependency' : rangeResolved ? 'malicious-resolved-dependency' : 'malicious-locked-dependency';
      return { score: 0, messageId, data, caps };
    }
    if (repository) {
      // Manifests of an ecosystem nerq does not evaluate (Gemfile …): nothing found is not clean.
      const unevaluated = unevaluatedOf(dependencies);
      if (unevaluated !== null) return { score: null, messageId: 'repository-unevaluated', data: { ...data, ...unevaluated } };
      // OSV could not answer for some of the set (one ecosystem's batch failed): what it answered for holds no malicious record, the rest is unknown.
      const osvUnknown = vulnerabilities.dependencyAdvisoriesUnknown ?? [];
      if (osvUnknown.length > 0) {
        const osvUnknownCount = osvUnknown.reduce((sum, u) => sum + u.packages, 0);
        const osvUnknownList = osvUnknown.map((u) => `${u.packages} ${u.ecosystem}: ${plainReason(u.reason)}`).join('; ');
        return { score: null, messageId: 'repository-osv-partial', data: { ...data, osvUnknownCount, osvUnknownList, answered: vulnerabilities.dependenciesQueried } };
      }
      if (dependencies?.dependencies.length === 0) return { score: 100, messageId: 'no-dependencies', data };
      // Every direct range resolved and checked, but no lockfile: the transitive ones are unknown.
      if (dependenciesChecked && ranges.files.length > 0) {
        return { score: null, messageId: 'repository-direct-only', data: { ...data, rangeResolved: ranges.resolved, rangeFiles: ranges.files.join(', ') } };
      }
      return dependenciesChecked ? { score: 100, messageId: 'clean-repository', data } : { score: null, messageId: 'repository-unchecked', data };
    }
    return { score: 100, messageId: dependenciesChecked ? 'clean' : 'clean-package-only', data };
  },
});

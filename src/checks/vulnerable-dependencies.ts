/**
 * vulnerable-dependencies: ordinary advisories on the direct runtime dependencies, each
 * resolved to the version its range installs today — for a repository target, on every
 * dependency its lockfiles pin, each named with its path and fix, development-only ones apart
 * and weighing less; where no lockfile pins them, on the direct dependencies resolved from their
 * ranges (said so: resolved from ranges, direct only). Lowers this check only: a dependency's advisory never caps the target
 * (docs/scoring.md §5); malicious records are malicious-package's.
 */
import type { AdvisoryFacts, DependencyFacts, Severity, VulnerabilityFacts } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { osvEcosystemOfDependency } from '../ecosystems/osv-ecosystems.js';
import { severityLabel, vulnerabilityAdvisories, worstSeverity } from './lib/advisories.js';
import { unevaluatedOf } from './lib/unevaluated.js';
import { rangeResolvedOf, type RangeResolved } from './lib/range-resolved.js';
import { plainReason } from '../util/plain-reason.js';

/** Score by the worst severity found in any direct dependency. */
const SCORE_BY_WORST: Readonly<Record<Severity, number>> = {
  critical: 20,
  high: 40,
  unknown: 40,
  moderate: 70,
  low: 70,
};

/** A repository's development-only dependencies weigh less: the worst of them scores this at most. */
const DEV_SCORE_BY_WORST: Readonly<Record<Severity, number>> = {
  critical: 70,
  high: 80,
  unknown: 80,
  moderate: 90,
  low: 90,
};

type Entry = DependencyFacts['dependencies'][number];

/**
 * The set's entries an advisory was matched against: same ecosystem (where both name one: a Go
 * module, a crate and an npm package may share a name and version), name and version.
 */
function entriesOf(deps: readonly Entry[], advisory: AdvisoryFacts): Entry[] {
  return deps.filter(
    (d) =>
      d.name === advisory.package &&
      (advisory.version === null || d.version === advisory.version) &&
      (d.ecosystem === undefined || advisory.ecosystem === undefined || d.ecosystem === advisory.ecosystem),
  );
}

/** One dependency version of the set, told apart by ecosystem too. */
const versionKey = (a: AdvisoryFacts): string => `${a.ecosystem ?? ''}\u0000${a.package}@${a.version ?? ''}`;

/** Development-only: every entry it matched says so. */
function devOnly(deps: readonly Entry[], advisory: AdvisoryFacts): boolean {
  const matched = entriesOf(deps, advisory);
  return matched.length > 0 && matched.every((d) => d.dev === true);
}

/** Where the versions came from: `resolved from range ^1.2.0, direct only` when no lockfile pins it. */
function rangeNote(matched: readonly Entry[]): string[] {
  const fromRange = matched.find((d) => d.resolvedFromRange === true);
  return fromRange === undefined ? [] : [`resolved from range ${fromRange.range}, direct only`];
}

/** `crates.io: ` before a dependency's label when the set spans several ecosystems; '' otherwise. */
function ecosystemPrefix(deps: readonly Entry[], advisory: AdvisoryFacts): string {
  const ecosystems = new Set(deps.map((d) => d.ecosystem ?? 'npm'));
  return ecosystems.size > 1 && advisory.ecosystem !== undefined ? `${osvEcosystemOfDependency(advisory.ecosystem)}: ` : '';
}

/**
 * `express › path-to-regexp@0.1.7 (GHSA-… fixed in 0.1.12)`: one line per dependency version, with
 * its path and each advisory's fix (`widget@1.4.0 (resolved from range ^1.2.0, direct only, GHSA-…)`).
 */
function repositoryDetails(deps: readonly Entry[], advisories: readonly AdvisoryFacts[]): string[] {
  const byVersion = new Map<string, { label: string; ids: string[] }>();
  for (const advisory of advisories) {
    const key = versionKey(advisory);
    const matched = entriesOf(deps, advisory);
    const path = matched.find((d) => d.path !== undefined)?.path ?? [];
    const entry = byVersion.get(key) ?? { label: `${ecosystemPrefix(deps, advisory)}${[...path, advisory.package].join(' › ')}${advisory.version === null ? '' : `@${advisory.version}`}`, ids: rangeNote(matched) };
    entry.ids.push(advisory.fixed === null ? `${advisory.id} no fix` : `${advisory.id} fixed in ${advisory.fixed}`);
    byVersion.set(key, entry);
  }
  return [...byVersion.values()].map(({ label, ids }) => `${label} (${ids.join(', ')})`);
}

export default defineCheck({
  id: 'vulnerable-dependencies',
  dimension: 'security',
  weight: 2,
  needs: ['vulnerabilities', 'dependencies'],
  title: 'Vulnerable dependencies',
  description:
    'Looks up OSV advisories for each direct runtime dependency at the version its range (npm) or PEP 440 specifier (PyPI) installs today. ' +
    'No dependencies or no advisory scores 100; by the worst severity found, low or moderate 70, high or unknown 40, critical 20. ' +
    'A dependency advisory never caps the overall score; unknown when the dependencies could not be queried, or more than half of them could not be resolved (for a repository target, looked up on every dependency its lockfiles, go.mod, Cargo.lock and gradle.lockfile pin, and where no lockfile pins them — a Cargo.toml without Cargo.lock included, through the crates.io index, and a Gradle version catalog or pom.xml at the versions they declare — on the direct dependencies resolved from their ranges, said so; development-only ones apart and scoring at most critical 70, high or unknown 80, moderate or low 90; with no advisory found, unknown when it also has dependency manifests of an ecosystem nerq does not evaluate, such as a Gemfile, or when OSV could not answer for some of its dependencies — the batch of one ecosystem failing leaves only the packages of that ecosystem unknown, an advisory found in the others still counts), and every Go module counts as runtime: go.mod lists the modules the tests of the main module need beside those its build needs, with no mark between them, and telling a test-only module apart needs the package import graph, which nerq does not build, so no module is made development-only, by its name or otherwise.',
  messages: {
    'no-dependencies': 'No runtime dependencies',
    'not-queried': 'Dependency advisories unknown: the direct dependencies could not be resolved and queried',
    'advisories-unknown': 'Dependency advisories unknown: {reason}',
    clean: 'No known advisories in the {dependenciesQueried} direct dependencies queried',
    'clean-partial':
      'No known advisories in the {dependenciesQueried} of {total} direct dependencies queried; not resolved: {unresolved}',
    vulnerable: 'Advisories in {affected} of {total} direct dependencies, worst {worstLabel}: {details}',
    unpinned: 'Dependency advisories unknown: no lockfile pins the dependencies of {unpinnedFiles}, and {unresolvedCount} of their {total} ranges could not be resolved ({firstReason})',
    'repository-clean': 'No known advisories in the {dependenciesQueried} dependencies the repository pins',
    'repository-clean-ranges':
      'No known advisories in the {dependenciesQueried} dependencies queried, {rangeResolved} of them resolved from ranges, direct only ({rangeFiles}: no lockfile, so their transitive dependencies are unknown); not resolved: {notResolved}',
    'repository-vulnerable': 'Advisories in {affected} runtime dependencies of the {total} {setDescription}, worst {worstLabel}: {details}; development only: {devSummary}',
    'repository-dev-only': 'Advisories only in development dependencies ({devAffected} of {total}), worst {devWorstLabel}: {devSummary}',
    'repository-unevaluated': 'Dependency advisories unknown: nerq does not evaluate the {unevaluatedList} dependencies; dependencies checked beside them: {evaluatedCount}, none with a known advisory',
    'repository-osv-partial': 'Dependency advisories unknown for {osvUnknownCount} dependencies OSV could not answer for ({osvUnknownList}); none of the {dependenciesQueried} it answered for has a known advisory',
  },
  evaluate: ({ vulnerabilities, dependencies }) => {
    const deps = dependencies.dependencies;
    const total = deps.length;
    const unresolved = deps.filter((d) => d.version === null).map((d) => d.name);
    // Manifests of an ecosystem nerq does not evaluate (Gemfile …): no advisory found is not clean.
    const unevaluated = unevaluatedOf(dependencies);
    if (total === 0 && unevaluated !== null) return { score: null, messageId: 'repository-unevaluated', data: { total, dependenciesQueried: 0, ...unevaluated } };
    if (total === 0) {
      const none: Record<string, EvidenceValue> = { total, dependenciesQueried: 0 };
      return { score: 100, messageId: 'no-dependencies', data: none };
    }
    const { dependencyAdvisories, dependenciesQueried, dependencyAdvisoriesReason } = vulnerabilities;
    // The target's advisories are known, its dependencies' are not (OSV failed for them): say why.
    if (dependencyAdvisories === null && dependencyAdvisoriesReason !== null) {
      // In a user's words: the facts keep the reason as OSV's client gave it.
      const unknown: Record<string, EvidenceValue> = { total, unresolved, reason: plainReason(dependencyAdvisoriesReason) };
      return { score: null, messageId: 'advisories-unknown', data: unknown };
    }
    // A repository whose manifests no lockfile pins: ranges only, no version guessed.
    const unpinned = dependencies.unpinned ?? [];
    if (unpinned.length > 0 && unresolved.length * 2 > total) {
      const firstReason = deps.find((d) => d.version === null)?.reason ?? 'not resolved';
      const unknown: Record<string, EvidenceValue> = { total, unresolved, unresolvedCount: unresolved.length, firstReason, unpinned, unpinnedFiles: unpinned.join(', ') };
      return { score: null, messageId: 'unpinned', data: unknown };
    }
    // Most dependencies unresolved: the answer would mostly be a guess.
    if (dependencyAdvisories === null || unresolved.length * 2 > total) {
      const unknown: Record<string, EvidenceValue> = { total, dependenciesQueried, unresolved };
      return { score: null, messageId: 'not-queried', data: unknown };
    }
    const advisories = vulnerabilityAdvisories(dependencyAdvisories);
    if (dependencies.lockfiles !== undefined) {
      return repositoryResult(deps, rangeResolvedOf(dependencies), advisories, { total, dependenciesQueried, unresolved, ...unevaluated, ...osvUnknownOf(vulnerabilities) });
    }
    const worst = worstSeverity(advisories);
    const base: Record<string, EvidenceValue> = { total, dependenciesQueried, unresolved };
    if (worst === null) {
      const messageId = unresolved.length === 0 ? 'clean' : 'clean-partial';
      return { score: 100, messageId, data: { ...base, dependencies: [], ids: [], worst: null } };
    }

    // Group by dependency, in the order the dependencies are declared, then any others.
    const byPackage = new Map<string, { version: string | null; ids: string[] }>();
    for (const dep of deps) if (advisories.some((a) => a.package === dep.name)) byPackage.set(dep.name, { version: dep.version, ids: [] });
    for (const advisory of advisories) {
      const entry = byPackage.get(advisory.package) ?? { version: advisory.version, ids: [] };
      entry.ids.push(advisory.id);
      byPackage.set(advisory.package, entry);
    }
    const details = [...byPackage].map(([name, { version, ids }]) => `${version === null ? name : `${name}@${version}`} (${ids.join(', ')})`);
    const data: Record<string, EvidenceValue> = {
      ...base,
      affected: byPackage.size,
      advisories: advisories.length,
      dependencies: [...byPackage.keys()],
      ids: advisories.map((a) => a.id),
      worst,
      worstLabel: severityLabel(worst),
      details,
    };
    return { score: SCORE_BY_WORST[worst], messageId: 'vulnerable', data };
  },
});

/** A repository's dependencies OSV could not answer for (their ecosystem's batch failed): the evidence the check gives about them; empty when none. */
function osvUnknownOf(vulnerabilities: VulnerabilityFacts): Record<string, EvidenceValue> {
  const unknown = vulnerabilities.dependencyAdvisoriesUnknown ?? [];
  if (unknown.length === 0) return {};
  return {
    osvUnknownCount: unknown.reduce((sum, u) => sum + u.packages, 0),
    osvUnknownEcosystems: [...new Set(unknown.map((u) => u.ecosystem))],
    osvUnknownList: unknown.map((u) => `${u.packages} ${u.ecosystem}: ${plainReason(u.reason)}`).join('; '),
  };
}

/** A repository's dependency set: runtime advisories by path and fix, development-only ones apart and lighter. */
function repositoryResult(deps: readonly Entry[], ranges: RangeResolved, advisories: readonly AdvisoryFacts[], base: Record<string, EvidenceValue>) {
  const runtime = advisories.filter((a) => !devOnly(deps, a));
  const dev = advisories.filter((a) => devOnly(deps, a));
  const worst = worstSeverity(runtime);
  const devWorst = worstSeverity(dev);
  const devDetails = repositoryDetails(deps, dev);
  const data: Record<string, EvidenceValue> = {
    ...base,
    affected: new Set(runtime.map(versionKey)).size,
    ids: runtime.map((a) => a.id),
    details: repositoryDetails(deps, runtime),
    worst,
    worstLabel: worst === null ? null : severityLabel(worst),
    devAffected: new Set(dev.map(versionKey)).size,
    devIds: dev.map((a) => a.id),
    devDetails,
    devWorst,
    devWorstLabel: devWorst === null ? null : severityLabel(devWorst),
    devSummary: devDetails.length === 0 ? 'none' : devDetails.join('; '),
  };
  // Resolved from ranges (no lockfile): direct dependencies only, so a clean answer says so.
  const { resolved: rangeResolved, files: rangeFiles } = ranges;
  const fromRanges = rangeFiles.length > 0;
  data.directOnly = fromRanges;
  data.setDescription = fromRanges ? 'the repository declares (resolved from ranges where no lockfile pins them, direct only)' : 'the repository pins';
  const devScore = devWorst === null ? 100 : DEV_SCORE_BY_WORST[devWorst];
  if (worst !== null) return { score: Math.min(SCORE_BY_WORST[worst], devScore), messageId: 'repository-vulnerable', data };
  if (devWorst !== null) return { score: devScore, messageId: 'repository-dev-only', data };
  // OSV could not answer for some of the set (one ecosystem's batch failed): no advisory found in the rest is not clean.
  if (base.osvUnknownCount !== undefined) return { score: null, messageId: 'repository-osv-partial', data };
  if (base.unevaluatedList !== undefined) return { score: null, messageId: 'repository-unevaluated', data };
  if (!fromRanges) return { score: 100, messageId: 'repository-clean', data };
  const unresolved = base.unresolved as string[];
  const clean: Record<string, EvidenceValue> = {
    ...data,
    rangeResolved,
    rangeFiles: rangeFiles.join(', '),
    notResolved: unresolved.length === 0 ? 'none' : unresolved.join(', '),
  };
  return { score: 100, messageId: 'repository-clean-ranges', data: clean };
}

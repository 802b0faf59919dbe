/**
 * vulnerable-dependencies: ordinary advisories on the direct runtime dependencies, each
 * resolved to the version its range installs today. Lowers this check only: a dependency's
 * advisory never caps the target (docs/scoring.md §5); malicious records are malicious-package's.
 */
import type { Severity } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { severityLabel, vulnerabilityAdvisories, worstSeverity } from './lib/advisories.js';

/** Score by the worst severity found in any direct dependency. */
const SCORE_BY_WORST: Readonly<Record<Severity, number>> = {
  critical: 20,
  high: 40,
  unknown: 40,
  moderate: 70,
  low: 70,
};

export default defineCheck({
  id: 'vulnerable-dependencies',
  dimension: 'security',
  weight: 2,
  needs: ['vulnerabilities', 'dependencies'],
  title: 'Vulnerable dependencies',
  description:
    'Looks up OSV advisories for each direct runtime dependency at the version its range (npm) or PEP 440 specifier (PyPI) installs today. ' +
    'No dependencies or no advisory scores 100; by the worst severity found, low or moderate 70, high or unknown 40, critical 20. ' +
    'A dependency advisory never caps the overall score; unknown when the dependencies could not be queried, or more than half of them could not be resolved.',
  messages: {
    'no-dependencies': 'No runtime dependencies',
    'not-queried': 'Dependency advisories unknown: the direct dependencies could not be resolved and queried',
    'advisories-unknown': 'Dependency advisories unknown: {reason}',
    clean: 'No known advisories in the {dependenciesQueried} direct dependencies queried',
    'clean-partial':
      'No known advisories in the {dependenciesQueried} of {total} direct dependencies queried; not resolved: {unresolved}',
    vulnerable: 'Advisories in {affected} of {total} direct dependencies, worst {worstLabel}: {details}',
  },
  evaluate: ({ vulnerabilities, dependencies }) => {
    const deps = dependencies.dependencies;
    const total = deps.length;
    const unresolved = deps.filter((d) => d.version === null).map((d) => d.name);
    if (total === 0) {
      const none: Record<string, EvidenceValue> = { total, dependenciesQueried: 0 };
      return { score: 100, messageId: 'no-dependencies', data: none };
    }
    const { dependencyAdvisories, dependenciesQueried, dependencyAdvisoriesReason } = vulnerabilities;
    // The target's advisories are known, its dependencies' are not (OSV failed for them): say why.
    if (dependencyAdvisories === null && dependencyAdvisoriesReason !== null) {
      const unknown: Record<string, EvidenceValue> = { total, unresolved, reason: dependencyAdvisoriesReason };
      return { score: null, messageId: 'advisories-unknown', data: unknown };
    }
    // Most dependencies unresolved: the answer would mostly be a guess.
    if (dependencyAdvisories === null || unresolved.length * 2 > total) {
      const unknown: Record<string, EvidenceValue> = { total, dependenciesQueried, unresolved };
      return { score: null, messageId: 'not-queried', data: unknown };
    }
    const advisories = vulnerabilityAdvisories(dependencyAdvisories);
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

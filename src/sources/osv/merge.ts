/**
 * A package's `vulnerabilities` facts from two OSV answers asked apart: its own advisories and its
 * direct dependencies' (pipeline/vulnerabilities-for.ts). Apart, so that dependencies that stall
 * or fail never hold the target's own advisories back: then only the dependency advisories are
 * unknown (null), with the reason why. Pure.
 */
import type { DependencyAdvisoriesResult, VulnerabilitiesResult } from './query.js';

/**
 * `target`: the package queried with no dependencies (`dependencies: null`); `dependencies`: its
 * dependencies' advisories, or why they are unknown. The target's failure is the source's.
 */
export function mergeVulnerabilities(target: VulnerabilitiesResult, dependencies: DependencyAdvisoriesResult): VulnerabilitiesResult {
  if (target.status !== 'ok') return target;
  if (dependencies.status === 'ok') {
    return {
      status: 'ok',
      facts: { ...target.facts, dependencyAdvisories: dependencies.advisories, dependenciesQueried: dependencies.queried, dependencyAdvisoriesReason: null },
    };
  }
  return {
    status: 'ok',
    facts: { ...target.facts, dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: dependencies.reason },
  };
}

/**
 * A repository's dependency set that no lockfile (fully) pins: the files whose direct ranges were
 * resolved against the registry, or that no lockfile covers (docs/scoring.md §9). Their
 * transitive dependencies are unknown, so a clean answer about them is direct-only.
 */
import type { DependencyFacts } from '../../evidence/schema.js';

export interface RangeResolved {
  /** Entries whose version was resolved from their range. */
  resolved: number;
  /** The manifests and requirements files the set was resolved from (no lockfile): empty when every version is a lockfile's pin. */
  files: string[];
}

export function rangeResolvedOf(facts: DependencyFacts): RangeResolved {
  const resolved = facts.dependencies.filter((d) => d.resolvedFromRange === true);
  const files = [...new Set([...(facts.unpinned ?? []), ...resolved.flatMap((d) => (d.file === undefined ? [] : [d.file]))])];
  return { resolved: resolved.length, files };
}

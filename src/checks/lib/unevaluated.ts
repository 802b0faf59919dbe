/**
 * A repository's manifests of ecosystems nerq does not evaluate (Go's `go.mod`, `Cargo.toml` …):
 * their dependencies exist but are not in the dependency set, so a set without advisories is not
 * known to be clean (docs/scoring.md §9). The evidence both dependency checks give about them.
 */
import type { DependencyFacts } from '../../evidence/schema.js';
import type { EvidenceValue } from '../define.js';

/** Null when every manifest's ecosystem is evaluated (or the facts predate the field). */
export function unevaluatedOf(facts: DependencyFacts | undefined): Record<string, EvidenceValue> | null {
  const unevaluated = facts?.unevaluated ?? [];
  if (unevaluated.length === 0) return null;
  const ecosystems = [...new Set(unevaluated.map((u) => u.ecosystem))];
  const list = ecosystems.map((e) => `${e} (${unevaluated.filter((u) => u.ecosystem === e).map((u) => u.file).join(', ')})`).join(', ');
  const queried = (facts?.dependencies ?? []).filter((d) => d.version !== null).length;
  return {
    unevaluatedEcosystems: ecosystems,
    unevaluatedFiles: unevaluated.map((u) => u.file),
    unevaluatedList: list,
    evaluatedCount: queried,
  };
}

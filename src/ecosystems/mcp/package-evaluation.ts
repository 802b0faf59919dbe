/**
 * What an MCP Registry entry's checks read of a package it names (`evaluation` in
 * evidence/mcp-facts.ts), made from the package's own report and evidence. `nerq check` makes it
 * as it evaluates the package (collect.ts); `nerq score` makes it again from the package's saved
 * evidence (app/score.ts), so the entry is scored on what that evidence supports, never on a
 * summary written into the file beside it (docs/security.md).
 */
import type { Evidence, McpPackageFacts } from '../../evidence/schema.js';
import type { Report } from '../../report/schema.js';

type Evaluation = NonNullable<McpPackageFacts['evaluation']>;

/** The package's evaluation as the entry's checks read it; `evidence` null when it could not be evaluated (`report` is then its error report). */
export function packageEvaluation(report: Report, evidence: Evidence | null): Evaluation {
  return {
    score: report.score,
    grade: report.grade,
    verdictCode: report.verdictCode,
    coverage: report.coverage,
    doNotUse: report.verdictCode === 'do-not-use',
    category: report.category?.id ?? null,
    error: report.error?.code ?? null,
    unchecked: uncheckedOf(report),
    provenanceRepository: provenanceRepositoryOf(evidence),
  };
}

/** The repository the release's provenance attestation says built it, when the registry answered with one. */
function provenanceRepositoryOf(evidence: Evidence | null): string | null {
  const attestations = evidence?.sources.attestations;
  return attestations?.status === 'ok' && attestations.facts.provenance ? attestations.facts.sourceRepository : null;
}

/** The package's guarding checks that could not run, as its gate lists them (with or without --allow-incomplete). */
function uncheckedOf(report: Report): string[] {
  return report.gate.reasonDetails.flatMap((r) =>
    (r.code === 'not-checked' || r.code === 'allowed-incomplete') && typeof r.args.title === 'string' && typeof r.args.reason === 'string'
      ? [`${r.args.title}: ${r.args.reason}`]
      : [],
  );
}

/**
 * Whether a report may improve if the target is evaluated again soon, decided from codes, never
 * from a sentence: `nerq serve` keeps such a report for a few seconds only (app/evaluator.ts,
 * docs/serve.md "Under load"). A report is degraded when one of its sources is unavailable for
 * a reason that may heal (`SOURCE_CODE_IS_FINAL` in model/source-codes.ts: a timeout, a host
 * found down, an error status, a rate limit… — not `not-found`, `not-asked` or `too-large`, the
 * service's final word), when the package folded into a repository's report could not be
 * collected (`package-unavailable`), or when a package of an MCP Registry entry has such a
 * report, or an error other than the registry not knowing it.
 */
import { SOURCE_CODE_IS_FINAL } from '../model/source-codes.js';
import type { Report } from '../report/schema.js';

/** Report errors that are the registry's final word (the package or its version does not exist). */
const FINAL_ERRORS: ReadonlySet<string> = new Set(['not-found', 'version-not-found']);

export function degraded(report: Report): boolean {
  return (
    sourcesMayHeal(report) ||
    report.includedPackage?.code === 'package-unavailable' ||
    (report.mcp?.packages.some((p) => p.report !== null && ((p.report.error !== null && !FINAL_ERRORS.has(p.report.error.code)) || sourcesMayHeal(p.report))) ?? false)
  );
}

/** A source is unavailable for a reason that may heal (a source without a code is taken as one). */
function sourcesMayHeal(report: Pick<Report, 'sources'>): boolean {
  return report.sources.some((s) => s.status === 'unavailable' && !SOURCE_CODE_IS_FINAL[s.code ?? 'unclassified']);
}

/**
 * `nerq audit --json`: the AuditReport as one JSON object. Keys come in AuditReportSchema's
 * order, keys outside the contract are dropped, and check evidence (the one free-form record)
 * is written with sorted keys, so equal audits give byte-identical JSON. The report is not
 * validated here (the scoring engine builds it typed, and the tests validate this renderer's
 * output against the schema): see contract-order.ts.
 *
 * The text is made in pieces, one per entry (json-chunks.ts), so the CLI writes it as it comes
 * and never holds a second copy of a thousand-entry report.
 */
import { AuditReportSchema } from '../audit/report-schema.js';
import type { AuditReport } from '../audit/types.js';
import { projectorOf } from './contract-order.js';
import { jsonChunks } from './json-chunks.js';

export interface AuditJsonOptions {
  /** Two-space indented (default) or one compact line. */
  pretty?: boolean;
}

/** The audit report's JSON text in pieces, the last ending with a newline. */
export function* renderAuditJsonChunks(report: AuditReport, options: AuditJsonOptions = {}): Generator<string> {
  const projectReport = projectorOf(AuditReportSchema);
  const projectEntry = projectorOf(AuditReportSchema.shape.entries.element);
  // Everything but the entries projected now (the key order and dropped keys of the report
  // itself); the entries one by one as they are written.
  const head = projectReport({ ...report, entries: [] }) as Record<string, unknown>;
  if (Array.isArray(report.entries) && 'entries' in head) head.entries = report.entries;
  yield* jsonChunks(head, {
    pretty: options.pretty !== false,
    mapElement: (element, key) => (key === 'entries' ? projectEntry(element) : element),
  });
  yield '\n';
}

/** The audit report as JSON text ending with a newline. */
export function renderAuditJson(report: AuditReport, options: AuditJsonOptions = {}): string {
  return [...renderAuditJsonChunks(report, options)].join('');
}

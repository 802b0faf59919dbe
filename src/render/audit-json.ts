/**
 * `nerq audit --json`: the AuditReport as one JSON object. Keys come in AuditReportSchema's
 * order, keys outside the contract are dropped, and check evidence (the one free-form record)
 * is written with sorted keys, so equal audits give byte-identical JSON. The report is not
 * validated here (the scoring engine builds it typed, and the tests validate this renderer's
 * output against the schema): see contract-order.ts.
 */
import { AuditReportSchema } from '../audit/report-schema.js';
import type { AuditReport } from '../audit/types.js';
import { projectorOf } from './contract-order.js';

export interface AuditJsonOptions {
  /** Two-space indented (default) or one compact line. */
  pretty?: boolean;
}

/** The audit report as JSON text ending with a newline. */
export function renderAuditJson(report: AuditReport, options: AuditJsonOptions = {}): string {
  const ordered = projectorOf(AuditReportSchema)(report);
  return `${options.pretty === false ? JSON.stringify(ordered) : JSON.stringify(ordered, null, 2)}\n`;
}

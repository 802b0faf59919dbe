/**
 * `nerq audit --json`: the AuditReport as one JSON object. Parsed through AuditReportSchema
 * first, so keys come in the schema's order and a report that breaks the contract throws
 * here rather than reaching a consumer; check evidence (the one free-form record) is
 * written with sorted keys, so equal audits give byte-identical JSON.
 */
import { AuditReportSchema } from '../audit/report-schema.js';
import type { AuditReport } from '../audit/types.js';

export interface AuditJsonOptions {
  /** Two-space indented (default) or one compact line. */
  pretty?: boolean;
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, record[k] as T]));
}

/** The audit report as JSON text ending with a newline. */
export function renderAuditJson(report: AuditReport, options: AuditJsonOptions = {}): string {
  const parsed = AuditReportSchema.parse(report);
  const ordered = {
    ...parsed,
    entries: parsed.entries.map((entry) => ({
      ...entry,
      report: { ...entry.report, checks: entry.report.checks.map((c) => ({ ...c, evidence: sortedKeys(c.evidence) })) },
    })),
  };
  return `${options.pretty === false ? JSON.stringify(ordered) : JSON.stringify(ordered, null, 2)}\n`;
}

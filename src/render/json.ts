/**
 * The JSON report (DESIGN.md §7). The output is built by parsing the report through
 * `ReportSchema`: zod emits keys in the schema's order and drops anything the contract does
 * not define, and an object that breaks the contract throws here instead of reaching a
 * consumer. The one free-form record, a check's `evidence`, is written with sorted keys, so
 * two equal reports give byte-identical JSON whatever order their objects were built in. Numbers are printed as the scoring
 * engine rounded them; nothing is re-rounded.
 */
import { ReportSchema, type Report } from '../report/schema.js';

export interface JsonOptions {
  /** Two-space indented (one target); false for one compact line (NDJSON, several targets). */
  pretty: boolean;
}

/** One report as JSON text ending with a newline. */
export function renderJson(report: Report, opts: JsonOptions): string {
  const parsed = ReportSchema.parse(report);
  const ordered = { ...parsed, checks: parsed.checks.map((c) => ({ ...c, evidence: sortedKeys(c.evidence) })) };
  return `${opts.pretty ? JSON.stringify(ordered, null, 2) : JSON.stringify(ordered)}\n`;
}

/** A free-form record (check evidence) with its keys in code-unit order. */
function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, record[k] as T]));
}

/** Several reports as NDJSON: one compact object per line. */
export function renderNdjson(reports: readonly Report[]): string {
  return reports.map((r) => renderJson(r, { pretty: false })).join('');
}

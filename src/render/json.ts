/**
 * The JSON report (README.md, JSON). Keys come in `ReportSchema`'s order and anything the
 * contract does not define is dropped; the free-form records (a check's `evidence`, the `args`
 * of reasons and caps) are written with sorted keys, so two equal reports give byte-identical JSON whatever order their
 * objects were built in. The report is not validated here (see contract-order.ts; the tests
 * validate this renderer's output against the schema). Numbers are printed as the scoring
 * engine rounded them; nothing is re-rounded.
 */
import { ReportSchema, type Report } from '../report/schema.js';
import { projectorOf } from './contract-order.js';

export interface JsonOptions {
  /** Two-space indented (one target); false for one compact line (NDJSON, several targets). */
  pretty: boolean;
}

/** One report as JSON text ending with a newline. */
export function renderJson(report: Report, opts: JsonOptions): string {
  const ordered = projectorOf(ReportSchema)(report);
  return `${opts.pretty ? JSON.stringify(ordered, null, 2) : JSON.stringify(ordered)}\n`;
}

/** Several reports as NDJSON: one compact object per line. */
export function renderNdjson(reports: readonly Report[]): string {
  return reports.map((r) => renderJson(r, { pretty: false })).join('');
}

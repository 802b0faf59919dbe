/**
 * History ↔ report: what a report records in the store, and how it compares with the
 * previous evaluation of the same target. Pure.
 */
import type { HistoryRow } from '../store/types.js';
import { roundScore } from '../scoring/grade.js';
import type { Previous, Report } from './schema.js';
import { GRADES } from './schema.js';

/** A score move this large is explained by the dimensions and checks that moved. */
export const EXPLAIN_CHANGE_AT = 5;
const MAX_MOVERS = 5;

/**
 * The same target across versions: `<ecosystem>:<name>`; a repository read in one of its folders
 * has a history of its own, `github:owner/repo/folder` (an MCP entry's folder is the entry's: not in its key).
 */
export function historyKey(target: { ecosystem: string; name: string; folder?: string | undefined }): string {
  return `${target.ecosystem}:${target.name}${target.ecosystem === 'github' && target.folder !== undefined ? `/${target.folder}` : ''}`;
}

/**
 * The history a report belongs to: its target's, or — for a repository with a package folded in
 * (`--include-package`) — a history of its own, `github:o/r+npm:name`, so that neither kind of
 * report is compared with the other (the fold moves the score without the project changing).
 */
export function reportHistoryKey(report: Pick<Report, 'target' | 'includedPackage'>): string {
  const folded = report.includedPackage;
  const base = historyKey(report.target);
  return folded?.included === true && folded.ecosystem !== null && folded.name !== null ? `${base}+${folded.ecosystem}:${folded.name}` : base;
}

export function historyRowOf(report: Report, evidenceHash: string): HistoryRow {
  return {
    target: reportHistoryKey(report),
    ecosystem: report.target.ecosystem,
    name: report.target.name,
    version: report.target.version,
    score: report.score,
    grade: report.grade,
    verdict: report.verdict,
    coverage: report.coverage,
    dimensions: Object.fromEntries(report.dimensions.map((d) => [d.id, d.score])),
    checks: Object.fromEntries(report.checks.map((c) => [c.id, c.score])),
    evidenceHash,
    evaluatedAt: report.evaluatedAt ?? '',
    toolVersion: report.tool.version,
  };
}

const delta = (from: number | null | undefined, to: number | null): number =>
  from === null || from === undefined || to === null ? 0 : Math.abs(to - from);

export function comparePrevious(report: Report, row: HistoryRow): Previous {
  const change = report.score === null || row.score === null ? null : roundScore(report.score - row.score);
  let movers: Previous['movers'] = [];
  if (change !== null && Math.abs(change) >= EXPLAIN_CHANGE_AT) {
    const dimensions = report.dimensions
      .map((d) => ({ kind: 'dimension' as const, id: d.id, from: row.dimensions[d.id] ?? null, to: d.score }))
      .filter((m) => m.from !== m.to);
    const checks = report.checks
      .map((c) => ({ kind: 'check' as const, id: c.id, from: row.checks[c.id] ?? null, to: c.score }))
      .filter((m) => m.from !== m.to);
    const byMove = (a: { from: number | null; to: number | null }, b: { from: number | null; to: number | null }) =>
      delta(b.from, b.to) - delta(a.from, a.to);
    movers = [...dimensions.sort(byMove), ...checks.sort(byMove).slice(0, MAX_MOVERS)];
  }
  const grade = (GRADES as readonly string[]).includes(row.grade ?? '') ? (row.grade as Previous['grade']) : null;
  return { evaluatedAt: row.evaluatedAt, version: row.version, score: row.score, grade, change, movers };
}

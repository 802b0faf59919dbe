/**
 * `nerq compare`: targets side by side (report/side-by-side.ts) as a terminal table, a Markdown
 * table for a pull request ("should we switch from X to Y?") and JSON (the reports in the
 * contract's order plus the side-by-side view). Every string from a report is sanitised
 * (terminal) or escaped / put in a code span (Markdown).
 */
import { DIMENSION_TITLES } from '../scoring/profiles.js';
import { isProvisional } from './alerts.js';
import type { Report } from '../report/schema.js';
import { ReportSchema } from '../report/schema.js';
import type { SideBySide } from '../report/side-by-side.js';
import { projectorOf } from './contract-order.js';
import { escapeMarkdown, markdownCode, sanitizeForTerminal } from './sanitize.js';
import { displayWidth, formatPercent, formatScore, padEnd, padStart, wrapText } from './text.js';

/** Below this coverage a dimension's score is shown with it (the coverage a verdict needs by default: docs/scoring.md, "Coverage below `--min-coverage`"). */
const THIN_DIMENSION = 0.5;
/** The mark on such a score, and the note under the table that explains it. */
const THIN_MARK = '*';
const THIN_NOTE = `${THIN_MARK} scored on less than half of the dimension's checks: the others are unknown`;
const anyThin = (main: readonly Row[]) => main.some((r) => r.cells.some((c) => c.endsWith(THIN_MARK)));

interface Row {
  label: string;
  cells: string[];
}

function rows(reports: readonly Report[], view: SideBySide): { main: Row[]; differences: Row[] } {
  const evaluated = (r: Report) => r.error === null;
  const main: Row[] = [
    // A provisional score (too little evidence, a guarding check not run) says so where it is read.
    { label: 'Score', cells: reports.map((r) => (evaluated(r) ? `${formatScore(r.score)}${isProvisional(r) ? ' (provisional)' : ''}` : '—')) },
    { label: 'Grade', cells: reports.map((r) => r.grade ?? '—') },
    { label: 'Verdict', cells: reports.map((r) => (evaluated(r) ? r.verdict : `not evaluated (${r.error?.code ?? ''})`)) },
    // A dimension scored on less than half its checks says how much was checked: OSV down leaves
    // Security at 100.0 on the checks that ran, which side by side reads as equally safe.
    ...view.dimensions.map((d) => ({
      label: DIMENSION_TITLES[d.id],
      cells: d.scores.map((s, i) => {
        const coverage = reports[i]?.dimensions.find((x) => x.id === d.id)?.coverage ?? null;
        return s !== null && coverage !== null && coverage < THIN_DIMENSION ? `${formatScore(s)}${THIN_MARK}` : formatScore(s);
      }),
    })),
    { label: 'Coverage', cells: reports.map((r) => (evaluated(r) ? formatPercent(r.coverage) : '—')) },
  ];
  const differences = view.differences.map((d) => ({ label: d.title, cells: d.scores.map((s) => formatScore(s)) }));
  return { main, differences };
}

const clean = (s: string): string => sanitizeForTerminal(s).trim();

/**
 * The last line: which target scores highest, and when its score is provisional, that it is not
 * yet a reason to switch (`nerq check` on it says what is missing). `code` writes a target name.
 */
function highestLine(reports: readonly Report[], view: SideBySide, code: (name: string) => string): string {
  if (view.highest === null) return 'No target has a score.';
  const report = reports[view.targets.indexOf(view.highest)];
  const provisional = report !== undefined && isProvisional(report);
  return provisional
    ? `Highest score: ${code(view.highest)}, provisional: its evidence is incomplete (${code(`nerq check ${view.highest}`)} says what is missing)`
    : `Highest score: ${code(view.highest)}`;
}

/** Cut `s` to `width` columns with an ellipsis. */
function fit(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  for (const ch of s) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * The terminal table: a label column and one column per target, each as wide as its widest
 * cell. A target's name is never cut (a comparison must say what it compares): when the names
 * would make the table wider than the terminal, the columns are headed `[1]`, `[2]`… and a key
 * above the table gives each name in full.
 */
export function renderCompareTable(reports: readonly Report[], view: SideBySide, options: { width: number }): string {
  const { main, differences } = rows(reports, view);
  const all = [...main, ...differences];
  const labelWidth = Math.min(28, Math.max(8, ...all.map((r) => displayWidth(clean(r.label)))));
  const columnsFor = (heads: readonly string[]) =>
    heads.map((h, i) => Math.max(displayWidth(h), ...all.map((r) => displayWidth(clean(r.cells[i] ?? '')))));
  const tableWidth = (widths: readonly number[]) => labelWidth + widths.reduce((sum, w) => sum + 2 + w, 0);
  const names = view.targets.map(clean);
  const keyed = view.targets.length > 1 && tableWidth(columnsFor(names)) > options.width;
  const heads = keyed ? names.map((_, i) => `[${i + 1}]`) : names;
  const widths = columnsFor(heads);
  const line = (label: string, cells: readonly string[]) =>
    `${padEnd(fit(clean(label), labelWidth), labelWidth)}  ${cells.map((c, i) => padStart(clean(c), widths[i]!)).join('  ')}`.trimEnd();
  const key = keyed ? [...names.map((name, i) => `${heads[i]} ${name}`), ''] : [];
  const out = [...key, line('', heads), line('', widths.map((w) => '─'.repeat(w)))];
  for (const row of main) out.push(line(row.label, row.cells));
  if (anyThin(main)) out.push(...wrapText(THIN_NOTE, Math.max(40, options.width)));
  if (differences.length > 0) {
    out.push('', 'Where they differ most');
    for (const row of differences) out.push(line(row.label, row.cells));
  }
  // The closing sentence is wrapped to the terminal.
  out.push('', ...wrapText(highestLine(reports, view, clean), Math.max(40, options.width)));
  return `${out.join('\n')}\n`;
}

/** The Markdown table, for a pull-request comment. */
export function renderCompareMarkdown(reports: readonly Report[], view: SideBySide): string {
  const { main, differences } = rows(reports, view);
  // Scores, grades and percentages are nerq's own figures: written as they are.
  const md = (s: string) =>
    /^(\d+(\.\d)?%?( \(provisional\))?|—|[A-F]\+?)$/.test(s) ? s : /^\d+(\.\d)?\*$/.test(s) ? s.replace(THIN_MARK, '\\*') : escapeMarkdown(s).trim();
  const head = `| | ${view.targets.map((t) => markdownCode(t, { inTable: true })).join(' | ')} |`;
  const rule = `| --- | ${view.targets.map(() => '---:').join(' | ')} |`;
  const row = (r: Row) => `| ${md(r.label)} | ${r.cells.map(md).join(' | ')} |`;
  const lines = [`## nerq compare · ${reports.length} targets`, '', head, rule, ...main.map(row)];
  if (anyThin(main)) lines.push('', escapeMarkdown(THIN_NOTE));
  if (differences.length > 0) lines.push('', '**Where they differ most**', '', head.replace('| |', '| Check |'), rule, ...differences.map(row));
  lines.push('', highestLine(reports, view, (name) => markdownCode(name)));
  return `${lines.join('\n')}\n`;
}

/** JSON: `{ reports: [...], comparison: {...} }`, the reports in the contract's order. */
export function renderCompareJson(reports: readonly Report[], view: SideBySide): string {
  const project = projectorOf(ReportSchema);
  return `${JSON.stringify({ reports: reports.map((r) => project(r)), comparison: view }, null, 2)}\n`;
}

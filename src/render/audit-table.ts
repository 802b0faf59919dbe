/**
 * The audit's terminal table: a header naming the inputs and policy, one line per package in
 * the report's order (worst first) — status, name@version, score, grade, verdict and the one
 * reason that matters most, cut to the width — then the packages per grade and the run's
 * PASS / FAIL line with counts. Every report string goes through sanitizeForTerminal; colour
 * only when the caller asks (its own chalk instance, never chalk's global detection).
 */
import { Chalk } from 'chalk';
import type { AuditEntry, AuditReport } from '../audit/types.js';
import {
  gradeCounts,
  mainReason,
  outcomeHint,
  packageLabel,
  runResult,
  SHORT_VERDICT,
  STATUS_WORDS,
  summarySentence,
  type EntryStatus,
  type RunResult,
} from './audit-labels.js';
import { sanitizeForTerminal } from './sanitize.js';
import { displayWidth, formatScore, padEnd, padStart, wrapIndented, wrapText } from './text.js';

export interface AuditTableOptions {
  /** Emit ANSI colours (the caller decides: TTY, NO_COLOR, FORCE_COLOR). */
  color: boolean;
  /** Terminal columns; clamped to 60–200. Default 80. */
  width?: number;
}

const MIN_WIDTH = 60;
const MAX_WIDTH = 200;
const GAP = '  ';
/** The reason column keeps at least this many columns, even when a long name pushes it right. */
const MIN_REASON = 20;
const LABEL_KEEP = 30;

const clean = (s: string): string => sanitizeForTerminal(s).trim();

/** Cut to `width` columns, marking the cut with `…`. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = displayWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

function clampWidth(width: number | undefined): number {
  const w = width === undefined || !Number.isFinite(width) ? 80 : Math.floor(width);
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w));
}

interface Styles {
  bold: (s: string) => string;
  dim: (s: string) => string;
  status: Record<EntryStatus, (s: string) => string>;
  result: Record<RunResult, (s: string) => string>;
}

function styles(color: boolean): Styles {
  const c = new Chalk({ level: color ? 1 : 0 });
  return {
    bold: c.bold,
    dim: c.dim,
    status: { fail: c.red.bold, error: c.yellow, incomplete: c.yellow, ignored: c.gray, pass: c.green },
    result: { FAIL: c.red.bold, INCOMPLETE: c.yellow.bold, PASS: c.green.bold },
  };
}

interface Row {
  status: EntryStatus;
  label: string;
  score: string;
  grade: string;
  verdict: string;
  reason: string;
}

function rowOf(entry: AuditEntry): Row {
  const evaluated = entry.report.error === null && entry.report.score !== null;
  return {
    status: entry.policy.status,
    label: clean(packageLabel(entry)),
    score: evaluated ? formatScore(entry.report.score) : '—',
    grade: entry.report.grade ?? '—',
    verdict: evaluated ? SHORT_VERDICT[entry.report.verdictCode] : '—',
    reason: clean(mainReason(entry)),
  };
}

/** The first line states the result the exit code has; then what was audited against what. */
function headerLines(report: AuditReport, width: number, s: Styles): string[] {
  const inputs = report.inputs.map((i) => clean(i.file)).join(', ') || 'none';
  const policy = report.policySource === null ? 'defaults' : clean(report.policySource);
  const result = runResult(report);
  const parts = [`nerq audit`, result, `${report.summary.total} ${report.summary.total === 1 ? 'package' : 'packages'}`, `inputs: ${inputs}`, `policy: ${policy}`];
  // Broken between the parts, never inside one (a part longer than the line is wrapped alone).
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && displayWidth(last) + 3 + displayWidth(part) <= width) lines[lines.length - 1] = `${last} · ${part}`;
    else lines.push(...wrapText(part, width));
  }
  return lines.map((line, i) => (i === 0 ? s.bold(line.replace(result, s.result[result](result))) : line));
}

/** Display cells of one row (the header is one too). */
type Cells = Omit<Row, 'status'> & { word: string };

function tableLines(report: AuditReport, width: number, s: Styles): string[] {
  const rows = report.entries.map(rowOf);
  const head: Cells = { word: 'STATUS', label: 'PACKAGE', score: 'SCORE', grade: 'GRADE', verdict: 'VERDICT', reason: 'REASON' };
  const cells: Cells[] = rows.map((r) => ({ ...r, word: STATUS_WORDS[r.status] }));
  const widthOf = (pick: (c: Cells) => string) => Math.max(...[head, ...cells].map((c) => displayWidth(pick(c))));
  const statusW = widthOf((c) => c.word);
  const scoreW = widthOf((c) => c.score);
  const gradeW = widthOf((c) => c.grade);
  const verdictW = widthOf((c) => c.verdict);
  const fixed = statusW + scoreW + gradeW + verdictW + GAP.length * 5;
  // Names stay aligned up to LABEL_KEEP columns even on a narrow terminal (the line then overflows);
  // beyond that they get what the other columns and a minimal reason leave, and longer ones overflow.
  const labelW = Math.min(widthOf((c) => c.label), Math.max(LABEL_KEEP, width - fixed - MIN_REASON));

  const line = (c: Cells, paintStatus: (x: string) => string): string => {
    const left = [
      paintStatus(padEnd(c.word, statusW)),
      padEnd(c.label, labelW),
      padStart(c.score, scoreW),
      padEnd(c.grade, gradeW),
      padEnd(c.verdict, verdictW),
    ].join(GAP);
    const used = fixed + Math.max(labelW, displayWidth(c.label));
    return `${left}${GAP}${truncate(c.reason, Math.max(MIN_REASON, width - used))}`.trimEnd();
  };
  return [s.bold(line(head, (x) => x)), ...cells.map((c, i) => line(c, s.status[rows[i]?.status ?? 'pass']))];
}

function summaryLines(report: AuditReport, width: number, s: Styles): string[] {
  const grades = gradeCounts(report);
  const lines: string[] = [];
  if (grades.length > 0) lines.push(...wrapText(`Grades: ${grades.map((g) => `${g.label} ${g.count}`).join(' · ')}`, width));
  const result = runResult(report);
  const text = wrapText(`${result}: ${summarySentence(report)}`, width);
  const first = text[0] ?? '';
  lines.push(s.result[result](result) + first.slice(result.length), ...text.slice(1));
  const hint = outcomeHint(report);
  if (hint !== null) lines.push(...wrapIndented(hint, width, '  ').map((l) => s.dim(l)));
  return lines;
}

/** Each warning once, in plain words (an unavailable source with the checks it left unknown). */
function warningLines(report: AuditReport, width: number, s: Styles): string[] {
  if (report.warnings.length === 0) return [];
  return ['', s.bold('Warnings'), ...report.warnings.flatMap((w) => wrapIndented(clean(w.message), width, '    ', '  · '))];
}

/** The audit as a terminal table, ending with one newline. */
export function renderAuditTable(report: AuditReport, options: AuditTableOptions): string {
  const width = clampWidth(options.width);
  const s = styles(options.color);
  const body = report.entries.length === 0 ? ['No dependencies to audit.'] : tableLines(report, width, s);
  return `${[...headerLines(report, width, s), '', ...body, ...warningLines(report, width, s), '', ...summaryLines(report, width, s)].join('\n')}\n`;
}

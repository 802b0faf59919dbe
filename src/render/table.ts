/**
 * The terminal report: a header with score, grade and verdict, a dimension table
 * (cli-table3), every check grouped by dimension, then caps, unavailable sources,
 * advisories and the gate. The only renderer that knows about colour: it uses its own
 * chalk instance (never chalk's global detection), so the caller decides. Every string
 * from the report goes through sanitizeForTerminal; layout is measured on visible text
 * and fits `width` columns (default 80).
 */
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { statusOf } from '../checks/define.js';
import type { CheckResult, Report } from '../report/schema.js';
import { evidenceText, gateState, groupChecks, previousLines, targetLabel, type GateState } from './labels.js';
import { sanitizeForTerminal } from './sanitize.js';
import {
  displayWidth,
  formatPercent,
  formatScore,
  formatWeight,
  padStart,
  wrapIndented,
  wrapText,
} from './text.js';

export interface TableOptions {
  /** Emit ANSI colours (the caller decides: TTY, NO_COLOR, FORCE_COLOR). */
  color: boolean;
  /** Terminal columns; clamped to 60–120. Default 80. */
  width?: number;
  /** ASCII marks, bars and borders; honoured only when `color` is false. */
  ascii?: boolean;
  /** Also list each check's raw evidence under its message. */
  evidence?: boolean;
}

export const MIN_WIDTH = 60;
export const MAX_WIDTH = 120;
const DEFAULT_WIDTH = 80;
const BAR_CELLS = 10;

interface Glyphs {
  marks: Record<CheckResult['status'], string>;
  full: string;
  empty: string;
  none: string;
  bullet: string;
  atMost: string;
  chars?: Partial<Record<string, string>>;
}

const UNICODE: Glyphs = {
  marks: { pass: '✔', warn: '▲', fail: '✖', unknown: '?' },
  full: '█',
  empty: '░',
  none: '—',
  bullet: '·',
  atMost: '≤',
};

const ASCII: Glyphs = {
  marks: { pass: '+', warn: '!', fail: 'x', unknown: '?' },
  full: '#',
  empty: '-',
  none: '-',
  bullet: '-',
  atMost: '<=',
  chars: {
    top: '-',
    'top-mid': '+',
    'top-left': '+',
    'top-right': '+',
    bottom: '-',
    'bottom-mid': '+',
    'bottom-left': '+',
    'bottom-right': '+',
    left: '|',
    right: '|',
    middle: '|',
  },
};

/** No separator between body rows; the one under the header is added by hand. */
const NO_ROW_LINES = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

type Style = (s: string) => string;

interface Palette {
  bold: Style;
  dim: Style;
  grade: (grade: string | null) => Style;
  verdict: (code: Report['verdictCode']) => Style;
  status: (status: CheckResult['status']) => Style;
  severity: (severity: string) => Style;
  gate: (state: GateState) => Style;
}

function palette(color: boolean): Palette {
  const c: ChalkInstance = new Chalk({ level: color ? 1 : 0 });
  const orange = c.hex('#ff8700');
  const gradeStyles: Record<string, Style> = {
    'A+': c.green.bold,
    A: c.green.bold,
    B: c.greenBright.bold,
    C: c.yellow.bold,
    D: orange.bold,
    E: orange.bold,
    F: c.red.bold,
  };
  const verdictStyles: Record<Report['verdictCode'], Style> = {
    yes: c.green.bold,
    caution: c.yellow.bold,
    no: orange.bold,
    'do-not-use': c.red.bold,
    unknown: c.gray.bold,
  };
  const statusStyles: Record<CheckResult['status'], Style> = {
    pass: c.green,
    warn: c.yellow,
    fail: c.red,
    unknown: c.gray,
  };
  const severityStyles: Record<string, Style> = {
    critical: c.red.bold,
    high: c.red,
    moderate: c.yellow,
    low: c.gray,
  };
  const gateStyles: Record<GateState, Style> = {
    passed: c.green.bold,
    failed: c.red.bold,
    'could not be evaluated': c.yellow.bold,
  };
  return {
    bold: c.bold,
    dim: c.dim,
    grade: (grade) => (grade === null ? c.gray : (gradeStyles[grade] ?? c.bold)),
    verdict: (code) => verdictStyles[code],
    status: (status) => statusStyles[status],
    severity: (severity) => severityStyles[severity] ?? c.magenta,
    gate: (state) => gateStyles[state],
  };
}

/** A piece of a line: plain text for measuring, a style applied after layout. */
interface Segment {
  text: string;
  style?: Style;
}

/**
 * Lay segments out on lines of at most `width` columns, two spaces apart, each line
 * starting with `indent`; a segment too long for a line is word-wrapped on its own lines.
 */
function flow(segments: readonly Segment[], width: number, indent = '', sep = '  '): string[] {
  const lines: string[] = [];
  const base = displayWidth(indent);
  let line = indent;
  let used = base;
  let empty = true;
  const paint = (seg: Segment, text: string) => (seg.style ? seg.style(text) : text);
  for (const seg of segments) {
    const w = displayWidth(seg.text);
    if (!empty && used + sep.length + w <= width) {
      line += sep + paint(seg, seg.text);
      used += sep.length + w;
      continue;
    }
    if (!empty) lines.push(line);
    const pieces = wrapText(seg.text, width - base);
    const last = pieces.pop() ?? '';
    for (const piece of pieces) lines.push(indent + paint(seg, piece));
    line = indent + paint(seg, last);
    used = base + displayWidth(last);
    empty = false;
  }
  if (!empty) lines.push(line);
  return lines;
}

/** Sanitised single-line text from the report. */
const clean = (s: string): string => sanitizeForTerminal(s).trim();

function bar(score: number | null, glyphs: Glyphs): string {
  if (score === null) return 'unknown';
  const filled = Math.min(BAR_CELLS, Math.max(0, Math.round(score / 10)));
  return glyphs.full.repeat(filled) + glyphs.empty.repeat(BAR_CELLS - filled);
}

function headerLines(report: Report, width: number, p: Palette): string[] {
  const segments: Segment[] = [{ text: clean(targetLabel(report.target)), style: p.bold }];
  if (report.error !== null) {
    segments.push({ text: 'not evaluated', style: p.verdict('unknown') });
    return flow(segments, width);
  }
  segments.push(
    { text: `score ${formatScore(report.score)}/100${report.provisional ? ' (provisional)' : ''}` },
    { text: `grade ${report.grade ?? '—'}`, style: p.grade(report.grade) },
    { text: `verdict ${clean(report.verdict)}`, style: p.verdict(report.verdictCode) },
  );
  const lines = flow(segments, width);
  const second: Segment[] = [{ text: `coverage ${formatPercent(report.coverage)}` }];
  if (report.category !== null) {
    const reason = clean(report.category.reason);
    second.push({ text: `category ${clean(report.category.id)}${reason ? ` (${reason})` : ''}` });
  }
  lines.push(...flow(second, width));
  for (const line of previousLines(report)) lines.push(...wrapIndented(clean(line), width, '    ', ''));
  return lines;
}

function bulletLines(items: readonly string[], width: number, glyphs: Glyphs): string[] {
  return items.flatMap((item) => wrapIndented(clean(item), width, '    ', `  ${glyphs.bullet} `));
}

/** Cell text pre-wrapped to the column's inner width (cli-table3 would truncate). */
function cell(text: string, inner: number): string {
  return wrapText(text, inner).join('\n');
}

function dimensionTable(report: Report, width: number, glyphs: Glyphs, p: Palette): string[] {
  const fixed = [BAR_CELLS + 2, 7, 8, 10];
  const borders = fixed.length + 2;
  const titles = report.dimensions.map((d) => clean(d.title));
  const titleWidth = Math.max(displayWidth('Dimension'), ...titles.map(displayWidth)) + 2;
  const first = Math.min(titleWidth, width - borders - fixed.reduce((a, b) => a + b, 0));
  const table = new Table({
    head: ['Dimension', '', 'Score', 'Weight', 'Coverage'].map((h) => p.bold(h)),
    colWidths: [first, ...fixed],
    colAligns: ['left', 'left', 'right', 'right', 'right'],
    wordWrap: false,
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1 },
    chars: { ...glyphs.chars, ...NO_ROW_LINES },
  });
  report.dimensions.forEach((d, i) => {
    const style = p.status(statusOf(d.score));
    table.push([
      cell(titles[i] ?? '', first - 2),
      style(bar(d.score, glyphs)),
      formatScore(d.score, glyphs.none),
      formatWeight(d.weight),
      formatPercent(d.coverage),
    ]);
  });
  const lines = table.toString().split('\n');
  // A rule under the header: the top border with its corners and joints turned into tees.
  const top = lines[0] ?? '';
  const rule = top.replace('┌', '├').replace('┐', '┤').replaceAll('┬', '┼');
  lines.splice(2, 0, rule);
  return lines;
}

function checkLines(report: Report, width: number, glyphs: Glyphs, p: Palette, evidence: boolean): string[] {
  const lines: string[] = [];
  const indent = ' '.repeat(11);
  for (const group of groupChecks(report)) {
    lines.push('', ...wrapText(clean(group.title), width).map((l) => p.bold(l)));
    for (const check of group.checks) {
      const style = p.status(check.status);
      const mark = `  ${glyphs.marks[check.status]} ${padStart(formatScore(check.score, glyphs.none), 5)}  `;
      const title = wrapText(clean(check.title), width - indent.length);
      lines.push(style(mark) + p.bold(title[0] ?? ''), ...title.slice(1).map((l) => indent + p.bold(l)));
      lines.push(...wrapIndented(clean(check.message), width, indent));
      if (evidence) {
        for (const [key, value] of Object.entries(check.evidence)) {
          const text = `${clean(key)}: ${clean(evidenceText(value))}`;
          lines.push(...wrapIndented(text, width, `${indent}  `, indent).map((l) => p.dim(l)));
        }
      }
    }
  }
  return lines;
}

function capLines(report: Report, width: number, glyphs: Glyphs, p: Palette): string[] {
  if (report.caps.length === 0) return [];
  const lines = ['', p.bold('Caps')];
  for (const cap of report.caps) {
    const scope = cap.dimension === null ? '' : ` (${cap.dimension})`;
    const text = `${clean(cap.id)}${scope} ${glyphs.atMost} ${formatScore(cap.limit)}: ${clean(cap.reason)}`;
    lines.push(...wrapIndented(text, width, '    ', '  '));
  }
  return lines;
}

function sourceLines(report: Report, width: number, p: Palette): string[] {
  const down = report.sources.filter((s) => s.status === 'unavailable');
  if (down.length === 0) return [];
  const lines = ['', p.bold('Unavailable sources')];
  for (const source of down) {
    const text = `${clean(source.id)}: ${clean(source.reason ?? 'no reason given')}`;
    lines.push(...wrapIndented(text, width, '    ', '  '));
  }
  return lines;
}

function advisoryLines(report: Report, width: number, p: Palette): string[] {
  if (report.advisories.length === 0) return [];
  const lines = ['', p.bold('Advisories')];
  for (const a of report.advisories) {
    const head: Segment[] = [
      { text: clean(a.id), style: p.bold },
      { text: a.malicious ? 'MALICIOUS' : a.severity, style: p.severity(a.malicious ? 'critical' : a.severity) },
    ];
    if (a.cvss !== null) head.push({ text: `CVSS ${a.cvss}` });
    head.push({ text: a.affectsResolved ? 'affects this version' : 'not this version' });
    if (clean(a.package) !== clean(report.target.name)) head.push({ text: `in ${clean(a.package)}` });
    lines.push(...flow(head, width, '  '));
    lines.push(...wrapIndented(clean(a.summary ?? 'no summary'), width, '    '));
    lines.push(...wrapIndented(`fixed in: ${a.fixed === null ? 'no fix' : clean(a.fixed)}`, width, '    '));
  }
  return lines;
}

function gateLines(report: Report, width: number, glyphs: Glyphs, p: Palette): string[] {
  const { gate } = report;
  const state = gateState(gate);
  const head = flow(
    [
      { text: 'Gate', style: p.bold },
      { text: state, style: p.gate(state) },
      { text: `min score ${String(gate.threshold)} ${glyphs.bullet} min coverage ${formatPercent(gate.minCoverage)}` },
    ],
    width,
  );
  return ['', ...head, ...bulletLines(gate.reasons, width, glyphs)];
}

function errorLines(report: Report, width: number, p: Palette): string[] {
  const error = report.error;
  if (error === null) return [];
  const prefix = `error ${clean(error.code)}:`;
  const lines = wrapIndented(`${prefix} ${clean(error.message)}`, width, '  ', '');
  const first = lines[0] ?? '';
  if (first.startsWith(prefix)) lines[0] = p.verdict('do-not-use')(prefix) + first.slice(prefix.length);
  return lines;
}

/** Trim trailing spaces (outside and inside styled runs) and end with one newline. */
function finish(lines: readonly string[]): string {
  const ansiTail = /((?:\u001b\[[0-9;]*m)*)[ ]+((?:\u001b\[[0-9;]*m)*)$/;
  let tidy = lines.map((l) => {
    let line = l.trimEnd();
    while (ansiTail.test(line)) line = line.replace(ansiTail, '$1$2');
    return line;
  });
  while (tidy.length > 0 && tidy[tidy.length - 1] === '') tidy = tidy.slice(0, -1);
  return `${tidy.join('\n')}\n`;
}

function clampWidth(width: number | undefined): number {
  const w = width === undefined || !Number.isFinite(width) ? DEFAULT_WIDTH : Math.floor(width);
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w));
}

/** The terminal report of one target. */
export function renderTable(report: Report, opts: TableOptions): string {
  const width = clampWidth(opts.width);
  const glyphs = opts.ascii === true && !opts.color ? ASCII : UNICODE;
  const p = palette(opts.color);
  if (report.error !== null) {
    return finish([...headerLines(report, width, p), ...errorLines(report, width, p)]);
  }
  return finish([
    ...headerLines(report, width, p),
    ...bulletLines(report.verdictReasons, width, glyphs),
    '',
    ...dimensionTable(report, width, glyphs, p),
    ...checkLines(report, width, glyphs, p, opts.evidence === true),
    ...capLines(report, width, glyphs, p),
    ...sourceLines(report, width, p),
    ...advisoryLines(report, width, p),
    ...gateLines(report, width, glyphs, p),
  ]);
}

/** Several targets, one report after another, separated by a blank line. */
export function renderTableMany(reports: readonly Report[], opts: TableOptions): string {
  return reports.map((r) => renderTable(r, opts)).join('\n');
}

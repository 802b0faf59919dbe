/**
 * The terminal report: a first line stating the outcome the exit code will have (PASS, FAIL,
 * INCOMPLETE) with the verdict, score (provisional when the gate could not stand on it) and
 * grade; then the alerts in plain words (alerts.ts), a dimension table (cli-table3), every
 * check grouped by dimension (an unknown one on one line, naming the source it lacked), each
 * unavailable source once with the checks it left unknown, the advisories and the gate.
 * `quiet`: the first lines, the alerts and the gate only. The only renderer that knows about
 * colour: it uses its own chalk instance (never chalk's global detection), so the caller
 * decides. Every string from the report goes through sanitizeForTerminal; layout is measured
 * on visible text and fits `width` columns (default 80).
 */
import { advisoryEcosystemLabel } from './advisory-ecosystem.js';
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { statusOf } from '../checks/define.js';
import type { CheckResult, Report } from '../report/schema.js';
import { capitalised } from '../report/sources.js';
import { alertsOf, blindingSource, isProvisional, outcomeOf, sharedUnknowns, unavailableSources, type Alert, type Outcome } from './alerts.js';
import { aiActText } from './ai-act-text.js';
import { includedPackageText } from './included-package-text.js';
import { partsText } from './parts-text.js';
import { comparisonText } from './comparison-text.js';
import { categoryText, commitNote, evidenceText, gateState, groupChecks, originLines, previousLines, targetLabel, type GateState } from './labels.js';
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
  /** Only the first lines, the alerts and the gate (`--quiet`). */
  quiet?: boolean;
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
  outcome: (outcome: Outcome) => Style;
  alert: (level: Alert['level']) => Style;
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
  const outcomeStyles: Record<Outcome, Style> = {
    PASS: c.green.bold,
    FAIL: c.red.bold,
    INCOMPLETE: c.yellow.bold,
    'NOT EVALUATED': c.yellow.bold,
  };
  return {
    bold: c.bold,
    dim: c.dim,
    grade: (grade) => (grade === null ? c.gray : (gradeStyles[grade] ?? c.bold)),
    verdict: (code) => verdictStyles[code],
    status: (status) => statusStyles[status],
    severity: (severity) => severityStyles[severity] ?? c.magenta,
    gate: (state) => gateStyles[state],
    outcome: (outcome) => outcomeStyles[outcome],
    alert: (level) => (level === 'danger' ? c.red.bold : c.yellow),
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

/** Sanitised single-line text from the report; `code` marks become plain text (a terminal shows no code spans). */
const clean = (s: string): string =>
  sanitizeForTerminal(s)
    .replace(/`([^`]+)`/g, '$1')
    .trim();

function bar(score: number | null, glyphs: Glyphs): string {
  if (score === null) return 'unknown';
  const filled = Math.min(BAR_CELLS, Math.max(0, Math.round(score / 10)));
  return glyphs.full.repeat(filled) + glyphs.empty.repeat(BAR_CELLS - filled);
}

/** The first line states the outcome the exit code will have; a provisional score says so. */
function headerLines(report: Report, width: number, p: Palette): string[] {
  const outcome = outcomeOf(report);
  const segments: Segment[] = [
    { text: clean(targetLabel(report.target) + commitNote(report.target)), style: p.bold },
    { text: outcome, style: p.outcome(outcome) },
  ];
  if (report.error !== null) return flow(segments, width);
  segments.push(
    { text: `verdict ${clean(report.verdict)}`, style: p.verdict(report.verdictCode) },
    { text: `score ${formatScore(report.score)}${isProvisional(report) ? ' (provisional)' : '/100'}` },
    { text: `grade ${report.grade ?? '—'}`, style: p.grade(report.grade) },
  );
  const lines = flow(segments, width);
  const second: Segment[] = [{ text: `coverage ${formatPercent(report.coverage)}` }];
  if (report.category !== null) {
    second.push({ text: `category ${clean(categoryText(report.category))}` });
  }
  lines.push(...flow(second, width));
  for (const line of originLines(report.target)) lines.push(...wrapIndented(clean(line), width, '    ', ''));
  for (const line of previousLines(report)) lines.push(...wrapIndented(clean(line), width, '    ', ''));
  return lines;
}

/** The findings that cap or hold the verdict, first, in plain words, each with what to do. */
function alertLines(report: Report, width: number, glyphs: Glyphs, p: Palette): string[] {
  const alerts = alertsOf(report);
  if (alerts.length === 0) return [];
  const lines = ['', p.bold('Alerts')];
  for (const alert of alerts) {
    const mark = alert.level === 'danger' ? glyphs.marks.fail : glyphs.marks.warn;
    const text = wrapIndented(clean(alert.text), width, '    ');
    lines.push(`  ${p.alert(alert.level)(mark)} ${(text[0] ?? '').slice(4)}`, ...text.slice(1));
    if (alert.action !== undefined) lines.push(...wrapIndented(clean(alert.action), width, '      ', '    ').map((l) => p.bold(l)));
  }
  return lines;
}

function bulletLines(items: readonly string[], width: number, glyphs: Glyphs): string[] {
  return items.flatMap((item) => wrapIndented(clean(item), width, '    ', `  ${glyphs.bullet} `));
}

/** Cell text pre-wrapped to the column's inner width (cli-table3 would truncate). */
function cell(text: string, inner: number): string {
  return wrapText(text, inner).join('\n');
}

const STATUS_RANK: Record<CheckResult['status'], number> = { unknown: 0, pass: 1, warn: 2, fail: 3 };

/**
 * The colour of a dimension's bar: from its score, but never better than a check in it that a
 * cap or a held verdict made worse than its own score says, and a dimension with a cap of its own
 * (a critical advisory caps Security at 49.9) is red, never the yellow of its band.
 */
function dimensionStatus(report: Report, dimension: Report['dimensions'][number]): CheckResult['status'] {
  // A capped dimension is a failure, whatever band its capped score falls in.
  if (dimension.score !== null && report.caps.some((c) => c.dimension === dimension.id)) return 'fail';
  let status = statusOf(dimension.score);
  for (const check of report.checks) {
    if (check.dimension !== dimension.id || STATUS_RANK[check.status] <= STATUS_RANK[statusOf(check.score)]) continue;
    if (STATUS_RANK[check.status] > STATUS_RANK[status]) status = check.status;
  }
  return status;
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
    const style = p.status(dimensionStatus(report, d));
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
  const sharedReasons = new Map(sharedUnknowns(report).flatMap((u) => u.ids.map((id) => [id, u.short] as const)));
  const indent = ' '.repeat(11);
  for (const group of groupChecks(report)) {
    lines.push('', ...wrapText(clean(group.title), width).map((l) => p.bold(l)));
    for (const check of group.checks) {
      const style = p.status(check.status);
      const mark = `  ${glyphs.marks[check.status]} ${padStart(formatScore(check.score, glyphs.none), 5)}  `;
      const lacking = blindingSource(check);
      const shared = sharedReasons.get(check.id);
      if ((lacking !== null || shared !== undefined) && !evidence) {
        // One line: the title and what it lacked; "Not checked" below says why, once.
        const why = lacking !== null ? `${lacking} unavailable` : (shared ?? '');
        lines.push(...wrapIndented(`${clean(check.title)} (${clean(why)})`, width, indent, mark).map((l) => p.dim(l)));
        continue;
      }
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

/** Each unavailable source once, and each reason several checks share: why, and the checks it left unknown. */
function notCheckedLines(report: Report, width: number, p: Palette): string[] {
  const sources = unavailableSources(report);
  const shared = sharedUnknowns(report);
  if (sources.length === 0 && shared.length === 0) return [];
  const lines = ['', p.bold('Not checked')];
  for (const unknown of shared) {
    lines.push(...wrapIndented(capitalised(clean(unknown.reason)), width, '    ', '  '));
    lines.push(...wrapIndented(`${unknown.checks.length} checks unknown: ${unknown.checks.map(clean).join(', ')}`, width, '      ', '    ').map((l) => p.dim(l)));
  }
  for (const source of sources) {
    lines.push(...wrapIndented(`${capitalised(clean(source.name))} unavailable: ${clean(source.reason)}`, width, '    ', '  '));
    if (source.checks.length > 0) {
      const noun = source.checks.length === 1 ? 'check' : 'checks';
      lines.push(...wrapIndented(`${source.checks.length} ${noun} unknown: ${source.checks.map(clean).join(', ')}`, width, '      ', '    ').map((l) => p.dim(l)));
    }
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
    // A package its registry no longer serves, asked about with no version: the record names every version.
    const everyVersion = a.version === null && report.target.version === null;
    head.push({ text: !a.affectsResolved ? 'not this version' : everyVersion ? 'affects every version' : 'affects this version' });
    const ecosystem = advisoryEcosystemLabel(a, report);
    if (clean(a.package) !== clean(report.target.name)) head.push({ text: `in ${ecosystem === null ? '' : `the ${ecosystem} `}${clean(a.package)}` });
    // An MCP entry's repository's dependency, listed beside its evaluated packages' (docs/scoring.md §8a).
    if (a.repository === true) head.push({ text: "the repository's, not scored" });
    lines.push(...flow(head, width, '  '));
    lines.push(...wrapIndented(clean(a.summary ?? 'no summary'), width, '    '));
    lines.push(...wrapIndented(a.fixed === null ? 'no fixed version yet' : `fixed in ${clean(a.fixed)}`, width, '    '));
  }
  return lines;
}

/** The "Compared with N peers" block (`--compare`): standing, sample, alternatives. */
function comparisonLines(report: Report, width: number, p: Palette): string[] {
  const text = comparisonText(report);
  if (text === null) return [];
  const lines = ['', p.bold(clean(text.title)), ...wrapIndented(clean(text.standing), width, '    ', '  ')];
  for (const line of text.sample) lines.push(...wrapIndented(clean(line), width, '    ', '  ').map((l) => p.dim(l)));
  if (text.alternatives.length > 0) lines.push(`  ${p.bold('Higher-scoring alternatives')}`);
  for (const a of text.alternatives) {
    lines.push(...flow([{ text: clean(a.target), style: p.bold }, { text: a.score }, { text: a.grade }, { text: clean(a.verdict) }], width, '    '));
    lines.push(...wrapIndented(clean([a.why, a.better].filter((t) => t !== '').join(' · ')), width, '      '));
  }
  return lines;
}

/** The EU AI Act line of an AI tool's or MCP server's report (informational, never scored). */
function aiActLines(report: Report, width: number, p: Palette): string[] {
  const text = aiActText(report);
  if (text === null) return [];
  return [
    '',
    p.bold(text.title),
    ...wrapIndented(clean(text.finding), width, '    ', '  '),
    ...wrapIndented(clean(text.note), width, '    ', '  ').map((l) => p.dim(l)),
  ];
}

/** A repository's or an MCP entry's packages, images and remotes, each with what nerq found. */
function partsLines(report: Report, width: number, p: Palette): string[] {
  const text = partsText(report);
  if (text === null) return [];
  return ['', p.bold(text.title), ...text.lines.flatMap((l) => wrapIndented(`${clean(l.name)} — ${clean(l.note)}`, width, '    ', '  '))];
}

/** `--include-package`: which package's registry checks are folded in, or why none is. */
function includedPackageLines(report: Report, width: number): string[] {
  const text = includedPackageText(report);
  return text === null ? [] : ['', ...wrapIndented(clean(text), width, '  ', '')];
}

function gateLines(report: Report, width: number, glyphs: Glyphs, p: Palette): string[] {
  const { gate } = report;
  const state = gateState(gate);
  const outcome = outcomeOf(report);
  const head = flow(
    [
      { text: 'Gate', style: p.bold },
      { text: outcome, style: p.gate(state) },
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
  const first = [...headerLines(report, width, p), ...alertLines(report, width, glyphs, p)];
  if (opts.quiet === true) return finish([...first, ...gateLines(report, width, glyphs, p)]);
  return finish([
    ...first,
    '',
    ...dimensionTable(report, width, glyphs, p),
    ...checkLines(report, width, glyphs, p, opts.evidence === true),
    ...notCheckedLines(report, width, p),
    ...advisoryLines(report, width, p),
    ...partsLines(report, width, p),
    ...comparisonLines(report, width, p),
    ...aiActLines(report, width, p),
    ...includedPackageLines(report, width),
    ...gateLines(report, width, glyphs, p),
  ]);
}

/** Several targets, one report after another, separated by a blank line. */
export function renderTableMany(reports: readonly Report[], opts: TableOptions): string {
  return reports.map((r) => renderTable(r, opts)).join('\n');
}

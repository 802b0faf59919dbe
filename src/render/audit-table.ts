/**
 * The audit's terminal table: a first line stating the result the exit code has and what was
 * audited; one line per package in the report's order (worst first) — status, name@version,
 * score, grade, verdict, in columns that stay aligned — and under a package that needs
 * attention what to act on (its failures, the fix, the path from a direct dependency), and under
 * any package the project patches its patch files, wrapped, never cut; then each warning once, the packages per grade and the run's result with counts.
 * `quiet` leaves out the passing packages. Every report string goes through sanitizeForTerminal;
 * colour only when the caller asks (its own chalk instance, never chalk's global detection).
 */
import { Chalk } from 'chalk';
import type { AuditEntry, AuditReport } from '../audit/types.js';
import {
  advisoryText,
  fixText,
  insteadText,
  gradeCounts,
  ignoredText,
  outageText,
  isUnverifiedPin,
  outcomeHint,
  packageLabel,
  runResult,
  SHORT_VERDICT,
  statusWord,
  summarySentence,
  patchText,
  bundledText,
  viaText,
  warningText,
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
  /** Leave out the passing packages (`--quiet`). */
  quiet?: boolean;
}

const MIN_WIDTH = 60;
const MAX_WIDTH = 200;
const GAP = '  ';

const clean = (s: string): string =>
  sanitizeForTerminal(s)
    .replace(/`([^`]+)`/g, '$1')
    .trim();

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

/** The first line states the result the exit code has; then what was audited against what. */
function headerLines(report: AuditReport, width: number, s: Styles): string[] {
  const inputs = report.inputs.map((i) => (i.client === undefined ? clean(i.file) : `${clean(i.file)} (${clean(i.client)}, ${i.scope ?? '?'})`)).join(', ') || 'none';
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

/** The columns of one package's first line (the header is one too). */
interface Cells {
  word: string;
  label: string;
  score: string;
  grade: string;
  verdict: string;
}

function cellsOf(entry: AuditEntry): Cells {
  const evaluated = entry.report.error === null && entry.report.score !== null;
  return {
    word: statusWord(entry),
    label: clean(packageLabel(entry)),
    score: evaluated ? formatScore(entry.report.score) : '—',
    grade: entry.report.grade ?? '—',
    verdict: evaluated ? SHORT_VERDICT[entry.report.verdictCode] : '—',
  };
}

/**
 * What to act on, under the package's line, each on its own wrapped line (never cut): an ignored
 * package's reason and expiry, the policy failures, the fix, and the path from a direct
 * dependency. An unchecked package has none here but a lockfile pin nothing vouches for (the
 * warnings say once why a source could not be checked); a passing one, an advisory that still
 * affects its installed version, with the fix and the path.
 */
function detailsOf(report: AuditReport, entry: AuditEntry): string[] {
  const { status, failures } = entry.policy;
  // A patch of the project's, and what the package bundles, are said under every package that
  // carries them: its verdict is the release's, and the bundle is part of that release's tarball.
  const carried = [patchText(entry), bundledText(entry)].filter((t): t is string => t !== null);
  // A lockfile pin nothing vouches for is about one entry, not a source that was down: said here.
  if (status === 'incomplete') return [...failures.filter(isUnverifiedPin).map((f) => f.message), ...carried].map(clean);
  if (status === 'pass') {
    // An advisory that affects the installed version but not the policy is still something to act on.
    const advisories = advisoryText(entry);
    if (advisories === null) return carried.map(clean);
    const via = viaText(entry);
    return [advisories, `fix: ${fixText(entry) ?? 'no fixed version yet'}`, ...(via === null ? [] : [`via ${via}`]), ...carried].map(clean);
  }
  const lines: string[] = [];
  const ignored = ignoredText(entry);
  const outage = outageText(report, entry);
  if (ignored !== null) lines.push(ignored, ...failures.slice(0, 1).map((f) => `would fail: ${f.message}`));
  else if (outage !== null) lines.push(outage);
  else lines.push(...failures.map((f) => f.message));
  const fix = fixText(entry);
  if (fix !== null) lines.push(`fix: ${fix}`);
  const via = viaText(entry);
  if (via !== null) lines.push(`via ${via}`);
  const instead = insteadText(entry);
  if (instead !== null) lines.push(instead);
  lines.push(...carried);
  return lines.map(clean);
}

/**
 * One line per package (status, name@version, score, grade, verdict), the name column as wide
 * as the terminal allows; a name too long for it gets a line of its own and the figures go on
 * the next, so the columns stay in line. The details follow, indented under the name.
 */
function tableLines(report: AuditReport, width: number, s: Styles, quiet: boolean): string[] {
  const entries = quiet ? report.entries.filter((e) => e.policy.status !== 'pass') : report.entries;
  if (entries.length === 0) return [quiet ? 'No package needs attention.' : 'No dependencies to audit.'];
  const head: Cells = { word: 'STATUS', label: 'PACKAGE', score: 'SCORE', grade: 'GRADE', verdict: 'VERDICT' };
  const cells = entries.map(cellsOf);
  const widthOf = (pick: (c: Cells) => string) => Math.max(...[head, ...cells].map((c) => displayWidth(pick(c))));
  const statusW = widthOf((c) => c.word);
  const scoreW = widthOf((c) => c.score);
  const gradeW = widthOf((c) => c.grade);
  const verdictW = widthOf((c) => c.verdict);
  const fixed = statusW + scoreW + gradeW + verdictW + GAP.length * 4;
  const labelW = Math.max(displayWidth(head.label), Math.min(widthOf((c) => c.label), width - fixed));
  const indent = ' '.repeat(statusW + GAP.length);
  const figures = (c: Cells) => [padStart(c.score, scoreW), padEnd(c.grade, gradeW), padEnd(c.verdict, verdictW)].join(GAP);

  const rowLines = (c: Cells, paint: (x: string) => string): string[] => {
    const status = paint(padEnd(c.word, statusW));
    if (displayWidth(c.label) <= labelW) return [`${status}${GAP}${padEnd(c.label, labelW)}${GAP}${figures(c)}`.trimEnd()];
    // Too long for its column: the name alone (wrapped if it must be), the figures in line below.
    const name = wrapText(c.label, width - indent.length);
    return [`${status}${GAP}${name[0] ?? ''}`, ...name.slice(1).map((l) => indent + l), `${indent}${' '.repeat(labelW)}${GAP}${figures(c)}`.trimEnd()];
  };
  const lines = rowLines(head, s.bold).map((l) => s.bold(l));
  entries.forEach((entry, i) => {
    lines.push(...rowLines(cells[i]!, s.status[entry.policy.status]));
    for (const detail of detailsOf(report, entry)) lines.push(...wrapIndented(detail, width, `${indent}  `, indent).map((l) => s.dim(l)));
  });
  return lines;
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

/** Each warning once, in plain words (an unavailable source with the checks it left unknown; an ignored finding with its reason). */
function warningLines(report: AuditReport, width: number, s: Styles): string[] {
  if (report.warnings.length === 0) return [];
  return ['', s.bold('Warnings'), ...report.warnings.flatMap((w) => wrapIndented(clean(warningText(w)), width, '    ', '  · '))];
}

/** The audit as a terminal table, ending with one newline. */
export function renderAuditTable(report: AuditReport, options: AuditTableOptions): string {
  const width = clampWidth(options.width);
  const s = styles(options.color);
  const body = tableLines(report, width, s, options.quiet === true);
  return `${[...headerLines(report, width, s), '', ...body, ...warningLines(report, width, s), '', ...summaryLines(report, width, s)].join('\n')}\n`;
}

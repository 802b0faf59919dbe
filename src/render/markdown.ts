/**
 * The Markdown report, for pull-request comments (GitHub-flavoured Markdown): a heading
 * with the target, a summary line, the dimension and check tables, caps, unavailable
 * sources, advisories and the gate. Every string from the report is escaped with
 * escapeMarkdown (escapeHtml inside `<summary>`), so hostile text stays plain text; the
 * only link is an advisory's own https URL, percent-encoded.
 */
import type { CheckResult, Report } from '../report/schema.js';
import { gateState, groupChecks, previousLines, targetLabel } from './labels.js';
import { markdownReason } from './markdown-reasons.js';
import { escapeHtml, escapeMarkdown } from './sanitize.js';
import { formatPercent, formatScore, formatWeight } from './text.js';

const VERDICT_EMOJI: Record<Report['verdictCode'], string> = {
  yes: '✅',
  caution: '⚠️',
  no: '❌',
  'do-not-use': '❌',
  unknown: '❔',
};

const STATUS_EMOJI: Record<CheckResult['status'], string> = {
  pass: '✅',
  warn: '⚠️',
  fail: '❌',
  unknown: '❔',
};

/** Escaped single-line text from the report. */
const md = (s: string): string => escapeMarkdown(s).trim();

function heading(level: number, text: string): string {
  return `${'#'.repeat(Math.min(6, level))} ${text}`;
}

function table(head: readonly string[], align: readonly ('l' | 'r' | 'c')[], rows: readonly string[][]): string[] {
  const rule = align.map((a) => (a === 'r' ? '---:' : a === 'c' ? ':---:' : '---'));
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(rule), ...rows.map(line)];
}

/**
 * An https link to a URL from the report, or null. The destination is re-serialised by
 * the URL parser and the characters Markdown reads in a destination are percent-encoded.
 */
function safeUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  return url.href.replace(/[()<>|[\]\\`*_ "']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function summaryLine(report: Report): string {
  const parts = [
    `**${formatScore(report.score)}/100**${report.provisional ? ' (provisional)' : ''}`,
    `grade **${report.grade ?? '—'}**`,
    `${VERDICT_EMOJI[report.verdictCode]} **${md(report.verdict)}**`,
    `coverage ${formatPercent(report.coverage)}`,
  ];
  if (report.category !== null) parts.push(`category ${md(report.category.id)}`);
  const previous = previousLines(report).map((line) => md(line));
  return [parts.join(' · '), ...previous].join('  \n');
}

function dimensionSection(report: Report): string[] {
  return table(
    ['Dimension', 'Score', 'Weight', 'Coverage'],
    ['l', 'r', 'r', 'r'],
    report.dimensions.map((d) => [md(d.title), formatScore(d.score), formatWeight(d.weight), formatPercent(d.coverage)]),
  );
}

function checkSection(report: Report, level: number): string[] {
  const rows = groupChecks(report).flatMap((g) =>
    g.checks.map((c) => [
      `${STATUS_EMOJI[c.status]} ${c.status}`,
      md(c.title),
      formatScore(c.score),
      md(c.message),
    ]),
  );
  if (rows.length === 0) return [];
  return ['', heading(level, 'Checks'), '', ...table(['Status', 'Check', 'Score', 'Message'], ['l', 'l', 'r', 'l'], rows)];
}

function capSection(report: Report, level: number): string[] {
  if (report.caps.length === 0) return [];
  return [
    '',
    heading(level, 'Caps'),
    '',
    ...report.caps.map(
      (c) => `- **${md(c.id)}**${c.dimension === null ? '' : ` (${c.dimension})`} ≤ ${formatScore(c.limit)}: ${md(c.reason)}`,
    ),
  ];
}

function sourceSection(report: Report, level: number): string[] {
  const down = report.sources.filter((s) => s.status === 'unavailable');
  if (down.length === 0) return [];
  return [
    '',
    heading(level, 'Unavailable sources'),
    '',
    ...down.map((s) => `- **${md(s.id)}**: ${md(s.reason ?? 'no reason given')}`),
  ];
}

function advisorySection(report: Report, level: number): string[] {
  if (report.advisories.length === 0) return [];
  const rows = report.advisories.map((a) => {
    const url = safeUrl(a.url);
    const id = url === null ? md(a.id) : `[${md(a.id)}](${url})`;
    const aliases = a.aliases.length > 0 ? ` (${a.aliases.map(md).join(', ')})` : '';
    return [
      id + aliases,
      (a.malicious ? '**malicious** ' : '') + md(a.severity) + (a.cvss === null ? '' : ` (CVSS ${a.cvss})`),
      md(a.package) + (a.version === null ? '' : ` ${md(a.version)}`),
      a.affectsResolved ? 'yes' : 'no',
      a.fixed === null ? 'no fix' : md(a.fixed),
      md(a.summary ?? ''),
    ];
  });
  return [
    '',
    heading(level, 'Advisories'),
    '',
    ...table(['Advisory', 'Severity', 'Package', 'Affects this version', 'Fixed in', 'Summary'], ['l', 'l', 'l', 'l', 'l', 'l'], rows),
  ];
}

function gateSection(report: Report): string[] {
  const { gate } = report;
  const line = `**Gate:** ${gateState(gate)} (min score ${String(gate.threshold)}, min coverage ${formatPercent(gate.minCoverage)})`;
  const reasons = gate.reasonDetails.map((r) => `- ${markdownReason(r)}`);
  return ['', line, ...(reasons.length > 0 ? ['', ...reasons] : [])];
}

/** The body of one report, its heading at `level`. */
function reportLines(report: Report, level: number): string[] {
  const lines = [heading(level, `nerq · ${md(targetLabel(report.target))}`), ''];
  if (report.error !== null) {
    lines.push(
      `${VERDICT_EMOJI.unknown} **not evaluated**`,
      '',
      `**Error** ${md(report.error.code)}: ${md(report.error.message)}`,
    );
    return lines;
  }
  lines.push(summaryLine(report));
  if (report.verdictReasonDetails.length > 0) {
    lines.push('', ...report.verdictReasonDetails.map((r) => `- ${markdownReason(r)}`));
  }
  lines.push(
    '',
    ...dimensionSection(report),
    ...checkSection(report, level + 1),
    ...capSection(report, level + 1),
    ...sourceSection(report, level + 1),
    ...advisorySection(report, level + 1),
    ...gateSection(report),
  );
  return lines;
}

/** One report as a Markdown document ending with a newline. */
export function renderMarkdown(report: Report): string {
  return `${reportLines(report, 2).join('\n')}\n`;
}

function summaryRow(report: Report): string[] {
  const evaluated = report.error === null;
  return [
    md(targetLabel(report.target)),
    evaluated ? formatScore(report.score) : '—',
    report.grade ?? '—',
    evaluated ? `${VERDICT_EMOJI[report.verdictCode]} ${md(report.verdict)}` : `${VERDICT_EMOJI.unknown} not evaluated`,
    evaluated ? formatPercent(report.coverage) : '—',
    gateState(report.gate),
  ];
}

function detailsSummary(report: Report): string {
  const label = escapeHtml(targetLabel(report.target));
  if (report.error !== null) return `${VERDICT_EMOJI.unknown} ${label} · not evaluated`;
  const grade = report.grade === null ? '' : ` · ${report.grade}`;
  return `${VERDICT_EMOJI[report.verdictCode]} ${label} · ${formatScore(report.score)}/100${grade} · ${escapeHtml(report.verdict)}`;
}

/** Several reports: a summary table, then each full report in a collapsed `<details>` block. */
export function renderMarkdownMany(reports: readonly Report[]): string {
  const noun = reports.length === 1 ? 'target' : 'targets';
  const lines = [
    heading(2, `nerq trust report · ${reports.length} ${noun}`),
    '',
    ...table(
      ['Target', 'Score', 'Grade', 'Verdict', 'Coverage', 'Gate'],
      ['l', 'r', 'c', 'l', 'r', 'l'],
      reports.map(summaryRow),
    ),
  ];
  for (const report of reports) {
    lines.push('', '<details>', `<summary>${detailsSummary(report)}</summary>`, '', ...reportLines(report, 3), '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

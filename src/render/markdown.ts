/**
 * The Markdown report, for pull-request comments (GitHub-flavoured Markdown): a heading with
 * the target as a code span (GitHub would turn a bare `chalk@5.3.0` into a mailto: link), the
 * outcome line, the alerts, each unavailable source once, the advisories and the gate — what a
 * reviewer reads — then the dimension and check tables collapsed in `<details>`. Every string
 * from the report is escaped with escapeMarkdown (escapeHtml inside `<summary>`) or shown
 * literally in a code span, so hostile text stays plain text; the only link is an advisory's
 * own https URL, percent-encoded.
 */
import { advisoryEcosystemLabel } from './advisory-ecosystem.js';
import { isModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { rulesOf } from '../ecosystems/rules.js';
import type { CheckResult, Report } from '../report/schema.js';
import { capitalised } from '../report/sources.js';
import { alertsOf, blindingSource, isProvisional, type Alert, outcomeOf, sharedUnknowns, unavailableSources, type Outcome } from './alerts.js';
import { aiActText } from './ai-act-text.js';
import { includedPackageText } from './included-package-text.js';
import { partsText } from './parts-text.js';
import { comparisonText } from './comparison-text.js';
import { categoryText, commitNote, groupChecks, originLines, previousLines, targetLabel } from './labels.js';
import { markdownReason } from './markdown-reasons.js';
import { escapeHtml, escapeMarkdown, htmlCode, markdownCode, sanitizeForTerminal } from './sanitize.js';
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

const OUTCOME_EMOJI: Record<Outcome, string> = { PASS: '✅', FAIL: '❌', INCOMPLETE: '⚠️', 'NOT EVALUATED': '❔' };

/** Escaped single-line text from the report. */
const md = (s: string): string => escapeMarkdown(s).trim();

/** Report text whose `inline code` marks (a package name in a message) become code spans; the rest escaped. */
function mdText(s: string, options: { inTable?: boolean } = {}): string {
  const parts = sanitizeForTerminal(s).split('`');
  if (parts.length % 2 === 0) return md(s);
  return parts
    .map((part, i) => (i % 2 === 1 ? markdownCode(part, options) : escapeMarkdown(part)))
    .join('')
    .trim();
}

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
  const outcome = outcomeOf(report);
  const parts = [
    `${OUTCOME_EMOJI[outcome]} **${outcome}**`,
    `**${formatScore(report.score)}/100**${isProvisional(report) ? ' (provisional)' : ''}`,
    `grade **${report.grade ?? '—'}**`,
    `${VERDICT_EMOJI[report.verdictCode]} **${md(report.verdict)}**`,
    `coverage ${formatPercent(report.coverage)}`,
  ];
  if (report.category !== null) parts.push(`category ${md(categoryText(report.category))}`);
  const lines = [...originLines(report.target), ...previousLines(report)].map((line) => md(line));
  return [parts.join(' · '), ...lines].join('  \n');
}

function dimensionSection(report: Report): string[] {
  return table(
    ['Dimension', 'Score', 'Weight', 'Coverage'],
    ['l', 'r', 'r', 'r'],
    report.dimensions.map((d) => [md(d.title), formatScore(d.score), formatWeight(d.weight), formatPercent(d.coverage)]),
  );
}

function checkSection(report: Report, level: number): string[] {
  // A check a missing source or a shared reason left unknown says so in a few words, as the
  // terminal does: "Not checked" above says why, once (not the source's id and reason per row).
  const sharedReasons = new Map(sharedUnknowns(report).flatMap((u) => u.ids.map((id) => [id, u.short] as const)));
  const message = (c: Report['checks'][number]): string => {
    const lacking = blindingSource(c);
    const shared = sharedReasons.get(c.id);
    if (lacking !== null) return `Unknown: ${md(lacking)} unavailable (see Not checked)`;
    if (shared !== undefined) return `Unknown: ${mdText(shared, { inTable: true })} (see Not checked)`;
    return mdText(c.message, { inTable: true });
  };
  const rows = groupChecks(report).flatMap((g) => g.checks.map((c) => [`${STATUS_EMOJI[c.status]} ${c.status}`, md(c.title), formatScore(c.score), message(c)]));
  if (rows.length === 0) return [];
  return ['', heading(level, 'Checks'), '', ...table(['Status', 'Check', 'Score', 'Message'], ['l', 'l', 'r', 'l'], rows)];
}

/** The findings that cap or hold the verdict, first, each with what to do. */
/** An alert's sentence; one that is a coded verdict reason puts the names it holds in code spans. */
function alertText(alert: Alert): string {
  if (alert.reason === undefined) return mdText(alert.text);
  const text = markdownReason(alert.reason);
  return capitalised(text);
}

function alertSection(report: Report, level: number): string[] {
  const alerts = alertsOf(report);
  if (alerts.length === 0) return [];
  return [
    '',
    heading(level, 'Alerts'),
    '',
    ...alerts.map((a) => `- ${a.level === 'danger' ? '❌' : '⚠️'} ${alertText(a)}${a.action === undefined ? '' : `  \n  **${mdText(a.action)}**`}`),
  ];
}

/** Each unavailable source once, with the checks it left unknown. */
function notCheckedSection(report: Report, level: number): string[] {
  const sources = unavailableSources(report);
  const shared = sharedUnknowns(report);
  if (sources.length === 0 && shared.length === 0) return [];
  return [
    '',
    heading(level, 'Not checked'),
    '',
    ...shared.map((u) => `- ${mdText(capitalised(u.reason))} — unknown: ${u.checks.map(md).join(', ')}`),
    ...sources.map((s) => {
      const unknown = s.checks.length === 0 ? '' : ` — unknown: ${s.checks.map(md).join(', ')}`;
      return `- **${md(capitalised(s.name))}** unavailable: ${md(s.reason)}${unknown}`;
    }),
  ];
}

/** ` (crate)` after a package in another ecosystem than the target's; '' otherwise. */
function ecosystemNote(advisory: Report['advisories'][number], report: Report): string {
  const label = advisoryEcosystemLabel(advisory, report);
  return label === null ? '' : ` (${label})`;
}

/**
 * The advisory's package as its ecosystem pins it (`request@2.88.2`, `urllib3==1.26.0`,
 * `golang.org/x/net@v0.38.0`), what one copies into an install; the name and version apart when
 * evidence saved before advisories named their ecosystem does not say which.
 */
function advisoryPackage(a: Report['advisories'][number]): string {
  if (a.version === null) return a.package;
  if (a.ecosystem === null) return `${a.package} ${a.version}`;
  return isModuleEcosystem(a.ecosystem) ? `${a.package}@${a.version}` : rulesOf(a.ecosystem).versionLabel(a.package, a.version);
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
      markdownCode(advisoryPackage(a), { inTable: true }) + ecosystemNote(a, report) + (a.repository === true ? " (the repository's, not scored)" : ''),
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
  const line = `**Gate:** ${outcomeOf(report)} (min score ${String(gate.threshold)}, min coverage ${formatPercent(gate.minCoverage)})`;
  const reasons = gate.reasonDetails.map((r) => `- ${markdownReason(r)}`);
  return ['', line, ...(reasons.length > 0 ? ['', ...reasons] : [])];
}

/** The "Compared with N peers" section (`--compare`): standing, sample, alternatives. */
function comparisonSection(report: Report, level: number): string[] {
  const text = comparisonText(report);
  if (text === null) return [];
  const lines = ['', heading(level, md(text.title)), '', md(text.standing)];
  if (text.sample.length > 0) lines.push('', ...text.sample.map((s) => `- ${md(s)}`));
  if (text.alternatives.length > 0) {
    lines.push(
      '',
      '**Higher-scoring alternatives**',
      '',
      ...table(
        ['Alternative', 'Score', 'Grade', 'Verdict', 'Why', 'Better in'],
        ['l', 'r', 'c', 'l', 'l', 'l'],
        text.alternatives.map((a) => [markdownCode(a.target, { inTable: true }), a.score, a.grade, md(a.verdict), md(a.why), md(a.better.replace(/^better /, ''))]),
      ),
    );
  }
  return lines;
}

/** The EU AI Act section of an AI tool's or MCP server's report (informational, never scored). */
function aiActSection(report: Report, level: number): string[] {
  const text = aiActText(report);
  if (text === null) return [];
  return ['', heading(level, md(text.title)), '', md(text.finding), '', `_${md(text.note)}_`];
}

/** A repository's or an MCP entry's packages, images and remotes, each with what nerq found (names as code spans). */
function partsSection(report: Report, level: number): string[] {
  const text = partsText(report);
  if (text === null) return [];
  return ['', heading(level, md(text.title)), '', ...text.lines.map((l) => `- ${markdownCode(l.name)} — ${md(l.note)}`)];
}

/** `--include-package`: which package's registry checks are folded in, or why none is. */
function includedPackageSection(report: Report): string[] {
  const text = includedPackageText(report);
  return text === null ? [] : ['', md(text)];
}

/** The body of one report, its heading at `level`. */
function reportLines(report: Report, level: number): string[] {
  const commit = commitNote(report.target);
  const lines = [heading(level, `nerq · ${markdownCode(targetLabel(report.target))}${commit === '' ? '' : ` ${md(commit)}`}`), ''];
  if (report.error !== null) {
    lines.push(
      `${OUTCOME_EMOJI['NOT EVALUATED']} **NOT EVALUATED**`,
      '',
      `**Error** ${md(report.error.code)}: ${md(report.error.message)}`,
    );
    return lines;
  }
  // What a reviewer acts on first; the tables behind a <details>.
  lines.push(
    summaryLine(report),
    ...alertSection(report, level + 1),
    ...notCheckedSection(report, level + 1),
    ...advisorySection(report, level + 1),
    ...partsSection(report, level + 1),
    ...comparisonSection(report, level + 1),
    ...aiActSection(report, level + 1),
    ...includedPackageSection(report),
    ...gateSection(report),
    '',
    '<details>',
    `<summary>Dimensions and ${report.checks.length} ${report.checks.length === 1 ? 'check' : 'checks'}</summary>`,
    '',
    ...dimensionSection(report),
    ...checkSection(report, level + 1),
    '',
    '</details>',
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
    markdownCode(targetLabel(report.target), { inTable: true }),
    evaluated ? `${formatScore(report.score)}${isProvisional(report) ? ' (provisional)' : ''}` : '—',
    report.grade ?? '—',
    evaluated ? `${VERDICT_EMOJI[report.verdictCode]} ${md(report.verdict)}` : `${VERDICT_EMOJI.unknown} not evaluated`,
    evaluated ? formatPercent(report.coverage) : '—',
    `${OUTCOME_EMOJI[outcomeOf(report)]} ${outcomeOf(report)}`,
  ];
}

function detailsSummary(report: Report): string {
  const label = htmlCode(targetLabel(report.target));
  if (report.error !== null) return `${VERDICT_EMOJI.unknown} ${label} · not evaluated`;
  const grade = report.grade === null ? '' : ` · ${report.grade}`;
  const provisional = isProvisional(report) ? ' (provisional)' : '';
  return `${VERDICT_EMOJI[report.verdictCode]} ${label} · ${formatScore(report.score)}/100${provisional}${grade} · ${escapeHtml(report.verdict)}`;
}

/** Several reports: a summary table, then each full report in a collapsed `<details>` block. */
export function renderMarkdownMany(reports: readonly Report[]): string {
  const noun = reports.length === 1 ? 'target' : 'targets';
  const lines = [
    heading(2, `nerq trust report · ${reports.length} ${noun}`),
    '',
    ...table(
      ['Target', 'Score', 'Grade', 'Verdict', 'Coverage', 'Outcome'],
      ['l', 'r', 'c', 'l', 'r', 'l'],
      reports.map(summaryRow),
    ),
  ];
  for (const report of reports) {
    lines.push('', '<details>', `<summary>${detailsSummary(report)}</summary>`, '', ...reportLines(report, 3), '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

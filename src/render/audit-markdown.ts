/**
 * The audit as a pull-request comment (GitHub-flavoured Markdown): the summary first (run
 * result with counts, grades, inputs, policy, warnings), then a table of the failing and
 * unevaluated packages, a collapsed detail per failing package, the packages the project
 * patches (collapsed), the ignored packages with their reasons, and the passing ones collapsed. The whole comment stays under GitHub's
 * 65,536-character limit: the summary is never shortened; later sections lose rows first,
 * and a note says how many were left out. Every string from a report or the audited tree
 * is escaped (escapeMarkdown; escapeHtml inside `<summary>`) or, for package names, shown
 * literally in a code span (`<code>` in a `<summary>`: GitHub links a bare `chalk@5.3.0` as an
 * e-mail address): it cannot break a table, open a link, inject HTML or mention anyone.
 */
import { MCP_IGNORABLE, type AuditEntry, type AuditReport } from '../audit/types.js';
import {
  advisoryText,
  declaredAt,
  fixText,
  gradeCounts,
  insteadText,
  mainReason,
  outageText,
  onlyNotScored,
  outcomeHint,
  packageLabel,
  patchText,
  bundledText,
  runResult,
  SHORT_VERDICT,
  summarySentence,
  warningText,
  type EntryStatus,
  type RunResult,
} from './audit-labels.js';
import { markdownReason } from './markdown-reasons.js';
import { escapeHtml, escapeMarkdown, htmlCode, markdownCode } from './sanitize.js';
import { formatScore } from './text.js';

/** GitHub refuses longer comment bodies (it counts characters; UTF-16 length is never less). */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** Kept free for the closing note about left-out rows. */
const NOTE_RESERVE = 400;

const STATUS_EMOJI: Record<EntryStatus, string> = { fail: '❌', error: '❔', incomplete: '⚠️', ignored: '🔕', pass: '✅' };
const RESULT_EMOJI: Record<RunResult, string> = { FAIL: '❌', INCOMPLETE: '⚠️', PASS: '✅' };
const STATUS_TEXT: Record<EntryStatus, string> = { fail: 'fail', error: 'not evaluated', incomplete: 'not checked', ignored: 'ignored', pass: 'pass' };

/** Escaped single-line text. */
const md = (s: string): string => escapeMarkdown(s).trim();

/**
 * Text for inside `<summary>`: HTML-escaped, and Markdown's link, code and emphasis marks as
 * entities too, for renderers that read Markdown inside HTML blocks.
 */
const html = (s: string): string =>
  escapeHtml(s)
    .trim()
    .replace(/[[\]()`*_~]/g, (c) => `&#${c.charCodeAt(0)};`);

const tableRow = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

function locationText(entry: AuditEntry): string {
  const at = declaredAt(entry);
  if (at === null) return '—';
  return md(at.line === null ? at.file : `${at.file}:${at.line}`);
}

function scoreText(entry: AuditEntry): string {
  return entry.report.error === null ? formatScore(entry.report.score) : '—';
}

function verdictText(entry: AuditEntry): string {
  return entry.report.error === null && entry.report.score !== null ? SHORT_VERDICT[entry.report.verdictCode] : 'not evaluated';
}

/** The part that is never shortened. */
function summaryLines(report: AuditReport): string[] {
  const result = runResult(report);
  const lines = [`## nerq audit: ${RESULT_EMOJI[result]} ${result}`, '', `**${md(summarySentence(report))}**`];
  const hint = outcomeHint(report);
  if (hint !== null) lines.push('', md(hint));
  const grades = gradeCounts(report);
  if (grades.length > 0) lines.push('', `Grades: ${grades.map((g) => `**${g.label}** ${g.count}`).join(' · ')}`);
  // As the terminal names them: the file, and for an MCP client's configuration the client and scope (a format id is no word a reader knows).
  const inputs = report.inputs.map((i) => (i.client === undefined ? md(i.file) : `${md(i.file)} (${md(i.client)}, ${i.scope ?? '?'})`)).join(', ');
  lines.push(
    '',
    `Inputs: ${inputs === '' ? 'none' : inputs}  `,
    `Policy: ${report.policySource === null ? 'defaults' : md(report.policySource)}`,
  );
  if (report.warnings.length > 0) {
    lines.push('', ...report.warnings.map((w) => `> ${w.ignoredBy === undefined ? '⚠️' : STATUS_EMOJI.ignored} ${md(warningText(w))}  `));
  }
  return lines;
}

/** A section that may lose rows to the size limit. */
interface Section {
  head: string[];
  rows: string[];
  tail: string[];
}

function problemTable(report: AuditReport, entries: readonly AuditEntry[]): Section {
  return {
    head: [
      '',
      '### Failing and unevaluated packages',
      '',
      tableRow(['Status', 'Package', 'Score', 'Grade', 'Verdict', 'Reason', 'Declared in']),
      tableRow(['---', '---', '---:', ':---:', '---', '---', '---']),
    ],
    rows: entries.map((e) =>
      tableRow([
        `${STATUS_EMOJI[e.policy.status]} ${onlyNotScored(e) ? 'not scored' : STATUS_TEXT[e.policy.status]}`,
        markdownCode(packageLabel(e), { inTable: true }),
        scoreText(e),
        e.report.grade ?? '—',
        verdictText(e),
        md(outageText(report, e) ?? mainReason(e)) || '—',
        locationText(e),
      ]),
    ),
    tail: [],
  };
}

function detailBlock(entry: AuditEntry): string {
  const { report, subject, policy } = entry;
  const facts = [`${STATUS_EMOJI.fail} ${htmlCode(packageLabel(entry))}`];
  if (report.score !== null) facts.push(`${formatScore(report.score)}/100`);
  if (report.grade !== null) facts.push(report.grade);
  facts.push(html(report.verdict));
  const lines = ['', '<details>', `<summary>${facts.join(' · ')}</summary>`, ''];
  // Each failure's sentence, as the table prints it: a rule's id (`min-score`, `capped`) is the
  // JSON's, no word a reader knows — but one an MCP ignore entry names is given, to accept it by.
  const ignorable: ReadonlySet<string> = new Set(MCP_IGNORABLE);
  for (const failure of policy.failures) lines.push(`- ${md(failure.message)}${ignorable.has(failure.rule) ? ` (rule ${markdownCode(failure.rule)})` : ''}`);
  const kind = [subject.direct ? 'direct' : 'transitive', ...(subject.dev ? ['dev'] : [])].join(', ');
  const places = subject.declaredIn.map((d) => md(d.line === null ? d.file : `${d.file}:${d.line}`));
  lines.push(`- Declared in ${places.length > 0 ? places.join(', ') : 'an unknown file'} (${kind})`);
  // What to do and where it comes from, as the table says them (package names as code spans).
  const fix = fixText(entry);
  if (fix !== null) lines.push(`- Fix: ${md(fix)}`);
  const via = subject.via ?? [];
  if (via.length > 0) lines.push(`- Via ${via.map((name) => markdownCode(name)).join(' › ')}`);
  const instead = insteadText(entry);
  if (instead !== null) lines.push(`- ${md(instead)}`);
  const patched = patchText(entry);
  if (patched !== null) lines.push(`- ${md(patched)}`);
  const bundled = bundledText(entry);
  if (bundled !== null) lines.push(`- ${md(bundled)}`);
  // A reason the failures say already is not repeated: a dimension's cap whose reason is the overall cap's (an advisory caps both) included.
  const said = (text: string) => policy.failures.some((f) => f.message.includes(text));
  const extra = report.verdictReasonDetails.filter((r) => !said(r.text) && !(r.code === 'dimension-capped' && said(`capped at ${String(r.args.limit)}: ${String(r.args.reason)}`)));
  if (extra.length > 0) lines.push('', 'Verdict reasons:', '', ...extra.map((r) => `- ${markdownReason(r)}`));
  lines.push('', '</details>');
  return lines.join('\n');
}

function detailSection(entries: readonly AuditEntry[]): Section {
  return { head: ['', '### Why they fail'], rows: entries.map(detailBlock), tail: [] };
}

function collapsedTable(title: string, headCells: string[], align: string[], rows: string[]): Section {
  return {
    head: ['', '<details>', `<summary>${title}</summary>`, '', tableRow(headCells), tableRow(align)],
    rows,
    tail: ['', '</details>'],
  };
}

/** The packages the project patches (any status): the verdict is the registry release's, the patch is the project's own code. */
function patchedSection(entries: readonly AuditEntry[]): Section {
  const n = entries.length;
  return collapsedTable(
    `🩹 ${n} ${n === 1 ? 'package' : 'packages'} patched by the project (the release is audited, not the patch)`,
    ['Package', 'Status', 'Patch file', 'Patched at'],
    ['---', '---', '---', '---'],
    entries.flatMap((e) =>
      (e.subject.patches ?? []).map((p) =>
        tableRow([
          markdownCode(packageLabel(e), { inTable: true }),
          `${STATUS_EMOJI[e.policy.status]} ${onlyNotScored(e) ? 'not scored' : STATUS_TEXT[e.policy.status]}`,
          p.path === null ? 'hash only' : markdownCode(p.path, { inTable: true }),
          md(p.line === null ? p.file : `${p.file}:${p.line}`),
        ]),
      ),
    ),
  );
}

function ignoredSection(entries: readonly AuditEntry[]): Section {
  const n = entries.length;
  return collapsedTable(
    `${STATUS_EMOJI.ignored} ${n} ignored ${n === 1 ? 'package' : 'packages'}`,
    ['Package', 'Score', 'Would fail because', 'Ignored because', 'Expires'],
    ['---', '---:', '---', '---', '---'],
    entries.map((e) =>
      tableRow([
        markdownCode(packageLabel(e), { inTable: true }),
        scoreText(e),
        md(e.policy.failures[0]?.message ?? '') || '—',
        md(e.policy.ignoredBy?.reason ?? '') || '—',
        md(e.policy.ignoredBy?.expires ?? '') || 'never',
      ]),
    ),
  );
}

/** Passing packages an advisory still affects (the policy let them pass): what affects them, the fix and the path, as the table says them. */
function advisedSection(entries: readonly AuditEntry[]): Section {
  const n = entries.length;
  return collapsedTable(
    `⚠️ ${n} passing ${n === 1 ? 'package' : 'packages'} an advisory affects`,
    ['Package', 'Advisories', 'Fix', 'Via'],
    ['---', '---', '---', '---'],
    entries.map((e) =>
      tableRow([
        markdownCode(packageLabel(e), { inTable: true }),
        md(advisoryText(e) ?? ''),
        md(fixText(e) ?? 'no fixed version yet'),
        (e.subject.via ?? []).map((name) => markdownCode(name, { inTable: true })).join(' › ') || (e.subject.direct ? 'direct' : '—'),
      ]),
    ),
  );
}

function passingSection(entries: readonly AuditEntry[]): Section {
  const n = entries.length;
  return collapsedTable(
    `${STATUS_EMOJI.pass} ${n} passing ${n === 1 ? 'package' : 'packages'}`,
    ['Package', 'Score', 'Grade', 'Verdict'],
    ['---', '---:', ':---:', '---'],
    entries.map((e) => tableRow([markdownCode(packageLabel(e), { inTable: true }), scoreText(e), e.report.grade ?? '—', verdictText(e)])),
  );
}

/** The audit as a Markdown comment, ending with a newline, at most GITHUB_COMMENT_LIMIT characters. */
export function renderAuditMarkdown(report: AuditReport, limit = GITHUB_COMMENT_LIMIT): string {
  const by = (status: EntryStatus) => report.entries.filter((e) => e.policy.status === status);
  const problems = report.entries.filter((e) => e.policy.status === 'fail' || e.policy.status === 'error' || e.policy.status === 'incomplete');
  const patched = report.entries.filter((e) => (e.subject.patches ?? []).length > 0);
  const advised = by('pass').filter((e) => advisoryText(e) !== null);
  const sections = [
    ...(problems.length > 0 ? [problemTable(report, problems), ...(by('fail').length > 0 ? [detailSection(by('fail'))] : [])] : []),
    ...(patched.length > 0 ? [patchedSection(patched)] : []),
    ...(by('ignored').length > 0 ? [ignoredSection(by('ignored'))] : []),
    ...(advised.length > 0 ? [advisedSection(advised)] : []),
    ...(by('pass').length > 0 ? [passingSection(by('pass'))] : []),
  ];

  let out = summaryLines(report).join('\n');
  const budget = limit - NOTE_RESERVE;
  let left = 0;
  for (const section of sections) {
    const head = `\n${section.head.join('\n')}`;
    const tail = section.tail.length > 0 ? `\n${section.tail.join('\n')}` : '';
    let body = '';
    let shown = 0;
    for (const row of section.rows) {
      const next = `${body}\n${row}`;
      if (out.length + head.length + next.length + tail.length > budget) break;
      body = next;
      shown += 1;
    }
    left += section.rows.length - shown;
    if (shown > 0) out += head + body + tail;
  }
  if (left > 0) {
    out += `\n\n_Shortened to fit GitHub's comment limit: ${left} ${left === 1 ? 'row' : 'rows'} not shown. Run \`nerq audit --json\` for the full result._`;
  }
  return `${out}\n`;
}

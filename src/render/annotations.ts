/**
 * GitHub Actions workflow commands for stderr (`GITHUB_ACTIONS=true`): `::error` per package
 * that fails the policy and `::warning` per package that could not be evaluated, at the file
 * and line that declare it (a file outside the repository is named in the message instead); the run's warnings as `::warning`, but an MCP finding that fails the
 * run as `::error` at its configuration line. Every value is sanitised (no line break survives, so data cannot
 * start a command of its own) and then escaped as the runner expects: `%`, CR and LF in the
 * message; also `:` and `,` in properties.
 * https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
import { OUTCOME_FINDINGS, type AuditEntry, type AuditReport, type AuditWarning } from '../audit/types.js';
import { findingAt, fixText, outcomeHint, outsideText, packageLabel, repositoryPath, runResult, summarySentence, unvouchedCounts, viaText, warningText } from './audit-labels.js';
import { firstVerdictReason } from './reason-words.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface AnnotationOptions {
  /** The audited directory relative to the repository root (`/`-separated), prefixed to every `file=`. */
  baseDir?: string;
}

/** Escape a command's message (data). */
export function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escape a command property value. */
export function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

const clean = (s: string): string => sanitizeForTerminal(s).trim();

/**
 * Where an annotation points: `file=…` (the path from the repository root) and `line=…` when
 * known. A file outside the repository (a user-scope MCP configuration, a `--file` above its
 * root) has no place in it to point at: no properties, and the message names the file instead
 * (`~/.cursor/mcp.json line 7, outside the repository`), as `file=` names an in-repository one.
 */
function placeOf(file: string, line: number | null, options: AnnotationOptions): { properties: string[]; note: string } {
  const { path, outside } = repositoryPath(file, options.baseDir);
  if (outside) return { properties: [], note: clean(outsideText(file, line)) };
  return { properties: [`file=${escapeProperty(clean(path))}`, ...(line !== null && line >= 1 ? [`line=${line}`] : [])], note: '' };
}

function annotation(entry: AuditEntry, options: AnnotationOptions): string {
  const error = entry.policy.status === 'fail';
  const label = clean(packageLabel(entry));
  const at = findingAt(entry);
  const { properties, note } = at === null ? { properties: [], note: '' } : placeOf(at.file, at.line, options);
  properties.push(`title=${escapeProperty(error ? `nerq: ${label} fails the policy` : `nerq: ${label} could not be evaluated`)}`);
  const failures = entry.policy.failures.map((f) => clean(f.message)).join('; ') || clean(firstVerdictReason(entry.report) ?? '');
  // What to do and where it comes from, as the table says them.
  const fix = error ? fixText(entry) : null;
  const via = error ? viaText(entry) : null;
  const message = `${failures}${fix === null ? '' : `; fix: ${clean(fix)}`}${via === null ? '' : `; via ${clean(via)}`}${note === '' ? '' : `; declared in ${note}`}`;
  return `::${error ? 'error' : 'warning'} ${properties.join(',')}::${escapeData(message)}`;
}

/**
 * What the run could not check, once (not one line per package): the result when packages were
 * not fully checked (an error when it makes the exit code 3), then each warning.
 */
function runAnnotations(report: AuditReport, options: AnnotationOptions): string[] {
  const lines: string[] = [];
  if (report.summary.incomplete > 0 || unvouchedCounts(report).unvouched > 0) {
    const error = report.outcome.result === 'incomplete';
    const hint = outcomeHint(report);
    const text = `${runResult(report)}: ${summarySentence(report)}${hint === null ? '' : ` (${hint})`}`;
    lines.push(`::${error ? 'error' : 'warning'} title=${escapeProperty('nerq: audit incomplete')}::${escapeData(clean(text))}`);
  }
  for (const warning of report.warnings) lines.push(warningAnnotation(warning, options));
  return lines;
}

/**
 * A warning of the run; a finding that fails it (`nerq audit --mcp`: a launch that widens its
 * reach, an insecure remote) and that no ignore entry covers is an `::error` at its file and line.
 */
function warningAnnotation(warning: AuditWarning, options: AnnotationOptions): string {
  const title = `title=${escapeProperty(`nerq: ${warning.code}`)}`;
  const message = escapeData(clean(warningText(warning)));
  const failing = (OUTCOME_FINDINGS.fail as readonly string[]).includes(warning.code) && warning.ignoredBy === undefined;
  if (!failing) return `::warning ${title}::${message}`;
  const { file, line } = warning.details;
  // A configuration outside the repository (`~/.cursor/mcp.json`) has no place in it to point at: the message names it.
  const { properties, note } = typeof file === 'string' && file !== '' ? placeOf(file, typeof line === 'number' ? line : null, options) : { properties: [], note: '' };
  const named = note === '' || message.includes(escapeData(clean(file as string))) ? '' : escapeData(` (${note})`);
  return `::error ${[...properties, title].join(',')}::${message}${named}`;
}

/** One workflow command per failing or unevaluated package, then the run's own, each on its own line. */
export function renderAnnotations(report: AuditReport, options: AnnotationOptions = {}): string {
  const lines = [
    ...report.entries.filter((e) => e.policy.status === 'fail' || e.policy.status === 'error').map((e) => annotation(e, options)),
    ...runAnnotations(report, options),
  ];
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

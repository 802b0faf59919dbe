/**
 * Words shared by the audit renderers: a package's label, the one reason that matters most,
 * the status and summary lines. Inputs are raw strings from reports (hostile): callers
 * sanitise or escape the results for their format.
 */
import type { AuditEntry, AuditReport } from '../audit/types.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import { GRADES } from '../report/schema.js';

export type EntryStatus = AuditEntry['policy']['status'];

/** `name@version` (npm) or `name==version` (PyPI); the declared range when unresolved. */
export function packageLabel(entry: AuditEntry): string {
  const { subject, report } = entry;
  const version = report.target.version ?? subject.version;
  const rules = packageRulesOf(subject.ecosystem);
  if (version !== null && version !== '') return rules.versionLabel(subject.name, version);
  if (subject.spec !== null && subject.spec !== '') return rules.specLabel(subject.name, subject.spec);
  return subject.name;
}

/** The first policy failure, else the verdict's first reason; an ignored entry says why. */
export function mainReason(entry: AuditEntry): string {
  const reason = entry.policy.failures[0]?.message ?? entry.report.verdictReasons[0] ?? '';
  const ignored = entry.policy.ignoredBy;
  if (entry.policy.status === 'ignored' && ignored !== null) return `${reason} (ignored: ${ignored.reason})`;
  return reason;
}

/** The main failing rule (for SARIF and annotations): `policy/<rule>`. */
export function mainRule(entry: AuditEntry): string {
  return `policy/${entry.policy.failures[0]?.rule ?? 'not-evaluated'}`;
}

export const STATUS_WORDS: Record<EntryStatus, string> = {
  fail: 'FAIL',
  error: 'ERROR',
  ignored: 'IGNORED',
  pass: 'PASS',
};

/** Short verdict words for one-line rows. */
export const SHORT_VERDICT: Record<AuditEntry['report']['verdictCode'], string> = {
  yes: 'YES',
  caution: 'CAUTION',
  no: 'NO',
  'do-not-use': 'DO NOT USE',
  unknown: '—',
};

export type RunResult = 'PASS' | 'FAIL' | 'INCOMPLETE';

/** FAIL when any package fails (exit 1); INCOMPLETE when some could not be evaluated (exit 3); else PASS. */
export function runResult(report: AuditReport): RunResult {
  if (report.summary.failed > 0) return 'FAIL';
  if (report.summary.errors > 0) return 'INCOMPLETE';
  return 'PASS';
}

/** `3 of 212 packages fail the policy; 2 could not be evaluated; 1 ignored`. */
export function summarySentence(report: AuditReport): string {
  const { total, failed, errors, ignored } = report.summary;
  const noun = total === 1 ? 'package' : 'packages';
  const parts = [`${failed} of ${total} ${noun} ${failed === 1 ? 'fails' : 'fail'} the policy`];
  if (errors > 0) parts.push(`${errors} could not be evaluated`);
  if (ignored > 0) parts.push(`${ignored} ignored`);
  return parts.join('; ');
}

/** Packages per grade, best first, then the ungraded: `A+ 3 · B 1 · not evaluated 2`. */
export function gradeCounts(report: AuditReport): { label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const entry of report.entries) {
    const key = entry.report.grade ?? 'not evaluated';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...GRADES, 'not evaluated']
    .filter((label) => counts.has(label))
    .map((label) => ({ label, count: counts.get(label) ?? 0 }));
}

/** Where the entry is declared: first file and line, or null. */
export function declaredAt(entry: AuditEntry): { file: string; line: number | null } | null {
  const first = entry.subject.declaredIn[0];
  return first === undefined ? null : { file: first.file, line: first.line };
}

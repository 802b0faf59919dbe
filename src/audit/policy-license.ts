/**
 * Licence rules of the policy, with spdx-satisfies. An allow list passes a package whose
 * licence expression can be satisfied with allowed licences only (`MIT OR GPL-3.0-only`
 * passes `["MIT"]`); a deny list fails a package when every way of satisfying its
 * expression uses a denied licence (`MIT OR GPL-3.0-only` passes a deny of GPL-3.0-only,
 * `MIT AND GPL-3.0-only` does not). A licence that is not valid SPDX cannot match an allow
 * list and fails it, saying so; for a deny list a spdx-correct guess is used, and text that
 * cannot be read as SPDX at all is denied when any licence it may mean is (`AGPL MIT` may mean
 * AGPL-3.0-or-later: checks/lib/spdx.ts `licensesPossiblyMeant`).
 */
import satisfies from 'spdx-satisfies';
import type { LicenseTree } from '../checks/lib/spdx.js';
import { licensesPossiblyMeant, parseSpdx, readDeclaredLicense } from '../checks/lib/spdx.js';
import { pypiLicense } from '../checks/views/release.js';
import type { Evidence } from '../evidence/schema.js';
import type { Report } from '../report/schema.js';
import type { PolicyFailure } from './types.js';

/** What is known about a package's licence. */
export type PackageLicense =
  | { status: 'declared'; expression: string }
  | { status: 'none' }
  | { status: 'unknown'; reason: string };

export interface LicenseLists {
  allow: readonly string[] | null;
  deny: readonly string[];
}

/** From the report's `license-declared` check (npm and PyPI reports; the same licence licenseFromEvidence reads). */
export function licenseFromReport(report: Report): PackageLicense {
  const check = report.checks.find((c) => c.id === 'license-declared');
  if (check === undefined) return { status: 'unknown', reason: 'the report has no licence-declared check' };
  if (check.score === null) return { status: 'unknown', reason: check.message };
  const declared = check.evidence.license;
  return typeof declared === 'string' && declared.trim() !== ''
    ? { status: 'declared', expression: declared }
    : { status: 'none' };
}

/** From the evidence: the npm manifest's `license`, or PyPI's in the precedence the checks read it (checks/views/release.ts). */
export function licenseFromEvidence(evidence: Evidence): PackageLicense {
  const { registry, pypi } = evidence.sources;
  if (registry.status === 'ok') {
    const declared = registry.facts.license;
    return declared === null || declared.trim() === '' ? { status: 'none' } : { status: 'declared', expression: declared };
  }
  if (pypi.status === 'ok') {
    const declared = pypiLicense(pypi.facts.license).text;
    return declared === null || declared.trim() === '' ? { status: 'none' } : { status: 'declared', expression: declared };
  }
  if (registry.status === 'unavailable') return { status: 'unknown', reason: registry.reason };
  if (pypi.status === 'unavailable') return { status: 'unknown', reason: pypi.reason };
  return { status: 'unknown', reason: 'no registry metadata for the package' };
}

const quote = (s: string): string => `'${s.length > 80 ? `${s.slice(0, 79)}…` : s}'`;

/** spdx-satisfies, with its throws (unparseable input) as false. */
function safeSatisfies(expression: string, list: readonly string[]): boolean {
  if (list.length === 0) return false;
  try {
    return satisfies(expression, list);
  } catch {
    return false;
  }
}

/** Each leaf licence of a parsed expression as text (`GPL-2.0+`, `Apache-2.0 WITH LLVM-exception`), and its base licence. */
function leavesOf(tree: LicenseTree): { text: string; base: string }[] {
  if ('conjunction' in tree) return [...leavesOf(tree.left), ...leavesOf(tree.right)];
  const base = `${tree.license}${tree.plus === true ? '+' : ''}`;
  return [{ text: tree.exception === undefined ? base : `${base} WITH ${tree.exception}`, base }];
}

/** True when every way of satisfying the expression needs a denied licence. */
function isDenied(expression: string, tree: LicenseTree, deny: readonly string[]): boolean {
  // A licence with an exception is still that licence for a deny list.
  const permitted = leavesOf(tree)
    .filter((leaf) => !safeSatisfies(leaf.text, deny) && !safeSatisfies(leaf.base, deny))
    .map((leaf) => leaf.text);
  return !safeSatisfies(expression, [...new Set(permitted)]);
}

function allowFailure(license: PackageLicense, allow: readonly string[]): PolicyFailure | null {
  const allowed = `the policy allows ${allow.join(', ')}`;
  const fail = (message: string): PolicyFailure => ({ rule: 'license-not-allowed', message });
  if (license.status === 'unknown') return fail(`licence unknown (${license.reason}); ${allowed}`);
  if (license.status === 'none') return fail(`no licence declared; ${allowed}`);
  const declared = readDeclaredLicense(license.expression);
  switch (declared.kind) {
    case 'spdx':
      return safeSatisfies(declared.expression, allow) ? null : fail(`licence ${declared.expression} is not allowed; ${allowed}`);
    case 'corrected':
      return fail(
        `licence ${quote(license.expression)} is not a valid SPDX expression (probably ${declared.expression}), so it cannot match the allow list; ${allowed}`,
      );
    case 'unlicensed':
      return fail(`licence UNLICENSED (proprietary) is not allowed; ${allowed}`);
    case 'see-file':
      return fail(`custom licence (see ${quote(declared.file)}) cannot match the allow list; ${allowed}`);
    case 'none':
      return fail(`no licence declared; ${allowed}`);
    case 'invalid':
      return fail(`licence ${quote(license.expression)} is not a valid SPDX expression, so it cannot match the allow list; ${allowed}`);
  }
}

function denyFailure(license: PackageLicense, deny: readonly string[]): PolicyFailure | null {
  if (license.status !== 'declared') return null;
  const declared = readDeclaredLicense(license.expression);
  if (declared.kind === 'invalid') {
    const denied = licensesPossiblyMeant(license.expression).filter((id) => {
      const tree = parseSpdx(id);
      return tree !== null && isDenied(id, tree, deny);
    });
    if (denied.length === 0) return null;
    return { rule: 'license-denied', message: `licence ${quote(license.expression)} is not a valid SPDX expression and may mean ${denied.join(', ')}, which the policy denies (${deny.join(', ')})` };
  }
  if (declared.kind !== 'spdx' && declared.kind !== 'corrected') return null;
  if (!isDenied(declared.expression, declared.tree, deny)) return null;
  const shown = declared.kind === 'spdx' ? declared.expression : `${quote(license.expression)} (read as ${declared.expression})`;
  return { rule: 'license-denied', message: `licence ${shown} is denied by the policy (${deny.join(', ')})` };
}

/** The licence failures of a package under the policy's lists (deny first). */
export function licenseFailures(license: PackageLicense, lists: LicenseLists): PolicyFailure[] {
  const failures: PolicyFailure[] = [];
  if (lists.deny.length > 0) {
    const denied = denyFailure(license, lists.deny);
    if (denied !== null) failures.push(denied);
  }
  if (lists.allow !== null && failures.length === 0) {
    const notAllowed = allowFailure(license, lists.allow);
    if (notAllowed !== null) failures.push(notAllowed);
  }
  return failures;
}

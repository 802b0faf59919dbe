/**
 * known-vulnerabilities: published advisories (OSV) affecting the resolved version, weighted
 * by severity, with "fix available" guidance. A critical, high or unknown-severity advisory
 * caps the overall score (docs/scoring.md §5), even when a later version fixes it.
 */
import type { AdvisoryFacts } from '../evidence/schema.js';
import type { CapRequest, EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import {
  capsVersion,
  countBySeverity,
  highestVersion,
  SEVERITY_ORDER,
  SEVERITY_PENALTY,
  severityBreakdown,
  severityLabel,
  vulnerabilityAdvisories,
} from './lib/advisories.js';

/** Advisories named one by one in a cap reason; the rest are counted. */
const MAX_NAMED_IN_CAP = 3;
/**
 * The most the check scores while a capping advisory affects the version: a fail (below 40),
 * so that the check, its dimension and the overall score all say the same thing.
 */
export const CAPPED_CHECK_LIMIT: Readonly<Record<'critical' | 'high' | 'unknown', number>> = { critical: 10, high: 30, unknown: 30 };
export const VULNERABLE_LIMIT = 49.9;

/**
 * The caps for every capping advisory together, worst first ("GHSA-… (critical) affects 2.1.0"):
 * the overall score, and the security dimension, at most 49.9.
 */
function capsFor(capping: readonly AdvisoryFacts[], version: string): CapRequest[] {
  const worstFirst = [...capping].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  const named = worstFirst.slice(0, MAX_NAMED_IN_CAP).map((a) => `${a.id} (${severityLabel(a.severity)})`);
  const more = worstFirst.length - named.length;
  const subject = more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
  const reason = `${subject} ${capping.length === 1 ? 'affects' : 'affect'} ${version}`;
  const args = { advisories: worstFirst.map((a) => a.id).join(', '), count: worstFirst.length, version };
  return [
    { id: 'vulnerable-version', limit: VULNERABLE_LIMIT, reason, args },
    { id: 'vulnerable-version', limit: VULNERABLE_LIMIT, dimension: 'security', reason, args },
  ];
}

export default defineCheck({
  id: 'known-vulnerabilities',
  dimension: 'security',
  weight: 5,
  needs: ['vulnerabilities'],
  guardsDanger: true,
  title: 'Known vulnerabilities',
  description:
    'Looks up OSV advisories affecting the resolved version, in the npm or PyPI ecosystem (twins merged; withdrawn and malicious-package records left out); not applicable to a repository target, which has no version of its own (unless `--include-package` folds in the package it publishes: the version of that package is then looked up); unknown for a package its registry no longer serves at all, asked about with no version. ' +
    'No advisory scores 100; each one takes off critical 60, high 40, moderate 20, low 10 points, an advisory without any severity is treated as high (floor 0). ' +
    `Any critical, high or unknown-severity advisory makes the check fail (at most ${CAPPED_CHECK_LIMIT.critical} with a critical one, ${CAPPED_CHECK_LIMIT.high} otherwise) and caps the overall score and the security dimension at ${VULNERABLE_LIMIT}, even when a later version fixes it; any affecting advisory keeps the verdict at CAUTION at best; the message names the version to upgrade to, or the advisories without a fix.`,
  messages: {
    none: 'No known advisories affect this version',
    'no-own-version': 'Not applicable: a repository publishes no version of its own to look up (its dependencies are vulnerable-dependencies\' and malicious-package\'s)',
    'no-version': 'Unknown: no version to look up — the registry no longer serves the package, and only malicious-package records that affect every version were read',
    'fix-available': 'Known advisories affect {version}: {ids} ({breakdown}); upgrade to {fixed}',
    'partial-fix': 'Known advisories affect {version}: {ids} ({breakdown}); no fix for {unfixed}, upgrading to {partialFix} fixes the others',
    'no-fix': 'Known advisories affect {version}: {ids} ({breakdown}); no fix for {unfixed}',
  },
  evaluate: ({ vulnerabilities }) => {
    // Only the dependencies were asked (a repository target): no answer about the target itself.
    if (vulnerabilities.ownAsked === false) return { score: null, messageId: 'no-own-version', notApplicable: true };
    // Asked by name with no version (a package its registry no longer serves): unknown, never clean.
    if (vulnerabilities.versionless === true) return { score: null, messageId: 'no-version' };
    const advisories = vulnerabilityAdvisories(vulnerabilities.advisories);
    const counts = countBySeverity(advisories);
    const ids = advisories.map((a) => a.id);
    if (advisories.length === 0) {
      return { score: 100, messageId: 'none', data: { count: 0, ...counts, ids, fixed: null } };
    }
    const version = advisories.find((a) => a.version !== null)?.version ?? 'this version';
    const penalty = advisories.reduce((sum, a) => sum + SEVERITY_PENALTY[a.severity], 0);
    const capping = advisories.filter((a) => capsVersion(a.severity));
    const limit = Math.min(100, ...capping.map((a) => CAPPED_CHECK_LIMIT[a.severity as keyof typeof CAPPED_CHECK_LIMIT] ?? CAPPED_CHECK_LIMIT.unknown));
    const score = Math.min(limit, Math.max(0, 100 - penalty));
    const unfixed = advisories.filter((a) => a.fixed === null).map((a) => a.id);
    const upgradeTo = highestVersion(advisories.flatMap((a) => (a.fixed === null ? [] : [a.fixed])));
    const data: Record<string, EvidenceValue> = {
      count: advisories.length,
      ...counts,
      ids,
      version,
      breakdown: severityBreakdown(advisories),
      penalty,
      fixed: unfixed.length === 0 ? upgradeTo : null,
      unfixed,
    };
    const caps = capping.length > 0 ? capsFor(capping, version) : [];
    // A vulnerable version is never a plain YES: below the cap's severities, the verdict holds at
    // CAUTION (a capping advisory already says so through its cap).
    const fix = unfixed.length === 0 && upgradeTo !== null ? `upgrading to ${upgradeTo} would lift this` : 'a fixed version would lift this';
    const holdVerdict = caps.length > 0 ? undefined : `${ids.join(', ')} ${advisories.length === 1 ? 'affects' : 'affect'} ${version}; ${fix}`;
    const outcome = { score, data, caps, ...(holdVerdict === undefined ? {} : { holdVerdict }) };
    if (unfixed.length === 0) return { ...outcome, messageId: 'fix-available' };
    if (upgradeTo !== null) return { ...outcome, messageId: 'partial-fix', data: { ...data, partialFix: upgradeTo } };
    return { ...outcome, messageId: 'no-fix' };
  },
});

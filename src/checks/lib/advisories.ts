/**
 * Advisory helpers shared by the vulnerability and malicious-package checks: which advisories
 * count, severity order and penalties, counts per severity, and the highest fixed version.
 * Pure; the facts arrive already validated (twins merged upstream), these helpers only guard
 * against an advisory being listed twice.
 */
import { compare as comparePep440, valid as validPep440 } from '@renovatebot/pep440';
import semver from 'semver';
import type { AdvisoryFacts, Severity } from '../../evidence/schema.js';
import { SEVERITIES } from '../../evidence/schema.js';

/** Worst first. An unknown severity is treated as high, so it sits right after high. */
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'unknown', 'moderate', 'low'];

/** Points a single advisory takes off `known-vulnerabilities` (unknown is treated as high). */
export const SEVERITY_PENALTY: Readonly<Record<Severity, number>> = {
  critical: 60,
  high: 40,
  unknown: 40,
  moderate: 20,
  low: 10,
};

/** Severities that cap the overall score when they affect the resolved version (docs/scoring.md §5). */
export function capsVersion(severity: Severity): boolean {
  return severity === 'critical' || severity === 'high' || severity === 'unknown';
}

/** How a severity reads in messages and cap reasons. */
export function severityLabel(severity: Severity): string {
  return severity === 'unknown' ? 'severity unknown, treated as high' : severity;
}

/** Every id an advisory is known by (its id and its aliases). */
function idsOf(advisory: AdvisoryFacts): string[] {
  return [advisory.id, ...advisory.aliases];
}

/**
 * The advisories once each, in input order: an entry sharing an id or alias with an earlier
 * one for the same package — same ecosystem and name: a Go module, a crate and an npm package
 * may share a name — is the same advisory (twins are merged upstream; this only guards against
 * a duplicate listing).
 */
export function distinctAdvisories(advisories: readonly AdvisoryFacts[]): AdvisoryFacts[] {
  const seen = new Set<string>();
  const out: AdvisoryFacts[] = [];
  for (const advisory of advisories) {
    const keys = idsOf(advisory).map((id) => `${advisory.ecosystem ?? ''}\u0000${advisory.package}\u0000${id.toUpperCase()}`);
    if (keys.some((key) => seen.has(key))) continue;
    for (const key of keys) seen.add(key);
    out.push(advisory);
  }
  return out;
}

/** Ordinary (non-malicious) advisories that affect the resolved version, each once. */
export function vulnerabilityAdvisories(advisories: readonly AdvisoryFacts[]): AdvisoryFacts[] {
  return distinctAdvisories(advisories.filter((a) => !a.malicious && a.affectsResolved));
}

/** Known-malicious records that affect the resolved version, each once. */
export function maliciousAdvisories(advisories: readonly AdvisoryFacts[]): AdvisoryFacts[] {
  return distinctAdvisories(advisories.filter((a) => a.malicious && a.affectsResolved));
}

/** The worst severity present, or null for no advisories. */
export function worstSeverity(advisories: readonly AdvisoryFacts[]): Severity | null {
  for (const severity of SEVERITY_ORDER) if (advisories.some((a) => a.severity === severity)) return severity;
  return null;
}

/** How many advisories of each severity (every severity present as a key). */
export function countBySeverity(advisories: readonly AdvisoryFacts[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const advisory of advisories) counts[advisory.severity] += 1;
  return counts;
}

/** "1 critical, 2 high, 1 severity unknown, treated as high" (worst first, zero counts left out). */
export function severityBreakdown(advisories: readonly AdvisoryFacts[]): string {
  const counts = countBySeverity(advisories);
  // The unknown part carries a comma of its own, so it goes last.
  const order: Severity[] = [...SEVERITY_ORDER.filter((s) => s !== 'unknown'), 'unknown'];
  return order
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${severityLabel(s)}`)
    .join(', ');
}

/**
 * Order two version strings: semver when both parse (loosely), else PEP 440 when both are
 * PEP 440 versions (`1.0.post1`, `2.0a1`, PyPI advisories), else dotted numeric segments
 * compared naturally.
 */
export function compareVersions(a: string, b: string): number {
  const sa = semver.valid(a, { loose: true });
  const sb = semver.valid(b, { loose: true });
  if (sa !== null && sb !== null) return semver.compare(sa, sb, { loose: true });
  if (validPep440(a) !== null && validPep440(b) !== null) return comparePep440(a, b);
  return a.localeCompare(b, 'en', { numeric: true });
}

/** The highest of the given versions, or null for none. */
export function highestVersion(versions: readonly string[]): string | null {
  let best: string | null = null;
  for (const version of versions) if (best === null || compareVersions(version, best) > 0) best = version;
  return best;
}

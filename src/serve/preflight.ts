/**
 * A report as the published Preflight API's answer (docs/serve.md, "The preflight answer").
 * Pure: every field is read from the report (its verdict, caps, advisories and the raw evidence
 * of its checks); what the report does not know is null, never zero.
 */
import { isPackageEcosystem } from '../ecosystems/rules.js';
import type { PackageEcosystem } from '../ecosystems/types.js';
import type { Report, VerdictCode } from '../report/schema.js';
import type { HistoryPoint } from '../app/history.js';
import { peerLabel, type ComparisonResult } from '../report/comparison.js';
import type { Preflight } from './schemas.js';
import { INTERACTION_RISKS, RECOMMENDATIONS, SEVERITY_LEVELS } from './schemas.js';
import { plainStrings } from '../render/sanitize.js';

/** Longest string a preflight answer carries. */
const MAX_PREFLIGHT_STRING = 1000;

type Recommendation = (typeof RECOMMENDATIONS)[number];
type Risk = (typeof INTERACTION_RISKS)[number];

/** The recommendation follows the verdict: YES → PROCEED, CAUTION → CAUTION, NO and DO NOT USE → DENY, not evaluated → UNKNOWN. */
export function recommendationOf(report: Report): Recommendation {
  if (report.error !== null) return 'UNKNOWN';
  const byVerdict: Record<VerdictCode, Recommendation> = { yes: 'PROCEED', caution: 'CAUTION', no: 'DENY', 'do-not-use': 'DENY', unknown: 'UNKNOWN' };
  return byVerdict[report.verdictCode];
}

const RISK_OF: Record<Recommendation, Risk> = { PROCEED: 'LOW', CAUTION: 'MEDIUM', DENY: 'HIGH', UNKNOWN: 'UNKNOWN' };
const RISK_ORDER: readonly Risk[] = ['LOW', 'MEDIUM', 'UNKNOWN', 'HIGH'];

/** Verified: a score of at least 70 and the verdict YES. */
export function verifiedOf(report: Report): boolean {
  return report.error === null && report.verdictCode === 'yes' && report.score !== null && report.score >= 70;
}

function evidenceOf(report: Report, checkId: string): Record<string, unknown> | null {
  const check = report.checks.find((c) => c.id === checkId);
  return check === undefined ? null : (check.evidence as Record<string, unknown>);
}

function intOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function daysBetween(earlier: string | null, later: string | null): number | null {
  if (earlier === null || later === null) return null;
  const ms = Date.parse(later) - Date.parse(earlier);
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 86_400_000) : null;
}

/**
 * When the resolved version was published: release-anomalies' `published` (npm), else
 * release-recency's newest stable release when that is the version the report judged (or the
 * report names no version, as for a repository); null otherwise.
 */
function lastUpdated(report: Report): string | null {
  const published = stringOrNull(evidenceOf(report, 'release-anomalies')?.published);
  if (published !== null) return published;
  const recency = evidenceOf(report, 'release-recency');
  const date = stringOrNull(recency?.date);
  if (date === null) return null;
  return report.target.version === null || stringOrNull(recency?.version) === report.target.version ? date : null;
}

function security(report: Report): Preflight['security'] {
  const licenseEvidence = evidenceOf(report, 'license-permissiveness');
  const license = stringOrNull(licenseEvidence?.license) ?? stringOrNull(evidenceOf(report, 'license-declared')?.license);
  const licenseCategory = stringOrNull(licenseEvidence?.class);
  const vulnerabilities = report.sources.find((s) => s.id === 'vulnerabilities');
  if (vulnerabilities === undefined || vulnerabilities.status !== 'ok') {
    return { known_cves: null, max_severity: null, has_active_advisory: null, license, license_category: licenseCategory };
  }
  // An MCP entry's repository's advisories are listed, not the target's (docs/scoring.md §8a).
  const active = report.advisories.filter((a) => a.affectsResolved && a.repository !== true);
  const worst = SEVERITY_LEVELS.find((level) => active.some((a) => a.severity === level)) ?? null;
  return { known_cves: active.length, max_severity: worst, has_active_advisory: active.length > 0, license, license_category: licenseCategory };
}

/** The field that carries a package ecosystem's weekly downloads (docs/serve.md). */
const WEEKLY_DOWNLOADS: Record<PackageEcosystem, 'npm_weekly_downloads' | 'pypi_weekly_downloads'> = {
  npm: 'npm_weekly_downloads',
  pypi: 'pypi_weekly_downloads',
};

function popularity(report: Report): Preflight['popularity'] {
  const weekly = intOrNull(evidenceOf(report, 'weekly-downloads')?.lastWeek);
  const popularity: Preflight['popularity'] = { npm_weekly_downloads: null, pypi_weekly_downloads: null, github_stars: intOrNull(evidenceOf(report, 'stars-forks')?.stars) };
  const { ecosystem } = report.target;
  if (isPackageEcosystem(ecosystem)) popularity[WEEKLY_DOWNLOADS[ecosystem]] = weekly;
  return popularity;
}

function activity(report: Report): Preflight['activity'] {
  const commits = evidenceOf(report, 'commit-activity');
  const contributors = evidenceOf(report, 'contributors');
  const count = intOrNull(contributors?.count);
  const busFactor = intOrNull(contributors?.busFactor);
  return {
    last_commit_days_ago: daysBetween(stringOrNull(commits?.lastCommitAt), report.evaluatedAt),
    contributor_metrics: count === null && busFactor === null ? null : { count, bus_factor: busFactor },
  };
}

function complianceFlags(report: Report, licenseCategory: string | null): string[] {
  const flags = report.caps.map((c) => c.id);
  if (licenseCategory !== null && licenseCategory !== 'permissive') flags.push(`license-${licenseCategory}`);
  return [...new Set(flags)];
}

export interface PreflightInput {
  /** The target as the caller wrote it. */
  target: string;
  report: Report;
  caller?: { input: string; report: Report } | undefined;
  history?: readonly HistoryPoint[] | undefined;
  /** With `include=alternatives`: what the peers gave, or why there is nothing. */
  alternatives?: { list: Preflight['alternatives']; unavailable: NonNullable<Preflight['alternatives_unavailable']> | null } | undefined;
  /** When the request arrived (ms since the epoch) and now: response_time_ms. */
  startedMs: number;
  nowMs: number;
}

export function preflightOf(input: PreflightInput): Preflight {
  const { report, caller } = input;
  const recommendation = recommendationOf(report);
  let risk = RISK_OF[recommendation];
  if (caller !== undefined) {
    const callerRisk = RISK_OF[recommendationOf(caller.report)];
    if (RISK_ORDER.indexOf(callerRisk) > RISK_ORDER.indexOf(risk)) risk = callerRisk;
  }
  const sec = security(report);
  const answer: Preflight = {
    target: input.target,
    target_trust: report.error === null ? report.score : null,
    target_grade: report.error === null ? report.grade : null,
    target_verified: verifiedOf(report),
    target_category: report.category?.id ?? null,
    target_source: report.target.ecosystem,
    target_last_updated: lastUpdated(report),
    details_url: report.target.repository,
    caller: caller?.input ?? null,
    caller_trust: caller === undefined || caller.report.error !== null ? null : caller.report.score,
    caller_grade: caller === undefined || caller.report.error !== null ? null : caller.report.grade,
    caller_verified: caller === undefined ? null : verifiedOf(caller.report),
    interaction_risk: risk,
    recommendation,
    compliance_flags: complianceFlags(report, sec.license_category),
    security: sec,
    popularity: popularity(report),
    activity: activity(report),
    alternatives: input.alternatives?.list ?? [],
    checked_at: report.evaluatedAt ?? new Date(input.nowMs).toISOString(),
    response_time_ms: Math.max(0, Math.round(input.nowMs - input.startedMs)),
  };
  if (input.history !== undefined) {
    answer.history = input.history.map((p) => ({ evaluatedAt: p.evaluatedAt, score: p.score, grade: p.grade, verdictCode: p.verdictCode }));
  }
  if (input.alternatives !== undefined) answer.alternatives_unavailable = input.alternatives.unavailable;
  // Registry-given strings (licence, repository URL, peers' names) as plain lines (docs/security.md, "Text written for AI agents").
  return plainStrings(answer, MAX_PREFLIGHT_STRING);
}

/**
 * A comparison's alternatives as the preflight lists them: the package name, the score, and a
 * page about it — its source repository, else the curated replacement's documentation, else
 * null. `peers` are the reports the comparison was made from.
 */
export function preflightAlternatives(result: ComparisonResult, peers: readonly Report[]): NonNullable<PreflightInput['alternatives']> {
  const list = result.alternatives.map((alternative) => {
    const peer = peers.find((p) => peerLabel(p) === alternative.target);
    const curatedUrl = alternative.why.find((w) => w.url !== null)?.url ?? null;
    return { name: peer?.target.name ?? alternative.target, trust_score: alternative.score, url: peer?.target.repository ?? curatedUrl };
  });
  // Too few peers for a standing (members, no rank) were still compared for alternatives.
  const compared = result.comparison !== null || (result.comparisonUnavailable?.members?.length ?? 0) > 0;
  const missing = compared ? null : (result.comparisonUnavailable ?? null);
  if (missing === null) return { list, unavailable: null };
  return { list, unavailable: { code: missing.code, ...(missing.sourceCode === undefined ? {} : { source_code: missing.sourceCode }), reason: missing.reason } };
}

/**
 * A batch entry for a target that was not evaluated (the queue refused it, or the deadline came
 * first): the published shape with every fact unknown and the reason in `error`.
 */
export function unevaluatedPreflight(input: {
  target: string;
  ecosystem: string;
  error: NonNullable<Preflight['error']>;
  startedMs: number;
  nowMs: number;
}): Preflight {
  return {
    target: input.target,
    target_trust: null,
    target_grade: null,
    target_verified: false,
    target_category: null,
    target_source: input.ecosystem,
    target_last_updated: null,
    details_url: null,
    caller: null,
    caller_trust: null,
    caller_grade: null,
    caller_verified: null,
    interaction_risk: 'UNKNOWN',
    recommendation: 'UNKNOWN',
    compliance_flags: [],
    security: { known_cves: null, max_severity: null, has_active_advisory: null, license: null, license_category: null },
    popularity: { npm_weekly_downloads: null, pypi_weekly_downloads: null, github_stars: null },
    activity: { last_commit_days_ago: null, contributor_metrics: null },
    alternatives: [],
    checked_at: new Date(input.nowMs).toISOString(),
    response_time_ms: Math.max(0, Math.round(input.nowMs - input.startedMs)),
    error: input.error,
  };
}

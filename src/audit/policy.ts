/**
 * The audit policy: the effective settings (file merged with flags) and the pure decision
 * for one package. It follows the gate of `nerq check` (docs/scoring.md §10) so the same package and
 * bar give the same answer in both commands: a package FAILS when it is NO — DO NOT USE,
 * capped (a ceiling is a bound, not a cap that fails), below `minScore`, below a dimension floor, breaks the licence lists or has a
 * verdict `failOn` names; it could NOT BE EVALUATED (status `error`) when it has no score
 * (report.error) or, having failed nothing, too little coverage or code nerq cannot inspect
 * (an MCP server's `mcp-uninspected`); it is INCOMPLETE when it
 * failed nothing but a guarding check (known vulnerabilities, malicious packages) could not
 * run. A matching, unexpired ignore entry turns any of them into `ignored` (still listed,
 * with its reason): a package entry for a package, an MCP entry for an MCP Registry entry —
 * never one that is NO — DO NOT USE (known malicious, a malicious dependency, a placeholder).
 */
import type { Dimension } from '../checks/define.js';
import { CHECKS } from '../checks/index.js';
import { capsVersion } from '../checks/lib/advisories.js';
import { isModuleEcosystem, moduleNoun, type ModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { uncheckedGuards, uninspectedGuards } from '../report/build.js';
import type { Report } from '../report/schema.js';
import { DEFAULT_GATE } from '../scoring/gate.js';
import { percentsApart } from '../model/percents-apart.js';
import { roundScore } from '../scoring/grade.js';
import { DIMENSION_TITLES } from '../scoring/profiles.js';
import { findMcpIgnore, mcpIgnoredBy, type McpFindingRef } from './mcp/ignore.js';
import { UNPUBLISHED_LAUNCH_RULE, type UnpublishedLaunch } from './mcp/unpublished.js';
import { sanitizeForTerminal } from '../render/sanitize.js';
import { expiredIgnoreMessages, findIgnore, ignoreLabel } from './policy-ignore.js';
import { licenseFailures, licenseFromReport, type PackageLicense } from './policy-license.js';
import type { PolicyFile } from './policy-load.js';
import { SEVERITY_LEVELS, type IgnoreEntry, type McpIgnoreEntry, type PackageIgnoreEntry, type SeverityLevel } from './policy-schema.js';
import type { AuditEcosystem, AuditEntry, AuditSubject, AuditWarning, PolicyFailure, PolicyOutcome } from './types.js';
import type { DependencyConfusion } from './dependency-confusion.js';
import type { LockfileFinding } from './lockfile-integrity.js';

export { loadPolicy, parsePolicy, PolicyError, type PolicyFile } from './policy-load.js';
export { licenseFromEvidence, licenseFromReport, type PackageLicense } from './policy-license.js';
export type { IgnoreEntry } from './policy-schema.js';

/** The effective policy. */
export interface Policy {
  /** Where the file part came from (as in AuditReport.policySource); null for defaults + flags. */
  source: string | null;
  minScore: number;
  minCoverage: number;
  dimensions: Partial<Record<Dimension, number>>;
  licenses: { allow: string[] | null; deny: string[] };
  ignore: IgnoreEntry[];
  /** Verdicts that fail besides `do-not-use` (always fails): `no`, or `no` and `caution`; null: none. */
  failOn: 'no' | 'caution' | null;
  /** Fail a package that an advisory of this severity or higher affects (`--fail-on`); null: none. */
  failOnSeverity: SeverityLevel | null;
}

/** Command-line flags that override the file. */
export interface PolicyFlags {
  minScore?: number;
  minCoverage?: number;
  failOn?: 'no' | 'caution';
  failOnSeverity?: SeverityLevel;
}

/** File values, then flags over them; defaults (DEFAULT_GATE) for what neither sets. */
export function mergePolicy(file: PolicyFile | null, flags: PolicyFlags = {}): Policy {
  return {
    source: file?.source ?? null,
    minScore: flags.minScore ?? file?.minScore ?? DEFAULT_GATE.threshold,
    minCoverage: flags.minCoverage ?? file?.minCoverage ?? DEFAULT_GATE.minCoverage,
    dimensions: { ...file?.dimensions },
    licenses: {
      allow: file?.licenses?.allow?.map((l) => l.trim()) ?? null,
      deny: file?.licenses?.deny?.map((l) => l.trim()) ?? [],
    },
    ignore: file?.ignore ?? [],
    failOn: flags.failOn ?? file?.failOn ?? null,
    failOnSeverity: flags.failOnSeverity ?? file?.failOnSeverity ?? null,
  };
}

/** One message per expired ignore entry; any of them fails the run (the caller prints them and exits 1). */
export function expiredIgnores(policy: Policy, now: Date): string[] {
  return expiredIgnoreMessages(policy.ignore, now, policy.source);
}

export interface ApplyOptions {
  /** The package's licence; default: read from the report's licence-declared check. Pass licenseFromEvidence(evidence) when the evidence is at hand (it reads the same licence). */
  license?: PackageLicense;
  /** A dependency-confusion suspicion for this package: a failure an ignore entry can cover; an `unverified` one (the public registry did not answer) leaves the package incomplete. */
  dependencyConfusion?: DependencyConfusion | null;
  /** The lockfile would install something other than this package (lockfile-integrity.ts): a failure, at the pin; an `unverified` one leaves the package incomplete. */
  lockfileInjection?: LockfileFinding | null;
  /** An `mcp` subject: the configured servers it was matched from, as MCP ignore entries match them (`mcp-entry-policy`). */
  mcpServers?: readonly McpFindingRef[];
  /**
   * A package an MCP client launches that its public registry does not have (mcp/unpublished.ts):
   * a failure, not "not evaluated", which MCP ignore entries covering every server that launches
   * it acknowledge (as a package entry naming it does).
   */
  unpublishedLaunch?: UnpublishedLaunch | null;
}

const FAILING_VERDICTS: Record<'no' | 'caution', readonly Report['verdictCode'][]> = {
  no: ['no'],
  caution: ['no', 'caution'],
};

/** An advisory without a severity counts as high (as the known-vulnerabilities check reads it). */
const SEVERITY_RANK: Record<Report['advisories'][number]['severity'], number> = { low: 0, moderate: 1, high: 2, unknown: 2, critical: 3 };

/** One failure per advisory affecting the resolved version at or above `level` (the package's own, not its dependencies'). */
function severityFailures(report: Report, level: SeverityLevel | null): PolicyFailure[] {
  if (level === null) return [];
  const bar = SEVERITY_LEVELS.indexOf(level);
  return report.advisories
    .filter((a) => a.affectsResolved && !a.malicious && a.package === report.target.name && SEVERITY_RANK[a.severity] >= bar)
    .map((a) => ({
      rule: 'advisory',
      message: `${a.id} (${a.severity}${a.cvss === null ? '' : `, CVSS ${a.cvss}`}) affects ${report.target.version ?? 'this version'}${a.fixed === null ? '' : `, fixed in ${a.fixed}`} (fail on ${level} and above)`,
    }));
}

/** Why an evaluated report breaks the policy, most serious first. */
function failuresOf(report: Report & { score: number }, policy: Policy, license: PackageLicense): PolicyFailure[] {
  const failures: PolicyFailure[] = [];
  const doNotUse = report.verdictCode === 'do-not-use';
  if (doNotUse) {
    failures.push({ rule: 'verdict', message: `${report.verdict}: ${report.verdictReasons[0] ?? 'known malicious or placeholder'}` });
  }
  for (const cap of report.caps) {
    // A dimension cap already lowered the score it feeds; a do-not-use cap is the verdict above;
    // a ceiling is a bound, not a finding (an MCP server's weakest package, code nerq cannot
    // inspect): it lowers the score the bar is compared with, as the gate of `nerq check` reads it.
    if (cap.dimension !== null || cap.ceiling === true || (doNotUse && report.verdictReasons.includes(cap.reason))) continue;
    failures.push({ rule: 'capped', message: `capped at ${cap.limit}: ${cap.reason}` });
  }
  const score = roundScore(report.score);
  if (score < policy.minScore) {
    failures.push({ rule: 'min-score', message: `score ${score.toFixed(1)} is below the minimum ${policy.minScore}` });
  }
  for (const [id, floor] of Object.entries(policy.dimensions) as [Dimension, number][]) {
    const dimension = report.dimensions.find((d) => d.id === id);
    if (dimension?.score == null) continue;
    const value = roundScore(dimension.score);
    if (value < floor) {
      failures.push({ rule: 'dimension-floor', message: `${DIMENSION_TITLES[id]} ${value.toFixed(1)} is below its floor ${floor}` });
    }
  }
  failures.push(...licenseFailures(license, policy.licenses));
  if (!doNotUse && policy.failOn !== null && FAILING_VERDICTS[policy.failOn].includes(report.verdictCode)) {
    failures.push({ rule: 'verdict', message: `verdict ${report.verdict} fails the policy (failOn: ${policy.failOn})` });
  }
  failures.push(...severityFailures(report, policy.failOnSeverity));
  return failures;
}

/** The policy's decision for one audited package. Pure. */
export function applyPolicy(
  report: Report,
  subject: AuditSubject,
  policy: Policy,
  now: Date,
  options: ApplyOptions = {},
): PolicyOutcome {
  if (isModuleEcosystem(subject.ecosystem)) return applyModulePolicy(report, subject.ecosystem, subject, policy, now);
  let status: PolicyOutcome['status'];
  let failures: PolicyFailure[];
  if (report.error !== null || report.score === null) {
    status = 'error';
    failures = [{ rule: 'not-evaluated', message: report.error?.message ?? 'no score: nothing could be evaluated' }];
    // The registry answered: the name is nobody's, and the client runs whoever claims it next.
    if (options.unpublishedLaunch != null) {
      status = 'fail';
      failures = [...options.unpublishedLaunch.failures];
    }
  } else {
    failures = failuresOf({ ...report, score: report.score }, policy, options.license ?? licenseFromReport(report));
    status = failures.length > 0 ? 'fail' : 'pass';
  }
  const unverifiedConfusion = options.dependencyConfusion?.unverified === true ? options.dependencyConfusion : null;
  if (options.dependencyConfusion != null && unverifiedConfusion === null) {
    const { message, at } = options.dependencyConfusion;
    failures.push({ rule: 'dependency-confusion', message, ...(at === null ? {} : { at }) });
    if (status === 'pass') status = 'fail';
  }
  const unverifiedPin = options.lockfileInjection?.unverified === true ? options.lockfileInjection : null;
  if (options.lockfileInjection != null && unverifiedPin === null) {
    // First: it says what would really be installed, whatever the evaluation of the name found.
    failures.unshift({ rule: 'lockfile-injection', message: options.lockfileInjection.message, at: options.lockfileInjection.at });
    if (status === 'pass' || status === 'error') status = 'fail';
  }
  if (status === 'pass') {
    // Code nerq cannot inspect (a remote-only MCP server, one whose only packages are images) is
    // neither passed nor failed: not evaluated, as the gate of `nerq check` leaves it; no flag
    // lifts it, a reviewed MCP ignore entry covers it (docs/mcp.md, "Code nerq cannot inspect").
    for (const uninspected of uninspectedGuards(report.checks, CHECKS)) {
      status = 'error';
      failures.push({ rule: 'uninspected', message: `${uninspected.title}: ${uninspected.reason}`, checks: uninspected.ids });
    }
  }
  if (status === 'pass' && report.score !== null && report.coverage < policy.minCoverage) {
    status = 'error';
    const [coverage, minimum] = percentsApart(report.coverage, policy.minCoverage);
    failures.push({ rule: 'min-coverage', message: `coverage ${coverage}% is below the minimum ${minimum}%` });
  }
  if (status === 'pass') {
    // Passing on what could be checked is not passing: a guarding check that could not run
    // leaves the package incomplete (the run says so, and fails with 3 unless allowed).
    for (const unchecked of uncheckedGuards(report.checks, CHECKS)) {
      status = 'incomplete';
      failures.push({ rule: 'not-checked', message: `${unchecked.title} not checked: ${unchecked.reason}`, checks: unchecked.ids });
    }
  }
  if (unverifiedConfusion !== null && (status === 'pass' || status === 'incomplete')) {
    // The public registry did not answer: whether the name is public too is not known.
    status = 'incomplete';
    const { message, at } = unverifiedConfusion;
    failures.push({ rule: 'not-checked', message: `dependency confusion not checked: ${message}`, checks: ['dependency-confusion'], ...(at === null ? {} : { at }) });
  }
  if (unverifiedPin !== null && (status === 'pass' || status === 'incomplete')) {
    // A Python pin from another index that nothing vouches for: what is installed is not known to be what was scored.
    status = 'incomplete';
    failures.unshift({ rule: 'not-checked', message: `lockfile injection not checked: ${unverifiedPin.message}`, checks: ['lockfile-injection'], at: unverifiedPin.at });
  }
  if (status === 'pass') return { status, failures, ignoredBy: null };
  // Known malicious, a malicious dependency or a security placeholder: no review makes it
  // installable, so no ignore entry covers it (refusedIgnores says so for a package entry).
  if (report.verdictCode === 'do-not-use') return { status, failures, ignoredBy: null };
  if (subject.ecosystem === 'mcp') {
    // An MCP Registry entry (`nerq audit --mcp`) is covered by an MCP entry naming it or a server
    // configured as it, never by a package entry (mcp/ignore.ts).
    const mcp = findMcpIgnore(policy.ignore, options.mcpServers ?? [], now);
    return mcp === null ? { status, failures, ignoredBy: null } : { status: 'ignored', failures, ignoredBy: mcpIgnoredBy(mcp) };
  }
  const launch = launchIgnore(options.unpublishedLaunch, failures, policy, now);
  if (launch !== null) return { status: 'ignored', failures, ignoredBy: mcpIgnoredBy(launch) };
  const ignore = coveringIgnore(report, subject, subject.ecosystem, policy, now);
  if (ignore === null) return { status, failures, ignoredBy: null };
  return { status: 'ignored', failures, ignoredBy: { package: ignore.package, reason: ignore.reason, expires: ignore.expires } };
}

/**
 * The MCP entry that acknowledges an unpublished launch (`mcp-package-missing`): only when it is
 * the package's one failure, and an unexpired MCP entry covers each server that launches it —
 * the first server's is named; null otherwise (mcp/ignore.ts).
 */
function launchIgnore(launch: UnpublishedLaunch | null | undefined, failures: readonly PolicyFailure[], policy: Policy, now: Date): McpIgnoreEntry | null {
  if (launch == null || launch.servers.length === 0 || !failures.every((f) => f.rule === UNPUBLISHED_LAUNCH_RULE)) return null;
  const covering = launch.servers.map((server) => findMcpIgnore(policy.ignore, [server], now));
  return covering.every((entry) => entry !== null) ? covering[0]! : null;
}

/** Affecting advisories of a Go module or crate, known malicious ones apart. */
const affecting = (report: Report) => report.advisories.filter((a) => a.affectsResolved);
const isMaliciousModule = (report: Report) => affecting(report).some((a) => a.malicious);

/**
 * The decision for a Go module or crate (README.md, "nerq audit [dir]"): its trust is not
 * scored, so it never passes. A known-malicious record fails it (no ignore entry covers that); an
 * advisory at a severity that caps an npm package (critical, high, unknown: checks/lib/advisories.ts)
 * or at `--fail-on` and above fails it (rule `advisory`); OSV unavailable leaves it incomplete
 * (`not-checked`); otherwise it is incomplete because its trust is not scored (`not-scored`), which
 * `--allow-incomplete` accepts. A `go:` / `cargo:` ignore entry covers all but the malicious.
 */
function applyModulePolicy(report: Report, ecosystem: ModuleEcosystem, subject: AuditSubject, policy: Policy, now: Date): PolicyOutcome {
  const version = report.target.version ?? 'this version';
  const failures: PolicyFailure[] = [];
  for (const a of affecting(report).filter((a) => a.malicious)) {
    failures.push({ rule: 'malicious', message: `${a.id}: ${subject.name}@${version} is known malicious` });
  }
  const bar = policy.failOnSeverity === null ? null : SEVERITY_LEVELS.indexOf(policy.failOnSeverity);
  for (const a of affecting(report).filter((a) => !a.malicious)) {
    if (!capsVersion(a.severity) && (bar === null || SEVERITY_RANK[a.severity] < bar)) continue;
    const why = capsVersion(a.severity) ? 'a severity that fails any package' : `fail on ${policy.failOnSeverity ?? ''} and above`;
    failures.push({
      rule: 'advisory',
      message: `${a.id} (${a.severity === 'unknown' ? 'severity unknown, treated as high' : a.severity}${a.cvss === null ? '' : `, CVSS ${a.cvss}`}) affects ${version}${a.fixed === null ? '' : `, fixed in ${a.fixed}`} (${why})`,
    });
  }
  if (failures.some((f) => f.rule === 'malicious')) return { status: 'fail', failures, ignoredBy: null };
  let status: PolicyOutcome['status'] = failures.length > 0 ? 'fail' : 'incomplete';
  if (status === 'incomplete') {
    const osv = report.sources.find((source) => source.id === 'vulnerabilities');
    if (osv?.status !== 'ok') {
      failures.push({
        rule: 'not-checked',
        message: `Known vulnerabilities and malicious packages not checked: ${osv?.reason ?? 'OSV not asked'}`,
        checks: ['known-vulnerabilities', 'malicious-package'],
      });
    } else {
      const below = affecting(report).length;
      failures.push({
        rule: 'not-scored',
        message: `trust not scored (no registry adapter for a ${moduleNoun(ecosystem)}): checked against OSV only, ${below === 0 ? 'no advisory affects it' : `${below} ${below === 1 ? 'advisory' : 'advisories'} below the bar`}`,
      });
    }
  }
  const ignore = coveringIgnore(report, subject, ecosystem, policy, now);
  if (ignore === null) return { status, failures, ignoredBy: null };
  status = 'ignored';
  return { status, failures, ignoredBy: { package: ignore.package, reason: ignore.reason, expires: ignore.expires } };
}

/** The unexpired package entry naming this package and version, or null. */
function coveringIgnore(report: Report, subject: AuditSubject, ecosystem: AuditEcosystem, policy: Policy, now: Date): PackageIgnoreEntry | null {
  return findIgnore(policy.ignore, { ecosystem, name: subject.name, version: report.target.version ?? subject.version }, now);
}

/**
 * One `ignore-refused` warning per package an unexpired ignore entry names that is NO — DO NOT
 * USE (known malicious, a malicious dependency, a registry's security placeholder): the entry is
 * not applied and the package fails (docs/security.md, "Ignore entries"). MCP subjects follow their
 * own entries (mcp/ignore.ts), which never cover such a server either.
 */
export function refusedIgnores(entries: readonly AuditEntry[], policy: Policy, now: Date): AuditWarning[] {
  return entries.flatMap(({ subject, report }) => {
    if (subject.ecosystem === 'mcp') return [];
    // A Go module or crate has no verdict of its own: a known-malicious record refuses the entry (applyModulePolicy).
    const module = isModuleEcosystem(subject.ecosystem);
    if (module ? !isMaliciousModule(report) : report.verdictCode !== 'do-not-use') return [];
    const ignore = coveringIgnore(report, subject, subject.ecosystem, policy, now);
    if (ignore === null) return [];
    const index = policy.ignore.indexOf(ignore);
    const label = report.target.version === null ? subject.name : `${subject.name}@${report.target.version}`;
    return [
      {
        code: 'ignore-refused',
        message: sanitizeForTerminal(
          module
            ? `${policy.source ?? 'policy'}: ignore[${index}] ${ignoreLabel(ignore)} not applied: ${label} is known malicious (${affecting(report).find((a) => a.malicious)?.id ?? 'OSV'}); remove it and the dependency`
            : `${policy.source ?? 'policy'}: ignore[${index}] ${ignoreLabel(ignore)} not applied: ${label} is ${report.verdict} (${report.verdictReasons[0] ?? 'known malicious'}); remove it and the package`,
        ),
        details: { index, package: ignore.package, target: label },
      },
    ];
  });
}

/**
 * The audit as SARIF 2.1.0 for code scanning: one run of tool `nerq`, its rules the check
 * metadata plus the policy rules and the MCP finding rules, and one result per package that
 * fails the policy (level `error`), could not be evaluated or was not fully checked (level
 * `warning`), per finding of `nerq audit --mcp` that decides the outcome (`finding/<code>`), and
 * per dependency fetched from a git repository or URL no registry vouches for (level `warning`,
 * at its line; one an ignore entry covers has none); passing packages have none. An ignored package or finding keeps its result, with a
 * `suppressions` entry (SARIF 2.1.0 §3.27.23, §3.35: kind `external` — the decision lives in the
 * policy file, not at the location — status `accepted`, the entry's reason as justification), so
 * code scanning shows it closed rather than dropping it. What the run itself could not do (an
 * unreachable service, an incomplete result) is in `invocations[0].toolExecutionNotifications`,
 * with the exit code. A package result's rule is its main policy failure (`policy/min-score`, …), or
 * the rule of the worst advisory failing it (`policy/advisory-<severity>`) when that is more severe;
 * it is located at the manifest or lockfile line that declares the package (a main failure that
 * carries `at` — `lockfile-injection`, `dependency-confusion` named by a lockfile's `resolved` —
 * at the lockfile pin it is about; a file outside the repository, a user-scope MCP client
 * configuration, keeps a location, and its message says where the file is; a finding that names
 * no file is located at the audit's first input and says it is about the project as a whole:
 * every result has a location, as code scanning requires) — and carries a
 * fingerprint that depends only on the package (ecosystem, name, version), so code scanning
 * follows the same alert from run to run. Messages are sanitised plain text.
 */
import { createHash } from 'node:crypto';
import { OUTCOME_FINDINGS, type AuditEntry, type AuditReport, type AuditWarning, type IgnoredBy, type UnvouchedRemote } from '../audit/types.js';
import type { AnyCheck } from '../checks/define.js';
import { VERSION } from '../version.js';
import { findingAt, fixText, mainReason, mainRule, onlyNotScored, outcomeHint, outsideText, packageLabel, repositoryPath, runResult, summarySentence, unvouchedCounts, viaText } from './audit-labels.js';
import { sanitizeForTerminal } from './sanitize.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';


export interface SarifOptions {
  /** The check metadata (CHECKS) for the rules. */
  checks: readonly Pick<AnyCheck, 'id' | 'title' | 'description' | 'dimension'>[];
  /** The audited directory relative to the repository root (`/`-separated), prefixed to every location. */
  baseDir?: string;
  /**
   * docs/checks.md in the repository nerq's package.json declares (CHECKS_DOC_URL): a check's
   * rule links to its section (`#<check id>`). Null or absent: no rule carries a `helpUri`.
   */
  checksDocUrl?: string | null;
}

/**
 * An advisory that fails the package (rule `advisory`, or the `vulnerable-version` cap behind
 * `capped`), as one rule per severity: code scanning reads `security-severity` on the rule only
 * (not per result), so the worst advisory failing a package picks the rule its result carries —
 * a critical one is critical there, a low one failed by `--fail-on low` low. An advisory of
 * unknown severity counts as high, as the known-vulnerabilities check reads it.
 */
const ADVISORY_RULES: readonly { rule: string; title: string; description: string; severity: number }[] = [
  { rule: 'advisory-critical', title: 'Critical advisory', description: 'A critical advisory affects the resolved version: it caps the score, and fails the package as in `nerq check`.', severity: 9.5 },
  {
    rule: 'advisory-high',
    title: 'High advisory',
    description: 'A high advisory (or one of unknown severity, treated as high) affects the resolved version: it caps the score, and fails the package as in `nerq check`.',
    severity: 8.0,
  },
  { rule: 'advisory-moderate', title: 'Moderate advisory', description: 'A moderate advisory affects the resolved version, and `--fail-on` (or the policy\'s failOnSeverity) names moderate or low.', severity: 5.5 },
  { rule: 'advisory-low', title: 'Low advisory', description: 'A low advisory affects the resolved version, and `--fail-on low` (or the policy\'s failOnSeverity) fails it.', severity: 2.0 },
];

/** The advisory rule of each severity (unknown is treated as high). */
const ADVISORY_RULE_OF: Record<AuditEntry['report']['advisories'][number]['severity'], string> = {
  critical: 'policy/advisory-critical',
  high: 'policy/advisory-high',
  unknown: 'policy/advisory-high',
  moderate: 'policy/advisory-moderate',
  low: 'policy/advisory-low',
};

/**
 * The policy rules (`policy/<rule>` of PolicyFailure.rule). `severity` is GitHub code scanning's
 * `security-severity` (a CVSS-like 0–10: over 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, else low), set on
 * the rules about the safety of what gets installed; the others (licences, coverage) are not
 * security findings and carry none. Code scanning reads it on the rule, never per result: an
 * advisory has a rule per severity (ADVISORY_RULES).
 */
export const POLICY_RULES: readonly { rule: string; title: string; description: string; severity?: number }[] = [
  { rule: 'verdict', title: 'Verdict fails the policy', description: 'The package is NO — DO NOT USE (known malicious or a security placeholder), or has a verdict the policy\'s failOn names.', severity: 9.5 },
  { rule: 'malicious', title: 'Known malicious package', description: 'OSV has a known-malicious record (`MAL-`) for the pinned version of this package: remove it. No ignore entry covers it.', severity: 9.5 },
  { rule: 'capped', title: 'Score capped', description: 'A cap limits the overall score (deprecation, an archived repository; an advisory\'s cap is the advisory\'s rule); a capped package fails as in `nerq check`.', severity: 7.5 },
  ...ADVISORY_RULES,
  { rule: 'min-score', title: 'Below the minimum score', description: 'The trust score is below the policy\'s minScore (default 50).', severity: 5.0 },
  { rule: 'dimension-floor', title: 'Below a dimension floor', description: 'A dimension score (security, maintenance, documentation, compliance, community) is below its floor in the policy.', severity: 4.0 },
  { rule: 'license-denied', title: 'Licence denied', description: 'Every way of satisfying the package\'s SPDX licence expression uses a licence the policy denies.' },
  { rule: 'license-not-allowed', title: 'Licence not allowed', description: 'The package\'s licence cannot be satisfied with the licences the policy allows (or it is not valid SPDX, or unknown).' },
  { rule: 'dependency-confusion', title: 'Possible dependency confusion', description: 'The package resolves from a private registry while the same name exists on the public registry.', severity: 8.5 },
  { rule: 'lockfile-injection', title: 'Lockfile installs something else', description: "The lockfile's resolved URL or integrity for the package is not the registry's for that name and version (or a yarn descriptor resolves to another package): it would install other code under a trusted name.", severity: 9.5 },
  { rule: 'mcp-package-missing', title: 'MCP server launches an unpublished name', description: "A configured MCP server launches a package (npx, uvx…) its public registry does not have (it answered 404): anyone may publish that name, and the client runs it at its next start with the secrets its configuration gives it. Fix the name or remove the server.", severity: 8.5 },
  { rule: 'not-evaluated', title: 'Not evaluated', description: 'The package could not be evaluated (not found, not supported, or its sources failed).' },
  { rule: 'uninspected', title: 'Code nerq cannot inspect', description: 'What the MCP server runs cannot be inspected (a remote-only server, one whose only packages are container images, NuGet packages or MCP bundles): not evaluated, never passed. No flag lifts it; a reviewed MCP ignore entry in the policy file covers it.', severity: 5.0 },
  { rule: 'min-coverage', title: 'Too little coverage', description: 'Too few of the checks could be answered for the score to be trusted (policy minCoverage, default 50%).' },
  { rule: 'unvouched-remote', title: 'Dependency no registry vouches for', description: 'The lockfile or manifest fetches this dependency from a git repository or a URL (a tarball, an archive, a VCS reference) that no registry serves: nerq could not evaluate it, and the run is incomplete. Name it in the policy\'s ignore list with a reason once reviewed, or accept such dependencies with `--allow-incomplete`.', severity: 6.0 },
  { rule: 'not-scored', title: 'Trust not scored (checked against OSV only)', description: 'A Go module or crate: nerq has no registry adapter to score its trust, so it was only checked against OSV, and no advisory fails it. `--allow-incomplete` accepts such dependencies.', severity: 2.0 },
  { rule: 'not-checked', title: 'Not checked for vulnerabilities, malicious code or lockfile injection', description: "A guarding check (known vulnerabilities, malicious packages) could not run because its source was unavailable, or a Python lockfile entry from another index than PyPI pins no hash PyPI's digests could be compared with: the package is not known to be clean, or to be PyPI's release. `--allow-incomplete` accepts such packages.", severity: 4.0 },
];

/** The findings that decide the outcome (OUTCOME_FINDINGS: `nerq audit --mcp`'s, an input's install hook or unreadable hash), as rules `finding/<code>`. */
export const FINDING_RULES: readonly { code: string; title: string; description: string; severity: number }[] = [
  { code: 'mcp-widened-reach', title: 'MCP server container with a wider reach', description: 'A configured MCP server starts a container with --privileged, the Docker socket, the host network or PID namespace, an added capability or the host root mounted: fails the policy.', severity: 8.0 },
  { code: 'mcp-remote-insecure', title: 'Remote MCP server over http', description: 'A configured remote MCP server is reached over plain http: fails the policy, and no ignore entry covers it.', severity: 7.5 },
  { code: 'mcp-fetched-script', title: 'MCP server runs a fetched script', description: 'A configured MCP server runs a script fetched from a URL at every start (deno run https://…, a shell running curl … | sh): no registry vouches for it, its code cannot be inspected, and the run is incomplete.', severity: 5.0 },
  { code: 'mcp-uninspected', title: 'MCP server runs code nerq cannot inspect', description: 'A configured MCP server runs a container image, a NuGet tool, or a package through a runner nerq cannot read (a JSR package, a flag it does not read with certainty, a command it cannot see through that names a package runner): nerq reads what the reference says (pinned by digest, a tag or latest; the image registry) but cannot inspect its code, so the run is incomplete until a reviewed MCP ignore entry names it.', severity: 5.0 },
  { code: 'mcp-remote-unverified', title: 'Remote MCP server unverified', description: 'No single MCP Registry entry declares the URL of a configured remote MCP server (or the registry could not be asked): its code cannot be inspected, and the run is incomplete.', severity: 5.0 },
  { code: 'mcp-config-unread', title: 'MCP client configuration not read', description: "An MCP client configuration file found where a client keeps it could not be read: larger than its cap (1 MiB; 128 MiB for Claude Code's .claude.json), not a regular file, or unreadable. The MCP servers it lists are not audited, so the run is incomplete; the other files are audited.", severity: 5.0 },
  { code: 'unvouched-hook', title: 'Install hook nerq does not evaluate', description: "The project has a pnpmfile (`.pnpmfile.cjs`, `.pnpmfile.mjs`, or a file pnpm's `pnpmfile` or `global-pnpmfile` setting names in pnpm-workspace.yaml or .npmrc), or a `.yarnrc.yml` plugin or `yarnPath` (a yarn 1 `.yarnrc` `yarn-path`) from outside the project, or a program or module from outside it that the project's `.npmrc` makes npm run (`script-shell`, a `node-options` `--require`, `git`, `node-gyp`, `onload-script`): that code may rewrite any package's manifest or resolution at install time, so the dependency graph the lockfile records was shaped by code nerq does not read. The run is incomplete; `--allow-incomplete` accepts it once the hook is reviewed.", severity: 5.0 },
  { code: 'hash-unreadable', title: 'A --hash that pins nothing', description: 'A requirements line gives a `--hash` that is not a full sha256, sha384 or sha512 hex digest (shortened, another algorithm, not hex): pip can match no file against it, so it pins nothing nerq can compare. The run is incomplete; `--allow-incomplete` accepts it.', severity: 4.0 },
];

/**
 * A rule's help is carried in the log itself (`help.text`, and `help.markdown` that code scanning
 * shows on the alert). A check's rule also has a `helpUri` (SARIF 2.1.0 §3.49.12, optional) to
 * its section of docs/checks.md, only in the repository nerq's own package.json declares: a
 * link is only as safe as whoever holds its host and name, so none is made up (docs/security.md).
 */
interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri?: string;
  help: { text: string; markdown: string };
  properties: { tags: string[]; 'security-severity'?: string };
}

/** What to do about a package result (every policy rule): nerq check shows why, the policy file decides. */
const POLICY_NEXT = 'Run `nerq check` on the package for the checks and evidence behind it. Once it is reviewed, an entry in the policy file\'s ignore list with a reason keeps the result, closed as an accepted suppression — where the rule allows it.';
/** What to do about an MCP finding. */
const FINDING_NEXT = 'The result is located at the MCP client configuration that declares the server. Once it is reviewed, an MCP ignore entry in the policy file with a reason keeps the result, closed as an accepted suppression — where the rule allows it.';

/** Help as plain text and as the markdown code scanning shows: the title, what the rule means, then what lifts it. */
function helpOf(title: string, description: string, next: string): SarifRule['help'] {
  return { text: `${description}\n\n${next}`, markdown: `**${title}**\n\n${description}\n\n${next}` };
}

function checkRules(options: SarifOptions): SarifRule[] {
  return options.checks.map((check) => ({
    id: check.id,
    name: check.title,
    shortDescription: { text: check.title },
    fullDescription: { text: check.description },
    ...(options.checksDocUrl == null ? {} : { helpUri: `${options.checksDocUrl}#${encodeURIComponent(check.id)}` }),
    help: helpOf(check.title, check.description, `A check of the ${check.dimension} dimension: \`nerq check\` on the package shows its score, message and evidence; the policy decides whether the package passes.`),
    properties: { tags: ['supply-chain', check.dimension] },
  }));
}

function policyRules(): SarifRule[] {
  return POLICY_RULES.map((r) => ({
    id: `policy/${r.rule}`,
    name: r.title,
    shortDescription: { text: r.title },
    fullDescription: { text: r.description },
    help: helpOf(r.title, r.description, POLICY_NEXT),
    properties: {
      tags: ['supply-chain', 'policy', ...(r.severity === undefined ? [] : ['security'])],
      ...(r.severity === undefined ? {} : { 'security-severity': r.severity.toFixed(1) }),
    },
  }));
}

function findingRules(): SarifRule[] {
  return FINDING_RULES.map((r) => ({
    id: `finding/${r.code}`,
    name: r.title,
    shortDescription: { text: r.title },
    fullDescription: { text: r.description },
    help: helpOf(r.title, r.description, FINDING_NEXT),
    properties: { tags: ['supply-chain', 'mcp', 'security'], 'security-severity': r.severity.toFixed(1) },
  }));
}

const FINDING_CODES: readonly string[] = [...OUTCOME_FINDINGS.fail, ...OUTCOME_FINDINGS.incomplete, ...OUTCOME_FINDINGS.unvouched];

/** An ignore entry that applied, as a SARIF suppression: recorded outside the code (the policy file), accepted, with its reason. */
function suppressionsOf(ignoredBy: IgnoredBy | null | undefined): object {
  if (ignoredBy == null) return {};
  return { suppressions: [{ kind: 'external', status: 'accepted', justification: sarifText(ignoredBy.reason) }] };
}

/**
 * What the run could not do, as SARIF tool execution notifications: the audit's result when it
 * is incomplete (level error: the exit code is 3 unless allowed), then each warning once.
 */
function invocationOf(report: AuditReport): object {
  const notifications: object[] = [];
  if (report.outcome.result === 'incomplete' || report.summary.incomplete > 0 || unvouchedCounts(report).unvouched > 0) {
    const hint = outcomeHint(report);
    notifications.push({
      level: report.outcome.result === 'incomplete' ? 'error' : 'warning',
      message: { text: sarifText(`${runResult(report)}: ${summarySentence(report)}${hint === null ? '' : ` (${hint})`}`) },
      descriptor: { id: 'audit-incomplete' },
    });
  }
  for (const warning of report.warnings) {
    // A finding that decides the outcome is a result of its own.
    if (FINDING_CODES.includes(warning.code)) continue;
    notifications.push({ level: 'warning', message: { text: sarifText(warning.message) }, descriptor: { id: warning.code } });
  }
  return {
    executionSuccessful: true,
    exitCode: report.outcome.exitCode,
    toolExecutionNotifications: notifications,
  };
}

/**
 * A path from the repository root (repositoryPath) as a URI reference: `/`-separated, each
 * segment percent-encoded; the root itself is `.`. Half a surrogate pair (which
 * `encodeURIComponent` refuses) is written as U+FFFD: a location never stops the log.
 */
function uriOf(path: string): string {
  if (path === '') return '.';
  return path
    .split('/')
    .map((part) => encodeURIComponent(part.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')))
    .join('/');
}

/** Stable per package: the same ecosystem, name and version give the same fingerprint. */
export function packageFingerprint(entry: AuditEntry): string {
  const version = entry.report.target.version ?? entry.subject.version ?? entry.subject.spec ?? '';
  return createHash('sha256').update(`${entry.subject.ecosystem}\u0000${entry.subject.name}\u0000${version}`).digest('hex');
}

/**
 * Where the result points: for a main failure about one line of the inputs (`lockfile-injection`:
 * the lockfile pin, with its line when the reader knows it), that line; else the declaring file
 * and line; for a package declared nowhere (it should not happen) the first audited input, as
 * code scanning wants a location on every result.
 */
function placeOf(entry: AuditEntry, report: AuditReport, options: SarifOptions): Place {
  const at = findingAt(entry);
  return at === null ? { ...projectPlace(report, options), note: '' } : placeAt(at.file, at.line, options);
}

/**
 * Where a result that names no file is located (code scanning rejects an upload with a result
 * without a location): the audit's first input, else the audited folder itself; its note says
 * the result is about the project as a whole.
 */
function projectPlace(report: AuditReport, options: SarifOptions): Place {
  const first = report.inputs[0]?.file ?? '.';
  const { locations } = placeAt(first, null, options);
  const outside = repositoryPath(first, options.baseDir).outside ? `; ${sarifText(outsideText(first, null))}` : '';
  return { locations, note: ` (about the project as a whole, not one file${outside})` };
}

/** A result's locations, and what its message adds when they cannot say where it is. */
interface Place {
  locations: object[];
  note: string;
}

/**
 * A result's locations: the file, and the line when one is known, as a repository-relative URI.
 * Code scanning rejects a whole upload when a result has no location ("expected at least one
 * location"), so a file outside the repository (a user-scope MCP client configuration, `~/…`, or
 * an absolute path) keeps the location its name gives under the audited folder, and its message
 * says where it really is (as the report names it: never the home folder's path).
 */
function placeAt(file: string, line: number | null, options: SarifOptions): Place {
  const { path, outside } = repositoryPath(file, options.baseDir);
  return {
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: uriOf(path) },
          ...(line !== null && line >= 1 ? { region: { startLine: line } } : {}),
        },
      },
    ],
    note: outside ? ` (${sarifText(outsideText(file, line))})` : '',
  };
}

/**
 * Text from the network as SARIF plain text: sanitised, literal square brackets escaped and the
 * backslashes right before one doubled, since `[text](uri)` in a message is an embedded link
 * (SARIF 2.1.0 §3.11.6): a deprecation notice cannot plant a link in a code-scanning alert.
 */
export function sarifText(text: string): string {
  return sanitizeForTerminal(text)
    .trim()
    .replace(/\\+(?=[[\]])|[[\]]/g, (c) => (c.startsWith('\\') ? c + c : `\\${c}`));
}

type Severity = AuditEntry['report']['advisories'][number]['severity'];
/** Worst first; unknown counts as high. */
const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'unknown', 'moderate', 'low'];

/**
 * The severity of the worst advisory affecting the resolved version: the package's own (a Go
 * module's or crate's report lists only its own), or null when none does.
 */
function worstAdvisory(entry: AuditEntry): Severity | null {
  const affecting = entry.report.advisories.filter((a) => a.affectsResolved && !a.malicious && a.repository !== true);
  const own = affecting.filter((a) => a.package === entry.report.target.name);
  const pool = own.length > 0 ? own : affecting;
  return SEVERITY_ORDER.find((severity) => pool.some((a) => a.severity === severity)) ?? null;
}

/** A rule's `security-severity` as a number (0 for a rule without one). */
function severityOfRule(rules: readonly SarifRule[], id: string): number {
  return Number(rules.find((r) => r.id === id)?.properties['security-severity'] ?? 0);
}

/**
 * The rule a package result carries: its main policy failure (mainRule), unless an advisory fails
 * the package — rule `advisory`, or the `vulnerable-version` cap behind a `capped` failure — and
 * its severity's rule (ADVISORY_RULES, after the worst affecting advisory) is more severe than the
 * main failure's rule, or the main failure is the advisory itself: then that advisory rule, so that
 * code scanning shows a critical advisory as critical and a low one as low.
 */
function resultRule(entry: AuditEntry, rules: readonly SarifRule[]): string {
  const main = mainRule(entry);
  const { failures } = entry.policy;
  const advisoryCap = failures.some((f) => f.rule === 'capped') && entry.report.caps.some((c) => c.id === 'vulnerable-version' && c.dimension === null && c.ceiling !== true);
  if (!advisoryCap && !failures.some((f) => f.rule === 'advisory')) return main;
  const advisory = ADVISORY_RULE_OF[worstAdvisory(entry) ?? 'unknown'];
  return main === 'policy/advisory' || severityOfRule(rules, advisory) > severityOfRule(rules, main) ? advisory : main;
}

/** Rules whose failure leaves a package unevaluated or unchecked rather than failing: an ignored package failing only these is a warning. */
const NOT_FAILING_RULES = new Set(['policy/not-evaluated', 'policy/uninspected', 'policy/min-coverage', 'policy/not-checked', 'policy/not-scored']);

function resultOf(entry: AuditEntry, report: AuditReport, rules: readonly SarifRule[], options: SarifOptions): object {
  const ruleId = resultRule(entry, rules);
  const ruleIndex = rules.findIndex((r) => r.id === ruleId);
  const label = sarifText(packageLabel(entry));
  const failures = entry.policy.failures.map((f) => sarifText(f.message));
  const { status } = entry.policy;
  const base =
    status === 'error'
      ? `${label} could not be evaluated: ${failures.join('; ') || sarifText(mainReason(entry))}`
      : status === 'incomplete'
        ? `${label} ${onlyNotScored(entry) ? 'was checked against OSV only' : 'was not fully checked'}: ${failures.join('; ')}`
        : status === 'ignored'
          ? `${label} is ignored (${sarifText(entry.policy.ignoredBy?.reason ?? '')}); it would fail: ${failures.join('; ') || sarifText(mainReason(entry))}`
          : `${label} fails the policy: ${failures.join('; ')}`;
  // What to do and where it comes from, as the table says them, for a package that fails (or would).
  const fix = fixText(entry);
  const via = viaText(entry);
  const acted = status === 'fail' || status === 'ignored';
  const place = placeOf(entry, report, options);
  const text = `${base}${acted && fix !== null ? `; fix: ${sarifText(fix)}` : ''}${acted && via !== null ? `; via ${sarifText(via)}` : ''}${place.note}`;
  const error = status === 'fail' || (status === 'ignored' && !NOT_FAILING_RULES.has(ruleId));
  return {
    ruleId,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: error ? 'error' : 'warning',
    message: { text },
    ...suppressionsOf(status === 'ignored' ? entry.policy.ignoredBy : null),
    locations: place.locations,
    partialFingerprints: { 'nerqPackage/v1': packageFingerprint(entry) },
    properties: {
      ecosystem: entry.subject.ecosystem,
      package: entry.subject.name,
      version: entry.report.target.version ?? entry.subject.version,
      score: entry.report.score,
      grade: entry.report.grade,
      verdict: entry.report.verdictCode,
      rules: entry.policy.failures.map((f) => `policy/${f.rule}`),
      // The project's patches on top of the release: the result is about the release, not them.
      ...(entry.subject.patches === undefined ? {} : { patches: entry.subject.patches.map((p) => p.path) }),
      // What it bundles in its tarball (docs/security.md, "Bundled dependencies"): part of this package, not audited apart.
      ...(entry.subject.bundled === undefined ? {} : { bundled: [...new Set(entry.subject.bundled.map((b) => b.name))] }),
    },
  };
}

/**
 * A dependency no registry vouches for (level warning, as an unchecked package: the run is
 * incomplete unless allowed), at its lockfile or manifest line; its fingerprint depends on the
 * ecosystem, name and source.
 */
function unvouchedResult(remote: UnvouchedRemote, rules: readonly SarifRule[], options: SarifOptions): object {
  const ruleId = 'policy/unvouched-remote';
  const ruleIndex = rules.findIndex((r) => r.id === ruleId);
  const alias = remote.declaredAs === undefined || remote.declaredAs.length === 0 ? '' : ` (declared as ${sarifText(remote.declaredAs.join(', '))})`;
  const what = `${remote.name === null ? 'A dependency' : sarifText(remote.name)}${alias}`;
  const from = sarifText(remote.host === null ? remote.source : `${remote.host} (${remote.source})`);
  const place = placeAt(remote.file, remote.line, options);
  return {
    ruleId,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: 'warning',
    message: { text: `${what} comes from ${from}, which no registry vouches for: not evaluated${place.note}` },
    locations: place.locations,
    partialFingerprints: {
      'nerqPackage/v1': createHash('sha256').update(`${remote.ecosystem}\u0000${remote.name ?? ''}\u0000${remote.source}`).digest('hex'),
    },
    properties: {
      ecosystem: remote.ecosystem,
      package: remote.name,
      ...(remote.declaredAs === undefined ? {} : { declaredAs: remote.declaredAs }),
      host: remote.host,
      source: remote.source,
      rules: [ruleId],
    },
  };
}

/**
 * A finding of `nerq audit --mcp` (a coded warning naming the configuration file, line and
 * server), or of an input (a pnpmfile, a `--hash` that pins nothing): located there (one naming no file at the audit's first input, its message saying it
 * is about the project as a whole), fingerprinted by its code, file and server, suppressed when ignored.
 */
function findingResultOf(finding: AuditWarning, report: AuditReport, rules: readonly SarifRule[], options: SarifOptions): object {
  const ruleId = `finding/${finding.code}`;
  const ruleIndex = rules.findIndex((r) => r.id === ruleId);
  const { file, line, server } = finding.details;
  // An input's finding is told apart by its line (several `--hash` lines of one file); an MCP one by its server.
  const which = (OUTCOME_FINDINGS.unvouched as readonly string[]).includes(finding.code) ? line : server;
  const fingerprint = createHash('sha256').update(`${finding.code}\u0000${String(file)}\u0000${String(which)}`).digest('hex');
  // A finding that names no file is about the project as a whole: located at its first input.
  const place = typeof file === 'string' && file !== '' ? placeAt(file, typeof line === 'number' ? line : null, options) : projectPlace(report, options);
  return {
    ruleId,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: (OUTCOME_FINDINGS.fail as readonly string[]).includes(finding.code) ? 'error' : 'warning',
    message: { text: `${sarifText(finding.message)}${place.note}` },
    locations: place.locations,
    partialFingerprints: { 'nerqFinding/v1': fingerprint },
    ...suppressionsOf(finding.ignoredBy),
    properties: { code: finding.code, ...(typeof server === 'string' ? { server: sanitizeForTerminal(server) } : {}) },
  };
}

/** The audit as a SARIF 2.1.0 log (pretty JSON, ending with a newline). */
export function renderSarif(report: AuditReport, options: SarifOptions): string {
  const rules = [...checkRules(options), ...policyRules(), ...findingRules()];
  const results = [
    ...report.warnings.filter((w) => FINDING_CODES.includes(w.code)).map((w) => findingResultOf(w, report, rules, options)),
    ...report.entries.filter((e) => e.policy.status !== 'pass').map((e) => resultOf(e, report, rules, options)),
    ...(report.unvouched ?? []).filter((r) => r.status === 'unvouched').map((r) => unvouchedResult(r, rules, options)),
  ];
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'nerq',
            version: VERSION,
            semanticVersion: VERSION,
            rules,
          },
        },
        invocations: [invocationOf(report)],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

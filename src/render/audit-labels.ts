/**
 * Words shared by the audit renderers: a package's label, the one reason that matters most,
 * the status and summary lines. Inputs are raw strings from reports (hostile): callers
 * sanitise or escape the results for their format.
 */
import { OUTCOME_FINDINGS, type AuditEntry, type AuditReport, type AuditWarning, type IgnoredBy } from '../audit/types.js';
import { isModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import { GRADES } from '../report/schema.js';
import { isProvisional } from './alerts.js';
import { firstVerdictReason } from './reason-words.js';
import { formatScore } from './text.js';

export type EntryStatus = AuditEntry['policy']['status'];

/** `name@version` (npm, a Go module, a crate) or `name==version` (PyPI); the declared range when unresolved; `mcp:name@version` for an MCP Registry entry. */
export function packageLabel(entry: AuditEntry): string {
  const { subject, report } = entry;
  // A report that could not be evaluated carries the declared specifier as its version, not a version.
  const version = (report.error === null ? report.target.version : null) ?? subject.version;
  if (subject.ecosystem === 'mcp') return version === null || version === '' ? `mcp:${subject.name}` : `mcp:${subject.name}@${version}`;
  // A Go module or crate is pinned at one exact version: `golang.org/x/net@v0.38.0`, `serde@1.0.219`.
  if (isModuleEcosystem(subject.ecosystem)) return version === null || version === '' ? subject.name : `${subject.name}@${version}`;
  const rules = packageRulesOf(subject.ecosystem);
  if (version !== null && version !== '') return rules.versionLabel(subject.name, version);
  if (subject.spec !== null && subject.spec !== '') return rules.specLabel(subject.name, subject.spec);
  return subject.name;
}

/** Why and until when: `ignored: replaced in #412 (until 2027-03-01)`. */
function ignoredByText(ignored: IgnoredBy): string {
  return `ignored: ${ignored.reason}${ignored.expires === null ? '' : ` (until ${ignored.expires})`}`;
}

/** An ignored entry's why and until when: `ignored: replaced in #412 (until 2027-03-01)`. */
export function ignoredText(entry: AuditEntry): string | null {
  const ignored = entry.policy.ignoredBy;
  if (entry.policy.status !== 'ignored' || ignored === null) return null;
  return ignoredByText(ignored);
}

/** A warning's message, and for a finding an MCP ignore entry covers, that it is ignored and why. */
export function warningText(warning: AuditWarning): string {
  return warning.ignoredBy === undefined ? warning.message : `${warning.message} — ${ignoredByText(warning.ignoredBy)}`;
}

/**
 * A package not evaluated because a host the run already reported down did not answer, said
 * short (`not evaluated: pypi.org unreachable, see Warnings`): the warning explains the outage
 * once, not under each of a hundred packages. Null for any other package or failure.
 */
export function outageText(report: AuditReport, entry: AuditEntry): string | null {
  const error = entry.report.error;
  if (entry.policy.status !== 'error' || error === null || error.code !== 'registry-unavailable') return null;
  for (const warning of report.warnings) {
    const { host, reason } = warning.details;
    if (warning.code !== 'service-unreachable' || typeof host !== 'string' || typeof reason !== 'string' || reason === '') continue;
    if (error.message.endsWith(reason)) return `not evaluated: ${host} unreachable, see Warnings`;
  }
  return null;
}

/** The first policy failure, else the verdict's first reason; an ignored entry says why it is ignored first. */
export function mainReason(entry: AuditEntry): string {
  const reason = entry.policy.failures[0]?.message ?? firstVerdictReason(entry.report) ?? '';
  const ignored = ignoredText(entry);
  if (ignored !== null) return `${ignored}; would fail: ${reason}`;
  return reason;
}

/** `GHSA-x (moderate) affects 2.1.0`: the advisories that affect the package's own installed version, or null. */
export function advisoryText(entry: AuditEntry): string | null {
  const { report } = entry;
  const own = report.advisories.filter((a) => a.affectsResolved && !a.malicious && a.package === report.target.name);
  if (own.length === 0) return null;
  return `${own.map((a) => `${a.id} (${a.severity})`).join(', ')} ${own.length === 1 ? 'affects' : 'affect'} ${report.target.version ?? 'this version'}`;
}

/**
 * What to do about an advisory affecting the package: `upgrade to 4.17.21` (the version that
 * fixes every advisory, as the known-vulnerabilities check found it), `no fixed version yet`,
 * or null when no advisory affects it.
 */
export function fixText(entry: AuditEntry): string | null {
  const check = entry.report.checks.find((c) => c.id === 'known-vulnerabilities');
  const affecting = entry.report.advisories.some((a) => a.affectsResolved && !a.malicious && a.package === entry.report.target.name);
  if (check === undefined || !affecting) return null;
  const { fixed, partialFix, unfixed } = check.evidence;
  if (typeof fixed === 'string' && fixed !== '') return `upgrade to ${fixed}`;
  const open = Array.isArray(unfixed) && unfixed.length > 0 ? ` (none for ${unfixed.join(', ')})` : '';
  if (typeof partialFix === 'string' && partialFix !== '') return `upgrade to ${partialFix} fixes some${open}`;
  return `no fixed version yet${open}`;
}

/**
 * With `audit --compare`, what to use instead: `ky 91.2 A YES, got 88.0 B YES` (the alternatives,
 * best first), `no higher-scoring alternative among 12 peers`, or `not compared: <reason>`;
 * null when the package was not compared.
 */
export function insteadText(entry: AuditEntry): string | null {
  const { report } = entry;
  if (report.comparison === undefined && report.comparisonUnavailable === undefined) return null;
  const alternatives = report.alternatives ?? [];
  if (alternatives.length > 0) {
    return `instead: ${alternatives.map((a) => `${a.target} ${formatScore(a.score)} ${a.grade ?? '—'} ${a.verdict}`).join(', ')}`;
  }
  // Too few peers for a standing are still peers compared for alternatives.
  const peers = report.comparison?.peers ?? report.comparisonUnavailable?.members?.length ?? 0;
  if (report.comparison != null || peers > 0) return `no higher-scoring alternative among ${peers} ${peers === 1 ? 'peer' : 'peers'}`;
  return `not compared: ${report.comparisonUnavailable?.reason ?? 'no comparison'}`;
}

/** `webpack › terser`: the packages that bring it in from a direct dependency, or null (direct, or unknown). */
export function viaText(entry: AuditEntry): string | null {
  const via = entry.subject.via;
  return via === null || via.length === 0 ? null : via.join(' › ');
}

/**
 * `patched by the project: patches/sirv@3.0.2.patch (the patch is not audited)`: the project's
 * patches applied on top of the release (docs/security.md), or null when it carries none.
 */
export function patchText(entry: AuditEntry): string | null {
  const patches = entry.subject.patches ?? [];
  if (patches.length === 0) return null;
  const files = patches.map((p) => p.path ?? `a patch ${p.file}${p.line === null ? '' : `:${p.line}`} names by its hash only`);
  return `patched by the project: ${[...new Set(files)].join(', ')} (the patch is not audited)`;
}

/** Names a bundled-dependencies line spells out before it counts the rest. */
const BUNDLED_NAMED = 5;

/**
 * `bundles 2 dependencies in its tarball: "ink", "react" (installed from it, not audited apart)`:
 * what the package ships in its tarball (docs/security.md, "Bundled dependencies"), or null
 * when it bundles none.
 */
export function bundledText(entry: AuditEntry): string | null {
  const bundled = entry.subject.bundled ?? [];
  if (bundled.length === 0) return null;
  const names = [...new Set(bundled.map((b) => b.name))];
  const shown = names.slice(0, BUNDLED_NAMED).map((n) => JSON.stringify(n)).join(', ');
  const more = names.length > BUNDLED_NAMED ? `, and ${names.length - BUNDLED_NAMED} more` : '';
  const count = bundled.length === 1 ? 'a dependency' : `${bundled.length} dependencies`;
  return `bundles ${count} in its tarball: ${shown}${more} (installed from it, not audited apart)`;
}

/** The main failing rule (for SARIF and annotations): `policy/<rule>`. */
export function mainRule(entry: AuditEntry): string {
  return `policy/${entry.policy.failures[0]?.rule ?? 'not-evaluated'}`;
}

/** An entry incomplete only because its trust is not scored (a Go module or crate checked against OSV: policy.ts `not-scored`). */
export const onlyNotScored = (entry: AuditEntry): boolean =>
  entry.policy.status === 'incomplete' && entry.policy.failures.length > 0 && entry.policy.failures.every((f) => f.rule === 'not-scored');

/** The status word of a row: STATUS_WORDS, `NOT SCORED` for a Go module or crate only checked against OSV. */
export function statusWord(entry: AuditEntry): string {
  return onlyNotScored(entry) ? 'NOT SCORED' : STATUS_WORDS[entry.policy.status];
}

export const STATUS_WORDS: Record<EntryStatus, string> = {
  fail: 'FAIL',
  error: 'NOT EVALUATED',
  incomplete: 'UNCHECKED',
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

/** The run's result as the exit code has it: FAIL (1), INCOMPLETE (3), else PASS (0). */
export function runResult(report: AuditReport): RunResult {
  return report.outcome.result === 'fail' ? 'FAIL' : report.outcome.result === 'incomplete' ? 'INCOMPLETE' : 'PASS';
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** The guarding checks in the words of a summary line. */
const GUARD_WORDS: Readonly<Record<string, string>> = {
  'known-vulnerabilities': 'vulnerabilities',
  'malicious-package': 'malicious code',
  'lockfile-injection': 'lockfile injection',
  'dependency-confusion': 'dependency confusion',
};

/** A `not-checked` failure about a lockfile pin nothing vouches for (a Python entry from another index: src/audit/lockfile-integrity.ts). */
export const isUnverifiedPin = (failure: AuditEntry['policy']['failures'][number]): boolean =>
  failure.rule === 'not-checked' && (failure.checks ?? []).includes('lockfile-injection');

/** What the incomplete packages were not checked for: `vulnerabilities and malicious code`. */
export function uncheckedWords(report: AuditReport): string {
  const words = new Set<string>();
  for (const entry of report.entries) {
    if (entry.policy.status !== 'incomplete' || onlyNotScored(entry)) continue;
    for (const failure of entry.policy.failures) {
      for (const id of failure.rule === 'not-checked' ? (failure.checks ?? []) : []) {
        words.add(GUARD_WORDS[id] ?? entry.report.checks.find((c) => c.id === id)?.title.toLowerCase() ?? id);
      }
    }
  }
  return words.size === 0 ? 'every guarding check' : [...words].join(' and ');
}

/**
 * The run in one sentence, the part the exit code follows first: `3 of 212 packages fail the
 * policy; 2 could not be evaluated; 5 evaluated but not checked for known vulnerabilities; 1 ignored`, or
 * `all 212 packages pass the policy`.
 */
export function summarySentence(report: AuditReport): string {
  const { total, failed, errors, ignored, incomplete, passed } = report.summary;
  const noun = plural(total, 'package', 'packages');
  const findings = findingParts(report);
  if (total === 0) return findings.length > 0 ? findings.join('; ') : 'no dependencies to audit';
  if (passed === total) return [total === 1 ? 'the 1 package passes the policy' : `all ${total} packages pass the policy`, ...findings].join('; ');
  const parts: string[] = [];
  // The first count says "of N packages"; the others are read against it.
  const count = (n: number) => (parts.length === 0 ? `${n} of ${total} ${noun}` : String(n));
  if (failed > 0) parts.push(`${count(failed)} ${plural(failed, 'fails', 'fail')} the policy`);
  if (errors > 0) parts.push(`${count(errors)} could not be evaluated`);
  const notScored = report.entries.filter(onlyNotScored).length;
  if (incomplete - notScored > 0) {
    // After another count ("246 of 284 could not be evaluated"), say these were evaluated: "38 not
    // checked for malicious code" alone reads as if the 246 had been.
    const evaluated = parts.length === 0 ? '' : 'evaluated but ';
    parts.push(`${count(incomplete - notScored)} ${evaluated}not checked for ${uncheckedWords(report)}`);
  }
  if (notScored > 0) parts.push(`${count(notScored)} not scored (Go modules and crates: checked against OSV only)`);
  if (ignored > 0) parts.push(`${ignored} ignored`);
  if (passed > 0 && parts.length > 0) parts.push(`${passed} ${plural(passed, 'passes', 'pass')}`);
  return [...parts, ...findings].join('; ');
}

/**
 * `nerq audit --mcp`: the launches that fail the policy, the remote servers left unverified and
 * the findings an MCP ignore entry covers; the inputs' unvouched entries, pnpmfiles and
 * `--hash` values that pin nothing: as summary parts.
 */
function findingParts(report: AuditReport): string[] {
  const count = (codes: readonly string[]) => report.warnings.filter((w) => codes.includes(w.code) && w.ignoredBy === undefined).length;
  const failing = count(OUTCOME_FINDINGS.fail);
  const unverified = count(['mcp-remote-unverified']);
  const scripts = count(['mcp-fetched-script']);
  const uninspected = count(['mcp-uninspected']);
  const unread = count(['mcp-config-unread']);
  const yarnHooks = report.warnings.filter((w) => w.code === 'unvouched-hook' && w.details.manager === 'yarn' && w.ignoredBy === undefined).length;
  // A program or module a setting (.npmrc, pnpm-workspace.yaml) names: an unvouched hook with its `setting`, not yarn's.
  const npmHooks = report.warnings.filter((w) => w.code === 'unvouched-hook' && w.details.manager !== 'yarn' && typeof w.details.setting === 'string' && w.ignoredBy === undefined).length;
  const hooks = count(['unvouched-hook']) - yarnHooks - npmHooks;
  const hashes = count(['hash-unreadable']);
  const { unvouched, ignored: ignoredRemotes } = unvouchedCounts(report);
  const all: readonly string[] = [...OUTCOME_FINDINGS.fail, ...OUTCOME_FINDINGS.incomplete];
  const ignored = report.warnings.filter((w) => all.includes(w.code) && w.ignoredBy !== undefined).length;
  return [
    ...(failing === 0 ? [] : [`${failing} MCP server ${plural(failing, 'launch fails', 'launches fail')} the policy`]),
    ...(unverified === 0 ? [] : [`${unverified} remote MCP ${plural(unverified, 'server', 'servers')} unverified`]),
    ...(scripts === 0 ? [] : [`${scripts} MCP ${plural(scripts, 'server runs a script', 'servers run scripts')} fetched at start`]),
    ...(uninspected === 0 ? [] : [`${uninspected} MCP ${plural(uninspected, 'server runs', 'servers run')} code nerq cannot inspect`]),
    ...(unread === 0 ? [] : [`${unread} MCP client configuration ${plural(unread, 'file', 'files')} not read`]),
    ...(ignored === 0 ? [] : [`${ignored} MCP server ${plural(ignored, 'finding', 'findings')} ignored`]),
    ...(unvouched === 0 ? [] : [`${unvouched} ${plural(unvouched, 'dependency', 'dependencies')} from a git repository or URL no registry vouches for`]),
    ...(ignoredRemotes === 0 ? [] : [`${ignoredRemotes} such ${plural(ignoredRemotes, 'dependency', 'dependencies')} ignored`]),
    ...(hooks === 0 ? [] : [`${hooks} ${plural(hooks, 'pnpmfile', 'pnpmfiles')} whose install hooks nerq does not evaluate`]),
    ...(yarnHooks === 0 ? [] : [`${yarnHooks} yarn ${plural(yarnHooks, 'plugin or release', 'plugins or releases')} from outside the project`]),
    ...(npmHooks === 0 ? [] : [`${npmHooks} ${plural(npmHooks, 'program or module', 'programs or modules')} from outside the project that the package manager's settings name`]),
    ...(hashes === 0 ? [] : [`${hashes} requirements ${plural(hashes, 'line', 'lines')} with a --hash that pins nothing`]),
  ];
}

/** The inputs' entries from a git repository or URL: how many leave the run incomplete, how many an ignore entry covers. */
export function unvouchedCounts(report: AuditReport): { unvouched: number; ignored: number } {
  const list = report.unvouched ?? [];
  return { unvouched: list.filter((r) => r.status === 'unvouched').length, ignored: list.filter((r) => r.status === 'ignored').length };
}

/** What to do about the result, when something is left to do: the exit code and how to act on it. */
export function outcomeHint(report: AuditReport): string | null {
  const { outcome, summary } = report;
  const { unvouched } = unvouchedCounts(report);
  const incomplete = report.entries.filter((e) => e.policy.status === 'incomplete');
  if (outcome.result === 'incomplete' && summary.incomplete > 0 && summary.errors === 0 && incomplete.every(onlyNotScored)) {
    return unvouched === 0
      ? 'exit 3: Go modules and crates are checked against OSV only (their trust is not scored); accept that with --allow-incomplete'
      : "exit 3: review each dependency no registry vouches for and name it in the policy's ignore list with a reason; Go modules and crates are checked against OSV only (not scored); accept both with --allow-incomplete";
  }
  if (outcome.result === 'incomplete' && summary.incomplete > 0 && summary.errors === 0 && incomplete.some((e) => e.policy.failures.some(isUnverifiedPin))) {
    return "exit 3: pin a hash PyPI publishes for each package taken from another index (pip --require-hashes), or name it in the policy's ignore list with a reason once reviewed; accept unchecked packages with --allow-incomplete";
  }
  if (outcome.result === 'incomplete' && summary.incomplete > 0 && summary.errors === 0) {
    return 'exit 3: rerun when the sources are back, or accept unchecked packages with --allow-incomplete';
  }
  if (outcome.result === 'incomplete' && unvouched > 0 && summary.errors === 0) {
    // An MCP server whose code cannot be inspected, or a client configuration that could not be read, is not accepted by --allow-incomplete: say so when there is one too.
    const standing = (code: string) => report.warnings.some((w) => w.code === code && w.ignoredBy === undefined);
    const uninspected = report.warnings.some((w) => w.code !== 'mcp-config-unread' && (OUTCOME_FINDINGS.incomplete as readonly string[]).includes(w.code) && w.ignoredBy === undefined);
    const base = 'exit 3: review each dependency no registry vouches for and name it in the policy\'s ignore list with a reason, or accept them with --allow-incomplete';
    return [
      base,
      ...(uninspected ? ['an MCP server whose code cannot be inspected needs an MCP ignore entry'] : []),
      ...(standing('mcp-config-unread') ? ['an MCP client configuration file that could not be read leaves its servers unaudited: name the files to audit with --mcp-config'] : []),
    ].join('; ');
  }
  if (outcome.result === 'incomplete' && summary.errors === 0 && summary.incomplete === 0) {
    const standing = (code: string) => report.warnings.some((w) => w.code === code && w.ignoredBy === undefined);
    if (standing('unvouched-hook')) return "exit 3: review the pnpmfile's hooks, the yarn plugin or release, or the program a setting names from outside the project (they run at install, and may rewrite any package's manifest), then accept them with --allow-incomplete";
    if (standing('hash-unreadable')) return 'exit 3: give each --hash as a full sha256 digest (pip-compile --generate-hashes writes them), or accept the lines with --allow-incomplete';
    if (standing('mcp-config-unread')) return 'exit 3: an MCP client configuration file could not be read (see its warning): the servers it lists are not audited; name the files to audit with --mcp-config';
    if (standing('mcp-fetched-script')) return 'exit 3: an MCP server runs a script fetched at start that no registry vouches for; review it and name it in an MCP ignore entry';
    if (standing('mcp-uninspected')) return 'exit 3: an MCP server runs a container image, NuGet tool or package nerq cannot inspect; review it and name it in an MCP ignore entry';
    return 'exit 3: a remote MCP server no MCP Registry entry vouches for is unverified';
  }
  const errors = report.entries.filter((e) => e.policy.status === 'error');
  if (outcome.result === 'incomplete' && errors.length > 0 && errors.every((e) => e.policy.failures.some((f) => f.rule === 'uninspected'))) {
    return 'exit 3: an MCP server runs code nerq cannot inspect; review it and name it in an MCP ignore entry (mcp-entry-policy)';
  }
  if (outcome.result === 'incomplete') return 'exit 3: some packages could not be evaluated';
  if (outcome.result === 'pass' && outcome.allowIncomplete && summary.incomplete > 0 && incomplete.every(onlyNotScored)) {
    return `exit 0: ${summary.incomplete} ${plural(summary.incomplete, 'dependency', 'dependencies')} not scored (Go modules and crates: checked against OSV only), accepted by --allow-incomplete`;
  }
  if (outcome.result === 'pass' && outcome.allowIncomplete && summary.incomplete > 0) {
    return `exit 0: ${summary.incomplete} unchecked ${plural(summary.incomplete, 'package', 'packages')} accepted by --allow-incomplete`;
  }
  const unvouchedFindings = report.warnings.filter((w) => (OUTCOME_FINDINGS.unvouched as readonly string[]).includes(w.code)).length;
  if (outcome.result === 'pass' && outcome.allowIncomplete && unvouched === 0 && unvouchedFindings > 0) {
    return `exit 0: ${unvouchedFindings} ${plural(unvouchedFindings, 'finding', 'findings')} about code or hashes nerq cannot vouch for accepted by --allow-incomplete`;
  }
  if (outcome.result === 'pass' && outcome.allowIncomplete && unvouched > 0) {
    return `exit 0: ${unvouched} unvouched ${plural(unvouched, 'dependency', 'dependencies')} accepted by --allow-incomplete`;
  }
  return null;
}

/** Packages per grade, best first (a provisional grade after its grade), then the ungraded: `A+ 3 · B 1 · B provisional 1 · not evaluated 2`. */
export function gradeCounts(report: AuditReport): { label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const entry of report.entries) {
    // A grade the gate could not stand on (a package not checked for vulnerabilities) is counted apart.
    const { grade } = entry.report;
    const key = grade === null ? 'not evaluated' : isProvisional(entry.report) ? `${grade} provisional` : grade;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...GRADES.flatMap((g) => [g, `${g} provisional`]), 'not evaluated']
    .filter((label) => counts.has(label))
    .map((label) => ({ label, count: counts.get(label) ?? 0 }));
}

/** Where the entry is declared: first file and line, or null. */
export function declaredAt(entry: AuditEntry): { file: string; line: number | null } | null {
  const first = entry.subject.declaredIn[0];
  return first === undefined ? null : { file: first.file, line: first.line };
}

/**
 * Whether a file as the report names it is outside the audited repository: a user-scope MCP
 * client configuration (`~/.codex/config.toml`) or an absolute path (`--mcp-config /etc/…`). Code
 * scanning and annotations can place only repository-relative paths, so these get no location.
 */
export function outsideRepository(file: string): boolean {
  return file.startsWith('~') || file.startsWith('/') || file.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(file);
}

/**
 * A file as the report names it (relative to the audited folder) as a path from the repository
 * root, `/`-separated: the audited folder's path (`baseDir`) prefixed and `.`/`..` segments
 * resolved. `outside` when the file is not in the repository: a user-scope MCP configuration
 * or an absolute path (outsideRepository), or a name whose `..` climbs above the root (a
 * `--file ../../elsewhere/package-lock.json`); its path then keeps only the segments that stay
 * in the repository, so a location is still one code scanning accepts.
 */
export function repositoryPath(file: string, baseDir: string | undefined): { path: string; outside: boolean } {
  const kept: string[] = [];
  let escaped = false;
  for (const part of [...(baseDir ?? '').split('/'), ...file.split('/')]) {
    if (part === '' || part === '.') continue;
    if (part !== '..') kept.push(part);
    else if (kept.length > 0) kept.pop();
    else escaped = true;
  }
  return { path: kept.join('/'), outside: escaped || outsideRepository(file) };
}

/** Where a file outside the repository is, said in a message beside its location: `~/.codex/config.toml line 4, outside the repository`. */
export function outsideText(file: string, line: number | null): string {
  return `${file}${line !== null && line >= 1 ? ` line ${line}` : ''}, outside the repository`;
}

/**
 * Where a finding about the entry points (SARIF, annotations): the input line its main failure
 * is about (`lockfile-injection`: the lockfile pin), else where it is declared; null when neither is known.
 */
export function findingAt(entry: AuditEntry): { file: string; line: number | null } | null {
  return entry.policy.failures[0]?.at ?? declaredAt(entry);
}

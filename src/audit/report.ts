/**
 * The audit report from its evaluated entries: worst first, counted, the run's outcome and the
 * exit code it has, and the warnings a reader must see once each — what the input readers
 * skipped, expired ignore entries, the services that could not be reached, and every evidence
 * source that was unavailable for some packages, with the checks it left unknown. Pure.
 */
import type { HostDown } from '../sources/http/host-health.js';
import { SERVICE_CHECKS, SERVICES, type Service } from '../sources/services.js';
import { capitalised, checksBlindedBy, sourceName } from '../report/sources.js';
import { plainReason } from '../util/plain-reason.js';
import { VERSION } from '../version.js';
import { sanitizeForTerminal } from '../render/sanitize.js';
import { OUTCOME_FINDINGS, type AuditEntry, type AuditOutcome, type AuditReport, type AuditWarning, type InputFile, type UnvouchedRemote } from './types.js';

import { AUDIT_SCHEMA_VERSION } from './report-schema.js';

export { AUDIT_SCHEMA_VERSION };

const ORDER: Record<AuditEntry['policy']['status'], number> = { fail: 0, error: 1, incomplete: 2, ignored: 3, pass: 4 };

export interface AuditReportInput {
  entries: readonly AuditEntry[];
  inputs: readonly InputFile[];
  policySource: string | null;
  now: Date;
  /** Warnings known before the evaluations (input notes, npm configuration, expired ignores). */
  warnings: readonly AuditWarning[];
  /** Expired ignore entries fail the run (exit 1). */
  expiredIgnores: number;
  /** The pull request changes the policy (read at the base ref): a finding of its own, exit 1. */
  policyChanged?: boolean;
  /**
   * Findings about no evaluated package that decide the outcome (`nerq audit --mcp`), by their
   * code (OUTCOME_FINDINGS): a container started with a wider reach or a remote over http fails
   * the run like a failing package; a remote server no registry entry vouches for leaves it
   * incomplete like an unevaluated one; an input's install-time code nerq does not evaluate (a
   * pnpmfile, a `--hash` that pins nothing) leaves it incomplete like an unvouched remote entry.
   * They are listed first among the warnings; one an MCP ignore entry covers (`ignoredBy`) is
   * listed but decides nothing.
   */
  findings?: readonly AuditWarning[];
  /** --allow-incomplete: incomplete packages do not make the exit code 3. */
  allowIncomplete: boolean;
  /**
   * The inputs' entries fetched from a git repository or URL no registry vouches for: each
   * unvouched one leaves the run incomplete like an unchecked package (exit 3 unless
   * --allow-incomplete; a failure elsewhere still decides exit 1); an ignored one is listed.
   */
  unvouched?: readonly UnvouchedRemote[];
  /** The hosts and services found down during the run (host-health.ts), with what a user calls them. */
  down?: readonly Down[];
}

/**
 * The run's result and exit code: 1 when anything fails (or the pull request changes the policy,
 * or a failing finding stands), else 3 when anything is unevaluated, unverified or (unless
 * allowed) incomplete or unvouched, else 0.
 */
export function auditOutcome(
  summary: AuditReport['summary'],
  expiredIgnores: number,
  allowIncomplete: boolean,
  policyChanged = false,
  findings: { fail: number; incomplete: number; unvouched?: number } = { fail: 0, incomplete: 0 },
): AuditOutcome {
  if (summary.failed > 0 || expiredIgnores > 0 || policyChanged || findings.fail > 0) return { result: 'fail', exitCode: 1, allowIncomplete };
  const unchecked = summary.incomplete + (findings.unvouched ?? 0);
  if (summary.errors > 0 || findings.incomplete > 0 || (unchecked > 0 && !allowIncomplete)) return { result: 'incomplete', exitCode: 3, allowIncomplete };
  return { result: 'pass', exitCode: 0, allowIncomplete };
}

/** An outage, with what a user calls it and the services it took down by id (a whole host: those nerq asks there). */
type Down = HostDown & { name: string; services?: readonly Service[] };

/**
 * The services (src/sources/services.ts) each evidence source is fetched from. Several services
 * may share a host and fail with the same words; an outage of one of them does not explain a
 * source that another one feeds.
 */
const SOURCE_SERVICES: Readonly<Record<string, readonly Service[]>> = {
  registry: ['npm-registry', 'pypi', 'pypi-simple', 'pypi-integrity'],
  dependencies: ['npm-registry', 'pypi'],
  tarball: ['npm-tarballs', 'npm-registry'],
  downloads: ['npm-downloads', 'pypistats'],
  vulnerabilities: ['osv'],
  attestations: ['npm-attestations'],
  pypi: ['pypi', 'pypi-simple', 'pypi-integrity'],
  github: ['github', 'github-graphql'],
};

/** Whether an outage can be why `source` was unavailable: its whole host, or a service that feeds it. */
function explains(outage: Down, source: string): boolean {
  const feeds = SOURCE_SERVICES[source];
  if (outage.service === null || feeds === undefined) return true;
  // A service name the run does not know is a host of its own (runtime.ts scopes such URLs by host).
  if (!(SERVICES as readonly string[]).includes(outage.service)) return true;
  return (feeds as readonly string[]).includes(outage.service);
}

/**
 * One warning per evidence source that was unavailable for some packages: how many, why (the
 * commonest reason), what it left unknown — and, when a service found down was why, that it
 * was not asked again (one line says both).
 */
export function sourceWarnings(entries: readonly AuditEntry[], down: readonly Down[] = []): AuditWarning[] {
  const bySource = new Map<string, { packages: number; reasons: Map<string, number>; checks: Set<string> }>();
  for (const { report } of entries) {
    for (const source of report.sources) {
      if (source.status !== 'unavailable') continue;
      let seen = bySource.get(source.id);
      if (seen === undefined) bySource.set(source.id, (seen = { packages: 0, reasons: new Map(), checks: new Set() }));
      seen.packages += 1;
      const reason = plainReason(source.reason ?? 'no reason given');
      seen.reasons.set(reason, (seen.reasons.get(reason) ?? 0) + 1);
      for (const title of checksBlindedBy(report, source.id)) seen.checks.add(title);
    }
  }
  return [...bySource].map(([source, { packages, reasons, checks }]) => {
    const reason = [...reasons].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'no reason given';
    const outage = down.find((d) => reason.includes(d.reason) && explains(d, source));
    // "1 of 2 packages": the noun goes with the total it follows.
    const noun = entries.length === 1 ? 'package' : 'packages';
    const unknown = checks.size === 0 ? '' : `; unknown: ${[...checks].join(', ')}`;
    const message =
      outage === undefined
        ? `${capitalised(sourceName(source))} unavailable for ${packages} of ${entries.length} ${noun} (${reason})${unknown}`
        : `${capitalised(outage.name)} unreachable (${outage.reason}), not asked again: ${sourceName(source)} unavailable for ${packages} of ${entries.length} ${noun}${unknown}`;
    return {
      code: 'source-unavailable',
      message,
      details: { source, packages, reason, checks: [...checks], host: outage?.host ?? null },
    };
  });
}

/** One warning per host or service found down that no source warning explains already. */
export function downWarnings(down: readonly Down[], explained: readonly AuditWarning[]): AuditWarning[] {
  return down
    .filter((d) => !explained.some((w) => w.details.host === d.host && String(w.details.reason ?? '').includes(d.reason)))
    .map((d) => {
      // What it leaves unchecked that no evidence source says (the dependency-confusion comparison).
      const checks = [...new Set((d.services ?? []).flatMap((service) => SERVICE_CHECKS[service] ?? []))];
      const unchecked = checks.length === 0 ? '' : `; not checked: ${checks.map((c) => c.replaceAll('-', ' ')).join(', ')}`;
      return {
        code: 'service-unreachable',
        message: `${capitalised(d.name)} unreachable (${d.reason}): not asked again this run${unchecked}`,
        details: { host: d.host, service: d.service, services: [...(d.services ?? [])], fault: d.fault, reason: d.reason, checks },
      };
    });
}

function sourceWarningsAndDown(entries: readonly AuditEntry[], down: readonly Down[]): AuditWarning[] {
  const sources = sourceWarnings(entries, down);
  return [...downWarnings(down, sources), ...sources];
}

/** `package-lock.json:12`, or the file alone when the line is unknown. */
const at = (remote: UnvouchedRemote) => `${remote.file}${remote.line === null ? '' : `:${remote.line}`}`;

/** One warning per remote entry: `unvouched-remote` (it leaves the run incomplete), or `unvouched-remote-ignored` with the ignore entry's reason. */
export function unvouchedWarnings(remotes: readonly UnvouchedRemote[]): AuditWarning[] {
  return remotes.map((remote) => {
    const alias = remote.declaredAs === undefined || remote.declaredAs.length === 0 ? '' : ` (declared as ${remote.declaredAs.map((n) => JSON.stringify(n)).join(', ')})`;
    const what = remote.name === null ? `an entry${alias}` : `${JSON.stringify(remote.name)}${alias}`;
    const from = remote.host === null ? JSON.stringify(remote.source) : `${remote.host} (${JSON.stringify(remote.source)})`;
    const details = {
      file: remote.file,
      line: remote.line,
      package: remote.name,
      ...(remote.declaredAs === undefined ? {} : { declaredAs: remote.declaredAs }),
      host: remote.host,
      source: remote.source,
      ecosystem: remote.ecosystem,
    };
    if (remote.status === 'ignored' && remote.ignoredBy !== null) {
      const until = remote.ignoredBy.expires === null ? '' : ` (until ${remote.ignoredBy.expires})`;
      return {
        code: 'unvouched-remote-ignored',
        message: sanitizeForTerminal(`${at(remote)}: ${what} comes from ${from}, which no registry vouches for: ignored: ${remote.ignoredBy.reason}${until}`),
        details: { ...details, reason: remote.ignoredBy.reason, expires: remote.ignoredBy.expires },
      };
    }
    return {
      code: 'unvouched-remote',
      message: sanitizeForTerminal(`${at(remote)}: ${what} comes from ${from}, which no registry vouches for: not evaluated`),
      details,
    };
  });
}

/** The findings of these codes that decide the outcome: those no MCP ignore entry covers. */
const findingCount = (findings: readonly AuditWarning[], codes: readonly string[]) =>
  findings.filter((f) => codes.includes(f.code) && f.ignoredBy === undefined).length;

export function buildAuditReport(input: AuditReportInput): AuditReport {
  const { entries } = input;
  const findings = input.findings ?? [];
  const unvouched = input.unvouched ?? [];
  const sorted = [...entries].sort(
    (a, b) =>
      ORDER[a.policy.status] - ORDER[b.policy.status] ||
      (a.report.score ?? -1) - (b.report.score ?? -1) ||
      a.subject.name.localeCompare(b.subject.name),
  );
  const count = (status: AuditEntry['policy']['status']) => entries.filter((e) => e.policy.status === status).length;
  const summary = {
    total: entries.length,
    passed: count('pass'),
    failed: count('fail'),
    ignored: count('ignored'),
    errors: count('error'),
    incomplete: count('incomplete'),
  };
  return {
    auditSchemaVersion: AUDIT_SCHEMA_VERSION,
    tool: { name: 'nerq', version: VERSION },
    evaluatedAt: input.now.toISOString(),
    inputs: input.inputs.map(({ file, format, mcpClient }) => ({ file, format, ...(mcpClient === undefined ? {} : { client: mcpClient.client, scope: mcpClient.scope }) })),
    policySource: input.policySource,
    summary,
    outcome: auditOutcome(summary, input.expiredIgnores, input.allowIncomplete, input.policyChanged === true, {
      fail: findingCount(findings, OUTCOME_FINDINGS.fail),
      incomplete: findingCount(findings, OUTCOME_FINDINGS.incomplete),
      unvouched: unvouched.filter((r) => r.status === 'unvouched').length + findingCount(findings, OUTCOME_FINDINGS.unvouched),
    }),
    entries: sorted,
    warnings: [
      ...findings,
      ...unvouchedWarnings(unvouched),
      ...input.warnings,
      ...sourceWarningsAndDown(entries, input.down ?? []),
    ],
    ...(unvouched.length === 0 ? {} : { unvouched: [...unvouched] }),
  };
}

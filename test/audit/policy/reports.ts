/**
 * Audit test data built with the real engine: evidence (test/support/evidence-builder.ts) →
 * buildReport → an AuditEntry with its policy outcome, and whole AuditReports ordered and
 * counted as the contract says (worst first).
 */
import { applyPolicy, mergePolicy, type Policy } from '../../../src/audit/policy.js';
import { buildAuditReport } from '../../../src/audit/report.js';
import type { AuditEntry, AuditReport, AuditSubject, PolicyOutcome } from '../../../src/audit/types.js';
import { CHECKS } from '../../../src/checks/index.js';
import { buildReport, errorReport } from '../../../src/report/build.js';
import { ReportSchema, type Report } from '../../../src/report/schema.js';
import { DEFAULT_GATE, type GateOptions } from '../../../src/scoring/gate.js';
import {
  advisory,
  daysAgo,
  evidence,
  NOW,
  notApplicable,
  unavailable,
  type EvidenceOverrides,
} from '../../support/evidence-builder.js';

export { NOW };

/** A report from evidence with these overrides (npm by default). */
export function reportOf(overrides: EvidenceOverrides = {}, gate: GateOptions = DEFAULT_GATE): Report {
  return ReportSchema.parse(buildReport(evidence(overrides), { checks: CHECKS, gate }));
}

/** A healthy npm package `name@version` (scores YES). */
export function healthy(name = 'example', version = '2.1.0', registry: EvidenceOverrides['registry'] = {}): Report {
  return reportOf({ registry: { name, version, ...registry } });
}

/** Deprecated: capped at 49.9 (verdict NO). */
export function deprecated(name = 'old-thing', version = '1.0.0'): Report {
  return reportOf({ registry: { name, version, deprecated: 'no longer maintained' } });
}

/** Known malicious: NO — DO NOT USE. */
export function malicious(name = 'evil-pkg', version = '0.0.1'): Report {
  return reportOf({
    registry: { name, version },
    vulnerabilities: {
      advisories: [advisory({ id: 'MAL-2026-1', aliases: [], summary: 'Malicious code in evil-pkg', package: name, version, malicious: true, fixed: null })],
    },
  });
}

/** A middling package: CAUTION (50–69.9), no cap. */
export function middling(name = 'so-so', version = '0.3.0'): Report {
  return reportOf({
    registry: {
      name,
      version,
      versions: [
        { version: '0.1.0', time: daysAgo(1500) },
        { version: '0.2.0', time: daysAgo(1200) },
        { version, time: daysAgo(600) },
      ],
      maintainers: 1,
      attestations: null,
      signatures: 0,
      description: null,
      keywords: [],
      homepage: null,
      bugs: null,
      declaresTypes: false,
      isLatest: true,
    },
    tarball: { readme: null, changelogFile: null, declarationFiles: 0 },
    attestations: notApplicable('no attestations'),
    downloads: { lastWeek: 40, lastYear: 2000 },
  });
}

/** A poor package: 33.8, grade E, verdict NO, no overall cap (its maintenance is capped: no release for years), no licence declared. */
export function poor(name = 'poor', version = '0.0.3'): Report {
  return reportOf({
    registry: {
      name,
      version,
      versions: [
        { version: '0.0.1', time: daysAgo(3000) },
        { version, time: daysAgo(2900) },
      ],
      maintainers: 1,
      attestations: null,
      signatures: 0,
      description: null,
      keywords: [],
      homepage: null,
      bugs: null,
      declaresTypes: false,
      license: null,
      repository: null,
      installScripts: { postinstall: 'node x.js' },
    },
    tarball: { readme: null, changelogFile: null, declarationFiles: 0, licenseFiles: [] },
    attestations: notApplicable('no attestations'),
    downloads: { lastWeek: 3, lastYear: 100 },
  });
}

/** A well-scoring package most of whose sources failed: coverage about 66%. */
export function thin(name = 'thin', version = '1.0.0'): Report {
  return reportOf({
    registry: { name, version },
    tarball: unavailable('timeout'),
    downloads: unavailable('503'),
    dependencies: unavailable('x'),
    vulnerabilities: unavailable('osv down'),
    attestations: unavailable('y'),
  });
}

/** A PyPI project `name==version`. */
export function pypiReport(name = 'requests', version = '2.31.0', license: { spdx: string | null; expression?: string | null; text?: string | null } = { spdx: 'Apache-2.0' }): Report {
  return reportOf({
    target: { input: `pypi:${name}`, ecosystem: 'pypi', name, version, purl: `pkg:pypi/${name}@${version}`, repository: null },
    registry: notApplicable('not an npm package'),
    tarball: notApplicable('not an npm package'),
    downloads: notApplicable('not an npm package'),
    dependencies: notApplicable('not an npm package'),
    attestations: notApplicable('not an npm package'),
    pypi: {
      name,
      version,
      license: {
        expression: license.expression ?? null,
        classifiers: [],
        text: license.text ?? null,
        spdx: license.spdx,
        source: license.spdx === null ? null : 'expression',
        files: null,
      },
    },
  });
}

/** A package that could not be evaluated (not found). */
export function notFound(name = 'ghost-pkg', version: string | null = '1.0.0'): Report {
  return errorReport({
    input: name,
    ecosystem: 'npm',
    name,
    version,
    code: 'not-found',
    message: `npm package "${name}" was not found in the registry`,
    gate: DEFAULT_GATE,
    evaluatedAt: NOW.toISOString(),
  });
}

/** A subject as the folding step would give it. */
export function subjectOf(report: Report, overrides: Partial<AuditSubject> = {}): AuditSubject {
  const ecosystem = report.target.ecosystem === 'pypi' ? 'pypi' : 'npm';
  return {
    ecosystem,
    name: report.target.name,
    version: report.target.version,
    spec: null,
    direct: true,
    dev: false,
    declaredIn: [{ file: ecosystem === 'pypi' ? 'requirements.txt' : 'package-lock.json', line: 12, workspace: null }],
    resolved: null,
    via: [],
    ...overrides,
  };
}

/** An entry with the policy applied (default policy unless given). */
export function entryOf(report: Report, policy: Policy = mergePolicy(null), subject: Partial<AuditSubject> = {}): AuditEntry {
  const s = subjectOf(report, subject);
  return { subject: s, report, policy: applyPolicy(report, s, policy, NOW) };
}

/** An entry with a given outcome (for renderer tests that need a specific status). */
export function entryWith(report: Report, policy: PolicyOutcome, subject: Partial<AuditSubject> = {}): AuditEntry {
  return { subject: subjectOf(report, subject), report, policy };
}

/** An AuditReport over the entries (built as the CLI builds it: worst first, counted, its outcome). */
export function auditOf(entries: AuditEntry[], extra: Partial<AuditReport> = {}, allowIncomplete = false): AuditReport {
  const built = buildAuditReport({
    entries,
    inputs: [{ file: 'package-lock.json', format: 'package-lock@3', dependencies: [] }],
    policySource: '.nerqrc.json',
    now: NOW,
    warnings: [],
    expiredIgnores: 0,
    allowIncomplete,
  });
  return { ...built, tool: { name: 'nerq', version: '0.1.0' }, ...extra };
}

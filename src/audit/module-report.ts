/**
 * The report of a Go module or crate an audit lists (README.md, "nerq audit [dir]"):
 * nerq has no registry adapter to score a module's trust, so it is checked against OSV only.
 * The report says so: no score, no grade, verdict unknown, the stable error code
 * `no-registry-adapter` (never a made-up score: unknown is never zero, never good), the
 * vulnerabilities source ok or unavailable, and the advisories OSV gave for its pinned version.
 * The policy (policy.ts `applyModulePolicy`) decides from those. Pure.
 */
import { moduleNoun, osvModuleVersion, type ModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { errorReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import type { GateOptions } from '../scoring/gate.js';
import type { VulnerabilitiesResult } from '../sources/osv/query.js';
import { modulePurl } from '../target/purl.js';
import type { AuditSubject } from './types.js';

/** The error code of a module report: its trust is not scored (no registry adapter), only its advisories are checked. */
export const MODULE_NOT_SCORED = 'no-registry-adapter';

/** A subject of a module ecosystem. */
export type ModuleSubject = AuditSubject & { ecosystem: ModuleEcosystem };

export interface ModuleReportOptions {
  gate: GateOptions;
  evaluatedAt: string;
}

/** The version OSV is asked about for a module subject (go.mod's `v` dropped), or null when it pins none. */
export function osvVersionOf(subject: ModuleSubject): string | null {
  return subject.version === null ? null : osvModuleVersion(subject.ecosystem, subject.version);
}

/**
 * The report of one module subject from OSV's answer for its pinned version (undefined: it was
 * not asked, which reads as unavailable). Advisories name the module's ecosystem and its version
 * as the input pins it.
 */
export function moduleReport(subject: ModuleSubject, vulnerabilities: VulnerabilitiesResult | undefined, options: ModuleReportOptions): Report {
  const noun = moduleNoun(subject.ecosystem);
  const base = errorReport({
    input: subject.version === null ? subject.name : `${subject.name}@${subject.version}`,
    ecosystem: subject.ecosystem,
    name: subject.name,
    version: subject.version,
    code: MODULE_NOT_SCORED,
    message: `trust not scored: nerq has no registry adapter for a ${noun}; it is checked against OSV only`,
    gate: options.gate,
    evaluatedAt: options.evaluatedAt,
  });
  const answer: VulnerabilitiesResult = vulnerabilities ?? { status: 'unavailable', reason: 'OSV: not asked (no pinned version)', code: 'not-asked' };
  const advisories: Report['advisories'] =
    answer.status === 'ok'
      ? answer.facts.advisories.map((a) => ({
          id: a.id,
          aliases: a.aliases,
          summary: a.summary,
          severity: a.severity,
          cvss: a.cvss,
          package: subject.name,
          ecosystem: subject.ecosystem,
          version: subject.version,
          affectsResolved: a.affectsResolved,
          fixed: a.fixed,
          published: a.published,
          url: a.url,
          malicious: a.malicious,
        }))
      : [];
  return {
    ...base,
    target: { ...base.target, purl: modulePurl(subject.ecosystem, subject.name, subject.version) },
    sources: [{ id: 'vulnerabilities', status: answer.status, reason: answer.status === 'ok' ? null : answer.reason }],
    advisories,
  };
}

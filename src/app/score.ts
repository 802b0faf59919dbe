/**
 * Use case: re-score saved evidence. No network, no store: the same evidence and options give
 * the identical report (docs/scoring.md). `evidenceFromJson` validates what a file, a request
 * body or stdin held.
 */
import { z } from 'zod';
import { CHECKS } from '../checks/index.js';
import { EVIDENCE_SCHEMA_VERSION, EvidenceSchema, type Evidence } from '../evidence/schema.js';
import { buildReport, errorReport } from '../report/build.js';
import type { McpSection, Report } from '../report/schema.js';
import type { GateOptions } from '../scoring/gate.js';
import { isoInstant } from '../util/iso-instant.js';
import { claimOf } from '../ecosystems/mcp/claims.js';
import { packageEvaluation } from '../ecosystems/mcp/package-evaluation.js';

const EvidenceFileSchema = z.union([EvidenceSchema, z.array(EvidenceSchema)]);

/** JSON that is not evidence: `where` is the path of the first problem ('' at the top). */
export class EvidenceError extends Error {
  override name = 'EvidenceError';
  readonly where: string;
  readonly problem: string;

  constructor(
    where: string,
    problem: string,
  ) {
    super(`not nerq evidence${where === '' ? '' : ` at ${where}`}: ${problem}`);
    this.where = where;
    this.problem = problem;
  }
}

/** The value at `path` in parsed JSON, or undefined when a step of it is absent. */
function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let value = json;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || typeof key === 'symbol' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** One evidence object or an array of them (what `--save-evidence` writes), validated. */
export function evidenceFromJson(json: unknown): Evidence[] {
  // Nothing to score is bad input, not a silent success.
  if (Array.isArray(json) && json.length === 0) throw new EvidenceError('', 'holds no evidence (an empty array)');
  const parsed = EvidenceFileSchema.safeParse(json);
  if (!parsed.success) {
    // The union's own message is "Invalid input": say what the first alternative misses instead.
    const single = (Array.isArray(json) ? z.array(EvidenceSchema) : EvidenceSchema).safeParse(json);
    const issue = (single.success ? parsed.error : single.error).issues[0];
    const found = issue === undefined ? undefined : valueAt(json, issue.path);
    // Evidence of another version (saved by an older or newer nerq) says so, not the schema's "expected 3".
    const otherVersion = issue?.path.at(-1) === 'evidenceVersion' && (typeof found === 'number' || typeof found === 'string');
    const missing = otherVersion
      ? `version ${JSON.stringify(found)}, saved by another nerq; this one reads version ${EVIDENCE_SCHEMA_VERSION} — check the target again with --save-evidence`
      : issue !== undefined && found === undefined
        ? 'missing'
        : (issue?.message ?? 'invalid');
    throw new EvidenceError(issue?.path.length ? issue.path.join('.') : '', missing);
  }
  const list = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  list.forEach((evidence, index) => {
    const at = (where: string) => (Array.isArray(parsed.data) ? `${index}.${where}` : where);
    // The evaluation instant: a file someone else wrote may hold anything here.
    if (isoInstant(evidence.capturedAt) === null) throw new EvidenceError(at('capturedAt'), 'not an ISO 8601 date');
    const mismatch = mcpPackagesMismatch(evidence);
    if (mismatch !== null) throw new EvidenceError(at(mismatch.where), mismatch.problem);
  });
  return list;
}

/**
 * Where an `mcp:` entry's packages' own evidence (`mcpPackages`) does not line up with the
 * packages the entry names, as `nerq check` records them: one outcome per package, in order —
 * the evidence of the very target the package was evaluated as, its error, or null for a package
 * not evaluated. A file that breaks this was not written by nerq; its packages' evaluations
 * cannot be made again from their evidence, so it is bad input rather than scored on the
 * summaries it holds. Null when it lines up (or records none).
 */
function mcpPackagesMismatch(e: Evidence): { where: string; problem: string } | null {
  const outcomes = e.mcpPackages;
  if (outcomes === undefined) return null;
  const source = e.sources.mcp;
  if (source?.status !== 'ok') return { where: 'mcpPackages', problem: 'recorded without the MCP Registry entry (sources.mcp) they belong to' };
  const packages = source.facts.packages;
  if (outcomes.length !== packages.length) {
    return { where: 'mcpPackages', problem: `${outcomes.length} outcomes for the entry's ${packages.length} packages` };
  }
  for (const [i, outcome] of outcomes.entries()) {
    const target = packages[i]?.target ?? null;
    const where = `mcpPackages.${i}`;
    if ((outcome === null) !== (target === null)) {
      return { where, problem: target === null ? 'an outcome for a package that was not evaluated' : 'no outcome for an evaluated package' };
    }
    if (outcome !== null && 'evidence' in outcome) {
      if (outcome.evidence.target.input !== target) return { where: `${where}.evidence.target.input`, problem: 'not the target the package was evaluated as' };
      if (outcome.evidence.target.ecosystem === 'mcp') return { where: `${where}.evidence.target.ecosystem`, problem: 'an MCP Registry entry is no package of another' };
    }
  }
  return null;
}

export interface RescoreOptions {
  gate: GateOptions;
  category?: string | null | undefined;
  /** Evaluate at this instant instead of the evidence's `capturedAt` (NERQ_NOW). */
  now?: Date | null | undefined;
}

export function rescoreEvidence(evidence: readonly Evidence[], options: RescoreOptions): Report[] {
  const { now } = options;
  const build = (e: Evidence): Report =>
    buildReport(now ? { ...e, capturedAt: now.toISOString() } : e, { checks: CHECKS, gate: options.gate, category: options.category ?? null });
  return evidence.map((e) => {
    const nested = nestedReportsOf(e, build, options);
    if (nested === undefined) return build(e);
    // The entry's checks read its packages' evaluations made again from their own evidence
    // (ecosystems/mcp/package-evaluation.ts), never the summaries the file holds beside it.
    const report = build(withEvaluationsOf(e, nested));
    const section = mcpSectionOf(e, nested);
    if (section !== undefined) report.mcp = section;
    return report;
  });
}

/** An `mcp:` entry's packages' nested reports, re-scored from their own evidence (or their error), in order; undefined for evidence that does not record them. */
function nestedReportsOf(e: Evidence, build: (e: Evidence) => Report, options: RescoreOptions): (Report | null)[] | undefined {
  const source = e.sources.mcp;
  const outcomes = e.mcpPackages;
  if (source?.status !== 'ok' || outcomes === undefined) return undefined;
  const evaluatedAt = options.now ? options.now.toISOString() : e.capturedAt;
  return source.facts.packages.map((p, i) => {
    const outcome = outcomes[i] ?? null;
    if (outcome === null) return null;
    if ('evidence' in outcome) return build(outcome.evidence);
    return errorReport({ input: p.target ?? p.identifier, ...outcome.error, gate: options.gate, evaluatedAt });
  });
}

/** The entry's evidence with each package's evaluation and claim made from its own evidence and report, as `nerq check` made them. */
function withEvaluationsOf(e: Evidence, nested: readonly (Report | null)[]): Evidence {
  const source = e.sources.mcp;
  if (source?.status !== 'ok') return e;
  const server = source.facts.name;
  const packages = source.facts.packages.map((p, i) => {
    const report = nested[i] ?? null;
    if (report === null) return { ...p, evaluation: null, claim: null };
    const outcome = e.mcpPackages?.[i];
    const own = outcome !== null && outcome !== undefined && 'evidence' in outcome ? outcome.evidence : null;
    return { ...p, evaluation: packageEvaluation(report, own), claim: claimOf(own, p.registryType, server) };
  });
  return { ...e, sources: { ...e.sources, mcp: { status: 'ok', facts: { ...source.facts, packages } } } };
}

/** An `mcp:` target's packages with their nested reports, as `nerq check` gave them (ecosystems/mcp/collect.ts). */
function mcpSectionOf(e: Evidence, nested: readonly (Report | null)[]): McpSection | undefined {
  const source = e.sources.mcp;
  if (source?.status !== 'ok') return undefined;
  const { facts } = source;
  return {
    server: facts.name,
    version: facts.version,
    packages: facts.packages.map((p, i) => ({
      registryType: p.registryType,
      identifier: p.identifier,
      version: p.version,
      target: p.target,
      notEvaluated: p.notEvaluated,
      report: nested[i] ?? null,
    })),
    remotes: facts.remotes.map(({ type, url }) => ({ type, url })),
  };
}

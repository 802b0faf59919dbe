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
    // The evaluation instant: a file someone else wrote may hold anything here.
    if (isoInstant(evidence.capturedAt) === null) {
      throw new EvidenceError(Array.isArray(parsed.data) ? `${index}.capturedAt` : 'capturedAt', 'not an ISO 8601 date');
    }
  });
  return list;
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
    const report = build(e);
    const mcp = mcpSectionOf(e, build, options);
    if (mcp !== undefined) report.mcp = mcp;
    return report;
  });
}

/**
 * An `mcp:` target's packages with their nested reports, re-scored from each package's own
 * evidence as `nerq check` scored them (ecosystems/mcp/collect.ts). Undefined for evidence that
 * does not record them (saved before it did, or edited so that they no longer line up with the
 * entry's packages): no nested report is made up.
 */
function mcpSectionOf(e: Evidence, build: (e: Evidence) => Report, options: RescoreOptions): McpSection | undefined {
  const source = e.sources.mcp;
  const outcomes = e.mcpPackages;
  if (source?.status !== 'ok' || outcomes === undefined || outcomes.length !== source.facts.packages.length) return undefined;
  const { facts } = source;
  const evaluatedAt = options.now ? options.now.toISOString() : e.capturedAt;
  return {
    server: facts.name,
    version: facts.version,
    packages: facts.packages.map((p, i) => {
      const outcome = outcomes[i] ?? null;
      let report: Report | null = null;
      if (outcome !== null && 'evidence' in outcome) report = build(outcome.evidence);
      else if (outcome !== null) report = errorReport({ input: p.target ?? p.identifier, ...outcome.error, gate: options.gate, evaluatedAt });
      return { registryType: p.registryType, identifier: p.identifier, version: p.version, target: p.target, notEvaluated: p.notEvaluated, report };
    }),
    remotes: facts.remotes.map(({ type, url }) => ({ type, url })),
  };
}

/**
 * The JSON contract (README.md, JSON), defined once. `schema/report.schema.json` is generated
 * from `ReportSchema` (`npm run generate`) and a test fails when the checked-in file is stale.
 * Bump REPORT_SCHEMA_VERSION on every change: the minor version when members are added, the
 * major version when one is removed or changes meaning.
 */
import { z } from 'zod';
import { DIMENSIONS } from '../model/dimensions.js';

export const REPORT_SCHEMA_VERSION = '1.6.0';

export const VERDICT_CODES = ['yes', 'caution', 'no', 'do-not-use', 'unknown'] as const;
export type VerdictCode = (typeof VERDICT_CODES)[number];

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'] as const;
export type Grade = (typeof GRADES)[number];

const evidenceValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);

export const ReportTargetSchema = z.object({
  input: z.string(),
  ecosystem: z.enum(['npm', 'pypi', 'github']),
  name: z.string(),
  version: z.string().nullable(),
  purl: z.string().nullable(),
  repository: z.string().nullable(),
});

export const DimensionResultSchema = z.object({
  id: z.enum(DIMENSIONS),
  title: z.string(),
  score: z.number().nullable(),
  /** The category profile's weight of this dimension in the overall score. */
  weight: z.number(),
  /** Known check weight ÷ total check weight in this dimension (0–1). */
  coverage: z.number(),
});

export const CheckResultSchema = z.object({
  id: z.string(),
  dimension: z.enum(DIMENSIONS),
  title: z.string(),
  weight: z.number(),
  score: z.number().nullable(),
  status: z.enum(['pass', 'warn', 'fail', 'unknown']),
  messageId: z.string(),
  message: z.string(),
  evidence: z.record(z.string(), evidenceValue),
});

/** A value a coded reason names (model/reason.ts). */
const reasonArg = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A reason as a program reads it (added in 1.4.0): a stable `code` (docs/scoring.md lists them),
 * the values it names, and `text`, the same sentence as the plain reason string beside it.
 */
export const ReasonSchema = z.object({
  code: z.string(),
  args: z.record(z.string(), reasonArg),
  text: z.string(),
});

export const CapSchema = z.object({
  /** The cap's code (docs/scoring.md §5). */
  id: z.string(),
  limit: z.number(),
  reason: z.string(),
  /** The values the reason names (added in 1.4.0): `id`, `args` and `reason` are the cap's coded reason. */
  args: z.record(z.string(), reasonArg),
  /** Null for a cap on the overall score; a dimension id for a cap on that dimension (added in 1.3.0). */
  dimension: z.enum(DIMENSIONS).nullable(),
});

export const SourceStatusSchema = z.object({
  id: z.string(),
  status: z.enum(['ok', 'unavailable']),
  reason: z.string().nullable(),
});

export const AdvisorySchema = z.object({
  id: z.string(),
  aliases: z.array(z.string()),
  summary: z.string().nullable(),
  severity: z.enum(['critical', 'high', 'moderate', 'low', 'unknown']),
  cvss: z.number().nullable(),
  package: z.string(),
  version: z.string().nullable(),
  affectsResolved: z.boolean(),
  fixed: z.string().nullable(),
  published: z.string().nullable(),
  url: z.string().nullable(),
  /** A known-malicious-package record (OSV `MAL-` or the malicious-packages database). Added in 1.1.0. */
  malicious: z.boolean(),
});

export const GateSchema = z.object({
  threshold: z.number(),
  minCoverage: z.number(),
  /** true passed, false failed, null could not be evaluated. */
  passed: z.boolean().nullable(),
  reasons: z.array(z.string()),
  /** `reasons` with their codes, in the same order (added in 1.4.0). */
  reasonDetails: z.array(ReasonSchema),
});

/** The previous evaluation of the same target, from the local store (added in 1.2.0). */
export const PreviousSchema = z.object({
  evaluatedAt: z.string(),
  version: z.string().nullable(),
  score: z.number().nullable(),
  grade: z.enum(GRADES).nullable(),
  /** score − previous score, one decimal; null when either is null. */
  change: z.number().nullable(),
  /** When the score moved by 5 or more: the dimensions and checks that moved, largest first. */
  movers: z.array(
    z.object({
      kind: z.enum(['dimension', 'check']),
      id: z.string(),
      from: z.number().nullable(),
      to: z.number().nullable(),
    }),
  ),
});
export type Previous = z.infer<typeof PreviousSchema>;

export const ReportSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nerq'), version: z.string() }),
  evaluatedAt: z.string().nullable(),
  target: ReportTargetSchema,
  /**
   * The category and the rule that decided it; `matches` (1.6.0) when several categories apply,
   * each with the rule that fired, strictest first: the first one's profile governs.
   */
  category: z
    .object({ id: z.string(), reason: z.string(), matches: z.array(z.object({ id: z.string(), reason: z.string() })).optional() })
    .nullable(),
  score: z.number().nullable(),
  grade: z.enum(GRADES).nullable(),
  verdict: z.string(),
  verdictCode: z.enum(VERDICT_CODES),
  verdictReasons: z.array(z.string()),
  /** `verdictReasons` with their codes, in the same order (added in 1.4.0). */
  verdictReasonDetails: z.array(ReasonSchema),
  /**
   * The score rests on less evidence than the gate needs (coverage below `--min-coverage`): it is
   * provisional, and the verdict is at most CAUTION (added in 1.5.0).
   */
  provisional: z.boolean(),
  coverage: z.number(),
  dimensions: z.array(DimensionResultSchema),
  checks: z.array(CheckResultSchema),
  caps: z.array(CapSchema),
  sources: z.array(SourceStatusSchema),
  advisories: z.array(AdvisorySchema),
  gate: GateSchema,
  /** Null on a fresh store, with --no-history, and always from `nerq score` (it never reads history). */
  previous: PreviousSchema.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export type Report = z.infer<typeof ReportSchema>;
export type CheckResult = z.infer<typeof CheckResultSchema>;
export type DimensionResult = z.infer<typeof DimensionResultSchema>;
export type Gate = z.infer<typeof GateSchema>;

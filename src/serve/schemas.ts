/**
 * The HTTP contract of `nerq serve` (docs/serve.md) as zod schemas: requests are parsed with
 * them, answers are built to them, and /openapi.json is generated from them. The preflight
 * answer keeps the published Preflight API's fields, field for field; nerq's meaning of each
 * is in docs/serve.md ("The preflight answer").
 */
import { z } from 'zod';
import { IncludedPackageNameSchema } from '../app/include-package-choice.js';
import { GRADES, IncludedPackageSchema, VERDICT_CODES } from '../report/schema.js';
import { SOURCE_UNAVAILABLE_CODES } from '../model/source-codes.js';

/** A target in the command line's syntax (`express@4`, `pypi:requests`, `github:o/r`); the parser decides. */
const targetText = z.string().min(1).max(512);

export const RECOMMENDATIONS = ['PROCEED', 'CAUTION', 'DENY', 'UNKNOWN'] as const;
export const INTERACTION_RISKS = ['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'] as const;
export const SEVERITY_LEVELS = ['critical', 'high', 'moderate', 'low', 'unknown'] as const;

/** What `include=` may add to a preflight answer, comma-separated: `history`, `alternatives`. */
export const INCLUDES = ['history', 'alternatives'] as const;
const includeText = z
  .string()
  .regex(new RegExp(`^(${INCLUDES.join('|')})(,(${INCLUDES.join('|')}))*$`))
  .describe('comma-separated: history (the evaluations, oldest first), alternatives (higher-scoring peers; costs a search and a few evaluations)');

/** The members of an `include=` text. */
export function includesOf(text: string | undefined): Set<(typeof INCLUDES)[number]> {
  return new Set((text ?? '').split(',').filter((i): i is (typeof INCLUDES)[number] => (INCLUDES as readonly string[]).includes(i)));
}

/**
 * `include_package=`: `github:` targets fold in the registry checks of a package the repository
 * publishes, its link verified (`nerq check --include-package`, docs/scoring.md §9): `true` (the
 * rule picks it), `false` (the same as leaving it out), or a package name (`x`, `@scope/x`,
 * `npm:x`, `pypi:x`; a package named `true` or `false` is `npm:true`; another yes/no word, `TRUE` or `1`,
 * is refused). An invalid value is a 400
 * `bad-option`, as is the parameter with no `github:` target, or a name that does not verify.
 */
export const INCLUDE_PACKAGE_PARAMETER = 'include_package';
const includePackageText = z
  .union([z.enum(['true', 'false']), IncludedPackageNameSchema])
  .describe(
    'github: targets: fold in the registry checks of the package the repository publishes, its link verified — true (the root manifest\'s package, else the first verified), false (none), or a package name (x, npm:x, pypi:x) that must verify; a yes/no word spelled otherwise (TRUE, 1, no…) is refused (npm:1 names the package)',
  );

/** The choice an `include_package=` value makes: undefined for none. */
export function includePackageOf(text: string | undefined): { name: string | null } | undefined {
  if (text === undefined || text === 'false') return undefined;
  return { name: text === 'true' ? null : text };
}

export const PreflightQuerySchema = z.strictObject({
  target: targetText,
  caller: targetText.optional(),
  include: includeText.optional(),
  include_package: includePackageText.optional(),
});

export const BatchQuerySchema = z.strictObject({ include: includeText.optional(), include_package: includePackageText.optional() });

/** Peers evaluated for a preflight's alternatives (docs/serve.md, "Alternatives"). */
export const PREFLIGHT_PEERS = 6;

/**
 * Why a preflight's alternatives could not be looked for: the comparison's own codes
 * (not-evaluated, no-search-source, search-unavailable, no-peers, peers-unavailable) and the server's
 * (queue-full: a peer was refused by the evaluation queue; deadline: the request's deadline
 * passed first).
 */
export const ALTERNATIVES_UNAVAILABLE_CODES = ['not-evaluated', 'no-search-source', 'search-unavailable', 'no-peers', 'peers-unavailable', 'queue-full', 'deadline'] as const;

/** Why a batch entry was not evaluated (its `error.code`). */
export const ENTRY_ERROR_CODES = ['queue-full', 'deadline'] as const;
export type EntryErrorCode = (typeof ENTRY_ERROR_CODES)[number];

export const HistoryPointSchema = z.object({
  evaluatedAt: z.string(),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  verdictCode: z.enum(VERDICT_CODES),
});

export const PreflightSchema = z.object({
  target: z.string(),
  /** 0–100, one decimal; null when the target could not be scored. */
  target_trust: z.number().min(0).max(100).nullable(),
  target_grade: z.enum(GRADES).nullable(),
  /** Score ≥ 70 and verdict YES. */
  target_verified: z.boolean(),
  target_category: z.string().nullable(),
  /** The ecosystem the facts came from: npm, pypi or github. */
  target_source: z.string(),
  /** The resolved version's publish time (ISO 8601), null when unknown. */
  target_last_updated: z.string().nullable(),
  /** The target's source repository, null when it names none. */
  details_url: z.string().nullable(),
  caller: z.string().nullable(),
  caller_trust: z.number().min(0).max(100).nullable(),
  caller_grade: z.enum(GRADES).nullable(),
  caller_verified: z.boolean().nullable(),
  interaction_risk: z.enum(INTERACTION_RISKS),
  recommendation: z.enum(RECOMMENDATIONS),
  /** Score caps that applied (`deprecated`, `malicious`…) and `license-<class>` for a licence that is not permissive. */
  compliance_flags: z.array(z.string()),
  security: z.object({
    /** Advisories affecting the resolved version; null when the vulnerability database could not be asked. */
    known_cves: z.number().int().nullable(),
    max_severity: z.enum(SEVERITY_LEVELS).nullable(),
    has_active_advisory: z.boolean().nullable(),
    license: z.string().nullable(),
    license_category: z.string().nullable(),
  }),
  popularity: z.object({
    npm_weekly_downloads: z.number().int().nullable(),
    pypi_weekly_downloads: z.number().int().nullable(),
    github_stars: z.number().int().nullable(),
  }),
  activity: z.object({
    last_commit_days_ago: z.number().int().nullable(),
    contributor_metrics: z.object({ count: z.number().int().nullable(), bus_factor: z.number().int().nullable() }).nullable(),
  }),
  /**
   * With `include=alternatives`: peers scoring strictly higher (best first, at most 3) — the
   * package name, its score and its source repository (or the curated replacement's page).
   * Empty otherwise.
   */
  alternatives: z.array(z.object({ name: z.string(), trust_score: z.number().nullable(), url: z.string().nullable() })),
  checked_at: z.string(),
  response_time_ms: z.number().int().nonnegative(),
  /** With `include=history`: the target's recorded evaluations, oldest first. */
  history: z.array(HistoryPointSchema).optional(),
  /**
   * With `include=alternatives`: null when the peers were compared (an empty list then means no
   * peer scored higher), else why they could not be (the list may still hold curated replacements).
   * `source_code` with `search-unavailable` only: why the search gave no peers, as a source code
   * (the report's `comparisonUnavailable.sourceCode`, docs/scoring.md §11).
   */
  alternatives_unavailable: z
    .object({ code: z.enum(ALTERNATIVES_UNAVAILABLE_CODES), source_code: z.enum(SOURCE_UNAVAILABLE_CODES).optional(), reason: z.string() })
    .nullable()
    .optional(),
  /**
   * Only in a batch, for a target that was not evaluated: the queue was full (`queue-full`, with
   * `retry_after_s`) or the request's deadline passed first (`deadline`). Every other field then
   * says unknown (null, UNKNOWN), never a made-up value.
   */
  error: z.object({ code: z.enum(ENTRY_ERROR_CODES), message: z.string(), retry_after_s: z.number().int().positive().optional() }).optional(),
  /**
   * With `include_package=` on a `github:` target: the package folded into the report, or the
   * coded reason none was (the report's `includedPackage`); null when the target could not be
   * evaluated.
   */
  included_package: IncludedPackageSchema.nullable().optional(),
});
export type Preflight = z.infer<typeof PreflightSchema>;

/** At most this many targets in one batch. */
export const MAX_BATCH = 50;

export const BatchRequestSchema = z.strictObject({
  targets: z.array(targetText).min(1).max(MAX_BATCH),
});

export const BatchResponseSchema = z.object({
  results: z.array(PreflightSchema),
  count: z.number().int(),
  response_time_ms: z.number().int().nonnegative(),
});

export const TargetQuerySchema = z.strictObject({ target: targetText, include_package: includePackageText.optional() });

/**
 * A positive whole number in a query string: plain decimal digits, no sign, point, exponent, radix
 * prefix, leading zero or blank, at most 10 of them — anything else is a 400 `bad-request`, never a
 * number read some other way (`0x10`, `1e2`, `16.0`, `+16`, `016`, an empty value).
 */
function positiveQueryInteger(max: number) {
  return z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'expected a whole number from 1, written in decimal digits')
    .transform(Number)
    .pipe(z.number().int().max(max))
    .describe(`a whole number from 1 to ${max}, in decimal digits`);
}

export const HistoryQuerySchema = z.strictObject({
  target: targetText,
  limit: positiveQueryInteger(1000).optional(),
});

export const HistoryResponseSchema = z.object({
  /** The key history files the target under (`npm:chalk`). */
  target: z.string(),
  evaluations: z.array(HistoryPointSchema.extend({ version: z.string().nullable() })),
  olderNotShown: z.boolean(),
});

/** The largest lockfile or SBOM POST /v1/audit accepts (bytes of UTF-8). */
export const MAX_AUDIT_BYTES = 5 * 1024 * 1024;

export const AuditRequestSchema = z.strictObject({
  /** The file's name (`package-lock.json`, `requirements.txt`, `bom.cdx.json`…): it picks the reader. */
  fileName: z.string().min(1).max(100),
  content: z.string(),
  /**
   * A policy as `.nerqrc.json` holds it (minScore, minCoverage, dimensions, licenses, ignore,
   * failOn, failOnSeverity), validated by the same schema, at most 64 KiB of JSON; absent: the
   * default policy. The audit report names its source `request`.
   */
  policy: z.record(z.string(), z.unknown()).optional(),
});

export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  evaluations: z.object({ evaluations: z.number().int(), coalesced: z.number().int(), reused: z.number().int(), refused: z.number().int(), pending: z.number().int() }),
  /** Services found down, one per element: a host found down is each service nerq asks there (asked again after a while; docs/serve.md, "Hosts found down"). */
  down: z.array(z.string()),
});

export const ERROR_CODES = [
  'bad-request',
  'bad-target',
  'bad-input',
  'bad-option',
  'unauthorized',
  'forbidden-host',
  'forbidden-origin',
  'not-found',
  'method-not-allowed',
  'body-too-large',
  'unsupported-media-type',
  'queue-full',
  'rate-limited',
  'deadline',
  'shutting-down',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorSchema = z.object({
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }),
});

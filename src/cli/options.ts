/**
 * Command-line options, validated with zod. A bad value is a usage error (exit 2) with a
 * one-line message naming the flag.
 */
import { z } from 'zod';
import { DEFAULT_GATE, type GateOptions } from '../scoring/gate.js';
import { CATEGORIES } from '../scoring/profiles.js';
import { SEVERITY_LEVELS } from '../audit/policy-schema.js';
import { UsageError } from './usage-error.js';
import { INCLUDE_PACKAGE_NEEDS_REPOSITORY, includePackageApplies, type IncludePackage } from '../app/include-package-choice.js';
import type { Target } from '../target/types.js';
import { printWarning } from './stderr.js';
import { isoInstant } from '../util/iso-instant.js';

export const FORMATS = ['table', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

const number = (flag: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, `${flag} must be a number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${flag} must be between ${min} and ${max}`);

export const OutputOptionsSchema = z.object({
  json: z.boolean().optional(),
  format: z.enum(FORMATS, { message: `--format must be one of ${FORMATS.join(', ')}` }).optional(),
  minScore: number('--min-score', 0, 100).optional(),
  minCoverage: number('--min-coverage', 0, 1).optional(),
  category: z.enum(CATEGORIES, { message: `--category must be one of ${CATEGORIES.join(', ')}` }).optional(),
  color: z.boolean().optional(),
  evidence: z.boolean().optional(),
  allowIncomplete: z.boolean().optional(),
  quiet: z.boolean().optional(),
  output: z.string().min(1, '--output needs a file name').optional(),
});

export const CheckOptionsSchema = OutputOptionsSchema.extend({
  offline: z.boolean().optional(),
  cache: z.boolean().optional(),
  history: z.boolean().optional(),
  maxAge: number('--max-age', 0, 365 * 24 * 3600).optional(),
  timeout: number('--timeout', 1, 3600).optional(),
  saveEvidence: z.string().min(1).optional(),
  compare: z.boolean().optional(),
  peers: number('--peers', 1, 50)
    .refine((n) => Number.isInteger(n), '--peers must be a whole number')
    .optional(),
  registry: z
    .string()
    .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), '--registry must be an http(s) URL')
    .optional(),
  /** `--include-package` (true) or `--include-package <name>` (repository targets, docs/scoring.md §9). */
  includePackage: z.union([z.literal(true), z.string().trim().min(1, '--include-package needs a package name or nothing')]).optional(),
});

/**
 * `--include-package [name]` as the choice the use cases take (app/include-package-choice.ts):
 * it applies to the targets named (never to peers), and with no `github:` target among them it
 * is a usage error before any request.
 */
export function includePackageOption(value: true | string | undefined, targets: readonly Target[]): IncludePackage | undefined {
  if (value === undefined) return undefined;
  if (!includePackageApplies(targets)) throw new UsageError(`--${INCLUDE_PACKAGE_NEEDS_REPOSITORY}`);
  return { name: value === true ? null : value };
}

export const AUDIT_FORMATS = ['table', 'json', 'markdown', 'sarif'] as const;

export const AuditOptionsSchema = CheckOptionsSchema.omit({ saveEvidence: true, format: true, includePackage: true }).extend({
  format: z.enum(AUDIT_FORMATS, { message: `--format must be one of ${AUDIT_FORMATS.join(', ')}` }).optional(),
  file: z.array(z.string().min(1, '--file needs a path')).optional(),
  policy: z.string().min(1, '--policy needs a path').optional(),
  changedSince: z.string().min(1, '--changed-since needs a git ref').optional(),
  policyFromHead: z.boolean().optional(),
  direct: z.boolean().optional(),
  omit: z.array(z.enum(['dev'], { message: '--omit accepts only dev' })).optional(),
  concurrency: number('--concurrency', 1, 256).optional(),
  trustProjectNpmrc: z.boolean().optional(),
  mcp: z.boolean().optional(),
  mcpConfig: z.array(z.string().min(1, '--mcp-config needs a path')).optional(),
  failOn: z.enum(SEVERITY_LEVELS, { message: `--fail-on must be one of ${SEVERITY_LEVELS.join(', ')}` }).optional(),
});

export type AuditOptions = z.infer<typeof AuditOptionsSchema>;
export type OutputOptions = z.infer<typeof OutputOptionsSchema>;

export { UsageError };

/** A whole-number option from `min` to `max` (given as text), with one message for every way it can be wrong. */
export function wholeOption(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ message }).int(message).min(min, message).max(max, message);
}

/** --log-level of the long-running commands (pino's levels). */
export const logLevelOption = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent'], { message: '--log-level must be fatal, error, warn, info, debug or silent' });

/** A warning on stderr, one line. */
export function warn(message: string): void {
  printWarning(message);
}

/** Parse options or throw a UsageError with the first problem as one line. */
export function parseOptions<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? 'invalid options');
  // --json is --format json: with another format it is a contradiction, not a choice to make silently.
  const data = result.data as { json?: boolean; format?: string };
  if (data.json === true && data.format !== undefined && data.format !== 'json') {
    throw new UsageError(`--json and --format ${data.format} disagree: give one of them`);
  }
  return result.data;
}

export function formatOf(options: OutputOptions): Format {
  return options.json ? 'json' : (options.format ?? 'table');
}

/** NERQ_NOW fixes the clock (ISO 8601); anything else is a usage error. */
export function clockFrom(env: NodeJS.ProcessEnv): Date | null {
  const value = env.NERQ_NOW;
  if (value === undefined || value === '') return null;
  const time = isoInstant(value);
  if (time === null) throw new UsageError(`NERQ_NOW must be an ISO 8601 date (YYYY-MM-DD, or a time with its zone: 2026-01-31T12:00:00Z), got ${JSON.stringify(value.slice(0, 40))}`);
  return time;
}


/** The gate as --min-score and --min-coverage set it (defaults from docs/scoring.md §10). */
export function gateOf(options: OutputOptions): GateOptions {
  return {
    ...DEFAULT_GATE,
    threshold: options.minScore ?? DEFAULT_GATE.threshold,
    minCoverage: options.minCoverage ?? DEFAULT_GATE.minCoverage,
    ...(options.allowIncomplete === true ? { allowIncomplete: true } : {}),
  };
}

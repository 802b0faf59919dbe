/**
 * The policy file's shape (`.nerqrc.json`, or the `"nerq"` key of package.json), in zod.
 * Strict everywhere: a misspelt key is an error, not a silently ignored setting. Licence
 * list entries and ignore ranges are validated here, so a policy that loads is one that
 * `applyPolicy` can evaluate without surprises.
 */
import { z } from 'zod';
import { DIMENSIONS } from '../checks/define.js';
import { parseSpdx } from '../checks/lib/spdx.js';
import { isModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { PACKAGE_ECOSYSTEMS, packageRulesOf } from '../ecosystems/rules.js';
import { MCP_IGNORABLE, MCP_NEVER_IGNORED, MCP_NEVER_IGNORED_WHY, type AuditEcosystem, type McpIgnorableCode } from './types.js';

/** One licence of an allow / deny list: an SPDX id, a `+` range or `id WITH exception` — no AND/OR (spdx-satisfies' rule). */
const LicenseEntrySchema = z.string().superRefine((value, ctx) => {
  const tree = parseSpdx(value.trim());
  if (tree === null) ctx.addIssue({ code: 'custom', message: `'${value}' is not an SPDX licence identifier` });
  else if ('conjunction' in tree) {
    ctx.addIssue({ code: 'custom', message: `'${value}' combines licences with AND/OR; list each licence on its own` });
  }
});

const LicenseListSchema = z.array(LicenseEntrySchema).min(1, 'must list at least one licence');

/**
 * A number from `min` to `max`. JSON reads `1e999` as Infinity, which zod refuses as not a
 * number: the message says what is wrong with it instead of "expected number, got number".
 */
const boundedNumber = (min: number, max: number) =>
  z.number({ error: (issue) => (typeof issue.input === 'number' ? `must be a finite number from ${min} to ${max}` : undefined) }).min(min).max(max);

const score = boundedNumber(0, 100);

const DimensionFloorsSchema = z.strictObject(
  Object.fromEntries(DIMENSIONS.map((d) => [d, score.optional()])) as Record<
    (typeof DIMENSIONS)[number],
    z.ZodOptional<typeof score>
  >,
);

/** What an ignore entry's `package` names: an optional ecosystem, a name, an optional range. */
export interface IgnoreTarget {
  /** `npm:` / `pypi:` / `go:` / `cargo:` prefix; null = the name in npm or PyPI (never a Go module or crate). */
  ecosystem: AuditEcosystem | null;
  name: string;
  /** npm semver range or PEP 440 specifier (a bare PEP 440 version means `==`), a Go module's or crate's exact version; null = every version. */
  range: string | null;
}

/**
 * Parse `name`, `name@range`, `@scope/name@range`, optionally prefixed `npm:` or `pypi:`; a Go
 * module or crate with `go:` / `cargo:` and an exact version, if any (`go:golang.org/x/net@v0.38.0`).
 * Returns a reason string when it is not valid.
 */
export function parseIgnoreTarget(raw: string): IgnoreTarget | string {
  let text = raw.trim();
  let ecosystem: AuditEcosystem | null = null;
  const prefix = /^(npm|pypi|go|cargo):/i.exec(text);
  if (prefix?.[1] !== undefined) {
    ecosystem = prefix[1].toLowerCase() as AuditEcosystem;
    text = text.slice(prefix[0].length);
  }
  // The range starts at the last `@` that is not a scope's leading `@`.
  const at = text.lastIndexOf('@');
  const name = at > 0 ? text.slice(0, at) : text;
  const range = at > 0 ? text.slice(at + 1).trim() : null;
  if (name === '' || /\s/.test(name) || name === '@') return `'${raw}' does not name a package (expected name or name@range)`;
  if (range === null) return { ecosystem, name, range: null };
  if (range === '') return `'${raw}' has an empty range after '@'`;
  if (ecosystem !== null && isModuleEcosystem(ecosystem)) {
    // A Go module or crate is pinned at one version: an entry names that version exactly (policy-ignore.ts).
    return /^[^\s<>=~^*|,]+$/.test(range) ? { ecosystem, name, range } : `'${range}' is not an exact version (a go: or cargo: entry names one version, or none)`;
  }
  if (ecosystem !== null) {
    const { ranges } = packageRulesOf(ecosystem).registry;
    return ranges.valid(range) ? { ecosystem, name, range } : `'${range}' is not a valid ${ranges.syntax}`;
  }
  const all = PACKAGE_ECOSYSTEMS.map((id) => packageRulesOf(id).registry.ranges);
  if (!all.some((ranges) => ranges.valid(range))) return `'${range}' is neither ${all.map((ranges) => ranges.noun).join(' nor ')}`;
  return { ecosystem, name, range };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as YYYY-MM-DD (2027-02-30 is refused). */
function isCalendarDay(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const reason = (what: string) => z.string().refine((s) => s.trim() !== '', `must not be empty: say why the ${what} is ignored`);
const expires = z.string().refine(isCalendarDay, 'must be a date as YYYY-MM-DD').optional();

/** `{ package, reason, expires? }`: a package (name, range) whose policy outcome is ignored. */
const PackageIgnoreSchema = z
  .strictObject({ package: z.string(), reason: reason('package'), expires })
  .transform((entry, ctx) => {
    const target = parseIgnoreTarget(entry.package);
    if (typeof target === 'string') {
      ctx.addIssue({ code: 'custom', message: target, path: ['package'] });
      return z.NEVER;
    }
    return { kind: 'package' as const, package: entry.package.trim(), ...target, reason: entry.reason.trim(), expires: entry.expires ?? null };
  });

/** Why a finding code cannot be in an MCP ignore entry, or null when it can (MCP_IGNORABLE). */
function findingCodeProblem(code: string): string | null {
  if ((MCP_NEVER_IGNORED as readonly string[]).includes(code)) return `${code} cannot be ignored: ${MCP_NEVER_IGNORED_WHY}`;
  if ((MCP_IGNORABLE as readonly string[]).includes(code)) return null;
  return `unknown code '${code}' (expected ${MCP_IGNORABLE.map((c) => `'${c}'`).join(', ')})`;
}

/**
 * `{ mcp, file?, finding?, reason, expires? }`: an MCP server of `nerq audit --mcp` whose findings
 * are ignored — `mcp` its key as configured or its MCP Registry name, matched exactly; `file` the
 * configuration file as the report names it (`.mcp.json`, `~/.cursor/mcp.json`), else any;
 * `finding` one code or several, else every finding a review may accept (README.md, "The policy file").
 */
const McpIgnoreSchema = z
  .strictObject({
    mcp: z.string().refine((s) => s.trim() !== '', 'must name a server: its key as configured or its MCP Registry name'),
    file: z.string().refine((s) => s.trim() !== '', 'must name a configuration file as the report names it (.mcp.json, ~/.cursor/mcp.json)').optional(),
    finding: z.union([z.string(), z.array(z.string()).min(1, 'must list at least one code')]).optional(),
    reason: reason('finding'),
    expires,
  })
  .transform((entry, ctx) => {
    const codes = entry.finding === undefined ? null : typeof entry.finding === 'string' ? [entry.finding] : entry.finding;
    let bad = false;
    codes?.forEach((code, index) => {
      const problem = findingCodeProblem(code);
      if (problem === null) return;
      bad = true;
      ctx.addIssue({ code: 'custom', message: problem, path: typeof entry.finding === 'string' ? ['finding'] : ['finding', index] });
    });
    if (bad) return z.NEVER;
    return {
      kind: 'mcp' as const,
      mcp: entry.mcp,
      file: entry.file ?? null,
      findings: codes === null ? null : [...new Set(codes as McpIgnorableCode[])],
      reason: entry.reason.trim(),
      expires: entry.expires ?? null,
    };
  });

/** An ignore entry: an MCP server's when it has an `mcp` key, else a package's (each form strict). */
const IgnoreItemSchema = z.unknown().transform((raw, ctx) => {
  const schema = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'mcp' in raw ? McpIgnoreSchema : PackageIgnoreSchema;
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  // Forwarded as they are (code, path below this entry, input), so describeIssue words them as any other.
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

export type PackageIgnoreEntry = z.output<typeof PackageIgnoreSchema>;
export type McpIgnoreEntry = z.output<typeof McpIgnoreSchema>;
export type IgnoreEntry = PackageIgnoreEntry | McpIgnoreEntry;

export const FAIL_ON = ['no', 'caution'] as const;

/** Advisory severities a policy can fail on, lowest first (`failOnSeverity`, `--fail-on`). */
export const SEVERITY_LEVELS = ['low', 'moderate', 'high', 'critical'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

/** The policy as written in the file. Dimension floors live under `dimensions`. */
export const PolicyFileSchema = z.strictObject({
  /** Editors' JSON-schema hint; ignored. */
  $schema: z.string().optional(),
  minScore: score.optional(),
  minCoverage: boundedNumber(0, 1).optional(),
  dimensions: DimensionFloorsSchema.optional(),
  licenses: z.strictObject({ allow: LicenseListSchema.optional(), deny: LicenseListSchema.optional() }).optional(),
  ignore: z.array(IgnoreItemSchema).optional(),
  failOn: z.enum(FAIL_ON).optional(),
  /** Fail a package an advisory of this severity or higher affects (as `--fail-on`). */
  failOnSeverity: z.enum(SEVERITY_LEVELS).optional(),
});

export type PolicyFileContent = z.output<typeof PolicyFileSchema>;

/** `ignore[1].reason` from a zod path. */
export function keyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The first problem of a failed parse as `{ path, message }`, worded for people. */
export function describeIssue(issue: z.core.$ZodIssue): { path: string; message: string } {
  const path = keyPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      return { path: keyPath([...issue.path, key]), message: 'unknown key' };
    }
    case 'invalid_type':
      if (issue.input === undefined) return { path, message: 'required' };
      // A number of the wrong kind (Infinity, NaN): the schema's own message says which it must be.
      if (issue.expected === 'number' && typeof issue.input === 'number') return { path, message: issue.message };
      return { path, message: `expected ${issue.expected}, got ${typeName(issue.input)}` };
    case 'too_small':
      return {
        path,
        message: issue.origin === 'array' ? issue.message : `must be at least ${String(issue.minimum)}`,
      };
    case 'too_big':
      return { path, message: `must be at most ${String(issue.maximum)}` };
    case 'invalid_value':
      return { path, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { path, message: issue.message };
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

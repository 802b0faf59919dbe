/**
 * OSV advisory records → nerq's `AdvisoryFacts`. Pure code: no I/O, no clock.
 *
 * - `OsvRecordSchema` reads a `GET /v1/vulns/{id}` record leniently: the id must be there;
 *   a malformed optional field (a severity entry, a range, an alias that is not a string) is
 *   dropped rather than failing the whole record.
 * - `ownSeverity` takes a record's severity from its CVSS vectors (v4, then v3, then v2),
 *   else from the database's label; `normaliseAdvisory` builds the facts for one queried
 *   package version, with a severity borrowed from a twin when the record has none.
 * - `mergeTwins` folds records that alias each other (PYSEC / GHSA / CVE …) into one
 *   advisory per package version, so one flaw is never counted twice.
 * - Malicious means an OSV `MAL-` id or a record from the malicious-packages database
 *   (`database_specific["malicious-packages-origins"]`): by id and source, never by words.
 */
import { z } from 'zod';
import { SEVERITIES, type AdvisoryFacts, type Severity } from '../../evidence/schema.js';
import { compareNpmVersions } from '../../ecosystems/npm/rules.js';
import { comparePypiVersions } from '../../ecosystems/pypi/rules.js';
import { dependencyEcosystemOfOsv, osvRulesOf } from '../../ecosystems/osv-ecosystems.js';
import type { OsvEcosystem, VersionComparator } from '../../ecosystems/types.js';
import { cvssBaseScore, severityOfScore } from './cvss.js';

export type { OsvEcosystem, VersionComparator };
export { compareNpmVersions, comparePypiVersions };

/** The package version an advisory was matched against. */
export interface AdvisoryQuery {
  ecosystem: OsvEcosystem;
  name: string;
  version: string;
  compare: VersionComparator;
}

/** A known severity and where it came from (before any borrowing from a twin). */
export interface SeverityFinding {
  severity: Exclude<Severity, 'unknown'>;
  source: 'cvss' | 'database';
  cvss: number | null;
  cvssVector: string | null;
}

export const MAX_SUMMARY_LENGTH = 300;

// ---------------------------------------------------------------------------------------
// The record

const optionalString = z.string().optional().catch(undefined);

/** An array whose items that fail `item` are dropped; anything but an array reads as []. */
function lenientArray<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((items): z.output<T>[] =>
      (items ?? []).flatMap((entry) => {
        const parsed = item.safeParse(entry);
        return parsed.success ? [parsed.data] : [];
      }),
    );
}

const OsvEventSchema = z.object({
  introduced: optionalString,
  fixed: optionalString,
  last_affected: optionalString,
  limit: optionalString,
});

const OsvRangeSchema = z.object({ type: z.string(), events: lenientArray(OsvEventSchema) });

const OsvAffectedSchema = z.object({
  package: z.object({ name: z.string(), ecosystem: z.string() }).optional().catch(undefined),
  ranges: lenientArray(OsvRangeSchema),
  versions: lenientArray(z.string()),
});

export const OsvRecordSchema = z.object({
  id: z.string().min(1).max(200),
  aliases: lenientArray(z.string()),
  summary: optionalString,
  details: optionalString,
  published: optionalString,
  modified: optionalString,
  withdrawn: optionalString,
  severity: lenientArray(z.object({ type: z.string(), score: z.string() })),
  affected: lenientArray(OsvAffectedSchema),
  database_specific: z
    .record(z.string(), z.unknown())
    .optional()
    .catch(undefined)
    .transform((value) => value ?? {}),
});
export type OsvRecord = z.output<typeof OsvRecordSchema>;

/** A record that names its withdrawal time (OSV keeps withdrawn records readable by id). */
export function isWithdrawn(record: OsvRecord): boolean {
  return record.withdrawn !== undefined && record.withdrawn.trim() !== '';
}

// ---------------------------------------------------------------------------------------
// Versions and names

const NUMERIC_DOTTED = /^\d+(?:\.\d+)*$/;

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Release-number order for plain dotted versions (`2.9.12` > `2.9.5`, `1.0` = `1.0.0`);
 * null for anything else. Kept as a building block; PyPI uses `comparePypiVersions`.
 */
export const compareNumericDotted: VersionComparator = (a, b) => {
  if (!NUMERIC_DOTTED.test(a) || !NUMERIC_DOTTED.test(b)) return null;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const order = compareDigits(x[i] ?? '0', y[i] ?? '0');
    if (order !== 0) return order;
  }
  return 0;
};

/** The version order of the ecosystem OSV names `ecosystem` (ecosystems/osv-ecosystems.ts). */
export function comparatorFor(ecosystem: OsvEcosystem): VersionComparator {
  return osvRulesOf(ecosystem).compareVersions;
}

function samePackage(pkg: { name: string; ecosystem: string } | undefined, query: Pick<AdvisoryQuery, 'ecosystem' | 'name'>): boolean {
  if (pkg === undefined || pkg.ecosystem !== query.ecosystem) return false;
  const { canonicalName } = osvRulesOf(query.ecosystem);
  return canonicalName(pkg.name) === canonicalName(query.name);
}

/** The lower of two versions by `compare`, keeping `current` when they cannot be compared. */
function lowerOf(current: string | null, candidate: string | null, compare: VersionComparator): string | null {
  if (candidate === null) return current;
  if (current === null) return candidate;
  const order = compare(candidate, current);
  return order !== null && order < 0 ? candidate : current;
}

/**
 * The lowest `fixed` event above the queried version, among the ECOSYSTEM / SEMVER ranges
 * of the record's `affected` entries for the queried package; null when none is known.
 */
export function firstFixedAbove(record: OsvRecord, query: AdvisoryQuery): string | null {
  let best: string | null = null;
  for (const affected of record.affected) {
    if (!samePackage(affected.package, query)) continue;
    for (const range of affected.ranges) {
      if (range.type !== 'ECOSYSTEM' && range.type !== 'SEMVER') continue;
      for (const event of range.events) {
        const fixed = event.fixed?.trim();
        if (fixed === undefined || fixed === '') continue;
        const order = query.compare(fixed, query.version);
        if (order === null || order <= 0) continue;
        best = lowerOf(best, fixed, query.compare);
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------
// Severity

const CVSS_TYPES = ['CVSS_V4', 'CVSS_V3', 'CVSS_V2'] as const;

const DATABASE_LABELS: Record<string, Exclude<Severity, 'unknown'>> = {
  CRITICAL: 'critical',
  HIGH: 'high',
  MODERATE: 'moderate',
  MEDIUM: 'moderate',
  LOW: 'low',
};

/**
 * The record's own severity: the first CVSS vector that scores above 0 (v4, then v3, then
 * v2), else `database_specific.severity` (CRITICAL / HIGH / MODERATE / MEDIUM / LOW);
 * null when it has neither.
 */
export function ownSeverity(record: OsvRecord): SeverityFinding | null {
  for (const type of CVSS_TYPES) {
    for (const entry of record.severity) {
      if (entry.type !== type) continue;
      const score = cvssBaseScore(entry.score);
      const severity = score === null ? null : severityOfScore(score);
      if (score !== null && severity !== null) {
        return { severity, source: 'cvss', cvss: score, cvssVector: entry.score.trim() };
      }
    }
  }
  const label = record.database_specific.severity;
  const severity = typeof label === 'string' ? DATABASE_LABELS[label.trim().toUpperCase()] : undefined;
  return severity === undefined ? null : { severity, source: 'database', cvss: null, cvssVector: null };
}

/** GHSA aliases first (GitHub reviews carry a severity most often), the rest in record order. */
export function aliasLookupOrder(record: OsvRecord): string[] {
  const aliases = [...new Set(record.aliases)].filter((alias) => alias !== record.id);
  return [...aliases.filter((a) => a.startsWith('GHSA-')), ...aliases.filter((a) => !a.startsWith('GHSA-'))];
}

// ---------------------------------------------------------------------------------------
// One advisory

export function isMalicious(record: OsvRecord): boolean {
  return record.id.startsWith('MAL-') || Object.hasOwn(record.database_specific, 'malicious-packages-origins');
}

/** Whitespace collapsed, cut to `max` characters (code points), an ellipsis marking a cut. */
function shorten(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** The summary, else the first non-empty line of the details; null when neither has text. */
export function summaryOf(record: OsvRecord): string | null {
  const summary = record.summary?.trim();
  if (summary !== undefined && summary !== '') return shorten(summary, MAX_SUMMARY_LENGTH);
  const line = record.details?.split(/\r\n|[\r\n]/).find((l) => l.trim() !== '');
  return line === undefined ? null : shorten(line, MAX_SUMMARY_LENGTH);
}

export function advisoryUrl(id: string): string {
  return `https://osv.dev/vulnerability/${encodeURIComponent(id)}`;
}

/**
 * The facts for one record matched against one package version. `borrowed` is a twin's
 * severity, used only when the record has none of its own (severitySource `alias`).
 */
export function normaliseAdvisory(record: OsvRecord, query: AdvisoryQuery, borrowed: SeverityFinding | null = null): AdvisoryFacts {
  const own = ownSeverity(record);
  const found = own ?? borrowed;
  return {
    id: record.id,
    aliases: [...new Set(record.aliases)].filter((alias) => alias !== record.id).sort(),
    summary: summaryOf(record),
    severity: found?.severity ?? 'unknown',
    severitySource: own !== null ? own.source : borrowed !== null ? 'alias' : 'none',
    cvss: found?.cvss ?? null,
    cvssVector: found?.cvssVector ?? null,
    package: query.name,
    ecosystem: dependencyEcosystemOfOsv(query.ecosystem),
    version: query.version,
    affectsResolved: true,
    fixed: firstFixedAbove(record, query),
    published: record.published?.trim() || null,
    malicious: isMalicious(record),
    url: advisoryUrl(record.id),
  };
}

/**
 * The record names the package affected from version 0 on, with no fix, no last affected version
 * and no limit in any of its ECOSYSTEM / SEMVER ranges for it: every version is affected, whatever
 * a range, a tag or no version would pick. A record that lists versions only, or bounds a range,
 * does not say so (docs/security.md).
 */
export function affectsEveryVersion(record: OsvRecord, ecosystem: OsvEcosystem, name: string): boolean {
  const events = record.affected
    .filter((affected) => samePackage(affected.package, { ecosystem, name }))
    .flatMap((affected) => affected.ranges)
    .filter((range) => range.type === 'ECOSYSTEM' || range.type === 'SEMVER')
    .flatMap((range) => range.events);
  const bounded = events.some((e) => [e.fixed, e.last_affected, e.limit].some((v) => v !== undefined && v.trim() !== ''));
  return !bounded && events.some((e) => e.introduced?.trim() === '0');
}

/** The facts for a record that affects every version of the package (`affectsEveryVersion`): matched against no version, no fix. */
export function everyVersionAdvisory(record: OsvRecord, ecosystem: OsvEcosystem, name: string): AdvisoryFacts {
  // No range of the record is bounded, so there is no fix to compare the version with.
  const facts = normaliseAdvisory(record, { ecosystem, name, version: '0', compare: comparatorFor(ecosystem) });
  return { ...facts, version: null, fixed: null };
}

// ---------------------------------------------------------------------------------------
// Twins

const SEVERITY_RANK: Record<Severity, number> = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<Severity, number>;

class UnionFind {
  readonly #parent: number[];
  constructor(size: number) {
    this.#parent = Array.from({ length: size }, (_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.#parent[root] !== root) root = this.#parent[root] ?? root;
    while (this.#parent[i] !== root) {
      const next = this.#parent[i] ?? root;
      this.#parent[i] = root;
      i = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    const x = this.find(a);
    const y = this.find(b);
    if (x !== y) this.#parent[Math.max(x, y)] = Math.min(x, y);
  }
}

/** The earliest of the dates that parse, else the first value given; null when none. */
function earliest(values: readonly (string | null)[]): string | null {
  const known = values.filter((v): v is string => v !== null);
  const dated = known.filter((v) => !Number.isNaN(Date.parse(v)));
  if (dated.length === 0) return known[0] ?? null;
  return dated.reduce((best, v) => (Date.parse(v) < Date.parse(best) ? v : best));
}

/** One advisory from twins (all for the same package version), in their given order. */
function mergeGroup(twins: readonly AdvisoryFacts[], compare: VersionComparator): AdvisoryFacts {
  const first = twins[0];
  if (first === undefined) throw new Error('mergeGroup: no advisories');
  if (twins.length === 1) return first;
  const primary = twins.find((a) => a.id.startsWith('GHSA-')) ?? first;
  // The highest known severity; ties go to the primary, then to the earlier twin.
  const rated = [primary, ...twins.filter((a) => a !== primary)];
  const severe = rated.reduce((best, a) => (SEVERITY_RANK[a.severity] < SEVERITY_RANK[best.severity] ? a : best));
  const ids = new Set(twins.flatMap((a) => [a.id, ...a.aliases]));
  ids.delete(primary.id);
  return {
    ...primary,
    aliases: [...ids].sort(),
    summary: primary.summary ?? rated.find((a) => a.summary !== null)?.summary ?? null,
    severity: severe.severity,
    severitySource: severe.severitySource,
    cvss: severe.cvss,
    cvssVector: severe.cvssVector,
    affectsResolved: twins.some((a) => a.affectsResolved),
    fixed: twins.reduce<string | null>((best, a) => lowerOf(best, a.fixed, compare), null),
    published: earliest(rated.map((a) => a.published)),
    malicious: twins.some((a) => a.malicious),
  };
}

/**
 * Merge advisories whose id or aliases overlap, transitively, for the same package (ecosystem and
 * name) and version: primary id = a GHSA id if any, else the first; aliases = every other id; the
 * highest known severity; the lowest known fix; malicious when any twin is.
 */
export function mergeTwins(advisories: readonly AdvisoryFacts[], compare: VersionComparator): AdvisoryFacts[] {
  const sets = new UnionFind(advisories.length);
  const owner = new Map<string, number>();
  advisories.forEach((advisory, index) => {
    for (const id of [advisory.id, ...advisory.aliases]) {
      const key = `${advisory.ecosystem ?? ''}\u0000${advisory.package}\u0000${advisory.version ?? ''}\u0000${id}`;
      const seen = owner.get(key);
      if (seen === undefined) owner.set(key, index);
      else sets.union(seen, index);
    }
  });
  const groups = new Map<number, AdvisoryFacts[]>();
  advisories.forEach((advisory, index) => {
    const root = sets.find(index);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [advisory]);
    else group.push(advisory);
  });
  return [...groups.values()].map((group) => mergeGroup(group, compare));
}

/** Critical first (the order of SEVERITIES, unknown last), then id, package, ecosystem, version. */
export function sortAdvisories(advisories: readonly AdvisoryFacts[]): AdvisoryFacts[] {
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...advisories].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      text(a.id, b.id) ||
      text(a.package, b.package) ||
      text(a.ecosystem ?? '', b.ecosystem ?? '') ||
      text(a.version ?? '', b.version ?? ''),
  );
}

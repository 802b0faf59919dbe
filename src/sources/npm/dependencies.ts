/**
 * The `dependencies` source: each direct runtime dependency of the target, resolved to the
 * version its range would install today, as npm picks it (for the OSV lookup of
 * dependencies and the malicious-dependency cap).
 *
 * - Registry specifiers (ranges, versions, dist-tags, `npm:other@range` aliases) fetch the
 *   dependency's abbreviated packument, once per package, with bounded concurrency, and
 *   resolve the range with npm's own pick (`resolveNpmVersion`). An alias is recorded under
 *   the package it installs (`other`), since that is what advisories name.
 * - Anything else (git, `file:`, directories, tarball URLs, `workspace:` and other
 *   protocols npm does not know) is recorded with version null and the reason, and sends
 *   no request.
 * - A dependency that is not found, does not resolve or could not be fetched gets version
 *   null and the reason. The source as a whole is unavailable only when more than half of
 *   the dependencies that needed a request failed for network reasons (error, timeout,
 *   5xx, malformed body): the dependency vulnerability check would then be mostly blind.
 * - The security-holding placeholder is recognised by its version pattern
 *   (`0.0.N-security`) and, when the document carries one, by its description (the
 *   abbreviated document has no descriptions).
 *
 * Never throws: every failure is data.
 */
import type { DependencyFacts, Sources } from '../../evidence/schema.js';
import { planDependency } from '../../ecosystems/npm/dependency-plan.js';
import { resolveNpmVersion } from '../../ecosystems/npm/resolve.js';
import type { NpmConfig } from './config.js';
import { ABBREVIATED_ACCEPT, fetchPackument, type PackumentResult } from './registry.js';
import type { HttpClient } from '../http/types.js';
import { mapLimit } from '../../util/map-limit.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';

export type DependenciesResult = Sources['dependencies'];
export type DependencyEntry = DependencyFacts['dependencies'][number];

export interface ResolveDependenciesOptions {
  /** Packument requests in flight at once (default 8). */
  concurrency?: number;
}

export const DEFAULT_CONCURRENCY = 8;

/** Beyond this many direct dependencies the rest are listed but not resolved (no real package comes close). */
export const MAX_DEPENDENCIES = 500;

const PLACEHOLDER_VERSION = /^0\.0\.\d+-security$/;
/** npm's description of a security-holding package, the whole of it (one that mentions the words is not). */
const PLACEHOLDER_DESCRIPTION = /^\s*security holding package\.?\s*$/i;

export async function resolveDependencies(
  http: HttpClient,
  npm: Pick<NpmConfig, 'registryFor'>,
  ranges: Record<string, string>,
  options: ResolveDependenciesOptions = {},
): Promise<DependenciesResult> {
  return resolveDependencyList(http, npm, Object.entries(ranges), options);
}

/**
 * The same over a list of name and range pairs, in order: one name may come with several ranges
 * (a repository's manifests), and its packument is still fetched once.
 */
export async function resolveDependencyList(
  http: HttpClient,
  npm: Pick<NpmConfig, 'registryFor'>,
  ranges: ReadonlyArray<readonly [string, string]>,
  options: ResolveDependenciesOptions = {},
): Promise<DependenciesResult> {
  try {
    return await resolveAll(http, npm, ranges, options);
  } catch (error) {
    return { status: 'unavailable', reason: `dependencies: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}

async function resolveAll(
  http: HttpClient,
  npm: Pick<NpmConfig, 'registryFor'>,
  ranges: ReadonlyArray<readonly [string, string]>,
  options: ResolveDependenciesOptions,
): Promise<DependenciesResult> {
  const entries = ranges.filter((e) => typeof e[1] === 'string');
  const plans = entries.map(([name, range], index) =>
    index < MAX_DEPENDENCIES
      ? planDependency(name, range)
      : ({ kind: 'skip', name, range, reason: `not resolved: more than ${MAX_DEPENDENCIES} direct dependencies` } as const),
  );

  // One request per distinct package (two aliases of one package share it).
  const names = [...new Set(plans.flatMap((p) => (p.kind === 'registry' ? [p.name] : [])))];
  const fetched = new Map<string, PackumentResult>();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY) || 1);
  await mapLimit(names, concurrency, async (name) => {
    let result: PackumentResult;
    try {
      result = await fetchPackument(http, npm.registryFor(name), name, { accept: ABBREVIATED_ACCEPT });
    } catch (error) {
      result = { status: 'unavailable', reason: oneLine(error), code: thrownFailureCode(error) };
    }
    fetched.set(name, result);
  });

  let requested = 0;
  const failures: { reason: string; code: SourceUnavailableCode }[] = [];
  const dependencies: DependencyEntry[] = plans.map((plan) => {
    if (plan.kind === 'skip') return entry(plan.name, plan.range, null, plan.reason, false);
    requested += 1;
    const packument: PackumentResult = fetched.get(plan.name) ?? { status: 'unavailable', reason: 'no answer', code: 'bad-answer' };
    if (packument.status === 'not-found') return entry(plan.name, plan.range, null, 'not found in the registry', false);
    if (packument.status === 'unavailable') {
      failures.push({ reason: `${plan.name}: ${packument.reason}`, code: packument.code });
      return entry(plan.name, plan.range, null, packument.reason, false);
    }
    const doc = packument.packument;
    const resolved = resolveNpmVersion(doc, plan.spec);
    const history = packumentHistory(doc);
    if (!resolved.ok) return { ...entry(plan.name, plan.range, null, resolved.reason, wholePackageIsPlaceholder(doc)), ...history };
    return { ...entry(plan.name, plan.range, resolved.version, null, isPlaceholder(doc, resolved.version)), ...history };
  });

  const first = failures[0];
  if (first !== undefined && failures.length * 2 > requested) {
    return {
      status: 'unavailable',
      reason: `the package metadata of ${failures.length} of ${requested} dependencies could not be fetched (${first.reason})`,
      code: first.code,
    };
  }
  return { status: 'ok', facts: { dependencies } };
}

function entry(name: string, range: string, version: string | null, reason: string | null, securityHolding: boolean): DependencyEntry {
  return { name, range, version, reason, securityHolding };
}

/**
 * How many versions the packument lists and when it last changed (the abbreviated document's
 * `modified`, the full one's `time.modified`): release-anomalies tells a newcomer dependency by them.
 */
function packumentHistory(doc: Record<string, unknown>): Pick<DependencyEntry, 'versionCount' | 'packumentModified'> {
  const modified = doc.modified ?? record(doc.time)?.modified;
  return {
    versionCount: Object.keys(record(doc.versions) ?? {}).length,
    packumentModified: typeof modified === 'string' && modified.length <= 64 && !Number.isNaN(Date.parse(modified)) ? new Date(modified).toISOString() : null,
  };
}

/** The resolved version is the registry's security-holding placeholder. */
function isPlaceholder(doc: Record<string, unknown>, version: string): boolean {
  if (PLACEHOLDER_VERSION.test(version)) return true;
  const manifest = record(record(doc.versions)?.[version]);
  return describesPlaceholder(manifest?.description) || describesPlaceholder(doc.description);
}

/** Every published version is a placeholder (the package was taken down), whatever the range asked. */
function wholePackageIsPlaceholder(doc: Record<string, unknown>): boolean {
  if (describesPlaceholder(doc.description)) return true;
  const versions = Object.keys(record(doc.versions) ?? {});
  return versions.length > 0 && versions.every((v) => PLACEHOLDER_VERSION.test(v));
}

function describesPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && PLACEHOLDER_DESCRIPTION.test(value);
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

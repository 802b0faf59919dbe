/**
 * A repository's direct dependencies that no lockfile pins — a manifest without a lockfile, a
 * requirements line without `==` — resolved as the package manager would install them today
 * (docs/scoring.md §9, "Dependencies and vulnerabilities"):
 *
 * - npm: the packument's `latest` dist-tag when it satisfies the range, else the highest
 *   version that does, deprecated versions only when nothing else does (npm's own pick,
 *   through the npm dependencies source).
 * - PyPI: the highest release that is neither yanked nor a pre-release and satisfies the PEP 440
 *   specifier (through the PyPI dependencies source).
 * - crates.io (a Cargo.toml no Cargo.lock pins): the highest version that is neither yanked nor a
 *   pre-release and matches cargo's requirement (a pre-release only when the requirement names
 *   one), from crates.io's sparse index (the crates index source, `cratesIndex` endpoint).
 *
 * Direct dependencies only: without a lockfile their transitive dependencies are unknown, so the
 * set is partial (`resolvedFromRange` on each entry, `unpinned` naming the manifests). At most
 * RANGE_LOOKUPS_PER_REPOSITORY registry lookups (one per distinct package, runtime dependencies
 * first); the dependencies beyond them stay unknown with the reason. The lookups go through the
 * run's HTTP client (the store's cache, the call's deadline). A lookup that fails leaves that
 * dependency unknown with the reason, never clean. Git, URL and file specifiers were left out
 * by the readers (`unvouched`) and are not resolved.
 */
import type { DependencyFacts, Sources } from '../evidence/schema.js';
import { PACKAGE_ECOSYSTEMS, packageRulesOf } from '../ecosystems/rules.js';
import type { PackageEcosystem } from '../ecosystems/types.js';
import { rangeResolvable } from '../sources/github/repo-dependencies.js';
import { resolveDependencyList } from '../sources/npm/dependencies.js';
import { resolvePypiDependencies } from '../sources/pypi/dependencies.js';
import { resolveCrateRequirements } from '../sources/crates/index.js';
import type { RunContext } from './context.js';

type Entry = DependencyFacts['dependencies'][number];

/** Registry lookups (packuments, PyPI project JSON or crates.io index files) one repository's ranges may cost. */
export const RANGE_LOOKUPS_PER_REPOSITORY = 40;

/** The registries a range is resolved against: the package ecosystems', and crates.io's index. */
type RangeRegistry = PackageEcosystem | 'cargo';
const RANGE_REGISTRIES: readonly RangeRegistry[] = [...PACKAGE_ECOSYSTEMS, 'cargo'];

interface Candidate {
  index: number;
  entry: Entry;
  ecosystem: RangeRegistry;
  key: string;
}

/**
 * How each package registry resolves a batch of ranges, answering in the order asked: npm through
 * the npm dependencies source, PyPI through the PyPI one, crates through crates.io's sparse index.
 */
const RESOLVERS: Record<RangeRegistry, (ctx: RunContext, asked: readonly Candidate[]) => Promise<Sources['dependencies']>> = {
  npm: (ctx, asked) => resolveDependencyList(ctx.http, ctx.npm, asked.map((c) => [c.entry.name, c.entry.range] as const)),
  pypi: (ctx, asked) => resolvePypiDependencies(ctx.http, ctx.endpoints.pypi, asked.map((c) => ({ name: c.entry.name, specifier: c.entry.range, marker: null }))),
  cargo: async (ctx, asked) =>
    ctx.endpoints.cratesIndex === undefined
      ? { status: 'unavailable', reason: 'no crates.io index endpoint is configured', code: 'bad-answer' }
      : resolveCrateRequirements(ctx.http, ctx.endpoints.cratesIndex, asked.map((c) => ({ name: c.entry.name, requirement: c.entry.range }))),
};

/** The dependency set with its resolvable ranges resolved (unchanged when it has none). */
export async function resolveRepositoryRanges(ctx: RunContext, deps: Sources['dependencies']): Promise<Sources['dependencies']> {
  if (deps.status !== 'ok') return deps;
  const unpinned = deps.facts.unpinned ?? [];
  const all = deps.facts.dependencies;
  const candidates: Candidate[] = all.flatMap((entry, index): Candidate[] => {
    if (!rangeResolvable(entry, unpinned)) return [];
    const ecosystem = entry.ecosystem ?? 'npm';
    switch (ecosystem) {
      case 'npm':
      case 'pypi':
        return [{ index, entry, ecosystem, key: `${ecosystem}\u0000${packageRulesOf(ecosystem).canonicalName(entry.name)}` }];
      // crates.io names are unique without regard to case (the index file is the lower-cased name).
      case 'cargo':
        return [{ index, entry, ecosystem, key: `cargo\u0000${entry.name.toLowerCase()}` }];
      // go.mod pins every module exactly, and a Gradle or Maven build's declared versions are
      // the versions it builds with (repo-dependencies.ts): no range to resolve.
      case 'go':
      case 'maven':
        return [];
    }
  });
  if (candidates.length === 0) return deps;

  // Runtime dependencies take the budget first, then development ones, each in declaration order.
  const ordered = [...candidates.filter((c) => c.entry.dev !== true), ...candidates.filter((c) => c.entry.dev === true)];
  const lookups = new Set<string>();
  for (const c of ordered) if (lookups.size < RANGE_LOOKUPS_PER_REPOSITORY) lookups.add(c.key);
  const within = ordered.filter((c) => lookups.has(c.key));
  // One batch per package ecosystem, in the registry's order, all asked at once.
  const batches = RANGE_REGISTRIES.map((ecosystem) => ({ ecosystem, asked: within.filter((c) => c.ecosystem === ecosystem) }));
  const results = await Promise.all(batches.map(({ ecosystem, asked }) => (asked.length === 0 ? null : RESOLVERS[ecosystem](ctx, asked))));

  const dependencies = [...all];
  const beyond = `not resolved: more than ${RANGE_LOOKUPS_PER_REPOSITORY} registry lookups per repository`;
  for (const c of candidates) if (!lookups.has(c.key)) dependencies[c.index] = { ...c.entry, reason: beyond };
  batches.forEach(({ asked }, i) => apply(dependencies, asked, results[i] ?? null));
  return { status: 'ok', facts: { ...deps.facts, dependencies, rangeLookups: { used: lookups.size, limit: RANGE_LOOKUPS_PER_REPOSITORY } } };
}

/** Each candidate's resolution (in the order asked), or the registry's failure as its reason. */
function apply(dependencies: Entry[], asked: readonly Candidate[], result: Sources['dependencies'] | null): void {
  if (result === null) return;
  asked.forEach((c, i) => {
    if (result.status !== 'ok') {
      const why = result.status === 'unavailable' ? result.reason : 'not resolved';
      dependencies[c.index] = { ...c.entry, reason: `registry unavailable: ${why}` };
      return;
    }
    const resolved = result.facts.dependencies[i];
    if (resolved === undefined) return;
    dependencies[c.index] =
      resolved.version === null
        ? { ...c.entry, reason: resolved.reason ?? 'not resolved', securityHolding: resolved.securityHolding }
        : { ...c.entry, version: resolved.version, reason: null, securityHolding: resolved.securityHolding, resolvedFromRange: true };
  });
}

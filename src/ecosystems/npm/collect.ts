/**
 * npm: resolve the target's version from its packument, then collect the facts every
 * check needs in parallel: the tarball, download counts, provenance attestations, the
 * direct dependencies (resolved as npm would install them today) and, for the target and
 * those dependencies, OSV advisories (the target's never wait for the dependencies). Failures become data.
 *
 * What is derived from the packument, the tarball and the attestations is kept in the facts
 * cache (sources/npm/facts-cache.ts): a warm run neither reads those answers back nor parses them.
 * The packument is read in a function of its own so that nothing of it (a 15 MB document for
 * a big project) stays reachable once its facts are derived, while the rest is collected.
 */
import type { Evidence, RegistryFacts, Sources } from '../../evidence/schema.js';
import { HIDDEN_SCRIPT } from '../../checks/lib/install-hooks.js';
import type { Collected } from '../adapter.js';
import { fetchAttestations, NO_PROVENANCE } from '../../sources/npm/attestations.js';
import { resolveDependencies } from '../../sources/npm/dependencies.js';
import { fetchDownloads } from '../../sources/npm/downloads.js';
import { registryFacts } from '../../sources/npm/facts.js';
import {
  cachedAttestationFacts,
  cachedRegistryFacts,
  cachedTarballFacts,
  rememberAttestationFacts,
  rememberRegistryFacts,
  rememberTarballFacts,
  type ResolvedRegistryFacts,
} from '../../sources/npm/facts-cache.js';
import { fetchPackument } from '../../sources/npm/registry.js';
import { fetchTarballFacts } from '../../sources/npm/tarball.js';
import { purlOf } from '../../target/purl.js';
import { resolveNpmVersion } from './resolve.js';
import type { Target } from '../../target/types.js';
import { githubSourceFor } from '../../pipeline/collect-github-source.js';
import type { RunContext } from '../../pipeline/context.js';
import { vulnerabilitiesFor } from '../../pipeline/vulnerabilities-for.js';
import { evidenceOf } from '../../pipeline/evidence-of.js';

type CollectError = Extract<Collected, { kind: 'error' }>;

export async function collectNpm(target: Target, ctx: RunContext): Promise<Collected> {
  const registry = ctx.npm.registryFor(target.name);
  const resolved = await resolveRegistryFacts(target, ctx, registry);
  if ('kind' in resolved) return resolved;
  const { version, facts } = resolved;

  const dependenciesResult: Promise<Sources['dependencies']> = ctx.skipDependencies
    ? Promise.resolve({ status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' })
    : resolveDependencies(ctx.http, ctx.npm, facts.dependencyRanges);
  const attestationsResult: Promise<Sources['attestations']> = facts.attestations
    ? attestationsFor(ctx, registry, facts.name, version)
    : Promise.resolve({ status: 'ok' as const, facts: NO_PROVENANCE });
  const [tarball, downloads, attestations, dependencies, vulnerabilities, github] = await Promise.all([
    tarballFor(ctx, facts.tarballUrl, facts.integrity, expectedInstallCommands(facts)),
    ctx.prefetchedDownloads?.(target.name) ?? fetchDownloads(ctx.http, ctx.endpoints.npmApi, target.name),
    attestationsResult,
    dependenciesResult,
    // OSV for the target at once and, in a batch of their own, every dependency that resolved (or the audit's shared batch).
    vulnerabilitiesFor(ctx, 'npm', { name: facts.name, version }, dependenciesResult),
    githubSourceFor(ctx, { ecosystem: 'npm', name: facts.name, repository: facts.repository }, attestationsResult),
  ]);

  const sources: Sources = {
    registry: { status: 'ok', facts },
    tarball,
    downloads,
    dependencies,
    vulnerabilities,
    attestations,
    pypi: { status: 'not-applicable', reason: 'not a PyPI project' },
    github,
  };
  return {
    kind: 'evidence',
    evidence: evidenceOf(
      ctx,
      {
        input: target.input,
        ecosystem: 'npm',
        name: facts.name,
        version,
        purl: purlOf('npm', target.name, version),
        repository: facts.repository?.url ?? facts.repository?.raw ?? null,
      },
      sources,
    ),
  };
}

/**
 * The version the spec resolves to and its registry facts: from the facts cache, else from the
 * packument (then kept). Errors are never kept: the package may be published by the next run.
 */
export async function resolveRegistryFacts(target: Target, ctx: RunContext, registry: string): Promise<ResolvedRegistryFacts | CollectError> {
  const cached = cachedRegistryFacts(ctx.facts, registry, target.name, target.spec);
  if (cached !== undefined) return cached;
  // Scanned, not parsed whole: the facts need two manifests of what can be thousands.
  const packument = await fetchPackument(ctx.http, registry, target.name, { scan: true });
  if (packument.status === 'not-found') {
    // Legacy names may hold capitals, but a new name cannot: `EXPRESS` is almost always `express`.
    const lower = target.name.toLowerCase();
    const hint = lower === target.name ? '' : ` (npm package names are lower case: try ${lower})`;
    return { kind: 'error', code: 'not-found', message: `${target.name} was not found in the npm registry${hint}` };
  }
  if (packument.status === 'unavailable') {
    return { kind: 'error', code: 'registry-unavailable', message: `the npm registry could not answer for ${target.name}: ${packument.reason}` };
  }
  const resolution = resolveNpmVersion(packument.packument, target.spec);
  if (!resolution.ok) {
    const nearest = resolution.nearest.length > 0 ? ` (nearest: ${resolution.nearest.join(', ')})` : '';
    // No version at all (unpublished, or removed by the registry): the package is gone, as with a
    // 404, so a removed malicious package is asked about by name (pipeline/removed-malicious.ts).
    // A version the packument cannot tell about (a trimmed one's missing dist-tag) is not known missing.
    const code = resolution.undetermined === true ? 'registry-unavailable' : hasNoVersions(packument.packument) ? 'not-found' : 'version-not-found';
    return { kind: 'error', code, message: `${target.name}: ${resolution.reason}${nearest}` };
  }
  // An answer that says it is another package (its `name`, or the version's) is not this one's:
  // that name's advisories, attestations and repository would be looked up in its place. A name
  // that is not a string names nothing: it is invalid data, read as absent (docs/security.md).
  const named = [packument.packument.name, (packument.manifest(resolution.version) as { name?: unknown } | undefined)?.name];
  if (named.some((n) => typeof n === 'string' && n !== target.name)) {
    return { kind: 'error', code: 'registry-unavailable', message: `the npm registry could not answer for ${target.name}: its answer names another package` };
  }
  const facts = registryFacts(packument.packument, resolution.version, packument.manifest, { now: ctx.now });
  const resolved = { version: resolution.version, facts: { ...facts, name: target.name } };
  rememberRegistryFacts(ctx.facts, registry, target.name, target.spec, resolved);
  return resolved;
}

/**
 * The install commands the registry's manifest gives, for the tarball reader to keep the files
 * they run; when the registry says there is a script (`hasInstallScript`) that its manifest does
 * not show, the placeholder that stands for it (install-hooks.ts) names no file but has the
 * reader keep small code files, for the commands the tarball's own package.json will give.
 */
function expectedInstallCommands(facts: RegistryFacts): string[] {
  const commands = Object.values(facts.installScripts);
  return commands.length === 0 && facts.hasInstallScript === true ? [HIDDEN_SCRIPT] : commands;
}

/**
 * The tarball's facts: from the facts cache (tarballs are immutable), else read — and kept only
 * when complete: a second reading that was wanted and failed (a deadline, a reset, a 5xx) leaves
 * the first reading's facts, its late files unread, for this run alone.
 */
async function tarballFor(ctx: RunContext, url: string | null, integrity: string | null, installCommands: readonly string[]): Promise<Sources['tarball']> {
  if (!url) return { status: 'unavailable', reason: 'the registry gave no tarball URL', code: 'not-asked' };
  const cached = cachedTarballFacts(ctx.facts, url, integrity);
  if (cached !== undefined) return { status: 'ok', facts: cached };
  const first = await fetchTarballFacts(ctx.http, url, { integrity, installCommands });
  if (first.status !== 'ok') return first;
  let facts = first.facts;
  let complete = true;
  // Files a command runs that came before the archive named the command (its own package.json or
  // binding.gyp, or a bundled package's, not the registry's manifest), and entry modules a require
  // runs that came before the package.json naming them: read once more, wanting them from the start.
  if (first.reread !== undefined || first.rereadBundled !== undefined || first.rereadLoad !== undefined) {
    const second = await fetchTarballFacts(ctx.http, url, {
      integrity,
      installCommands,
      wantedPaths: first.reread ?? [],
      wantedBundledPaths: first.rereadBundled ?? [],
      wantedLoadPaths: first.rereadLoad ?? [],
    });
    if (second.status === 'ok') facts = second.facts;
    else complete = false;
  }
  if (complete) rememberTarballFacts(ctx.facts, url, integrity, facts);
  return { status: 'ok', facts };
}

/** The version's attestations (listed in its packument): from the facts cache, else asked (and kept when read). */
async function attestationsFor(ctx: RunContext, registry: string, name: string, version: string): Promise<Sources['attestations']> {
  const cached = cachedAttestationFacts(ctx.facts, registry, name, version);
  if (cached !== undefined) return { status: 'ok', facts: cached };
  const result = await fetchAttestations(ctx.http, registry, name, version);
  if (result.status === 'ok') rememberAttestationFacts(ctx.facts, registry, name, version, result.facts);
  return result;
}

/** A packument whose `versions` holds nothing (or is not a map): the registry serves no version of it. */
function hasNoVersions(packument: Record<string, unknown>): boolean {
  const versions = packument.versions;
  return typeof versions !== 'object' || versions === null || Array.isArray(versions) || Object.keys(versions).length === 0;
}

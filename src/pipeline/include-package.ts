/**
 * `--include-package` (docs/scoring.md §9): a repository target folds in the registry checks of
 * one package it publishes — only one whose link to this repository is **verified** (never an
 * unverified or someone else's package: a repository may not borrow a package's score, the
 * starjacking rule of docs/security.md).
 *
 * Which one: the package named by `--include-package <name>` (it must be on the verified list,
 * else a usage error); else the verified package a manifest at the repository root declares;
 * else the first verified one in the distribution's order (README installs first, then the
 * manifests' names). The package's sources are collected by its ecosystem's own collector (the
 * one `nerq check npm:x` uses), without resolving its dependencies again and without reading
 * the repository again: the repository's dependency set and its OSV answer stay the target's,
 * and the package's own advisories fill the `advisories` that a repository alone leaves empty.
 */
import type { DistributedPackage, GithubDistribution, GithubFiles, IncludedPackage, Sources } from '../evidence/schema.js';
import type { RunContext } from './context.js';
import type { Target } from '../target/types.js';
import type { Collected } from '../ecosystems/adapter.js';
import { collectNpm } from '../ecosystems/npm/collect.js';
import { PACKAGE_ECOSYSTEMS, packageRulesOf, registrySources } from '../ecosystems/rules.js';
import type { PackageEcosystem } from '../ecosystems/types.js';
import { collectPypiTarget } from '../ecosystems/pypi/collect.js';

/** A package source the fold fills in (the repository keeps `dependencies` and `github`). */
type FoldedSources = Pick<Sources, 'registry' | 'tarball' | 'downloads' | 'attestations' | 'pypi'>;

export type IncludePick =
  | { kind: 'pick'; pkg: DistributedPackage; code: 'named' | 'root-manifest' | 'first-verified' }
  | { kind: 'none'; note: IncludedPackage }
  | { kind: 'usage'; message: string };

/** The manifests that verify a repository link (each package ecosystem's `linkManifests.files`), at the repository root. */
const ROOT_MANIFESTS = new Set(PACKAGE_ECOSYSTEMS.flatMap((ecosystem) => packageRulesOf(ecosystem).registry.linkManifests.files));

function sameName(ecosystem: PackageEcosystem, a: string, b: string): boolean {
  const { canonicalName } = packageRulesOf(ecosystem);
  return canonicalName(a) === canonicalName(b);
}

/** Each package ecosystem's collector, run for the package folded into its repository. */
const COLLECTORS: Record<PackageEcosystem, (target: Target, ctx: RunContext) => Promise<Collected>> = { npm: collectNpm, pypi: collectPypiTarget };

/** A package ecosystem's prefix (`npm:`, `pypi:`, any case) and the name after it. */
const PREFIXED = new RegExp(`^(${PACKAGE_ECOSYSTEMS.join('|')}):(.+)$`, 'i');

/** `npm:x`, `pypi:x` or a bare `x` (any package ecosystem). */
function matches(pkg: DistributedPackage, asked: string): boolean {
  const prefixed = PREFIXED.exec(asked);
  if (prefixed !== null) return prefixed[1]?.toLowerCase() === pkg.ecosystem && sameName(pkg.ecosystem, pkg.name, prefixed[2] ?? '');
  return sameName(pkg.ecosystem, pkg.name, asked);
}

/** The package to fold in, by the rule above; pure. */
export function pickIncludedPackage(
  distribution: GithubDistribution | undefined,
  manifests: GithubFiles['manifests'],
  repository: string,
  asked: string | null,
): IncludePick {
  const verified = (distribution?.packages ?? []).filter((p) => p.status === 'verified');
  const list = verified.length === 0 ? 'none' : verified.map((p) => `${p.ecosystem}:${p.name}`).join(', ');
  if (asked !== null) {
    const named = verified.find((p) => matches(p, asked));
    if (named !== undefined) return { kind: 'pick', pkg: named, code: 'named' };
    return { kind: 'usage', message: `--include-package ${asked}: not a package of ${repository} whose link verifies (verified: ${list})` };
  }
  const first = verified[0];
  if (first === undefined) {
    const reason =
      distribution === undefined
        ? `the packages ${repository} distributes could not be read: no package was folded in`
        : `${repository} publishes no package whose link to it verifies: no package was folded in`;
    return { kind: 'none', note: { included: false, code: 'no-verified-package', ecosystem: null, name: null, version: null, reason } };
  }
  const atRoot = manifests.filter((m) => ROOT_MANIFESTS.has(m.path) && !m.private && m.name !== null);
  const rooted = verified.find((p) => atRoot.some((m) => m.ecosystem === p.ecosystem && m.name !== null && sameName(p.ecosystem, p.name, m.name)));
  return rooted === undefined ? { kind: 'pick', pkg: first, code: 'first-verified' } : { kind: 'pick', pkg: rooted, code: 'root-manifest' };
}

const RULE: Record<'named' | 'root-manifest' | 'first-verified', string> = {
  named: 'named by --include-package',
  'root-manifest': 'declared by the manifest at the repository root',
  'first-verified': 'the first verified package the repository distributes',
};

/** The chosen package's sources, collected by its ecosystem's collector; or why they are unknown. */
export async function collectIncludedPackage(
  ctx: RunContext,
  picked: Extract<IncludePick, { kind: 'pick' }>,
  repository: string,
): Promise<{ sources: FoldedSources; ownVulnerabilities: Sources['vulnerabilities'] | null; note: IncludedPackage }> {
  const { pkg, code } = picked;
  const foldCtx: RunContext = { ...ctx, skipDependencies: true, repositoryAlreadyRead: `folded into ${repository}, whose repository is the target` };
  const target = { input: `${pkg.ecosystem}:${pkg.name}`, ecosystem: pkg.ecosystem, name: packageRulesOf(pkg.ecosystem).canonicalName(pkg.name) };
  const collected: Collected = await COLLECTORS[pkg.ecosystem](target, foldCtx).catch(
    (error: unknown): Collected => ({ kind: 'error', code: 'registry-unavailable', message: `collection failed: ${String(error).slice(0, 120)}` }),
  );
  const base = { ecosystem: pkg.ecosystem, name: pkg.name };
  if (collected.kind === 'error') {
    const reason = `${pkg.ecosystem}:${pkg.name} (${RULE[code]}) could not be collected: ${collected.message}`;
    const unavailable = { status: 'unavailable', reason, code: 'depends-on-source' } as const;
    const registry = registrySources(pkg.ecosystem, unavailable);
    const sources: FoldedSources = { registry: registry.registry, tarball: registry.tarball, downloads: unavailable, attestations: unavailable, pypi: registry.pypi };
    return { sources, ownVulnerabilities: null, note: { included: false, code: 'package-unavailable', ...base, version: null, reason } };
  }
  const { sources, target: evaluated } = collected.evidence;
  return {
    sources: { registry: sources.registry, tarball: sources.tarball, downloads: sources.downloads, attestations: sources.attestations, pypi: sources.pypi },
    ownVulnerabilities: sources.vulnerabilities,
    note: { included: true, code, ...base, version: evaluated.version, reason: `${pkg.ecosystem}:${pkg.name}@${evaluated.version ?? '?'}: ${RULE[code]}, its link to ${repository} verified` },
  };
}

/**
 * The repository's `vulnerabilities` with the package's own advisories: the dependency advisories
 * stay the repository's (its lockfiles' pins). When OSV could not answer for the folded package,
 * the whole source is unavailable: its own version unasked is not "not applicable" (that would let
 * a folded release nobody checked pass the vulnerability and malicious-package guards).
 */
export function withOwnAdvisories(repository: Sources['vulnerabilities'], own: Sources['vulnerabilities'] | null): Sources['vulnerabilities'] {
  if (own !== null && own.status === 'unavailable') {
    return { status: 'unavailable', reason: `the folded package's own advisories could not be asked: ${own.reason}`, code: own.code ?? 'unclassified' };
  }
  if (own === null || own.status !== 'ok') return repository;
  if (repository.status === 'ok') {
    const { ownAsked: _unasked, ...facts } = repository.facts;
    return { status: 'ok', facts: { ...facts, advisories: own.facts.advisories } };
  }
  if (repository.status === 'not-applicable') {
    // No dependency set to ask about: the package's own answer alone, its dependencies unasked.
    return { status: 'ok', facts: { advisories: own.facts.advisories, dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: repository.reason } };
  }
  return repository;
}

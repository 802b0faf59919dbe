/**
 * What a repository target distributes (docs/scoring.md §9): the packages its README's code tells
 * people to install (sources/github/readme-installs.ts) and the names its published manifests
 * declare, each looked up in its registry through the collectors' own lookups (the run's HTTP
 * cache and facts cache), and, when the published package links to this repository, verified as
 * a package's repository is (sources/github/link.ts, through `verifyPackageClaim`). Container
 * images are listed by name; the `advertised-packages` check judges them from their references
 * alone (no image registry is asked). At most MAX_PACKAGES names are looked up; the rest are listed
 * as skipped. Never throws: a registry that cannot answer makes that package `unavailable`.
 */
import type { DistributedPackage, GithubDistribution, GithubFiles, GithubRepository } from '../evidence/schema.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import type { PackageEcosystem } from '../ecosystems/types.js';
import { resolveRegistryFacts } from '../ecosystems/npm/collect.js';
import { pypiRelease } from '../ecosystems/pypi/collect.js';
import { DEFAULT_ENDPOINTS } from '../sources/endpoints.js';
import { npmDefaultRegistry } from '../sources/npm/config.js';
import type { RepositoryRef } from '../evidence/repository-ref.js';
import type { AdvertisedInstall } from '../sources/github/readme-installs.js';
import type { GithubClaim } from '../sources/github/link.js';
import { githubRepoOf, verifyPackageClaims } from '../sources/github/source.js';
import type { RepositoryAlreadyRead } from '../sources/github/tree-file-source.js';
import { mapLimit } from '../util/map-limit.js';
import { githubSourceContext } from './collect-github-source.js';
import type { RunContext } from './context.js';

/** A README command naming one of these registries is not pointed elsewhere (sources/github/readme-installs.ts). */
const publicRegistries = () => ({ npm: [npmDefaultRegistry()], pypi: [DEFAULT_ENDPOINTS.pypi, `${DEFAULT_ENDPOINTS.pypi}/simple`] });

/** Packages looked up per repository (each is a registry request or three, and a file read or two when it links here). */
export const MAX_DISTRIBUTED_PACKAGES = 5;
const CONCURRENCY = 3;

interface Candidate {
  ecosystem: PackageEcosystem;
  name: string;
  command: string | null;
  declared: boolean;
}

type Lookup =
  | { kind: 'published'; repository: RepositoryRef | null; provenanceRepository: string | null }
  | { kind: 'missing'; reason: string }
  | { kind: 'unavailable'; reason: string };

function keyOf(ecosystem: PackageEcosystem, name: string): string {
  return `${ecosystem}:${packageRulesOf(ecosystem).canonicalName(name)}`;
}

/** README installs first (what users are told to run), then the manifests' names. */
function candidatesOf(files: GithubFiles, installs: readonly AdvertisedInstall[]): { candidates: Candidate[]; images: GithubDistribution['images'] } {
  const byKey = new Map<string, Candidate>();
  const images: GithubDistribution['images'] = [];
  for (const install of installs) {
    if (install.ecosystem === 'docker') {
      images.push({ name: install.name, command: install.command });
      continue;
    }
    const key = keyOf(install.ecosystem, install.name);
    if (!byKey.has(key)) byKey.set(key, { ecosystem: install.ecosystem, name: install.name, command: install.command, declared: false });
  }
  for (const manifest of files.manifests) {
    if (manifest.private || manifest.name === null) continue;
    const key = keyOf(manifest.ecosystem, manifest.name);
    const known = byKey.get(key);
    if (known !== undefined) known.declared = true;
    else byKey.set(key, { ecosystem: manifest.ecosystem, name: manifest.name, command: null, declared: true });
  }
  return { candidates: [...byKey.values()], images };
}

async function lookUp(ctx: RunContext, candidate: Candidate): Promise<Lookup> {
  switch (candidate.ecosystem) {
    case 'npm':
      return lookUpNpm(ctx, candidate.name);
    case 'pypi':
      return lookUpPypi(ctx, candidate.name);
    default:
      return candidate.ecosystem satisfies never;
  }
}

async function lookUpNpm(ctx: RunContext, name: string): Promise<Lookup> {
  const target = { input: `npm:${name}`, ecosystem: 'npm' as const, name };
  const resolved = await resolveRegistryFacts(target, ctx, ctx.npm.registryFor(name));
  if ('kind' in resolved) {
    return resolved.code === 'not-found' ? { kind: 'missing', reason: 'the npm registry has no such package' } : { kind: 'unavailable', reason: resolved.message };
  }
  return { kind: 'published', repository: resolved.facts.repository, provenanceRepository: null };
}

async function lookUpPypi(ctx: RunContext, name: string): Promise<Lookup> {
  const target = { input: `pypi:${name}`, ecosystem: 'pypi' as const, name: packageRulesOf('pypi').canonicalName(name) };
  const resolved = await pypiRelease(target, ctx);
  if (resolved.kind === 'error') {
    return resolved.code === 'not-found' ? { kind: 'missing', reason: 'PyPI has no such project' } : { kind: 'unavailable', reason: resolved.message };
  }
  // The release's completion (Simple API, provenance) is already asked for: a provenance statement naming this repository vouches too.
  const complete = await resolved.complete;
  const attested = complete.attestations.status === 'ok' && complete.attestations.facts.provenance ? complete.attestations.facts.sourceRepository : null;
  return { kind: 'published', repository: resolved.release.repository, provenanceRepository: attested };
}

function declaredAs(ref: RepositoryRef): string {
  return ref.url ?? ref.raw;
}

export async function collectDistribution(
  ctx: RunContext,
  repository: GithubRepository,
  askedAs: string,
  files: GithubFiles,
  known?: RepositoryAlreadyRead,
): Promise<GithubDistribution> {
  // Loaded here: the Markdown lexer and shell tokenizer only for a repository target with a README.
  const installs = files.readme === null ? [] : (await import('../sources/github/readme-installs.js')).advertisedInstalls(files.readme.text, publicRegistries());
  const scripts = files.readme === null ? [] : (await import('../sources/github/readme-pipe-installs.js')).pipedInstalls(files.readme.text);
  const { candidates, images } = candidatesOf(files, installs);
  const examined = candidates.slice(0, MAX_DISTRIBUTED_PACKAGES);
  const skipped = candidates.slice(MAX_DISTRIBUTED_PACKAGES).map((c) => `${c.ecosystem}:${c.name}`);
  const names = [...new Set([askedAs, repository.fullName])];
  const here = new Set(names.map((n) => `${repository.host}/${n}`.toLowerCase()));

  // Each name asked of its registry; those that link here are verified together (one root listing).
  const looked = await mapLimit(examined, CONCURRENCY, async (candidate) => ({
    candidate,
    found: await lookUp(ctx, candidate).catch((error: unknown): Lookup => ({ kind: 'unavailable', reason: `lookup failed: ${String(error).slice(0, 120)}` })),
  }));
  const linksHere = (found: Lookup): found is Extract<Lookup, { kind: 'published' }> & { repository: RepositoryRef } => {
    if (found.kind !== 'published' || found.repository === null) return false;
    const linked = githubRepoOf(found.repository, ctx.endpoints);
    return linked !== null && here.has(`${linked.host}/${linked.owner}/${linked.name}`.toLowerCase());
  };
  const toVerify = looked.filter(({ found }) => linksHere(found));
  const claims: GithubClaim[] = toVerify.map(({ candidate, found }) => ({
    kind: 'package',
    ecosystem: candidate.ecosystem,
    name: candidate.name,
    directory: found.kind === 'published' ? (found.repository?.directory ?? null) : null,
    provenanceRepository: found.kind === 'published' ? found.provenanceRepository : null,
  }));
  const [owner = '', name = ''] = repository.fullName.split('/');
  const verified =
    claims.length === 0
      ? { links: [] }
      : await verifyPackageClaims(
          githubSourceContext(ctx),
          { host: repository.host, owner, name, fullName: repository.fullName, names, branch: files.branch, ...(files.commit === undefined ? {} : { commit: files.commit }) },
          claims,
          known,
        );

  const packages = looked.map(({ candidate, found }): DistributedPackage => {
    const base = { ecosystem: candidate.ecosystem, name: candidate.name, command: candidate.command, declared: candidate.declared };
    if (found.kind !== 'published') return { ...base, status: found.kind, linksTo: null, reason: found.reason };
    if (found.repository === null) return { ...base, status: 'unlinked', linksTo: null, reason: 'the published package names no source repository' };
    const linksTo = declaredAs(found.repository);
    const at = toVerify.findIndex((v) => v.candidate === candidate);
    if (at < 0) return { ...base, status: 'elsewhere', linksTo, reason: `the published package links to ${linksTo}` };
    const link = verified.links[at] ?? { verifiedBy: null, reason: 'not verified' };
    if (link.verifiedBy !== null) return { ...base, status: 'verified', linksTo, reason: link.reason };
    return { ...base, status: 'unconfirmed', linksTo, reason: link.reason, ...(link.code === undefined ? {} : { reasonCode: link.code }) };
  });
  return { packages, images, skipped, scripts };
}

/**
 * The dependencies of a repository's set that its lockfile (or its pyproject.toml's uv, Poetry or
 * PDM index settings) takes from a host other than the public registry (docs/scoring.md §9): the
 * package manager installs them from there, so the public registry's package of that name and
 * version — what OSV is asked about — is not what is installed. Each file that pins one is named
 * as `unevaluated`, with the host, so that the set is never a clean bill on the public registry's
 * word (as audit does not take such a pin for the public package: docs/security.md,
 * "Dependencies no registry vouches for"). Pure.
 */
import type { DeclaredDependency } from '../../audit/types.js';
import { isPypiIndex } from '../../lockfiles/python-hashes.js';
import { isPackageEcosystem } from '../../ecosystems/rules.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

/** The public registries of a run (its endpoints): npm's (and yarn's mirror of it), PyPI's. */
export interface PublicRegistries {
  npm: readonly string[];
  pypi: readonly string[];
}

/** Files named at most (each with the first other host it pins from). */
const MAX_FILES = 6;

const originOf = (url: string): string | null => {
  const parsed = URL.parse(url.trim());
  return parsed === null || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ? null : parsed.origin;
};

/** Per ecosystem: its name in a report, and whether a `resolved` URL is one of its public registries. */
const PUBLIC_SOURCE: Readonly<Record<PackageEcosystem, { label: string; isPublic: (resolved: string, publics: PublicRegistries) => boolean }>> = {
  npm: { label: 'npm', isPublic: (resolved, publics) => publics.npm.some((u) => originOf(u) === originOf(resolved)) },
  pypi: { label: 'PyPI', isPublic: (resolved, publics) => isPypiIndex(resolved, publics.pypi) },
};

/** `{ file, ecosystem }` for each file with a dependency fetched from another host than `publics` name. */
export function otherRegistrySources(declared: readonly DeclaredDependency[], publics: PublicRegistries): Array<{ file: string; ecosystem: string }> {
  const found = new Map<string, string>();
  for (const d of declared) {
    if (d.resolved === null || found.has(d.file) || found.size >= MAX_FILES || !isPackageEcosystem(d.ecosystem)) continue;
    const origin = originOf(d.resolved);
    const source = PUBLIC_SOURCE[d.ecosystem];
    if (origin === null || source.isPublic(d.resolved, publics)) continue;
    found.set(d.file, `${source.label} from another registry (${URL.parse(origin)?.host ?? origin})`);
  }
  return [...found].map(([file, ecosystem]) => ({ file, ecosystem }));
}

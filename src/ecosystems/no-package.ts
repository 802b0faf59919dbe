/**
 * The package sources of a target that is not a package (a repository, an MCP Registry entry):
 * each one not applicable, for one reason. Its own collector adds the sources it does read.
 */
import type { Sources } from '../evidence/schema.js';

type PackageSource = 'registry' | 'tarball' | 'downloads' | 'dependencies' | 'vulnerabilities' | 'attestations' | 'pypi';

export function packageSourcesNotApplicable(reason: string): Pick<Sources, PackageSource> {
  const none = { status: 'not-applicable', reason } as const;
  return { registry: none, tarball: none, downloads: none, dependencies: none, vulnerabilities: none, attestations: none, pypi: none };
}

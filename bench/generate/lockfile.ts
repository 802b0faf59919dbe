/**
 * A project that depends on the first N packages of the world: its package.json and a
 * lockfileVersion 3 package-lock.json, as npm 9+ writes them. Every package is installed
 * once at the top level (`node_modules/<name>`); the root's direct dependencies are the ones
 * nothing else in the set depends on, so every package is reachable from the root.
 */
import { isAffected, type PackageSpec, type WorldModel } from './model.js';
import { tarballPath } from './npm.js';

export interface Project {
  packageJson: string;
  packageLock: string;
  /** Packages in the lockfile (N). */
  count: number;
  /** Distinct GitHub repositories among them. */
  repositories: number;
  /** Distinct advisories affecting the pinned versions. */
  advisories: number;
}

/** Integrity of each pinned version, as the registry lists it (the caller knows the tarballs). */
export type IntegrityOf = (spec: PackageSpec, version: string) => string;

export function buildProject(world: WorldModel, count: number, registry: string, integrityOf: IntegrityOf): Project {
  const packages = world.packages.slice(0, count);
  const dependedOn = new Set<string>();
  for (const p of packages) for (const dep of Object.keys(p.dependencies)) dependedOn.add(dep);
  const direct = packages.filter((p) => !dependedOn.has(p.name));
  const rootDependencies = Object.fromEntries(direct.map((p) => [p.name, `^${p.locked}`]));

  const lockPackages: Record<string, unknown> = {
    '': { name: `bench-app-${count}`, version: '1.0.0', license: 'UNLICENSED', dependencies: rootDependencies },
  };
  for (const p of packages) {
    lockPackages[`node_modules/${p.name}`] = {
      version: p.locked,
      resolved: `${registry}${tarballPath(p.name, p.locked)}`,
      integrity: integrityOf(p, p.locked),
      license: p.license,
      ...(Object.keys(p.dependencies).length > 0 ? { dependencies: p.dependencies } : {}),
      ...(p.postinstall ? { hasInstallScript: true } : {}),
      engines: { node: '>=18' },
    };
  }
  const lock = { name: `bench-app-${count}`, version: '1.0.0', lockfileVersion: 3, requires: true, packages: lockPackages };
  const manifest = { name: `bench-app-${count}`, version: '1.0.0', private: true, license: 'UNLICENSED', dependencies: rootDependencies };

  const repositories = new Set(packages.flatMap((p) => (p.repository?.kind === 'github' ? [`${p.repository.owner}/${p.repository.name}`.toLowerCase()] : [])));
  const advisories = new Set(packages.flatMap((p) => p.advisories.filter((a) => isAffected(p.locked, a)).map((a) => a.id)));
  return {
    packageJson: `${JSON.stringify(manifest, null, 2)}\n`,
    packageLock: `${JSON.stringify(lock, null, 2)}\n`,
    count: packages.length,
    repositories: repositories.size,
    advisories: advisories.size,
  };
}

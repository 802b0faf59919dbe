/**
 * What nerq needs of every ecosystem it asks OSV about, keyed by OSV's own name: the package
 * ecosystems (their registry rules: ecosystems/rules.ts) and the module ecosystems whose
 * dependencies a repository pins in `go.mod` or `Cargo.lock` or declares in a Gradle or Maven build (docs/checks.md,
 * "Repository targets"). One exhaustive record: an ecosystem added to `OsvEcosystem` fails to
 * compile until it says how names compare and how versions order. Pure.
 */
import semver from 'semver';
import { compareMavenVersions } from './maven-version.js';
import { packageRulesOf, packageRulesOfOsv } from './rules.js';
import type { ModuleEcosystem, OsvEcosystem, PackageEcosystem, PackageOsvEcosystem, VersionComparator } from './types.js';

/** The ecosystems of a dependency set that are not package targets of their own (ecosystems/types.ts). */
export const MODULE_ECOSYSTEMS = ['go', 'cargo', 'maven'] as const satisfies readonly ModuleEcosystem[];
export type { ModuleEcosystem };

export function isModuleEcosystem(ecosystem: string): ecosystem is ModuleEcosystem {
  return (MODULE_ECOSYSTEMS as readonly string[]).includes(ecosystem);
}

/** What a dependency of a module ecosystem is called in words: `Go module`, `crate`. */
export function moduleNoun(ecosystem: ModuleEcosystem): string {
  switch (ecosystem) {
    case 'go':
      return 'Go module';
    case 'cargo':
      return 'crate';
    case 'maven':
      return 'Maven artifact';
  }
}
/** The ecosystem of an entry of a repository's dependency set (evidence/schema.ts `DEPENDENCY_ECOSYSTEMS`). */
export type DependencyEcosystem = PackageEcosystem | ModuleEcosystem;

export interface OsvEcosystemRules {
  /** The name two spellings of one package share. */
  canonicalName(name: string): string;
  compareVersions: VersionComparator;
}

/** A Go module version without its leading `v`, as OSV's Go records write versions (their ranges are SEMVER). */
function bareGoVersion(version: string): string | null {
  const bare = version.startsWith('v') ? version.slice(1) : version;
  return /^\d/.test(bare) ? semver.valid(bare) : null;
}

/**
 * Go module versions: semantic versions that go.mod writes with a leading `v` and OSV without
 * (pseudo-versions such as `v0.0.0-20230722043721-ed46e5a46466` are pre-releases,
 * `+incompatible` build metadata); null when either is not semver.
 */
export const compareGoVersions: VersionComparator = (a, b) => {
  const x = bareGoVersion(a);
  const y = bareGoVersion(b);
  return x !== null && y !== null ? semver.compare(x, y) : null;
};

/**
 * The version OSV is asked about for a module pinned at `version`: Go's without the leading `v`
 * (OSV's Go records and its reference scanner write them so; a pseudo-version or `+incompatible`
 * otherwise as written), a crate's as Cargo.lock writes it.
 */
export function osvModuleVersion(ecosystem: ModuleEcosystem, version: string): string {
  switch (ecosystem) {
    case 'go':
      return version.startsWith('v') ? version.slice(1) : version;
    case 'cargo':
    case 'maven':
      return version;
  }
}

/** crates.io versions: semantic versions without a prefix; null when either is not semver. */
export const compareCrateVersions: VersionComparator = (a, b) => {
  const x = /^\d/.test(a) ? semver.valid(a) : null;
  const y = /^\d/.test(b) ? semver.valid(b) : null;
  return x !== null && y !== null ? semver.compare(x, y) : null;
};

/** A package ecosystem's own rules (ecosystems/rules.ts). */
function registryRules(osv: PackageOsvEcosystem): OsvEcosystemRules {
  const rules = packageRulesOfOsv(osv);
  return { canonicalName: rules.canonicalName, compareVersions: rules.registry.compareVersions };
}

const OSV_RULES: Record<OsvEcosystem, OsvEcosystemRules> = {
  npm: registryRules('npm'),
  PyPI: registryRules('PyPI'),
  // Module paths are case-sensitive (a module cache escapes capitals instead of folding them).
  Go: { canonicalName: (n) => n, compareVersions: compareGoVersions },
  // crates.io treats `-` and `_` and letter case as one name.
  'crates.io': { canonicalName: (n) => n.toLowerCase().replaceAll('_', '-'), compareVersions: compareCrateVersions },
  // `group:artifact` as OSV writes it; Maven coordinates are case-sensitive.
  Maven: { canonicalName: (n) => n, compareVersions: compareMavenVersions },
};

export function osvRulesOf(ecosystem: OsvEcosystem): OsvEcosystemRules {
  return OSV_RULES[ecosystem];
}

/** OSV's name for the ecosystem of a dependency. */
export function osvEcosystemOfDependency(ecosystem: DependencyEcosystem): OsvEcosystem {
  switch (ecosystem) {
    case 'npm':
    case 'pypi':
      return packageRulesOfOsvName(ecosystem);
    case 'go':
      return 'Go';
    case 'cargo':
      return 'crates.io';
    case 'maven':
      return 'Maven';
  }
}

/** The ecosystem of a dependency OSV names `ecosystem` (the inverse of `osvEcosystemOfDependency`). */
export function dependencyEcosystemOfOsv(ecosystem: OsvEcosystem): DependencyEcosystem {
  switch (ecosystem) {
    case 'npm':
    case 'PyPI':
      return packageRulesOfOsv(ecosystem).id;
    case 'Go':
      return 'go';
    case 'crates.io':
      return 'cargo';
    case 'Maven':
      return 'maven';
  }
}

function packageRulesOfOsvName(ecosystem: PackageEcosystem): OsvEcosystem {
  return packageRulesOf(ecosystem).registry.osvEcosystem;
}

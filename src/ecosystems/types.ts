/**
 * What an ecosystem is to nerq, in one interface (docs/architecture.md, "Add an ecosystem").
 *
 * `EcosystemRules` is the pure part — name rules, the package URL type, labels, and for a
 * package registry the OSV ecosystem name and version order, the manifests that verify a
 * repository link, the popular-name list and the registry-only evidence sources its collector
 * fills. Checks, sources and renderers read it through
 * `ECOSYSTEM_RULES` (ecosystems/rules.ts). `Adapter` adds the I/O: resolving and collecting a
 * target's evidence; the pipeline reads it through `ADAPTERS` (ecosystems/adapters.ts). Both
 * registries are exhaustive records over `Ecosystem`, as are the per-ecosystem tables the
 * recipe lists, so a new ecosystem fails to compile until each of them has an answer.
 */
import type { Ecosystem, PurlName, PurlParts, Target } from '../target/types.js';

/** The ecosystems whose targets are packages in a registry (every one but GitHub and MCP servers). */
export type PackageEcosystem = Exclude<Ecosystem, 'github' | 'mcp'>;

/**
 * The ecosystems of a dependency set that are not package targets of their own: Go modules
 * (go.mod), crates (Cargo.lock) and Maven artifacts (Gradle and Maven builds), only checked against OSV (ecosystems/osv-ecosystems.ts).
 */
export type ModuleEcosystem = 'go' | 'cargo' | 'maven';

/** OSV's name for a package ecosystem nerq checks as a target (https://ossf.github.io/osv-schema/#affectedpackage-field). */
export type PackageOsvEcosystem = 'npm' | 'PyPI';

/**
 * OSV's name for every ecosystem nerq asks OSV about: the package ecosystems, and the module
 * ecosystems whose dependencies a repository's go.mod / Cargo.lock pin (ecosystems/osv-ecosystems.ts).
 */
export type OsvEcosystem = PackageOsvEcosystem | 'Go' | 'crates.io' | 'Maven';

/** Orders two versions (negative, zero, positive), or null when they cannot be compared. */
export type VersionComparator = (a: string, b: string) => number | null;

/** The shipped list of popular names the typosquat check compares a name with. */
export interface PopularNames {
  /** The names, most popular first, in the ecosystem's canonical form. */
  names(): readonly string[];
  /** The list repeats no name (skips the de-duplication when indexing it). */
  unique: boolean;
  /** The typosquat check's message id for a name on the list. */
  messageId: 'popular' | 'popular-pypi';
}

/** How a package registry writes version ranges (policy ignore entries). */
export interface RangeRules {
  /** The range syntax, as an error names it (`npm semver range`). */
  syntax: string;
  /** The range syntax with its article, in the policy's "neither … nor …" message. */
  noun: string;
  valid(range: string): boolean;
  /** `version` lies in `range` (pre-releases included); false for what cannot be read. */
  satisfied(version: string, range: string): boolean;
}

/** A package registry's rules. */
export interface RegistryRules {
  /** The target text that names a package pinned at `version`, else declared with `spec` (as `nerq check` would be given it). */
  targetInput(name: string, version: string | null, spec: string | null): string;
  /** A name the registry could serve (after the readers' normalisation), and the note when not. */
  validName(name: string): boolean;
  invalidNameNote: string;
  /** The public registry as a message names it (`the public npm registry`, `PyPI`). */
  publicRegistry: string;
  ranges: RangeRules;
  osvEcosystem: PackageOsvEcosystem;
  /** The order of the registry's versions (npm: semver; PyPI: PEP 440). */
  compareVersions: VersionComparator;
  /**
   * The manifest files whose name verifies a repository link, looked for at the declared
   * directory and at the root; `workspaceFiles` are read at the root only.
   */
  linkManifests: { files: readonly string[]; workspaceFiles: readonly string[] };
  popular: PopularNames;
  /** The package an install command's word names (`x@^1`, `x[extra]>=1`); null for a path, URL, placeholder … (sources/github/readme-installs.ts). */
  installName(word: string): string | null;
  /** The form two installs of one package share (npm names are case-sensitive; PyPI's are not). */
  installKey(name: string): string;
  /**
   * The labels an SBOM generator writes before a package's name (GitHub's dependency graph
   * export: `npm:agent-base`, `pip:requests`), lower case (lockfiles/sbom-purl.ts).
   */
  sbomLabels: readonly string[];
  /**
   * The evidence sources (evidence/schema.ts `Sources`) only this registry's collector fills —
   * npm's packument and tarball, PyPI's JSON API —, which every other package ecosystem reports
   * as not applicable with this registry's note. Their names are `PackageSourceSlot`
   * (ecosystems/rules.ts), which must each be a source of the evidence.
   */
  sourceSlots: readonly string[];
  /** Why those sources are not applicable to another ecosystem's target (`not an npm package`). */
  notThisRegistry: string;
}

/**
 * How a target of the ecosystem is written (`src/ecosystems/<id>/target-syntax.ts`), which the
 * target parser (target/parse.ts) dispatches to. Each parser throws `TargetError` (one line) for
 * text it does not accept.
 */
export interface TargetSyntax {
  /** The text after the ecosystem's prefix (`<id>:`, any case) → the target. */
  prefixed(input: string, rest: string): Target;
  /** The parser of a package URL of the ecosystem's type (`pkg:<id>/…`); null for none. */
  purl: ((input: string, parts: PurlParts) => Target) | null;
  /** The target's name split into a package URL's namespace and name (target/purl.ts `purlOf`). */
  purlName(name: string): PurlName;
}

export interface EcosystemRules {
  id: Ecosystem;
  /** The ecosystem's own spelling (`npm`, `PyPI`, `GitHub`). */
  displayName: string;
  /** The canonical name two spellings of one package share (PyPI: PEP 503). */
  canonicalName(name: string): string;
  /** `name@version` or `name==version`. */
  versionLabel(name: string, version: string): string;
  /** A name with a declared range or specifier, as the ecosystem writes it. */
  specLabel(name: string, spec: string): string;
  /** How its targets are written: the `<id>:` prefix and the package URL type. */
  syntax: TargetSyntax;
  /** The package registry's rules; null for a target that is a repository. */
  registry: RegistryRules | null;
}

/** The rules of a package ecosystem: the registry part is always there. */
export interface PackageEcosystemRules extends EcosystemRules {
  id: PackageEcosystem;
  registry: RegistryRules;
}

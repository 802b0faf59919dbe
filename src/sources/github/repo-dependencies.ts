/**
 * A repository's dependency set, from the manifests and lockfiles its reader read
 * (repo-files.ts), parsed with the readers `nerq audit` uses (src/lockfiles/). Pure.
 *
 * - Each manifest read (package.json, pyproject.toml) is covered by the nearest lockfile of its
 *   ecosystem in its folder or a folder above it (a workspace's packages share the root's
 *   lockfile): the lockfile's pins are the dependency set, with dev flags and paths.
 * - A manifest no lockfile covers gives its declared ranges with version null: the set is
 *   unpinned there (`unpinned` names the manifests; the declarations no registry vouches for —
 *   git, URL, file — are in `unvouched`). No version is guessed here: the pipeline resolves the
 *   direct ranges against the registry (`rangeResolvable`, pipeline/repository-ranges.ts).
 * - A lockfile that could not be read (over the size cap, a 404, more lockfiles than are read)
 *   or does not parse makes the set unavailable with the reason naming the file: a partial set
 *   would read as a clean one. Its code is the request's failure when one failed (`timeout`,
 *   `http-status`, `not-found`, `too-large`, …: the `unread` entry's), else `unreadable-file` (the
 *   file is there but gives no set: it does not parse, or a link, submodule or binary is in its place).
 * - Go and Rust: each `go.mod` gives its requires at exact versions (after `replace`), each
 *   `Cargo.lock` its crates.io packages, dev-only where the `Cargo.toml` files read beside it say
 *   so (lockfiles/go-mod.ts, lockfiles/cargo-lock.ts). One that could not be read or does not
 *   parse makes the set unavailable, as a lockfile does; local-directory replacements and git or
 *   other-registry crates are named in `unvouched`.
 * - A Cargo.toml no Cargo.lock pins gives its requirements (lockfiles/cargo-manifest.ts; a
 *   member's `workspace = true` ones from the workspace root's `[workspace.dependencies]`) with
 *   version null, as a manifest without a lockfile does: `unpinned` names it, its path, git and
 *   other-registry dependencies are in `unvouched`, and the pipeline resolves the requirements
 *   against crates.io's index. One that could not be read or does not parse makes the set unavailable.
 * - The version catalog of a Gradle build at the root (`gradle/libs.versions.toml`,
 *   lockfiles/gradle-catalog.ts) gives its libraries (`maven`, `group:artifact`) at the versions it
 *   declares: direct only and not pinned (`unpinned` names it; each entry `resolvedFromRange`), a
 *   range or a missing version unresolved with the reason. One that could not be read or does not
 *   parse makes the set unavailable.
 * - A gradle.lockfile beside a Gradle build script gives that project's resolved graph at exact
 *   versions (lockfiles/gradle-lockfile.ts; test-only configurations dev-only), as a Cargo.lock does.
 * - Each published pom.xml read (lockfiles/pom.ts; a module with the properties and managed
 *   versions of the pom.xml read above it) gives its dependencies the same way, `test` and
 *   `provided` scopes dev-only.
 * - Manifests of an ecosystem nerq does not evaluate (Gemfile, pom.xml, a Cargo.toml without
 *   Cargo.lock beyond the files read …) are named in `unevaluated`: their dependencies are not in the set, which is then
 *   never a clean answer on its own.
 * - A root requirements file or Pipfile.lock with no pyproject.toml beside it is the project's
 *   dependency set too (a requirements file pinned by `==`, ranges otherwise); dev/test/lint/doc
 *   requirements do not count. A setup.py, setup.cfg or Pipfile with neither beside it is named in
 *   `unevaluated` (repo-tree.ts): its dependencies are not read.
 * - No manifest at all: not applicable, with the reason; in a listing cut short (`treeTruncated`),
 *   unavailable (the manifests may be past the cut).
 */
import type { Sources } from '../../evidence/schema.js';
import type { GithubFiles } from '../../evidence/github-facts.js';
import type { DeclaredDependency } from '../../audit/types.js';
import { readInputText } from '../../lockfiles/index.js';
import { readCargoLock } from '../../lockfiles/cargo-lock.js';
import { readCargoManifest, type CargoManifestDependencies } from '../../lockfiles/cargo-manifest.js';
import { readGoMod } from '../../lockfiles/go-mod.js';
import { readVersionCatalog } from '../../lockfiles/gradle-catalog.js';
import { readGradleLockfile } from '../../lockfiles/gradle-lockfile.js';
import { readPom, type PomInherited } from '../../lockfiles/pom.js';
import type { ModuleDependency, ModuleInput } from '../../lockfiles/module-types.js';
import { osvModuleVersion } from '../../ecosystems/osv-ecosystems.js';
import { isPackageEcosystem } from '../../ecosystems/rules.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';
import { GRADLE_CATALOG, isRootPythonSet, NPM_SETTINGS, PYTHON_SETTINGS } from './repo-tree.js';
import { otherRegistrySources, settingsRedirects, type PublicRegistries } from './other-registries.js';
import { baseOf, dirOf, upward } from './tree-paths.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';

type DependencyEntry = Extract<Sources['dependencies'], { status: 'ok' }>['facts']['dependencies'][number];

/** Entries kept at most (the OSV batch asks each; no real repository's lockfile comes close). */
export const MAX_REPO_DEPENDENCIES = 5000;

export const NO_MANIFEST = 'the repository has no package.json, pyproject.toml, go.mod or Cargo.toml of a package it publishes';
const TRUNCATED_NO_MANIFEST = 'the repository tree listing was truncated and lists no manifest: its manifests may exist unlisted';

const LOCKFILES: Record<PackageEcosystem, readonly string[]> = {
  npm: ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock'],
  pypi: ['uv.lock', 'poetry.lock', 'pdm.lock', 'Pipfile.lock'],
};
const REQUIREMENTS = /^requirements[\w.-]*\.txt$/i;
const PLACEHOLDER_VERSION = /^0\.0\.\d+-security$/;

/** The lockfile that pins a manifest's dependencies: the nearest one of its ecosystem (a lockfile before a requirements file), or null. */
function lockfileFor(manifest: { path: string; ecosystem: PackageEcosystem }, lockfiles: readonly string[]): string | null {
  for (const dir of upward(dirOf(manifest.path))) {
    const here = lockfiles.filter((p) => dirOf(p) === dir);
    const locked = LOCKFILES[manifest.ecosystem].map((name) => here.find((p) => baseOf(p) === name)).find((p) => p !== undefined);
    if (locked !== undefined) return locked;
    if (manifest.ecosystem === 'pypi') {
      // A requirements file pins only where it sits beside the project (not above it).
      const requirements = here.filter((p) => REQUIREMENTS.test(baseOf(p)) && !/dev|test|lint|doc/i.test(baseOf(p))).sort()[0];
      if (requirements !== undefined && dir === dirOf(manifest.path)) return requirements;
    }
  }
  return null;
}

/** A requirements file (it pins with `==`, and gives ranges otherwise). */
function isRequirements(file: string): boolean {
  return REQUIREMENTS.test(baseOf(file));
}

/**
 * A direct dependency whose version only a range gives (a manifest no lockfile covers, or a
 * requirements line without `==`): the pipeline may resolve it as the package manager would.
 */
export function rangeResolvable(entry: DependencyEntry, unpinned: readonly string[]): boolean {
  if (entry.version !== null || entry.path === undefined || entry.path.length > 0 || entry.file === undefined) return false;
  return unpinned.includes(entry.file) || isRequirements(entry.file);
}

function entryOf(d: DeclaredDependency): DependencyEntry {
  const path = d.via ?? (d.direct ? [] : undefined);
  const unpinnedWhy = isRequirements(d.file) ? `not pinned: ${d.file} gives a range` : `not pinned: no lockfile covers ${d.file}`;
  return {
    name: d.name,
    range: d.spec ?? d.version ?? '',
    version: d.version,
    reason: d.version === null ? unpinnedWhy : null,
    securityHolding: d.ecosystem === 'npm' && d.version !== null && PLACEHOLDER_VERSION.test(d.version),
    ecosystem: d.ecosystem,
    dev: d.dev,
    ...(path === undefined ? {} : { path }),
    file: d.file,
  };
}

/** A module pin as a set entry: `range` as the file writes it, `version` as OSV writes it (Go: no leading `v`). */
function moduleEntryOf(d: ModuleDependency): DependencyEntry {
  return {
    name: d.name,
    range: d.version,
    version: osvModuleVersion(d.ecosystem, d.version),
    reason: null,
    securityHolding: false,
    ecosystem: d.ecosystem,
    dev: d.dev,
    ...(d.via === undefined ? {} : { path: d.via }),
    file: d.file,
  };
}

/** The Go and Rust pins of the files read: each go.mod, each Cargo.lock with the Cargo.toml texts beside or below it; or why they cannot be had. */
function moduleDependencies(files: GithubFiles, texts: ReadonlyMap<string, string>): { ok: true; inputs: ModuleInput[] } | { ok: false; reason: string; file: string } {
  const paths = files.moduleFiles ?? [];
  const inputs: ModuleInput[] = [];
  for (const file of paths.filter((p) => baseOf(p) === 'go.mod' || baseOf(p) === 'Cargo.lock' || baseOf(p) === 'gradle.lockfile')) {
    const text = texts.get(file);
    if (text === undefined) {
      const why = files.unread.find((u) => u.path === file)?.reason ?? 'not read';
      return { ok: false, reason: `${file} could not be read: ${why}`, file };
    }
    try {
      if (baseOf(file) === 'go.mod') inputs.push(readGoMod(text, file));
      else if (baseOf(file) === 'gradle.lockfile') inputs.push(readGradleLockfile(text, file));
      else {
        const dir = dirOf(file);
        const manifests: Record<string, string> = {};
        for (const toml of paths.filter((p) => baseOf(p) === 'Cargo.toml' && (dir === '' || p.startsWith(`${dir}/`)))) {
          const manifest = texts.get(toml);
          if (manifest !== undefined) manifests[toml] = manifest;
        }
        inputs.push(readCargoLock(text, file, manifests));
      }
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), file };
    }
  }
  return { ok: true, inputs };
}

/** The `Cargo.toml` files read that no `Cargo.lock` read pins (repo-tree.ts puts the pinned ones after their lockfile). */
function unpinnedCargoManifests(files: GithubFiles): string[] {
  const paths = files.moduleFiles ?? [];
  const locks = new Set(paths.filter((p) => baseOf(p) === 'Cargo.lock').map(dirOf));
  return paths.filter((p) => baseOf(p) === 'Cargo.toml' && !upward(dirOf(p)).some((d) => locks.has(d)));
}

/**
 * The requirements of each Cargo.toml no Cargo.lock pins (lockfiles/cargo-manifest.ts), a member's
 * `workspace = true` entries taken from the nearest Cargo.toml above it that has
 * `[workspace.dependencies]`; or why they cannot be had.
 */
function cargoRequirements(files: GithubFiles, texts: ReadonlyMap<string, string>): { ok: true; entries: DependencyEntry[]; manifests: string[]; unvouched: string[] } | { ok: false; reason: string; file: string } {
  const tomls = unpinnedCargoManifests(files);
  const read = new Map<string, CargoManifestDependencies>();
  for (const file of tomls) {
    const text = texts.get(file);
    if (text === undefined) {
      const why = files.unread.find((u) => u.path === file)?.reason ?? 'not read';
      return { ok: false, reason: `${file} could not be read: ${why}`, file };
    }
    try {
      const own = readCargoManifest(text, file);
      const root = upward(dirOf(file))
        .slice(1)
        .map((d) => read.get(d === '' ? 'Cargo.toml' : `${d}/Cargo.toml`)?.workspaceDependencies ?? null)
        .find((w) => w !== null);
      read.set(file, root === undefined ? own : readCargoManifest(text, file, root));
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), file };
    }
  }
  const entries: DependencyEntry[] = [];
  const unvouched: string[] = [];
  for (const [file, manifest] of read) {
    unvouched.push(...manifest.unvouched);
    for (const d of manifest.dependencies) {
      entries.push({ name: d.name, range: d.requirement, version: null, reason: `not pinned: no lockfile covers ${file}`, securityHolding: false, ecosystem: 'cargo', dev: d.dev, path: [], file });
    }
  }
  return { ok: true, entries, manifests: [...read.keys()], unvouched };
}

/**
 * The libraries of the Gradle version catalog and the dependencies of the pom.xml files read
 * (lockfiles/gradle-catalog.ts, lockfiles/pom.ts): each at the version declared, direct only and
 * not pinned (`unpinned` names the files, the entries count as resolved from ranges); one with no
 * single version, unresolved with the reason; a pom's test and provided scopes dev-only.
 */
function catalogLibraries(files: GithubFiles, texts: ReadonlyMap<string, string>): { ok: true; entries: DependencyEntry[]; catalogs: string[] } | { ok: false; reason: string; file: string } {
  const entries: DependencyEntry[] = [];
  const catalogs: string[] = [];
  const poms = new Map<string, PomInherited>();
  for (const file of (files.moduleFiles ?? []).filter((p) => p === GRADLE_CATALOG || baseOf(p) === 'pom.xml')) {
    const text = texts.get(file);
    if (text === undefined) {
      const why = files.unread.find((u) => u.path === file)?.reason ?? 'not read';
      return { ok: false, reason: `${file} could not be read: ${why}`, file };
    }
    try {
      let declared: Array<{ name: string; version: string | null; declared: string; reason: string | null; dev: boolean }>;
      if (file === GRADLE_CATALOG) declared = readVersionCatalog(text, file).libraries.map((l) => ({ ...l, dev: false }));
      else {
        // A module inherits the properties and managed versions of the nearest pom.xml read above it.
        const parent = upward(dirOf(file)).slice(1).map((d) => poms.get(d === '' ? 'pom.xml' : `${d}/pom.xml`)).find((p) => p !== undefined) ?? null;
        const pom = readPom(text, file, parent);
        poms.set(file, pom.inherited);
        declared = pom.dependencies;
      }
      for (const l of declared) {
        entries.push({
          name: l.name,
          range: l.declared,
          version: l.version,
          reason: l.reason,
          securityHolding: false,
          ecosystem: 'maven',
          dev: l.dev,
          path: [],
          file,
          ...(l.version === null ? {} : { resolvedFromRange: true }),
        });
      }
      catalogs.push(file);
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), file };
    }
  }
  return { ok: true, entries, catalogs };
}

/** One entry per ecosystem, name and version (a range when unpinned): dev only when every occurrence is, the shortest path kept. */
function merge(entries: readonly DependencyEntry[]): DependencyEntry[] {
  const byKey = new Map<string, DependencyEntry>();
  for (const entry of entries) {
    const key = `${entry.ecosystem}\u0000${entry.name}\u0000${entry.version ?? `range:${entry.range}`}`;
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, entry);
      continue;
    }
    const shorter = seen.path === undefined || (entry.path !== undefined && entry.path.length < seen.path.length) ? entry : seen;
    byKey.set(key, { ...shorter, dev: (seen.dev ?? false) && (entry.dev ?? false) });
  }
  return [...byKey.values()];
}

type Unavailable = { status: 'unavailable'; reason: string; code: SourceUnavailableCode };

/** The set unavailable for a file: the code of the failure that left it unread, else `unreadable-file`. */
function fileUnavailable(files: GithubFiles, file: string, reason: string): Unavailable {
  return { status: 'unavailable', reason, code: files.unread.find((u) => u.path === file)?.code ?? 'unreadable-file' };
}

/** The dependency set of a repository's files (facts and the texts read beside them). */
export function repositoryDependencies(files: GithubFiles, texts: ReadonlyMap<string, string>, publics?: PublicRegistries): Sources['dependencies'] {
  const unreadManifest = files.unread.find((u) => /(?:^|\/)(?:package\.json|pyproject\.toml)$/.test(u.path));
  if (unreadManifest !== undefined) return fileUnavailable(files, unreadManifest.path, `${unreadManifest.path} could not be read: ${unreadManifest.reason}`);
  const manifests = files.manifests.filter((m): m is typeof m & { ecosystem: PackageEcosystem } => isPackageEcosystem(m.ecosystem));
  // Another ecosystem's manifests (go.mod …): their dependencies exist but are not evaluated.
  const unevaluated = (files.unevaluatedManifests ?? []).map((m) => ({ file: m.path, ecosystem: m.ecosystem }));
  const others = unevaluated.length === 0 ? {} : { unevaluated };
  // Root requirements files or a Pipfile.lock no pyproject.toml sits beside: the project's dependencies all the same.
  const orphanRequirements = manifests.some((m) => m.ecosystem === 'pypi' && dirOf(m.path) === '')
    ? []
    : files.lockfiles.filter(isRootPythonSet).sort();
  const modules = moduleDependencies(files, texts);
  if (!modules.ok) return fileUnavailable(files, modules.file, modules.reason);
  const crates = cargoRequirements(files, texts);
  if (!crates.ok) return fileUnavailable(files, crates.file, crates.reason);
  const catalog = catalogLibraries(files, texts);
  if (!catalog.ok) return fileUnavailable(files, catalog.file, catalog.reason);
  if (manifests.length === 0 && orphanRequirements.length === 0 && modules.inputs.length === 0 && crates.manifests.length === 0 && catalog.catalogs.length === 0) {
    // A listing cut short may hold the manifests it does not list: "none" would be a guess.
    if (unevaluated.length === 0 && files.treeTruncated) return { status: 'unavailable', reason: TRUNCATED_NO_MANIFEST, code: 'too-large' };
    if (unevaluated.length === 0) return { status: 'not-applicable', reason: NO_MANIFEST };
    return { status: 'ok', facts: { dependencies: [], unpinned: [], lockfiles: [], ...others } };
  }

  const manifestTexts: Record<string, string> = {};
  for (const m of manifests) {
    const text = texts.get(m.path);
    if (text !== undefined) manifestTexts[m.path] = text;
  }
  const declared: DeclaredDependency[] = [];
  const lockfiles = new Set(files.lockfiles);
  const lockfilesUsed = new Set<string>();
  const unpinned: string[] = [];
  const unvouched: string[] = [];
  const read = (text: string, file: string): string | null => {
    try {
      const input = readInputText(text, file, { manifests: manifestTexts });
      declared.push(...input.dependencies);
      // Without a lockfile, what the reader skipped (git, URL, file specs) is named, not resolved.
      if (!lockfiles.has(file) || isRequirements(file)) unvouched.push(...input.notes.filter((n) => n.includes(' skipped: ')));
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  /** Read a lockfile (or requirements file) into the set; why when it cannot be. */
  const readLockfile = (file: string): Unavailable | null => {
    const text = texts.get(file);
    if (text === undefined) {
      const why = files.unread.find((u) => u.path === file)?.reason ?? 'not read (more lockfiles than are read per repository)';
      return fileUnavailable(files, file, `${file} could not be read: ${why}`);
    }
    const failed = read(text, file);
    if (failed === null) lockfilesUsed.add(file);
    return failed === null ? null : fileUnavailable(files, file, failed);
  };
  for (const manifest of manifests) {
    const lockfile = lockfileFor(manifest, files.lockfiles);
    if (lockfile === null) {
      const text = manifestTexts[manifest.path];
      if (text === undefined) return fileUnavailable(files, manifest.path, `${manifest.path} could not be read`);
      const failed = read(text, manifest.path);
      if (failed !== null) return fileUnavailable(files, manifest.path, failed);
      unpinned.push(manifest.path);
      continue;
    }
    if (lockfilesUsed.has(lockfile)) continue;
    const failed = readLockfile(lockfile);
    if (failed !== null) return failed;
  }
  for (const file of orphanRequirements) {
    const failed = readLockfile(file);
    if (failed !== null) return failed;
  }
  for (const input of modules.inputs) {
    lockfilesUsed.add(input.file);
    unvouched.push(...input.unvouched);
  }
  unpinned.push(...crates.manifests, ...catalog.catalogs);
  unvouched.push(...crates.unvouched);
  const moduleEntries = modules.inputs.flatMap((input) => input.dependencies.map(moduleEntryOf));
  const dependencies = merge([...declared.map(entryOf), ...moduleEntries, ...crates.entries, ...catalog.entries]).slice(0, MAX_REPO_DEPENDENCIES);
  // Pins from another host than the public registry (other-registries.ts): never a clean bill on the public registry's word.
  // And the repository's own settings (.npmrc, .yarnrc.yml, .yarnrc, uv.toml, pip.conf, pip.ini) that point every install elsewhere, or could not be read.
  const settings = [...new Set([...texts.keys(), ...files.unread.map((u) => u.path)])].filter((p) => NPM_SETTINGS.has(baseOf(p)) || PYTHON_SETTINGS.has(baseOf(p)));
  const elsewhere = publics === undefined ? [] : [...otherRegistrySources(declared, publics), ...settingsRedirects(settings, texts, publics)];
  const named = elsewhere.length === 0 ? others : { unevaluated: [...unevaluated, ...elsewhere] };
  return { status: 'ok', facts: { dependencies, unpinned, lockfiles: [...lockfilesUsed], ...(unvouched.length === 0 ? {} : { unvouched }), ...named } };
}

/**
 * Which of a repository's files matter, from its recursive tree listing (pure): the README (root, `.github/` or `docs/`),
 * licence files, changelog and security policy, whether `docs/` and `examples/` hold files, the
 * manifests of the packages it publishes (root first; test fixtures, examples and vendored code
 * left out) with the lockfiles beside them, and the workflows. Names are matched as in an npm
 * tarball (util/file-names.ts).
 */
import { CHANGELOG_RE, LICENSE_RE, README_RE, SECURITY_RE } from '../../util/file-names.js';
import { baseOf, dirOf, upward } from './tree-paths.js';

export interface RepoTreeItem {
  path: string;
  type: 'blob' | 'tree' | 'other';
  /** Bytes (blobs); null when the listing does not say. */
  size: number | null;
}

export interface RepoSelection {
  readme: RepoTreeItem | null;
  licenses: RepoTreeItem[];
  changelog: string | null;
  /**
   * Without a changelog at the root or in `docs/`: the changelogs beside the manifests of the
   * published members (a workspace's changelog lives with the member it describes,
   * `packages/a/CHANGELOG.md`, `crates/a/CHANGELOG.md`): beside `manifests` and the published
   * `Cargo.toml` files — the same member selection the dependency set reads — by folder, shallowest first;
   * repo-files.ts keeps the first beside a manifest that is not private. From the listing alone.
   */
  memberChangelogs: string[];
  securityPolicy: string | null;
  docsFolder: boolean;
  examplesFolder: boolean;
  /** Manifest candidates, root first then by depth, at most `MAX_MANIFESTS`. */
  manifests: RepoTreeItem[];
  /** Lockfiles in the folders of those manifests, and the root's requirements files (a project may have no other manifest). */
  lockfiles: string[];
  /**
   * The npm-family package managers' settings at the root (`.npmrc`, yarn berry's `.yarnrc.yml`,
   * yarn 1's `.yarnrc`) when a package.json is read, and uv's and pip's (`uv.toml`, `pip.conf`,
   * `pip.ini`) when a Python project is: a registry or index they set is where an install of
   * the repository's lockfile fetches from (other-registries.ts).
   */
  settings: string[];
  /**
   * The Go, Rust, Gradle and Maven files that give a dependency set (repo-dependencies.ts): every `go.mod`,
   * `Cargo.lock` and `gradle.lockfile` (beside a Gradle build script) that pins a published folder's modules, then the `Cargo.toml` manifests beside
   * or below those lockfiles (they tell dev-only crates apart), then the published `Cargo.toml`
   * files no `Cargo.lock` pins (their requirements, resolved against crates.io's index), root
   * first, then the version catalog of a Gradle build at the root when no gradle.lockfile pins it (`gradle/libs.versions.toml`:
   * its libraries' declared versions; the build scripts it covers are then not listed as
   * unevaluated), then the published `pom.xml` files (a parent before its modules), at most
   * `MAX_MODULE_FILES`; the pom.xml files beyond them stay listed as unevaluated.
   */
  moduleFiles: string[];
  /**
   * Manifests of ecosystems whose dependencies nerq does not evaluate (`Gemfile`, `pom.xml` …,
   * and a `Cargo.toml` no `Cargo.lock` pins beyond `moduleFiles`), in the same published folders, root first, at most
   * `MAX_MANIFESTS`: listed, never read.
   */
  unevaluated: Array<{ path: string; ecosystem: string }>;
  workflows: number;
  /** The workflow files (`.github/workflows/*.yml|yaml`), by path. */
  workflowPaths: RepoTreeItem[];
  /** Entry files of commands a Go or Rust project builds (`main.go`, `cmd/x/main.go`, `src/main.rs`, `src/bin/x.rs`), from the listing alone. */
  commandEntries: string[];
  /**
   * Manifests read for the licence they declare alone, at most `MAX_LICENSE_MANIFESTS`: the root
   * `Cargo.toml`, `composer.json`, `setup.cfg`, `.gemspec`, `pom.xml`, `build.gradle(.kts)`,
   * `gradle.properties` (beside a Gradle build) and `Directory.Build.props`, then the shallowest published `.csproj` / `.fsproj`: the project's declaration when no
   * package.json or pyproject.toml gives one (docs/scoring.md, Compliance).
   */
  licenseManifests: RepoTreeItem[];
}

/** The npm-family settings files that may set the registry an install fetches from (RepoSelection `settings`). */
export const NPM_SETTINGS: ReadonlySet<string> = new Set(['.npmrc', '.yarnrc.yml', '.yarnrc']);
/** uv's and pip's project settings that may set the index an install fetches from (RepoSelection `settings`, beside a Python project). */
export const PYTHON_SETTINGS: ReadonlySet<string> = new Set(['uv.toml', 'pip.conf', 'pip.ini']);

/** Whether the manifests and lockfiles selected make a Python project (pyproject.toml, a requirements file, uv.lock, poetry.lock). */
export function readsPython(manifests: readonly { path: string }[], lockfiles: readonly string[]): boolean {
  return manifests.some((m) => baseOf(m.path) === 'pyproject.toml') || lockfiles.some((p) => /^(?:requirements[^/]*\.txt|uv\.lock|poetry\.lock)$/i.test(baseOf(p)));
}
/** Manifests read per repository (each one is a request). */
export const MAX_MANIFESTS = 6;
/** Go, Rust, Gradle and Maven files (go.mod, Cargo.lock, Cargo.toml, the version catalog, pom.xml) read per repository, pins first. */
export const MAX_MODULE_FILES = 4;
/** Licence files read per repository (three: COPYING beside LICENSE-MIT and UNLICENSE is a common dual-licence set). */
export const MAX_LICENSE_FILES = 3;
/** A licence-named file that is data or code, not a licence text (`LICENSE-3rdparty.csv`, `license.py`). */
const NOT_LICENSE_TEXT = /\.(?:csv|tsv|json|ya?ml|toml|xml|html?|js|mjs|cjs|ts|py|go|rs|rb|sh|png|svg|pdf)$/i;
/** A licence-named file about other projects' licences (`LICENSE-THIRD-PARTY`, `LICENSES-3rdparty`): read after the project's own. */
const OTHERS_LICENSES = /third|3rd|party|vendor|bundled|dependencies|notice/i;
/** Command entry files kept in evidence. */
const MAX_COMMAND_ENTRIES = 5;
/**
 * A Go `package main` file a go.mod builds into a command (`main.go` at the root or in `cmd/<name>/`),
 * or a Rust binary target (`main.rs` in a crate folder, `src/bin/<name>.rs`): what a manifest's `bin` says for npm.
 */
const GO_COMMAND = /^(?:cmd\/[^/]+\/)?main\.go$/;
const RUST_COMMAND = /(?:^|\/)(?:main\.rs|bin\/[^/]+\.rs)$/;
/** How deep below the root a published package's manifest may sit (`packages/a/b/package.json`). */
const MAX_MANIFEST_DEPTH = 3;

const MANIFEST_NAMES = new Set(['package.json', 'pyproject.toml']);
/**
 * Root manifests of other ecosystems whose licence declaration is read (licence-manifests.ts), in
 * this order, the first file each matches: any gemspec at the root (the first by name), one
 * Gradle build (`build.gradle` before `build.gradle.kts`) and, beside a Gradle build, the
 * `gradle.properties` a maven-publish plugin reads its POM licence from (`POM_LICENSE_NAME`).
 */
const LICENSE_MANIFESTS: readonly RegExp[] = [
  /^Cargo\.toml$/,
  /^composer\.json$/,
  /^setup\.cfg$/,
  /^[^./][^/]*\.gemspec$/i,
  /^pom\.xml$/,
  /^build\.gradle(?:\.kts)?$/,
  /^gradle\.properties$/,
  /^Directory\.Build\.props$/,
];
/** Manifests read for the licence they declare alone, per repository (each one is a request). */
export const MAX_LICENSE_MANIFESTS = 2;
export const LOCKFILE_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'uv.lock',
  'poetry.lock',
  'pdm.lock',
  'Pipfile.lock',
]);
const REQUIREMENTS = /^requirements[\w.-]*\.txt$/i;
/** Dependency manifests of the ecosystems nerq does not evaluate, and the ecosystem each names. */
const UNEVALUATED_MANIFESTS: Readonly<Record<string, string>> = {
  Gemfile: 'RubyGems',
  'composer.json': 'Packagist',
  'pom.xml': 'Maven',
  'build.gradle': 'Maven',
  'build.gradle.kts': 'Maven',
  'Package.swift': 'SwiftPM',
  'mix.exs': 'Hex',
  'pubspec.yaml': 'Pub',
  'Directory.Packages.props': 'NuGet',
  'packages.config': 'NuGet',
  'deno.json': 'JSR/Deno',
  'deno.jsonc': 'JSR/Deno',
  'build.sbt': 'Maven (sbt)',
  Podfile: 'CocoaPods',
  'Project.toml': 'Julia',
  'stack.yaml': 'Hackage',
  'cabal.project': 'Hackage',
  'deps.edn': 'Clojars',
  'project.clj': 'Clojars',
  'rebar.config': 'Hex',
  'gleam.toml': 'Hex',
  'shard.yml': 'Crystal shards',
  'vcpkg.json': 'vcpkg',
  'conanfile.txt': 'Conan',
  'conanfile.py': 'Conan',
  'renv.lock': 'CRAN',
};
/**
 * A conda environment file at the root (`environment.yml`): its dependencies come from conda
 * channels, which nerq does not evaluate. Root only: one in a sub-folder is usually a docs or
 * Binder environment, not the project's.
 */
const CONDA_ENVIRONMENT = /^environment\.ya?ml$/;
/** Project files named by their extension (`Foo.csproj`), and the ecosystem each names. */
const UNEVALUATED_EXTENSIONS: ReadonlyArray<[RegExp, string]> = [
  [/\.(?:csproj|fsproj|vbproj)$/i, 'NuGet'],
  [/\.cabal$/i, 'Hackage'],
  [/\.gemspec$/i, 'RubyGems'],
];
/**
 * Python project files whose dependencies nerq does not read (`install_requires` in setup.py is
 * code, setup.cfg's and a Pipfile's are not parsed): named as unevaluated where no pyproject.toml
 * sits beside them and, at the root, no requirements file or Pipfile.lock gives the set.
 */
const PYTHON_UNREAD = ['setup.py', 'setup.cfg', 'Pipfile'];
/** A root file that gives a Python project's set with no pyproject.toml beside it (a runtime requirements file, a Pipfile.lock); repo-dependencies.ts reads them as such. */
export function isRootPythonSet(path: string): boolean {
  return !path.includes('/') && ((REQUIREMENTS.test(path) && !/dev|test|lint|doc/i.test(path)) || path === 'Pipfile.lock');
}

/** The ecosystem whose dependencies nerq does not evaluate a manifest named `base` declares; undefined when none. */
function unevaluatedEcosystem(base: string): string | undefined {
  return Object.hasOwn(UNEVALUATED_MANIFESTS, base) ? UNEVALUATED_MANIFESTS[base] : UNEVALUATED_EXTENSIONS.find(([re]) => re.test(base))?.[1];
}
/** Folders whose manifests are not the project's published packages. */
const NOT_PUBLISHED = /^(?:tests?|__tests__|fixtures?|__fixtures__|e2e|examples?|samples?|demos?|docs?|bench(?:mark)?s?|node_modules|vendor|third[_-]party|\.[^/]*)$/i;

/**
 * The ecosystem a `Cargo.toml` no `Cargo.lock` pins is listed under when it is beyond the Go and
 * Rust files read (`MAX_MODULE_FILES`; the checks write "the unpinned crates.io (Cargo.toml)
 * dependencies"): its requirements are not resolved. The ones read are resolved against crates.io's index.
 */
export const CARGO_WITHOUT_LOCK = 'unpinned crates.io';
/** A Gradle build's version catalog (read when a Gradle build sits at the root), and the root build files. */
export const GRADLE_CATALOG = 'gradle/libs.versions.toml';
const GRADLE_BUILD = /^(?:settings|build)\.gradle(?:\.kts)?$/;
/** A Gradle build script (never parsed: Kotlin or Groovy code). */
const GRADLE_SCRIPT = /^build\.gradle(?:\.kts)?$/;

/**
 * The published `go.mod` files, the `Cargo.lock` nearest above each published `Cargo.toml` (a
 * workspace's members share the root's), then those `Cargo.toml` files, then the `Cargo.toml`
 * files no `Cargo.lock` covers, at most `MAX_MODULE_FILES`; the `Cargo.toml` files no `Cargo.lock`
 * covers beyond them; and the go.mod / Cargo.lock
 * files beyond the cap (named, so that a set without their pins is never called clean).
 */
function selectModuleFiles(
  items: readonly RepoTreeItem[],
  published: (names: (base: string) => boolean) => RepoTreeItem[],
): { moduleFiles: string[]; unpinnedCargo: string[]; unreadPins: string[] } {
  const blobs = new Set(items.filter((i) => i.type === 'blob').map((i) => i.path));
  const goMods = published((base) => base === 'go.mod').map((i) => i.path);
  const cargoTomls = published((base) => base === 'Cargo.toml').map((i) => i.path);
  const locks = new Set<string>();
  const unpinnedCargo: string[] = [];
  const pinned: string[] = [];
  for (const toml of cargoTomls) {
    const lock = upward(dirOf(toml)).map((d) => (d === '' ? 'Cargo.lock' : `${d}/Cargo.lock`)).find((p) => blobs.has(p));
    if (lock === undefined) unpinnedCargo.push(toml);
    else {
      locks.add(lock);
      pinned.push(toml);
    }
  }
  const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length || a.localeCompare(b);
  // A gradle.lockfile beside a Gradle build script pins that project's resolved graph.
  const gradleLocks = published((base) => base === 'gradle.lockfile')
    .map((i) => i.path)
    .filter((p) => ['build.gradle', 'build.gradle.kts'].some((b) => blobs.has(dirOf(p) === '' ? b : `${dirOf(p)}/${b}`)));
  const pins = [...goMods, ...locks, ...gradleLocks].sort(byDepth);
  // The version catalog of the Gradle build at the root, when no gradle.lockfile pins it: its libraries' declared versions (direct only).
  const catalog = gradleLocks.length === 0 && blobs.has(GRADLE_CATALOG) && [...blobs].some((p) => GRADLE_BUILD.test(p)) ? [GRADLE_CATALOG] : [];
  // The Cargo.toml files no Cargo.lock pins come last (a workspace root before its members): their
  // requirements are resolved against crates.io's index; those beyond the cap are named, not read.
  // The published pom.xml files (a parent before its modules: the modules inherit its properties).
  const poms = published((base) => base === 'pom.xml').map((i) => i.path).sort(byDepth);
  const moduleFiles = [...pins, ...pinned.sort(byDepth), ...unpinnedCargo.sort(byDepth), ...catalog, ...poms].slice(0, MAX_MODULE_FILES);
  return {
    moduleFiles,
    unpinnedCargo: unpinnedCargo.filter((p) => !moduleFiles.includes(p)).slice(0, MAX_MANIFESTS),
    unreadPins: pins.slice(MAX_MODULE_FILES),
  };
}

/**
 * The Python projects of the published folders whose dependencies are in files nerq does not read
 * (setup.py, setup.cfg, Pipfile; one per folder): those with no pyproject.toml beside them, the
 * root's only when no root requirements file or Pipfile.lock gives the set.
 */
function pythonUnread(items: readonly RepoTreeItem[], pythonFiles: readonly RepoTreeItem[]): Array<{ path: string; ecosystem: string }> {
  const withPyproject = new Set(pythonFiles.filter((i) => baseOf(i.path) === 'pyproject.toml').map((i) => dirOf(i.path)));
  const rootSet = items.some((i) => i.type === 'blob' && isRootPythonSet(i.path));
  const seen = new Set<string>();
  const found: Array<{ path: string; ecosystem: string }> = [];
  for (const file of pythonFiles) {
    const dir = dirOf(file.path);
    const base = baseOf(file.path);
    if (base === 'pyproject.toml' || withPyproject.has(dir) || seen.has(dir) || (dir === '' && rootSet)) continue;
    seen.add(dir);
    found.push({ path: file.path, ecosystem: `PyPI (${base})` });
  }
  return found;
}

/**
 * The first member changelog (`memberChangelogs`) beside a manifest read that is not
 * private, or beside a published crate's Cargo.toml alone; never beside a private manifest or one
 * that could not be read (whether it is published is then unknown).
 */
export function memberChangelog(changelogs: readonly string[], selected: readonly RepoTreeItem[], read: ReadonlyArray<{ path: string; private: boolean }>): string | null {
  for (const path of changelogs) {
    const dir = dirOf(path);
    if (!selected.some((m) => dirOf(m.path) === dir)) return path;
    if (read.some((m) => dirOf(m.path) === dir && !m.private)) return path;
  }
  return null;
}

function hasFilesUnder(items: readonly RepoTreeItem[], names: readonly string[]): boolean {
  return items.some((i) => i.type === 'blob' && names.some((n) => i.path.toLowerCase().startsWith(`${n}/`)));
}

export function selectRepoFiles(items: readonly RepoTreeItem[]): RepoSelection {
  const rootBlobs = items.filter((i) => i.type === 'blob' && !i.path.includes('/'));
  // The root README, else the one GitHub shows from `.github/` or `docs/` (docs/scoring.md, "Repository targets").
  const readme =
    rootBlobs.find((i) => README_RE.test(i.path)) ??
    items.find((i) => i.type === 'blob' && /^\.github\/[^/]+$/i.test(i.path) && README_RE.test(baseOf(i.path))) ??
    items.find((i) => i.type === 'blob' && /^docs\/[^/]+$/i.test(i.path) && README_RE.test(baseOf(i.path))) ??
    null;
  const licenseNamed = rootBlobs.filter((i) => LICENSE_RE.test(i.path) && !NOT_LICENSE_TEXT.test(i.path));
  const licenses = [...licenseNamed.filter((i) => !OTHERS_LICENSES.test(i.path)), ...licenseNamed.filter((i) => OTHERS_LICENSES.test(i.path))].slice(0, MAX_LICENSE_FILES);
  const changelog =
    rootBlobs.find((i) => CHANGELOG_RE.test(i.path))?.path ??
    items.find((i) => i.type === 'blob' && /^docs?\//i.test(i.path) && dirOf(i.path).split('/').length === 1 && CHANGELOG_RE.test(baseOf(i.path)))?.path ??
    null;
  const securityPolicy =
    items.find((i) => i.type === 'blob' && /^(?:(?:\.github|docs)\/)?[^/]+$/i.test(i.path) && SECURITY_RE.test(baseOf(i.path)))?.path ?? null;
  const published = (names: (base: string) => boolean, limit = MAX_MANIFESTS): RepoTreeItem[] =>
    items
      .filter((i) => i.type === 'blob' && names(baseOf(i.path)))
      .filter((i) => {
        const dirs = dirOf(i.path) === '' ? [] : dirOf(i.path).split('/');
        return dirs.length <= MAX_MANIFEST_DEPTH && !dirs.some((d) => NOT_PUBLISHED.test(d));
      })
      .sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path))
      .slice(0, limit);
  const manifests = published((base) => MANIFEST_NAMES.has(base));
  const { moduleFiles, unpinnedCargo, unreadPins } = selectModuleFiles(items, (names) => published(names, Number.POSITIVE_INFINITY));
  const unevaluated = [
    // Beyond the files read: their pins are not in the set ("the unread Go (x/go.mod) dependencies").
    ...unreadPins.map((path) => ({ path, ecosystem: baseOf(path) === 'go.mod' ? 'unread Go' : baseOf(path) === 'gradle.lockfile' ? 'unread Maven' : 'unread crates.io' })),
    ...unpinnedCargo.map((path) => ({ path, ecosystem: CARGO_WITHOUT_LOCK })),
    ...published((base) => unevaluatedEcosystem(base) !== undefined && !(GRADLE_SCRIPT.test(base) && moduleFiles.includes(GRADLE_CATALOG)))
      .filter((i) => !moduleFiles.includes(i.path) && !(GRADLE_SCRIPT.test(baseOf(i.path)) && moduleFiles.includes(dirOf(i.path) === '' ? 'gradle.lockfile' : `${dirOf(i.path)}/gradle.lockfile`)))
      .map((i) => ({
      path: i.path,
      ecosystem: unevaluatedEcosystem(baseOf(i.path)) as string,
    })),
    ...pythonUnread(items, published((base) => PYTHON_UNREAD.includes(base) || base === 'pyproject.toml', Number.POSITIVE_INFINITY)),
    ...rootBlobs.filter((i) => CONDA_ENVIRONMENT.test(i.path)).map((i) => ({ path: i.path, ecosystem: 'conda' })),
  ].slice(0, MAX_MANIFESTS);
  // By folder, shallowest first (`crates/rmcp` before `crates/rmcp-macros`).
  const memberDirs = [...new Set([...manifests, ...published((base) => base === 'Cargo.toml', Number.POSITIVE_INFINITY)].map((m) => dirOf(m.path)))]
    .filter((d) => d !== '')
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  const memberChangelogs =
    changelog !== null
      ? []
      : memberDirs.flatMap((dir) => items.find((i) => i.type === 'blob' && dirOf(i.path) === dir && CHANGELOG_RE.test(baseOf(i.path)))?.path ?? []);
  const manifestDirs = new Set(manifests.map((m) => dirOf(m.path)));
  const lockfiles = items
    .filter(
      (i) =>
        i.type === 'blob' &&
        ((manifestDirs.has(dirOf(i.path)) && (LOCKFILE_NAMES.has(baseOf(i.path)) || REQUIREMENTS.test(baseOf(i.path)))) ||
          // A project with only a root requirements file or Pipfile.lock (no pyproject.toml): its dependencies are there.
          (!i.path.includes('/') && (REQUIREMENTS.test(i.path) || i.path === 'Pipfile.lock'))),
    )
    .map((i) => i.path);
  const workflowPaths = items
    .filter((i) => i.type === 'blob' && /^\.github\/workflows\/[^/]+\.ya?ml$/i.test(i.path))
    .sort((a, b) => a.path.localeCompare(b.path));
  const blobs = new Set(items.filter((i) => i.type === 'blob').map((i) => i.path));
  const commandEntries = items
    .filter((i) => {
      if (i.type !== 'blob') return false;
      const dirs = dirOf(i.path) === '' ? [] : dirOf(i.path).split('/');
      if (dirs.some((d) => NOT_PUBLISHED.test(d) || /^fuzz$/i.test(d))) return false;
      if (GO_COMMAND.test(i.path)) return blobs.has('go.mod');
      return RUST_COMMAND.test(i.path) && dirs.length <= MAX_MANIFEST_DEPTH + 1 && blobs.has('Cargo.toml');
    })
    .map((i) => i.path)
    .slice(0, MAX_COMMAND_ENTRIES);
  return {
    readme,
    licenses,
    changelog,
    memberChangelogs,
    securityPolicy,
    docsFolder: hasFilesUnder(items, ['docs', 'doc']),
    examplesFolder: hasFilesUnder(items, ['examples', 'example']),
    manifests,
    lockfiles,
    settings: [
      ...(manifests.some((m) => baseOf(m.path) === 'package.json') ? rootBlobs.filter((i) => NPM_SETTINGS.has(i.path)).map((i) => i.path) : []),
      ...(readsPython(manifests, lockfiles) ? rootBlobs.filter((i) => PYTHON_SETTINGS.has(i.path)).map((i) => i.path) : []),
    ].sort(),
    moduleFiles,
    unevaluated,
    workflows: workflowPaths.length,
    workflowPaths,
    commandEntries,
    licenseManifests: [
      ...LICENSE_MANIFESTS.flatMap((name) => rootBlobs.filter((i) => name.test(i.path)).sort((a, b) => (a.path < b.path ? -1 : 1)).slice(0, 1)).filter(
        (i) => i.path !== 'gradle.properties' || rootBlobs.some((b) => /^(?:build|settings)\.gradle(?:\.kts)?$/.test(b.path)),
      ),
      // A .NET library declares its licence in the project file it packs: the shallowest published one (a `*.Tests` project is not).
      ...published((base) => /\.(?:csproj|fsproj|vbproj)$/i.test(base) && !/[.-]tests?\.\w+$/i.test(base), 1),
    ].slice(0, MAX_LICENSE_MANIFESTS),
  };
}

/**
 * A repository read for one of its folders (an MCP Registry entry's `repository.subfolder`,
 * docs/scoring.md §8a, §9): the registry's folder checked as untrusted input, then the files that
 * matter chosen from the same one tree listing — the README, changelog, manifests, lockfiles
 * (the folder's, else the nearest above it: a workspace member is pinned by the root's; a crate's
 * Cargo.lock likewise, at its workspace's root), docs and
 * examples are the folder's; the licence files are the folder's when it has any, else the root's;
 * the security policy and workflows stay the repository's (the folder checked first: target/folder.ts). Pure.
 */
import { CARGO_WITHOUT_LOCK, LOCKFILE_NAMES, NPM_SETTINGS, PYTHON_SETTINGS, readsPython, selectRepoFiles, type RepoSelection, type RepoTreeItem } from './repo-tree.js';
import { baseOf, dirOf, upward } from './tree-paths.js';

/** Whether the listing holds `folder` as a folder. */
export function listsFolder(items: readonly RepoTreeItem[], folder: string): boolean {
  return items.some((i) => i.type === 'tree' && i.path === folder) || items.some((i) => i.path.startsWith(`${folder}/`));
}

/** The selection for `folder`, its paths the repository's (`src/everything/README.md`). */
export function selectFolderFiles(items: readonly RepoTreeItem[], folder: string): RepoSelection {
  const prefix = `${folder}/`;
  const inFolder = items.filter((i) => i.path.startsWith(prefix)).map((i) => ({ ...i, path: i.path.slice(prefix.length) }));
  const here = selectRepoFiles(inFolder);
  const root = selectRepoFiles(items);
  const byPath = new Map(items.map((i) => [i.path, i]));
  const item = (i: RepoTreeItem): RepoTreeItem => byPath.get(prefix + i.path) ?? { ...i, path: prefix + i.path };
  const path = (p: string) => prefix + p;
  // No lockfile beside the folder's manifests: the nearest folder above holding one pins them (a workspace's root lockfile).
  const above = here.manifests.length > 0 && here.lockfiles.length === 0 ? nearestLockfiles(items, dirOf(folder)) : [];
  // A crate of a Rust workspace is pinned by the workspace's Cargo.lock, at its root above the folder, as cargo reads it.
  const cargoAbove = here.moduleFiles.some((p) => baseOf(p) === 'Cargo.toml') && !here.moduleFiles.some((p) => baseOf(p) === 'Cargo.lock') ? nearestCargoLock(items, dirOf(folder)) : null;
  return {
    readme: here.readme === null ? null : item(here.readme),
    licenses: here.licenses.length > 0 ? here.licenses.map(item) : root.licenses,
    changelog: here.changelog === null ? null : path(here.changelog),
    memberChangelogs: here.memberChangelogs.map(path),
    securityPolicy: root.securityPolicy,
    docsFolder: here.docsFolder,
    examplesFolder: here.examplesFolder,
    manifests: here.manifests.map(item),
    lockfiles: [...here.lockfiles.map(path), ...above],
    // npm reads the project's .npmrc (the folder's) and the workspace root's: both set where an install fetches from.
    // uv and pip read the project's uv.toml / pip.conf and, run from the root, the root's: both as well.
    settings: [
      ...here.settings.map(path),
      ...(here.manifests.length > 0 ? items.filter((i) => i.type === 'blob' && NPM_SETTINGS.has(i.path) && here.manifests.some((m) => baseOf(m.path) === 'package.json')).map((i) => i.path) : []),
      ...(readsPython(here.manifests, here.lockfiles) ? items.filter((i) => i.type === 'blob' && PYTHON_SETTINGS.has(i.path)).map((i) => i.path) : []),
    ],
    moduleFiles: [...(cargoAbove === null ? [] : [cargoAbove]), ...here.moduleFiles.map(path)],
    unevaluated: here.unevaluated.filter((u) => cargoAbove === null || u.ecosystem !== CARGO_WITHOUT_LOCK).map((u) => ({ ...u, path: path(u.path) })),
    workflows: root.workflows,
    workflowPaths: root.workflowPaths,
    commandEntries: here.commandEntries.map(path),
    licenseManifests: here.licenseManifests.length > 0 ? here.licenseManifests.map(item) : root.licenseManifests,
  };
}

/** The lockfiles of the nearest folder at or above `dir` that holds any. */
function nearestLockfiles(items: readonly RepoTreeItem[], dir: string): string[] {
  for (const d of upward(dir)) {
    const found = items.filter((i) => i.type === 'blob' && dirOf(i.path) === d && LOCKFILE_NAMES.has(baseOf(i.path))).map((i) => i.path);
    if (found.length > 0) return found.sort();
  }
  return [];
}

/** The Cargo.lock of the nearest folder at or above `dir` that holds one, or null. */
function nearestCargoLock(items: readonly RepoTreeItem[], dir: string): string | null {
  for (const d of upward(dir)) {
    const lock = d === '' ? 'Cargo.lock' : `${d}/Cargo.lock`;
    if (items.some((i) => i.type === 'blob' && i.path === lock)) return lock;
  }
  return null;
}

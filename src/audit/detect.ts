/**
 * Which files to audit in a directory, and reading them: the only I/O of the audit inputs.
 *
 * `detectInputs` picks, per ecosystem, the most precise input present: for npm the first of
 * npm-shrinkwrap.json, package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock, package.json;
 * for Python every lockfile present (poetry.lock, uv.lock, pdm.lock, Pipfile.lock), else every
 * `requirements*.txt`, else pyproject.toml; go.mod, Cargo.lock and gradle.lockfile when present. SBOMs are only
 * read when named (`--file`).
 *
 * `readInputs` reads and parses the files, giving each reader what it needs from around it:
 * the root `package.json` and every workspace's (expanded from `workspaces` or
 * pnpm-workspace.yaml) for npm-family inputs, the sibling pyproject.toml / Pipfile for Python
 * lockfiles, the root Cargo.toml and its `[workspace] members`' for Cargo.lock, and `-r` / `-c`
 * includes for requirements files. The audited tree is untrusted:
 * those companion files are only read when they resolve (symlinks included) inside the
 * audited directory, and no input larger than 50 MB is read.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { readCargoLockInput, readerForName, readInputText, settingsFilesOf, type InputContext, type ParsedInput } from '../lockfiles/index.js';
import { readBunLock } from '../lockfiles/bun-lock.js';
import { PNPMFILES } from '../lockfiles/install-settings.js';
import { readPackageJson } from '../lockfiles/package-json.js';
import { readPackageLock } from '../lockfiles/package-lock.js';
import { readPdmLock } from '../lockfiles/pdm-lock.js';
import { readPipfileLock } from '../lockfiles/pipfile-lock.js';
import { readPnpmLock } from '../lockfiles/pnpm-lock.js';
import { readPoetryLock } from '../lockfiles/poetry-lock.js';
import { readRequirements, uvSettingsDirs } from '../lockfiles/requirements.js';
import { dirOf, joinPath, quote } from '../lockfiles/text.js';
import { readUvLock } from '../lockfiles/uv-lock.js';
import { readYarnLock } from '../lockfiles/yarn-lock.js';
import { parseToml } from '../lockfiles/toml-text.js';
import { parseYaml } from '../lockfiles/yaml-text.js';
import { workspaceGlobs } from '../lockfiles/workspace-globs.js';
import { isInside, namedInside, readTreeFile, readTreeFileSync, type TreeRead } from './tree-file.js';
import { LockfileError } from './types.js';

/** No input file larger than this is read (real lockfiles of very large monorepos stay well under). */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** At most this many workspace manifests are read for one project. */
const MAX_WORKSPACES = 2000;
/** A workspace pattern's walk descends at most this deep below its literal base. */
const MAX_GLOB_DEPTH = 8;

const NPM_PRIORITY = ['npm-shrinkwrap.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'package.json'];
const PYTHON_LOCKS = ['poetry.lock', 'uv.lock', 'pdm.lock', 'Pipfile.lock'];
const REQUIREMENTS = /^requirements.*\.txt$/i;
/** The module files, each read when present: their dependencies are checked against OSV only (README.md, "nerq audit [dir]"). */
const MODULE_FILES = ['go.mod', 'Cargo.lock', 'gradle.lockfile'];

/** The input files (relative to `dir`) to audit, by the priority above, in a stable order; `label` names the directory in errors, as the user gave it. */
export async function detectInputs(dir: string, label = '.'): Promise<string[]> {
  let entries: string[];
  try {
    const dirents = await readdir(dir, { withFileTypes: true });
    entries = dirents.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
  } catch (error) {
    throw new LockfileError(label, null, `cannot list the directory: ${describeIoError(error)}`);
  }
  const present = new Set(entries);
  const found: string[] = [];
  const npm = NPM_PRIORITY.find((name) => present.has(name));
  if (npm !== undefined) found.push(npm);
  const locks = PYTHON_LOCKS.filter((name) => present.has(name));
  if (locks.length > 0) found.push(...locks);
  else {
    const requirements = entries.filter((name) => REQUIREMENTS.test(name)).sort();
    if (requirements.length > 0) found.push(...requirements);
    else if (present.has('pyproject.toml')) found.push('pyproject.toml');
  }
  found.push(...MODULE_FILES.filter((name) => present.has(name)));
  return found;
}

export interface ReadInputsOptions {
  /**
   * The files were named by the user (`--file`): one outside the audited directory is read where
   * it is; one inside it must still resolve inside it (never through a link out of the tree).
   */
  explicit?: boolean;
  /**
   * The audited directory as the user named it: a named file that is missing is said to be looked
   * for there when that is not the current directory (a path given from the current one misses).
   */
  dirLabel?: string | undefined;
}

/**
 * Read and parse input files (relative to `dir`, or absolute), in order. Throws
 * `LockfileError` for a file that is missing, unreadable, too large, malformed, or that
 * resolves through a symbolic link to a file outside the audited directory.
 */
export async function readInputs(dir: string, files: readonly string[], options: ReadInputsOptions = {}): Promise<ParsedInput[]> {
  const root = path.resolve(dir);
  const parsed: ParsedInput[] = [];
  for (const given of files) {
    const file = relativeName(root, given);
    const absolute = path.resolve(root, given);
    const boundary = options.explicit === true && !namedInside(root, absolute) ? null : root;
    const read = await readTreeFile(absolute, boundary, MAX_INPUT_BYTES);
    const label = options.dirLabel;
    if (options.explicit === true && read.kind === 'missing' && label !== undefined && !path.isAbsolute(given) && path.resolve(label) !== process.cwd()) {
      throw new LockfileError(file, null, `cannot read: no such file in ${label} (a --file path is read from the audited directory)`);
    }
    const text = treeText(file, read);
    parsed.push(readInputText(text, file, await contextFor(root, file, text)));
  }
  return parsed;
}

function relativeName(root: string, given: string): string {
  const absolute = path.resolve(root, given);
  const relative = path.relative(root, absolute) || path.basename(absolute);
  return relative.split(path.sep).join('/');
}

/** The text of a read, or the LockfileError that names why there is none. */
function treeText(file: string, read: TreeRead): string {
  if (read.kind === 'text') return read.text;
  throw new LockfileError(file, null, unreadReason(read));
}

/** Why a read gave no text, in words. */
function unreadReason(read: Exclude<TreeRead, { kind: 'text' }>): string {
  switch (read.kind) {
    case 'missing':
      return 'cannot read: no such file';
    case 'outside':
      return 'resolves (through a symbolic link) outside the audited directory: not read';
    case 'not-a-file':
      return 'cannot read: not a file';
    case 'too-large':
      return `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB (${Math.ceil(read.size / 1024 / 1024)} MB): not read`;
    case 'error':
      return `cannot read: ${describeIoError({ code: read.code })}`;
  }
}

/** An I/O error in words (never a raw ENOENT or EISDIR). */
export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'a directory';
  return code ?? 'I/O error';
}

/** A companion that cannot be read is left out (a LockfileError); anything else is a bug and goes on. */
function skipUnreadable(error: unknown): void {
  if (!(error instanceof LockfileError)) throw error;
}

/** What a reader needs from around its file. */
async function contextFor(root: string, file: string, text: string): Promise<InputContext> {
  const reader = readerForName(file);
  const projectDir = dirOf(file);
  const manifests: Record<string, string> = {};
  const add = async (relative: string) => {
    const content = await readCompanion(root, relative);
    if (content !== null) manifests[relative] = content;
  };
  if (reader === readRequirements) {
    // The uv settings `uv pip install -r` may run with (requirements.ts): they only make the audit
    // stricter. One that cannot be read (too large, an I/O error) is left out: the requirements file is read all the same.
    for (const dir of uvSettingsDirs(file)) {
      for (const name of ['uv.toml', 'pyproject.toml']) await add(joinPath(dir, name)).catch(skipUnreadable);
    }
    return { readInclude: (include) => readCompanionSync(root, include, file), manifests };
  }
  if (reader === readPoetryLock || reader === readUvLock || reader === readPdmLock || reader === readPipfileLock) {
    await add(joinPath(projectDir, 'pyproject.toml'));
    await add(joinPath(projectDir, 'Pipfile'));
  }
  if (reader === readCargoLockInput) {
    // The root Cargo.toml and its workspace members' tell which crates only tests and examples need.
    const rootManifest = joinPath(projectDir, 'Cargo.toml');
    await add(rootManifest);
    for (const member of await memberDirs(root, projectDir, cargoMembers(manifests[rootManifest]), 'Cargo.toml')) {
      await add(joinPath(projectDir, member, 'Cargo.toml'));
    }
    return { manifests };
  }
  const npmFamily = [readPackageLock, readPnpmLock, readYarnLock, readBunLock, readPackageJson];
  if (reader !== null && npmFamily.includes(reader)) {
    const rootManifest = joinPath(projectDir, 'package.json');
    if (rootManifest === file) manifests[file] = text;
    else await add(rootManifest);
    for (const workspace of await workspaceDirs(root, projectDir, manifests[rootManifest])) {
      await add(joinPath(projectDir, workspace, 'package.json'));
    }
    // The package manager's settings beside the input, and the pnpmfiles it runs (lockfiles/install-settings.ts).
    const settings: Record<string, string> = {};
    const unreadSettings: Record<string, string> = {};
    // Only the ones the input's install consults, beside it, inside the tree: never a parent folder's or the user's own.
    // One there that cannot be read (a link out of the tree, too large, not a file) is named, not skipped in silence.
    for (const name of settingsFilesOf(reader, text)) {
      const relative = joinPath(projectDir, name);
      const read = await readTreeFile(path.resolve(root, relative), root, MAX_INPUT_BYTES);
      if (read.kind === 'text') settings[relative] = read.text;
      else if (read.kind !== 'missing') unreadSettings[relative] = unreadReason(read);
    }
    const hooks: string[] = [];
    for (const name of PNPMFILES) {
      // Its presence is what counts: a pnpmfile is never read (a link or a folder of that name counts too).
      const relative = joinPath(projectDir, name);
      if (await lstat(path.resolve(root, relative)).then(() => true, () => false)) hooks.push(relative);
    }
    return { manifests, settings, hooks, ...(Object.keys(unreadSettings).length > 0 ? { unreadSettings } : {}) };
  }
  return { manifests };
}

/** The `[workspace] members` patterns of a root Cargo.toml; none when it is absent or does not parse (Cargo.lock is read all the same). */
function cargoMembers(rootManifest: string | undefined): string[] {
  if (rootManifest === undefined) return [];
  try {
    const workspace = parseToml(rootManifest, 'Cargo.toml').workspace as { members?: unknown } | undefined;
    const members = workspace?.members;
    return Array.isArray(members) ? members.filter((m): m is string => typeof m === 'string') : [];
  } catch {
    return [];
  }
}

/** The workspace directories (relative to the project) its package.json and pnpm-workspace.yaml name. */
async function workspaceDirs(root: string, projectDir: string, rootManifest: string | undefined): Promise<string[]> {
  const patterns: string[] = [];
  if (rootManifest !== undefined) {
    try {
      const manifest = JSON.parse(rootManifest) as { workspaces?: unknown };
      const field = manifest.workspaces;
      const list = Array.isArray(field) ? field : (field as { packages?: unknown } | undefined)?.packages;
      if (Array.isArray(list)) patterns.push(...list.filter((p): p is string => typeof p === 'string'));
    } catch {
      // A malformed root manifest is reported by the reader that parses it.
    }
  }
  const pnpmWorkspace = await readCompanion(root, joinPath(projectDir, 'pnpm-workspace.yaml'));
  if (pnpmWorkspace !== null) {
    // Read as the lockfiles are (lockfiles/yaml-text.ts): a malformed or absurdly nested file is a LockfileError naming it.
    const workspace = parseYaml(pnpmWorkspace, joinPath(projectDir, 'pnpm-workspace.yaml')).value;
    const packages = typeof workspace === 'object' && workspace !== null ? (workspace as { packages?: unknown }).packages : undefined;
    if (Array.isArray(packages)) patterns.push(...packages.filter((p): p is string => typeof p === 'string'));
  }
  return memberDirs(root, projectDir, patterns, 'package.json');
}

/** The directories (relative to the project) the workspace patterns match that hold a `manifest` inside the tree, at most MAX_WORKSPACES. */
async function memberDirs(root: string, projectDir: string, patterns: readonly string[], manifest: string): Promise<string[]> {
  // One matcher for workspace patterns, the link verifier's (lockfiles/workspace-globs.ts):
  // each wildcard pattern's folders are walked from its literal base, pruned by `mayContain`.
  const globs = workspaceGlobs(patterns);
  const members = new Set(globs.literals.filter((dir) => globs.matches(dir)));
  const realRoot = await realpath(root).catch(() => null);
  const walk = async (at: string, depth: number): Promise<void> => {
    for (const name of await subdirectories(root, realRoot, joinPath(projectDir, at === '' ? '.' : at))) {
      const dir = at === '' ? name : `${at}/${name}`;
      if (globs.matches(dir)) members.add(dir);
      if (depth < MAX_GLOB_DEPTH && globs.mayContain(dir)) await walk(dir, depth + 1);
    }
  };
  for (const base of new Set(globs.starts.map((start) => start.base))) await walk(base, 0);
  const dirs: string[] = [];
  for (const dir of [...members].sort()) {
    if (dirs.length >= MAX_WORKSPACES) break;
    if (await isFileInside(root, joinPath(projectDir, dir, manifest))) dirs.push(dir);
  }
  return dirs;
}

/**
 * Real (not symlinked) subdirectories, without node_modules and hidden ones, of a folder inside
 * the audited tree. A folder that resolves outside it — a pattern's literal base (`packages` of
 * `packages/**`) that is a symbolic link to `/` — is not listed: its listing is outside the tree
 * (docs/security.md, "The audited tree is untrusted"), and a walk of it could cover the machine.
 */
async function subdirectories(root: string, realRoot: string | null, relative: string): Promise<string[]> {
  try {
    const dir = path.resolve(root, relative);
    if (realRoot === null || !isInside(realRoot, await realpath(dir))) return [];
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Whether `relative` is a regular file whose real path lies inside the audited directory. */
async function isFileInside(root: string, relative: string): Promise<boolean> {
  try {
    const real = await realpath(path.resolve(root, relative));
    return isInside(await realpath(root), real) && (await lstat(real)).isFile();
  } catch {
    return false;
  }
}

/** A companion file (manifest, workspace list), or null when absent, outside the tree or not a file. */
async function readCompanion(root: string, relative: string): Promise<string | null> {
  const read = await readTreeFile(path.resolve(root, relative), root, MAX_INPUT_BYTES);
  if (read.kind === 'text') return read.text;
  if (read.kind === 'too-large' || read.kind === 'error') return treeText(relative, read);
  return null;
}

/** A requirements include: read synchronously (readers are synchronous), inside the tree only. */
function readCompanionSync(root: string, relative: string, includer: string): string | null {
  const read = readTreeFileSync(path.resolve(root, relative), root, MAX_INPUT_BYTES);
  if (read.kind === 'outside') throw new LockfileError(includer, null, `include ${quote(relative)} is outside the audited directory: not read`);
  if (read.kind === 'text') return read.text;
  if (read.kind === 'too-large' || read.kind === 'error') return treeText(relative, read);
  return null;
}

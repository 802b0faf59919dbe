/**
 * The input readers by file name, and one entry point that picks the right one. Every reader
 * is pure (`(text, file, context?) => ParsedInput`) and throws only `LockfileError`.
 */
import { LockfileError } from '../audit/types.js';
import { readBunLock } from './bun-lock.js';
import { readCargoLock } from './cargo-lock.js';
import { readGoMod } from './go-mod.js';
import { readGradleLockfile } from './gradle-lockfile.js';
import { hookFindings, npmrcPnpmfiles, npmrcPrograms, PNPMFILES, pnpmWorkspaceSettings, withSettings, yarnClassicSettings, yarnrcSettings, type SettingsResult } from './install-settings.js';
import type { ModuleInput } from './module-types.js';
import { readCycloneDx } from './cyclonedx.js';
import { readCycloneDxXml } from './cyclonedx-xml.js';
import { readPackageJson } from './package-json.js';
import { readPackageLock } from './package-lock.js';
import { readPdmLock } from './pdm-lock.js';
import { readPipfileLock } from './pipfile-lock.js';
import { readPnpmLock } from './pnpm-lock.js';
import { readPoetryLock } from './poetry-lock.js';
import { readPyproject } from './pyproject.js';
import { readRequirements } from './requirements.js';
import { readSpdx } from './spdx.js';
import { readSpdxTagValue } from './spdx-tag-value.js';
import { baseName, dirOf, joinPath } from './text.js';
import type { InputContext, InputReader, ParsedInput } from './types.js';
import { readUvLock } from './uv-lock.js';
import { readYarnLock } from './yarn-lock.js';

export {
  readBunLock,
  readCycloneDx,
  readCycloneDxXml,
  readPackageJson,
  readPackageLock,
  readPdmLock,
  readPipfileLock,
  readPnpmLock,
  readPoetryLock,
  readPyproject,
  readRequirements,
  readSpdx,
  readSpdxTagValue,
  readUvLock,
  readYarnLock,
};
export type { InputContext, InputReader, ParsedInput } from './types.js';

const BY_NAME: Record<string, InputReader> = {
  'package-lock.json': readPackageLock,
  'npm-shrinkwrap.json': readPackageLock,
  'pnpm-lock.yaml': readPnpmLock,
  'yarn.lock': readYarnLock,
  'bun.lock': readBunLock,
  'package.json': readPackageJson,
  'poetry.lock': readPoetryLock,
  'uv.lock': readUvLock,
  'pdm.lock': readPdmLock,
  'Pipfile.lock': readPipfileLock,
  'pyproject.toml': readPyproject,
  'go.mod': readGoModInput,
  'Cargo.lock': readCargoLockInput,
  'gradle.lockfile': readGradleLockfileInput,
};

/** The reader a file's name calls for (any `.txt` / `.in` is a requirements file), or null. */
export function readerForName(file: string): InputReader | null {
  const name = baseName(file);
  const known = BY_NAME[name];
  if (known !== undefined) return known;
  if (/\.(txt|in)$/i.test(name)) return readRequirements;
  return null;
}

/**
 * A module reader's result as an audit input (README.md, "nerq audit [dir]"): each pin
 * a dependency of ecosystem `go` / `cargo`, its local and remote entries skipped as the other
 * readers skip theirs (their notes among the notes, as the other readers write them).
 */
function moduleInput(input: ModuleInput): ParsedInput {
  return {
    file: input.file,
    format: input.format,
    dependencies: input.dependencies.map((d) => ({
      ecosystem: d.ecosystem,
      name: d.name,
      version: d.version,
      spec: null,
      direct: d.direct,
      dev: d.dev,
      file: d.file,
      line: d.line,
      workspace: null,
      resolved: null,
      ...(d.via === undefined ? {} : { via: d.via }),
    })),
    notes: [...input.notes, ...input.unvouched],
    skipped: input.skipped,
  };
}

/** go.mod as an audit input. */
function readGoModInput(text: string, file: string): ParsedInput {
  return moduleInput(readGoMod(text, file));
}

/** gradle.lockfile as an audit input (its Maven modules are checked against OSV only). */
function readGradleLockfileInput(text: string, file: string): ParsedInput {
  return moduleInput(readGradleLockfile(text, file));
}

/** Cargo.lock as an audit input; the Cargo.toml manifests beside it (context) tell dev-only crates. */
export function readCargoLockInput(text: string, file: string, context?: InputContext): ParsedInput {
  return moduleInput(readCargoLock(text, file, context?.manifests ?? {}));
}

/**
 * The reader for a file, by name, else by its name's ending and a sample of its content: a
 * `.json` CycloneDX or SPDX document; `bom.xml`, `*.cdx.xml`, or an `.xml` whose root is a
 * CycloneDX `<bom>`; `*.spdx`, or any other file that opens as an SPDX tag-value document.
 */
export function readerFor(file: string, text: string): InputReader {
  const name = baseName(file);
  if (name === 'bun.lockb') throw new LockfileError(file, null, 'the binary bun.lockb cannot be read: run `bun install --save-text-lockfile` and audit bun.lock');
  const byName = readerForName(file);
  if (byName !== null) return byName;
  const sample = text.slice(0, 1_000_000);
  if (/\.json$/i.test(name)) {
    if (/\.cdx\.json$/i.test(name) || /"bomFormat"\s*:\s*"CycloneDX"/.test(sample)) return readCycloneDx;
    if (/\.spdx\.json$/i.test(name) || /"spdxVersion"\s*:/.test(sample)) return readSpdx;
  } else if (/\.xml$/i.test(name)) {
    if (name === 'bom.xml' || /\.cdx\.xml$/i.test(name) || /<(?:[A-Za-z_][\w.-]*:)?bom\b[^<>]*\bxmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/cyclonedx\.org\/schema\/bom\//.test(sample)) return readCycloneDxXml;
  } else if (/\.spdx$/i.test(name) || opensAsSpdxTagValue(sample)) return readSpdxTagValue;
  throw new LockfileError(
    file,
    null,
    'not a supported input (lockfile, package.json, requirements, pyproject.toml, go.mod, Cargo.lock, gradle.lockfile, CycloneDX JSON or XML, SPDX JSON or tag-value)',
  );
}

/** Whether the first line of `text` that is neither blank nor a comment is `SPDXVersion: SPDX-…`. */
function opensAsSpdxTagValue(text: string): boolean {
  const lines = text.slice(0, 10_000).replace(/^\uFEFF/, '').split('\n');
  const first = lines.map((line) => line.trim()).find((line) => line !== '' && !line.startsWith('#'));
  return first !== undefined && /^SPDXVersion:\s*SPDX-/.test(first);
}

/** Read one input file with the reader its name (or content) calls for, with what the package manager's settings beside it change (install-settings.ts). */
export function readInputText(text: string, file: string, context?: InputContext): ParsedInput {
  const reader = readerFor(file, text);
  return withSettings(reader(text, file, context), settingsFor(reader, file, text, context));
}

/**
 * The package manager's settings files, beside the input, that the install an input describes
 * consults (docs/security.md, the package manager's settings): pnpm's pnpm-workspace.yaml for a
 * pnpm lockfile or a package.json; the .npmrc npm and pnpm read; yarn's .yarnrc.yml, and yarn
 * classic's .yarnrc beside a v1 lockfile (berry does not read it) or a package.json. The audit
 * reads these and no others (src/audit/detect.ts).
 */
const SETTINGS_FILES = new Map<InputReader, readonly string[]>([
  [readPackageLock, ['.npmrc']],
  [readPnpmLock, ['pnpm-workspace.yaml', '.npmrc']],
  [readYarnLock, ['.yarnrc.yml', '.yarnrc']],
  [readPackageJson, ['pnpm-workspace.yaml', '.npmrc', '.yarnrc.yml', '.yarnrc']],
]);

/** The names of the settings files `reader`'s install consults beside its input, whose text is `text` (SETTINGS_FILES). */
export function settingsFilesOf(reader: InputReader, text: string): readonly string[] {
  const files = SETTINGS_FILES.get(reader) ?? [];
  return reader === readYarnLock && /^__metadata:/m.test(text) ? files.filter((name) => name !== '.yarnrc') : files;
}

/**
 * What the settings files the input's install consults (settingsFilesOf) change: pnpm's
 * pnpmfiles and workspace settings, the programs an .npmrc names, yarn's plugins and releases.
 */
function settingsFor(reader: InputReader, file: string, text: string, context: InputContext | undefined): SettingsResult[] {
  const dir = dirOf(file);
  const consulted = new Set(settingsFilesOf(reader, text));
  const added: SettingsResult[] = [];
  // A settings file the package manager reads that nerq could not: said, never passed over in silence.
  const unread = [...consulted].flatMap((name) => {
    const f = joinPath(dir, name);
    const why = context?.unreadSettings?.[f];
    return why === undefined ? [] : [`${f}: ${why}: the package manager's settings there were not checked`];
  });
  if (unread.length > 0) added.push({ notes: unread, skipped: [], findings: [] });
  const npmrcFile = joinPath(dir, '.npmrc');
  const npmrc = context?.settings?.[npmrcFile];
  if (consulted.has('pnpm-workspace.yaml')) {
    const workspaceFile = joinPath(dir, 'pnpm-workspace.yaml');
    const workspace = context?.settings?.[workspaceFile];
    const settings = workspace === undefined ? null : pnpmWorkspaceSettings(workspace, workspaceFile);
    const present = (context?.hooks ?? []).filter((hook) => PNPMFILES.includes(baseName(hook)) && dirOf(hook) === dir);
    const hooks = [...present.map((hook) => ({ hook, file: hook, line: null })), ...(settings?.pnpmfiles ?? []), ...(npmrc === undefined ? [] : npmrcPnpmfiles(npmrc, npmrcFile))];
    // With a lockfile, the lockfile records what an alias installs.
    if (settings !== null) added.push(reader === readPackageJson ? settings : { ...settings, aliases: [] });
    if (hooks.length > 0) added.push({ notes: [], skipped: [], findings: hookFindings(hooks) });
  }
  // The programs and modules the project's .npmrc makes npm (and pnpm) run with every script.
  if (consulted.has('.npmrc') && npmrc !== undefined) added.push(npmrcPrograms(npmrc, npmrcFile));
  if (consulted.has('.yarnrc.yml')) {
    const yarnrcFile = joinPath(dir, '.yarnrc.yml');
    const yarnrc = context?.settings?.[yarnrcFile];
    if (yarnrc !== undefined) added.push(yarnrcSettings(yarnrc, yarnrcFile));
  }
  if (consulted.has('.yarnrc')) {
    const classicFile = joinPath(dir, '.yarnrc');
    const classic = context?.settings?.[classicFile];
    if (classic !== undefined) added.push(yarnClassicSettings(classic, classicFile));
  }
  return added;
}

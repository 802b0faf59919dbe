/**
 * What the package manager's own settings change in what it installs (docs/security.md,
 * "Dependencies no registry vouches for"), read beside a pnpm or yarn input:
 *
 * - pnpm-workspace.yaml (pnpm ≥ 10 reads its `overrides`, `catalog`, `catalogs` and
 *   `packageExtensions`): an override, catalog entry or extension's dependency that fetches
 *   code from a git repository, a URL or a path (`file:`, `link:`; not `workspace:`, a package
 *   of the project already in the tree) is a skipped entry, as a package.json override is
 *   (package-json.ts), and an override's `npm:` alias to another package makes a package.json
 *   read alone audit that package; a `packageExtensions` entry that adds dependencies to a package is a
 *   `package-extension` warning (the lockfile records what pnpm resolved for it; the manifest
 *   the registry published does not have it); its `pnpmfile` and `globalPnpmfile` settings name hook files.
 * - The project's `.npmrc`, where pnpm ≤ 10 reads its `pnpmfile` and `global-pnpmfile` settings
 *   (pnpm 11 reads only registry and auth settings there): each names a hook file too.
 * - yarn berry's `.yarnrc.yml`: its `packageExtensions`, read the same way; each of its `plugins`
 *   (code yarn loads on every command, whose hooks may change what is resolved) is a `yarn-plugin`
 *   warning naming its path and spec (one of yarn's own `@yarnpkg/plugin-*`, or another), and its
 *   `yarnPath` (the file yarn runs in place of itself) a `yarn-release` warning; either one whose
 *   path leaves the folder of the `.yarnrc.yml` (`..` above it, an absolute path, a home folder,
 *   a URL, an environment variable) is code from outside the audited tree: an `unvouched-hook` finding.
 * - A pnpmfile (`.pnpmfile.cjs`, `.pnpmfile.mjs`, or a file a setting names):
 *   its `readPackage` hook may rewrite any package's manifest at install time, so the graph the
 *   lockfile records was shaped by code nerq does not evaluate: an `unvouched-hook` finding
 *   (the run is incomplete, as with an unvouched remote). The file is never read or run.
 *
 * Pure: the texts come from the context (src/audit/detect.ts reads them, from the audited tree only).
 */
import ini from 'ini';
import type { AuditWarning, DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { planDependency } from '../ecosystems/npm/dependency-plan.js';
import { exactVersion, overrideTarget } from './package-json.js';
import { npmSourceKind, skippedEntry } from './source-kind.js';
import { quote } from './text.js';
import type { ParsedInput } from './types.js';
import { parseYaml, type ParsedYaml } from './yaml-text.js';

/** What a settings file adds to an input's result. */
export interface SettingsResult {
  notes: string[];
  skipped: SkippedEntry[];
  findings: AuditWarning[];
  /**
   * The packages an override's `npm:` alias installs under another name, for a package.json read
   * alone (with a lockfile, the lockfile records them): audited as the package installed, as a
   * package.json's own alias override is.
   */
  aliases?: DeclaredDependency[];
}

/** How many entries of one settings file are read (an untrusted file: the walk stays bounded). */
const MAX_ENTRIES = 10_000;
/** The dependency fields a package extension may add (pnpm installs peers too: `auto-install-peers`). */
const EXTENSION_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const NUL = '\u0000';

/** The hook files pnpm runs by default, beside its lockfile (pnpm's `pnpmfile` setting). */
export const PNPMFILES = ['.pnpmfile.cjs', '.pnpmfile.mjs'];

/**
 * What runs: a pnpmfile (`pnpmfile`), or a yarn plugin or release from outside the project
 * (`yarn-plugin`, `yarn-path`).
 */
type HookKind = 'pnpmfile' | 'yarn-plugin' | 'yarn-path';

/** A hook file the package manager runs, and where the project says so (the file itself, or the setting's line). */
interface HookPlace {
  hook: string;
  file: string;
  line: number | null;
  kind?: HookKind;
}

const HOOK_TEXT: Record<HookKind, (hook: string) => string> = {
  pnpmfile: (hook) => `pnpm runs the hooks of ${hook} at install (readPackage may rewrite any package's manifest)`,
  'yarn-plugin': (hook) => `yarn loads the plugin ${hook}, from outside the project, on every command (its hooks may change what is resolved)`,
  'yarn-path': (hook) => `yarn runs ${hook}, from outside the project, in place of itself on every command (yarnPath)`,
};

/** One `unvouched-hook` finding per hook file. */
export function hookFindings(hooks: readonly HookPlace[]): AuditWarning[] {
  const seen = new Set<string>();
  return hooks.flatMap(({ hook, file, line, kind = 'pnpmfile' }) => {
    if (seen.has(`${kind}${NUL}${hook}`)) return [];
    seen.add(`${kind}${NUL}${hook}`);
    return [
      {
        code: 'unvouched-hook',
        message: `${file}${line === null ? '' : `:${line}`}: ${HOOK_TEXT[kind](quote(hook))}: the dependency graph was shaped by code nerq does not evaluate`,
        details: { file, line, hook, manager: kind === 'pnpmfile' ? 'pnpm' : 'yarn' },
      },
    ];
  });
}

/** The entries a pnpm-workspace.yaml adds (see the module comment); throws `LockfileError` when it is not YAML. */
export function pnpmWorkspaceSettings(text: string, file: string): SettingsResult & { pnpmfiles: HookPlace[] } {
  const yaml = parseYaml(text, file);
  const result = emptyResult();
  const root = isObject(yaml.value) ? yaml.value : {};
  const add = remoteAdder(result, file);
  const aliases: DeclaredDependency[] = [];
  let count = 0;
  if (isObject(root.overrides)) {
    const lines = yaml.keyLinesUnder('overrides', 1);
    for (const [key, spec] of Object.entries(root.overrides)) {
      if (count++ >= MAX_ENTRIES) break;
      const target = overrideTarget(key, '>');
      const line = lines.get(key) ?? null;
      add(target, spec, line, 'an override in pnpm-workspace.yaml');
      const plan = typeof spec === 'string' && target !== '' ? planDependency(target, spec) : null;
      if (plan?.kind === 'registry' && plan.name !== target) {
        aliases.push({ ecosystem: 'npm', name: plan.name, version: exactVersion(plan.spec), spec: plan.spec, direct: false, dev: false, file, line, workspace: null, resolved: null });
      }
    }
  }
  if (isObject(root.catalog)) {
    const lines = yaml.keyLinesUnder('catalog', 1);
    for (const [name, spec] of Object.entries(root.catalog)) {
      if (count++ >= MAX_ENTRIES) break;
      add(name, spec, lines.get(name) ?? null, 'a catalog entry');
    }
  }
  if (isObject(root.catalogs)) {
    const lines = yaml.keyLinesUnder('catalogs', 2);
    for (const [catalog, entries] of Object.entries(root.catalogs)) {
      if (!isObject(entries)) continue;
      for (const [name, spec] of Object.entries(entries)) {
        if (count++ >= MAX_ENTRIES) break;
        add(name, spec, lines.get(`${catalog}${NUL}${name}`) ?? null, `an entry of catalog ${quote(catalog)}`);
      }
    }
  }
  extensions(yaml, root.packageExtensions, file, 'pnpm', result, add);
  const pnpmfiles = ['pnpmfile', 'globalPnpmfile'].flatMap((key) => namedFiles(root[key]).map((hook) => ({ hook, file, line: yaml.lineOf([key]) })));
  return { ...result, aliases, pnpmfiles };
}

/** The paths a pnpmfile setting names (one, or a list). */
function namedFiles(value: unknown): string[] {
  return (Array.isArray(value) ? value.slice(0, MAX_ENTRIES) : [value]).filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
}

/** The `.npmrc` keys that name a pnpmfile (pnpm ≤ 10; the camelCase spelling is read too). */
const NPMRC_PNPMFILE_KEYS = ['pnpmfile', 'global-pnpmfile', 'globalPnpmfile'];

/**
 * The pnpmfiles a project `.npmrc` names (its top-level `pnpmfile` and `global-pnpmfile`), parsed
 * as npm and pnpm parse it (the ini package); every other key is left to the npm configuration
 * (src/sources/npm/config.ts), which never takes credentials from the audited tree.
 */
export function npmrcPnpmfiles(text: string, file: string): HookPlace[] {
  const parsed = ini.parse(text) as Record<string, unknown>;
  const lines = topLevelKeyLines(text, NPMRC_PNPMFILE_KEYS);
  return NPMRC_PNPMFILE_KEYS.flatMap((key) => (Object.hasOwn(parsed, key) ? namedFiles(parsed[key]).map((hook) => ({ hook, file, line: lines.get(key) ?? null })) : []));
}

/** The line of the first `key =` (or `key[] =`) of each of `keys` before the first `[section]`, in one pass. */
function topLevelKeyLines(text: string, keys: readonly string[]): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    const trimmed = raw.trim();
    if (trimmed.startsWith('[')) break;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) continue;
    const key = trimmed.slice(0, equals).trim().replace(/\[\]$/, '');
    if (keys.includes(key) && !lines.has(key)) lines.set(key, line);
  }
  return lines;
}

/**
 * The entries a yarn berry `.yarnrc.yml` adds (its `packageExtensions`, `plugins` and `yarnPath`);
 * a file that is not YAML adds a note only (yarn itself refuses it).
 */
export function yarnrcSettings(text: string, file: string): SettingsResult {
  const result = emptyResult();
  let yaml: ParsedYaml;
  try {
    yaml = parseYaml(text, file);
  } catch (error) {
    result.notes.push(`${file}: not read for packageExtensions, plugins or yarnPath: ${error instanceof Error ? error.message : String(error)}`);
    return result;
  }
  const root = isObject(yaml.value) ? yaml.value : {};
  extensions(yaml, root.packageExtensions, file, 'yarn', result, remoteAdder(result, file));
  const hooks: HookPlace[] = [];
  if (Array.isArray(root.plugins)) {
    const lines = yaml.itemLines('plugins');
    for (const [index, plugin] of root.plugins.slice(0, MAX_ENTRIES).entries()) {
      const line = lines[index] ?? yaml.lineOf(['plugins']);
      const pluginPath = typeof plugin === 'string' ? plugin.trim() : isObject(plugin) && typeof plugin.path === 'string' ? plugin.path.trim() : '';
      if (pluginPath === '') {
        result.notes.push(`${file}:${line}: a plugin entry without a path: not read`);
        continue;
      }
      if (leavesFolder(pluginPath)) {
        hooks.push({ hook: pluginPath, file, line, kind: 'yarn-plugin' });
        continue;
      }
      const spec = isObject(plugin) && typeof plugin.spec === 'string' && plugin.spec.trim() !== '' ? plugin.spec.trim() : null;
      const origin = spec === null ? 'unknown' : OFFICIAL_PLUGIN.test(spec) ? 'official' : 'third-party';
      const from = origin === 'official' ? `${quote(spec ?? '')}, one of yarn's own` : origin === 'third-party' ? `${quote(spec ?? '')}, not one of yarn's own plugins` : 'no spec says where it came from';
      result.findings.push({
        code: 'yarn-plugin',
        message: `${file}:${line}: yarn loads the plugin ${quote(pluginPath)} (${from}) on every command: its hooks may change what is resolved, and nerq does not evaluate the file in the tree`,
        details: { file, line, path: pluginPath, spec, origin },
      });
    }
  }
  if (typeof root.yarnPath === 'string' && root.yarnPath.trim() !== '') {
    const release = root.yarnPath.trim();
    const line = yaml.lineOf(['yarnPath']);
    if (leavesFolder(release)) hooks.push({ hook: release, file, line, kind: 'yarn-path' });
    else {
      result.findings.push({
        code: 'yarn-release',
        message: `${file}:${line}: yarn runs ${quote(release)} in place of itself on every command (yarnPath): nerq does not compare the file in the tree with a published yarn release`,
        details: { file, line, release },
      });
    }
  }
  result.findings.push(...hookFindings(hooks));
  return result;
}

/** A spec `yarn plugin import` writes for one of yarn's own plugins (`@yarnpkg/plugin-<name>`, no URL). */
const OFFICIAL_PLUGIN = /^@yarnpkg\/plugin-[a-z0-9][a-z0-9-]*$/;

/**
 * Whether a path yarn resolves from the folder of its `.yarnrc.yml` may leave that folder: an
 * absolute path (`/`, `\\`, a drive letter), a home folder (`~`), a URL (any `scheme:`), an
 * environment variable yarn substitutes (`$`), or more `..` than folders above it.
 */
function leavesFolder(given: string): boolean {
  if (/^(?:[/\\~]|[a-z][a-z0-9+.-]*:)/i.test(given) || given.includes('$')) return true;
  let depth = 0;
  for (const part of given.split(/[/\\]/)) {
    if (part === '..') depth--;
    else if (part !== '' && part !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** The input with what its settings files add. */
export function withSettings(input: ParsedInput, added: readonly SettingsResult[]): ParsedInput {
  if (added.every((a) => a.notes.length === 0 && a.skipped.length === 0 && a.findings.length === 0 && (a.aliases ?? []).length === 0)) return input;
  return {
    ...input,
    notes: [...input.notes, ...added.flatMap((a) => a.notes)],
    skipped: [...(input.skipped ?? []), ...added.flatMap((a) => a.skipped)],
    findings: [...(input.findings ?? []), ...added.flatMap((a) => a.findings)],
    dependencies: [...input.dependencies, ...added.flatMap((a) => a.aliases ?? [])],
  };
}

function emptyResult(): SettingsResult {
  return { notes: [], skipped: [], findings: [] };
}

type Adder = (name: string, spec: unknown, line: number | null, what: string) => void;

/** Records a spec that fetches code no registry serves (remote or local) as a skipped entry with its note. */
function remoteAdder(result: SettingsResult, file: string): Adder {
  return (name, spec, line, what) => {
    // `workspace:` names a package of the project itself, already in the tree: nothing more is fetched.
    if (typeof spec !== 'string' || name === '' || /^\s*workspace:/i.test(spec)) return;
    const kind = npmSourceKind(spec);
    if (kind === null) return;
    const note = `${file}:${line ?? '?'}: ${quote(name)} skipped: ${kind.kind === 'remote' ? 'fetched from outside the registry' : 'a local path'} (${what})`;
    result.notes.push(note);
    result.skipped.push(skippedEntry('npm', name, file, line, kind, note));
  };
}

/** `packageExtensions`: a `package-extension` warning per package it adds dependencies to, and each added spec no registry serves as a skipped entry. */
function extensions(yaml: ParsedYaml, value: unknown, file: string, manager: 'pnpm' | 'yarn', result: SettingsResult, add: Adder): void {
  if (!isObject(value)) return;
  const lines = yaml.keyLinesUnder('packageExtensions', 3);
  let count = 0;
  for (const [selector, extension] of Object.entries(value)) {
    if (count >= MAX_ENTRIES) break;
    if (!isObject(extension)) continue;
    const added: string[] = [];
    for (const field of EXTENSION_FIELDS) {
      const deps = extension[field];
      if (!isObject(deps)) continue;
      for (const [name, spec] of Object.entries(deps)) {
        if (count++ >= MAX_ENTRIES) break;
        added.push(name);
        add(name, spec, lines.get(`${selector}${NUL}${field}${NUL}${name}`) ?? null, `a package extension of ${quote(selector)}`);
      }
    }
    if (added.length === 0) continue;
    const line = lines.get(selector) ?? null;
    result.findings.push({
      code: 'package-extension',
      message: `${file}:${line ?? '?'}: packageExtensions adds ${added.map((n) => quote(n)).join(', ')} to ${quote(selector)}: ${manager} installs them although the published manifest does not declare them`,
      details: { file, line, package: selector, added },
    });
  }
}

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
 *   the registry published does not have it); its `pnpmfile` and `globalPnpmfile` settings name hook files,
 *   and its `scriptShell` and `nodeOptions` programs and modules, read as `.npmrc`'s are (below).
 * - The project's `.npmrc`, where pnpm ≤ 10 reads its `pnpmfile` and `global-pnpmfile` settings
 *   (pnpm 11 reads only registry and auth settings there): each names a hook file too.
 * - yarn berry's `.yarnrc.yml`: its `packageExtensions`, read the same way; each of its `plugins`
 *   (code yarn loads on every command, whose hooks may change what is resolved) is a `yarn-plugin`
 *   warning naming its path and spec (one of yarn's own `@yarnpkg/plugin-*`, or another), and its
 *   `yarnPath` (the file yarn runs in place of itself) a `yarn-release` warning; either one whose
 *   path leaves the folder of the `.yarnrc.yml` (`..` above it, an absolute path, a home folder,
 *   a URL, an environment variable) is code from outside the audited tree: an `unvouched-hook` finding.
 * - yarn classic's `.yarnrc` (beside a v1 lockfile or a package.json): its `yarn-path`, read line by
 *   line (yarn 1 takes an unquoted path `@yarnpkg/lockfile` refuses), as berry's `yarnPath`.
 * - The programs and modules the project's `.npmrc` makes npm run (`script-shell`, `node-options`
 *   module flags, `git`, `node-gyp`, `onload-script`; beside an npm or pnpm lockfile or a
 *   package.json): in the tree or an installed package, an `npmrc-program` warning; from outside
 *   the project or a bare name on the PATH, an `unvouched-hook`; a system shell, git or node-gyp, nothing.
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
 * What runs: a pnpmfile (`pnpmfile`), a yarn plugin or release from outside the project
 * (`yarn-plugin`, `yarn-path`), or a program or module an `.npmrc` setting (`npmrc`) or a
 * pnpm-workspace.yaml one (`pnpm-program`) names from outside it (`setting` says which).
 */
type HookKind = 'pnpmfile' | 'yarn-plugin' | 'yarn-path' | 'npmrc' | 'pnpm-program';

/** A hook file the package manager runs, and where the project says so (the file itself, or the setting's line). */
interface HookPlace {
  hook: string;
  file: string;
  line: number | null;
  kind?: HookKind;
  /** The setting that names it (`yarnPath`, `yarn-path`, `script-shell`, `node-options`…), when one does. */
  setting?: string;
}

const GRAPH = 'the dependency graph was shaped by code nerq does not evaluate';
const HOOK_TEXT: Record<HookKind, (hook: string, setting: string) => string> = {
  pnpmfile: (hook) => `pnpm runs the hooks of ${hook} at install (readPackage may rewrite any package's manifest): ${GRAPH}`,
  'yarn-plugin': (hook) => `yarn loads the plugin ${hook}, from outside the project, on every command (its hooks may change what is resolved): ${GRAPH}`,
  'yarn-path': (hook, setting) => `yarn runs ${hook}, from outside the project, in place of itself on every command (${setting}): ${GRAPH}`,
  npmrc: (hook, setting) => `${programText(setting, 'npm')} ${hook} (${setting}), from outside the project or a program on the PATH nerq cannot see: code nerq cannot read runs with the project's scripts or installs`,
  'pnpm-program': (hook, setting) => `${programText(setting, 'pnpm')} ${hook} (${setting}), from outside the project or a program on the PATH nerq cannot see: code nerq cannot read runs with the project's scripts or installs`,
};

const MANAGER: Record<HookKind, string> = { pnpmfile: 'pnpm', 'yarn-plugin': 'yarn', 'yarn-path': 'yarn', npmrc: 'npm', 'pnpm-program': 'pnpm' };

/** One `unvouched-hook` finding per hook file. */
export function hookFindings(hooks: readonly HookPlace[]): AuditWarning[] {
  const seen = new Set<string>();
  return hooks.flatMap(({ hook, file, line, kind = 'pnpmfile', setting }) => {
    const key = `${kind}${NUL}${setting ?? ''}${NUL}${hook}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        code: 'unvouched-hook',
        message: `${file}${line === null ? '' : `:${line}`}: ${HOOK_TEXT[kind](quote(hook), setting ?? 'yarnPath')}`,
        details: { file, line, hook, manager: MANAGER[kind], ...(setting === undefined ? {} : { setting }) },
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
  // pnpm ≥ 10 reads its settings here too, in camelCase: the shell and NODE_OPTIONS of every script.
  const programs = programsNamed(
    Object.keys(NPM_SPELLING).filter((key) => typeof root[key] === 'string').map((key) => ({ setting: key, value: root[key], line: yaml.lineOf([key]) })),
    file,
    'pnpm-program',
  );
  result.findings.push(...programs.findings);
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

/**
 * The `.npmrc` settings that name a program or module npm runs, and what it does with it
 * (docs/security.md, "Programs the project's .npmrc names"): `script-shell` (the shell package
 * scripts run with; pnpm reads it too), `git` (the git binary npm runs for a git dependency),
 * `node-gyp` (the node-gyp npm runs to build a native package), `onload-script` (a module npm ≤ 6
 * loads on start), and the modules `node-options` (NODE_OPTIONS of every script) makes node load.
 */
const PROGRAM_TEXT: Readonly<Record<string, (manager: string) => string>> = {
  'script-shell': (manager) => `${manager} runs every package script with`,
  git: (manager) => `${manager} runs, for each git dependency,`,
  'node-gyp': (manager) => `${manager} runs, to build a native package,`,
  'onload-script': () => 'npm (≤ 6) loads on every command',
  'node-options': () => 'node loads, in every process a package script starts,',
};
/** The npm spelling of the settings pnpm-workspace.yaml spells in camelCase (pnpm ≥ 10 reads them there). */
const NPM_SPELLING: Readonly<Record<string, string>> = { scriptShell: 'script-shell', nodeOptions: 'node-options' };
const spelling = (setting: string): string => NPM_SPELLING[setting] ?? setting;
const programText = (setting: string, manager: string): string => PROGRAM_TEXT[spelling(setting)]?.(manager) ?? `${manager} runs`;
const NPMRC_PROGRAM_KEYS = ['script-shell', 'git', 'node-gyp', 'onload-script'] as const;
const NODE_OPTIONS_KEY = 'node-options';

/** The programs a setting may name bare or by a system path without running project code: the system's own shells, git, node-gyp. */
const SYSTEM_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  'script-shell': ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'cmd', 'pwsh', 'powershell'],
  git: ['git'],
  'node-gyp': ['node-gyp'],
  'onload-script': [],
};
/** The folders a system program is installed in (lower case, `/` separators). */
const SYSTEM_DIRS = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/opt/homebrew/bin',
  '/run/current-system/sw/bin',
  'c:/windows/system32',
  'c:/windows/system32/windowspowershell/v1.0',
  'c:/program files/git/bin',
  'c:/program files/git/usr/bin',
  'c:/program files/powershell/7',
]);
/** The node flags that make it load a module before the script (`--flag x`, `--flag=x`). */
const MODULE_FLAGS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader']);

/** Where a setting's program or module comes from: the system (nothing to say), the tree, an installed package, or outside the project. */
type ProgramPlace = 'system' | 'tree' | 'package' | 'outside';

/** A path (not a bare name) resolved from the project folder: in it, or outside it (`..` above it, absolute, home, a variable, a URL). */
function pathPlace(given: string): 'tree' | 'outside' {
  return leavesFolder(given) || given.includes('%') ? 'outside' : 'tree';
}

/** Where the program a setting names comes from (see ProgramPlace). */
function programPlace(setting: string, given: string): ProgramPlace {
  const system = SYSTEM_PROGRAMS[spelling(setting)] ?? [];
  const slash = given.replace(/\\/g, '/');
  const cut = slash.lastIndexOf('/');
  const base = slash.slice(cut + 1).toLowerCase().replace(/\.exe$/, '');
  if (/[$%~]/.test(given)) return 'outside';
  // A bare name is looked up on the PATH: the system's own program, or one nerq cannot see.
  if (cut < 0) return system.includes(base) ? 'system' : 'outside';
  if (/^(?:\/|[a-z]:\/)/i.test(slash)) return SYSTEM_DIRS.has(slash.slice(0, cut).toLowerCase()) && system.includes(base) ? 'system' : 'outside';
  return pathPlace(given);
}

/** Where a module node loads comes from: a path (`./x.js`), an installed package (`ts-node/register`), code in the setting itself (`data:`), a builtin (`node:`). */
function modulePlace(spec: string): ProgramPlace {
  if (/^node:/i.test(spec)) return 'system';
  if (/^data:/i.test(spec)) return 'tree';
  if (/[$%~]/.test(spec) || /^(?:[/\\.]|[a-z]:|[a-z][a-z0-9+.-]*:)/i.test(spec)) return pathPlace(spec);
  return 'package';
}

/**
 * The words of a NODE_OPTIONS value as node splits them (space-separated; a double-quoted part
 * keeps its spaces, a backslash in it escapes the next character), in one pass.
 */
function nodeOptionWords(value: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? '';
    if (quoted && ch === '\\' && i + 1 < value.length) {
      word += value[++i] ?? '';
    } else if (ch === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
    if (words.length >= MAX_ENTRIES) return words;
  }
  if (started) words.push(word);
  return words;
}

/** The modules a NODE_OPTIONS value makes node load (`--require x`, `-r x`, `--import=x`, `--loader x`…), with their flag. */
function loadedModules(value: string): { flag: string; spec: string }[] {
  const words = nodeOptionWords(value);
  const modules: { flag: string; spec: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const equals = word.indexOf('=');
    const flag = equals > 0 ? word.slice(0, equals) : word;
    if (!MODULE_FLAGS.has(flag)) continue;
    const spec = equals > 0 ? word.slice(equals + 1) : words[++i];
    if (spec !== undefined && spec.trim() !== '') modules.push({ flag, spec: spec.trim() });
  }
  return modules;
}

/**
 * The programs and modules a project `.npmrc` makes npm (and pnpm) run (NPMRC_PROGRAM_TEXT),
 * parsed as npm parses it (the ini package), top-level keys only: one in the tree or an installed
 * package is an `npmrc-program` warning naming it; one from outside the project, or a bare name
 * that is not the system's own program (looked up on the PATH nerq cannot see), an
 * `unvouched-hook`; a system shell, git or node-gyp named bare or by a system path, nothing.
 */
export function npmrcPrograms(text: string, file: string): SettingsResult {
  const parsed = ini.parse(text) as Record<string, unknown>;
  const lines = topLevelKeyLines(text, [...NPMRC_PROGRAM_KEYS, NODE_OPTIONS_KEY]);
  const settings = [...NPMRC_PROGRAM_KEYS, NODE_OPTIONS_KEY].filter((key) => Object.hasOwn(parsed, key)).map((key) => ({ setting: key, value: parsed[key], line: lines.get(key) ?? null }));
  return programsNamed(settings, file, 'npmrc');
}

/** The findings of the programs and modules settings name (see npmrcPrograms), for `.npmrc` (npm) or pnpm-workspace.yaml (pnpm). */
function programsNamed(settings: readonly { setting: string; value: unknown; line: number | null }[], file: string, kind: 'npmrc' | 'pnpm-program'): SettingsResult {
  const result = emptyResult();
  const hooks: HookPlace[] = [];
  const manager = MANAGER[kind];
  const named = (setting: string, line: number | null, program: string, place: ProgramPlace, flag: string | null) => {
    if (place === 'system') return;
    if (place === 'outside') {
      hooks.push({ hook: program, file, line, kind, setting });
      return;
    }
    const from = place === 'package' ? 'an installed package nerq audits as a dependency, not as code run at every script' : 'a file in the tree nerq does not evaluate';
    result.findings.push({
      code: 'npmrc-program',
      message: `${file}:${line ?? '?'}: ${programText(setting, manager)} ${quote(program)} (${setting}${flag === null ? '' : ` ${flag}`}): ${from}`,
      details: { file, line, setting, program, place, flag },
    });
  };
  for (const { setting, value, line } of settings) {
    for (const given of namedFiles(value)) {
      if (spelling(setting) !== NODE_OPTIONS_KEY) named(setting, line, given, programPlace(setting, given), null);
      else for (const { flag, spec } of loadedModules(given)) named(setting, line, spec, modulePlace(spec), flag);
    }
  }
  result.findings.push(...hookFindings(hooks));
  return result;
}

/**
 * The `yarn-path` a yarn classic (v1) `.yarnrc` names: the file yarn 1 runs in place of itself,
 * as berry's `yarnPath`. The file is read line by line, as yarn 1 reads it: a top-level
 * `yarn-path` followed by its value, quoted (`"./x.js"`) or not (`./x.js`); comments (`#`) and
 * every other line (`--install.frozen-lockfile true`, `registry "…"`) are left alone. In the tree,
 * a `yarn-release` warning; outside it, an `unvouched-hook`.
 */
export function yarnClassicSettings(bomText: string, file: string): SettingsResult {
  // yarn 1 strips a byte-order mark before it parses the file (its lockfile parser's stripBOM).
  const text = bomText.replace(/^\ufeff/, '');
  const result = emptyResult();
  const hooks: HookPlace[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length && line < MAX_LINES) {
    const end = text.indexOf('\n', start);
    const raw = text.slice(start, end < 0 ? text.length : end);
    start = end < 0 ? text.length + 1 : end + 1;
    line++;
    const release = yarnPathValue(raw);
    if (release === null) continue;
    if (pathPlace(release) === 'outside') hooks.push({ hook: release, file, line, kind: 'yarn-path', setting: 'yarn-path' });
    else {
      result.findings.push({
        code: 'yarn-release',
        message: `${file}:${line}: yarn 1 runs ${quote(release)} in place of itself on every command (yarn-path): nerq does not compare the file in the tree with a published yarn release`,
        details: { file, line, release },
      });
    }
  }
  result.findings.push(...hookFindings(hooks));
  return result;
}

/** How many lines of a `.yarnrc` are read (an untrusted file: the walk stays bounded). */
const MAX_LINES = 100_000;

/** The value of a top-level `yarn-path` line (`yarn-path "x"`, `"yarn-path" x`, `yarn-path x`), or null. */
function yarnPathValue(raw: string): string | null {
  const line = raw.replace(/\r$/, '');
  const key = /^"?yarn-path"?[ \t]+/.exec(line);
  if (key === null) return null;
  let value = line.slice(key[0].length).trim();
  if (value.startsWith('"')) {
    try {
      value = JSON.parse(value) as string;
    } catch {
      value = value.slice(1, value.endsWith('"') && value.length > 1 ? -1 : undefined);
    }
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
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
    if (leavesFolder(release)) hooks.push({ hook: release, file, line, kind: 'yarn-path', setting: 'yarnPath' });
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

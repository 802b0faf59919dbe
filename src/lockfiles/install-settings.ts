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
 *   the registry published does not have it); a `pnpmfile` setting names a hook file.
 * - yarn berry's `.yarnrc.yml` `packageExtensions`, read the same way.
 * - A pnpmfile (`.pnpmfile.cjs`, `.pnpmfile.mjs`, or the file the `pnpmfile` setting names):
 *   its `readPackage` hook may rewrite any package's manifest at install time, so the graph the
 *   lockfile records was shaped by code nerq does not evaluate: an `unvouched-hook` finding
 *   (the run is incomplete, as with an unvouched remote). The file is never read or run.
 *
 * Pure: the texts come from the context (src/audit/detect.ts reads them).
 */
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

/** A hook file pnpm runs, and where the project says so (the file itself, or the `pnpmfile` setting's line). */
interface HookPlace {
  hook: string;
  file: string;
  line: number | null;
}

/** One `unvouched-hook` finding per hook file. */
export function hookFindings(hooks: readonly HookPlace[]): AuditWarning[] {
  const seen = new Set<string>();
  return hooks.flatMap(({ hook, file, line }) => {
    if (seen.has(hook)) return [];
    seen.add(hook);
    return [
      {
        code: 'unvouched-hook',
        message: `${file}${line === null ? '' : `:${line}`}: pnpm runs the hooks of ${quote(hook)} at install (readPackage may rewrite any package's manifest): the dependency graph was shaped by code nerq does not evaluate`,
        details: { file, line, hook },
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
  const pnpmfiles = (Array.isArray(root.pnpmfile) ? root.pnpmfile : [root.pnpmfile])
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => ({ hook: p.trim(), file, line: yaml.lineOf(['pnpmfile']) }));
  return { ...result, aliases, pnpmfiles };
}

/** The entries a yarn berry `.yarnrc.yml` adds (its `packageExtensions`); a file that is not YAML adds a note only (yarn itself refuses it). */
export function yarnrcSettings(text: string, file: string): SettingsResult {
  const result = emptyResult();
  let yaml: ParsedYaml;
  try {
    yaml = parseYaml(text, file);
  } catch (error) {
    result.notes.push(`${file}: not read for packageExtensions: ${error instanceof Error ? error.message : String(error)}`);
    return result;
  }
  const root = isObject(yaml.value) ? yaml.value : {};
  extensions(yaml, root.packageExtensions, file, 'yarn', result, remoteAdder(result, file));
  return result;
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

/**
 * `package.json`: the manifest as an input of its own (ranges only: `version` is null unless
 * the range is one exact version, and the resolver picks the version later; the root's
 * `overrides`, `resolutions` and `pnpm.overrides` replace what they name), and the
 * manifest reading the npm-family lockfile readers share to decide which dependencies are
 * direct or dev and on which line a workspace declares them.
 */
import semver from 'semver';
import { z } from 'zod';
import { planDependency } from '../ecosystems/npm/dependency-plan.js';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { parseJson } from './json-text.js';
import { npmSourceKind, skippedEntry } from './source-kind.js';
import { baseName, dirOf, joinPath, quote } from './text.js';
import type { InputContext, InputReader } from './types.js';
import { validateShape } from './validate.js';

export type DeclarationGroup = 'prod' | 'dev' | 'optional' | 'peer';

/** One `dependencies`-style entry of a manifest. */
export interface ManifestDeclaration {
  /** The key as written (an alias's own name for `npm:` aliases). */
  key: string;
  spec: string;
  group: DeclarationGroup;
  line: number;
}

/**
 * One override a manifest makes: npm's `overrides` (nested objects too; `.` is the parent's own
 * version), yarn's `resolutions`, pnpm's `pnpm.overrides`. The package manager installs `spec`
 * wherever `target` is in the tree.
 */
export interface ManifestOverride {
  /** The package the override replaces: the last name of its key (`a>b`, `a/b`, `b@^1` are `b`; yarn's `**` globs too). */
  target: string;
  spec: string;
  line: number;
}

export interface Manifest {
  file: string;
  name: string | null;
  /** Workspace patterns, or null when the manifest declares none. */
  workspaces: string[] | null;
  declarations: ManifestDeclaration[];
  overrides: ManifestOverride[];
}

const DependencyMap = z.record(z.string(), z.string());
const ManifestShape = z.object({
  name: z.string().optional(),
  dependencies: DependencyMap.optional(),
  devDependencies: DependencyMap.optional(),
  optionalDependencies: DependencyMap.optional(),
  peerDependencies: DependencyMap.optional(),
  workspaces: z.union([z.array(z.string()), z.object({ packages: z.array(z.string()).optional() })]).optional(),
});

const GROUPS: readonly [keyof z.infer<typeof ManifestShape>, DeclarationGroup][] = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
  ['devDependencies', 'dev'],
];

/** Parse a `package.json`; throws `LockfileError` when it is not one. */
export function parseManifest(text: string, file: string): Manifest {
  const { value, lineOf } = parseJson(text, file, { depth: 2 });
  const shape = validateShape(ManifestShape, value, file, lineOf);
  const declarations: ManifestDeclaration[] = [];
  for (const [field, group] of GROUPS) {
    for (const [key, spec] of Object.entries(shape[field] ?? {})) {
      if (typeof spec === 'string') declarations.push({ key, spec, group, line: lineOf([field, key]) });
    }
  }
  const workspaces = shape.workspaces === undefined ? null : Array.isArray(shape.workspaces) ? shape.workspaces : (shape.workspaces.packages ?? []);
  return { file, name: shape.name ?? null, workspaces, declarations, overrides: overridesOf(value, lineOf) };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How many override entries are read (a manifest is untrusted: the walk stays bounded). */
const MAX_OVERRIDES = 10_000;
const MAX_OVERRIDE_DEPTH = 32;

/** The package name a selector ends with: `b` of `a>b`, `a/b`, `b@^1`; `@s/b` of `x/@s/b@1`. */
export function overrideTarget(selector: string, separator: '>' | '/'): string {
  let last = selector.slice(selector.lastIndexOf(separator) + 1);
  if (separator === '/') {
    const parts = selector.split('/');
    const before = parts[parts.length - 2];
    if (before?.startsWith('@') === true) last = `${before}/${last}`;
  }
  const at = last.indexOf('@', 1);
  return at === -1 ? last : last.slice(0, at);
}

/** The overrides of a parsed manifest (see ManifestOverride); values that are not strings are passed over. */
function overridesOf(manifest: unknown, lineOf: (path: readonly PropertyKey[]) => number): ManifestOverride[] {
  if (!isObject(manifest)) return [];
  const found: ManifestOverride[] = [];
  const add = (target: string, spec: unknown, path: readonly PropertyKey[]) => {
    if (typeof spec === 'string' && target !== '' && found.length < MAX_OVERRIDES) found.push({ target, spec, line: lineOf(path) });
  };
  // npm: a key is `name` or `name@range`; an object value overrides inside that package, its `.` the package itself.
  const npm = (table: Record<string, unknown>, path: readonly PropertyKey[], parent: string, depth: number) => {
    for (const [key, value] of Object.entries(table)) {
      if (found.length >= MAX_OVERRIDES) return;
      const target = key === '.' ? parent : overrideTarget(key, '/');
      if (isObject(value)) {
        if (depth < MAX_OVERRIDE_DEPTH) npm(value, [...path, key], target, depth + 1);
      } else add(target, value, [...path, key]);
    }
  };
  if (isObject(manifest.overrides)) npm(manifest.overrides, ['overrides'], '', 0);
  if (isObject(manifest.resolutions)) {
    for (const [key, value] of Object.entries(manifest.resolutions)) add(overrideTarget(key, '/'), value, ['resolutions', key]);
  }
  const pnpm = isObject(manifest.pnpm) && isObject(manifest.pnpm.overrides) ? manifest.pnpm.overrides : {};
  for (const [key, value] of Object.entries(pnpm)) add(overrideTarget(key, '>'), value, ['pnpm', 'overrides', key]);
  return found;
}

/** The manifest at `<root>/<workspace>/package.json` from the context, parsed; null when not given. */
export function manifestAt(context: InputContext | undefined, rootDir: string, workspace: string): Manifest | null {
  const file = joinPath(rootDir, workspace, 'package.json');
  const text = context?.manifests?.[file];
  return text === undefined ? null : parseManifest(text, file);
}

/**
 * The workspace manifests the context holds for a project rooted at `rootDir`: every
 * `package.json` under it other than the root one, with its directory relative to the root.
 */
export function workspaceManifests(context: InputContext | undefined, rootDir: string): { dir: string; manifest: Manifest }[] {
  const rootFile = joinPath(rootDir, 'package.json');
  return Object.entries(context?.manifests ?? {})
    .filter(([file]) => baseName(file) === 'package.json' && file !== rootFile && isUnder(rootDir, file))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, text]) => ({ dir: relativeTo(rootDir, dirOf(file)), manifest: parseManifest(text, file) }));
}

/** The line a manifest declares `key` on, preferring the given group. */
export function declarationLine(manifest: Manifest | null, key: string, group?: DeclarationGroup): number | null {
  if (manifest === null) return null;
  const matches = manifest.declarations.filter((d) => d.key === key);
  return (matches.find((d) => d.group === group) ?? matches[0])?.line ?? null;
}

function isUnder(dir: string, file: string): boolean {
  return dir === '.' || file.startsWith(`${dir}/`);
}

function relativeTo(dir: string, path: string): string {
  if (dir === '.') return path;
  return path === dir ? '.' : path.slice(dir.length + 1);
}

/** The exact version a registry spec pins, or null for a range or tag. */
export function exactVersion(spec: string): string | null {
  return semver.valid(spec) === null ? null : (semver.clean(spec) ?? null);
}

/** Reader for a `package.json` alone (and, for a workspace root, its workspaces' manifests from the context). */
export const readPackageJson: InputReader = defineReader((text, file, context) => {
  const root = parseManifest(text, file);
  const rootDir = dirOf(file);
  const members = root.workspaces !== null ? workspaceManifests(context, rootDir) : [];
  const workspace = root.workspaces !== null;
  const localNames = new Set([root.name, ...members.map((m) => m.manifest.name)].filter((n): n is string => n !== null));
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const dependencies: DeclaredDependency[] = [];
  // The root's overrides replace a package wherever it is in the tree (npm `$name` refers back to
  // the declared spec, pnpm's `-` removes the dependency: neither brings other code).
  const overrides = new Map(root.overrides.filter((o) => o.spec.trim() !== '' && !o.spec.startsWith('$') && o.spec !== '-').map((o) => [o.target, o]));
  const applied = new Set<string>();
  for (const { dir, manifest } of [{ dir: '.', manifest: root }, ...members]) {
    for (const declaration of manifest.declarations) {
      // Peers are the consumer's to install; workspace siblings are the project itself.
      if (declaration.group === 'peer' || localNames.has(declaration.key)) continue;
      const override = overrides.get(declaration.key);
      if (override !== undefined) applied.add(declaration.key);
      const spec = override?.spec ?? declaration.spec;
      const at = override === undefined ? { file: manifest.file, line: declaration.line } : { file: root.file, line: override.line };
      const plan = planDependency(declaration.key, spec);
      if (plan.kind === 'skip') {
        const note = `${at.file}:${at.line}: ${quote(declaration.key)} skipped: ${plan.reason}${override === undefined ? '' : ' (an override)'}`;
        notes.push(note);
        const kind = npmSourceKind(spec);
        if (kind !== null) skipped.push(skippedEntry('npm', declaration.key, at.file, at.line, kind, note, { direct: true, dev: declaration.group === 'dev' }));
        continue;
      }
      dependencies.push({
        ecosystem: 'npm',
        name: plan.name,
        version: exactVersion(plan.spec),
        spec: plan.spec,
        direct: true,
        dev: declaration.group === 'dev',
        file: at.file,
        line: at.line,
        workspace: workspace ? dir : null,
        resolved: null,
      });
    }
  }
  // An override of a package deeper in the tree that fetches code from outside the registry, or
  // another package under the name (an `npm:` alias): code the tree installs that no declaration shows.
  for (const override of overrides.values()) {
    if (applied.has(override.target)) continue;
    const plan = planDependency(override.target, override.spec);
    if (plan.kind === 'skip') {
      const note = `${root.file}:${override.line}: ${quote(override.target)} skipped: ${plan.reason} (an override)`;
      notes.push(note);
      const kind = npmSourceKind(override.spec);
      if (kind !== null) skipped.push(skippedEntry('npm', override.target, root.file, override.line, kind, note));
    } else if (plan.name !== override.target) {
      dependencies.push({ ecosystem: 'npm', name: plan.name, version: exactVersion(plan.spec), spec: plan.spec, direct: false, dev: false, file: root.file, line: override.line, workspace: null, resolved: null });
    }
  }
  return { file, format: 'package.json', dependencies, notes, skipped };
});

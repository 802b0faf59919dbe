/**
 * `package.json`: the manifest as an input of its own (ranges only: `version` is null unless
 * the range is one exact version, and the resolver picks the version later), and the
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

export interface Manifest {
  file: string;
  name: string | null;
  /** Workspace patterns, or null when the manifest declares none. */
  workspaces: string[] | null;
  declarations: ManifestDeclaration[];
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
  return { file, name: shape.name ?? null, workspaces, declarations };
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
  for (const { dir, manifest } of [{ dir: '.', manifest: root }, ...members]) {
    for (const declaration of manifest.declarations) {
      // Peers are the consumer's to install; workspace siblings are the project itself.
      if (declaration.group === 'peer' || localNames.has(declaration.key)) continue;
      const plan = planDependency(declaration.key, declaration.spec);
      if (plan.kind === 'skip') {
        const note = `${manifest.file}:${declaration.line}: ${quote(declaration.key)} skipped: ${plan.reason}`;
        notes.push(note);
        const kind = npmSourceKind(declaration.spec);
        if (kind !== null) skipped.push(skippedEntry('npm', declaration.key, manifest.file, declaration.line, kind, note, { direct: true, dev: declaration.group === 'dev' }));
        continue;
      }
      dependencies.push({
        ecosystem: 'npm',
        name: plan.name,
        version: exactVersion(plan.spec),
        spec: plan.spec,
        direct: true,
        dev: declaration.group === 'dev',
        file: manifest.file,
        line: declaration.line,
        workspace: workspace ? dir : null,
        resolved: null,
      });
    }
  }
  return { file, format: 'package.json', dependencies, notes, skipped };
});

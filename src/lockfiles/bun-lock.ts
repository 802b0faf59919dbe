/**
 * `bun.lock`, bun's text lockfile (JSONC: trailing commas allowed). `workspaces` holds each
 * workspace's manifest dependencies (`""` is the root); `packages` maps an install path to
 * `["name@version", registry, info, integrity]`. Paths nest like node_modules (`debug/ms` is
 * the `ms` that `debug` gets; `<workspace name>/chalk` a workspace's own copy), so a
 * dependency resolves by walking up the path. Dev = not reachable from a production root.
 * Workspace, git, GitHub, tarball, `file:` and `link:` packages are skipped (with a note,
 * except workspaces, which are the project). The binary `bun.lockb` is not read.
 *
 * A package another one bundles in its tarball (`"bundled": true` in its info, under the
 * bundling package's path) is installed from that tarball, not from the registry
 * (docs/security.md, "Bundled dependencies"): it is not read as a registry release but listed
 * in the bundling package's `bundled`, with a note. It stays a node of the graph.
 *
 * A release `patchedDependencies` names (`"name@version": "patches/….patch"`) is the registry
 * release with the project's patch applied on top: read as that release, with the patch and a
 * note (docs/security.md).
 */
import { lockedVersion } from './npm-version.js';
import { z } from 'zod';
import type { BundledRef, DeclaredDependency, PatchRef, SkippedEntry } from '../audit/types.js';
import { bundledNote } from './bundled.js';
import { defineReader } from './define-reader.js';
import { chainsFrom, graphStanding, reachable, withVia } from './graph.js';
import { parseJson } from './json-text.js';
import { Attribution, type RootDeclaration } from './npm-attribution.js';
import type { DeclarationGroup } from './package-json.js';
import { npmSourceKind, skippedEntry } from './source-kind.js';
import { dirOf, quote } from './text.js';
import type { InputReader } from './types.js';
import { validateShape } from './validate.js';

const Deps = z.record(z.string(), z.string());
const Workspace = z.object({
  name: z.string().optional(),
  dependencies: Deps.optional(),
  devDependencies: Deps.optional(),
  optionalDependencies: Deps.optional(),
  peerDependencies: Deps.optional(),
});
type Workspace = z.infer<typeof Workspace>;
const Info = z.object({
  dependencies: Deps.optional(),
  optionalDependencies: Deps.optional(),
  peerDependencies: Deps.optional(),
  bundled: z.boolean().optional(),
});
const BunLock = z.object({
  lockfileVersion: z.number().int(),
  workspaces: z.record(z.string(), Workspace).optional(),
  packages: z.record(z.string(), z.array(z.unknown()).min(1)).optional(),
  /** `name@version` → the project's patch file, applied to that release when bun installs it. */
  patchedDependencies: z.record(z.string(), z.string()).optional(),
});

const WORKSPACE_GROUPS: readonly [keyof Workspace, DeclarationGroup][] = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
  ['devDependencies', 'dev'],
];

interface Node {
  key: string;
  name: string;
  /** Null for a package no registry serves: a node of the graph, not a package to audit. */
  version: string | null;
  registry: string | null;
  integrity: string | null;
  info: z.infer<typeof Info>;
}

export const readBunLock: InputReader = defineReader((text, file, context) => {
  const { value, lineOf } = parseJson(text, file, { jsonc: true, depth: 2 });
  const lock = validateShape(BunLock, value, file, lineOf);
  const packages = lock.packages ?? {};
  const workspaces = lock.workspaces ?? {};

  const notes: string[] = [];
  const nodes = new Map<string, Node>();
  // Each skipped entry with the node standing for it, so the graph says whether it is direct or dev.
  const foreign: { node: Node; entry: SkippedEntry }[] = [];
  for (const [key, tuple] of Object.entries(packages)) {
    const ident = tuple[0];
    if (typeof ident !== 'string') validateShape(z.string(), ident, file, () => lineOf(['packages', key, 0]));
    const at = String(ident).indexOf('@', 1);
    const name = at < 0 ? String(ident) : String(ident).slice(0, at);
    const reference = at < 0 ? '' : String(ident).slice(at + 1);
    if (reference.startsWith('workspace:') || reference.startsWith('root:')) continue;
    const version = lockedVersion(reference);
    if (version === null) {
      const line = lineOf(['packages', key]);
      const note = `${file}:${line}: ${quote(name)} skipped: not a registry package`;
      // A version npm cannot read (`latest`, `^4.1.0`) fetched from a registry URL the lockfile
      // names: code nerq cannot place, like a URL (docs/security.md, "Lockfile injection").
      const kind = npmSourceKind(reference) ?? (typeof tuple[1] === 'string' && tuple[1] !== '' ? npmSourceKind(tuple[1]) : null);
      if (kind === null) {
        notes.push(note);
        continue;
      }
      // A git, GitHub or tarball package's dependencies come second: `[ident, info, …]`.
      const info = Info.safeParse(tuple[1] ?? {});
      const node: Node = { key, name, version: null, registry: null, integrity: null, info: info.success ? info.data : {} };
      nodes.set(key, node);
      foreign.push({ node, entry: skippedEntry('npm', name, file, line, kind, note) });
      continue;
    }
    const info = validateShape(Info, tuple[2] ?? {}, file, (path) => lineOf(['packages', key, 2, ...path]));
    const registry = typeof tuple[1] === 'string' && tuple[1] !== '' ? tuple[1] : null;
    const integrity = typeof tuple[3] === 'string' && tuple[3] !== '' ? tuple[3] : null;
    nodes.set(key, { key, name, version, registry, integrity, info });
  }

  const resolve = (fromPath: string[], dependency: string): Node | undefined => {
    for (let depth = fromPath.length; depth >= 0; depth -= 1) {
      const found = nodes.get([...fromPath.slice(0, depth), dependency].join('/'));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const edges = (node: Node): Node[] => {
    const path = splitPath(node.key);
    const { dependencies, optionalDependencies, peerDependencies } = node.info;
    return Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies }).flatMap((d) => resolve(path, d) ?? []);
  };

  const workspaceProject = Object.keys(workspaces).some((dir) => dir !== '');
  const declared = new Map<Node, RootDeclaration[]>();
  const prodRoots: Node[] = [];
  for (const [dir, workspace] of Object.entries(workspaces)) {
    // A workspace's own copies live under its package name.
    const from = dir === '' || workspace.name === undefined ? [] : [workspace.name];
    for (const [field, group] of WORKSPACE_GROUPS) {
      for (const key of Object.keys(workspace[field] ?? {})) {
        const node = resolve(from, key);
        if (node === undefined) continue;
        const list = declared.get(node) ?? [];
        list.push({ workspace: dir === '' ? '.' : dir, key, group });
        declared.set(node, list);
        if (group !== 'dev') prodRoots.push(node);
      }
    }
  }
  const prod = reachable(prodRoots, edges);
  const chains = chainsFrom(declared.keys(), edges, (node) => node.name);

  const bundles = bundledBy(nodes, file, lineOf);
  const attribution = new Attribution(file, dirOf(file), workspaceProject, context);
  const dependencies: DeclaredDependency[] = [];
  for (const node of nodes.values()) {
    // Bundled in a package's tarball: its code is that package's, not a registry release's.
    if (node.version === null || bundles.inBundle.has(node)) continue;
    const line = lineOf(['packages', node.key]);
    const entries = attribution.entries(
      { name: node.name, version: node.version, dev: !prod.has(node), line, resolved: node.registry, integrity: node.integrity },
      declared.get(node) ?? [],
    );
    const id = `${node.name}@${node.version}`;
    const bundled = bundles.of.get(node);
    if (bundled !== undefined) notes.push(bundledNote(file, line, id, bundled));
    // A patched release is the registry release plus the project's own patch.
    const patchPath = Object.hasOwn(lock.patchedDependencies ?? {}, id) ? lock.patchedDependencies?.[id] : undefined;
    const patches: PatchRef[] | undefined = patchPath === undefined ? undefined : [{ path: patchPath, file, line }];
    if (patchPath !== undefined) notes.push(`${file}:${line}: ${quote(id)} is the registry release with the project's patch ${quote(patchPath)} applied`);
    dependencies.push(
      ...withVia(entries, chains.get(node))
        .map((d) => (bundled === undefined ? d : { ...d, bundled }))
        .map((d) => (patches === undefined ? d : { ...d, patches })),
    );
  }
  // Without `workspaces` the lockfile names no root: then neither flag is known.
  // A workspace's entry is reported where its package.json declares it, as its packages are.
  const skipped = foreign.map(({ node, entry }) => attribution.placed(lock.workspaces === undefined ? entry : { ...entry, ...graphStanding(node, declared, prod) }, declared.get(node) ?? []));
  notes.push(...skipped.map((entry) => entry.note));
  return { file, format: `bun.lock@${lock.lockfileVersion}`, dependencies, notes, skipped };
});

/**
 * The packages each package bundles, and the bundled nodes. A `bundled` node belongs to its
 * nearest ancestor on its path that is not itself bundled; without one (a top-level key, or a
 * workspace's own copy) it is read as usual.
 */
function bundledBy(nodes: Map<string, Node>, file: string, lineOf: (path: readonly PropertyKey[]) => number): { of: Map<Node, BundledRef[]>; inBundle: Set<Node> } {
  const of = new Map<Node, BundledRef[]>();
  const inBundle = new Set<Node>();
  for (const node of nodes.values()) {
    if (node.info.bundled !== true) continue;
    let path = splitPath(node.key).slice(0, -1);
    let holder = path.length === 0 ? undefined : nodes.get(path.join('/'));
    while (holder !== undefined && holder.info.bundled === true) {
      path = path.slice(0, -1);
      holder = path.length === 0 ? undefined : nodes.get(path.join('/'));
    }
    if (holder === undefined) continue;
    inBundle.add(node);
    // A package no registry serves (git, a URL) is an unvouched entry with everything it bundles.
    if (holder.version === null) continue;
    const list = of.get(holder) ?? [];
    list.push({ name: node.name, version: node.version, file, line: lineOf(['packages', node.key]) });
    of.set(holder, list);
  }
  return { of, inBundle };
}

/** `@scope/a/b` → [`@scope/a`, `b`]: install paths are package names joined by `/`. */
function splitPath(key: string): string[] {
  const parts = key.split('/');
  const names: string[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    if (part.startsWith('@') && i + 1 < parts.length) {
      names.push(`${part}/${parts[i + 1]}`);
      i += 1;
    } else names.push(part);
  }
  return names;
}

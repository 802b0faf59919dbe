/**
 * `package-lock.json` / `npm-shrinkwrap.json`, lockfile v1 (nested `dependencies`) and v2/v3
 * (`packages` keyed by install path).
 *
 * v2/v3: every `node_modules/…` entry is a locked package (name from the entry's `name` for
 * aliases, else from the path after the last `node_modules/`), its key read as npm reads it, a
 * normalised path (one npm could read as no install path in the project, or two keys for one
 * path, are unplaced entries: docs/security.md, "Lockfile injection"); `dev: true` marks a
 * dev-only package only where the dependency graph agrees (npm computes dev-ness from the
 * graph: a flag on a package production code needs is not believed); `devOptional` ones are
 * also installed as optional dependencies of production code, so they are not dev;
 * `link: true` entries (workspaces, `file:` links) and the root are the project itself. An
 * entry without a version is re-resolved by npm: unplaced, the run incomplete. Direct = what
 * the root entry `packages[""]` and, in a workspace project, each workspace entry declare,
 * resolved from that folder the way Node does.
 *
 * v1: the nested tree says nothing about which packages are direct: the sibling
 * `package.json` from the context does; without it, the top-level packages no other package
 * requires are taken as direct (a note says so). `dev` counts, as in v2/v3, only where no
 * `requires` path reaches the entry from the production roots.
 *
 * Entries that do not come from a registry are skipped with a note and recorded as remote (git,
 * a tarball URL a manifest names) or local (a path, a `file:` link) — source-kind.ts.
 *
 * A dependency another package bundles (v2/v3 `inBundle`, v1 `bundled`, under an installed
 * package's folder) is installed from that package's tarball, not from the registry
 * (docs/security.md, "Bundled dependencies"): it is not read as the registry release of its
 * version but listed in the bundling package's `bundled`, with a note. One that names a
 * `resolved` is also read as usual: npm fetches it from there when the bundle lacks it. The
 * project's (or a workspace's) own bundled dependencies are installed from the registry.
 */
import { lockedVersion } from './npm-version.js';
import { z } from 'zod';
import { LockfileError, type DeclaredDependency } from '../audit/types.js';
import { chainsFrom, reachable, unreferenced } from './graph.js';
import { parseJson } from './json-text.js';
import { Attribution, type RootDeclaration } from './npm-attribution.js';
import { manifestAt, type DeclarationGroup } from './package-json.js';
import { npmSourceKind, skippedEntry, unplacedSource, withDeclaredNames, type SourceKind } from './source-kind.js';
import { baseName, dirOf, joinPath, quote } from './text.js';
import type { InputContext, InputReader, ParsedInput } from './types.js';
import type { BundledRef, SkippedEntry } from '../audit/types.js';
import { bundledNote } from './bundled.js';
import { defineReader } from './define-reader.js';
import { validateShape } from './validate.js';

const Deps = z.record(z.string(), z.string());
/**
 * `resolved`: npm 6 wrote `"resolved": false` for some entries (the bundled dependencies of
 * fsevents 1.x, among others) — no location, as if the field were absent, which is how it is read.
 */
const Resolved = z.preprocess((v) => (v === false ? undefined : v), z.string().optional());
type LineOf = (path: readonly PropertyKey[]) => number;

const PackageEntry = z.object({
  name: z.string().optional(),
  version: z.string().optional(),
  resolved: Resolved,
  integrity: z.string().optional(),
  dev: z.boolean().optional(),
  link: z.boolean().optional(),
  inBundle: z.boolean().optional(),
  dependencies: Deps.optional(),
  devDependencies: Deps.optional(),
  optionalDependencies: Deps.optional(),
  peerDependencies: Deps.optional(),
  workspaces: z.unknown().optional(),
});
type PackageEntry = z.infer<typeof PackageEntry>;

interface V1Entry {
  version?: string | undefined;
  resolved?: string | undefined;
  integrity?: string | undefined;
  dev?: boolean | undefined;
  bundled?: boolean | undefined;
  requires?: Record<string, string> | undefined;
  dependencies?: Record<string, V1Entry> | undefined;
}
const V1Entry: z.ZodType<V1Entry> = z.lazy(() =>
  z.object({
    version: z.string().optional(),
    resolved: Resolved,
    integrity: z.string().optional(),
    dev: z.boolean().optional(),
    bundled: z.boolean().optional(),
    requires: Deps.optional(),
    dependencies: z.record(z.string(), V1Entry).optional(),
  }),
);

const Header = z.object({ lockfileVersion: z.number().int().positive().optional() });
const PackagesLock = z.object({ packages: z.record(z.string(), PackageEntry) });
const V1Lock = z.object({ dependencies: z.record(z.string(), V1Entry).optional() });

const GROUP_FIELDS: readonly [keyof PackageEntry, DeclarationGroup][] = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
  ['devDependencies', 'dev'],
];

export const readPackageLock: InputReader = defineReader((text, file, context) => {
  // v2/v3 need lines two levels deep (`packages` → `node_modules/x`); v1's nested tree asks for deeper ones.
  const { value, lineOf } = parseJson(text, file, { depth: 2 });
  const { lockfileVersion } = validateShape(Header, value, file, lineOf);
  const kind = baseName(file) === 'npm-shrinkwrap.json' ? 'npm-shrinkwrap' : 'package-lock';
  const hasPackages = typeof value === 'object' && value !== null && 'packages' in value;
  if (lockfileVersion !== undefined && lockfileVersion >= 2 && hasPackages) {
    const lock = validateShape(PackagesLock, value, file, lineOf);
    return readPackages(lock.packages, lineOf, file, `${kind}@${lockfileVersion}`, context);
  }
  if (lockfileVersion !== undefined && lockfileVersion >= 3) throw new LockfileError(file, lineOf(['lockfileVersion']), 'lockfile v3 without a "packages" map');
  const lock = validateShape(V1Lock, value, file, lineOf);
  return readV1(lock.dependencies ?? {}, lineOf, file, `${kind}@${lockfileVersion ?? 1}`, context);
});

function isInstallPath(key: string): boolean {
  return key.startsWith('node_modules/') || key.includes('/node_modules/');
}

function nameFromPath(key: string): string {
  return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/**
 * A `packages` key as npm reads it, a path: normalised (`node_modules/./a`, `node_modules/a/`,
 * `node_modules//a`, `node_modules/x/../a` are all `node_modules/a`). Null when it reads as no
 * folder in the project's `node_modules` (it leaves the project, ends at a folder that is not an
 * install path, or has a backslash, a separator to npm on Windows): docs/security.md,
 * "Lockfile injection". A key already in that form (a workspace's, a link target's) is kept.
 */
function normalisedKey(key: string): string | null {
  if (key === '') return '';
  if (key.includes('\\')) return null;
  const absolute = key.startsWith('/');
  const path = `${absolute ? '/' : ''}${joinPath(key)}`;
  if (path === key) return key;
  if (absolute || path === '.' || path === '..' || path.startsWith('../') || !isInstallPath(path)) return null;
  return path;
}

interface UnreadableKey {
  key: string;
  entry: PackageEntry;
  reason: string;
}

/**
 * The entries by normalised key, the key each was written under (for its line), and the entries
 * whose key npm reads as no install path nerq can place, or as a path another key also names.
 */
function byInstallPath(raw: Record<string, PackageEntry>): { packages: Record<string, PackageEntry>; writtenAs: Map<string, string>; unreadable: UnreadableKey[] } {
  const keysOf = new Map<string, string[]>();
  const unreadable: UnreadableKey[] = [];
  for (const [key, entry] of Object.entries(raw)) {
    const path = normalisedKey(key);
    if (path === null) {
      const reason = key.includes('\\') ? 'the install path has a backslash (a separator to npm on Windows)' : 'the install path is outside the project\'s node_modules';
      unreadable.push({ key, entry, reason });
      continue;
    }
    keysOf.set(path, [...(keysOf.get(path) ?? []), key]);
  }
  const packages: Record<string, PackageEntry> = Object.create(null) as Record<string, PackageEntry>;
  const writtenAs = new Map<string, string>();
  for (const [path, keys] of keysOf) {
    if (keys.length > 1) {
      for (const key of keys) unreadable.push({ key, entry: raw[key] as PackageEntry, reason: `the install path ${quote(path)} is written more than once` });
      continue;
    }
    packages[path] = raw[keys[0] as string] as PackageEntry;
    writtenAs.set(path, keys[0] as string);
  }
  return { packages, writtenAs, unreadable };
}

/**
 * Where an entry npm cannot read is installed from: its `resolved` when npm can tell one, else
 * re-resolved by npm from the registry (a release nerq never saw): no host to name, the
 * lockfile key as its source.
 */
function unreadableSource(entry: PackageEntry, key: string): SourceKind {
  return (entry.resolved === undefined ? null : npmSourceKind(entry.resolved)) ?? unplacedSource(key);
}

/** The entry Node would load for `name` required from the folder `from` (`''` for the root). */
function resolveFrom(packages: Record<string, PackageEntry>, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (dir === '') return null;
    const slash = dir.lastIndexOf('/');
    dir = slash < 0 ? '' : dir.slice(0, slash);
  }
}

function readPackages(
  written: Record<string, PackageEntry>,
  writtenLineOf: LineOf,
  file: string,
  format: string,
  context: InputContext | undefined,
): ParsedInput {
  const { packages, writtenAs, unreadable } = byInstallPath(written);
  const lineOf: LineOf = (path) => (path[0] === 'packages' && typeof path[1] === 'string' ? writtenLineOf(['packages', writtenAs.get(path[1]) ?? path[1], ...path.slice(2)]) : writtenLineOf(path));
  const root = packages[''] ?? {};
  const workspaceProject = root.workspaces !== undefined;
  const workspaces = workspaceProject
    ? Object.keys(packages).filter((key) => key !== '' && !isInstallPath(key) && !key.startsWith('../') && !key.startsWith('/'))
    : [];
  const declared = new Map<string, RootDeclaration[]>();
  for (const workspace of ['', ...workspaces]) {
    const entry = packages[workspace];
    if (entry === undefined) continue;
    for (const [field, group] of GROUP_FIELDS) {
      const deps = entry[field];
      if (typeof deps !== 'object' || deps === null) continue;
      for (const key of Object.keys(deps)) {
        const target = resolveFrom(packages, workspace, key);
        if (target === null) continue;
        const list = declared.get(target) ?? [];
        list.push({ workspace: workspace === '' ? '.' : workspace, key, group });
        declared.set(target, list);
      }
    }
  }

  const via = pathsFromDirect(packages, ['', ...workspaces]);
  const urlSpecs = urlSpecified(packages);
  const attribution = new Attribution(file, dirOf(file), workspaceProject, context);
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const dependencies: DeclaredDependency[] = [];
  // A key npm reads as no install path nerq can place: what npm installs there is unknown, the run incomplete.
  for (const { key, entry, reason } of unreadable) {
    const line = writtenLineOf(['packages', key]);
    const path = joinPath(key.replaceAll('\\', '/'));
    const name = entry.name ?? ((isInstallPath(path) && !path.startsWith('../') && nameFromPath(path)) || null);
    const note = `${file}:${line}: ${quote(key)} skipped: ${reason}`;
    notes.push(note);
    skipped.push(skippedEntry('npm', name, file, line, unreadableSource(entry, key), note));
  }
  const prod = productionReachable(packages, ['', ...workspaces]);
  const bundles = bundledBy(packages, file, lineOf);
  for (const [key, entry] of Object.entries(packages)) {
    if (!isInstallPath(key) || entry.link === true) continue;
    const line = lineOf(['packages', key]);
    const name = entry.name ?? nameFromPath(key);
    // npm decides dev-ness from the graph, not from the flag: a flag on a package production code needs is not believed.
    const dev = entry.dev === true && !prod.has(key);
    // Bundled in an installed package's tarball: its code is that package's, not a registry release's.
    if (bundles.bundlerOf.has(key) && entry.resolved === undefined) continue;
    if (entry.dev === true && !dev) notes.push(`${file}:${line}: ${quote(name)} is marked dev, but production dependencies need it: read as production`);
    // A tarball URL in a manifest is locked with a plain version: the spec says where it comes from.
    const urlSpec = urlSpecs.get(key);
    const skip = registrySkipReason(entry.version, entry.resolved) ?? (urlSpec === undefined ? null : 'not installed from a registry (a manifest names a URL)');
    if (skip !== null) {
      const at = attribution.placeOf(line, declared.get(key) ?? []);
      const note = `${at.file}:${at.line ?? '?'}: ${quote(name)} skipped: ${skip}`;
      notes.push(note);
      // A version npm cannot read either is re-resolved by `npm install` from the registry (a
      // release nerq never saw) or fetched from `resolved`: code nerq cannot place, like a URL
      // (docs/security.md, "Lockfile injection"): the run is incomplete, never passed on a note.
      // No version at all is the same: `npm ci` re-resolves the entry from the registry.
      const unreadable = entry.version === undefined || lockedVersion(entry.version) === null;
      const lockedElsewhere = entry.resolved !== undefined && (NOT_REGISTRY.test(entry.resolved) || urlSpec !== undefined || unreadable);
      const source = lockedElsewhere ? (entry.resolved ?? null) : (urlSpec ?? null);
      const kind = (source === null ? null : npmSourceKind(source)) ?? (unreadable ? unreadableSource(entry, key) : null);
      if (kind !== null) {
        const skippedAt = skippedEntry('npm', name, at.file, at.line, kind, note, { direct: (declared.get(key) ?? []).length > 0, dev });
        skipped.push(withDeclaredNames(skippedAt, (declared.get(key) ?? []).map((d) => d.key)));
      }
      continue;
    }
    const version = lockedVersion(entry.version) as string;
    const chain = via.get(key);
    const bundled = bundles.of.get(key);
    if (bundled !== undefined) notes.push(bundledNote(file, line, `${name}@${version}`, bundled));
    dependencies.push(
      ...attribution
        .entries({ name, version, dev, line, resolved: entry.resolved ?? null, integrity: entry.integrity ?? null }, declared.get(key) ?? [])
        .map((d) => (d.direct || chain === undefined ? d : { ...d, via: chain }))
        .map((d) => (bundled === undefined ? d : { ...d, bundled })),
    );
  }
  return { file, format, dependencies, notes, skipped };
}

/**
 * The entries production code needs, as npm computes dev-ness (not from the `dev` flags): those
 * reached from the project and its workspaces through `dependencies`, `optionalDependencies`
 * and `peerDependencies`, each name resolved from the folder that needs it, a link followed to
 * its target.
 */
function productionReachable(packages: Record<string, PackageEntry>, roots: readonly string[]): Set<string> {
  const edges = (key: string): string[] => {
    const entry = packages[key];
    if (entry === undefined) return [];
    const out: string[] = [];
    if (entry.link === true && entry.resolved !== undefined) {
      const target = normalisedKey(entry.resolved);
      if (target !== null && target in packages) out.push(target);
    }
    const names = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})];
    for (const name of names) {
      const target = resolveFrom(packages, key, name);
      if (target !== null) out.push(target);
    }
    return out;
  };
  return reachable(roots.filter((root) => root in packages), edges);
}

/** The install path of the folder holding `key` (`node_modules/a` for `node_modules/a/node_modules/b`); `''` at the top. */
function parentPath(key: string): string {
  const at = key.lastIndexOf('/node_modules/');
  if (at >= 0) return key.slice(0, at);
  return key.startsWith('node_modules/') ? '' : key;
}

/**
 * The dependencies an installed package bundles, by the package's install path, and the
 * bundling package of each bundled entry. An `inBundle` entry belongs to its nearest folder that
 * is not itself in the bundle; when that is the project or a workspace (not an install path),
 * npm installs the entry from the registry like any other and it is not counted here.
 */
function bundledBy(
  packages: Record<string, PackageEntry>,
  file: string,
  lineOf: LineOf,
): { of: Map<string, BundledRef[]>; bundlerOf: Map<string, string> } {
  const of = new Map<string, BundledRef[]>();
  const bundlerOf = new Map<string, string>();
  for (const [key, entry] of Object.entries(packages)) {
    if (entry.inBundle !== true || !isInstallPath(key) || entry.link === true) continue;
    let bundler = parentPath(key);
    while (bundler !== '' && isInstallPath(bundler) && packages[bundler]?.inBundle === true) bundler = parentPath(bundler);
    const holder = packages[bundler];
    if (!isInstallPath(bundler) || holder === undefined || holder.link === true) continue;
    bundlerOf.set(key, bundler);
    const list = of.get(bundler) ?? [];
    list.push({ name: nameFromPath(key), version: entry.version ?? null, file, line: lineOf(['packages', key]) });
    of.set(bundler, list);
  }
  return { of, bundlerOf };
}

/** The installed entries some manifest in the lockfile asks for by a remote spec (a tarball URL, git), by install path. */
function urlSpecified(packages: Record<string, PackageEntry>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [from, entry] of Object.entries(packages)) {
    if (from !== '' && entry.link === true) continue;
    for (const [field] of GROUP_FIELDS) {
      for (const [name, spec] of Object.entries((entry[field] as Record<string, string> | undefined) ?? {})) {
        if (npmSourceKind(spec)?.kind !== 'remote') continue;
        const target = resolveFrom(packages, from, name);
        if (target !== null && !found.has(target)) found.set(target, spec);
      }
    }
  }
  return found;
}

/**
 * For each installed package, the shortest chain of package names from a direct dependency of
 * a root (the project, or a workspace) to it, not counting itself: [] for a direct dependency.
 * Breadth first over the entries' dependencies, each resolved from the folder that needs it.
 */
function pathsFromDirect(packages: Record<string, PackageEntry>, roots: readonly string[]): Map<string, string[]> {
  const edges = (key: string): string[] => {
    const entry = packages[key];
    if (entry === undefined) return [];
    const names = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})];
    return names.flatMap((name) => resolveFrom(packages, key, name) ?? []);
  };
  const starts: string[] = [];
  for (const root of roots) {
    const entry = packages[root];
    if (entry === undefined) continue;
    for (const [field] of GROUP_FIELDS) {
      for (const name of Object.keys((entry[field] as Record<string, string> | undefined) ?? {})) {
        const target = resolveFrom(packages, root, name);
        if (target !== null) starts.push(target);
      }
    }
  }
  return chainsFrom(starts, edges, (key) => packages[key]?.name ?? nameFromPath(key));
}

/** `resolved` forms npm writes for git and local dependencies (registry tarballs are URLs). */
const NOT_REGISTRY = /^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:|file:|link:|ssh:|\.{0,2}\/)/i;

/** Why a locked entry is not a registry package, or null when it is one. */
function registrySkipReason(version: string | undefined, resolved: string | undefined): string | null {
  if (version === undefined) return 'no version in the lockfile';
  if (resolved !== undefined && NOT_REGISTRY.test(resolved)) return 'not installed from a registry (git or local path)';
  if (lockedVersion(version) === null) return 'the locked version is not a registry version';
  return null;
}

interface V1Node {
  path: string[];
  key: string;
  entry: V1Entry;
}

function readV1(
  tree: Record<string, V1Entry>,
  lineOf: LineOf,
  file: string,
  format: string,
  context: InputContext | undefined,
): ParsedInput {
  const nodes: V1Node[] = [];
  const byPath = new Map<string, V1Node>();
  const walk = (deps: Record<string, V1Entry>, parent: string[]) => {
    for (const [key, entry] of Object.entries(deps)) {
      const node = { path: [...parent, key], key, entry };
      nodes.push(node);
      byPath.set(node.path.join('\0'), node);
      // Recursion is fine: npm 6 nested tens of levels at most; absurd depth ends as a LockfileError (defineReader).
      if (entry.dependencies !== undefined) walk(entry.dependencies, node.path);
    }
  };
  walk(tree, []);

  const resolve = (from: string[], name: string): V1Node | undefined => {
    for (let depth = from.length; depth >= 0; depth -= 1) {
      const found = byPath.get([...from.slice(0, depth), name].join('\0'));
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const manifest = manifestAt(context, dirOf(file), '.');
  const edges = (n: V1Node) => Object.keys(n.entry.requires ?? {}).flatMap((name) => resolve(n.path, name) ?? []);
  let direct: Set<V1Node>;
  let prodRoots: V1Node[];
  if (manifest !== null) {
    const keys = new Set(manifest.declarations.map((d) => d.key));
    const prodKeys = new Set(manifest.declarations.filter((d) => d.group !== 'dev').map((d) => d.key));
    direct = new Set(nodes.filter((n) => n.path.length === 1 && keys.has(n.key)));
    prodRoots = nodes.filter((n) => n.path.length === 1 && prodKeys.has(n.key));
  } else {
    const topLevel = nodes.filter((n) => n.path.length === 1);
    const unused = unreferenced(nodes, edges);
    direct = new Set(topLevel.filter((n) => unused.has(n)));
    // Without the manifest only the flags of the guessed direct dependencies can tell what is dev.
    prodRoots = [...direct].filter((n) => n.entry.dev !== true);
    notes.push(`${file}: no package.json next to it: direct dependencies are guessed (top-level packages nothing else requires)`);
  }
  // npm decides dev-ness from the graph: a `dev` flag on a package production code requires is not believed.
  const prod = reachable(prodRoots, edges);
  // The path from a direct dependency, as v2/v3 give it: `requires` resolved up the nested tree.
  const via = chainsFrom(
    nodes.filter((n) => direct.has(n)),
    edges,
    (n) => n.key,
  );
  const devOf = (node: V1Node) => node.entry.dev === true && !prod.has(node);

  // v1 marks what a dependency bundles (`bundled: true`, never the project's own bundle): each
  // such node belongs to its nearest ancestor that is not itself bundled.
  const lineOfNode = (node: V1Node) => lineOf(node.path.flatMap((key) => ['dependencies', key]));
  const bundlerOf = new Map<V1Node, V1Node>();
  const bundledOf = new Map<V1Node, BundledRef[]>();
  for (const node of nodes) {
    if (node.entry.bundled !== true) continue;
    let at = node.path.slice(0, -1);
    let holder = byPath.get(at.join('\0'));
    while (holder !== undefined && holder.entry.bundled === true) {
      at = at.slice(0, -1);
      holder = byPath.get(at.join('\0'));
    }
    if (holder === undefined) continue;
    bundlerOf.set(node, holder);
    const list = bundledOf.get(holder) ?? [];
    list.push({ name: node.key, version: node.entry.version ?? null, file, line: lineOfNode(node) });
    bundledOf.set(holder, list);
  }

  const dependencies: DeclaredDependency[] = [];
  for (const node of nodes) {
    const line = lineOfNode(node);
    // Bundled in a dependency's tarball: its code is that package's, not a registry release's.
    if (bundlerOf.has(node) && node.entry.resolved === undefined) continue;
    let name = node.key;
    let version = node.entry.version;
    const alias = version?.startsWith('npm:') === true ? /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(version) : null;
    if (alias?.[1] !== undefined && alias[2] !== undefined) {
      name = alias[1];
      version = alias[2];
    }
    const skip = registrySkipReason(version, node.entry.resolved);
    if (skip !== null) {
      const note = `${file}:${line}: ${quote(node.key)} skipped: ${skip}`;
      notes.push(note);
      // v1 writes a git dependency's source as its version, a local one's as `file:…`.
      const { resolved } = node.entry;
      // A version npm cannot read either (`latest`, `^4.1.0`) is re-resolved or fetched from
      // `resolved`: code nerq cannot place, like a URL (as in the v2/v3 reader above).
      // No version at all is the same: npm re-resolves the entry from the registry.
      const unreadable = version === undefined || lockedVersion(version) === null;
      const kind =
        resolved !== undefined && NOT_REGISTRY.test(resolved)
          ? npmSourceKind(resolved)
          : (npmSourceKind(version ?? '') ?? (resolved !== undefined ? npmSourceKind(resolved) : null) ?? (unreadable ? unplacedSource(node.key) : null));
      // Without the manifest only a nested entry is surely transitive (a top-level one may be direct).
      const standsDirect = manifest !== null ? direct.has(node) : node.path.length > 1 ? false : undefined;
      if (kind !== null) skipped.push(skippedEntry('npm', node.key, file, line, kind, note, { direct: standsDirect, dev: devOf(node) }));
      continue;
    }
    const bundled = bundledOf.get(node);
    if (bundled !== undefined) notes.push(bundledNote(file, line, `${name}@${lockedVersion(version) as string}`, bundled));
    if (node.entry.dev === true && !devOf(node)) notes.push(`${file}:${line}: ${quote(node.key)} is marked dev, but production dependencies need it: read as production`);
    dependencies.push({
      ecosystem: 'npm',
      name,
      version: lockedVersion(version) as string,
      spec: null,
      direct: direct.has(node),
      dev: devOf(node),
      file,
      line,
      workspace: null,
      resolved: node.entry.resolved ?? null,
      integrity: node.entry.integrity ?? null,
      ...(direct.has(node) || !via.has(node) ? {} : { via: via.get(node) as string[] }),
      ...(bundled === undefined ? {} : { bundled }),
    });
  }
  return { file, format, dependencies, notes, skipped };
}

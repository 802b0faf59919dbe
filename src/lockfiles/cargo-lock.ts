/**
 * `Cargo.lock` (every format: v1 and v2 without a `version` key, v3, v4) and the `Cargo.toml`
 * manifests beside it (docs/checks.md, "Repository targets"). Each `[[package]]` is
 * `name`, `version`, `source` and `dependencies` (`"name"`, `"name version"` or
 * `"name version (source)"`, the longer forms when the short one would be ambiguous).
 *
 * - `source = "registry+https://github.com/rust-lang/crates.io-index"` or
 *   `"sparse+https://index.crates.io/"`: a crate from crates.io, in the set.
 * - `git+…`, or another registry: code no crates.io record vouches for, listed in `unvouched`.
 * - No source: a workspace member or a path dependency, the project's own code, not in the set.
 *
 * Direct: a dependency of one of the project's own packages. Dev: reachable from the project's
 * own packages only through what their Cargo.toml lists under `[dev-dependencies]` alone; when no
 * Cargo.toml of a package was read, nothing is dev (a dependency is never made lighter than the
 * file shows). A malformed `[[package]]` is skipped with a note; a file that is not TOML or has
 * no `[[package]]` list throws a `LockfileError`. Pure.
 */
import { z } from 'zod';
import { LockfileError } from '../audit/types.js';
import { reachable } from './graph.js';
import type { ModuleDependency, ModuleInput } from './module-types.js';
import type { SkippedEntry } from '../audit/types.js';
import { withoutCredentials } from '../util/url-credentials.js';
import { remoteSource, skippedEntry } from './source-kind.js';
import { quote } from './text.js';
import { arrayTableNameLines, parseToml, tomlLayout } from './toml-text.js';

const CRATES_IO = new Set(['registry+https://github.com/rust-lang/crates.io-index', 'sparse+https://index.crates.io/']);
/** A crate name as crates.io allows it (letters, digits, `-`, `_`; at most 64). */
const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A semantic version as Cargo writes it. */
const VERSION = /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const MAX_PACKAGES = 20_000;
/** Crates between a direct dependency and another, at most (deeper: the path is not given). */
const MAX_VIA = 32;

const Package = z.object({
  name: z.string(),
  version: z.string(),
  source: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
});
type Package = z.infer<typeof Package>;

/** What one Cargo.toml says of its package's dependencies (names as crates, renames undone). */
interface ManifestDeps {
  name: string | null;
  runtime: Set<string>;
  dev: Set<string>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The crate names a dependency table names (`alias = { package = "real" }` → `real`). */
function crateNames(table: unknown): string[] {
  return Object.entries(record(table)).map(([key, spec]) => {
    const renamed = record(spec).package;
    return typeof renamed === 'string' ? renamed : key;
  });
}

/** A Cargo.toml's package name and its dependencies by kind (`[target.'cfg'.*]` tables included); null when it does not parse. */
export function cargoManifestDeps(text: string, file: string): ManifestDeps | null {
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(text, file);
  } catch {
    return null;
  }
  const tables = [toml, ...Object.values(record(toml.target))].map(record);
  const name = record(toml.package).name;
  return {
    name: typeof name === 'string' ? name : null,
    runtime: new Set(tables.flatMap((t) => [...crateNames(t.dependencies), ...crateNames(t['build-dependencies'])])),
    dev: new Set(tables.flatMap((t) => crateNames(t['dev-dependencies']))),
  };
}

/**
 * For each package reachable from `starts`, the names between a start and it (shortest, breadth
 * first; [] for a start), at most `MAX_VIA` long, else undefined. Parents are kept, not copied
 * paths: a chain of k crates costs k, not k².
 */
function shortestPaths(starts: Iterable<Package>, edges: (pkg: Package) => Package[]): (pkg: Package) => string[] | undefined {
  const parent = new Map<Package, Package | null>();
  const queue: Package[] = [];
  for (const start of starts) {
    if (parent.has(start)) continue;
    parent.set(start, null);
    queue.push(start);
  }
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] as Package;
    for (const to of edges(node)) {
      if (parent.has(to)) continue;
      parent.set(to, node);
      queue.push(to);
    }
  }
  return (pkg) => {
    if (!parent.has(pkg)) return undefined;
    const names: string[] = [];
    for (let up = parent.get(pkg) ?? null; up !== null; up = parent.get(up) ?? null) {
      if (names.length === MAX_VIA) return undefined;
      names.push(up.name);
    }
    return names.reverse();
  };
}

/**
 * @param manifests the Cargo.toml texts read beside the lockfile, by path: they tell which of a
 *   project package's dependencies are dev-only.
 */
export function readCargoLock(text: string, file: string, manifests: Readonly<Record<string, string>> = {}): ModuleInput {
  const layout = tomlLayout(text);
  const lock = parseToml(text, file);
  if (lock.package !== undefined && !Array.isArray(lock.package)) throw new LockfileError(file, null, 'unexpected structure: `package` is not a list of [[package]] tables');
  const raw = (lock.package as unknown[] | undefined) ?? [];
  if (raw.length > MAX_PACKAGES) throw new LockfileError(file, null, `more than ${MAX_PACKAGES} packages`);
  const names = raw.map((p) => {
    const name = record(p).name;
    return typeof name === 'string' ? name : '';
  });
  const lines = arrayTableNameLines(layout, 'package', names);
  const version = typeof lock.version === 'number' ? lock.version : null;

  const notes: string[] = [];
  const unvouched: string[] = [];
  const skipped: SkippedEntry[] = [];
  const packages: Array<{ pkg: Package; line: number | null }> = [];
  raw.forEach((entry, index) => {
    const line = lines[index] ?? null;
    const parsed = Package.safeParse(entry);
    if (!parsed.success || !CRATE_NAME.test(parsed.data.name)) {
      notes.push(`${file}:${line ?? '?'}: a [[package]] skipped: not a name, version and optional source`);
      return;
    }
    packages.push({ pkg: parsed.data, line });
  });

  // Indexed by name and by name + version, the first of each kept: one lookup per dependency entry.
  const byName = new Map<string, Package>();
  const byVersion = new Map<string, Package[]>();
  for (const { pkg } of packages) {
    if (!byName.has(pkg.name)) byName.set(pkg.name, pkg);
    const key = `${pkg.name} ${pkg.version}`;
    const same = byVersion.get(key);
    if (same === undefined) byVersion.set(key, [pkg]);
    else if (same.length < 4) same.push(pkg);
  }
  /** `"name"`, `"name version"` or `"name version (source)"` → the package it names. */
  const resolve = (spec: string): Package | undefined => {
    const match = /^(\S+)(?: (\S+))?(?: \((.+)\))?$/.exec(spec.trim());
    if (match === null) return undefined;
    const [, name = '', ver, source] = match;
    if (ver === undefined) return byName.get(name);
    // One name and version from two sources (a crates.io crate and its git fork) are told apart by the source.
    return (byVersion.get(`${name} ${ver}`) ?? []).find((p) => source === undefined || p.source === source);
  };
  const own = (pkg: Package) => pkg.source === undefined;
  const depsOf = new Map<Package, Package[]>(packages.map(({ pkg }) => [pkg, (pkg.dependencies ?? []).flatMap((d) => resolve(d) ?? [])]));
  const edges = (pkg: Package): Package[] => depsOf.get(pkg) ?? [];

  const manifestDeps = Object.entries(manifests).flatMap(([path, source]) => cargoManifestDeps(source, path) ?? []);
  /** A project package's dependencies a build of it needs: all but its manifest's dev-only ones. */
  const runtimeEdges = (pkg: Package): Package[] => {
    const manifest = manifestDeps.find((m) => m.name === pkg.name);
    if (manifest === undefined) return edges(pkg);
    return edges(pkg).filter((d) => !manifest.dev.has(d.name) || manifest.runtime.has(d.name));
  };
  const projects = packages.filter(({ pkg }) => own(pkg)).map(({ pkg }) => pkg);
  const prod = reachable(projects, (pkg) => (own(pkg) ? runtimeEdges(pkg) : edges(pkg)));
  const direct = new Set(projects.flatMap(edges).filter((p) => !own(p)));
  const viaOf = shortestPaths(direct, edges);

  const dependencies: ModuleDependency[] = [];
  for (const { pkg, line } of packages) {
    if (own(pkg)) continue;
    const source = pkg.source as string;
    if (!CRATES_IO.has(source)) {
      const from = source.startsWith('git+') ? 'a git repository' : 'a registry other than crates.io';
      const note = `${file}:${line ?? '?'}: ${quote(`${pkg.name}@${pkg.version}`)} skipped: from ${from} (${quote(withoutCredentials(source).replace(/[?#].*$/, '').slice(0, 200))})`;
      unvouched.push(note);
      // `git+https://…?rev#commit`, `registry+https://…`, `sparse+https://…`: remote code, with the host it comes from.
      skipped.push(skippedEntry('cargo', pkg.name, file, line, remoteSource(source), note, { direct: direct.has(pkg), dev: projects.length > 0 && !prod.has(pkg) }));
      continue;
    }
    if (!VERSION.test(pkg.version)) {
      notes.push(`${file}:${line ?? '?'}: ${quote(pkg.name)} skipped: ${quote(pkg.version.slice(0, 60))} is not a version`);
      continue;
    }
    const via = viaOf(pkg);
    dependencies.push({
      ecosystem: 'cargo',
      name: pkg.name,
      version: pkg.version,
      direct: direct.has(pkg),
      // With no project package in the lock (not Cargo's), nothing can be told dev.
      dev: projects.length > 0 && !prod.has(pkg),
      ...(via === undefined ? {} : { via }),
      file,
      line,
    });
  }
  return { file, format: version === null ? 'Cargo.lock' : `Cargo.lock@${version}`, dependencies, notes, unvouched, skipped };
}

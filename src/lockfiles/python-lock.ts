/**
 * What poetry.lock and pdm.lock readers share: both list every locked package with its
 * dependencies by name, and neither says which packages the project itself asked for. The
 * sibling pyproject.toml (from the context) does; without it, the packages nothing else
 * depends on are taken as direct (a note says so). Dev comes from the lockfile's own groups
 * when it writes them, else from the graph: not reachable from a production root. A package
 * no index serves (git, URL, path) is a node of the graph too, and its skipped entry gets the
 * same standing, where the lockfile and pyproject.toml can tell it (not from a guess).
 */
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { chainsFrom, reachable, unreferenced } from './graph.js';
import { pyprojectDeclarations } from './pyproject.js';
import { known } from './source-kind.js';
import { dirOf, joinPath } from './text.js';
import type { InputContext } from './types.js';

export interface PythonLockNode {
  /** PEP 503 normalised. */
  name: string;
  /** Null for a package no index serves (then `skipped` is its entry): a node of the graph, not a package to audit. */
  version: string | null;
  line: number | null;
  resolved: string | null;
  /** The hashes the lockfile pins for it, as SRI (python-hashes.ts); absent or null when none. */
  integrity?: string | null;
  /** Names (normalised) of what it depends on. */
  dependsOn: string[];
  /** Dev according to the lockfile itself; null when it does not say. */
  dev: boolean | null;
  skipped?: SkippedEntry;
}

export interface PythonRoots {
  prod: Set<string>;
  dev: Set<string>;
}

/** The roots the sibling pyproject.toml declares, or null when the context does not hold it. */
export function pyprojectRoots(context: InputContext | undefined, lockfile: string): PythonRoots | null {
  const file = joinPath(dirOf(lockfile), 'pyproject.toml');
  const text = context?.manifests?.[file];
  if (text === undefined) return null;
  const { declarations, skipped } = pyprojectDeclarations(text, file);
  // A git, URL or path dependency is declared too (skipped, but a root all the same).
  const all = [...declarations, ...skipped.flatMap(({ name, dev }) => (name === null ? [] : [{ name, dev: dev === true }]))];
  return {
    prod: new Set(all.filter((d) => !d.dev).map((d) => d.name)),
    dev: new Set(all.filter((d) => d.dev).map((d) => d.name)),
  };
}

export function assemblePythonLock(
  file: string,
  nodes: readonly PythonLockNode[],
  roots: PythonRoots | null,
  notes: string[],
): { dependencies: DeclaredDependency[]; skipped: SkippedEntry[] } {
  const byName = new Map<string, PythonLockNode[]>();
  for (const node of nodes) byName.set(node.name, [...(byName.get(node.name) ?? []), node]);
  const edges = (name: string) => byName.get(name)?.flatMap((n) => n.dependsOn) ?? [];
  const names = [...byName.keys()];

  let direct: Set<string>;
  let prodRoots: Set<string>;
  if (roots !== null) {
    direct = new Set([...roots.prod, ...roots.dev]);
    prodRoots = roots.prod;
  } else {
    direct = unreferenced(names, edges);
    prodRoots = direct;
    notes.push(`${file}: no pyproject.toml next to it: direct dependencies are guessed (packages nothing else depends on)`);
  }
  const lockKnowsDev = nodes.some((n) => n.dev !== null);
  const prod = reachable(prodRoots, edges);
  const chains = chainsFrom(direct, edges, (name) => name);
  const devOf = (node: PythonLockNode) => (lockKnowsDev ? node.dev === true : roots !== null && !prod.has(node.name));
  const dependencies: DeclaredDependency[] = [];
  const skipped: SkippedEntry[] = [];
  for (const node of nodes) {
    if (node.skipped !== undefined) {
      // Guessed roots say nothing sure of a skipped entry: then only the lockfile's own groups count.
      const dev = lockKnowsDev ? (node.dev ?? undefined) : roots !== null ? devOf(node) : undefined;
      skipped.push({ ...node.skipped, ...known({ direct: roots === null ? undefined : direct.has(node.name), dev }) });
      continue;
    }
    if (node.version === null) continue;
    dependencies.push({
      ...(direct.has(node.name) || !chains.has(node.name) ? {} : { via: chains.get(node.name) as string[] }),
      ecosystem: 'pypi',
      name: node.name,
      version: node.version,
      spec: null,
      direct: direct.has(node.name),
      dev: devOf(node),
      file,
      line: node.line,
      workspace: null,
      resolved: node.resolved,
      ...(node.integrity == null ? {} : { integrity: node.integrity }),
    });
  }
  return { dependencies, skipped };
}

/**
 * What poetry.lock and pdm.lock readers share: both list every locked package with its
 * dependencies by name, and neither says which packages the project itself asked for. The
 * sibling pyproject.toml (from the context) does; without it, the packages nothing else
 * depends on are taken as direct (a note says so). Dev comes from the lockfile's own groups
 * when it writes them, else from the graph: not reachable from a production root.
 */
import type { DeclaredDependency } from '../audit/types.js';
import { chainsFrom, reachable, unreferenced } from './graph.js';
import { pyprojectDeclarations } from './pyproject.js';
import { dirOf, joinPath } from './text.js';
import type { InputContext } from './types.js';

export interface PythonLockNode {
  /** PEP 503 normalised. */
  name: string;
  version: string;
  line: number | null;
  resolved: string | null;
  /** Names (normalised) of what it depends on. */
  dependsOn: string[];
  /** Dev according to the lockfile itself; null when it does not say. */
  dev: boolean | null;
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
  const { declarations } = pyprojectDeclarations(text, file);
  return {
    prod: new Set(declarations.filter((d) => !d.dev).map((d) => d.name)),
    dev: new Set(declarations.filter((d) => d.dev).map((d) => d.name)),
  };
}

export function assemblePythonLock(
  file: string,
  nodes: readonly PythonLockNode[],
  roots: PythonRoots | null,
  notes: string[],
): DeclaredDependency[] {
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
  return nodes.map((node) => ({
    ...(direct.has(node.name) || !chains.has(node.name) ? {} : { via: chains.get(node.name) as string[] }),
    ecosystem: 'pypi',
    name: node.name,
    version: node.version,
    spec: null,
    direct: direct.has(node.name),
    dev: lockKnowsDev ? node.dev === true : roots !== null && !prod.has(node.name),
    file,
    line: node.line,
    workspace: null,
    resolved: node.resolved,
  }));
}

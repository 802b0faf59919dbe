/**
 * Dependency-graph helpers for lockfiles that do not flag dev packages themselves: a package
 * is dev when no production root reaches it; the chain from a direct dependency to each package.
 */
import type { DeclaredDependency, Standing } from '../audit/types.js';

/** Every node reachable from `starts` (the starts included), breadth first. */
export function reachable<K>(starts: Iterable<K>, edges: (node: K) => Iterable<K>): Set<K> {
  const seen = new Set<K>();
  const queue: K[] = [];
  for (const start of starts) {
    if (!seen.has(start)) {
      seen.add(start);
      queue.push(start);
    }
  }
  for (let head = 0; head < queue.length; head += 1) {
    for (const next of edges(queue[head] as K)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/**
 * The nodes nothing else depends on: the best guess at the direct dependencies when no
 * manifest says (it misses a direct dependency that another package also pulls in).
 */
export function unreferenced<K>(nodes: Iterable<K>, edges: (node: K) => Iterable<K>): Set<K> {
  const all = [...nodes];
  const referenced = new Set<K>();
  for (const node of all) for (const next of edges(node)) if (next !== node) referenced.add(next);
  return new Set(all.filter((node) => !referenced.has(node)));
}

/** The most names a chain keeps: a longer one keeps its first `VIA_HEAD` and last names around `VIA_ELISION`. */
export const MAX_VIA = 64;
const VIA_HEAD = 32;
/** Stands for the names left out of a chain longer than MAX_VIA (no package is named so). */
export const VIA_ELISION = '…';

/**
 * For each node reachable from `starts`, the shortest chain of names from a start to it, not
 * counting itself: [] for a start (a direct dependency). Breadth first, so the first chain found
 * is a shortest one; the audit shows it as "via a › b" (DeclaredDependency.via). A chain longer
 * than MAX_VIA names keeps the first names (the direct dependency the project declared) and
 * the last (the package that pulls it in) around VIA_ELISION: a lockfile whose chains run
 * thousands deep costs linear time and memory, not quadratic (docs/security.md).
 */
export function chainsFrom<K>(starts: Iterable<K>, edges: (node: K) => Iterable<K>, nameOf: (node: K) => string): Map<K, string[]> {
  const chains = new Map<K, string[]>();
  const parent = new Map<K, K>();
  const depth = new Map<K, number>();
  /** The first VIA_HEAD names of a deep node's chain, shared with its descendants. */
  const head = new Map<K, string[]>();
  const queue: K[] = [];
  for (const start of starts) {
    if (!chains.has(start)) {
      chains.set(start, []);
      depth.set(start, 0);
      queue.push(start);
    }
  }
  for (let at = 0; at < queue.length; at += 1) {
    const node = queue[at] as K;
    const d = (depth.get(node) as number) + 1;
    let next: string[] | undefined;
    for (const to of edges(node)) {
      if (chains.has(to)) continue;
      parent.set(to, node);
      depth.set(to, d);
      if (d > MAX_VIA) {
        const shared = head.get(node) ?? (chains.get(node) as string[]).slice(0, VIA_HEAD);
        head.set(to, shared);
        next ??= [...shared, VIA_ELISION, ...lastNames(node, MAX_VIA - VIA_HEAD - 1, parent, nameOf)];
      } else {
        next ??= [...(chains.get(node) as string[]), nameOf(node)];
      }
      chains.set(to, next);
      queue.push(to);
    }
  }
  return chains;
}

/** The names of `node` and its parents up the chain, `count` of them, in chain order. */
function lastNames<K>(node: K, count: number, parent: ReadonlyMap<K, K>, nameOf: (node: K) => string): string[] {
  const names: string[] = [];
  for (let at: K | undefined = node; at !== undefined && names.length < count; at = parent.get(at)) names.push(nameOf(at));
  return names.reverse();
}

/** The shortest of the chains known for any of `nodes` (a package folded from several), or undefined. */
export function shortestChain<K>(chains: ReadonlyMap<K, string[]>, nodes: Iterable<K>): string[] | undefined {
  let best: string[] | undefined;
  for (const node of nodes) {
    const chain = chains.get(node);
    if (chain !== undefined && (best === undefined || chain.length < best.length)) best = chain;
  }
  return best;
}

/** The entries with their chain: a transitive entry gets `via`, a direct one never does. */
export function withVia(entries: DeclaredDependency[], chain: string[] | undefined): DeclaredDependency[] {
  return chain === undefined ? entries : entries.map((d) => (d.direct ? d : { ...d, via: chain }));
}

/**
 * A skipped node's standing in a graph whose roots the input names: direct when some root
 * declares it, dev-only when no production root reaches it (the rule its packages follow).
 */
export function graphStanding<K>(node: K, declared: { has(node: K): boolean }, prod: ReadonlySet<K>): Standing {
  return { direct: declared.has(node), dev: !prod.has(node) };
}

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

/**
 * For each node reachable from `starts`, the shortest chain of names from a start to it, not
 * counting itself: [] for a start (a direct dependency). Breadth first, so the first chain found
 * is a shortest one; the audit shows it as "via a › b" (DeclaredDependency.via).
 */
export function chainsFrom<K>(starts: Iterable<K>, edges: (node: K) => Iterable<K>, nameOf: (node: K) => string): Map<K, string[]> {
  const chains = new Map<K, string[]>();
  const queue: K[] = [];
  for (const start of starts) {
    if (!chains.has(start)) {
      chains.set(start, []);
      queue.push(start);
    }
  }
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] as K;
    let next: string[] | undefined;
    for (const to of edges(node)) {
      if (chains.has(to)) continue;
      next ??= [...(chains.get(node) as string[]), nameOf(node)];
      chains.set(to, next);
      queue.push(to);
    }
  }
  return chains;
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

/**
 * Dependency-graph helpers for lockfiles that do not flag dev packages themselves: a package
 * is dev when no production root reaches it.
 */

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

/**
 * The layer matrix of docs/architecture.md as data, and the checker the layer test runs over
 * the source tree (and over planted trees in its self-test).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';

/** The layers from the bottom up: a module may import from its own layer and the ones below. */
export const LAYERS = [
  'model',
  'evidence',
  'target',
  'checks',
  'scoring',
  'report',
  'render',
  'docs',
  'lockfiles',
  'sources',
  'store',
  'pipeline',
  'audit',
  'app',
  'front',
  'serve',
  'mcp',
  'cli',
] as const;
export type Layer = (typeof LAYERS)[number];

/** Front doors that sit side by side: neither imports the other; what both need lives in `front`. */
const SIBLINGS: ReadonlySet<Layer> = new Set(['serve', 'mcp']);

/** Layers that do no I/O: no file of a higher layer, no `node:` module, no terminal or HTTP library, even transitively. */
export const PURE: ReadonlySet<Layer> = new Set(['model', 'evidence', 'target', 'checks', 'scoring', 'report', 'render', 'docs', 'lockfiles']);

/** Shared contracts (types and schemas every layer reads) that live beside their owners but sit in the model layer. */
const CONTRACTS = new Set([
  'version.ts',
  'report/schema.ts',
  'audit/types.ts',
  'audit/report-schema.ts',
  'store/types.ts',
  'target/types.ts',
  'ecosystems/types.ts',
]);

/** An ecosystem's I/O half (its adapter and collector) belongs to the pipeline; the rest of ecosystems/ is pure rules. */
const ECOSYSTEM_IO = /^ecosystems\/(?:adapters?\.ts|[^/]+\/(?:adapter|collect)\.ts)$/;

/** The layer of a source file, by its path under src/ (`/`-separated); null for a file no layer claims. */
export function layerOf(path: string): Layer | null {
  if (CONTRACTS.has(path)) return 'model';
  if (path.startsWith('ecosystems/')) return ECOSYSTEM_IO.test(path) ? 'pipeline' : 'target';
  const top = path.split('/')[0] ?? '';
  if (top === 'util') return 'model';
  return (LAYERS as readonly string[]).includes(top) ? (top as Layer) : null;
}

/** What a pure layer may load all the same: render colours text for a terminal it does not open, and SARIF hashes. */
const ALLOWED: Partial<Record<Layer, readonly string[]>> = { render: ['chalk', 'node:crypto'] };

/**
 * The packages a pure module may load: parsers and data that do no I/O of their own. Anything
 * else — a `node:` module or bare built-in, a terminal, HTTP or configuration-reading package,
 * a package added later — is impure until it is listed here.
 */
const PURE_PACKAGES: readonly string[] = [
  '@renovatebot/pep440',
  '@yarnpkg/lockfile',
  '@yarnpkg/parsers',
  'cli-table3',
  'fast-xml-parser',
  'hosted-git-info',
  'ini',
  'npm-package-arg',
  'npm-pick-manifest',
  'packageurl-js',
  'picomatch',
  'semver',
  'smol-toml',
  'spdx-correct',
  'spdx-expression-parse',
  'spdx-license-ids',
  'tldts',
  'validate-npm-package-name',
  'yaml',
  'zod',
];

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`, `name/sub.json` → `name`). */
function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Packages and built-ins a pure module must not load: every one not on the pure list. */
export function impureModule(spec: string, layer?: Layer): boolean {
  if (layer !== undefined && (ALLOWED[layer] ?? []).includes(spec)) return false;
  if (spec.startsWith('node:')) return true;
  // Not a package name: a relative path no file of the tree answers, or text a module quotes (a
  // pattern a code reader looks for) that the import scan caught.
  if (!/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?$/.test(spec)) return false;
  return !PURE_PACKAGES.includes(packageOf(spec));
}

export interface ImportSite {
  spec: string;
  typeOnly: boolean;
}

/** Every module specifier of a source text; `import type` / `export type` are type-only (erased). */
export function importsOf(source: string): ImportSite[] {
  const found: ImportSite[] = [];
  for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of source.matchAll(/\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false });
  return found;
}

/** The source tree as path (under src/) → text. */
export type Tree = ReadonlyMap<string, string>;

export function readTree(root: URL): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (dir: URL, prefix: string): void => {
    for (const name of readdirSync(dir)) {
      const url = new URL(name, dir);
      if (statSync(url).isDirectory()) walk(new URL(`${name}/`, dir), `${prefix}${name}/`);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) tree.set(`${prefix}${name}`, readFileSync(url, 'utf8'));
    }
  };
  walk(root, '');
  return tree;
}

/** A relative specifier from `from` as a path under src/, or null for a package, JSON or declaration. */
export function resolveIn(tree: Tree, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const segment of spec.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  const joined = parts.join('/');
  for (const candidate of [joined.replace(/\.js$/, '.ts'), `${joined}.ts`, `${joined}/index.ts`]) if (tree.has(candidate)) return candidate;
  return null;
}

/** Every import that goes up the matrix, or sideways between sibling front doors (runtime or type: a type import is a dependency too). */
export function upwardImports(tree: Tree): string[] {
  const found: string[] = [];
  for (const [path, source] of tree) {
    const from = layerOf(path);
    if (from === null) {
      found.push(`${path}: in no layer`);
      continue;
    }
    for (const { spec } of importsOf(source)) {
      const target = resolveIn(tree, path, spec);
      if (target === null) continue;
      const to = layerOf(target);
      if (to !== null && LAYERS.indexOf(to) > LAYERS.indexOf(from)) found.push(`${path} (${from}) imports ${target} (${to})`);
      else if (to !== null && to !== from && SIBLINGS.has(to) && SIBLINGS.has(from)) found.push(`${path} (${from}) imports ${target} (${to}), a sibling front door`);
    }
  }
  return found.sort();
}

/**
 * For every pure module, what its runtime imports load transitively that a pure module must
 * not: a module of an I/O layer or an impure package. Each finding names the chain.
 */
export function impureReach(tree: Tree): string[] {
  const found: string[] = [];
  const runtime = new Map<string, { path: string | null; spec: string }[]>();
  const edgesOf = (path: string) => {
    let edges = runtime.get(path);
    if (edges === undefined) {
      edges = importsOf(tree.get(path) ?? '')
        .filter((site) => !site.typeOnly)
        .map((site) => ({ path: resolveIn(tree, path, site.spec), spec: site.spec }));
      runtime.set(path, edges);
    }
    return edges;
  };
  for (const start of tree.keys()) {
    const layer = layerOf(start);
    if (layer === null || !PURE.has(layer)) continue;
    const via = new Map<string, string>([[start, '']]);
    const queue = [start];
    while (queue.length > 0) {
      const path = queue.shift()!;
      const chain = () => {
        const names = [path];
        for (let at = via.get(path)!; at !== ''; at = via.get(at)!) names.unshift(at);
        return names.join(' → ');
      };
      for (const edge of edgesOf(path)) {
        if (edge.path === null) {
          if (impureModule(edge.spec, layerOf(path) ?? undefined)) found.push(`${chain()} → ${edge.spec}`);
          continue;
        }
        const to = layerOf(edge.path);
        if (to !== null && !PURE.has(to)) {
          found.push(`${chain()} → ${edge.path} (${to})`);
          continue;
        }
        if (!via.has(edge.path)) {
          via.set(edge.path, path);
          queue.push(edge.path);
        }
      }
    }
  }
  return [...new Set(found)].sort();
}

/**
 * Every import cycle among the modules of the tree, type imports and dynamic imports included
 * (a type is a dependency too: a cycle of them ties the shared model to its users). Each cycle
 * is its strongly connected component, its modules sorted, joined by ` ↔ `.
 */
export function importCycles(tree: Tree): string[] {
  const edges = new Map<string, string[]>();
  for (const [path, source] of tree) {
    edges.set(
      path,
      importsOf(source)
        .map((site) => resolveIn(tree, path, site.spec))
        .filter((to): to is string => to !== null),
    );
  }
  // Tarjan's strongly connected components, iteratively (no recursion depth to run out of).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  for (const root of tree.keys()) {
    if (index.has(root)) continue;
    const work: { path: string; next: number }[] = [{ path: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const out = edges.get(frame.path) ?? [];
      if (frame.next < out.length) {
        const to = out[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to)!);
          stack.push(to);
          onStack.add(to);
          work.push({ path: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.path, Math.min(low.get(frame.path)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.path, Math.min(low.get(parent.path)!, low.get(frame.path)!));
      if (low.get(frame.path) !== index.get(frame.path)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.path);
      if (component.length > 1 || out.includes(frame.path)) cycles.push(component.sort().join(' ↔ '));
    }
  }
  return cycles.sort();
}

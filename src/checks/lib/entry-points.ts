/**
 * The files a package.json names as its entry points — `main`, `bin` targets, `exports` targets,
 * `types`/`typings` — looked up in the files a tarball holds, resolved as Node, npm and
 * TypeScript resolve them (docs/checks.md, `entry-points`). A target none of them finds is
 * missing: a `require`, an `import`, a command or a type check of the package fails as shipped.
 *
 * Pure: the caller gives the parsed package.json and a lookup of the archive's files (paths as
 * extraction places them, `lib/index.js`).
 */

/** Which field named a missing target. */
export type EntryField = 'main' | 'bin' | 'exports' | 'types';

export interface MissingEntry {
  field: EntryField;
  /** The bin name or the `exports` subpath and conditions (`./utils import`); empty for `main` and `types`. */
  key: string;
  target: string;
  /**
   * What a `require`, an `import` or the command of the package itself needs: `main`, a `bin`
   * target, the `.` export under a condition Node resolves. False for a subpath export and for
   * type declarations (a deep import or a type check fails; the package itself loads).
   */
  primary: boolean;
}

export interface EntryPointResult {
  /** Targets looked up. */
  declared: number;
  missing: MissingEntry[];
}

/** A JavaScript file Node loads as a module. */
const CODE_FILE = /\.[cm]?js$/;

/** Targets looked up at most (a hostile `exports` can list thousands), and how deep conditions are followed. */
export const MAX_ENTRY_TARGETS = 256;
const MAX_DEPTH = 8;
const MAX_TARGET_CHARS = 1024;

/** A file lookup: whether the archive holds `path`, and whether any of its files starts with `prefix` and ends with `suffix`. */
export interface FileLookup {
  has(path: string): boolean;
  matches(prefix: string, suffix: string): boolean;
}

/**
 * Characters a lookup compares at most for patterns, over all of them; past it a pattern is taken
 * as matched: work not done is never a finding. Counted in characters, not paths: each path
 * walked compares the pattern's suffix (up to MAX_TARGET_CHARS), so a budget of paths let 256
 * long patterns over thousands of long paths sharing their prefix compare billions (seconds).
 */
export const PATTERN_WORK = 16_000_000;

/** The index of the first of `sorted[from..]` for which `before` is false (`before` is true, then false, along it). */
function firstNot(sorted: readonly string[], from: number, before: (path: string) => boolean): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(sorted[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A lookup over a list of paths. */
export function fileLookup(paths: Iterable<string>): FileLookup {
  const files = new Set(paths);
  const sorted = [...files].sort();
  let work = 0;
  return {
    has: (path) => files.has(path),
    matches: (prefix, suffix) => {
      // The paths that start with the prefix are a run of the sorted list: two binary searches
      // find it, then each path in it compares only the suffix.
      const start = firstNot(sorted, 0, (path) => path < prefix);
      const end = firstNot(sorted, start, (path) => path.startsWith(prefix));
      for (let i = start; i < end; i++) {
        work += 1 + suffix.length;
        if (work > PATTERN_WORK) return true;
        const path = sorted[i]!;
        if (path.length >= prefix.length + suffix.length && path.endsWith(suffix)) return true;
      }
      return false;
    },
  };
}

/**
 * A target as a path in the package: `./lib/a.js` → `lib/a.js`, `.` → ``; null when it is not a
 * plain relative path in the package (`..`, absolute, a URL, backslashes): not looked up.
 */
function packagePath(target: string): string | null {
  if (target.length > MAX_TARGET_CHARS || target.includes('\\') || target.includes('\0') || target.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const parts = target.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return null;
  return parts.join('/');
}

/**
 * Node's LOAD_AS_FILE then LOAD_INDEX for a `main`, and its legacy fallback (DEP0128) to the
 * package's own index.js when neither finds a file.
 */
function mainResolves(path: string, files: FileLookup): boolean {
  const candidates = path === '' ? [] : [path, `${path}.js`, `${path}.json`, `${path}.node`, `${path}/index.js`, `${path}/index.json`, `${path}/index.node`];
  candidates.push('index.js', 'index.json', 'index.node');
  return candidates.some((c) => files.has(c));
}

/**
 * The `exports` conditions looked up: those Node resolves a `require` or `import` by, and
 * TypeScript's `types` (`types@>=5`). Others are left out: bundler and runtime conditions
 * (`browser`, `worker`, `deno`) nerq does not resolve, and a monorepo's own source conditions
 * (`source`, `input`, `@nx/nx-source`, `jsnext:source`) that point at sources never published.
 */
const NODE_CONDITIONS = new Set(['node', 'import', 'require', 'module-sync', 'node-addons', 'default']);
/** Conditions Node matches on some versions or flags only (`module-sync` from Node 22.12, `node-addons` but with --no-addons): the ones after them are read too. */
const UNSETTLING_CONDITIONS = new Set(['module-sync', 'node-addons']);
type Mode = 'require' | 'import';
const BOTH_MODES: ReadonlySet<Mode> = new Set(['require', 'import']);
function isTypesCondition(condition: string): boolean {
  return condition === 'types' || condition.startsWith('types@');
}

/** The declaration TypeScript looks for in place of a `.js`, `.mjs` or `.cjs` file: `a.d.ts`, `a.d.mts`, `a.d.cts`. */
function declarationOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return `${path.slice(0, dot)}.d${path.slice(dot).replace('js', 'ts')}`;
}

/** TypeScript's lookup for `types`: the file, with `.d.ts` added or put in place of `.js`, or a folder's index.d.ts. */
function typesResolve(path: string, files: FileLookup): boolean {
  if (path === '') return files.has('index.d.ts');
  const declaration = /\.[cm]?js$/.test(path) ? declarationOf(path) : `${path}.d.ts`;
  return [path, declaration, `${path}/index.d.ts`].some((c) => files.has(c));
}

/** An `exports` target: a file, a pattern (`./lib/*.js`: some file matches), or a folder mapping (`./lib/`: some file under it). */
function exportResolves(target: string, files: FileLookup): boolean | null {
  const path = packagePath(target);
  if (path === null || !target.startsWith('./')) return null;
  const star = target.indexOf('*');
  if (star >= 0) {
    const prefix = packagePath(target.slice(0, star)) ?? '';
    const before = target.slice(0, star);
    const lead = prefix === '' ? '' : before.endsWith('/') ? `${prefix}/` : prefix;
    return files.matches(lead, target.slice(star + 1).split('*').at(-1) ?? '');
  }
  if (target.endsWith('/')) return files.matches(path === '' ? '' : `${path}/`, '');
  return files.has(path);
}

/**
 * The entry points a package.json declares that the archive does not hold. A package without
 * `main` (a types-only, CLI or CSS package) declares none there; `null` `exports` targets exclude
 * a subpath and are not looked up; an array of fallbacks resolves when one of them does.
 */
export function missingEntryPoints(manifest: Record<string, unknown>, files: FileLookup): EntryPointResult {
  const missing: MissingEntry[] = [];
  let declared = 0;
  const room = (): boolean => declared < MAX_ENTRY_TARGETS;

  const exports = manifest.exports;
  // Node reads `main` only when there is no `exports` (`null` is none: a package with both is loaded by its exports).
  if (exports == null && typeof manifest.main === 'string' && manifest.main.trim() !== '') {
    const path = packagePath(manifest.main.trim());
    if (path !== null) {
      declared += 1;
      if (!mainResolves(path, files)) missing.push({ field: 'main', key: '', target: manifest.main, primary: true });
    }
  }

  const bins: [string, unknown][] = typeof manifest.bin === 'string' ? [[typeof manifest.name === 'string' ? manifest.name.replace(/^@[^/]*\//, '') : '', manifest.bin]] : isObject(manifest.bin) ? Object.entries(manifest.bin) : [];
  let commands = 0;
  for (const [name, target] of bins) {
    if (!room()) break;
    if (typeof target !== 'string' || target.trim() === '') continue;
    const path = packagePath(target.trim());
    if (path === null || path === '') continue;
    declared += 1;
    commands += 1;
    if (!files.has(path)) missing.push({ field: 'bin', key: name, target, primary: true });
  }

  const typesField = typeof manifest.types === 'string' ? manifest.types : typeof manifest.typings === 'string' ? manifest.typings : null;
  if (typesField !== null && typesField.trim() !== '' && room()) {
    const path = packagePath(typesField.trim());
    if (path !== null) {
      declared += 1;
      if (!typesResolve(path, files)) missing.push({ field: 'types', key: '', target: typesField, primary: false });
    }
  }

  const exportTargets: { key: string; value: unknown }[] = [];
  if (isObject(exports) && Object.keys(exports).some((k) => k.startsWith('.'))) {
    for (const [subpath, value] of Object.entries(exports)) if (subpath.startsWith('.')) exportTargets.push({ key: subpath, value });
  } else if (exports != null) {
    exportTargets.push({ key: '.', value: exports });
  }
  // A types package (DefinitelyTyped's `@types/` scope) is never loaded by Node: TypeScript reads
  // its `exports`, finding a `.js` target's declaration beside it (@types/three names three's
  // own `./build/three.module.js`, which it ships as `three.module.d.ts`).
  const typesPackage = typeof manifest.name === 'string' && manifest.name.startsWith('@types/');
  const lookUp = (target: string, types: boolean): boolean | null => {
    if (!types) return exportResolves(target, files);
    const found = exportResolves(target, files);
    if (found !== false) return found;
    if (target.includes('*')) return /\.[cm]?js$/.test(target) ? exportResolves(declarationOf(target), files) : false;
    const path = packagePath(target);
    return path === null ? null : typesResolve(path, files);
  };
  /**
   * Each condition path leads to one target (or an array of fallbacks): every one Node can reach
   * is a way the package is loaded. `modes` are the resolutions (a `require`, an `import`) that
   * reach `value`; it returns those it settles. Node takes the first condition that matches, so
   * once `node` or `default` (which always match) or `import`/`require` settled a resolution, the
   * conditions after it are never read for it (figlet's `.` lists `require` after `node`);
   * `module-sync` and `node-addons` match on some Node versions or flags only, and settle none.
   */
  // Named subpath exports (not a `*` pattern, not `./package.json`) whose JavaScript Node finds.
  let subpathsFound = 0;
  const namedCode = (subpath: string, types: boolean): boolean => subpath !== '.' && !types && !typesPackage && !subpath.includes('*') && !subpath.endsWith('.json');
  const walk = (subpath: string, key: string, value: unknown, depth: number, types: boolean, modes: ReadonlySet<Mode>): ReadonlySet<Mode> => {
    if (!room() || depth > MAX_DEPTH) return modes;
    const primary = subpath === '.' && !types && !typesPackage;
    const field = types || typesPackage ? 'types' : 'exports';
    if (typeof value === 'string') {
      const found = lookUp(value, types || typesPackage);
      if (found === null) return modes;
      declared += 1;
      if (!found) missing.push({ field, key, target: value, primary });
      else if (namedCode(subpath, types) && CODE_FILE.test(value)) subpathsFound += 1;
      return modes;
    }
    if (Array.isArray(value)) {
      const results = value.slice(0, 16).map((v) => (typeof v === 'string' ? lookUp(v, types || typesPackage) : null));
      const looked = results.filter((r) => r !== null);
      if (looked.length === 0) return modes;
      declared += 1;
      const first = value.find((v): v is string => typeof v === 'string');
      if (!looked.includes(true)) missing.push({ field, key, target: first ?? '', primary });
      else if (namedCode(subpath, types) && first !== undefined && CODE_FILE.test(first)) subpathsFound += 1;
      return modes;
    }
    if (value === null) return modes;
    if (!isObject(value)) return new Set();
    const open = new Set(modes);
    for (const [condition, inner] of Object.entries(value)) {
      if (open.size === 0) break;
      if (isTypesCondition(condition)) {
        walk(subpath, `${key} ${condition}`, inner, depth + 1, true, open);
        continue;
      }
      const reached = condition === 'import' || condition === 'require' ? [...open].filter((m) => m === condition) : NODE_CONDITIONS.has(condition) ? [...open] : [];
      if (reached.length === 0) continue;
      const settled = walk(subpath, `${key} ${condition}`, inner, depth + 1, types, new Set(reached));
      if (!UNSETTLING_CONDITIONS.has(condition)) for (const m of settled) open.delete(m);
    }
    return new Set([...modes].filter((m) => !open.has(m)));
  };
  for (const { key, value } of exportTargets) walk(key, key, value, 0, false, BOTH_MODES);

  // A package that ships a command, all of whose targets are there, is run, not required: a
  // missing `main` (npm init's default `index.js`, or a stale folder: yo 7.0.1's `lib`, which has
  // no index) or `.` export (prisma 7.10.1's, a types entry with no runtime file) breaks an
  // `import` of the command package, not its command — listed, as a subpath export is.
  if (commands > 0 && !missing.some((m) => m.field === 'bin')) for (const m of missing) m.primary = false;
  // A package whose `.` export is missing while named subpath exports are there is imported by
  // those subpaths (@modelcontextprotocol/sdk 1.32.2 exports `./client`, `./server` and more, its
  // documentation imports only them, and ships no `.` target): a bare import of the package fails,
  // the imports it is used by load — listed, as a missing subpath export is, not a broken release.
  if (subpathsFound > 0) for (const m of missing) if (m.field === 'exports') m.primary = false;

  return { declared, missing };
}

/** The files Node loads for a package without `main` (its own index, LOAD_INDEX), and the module forms a bundler may take for it. */
const ROOT_INDEX_FILES = ['index.js', 'index.cjs', 'index.mjs', 'index.json', 'index.node'];

/**
 * Whether a `require` or `import` of the package finds anything to load (docs/checks.md,
 * `type-declarations`): true when its package.json declares `main`, `module`, `browser` (a file),
 * `exports` (any non-null value), `types` or `typings`, or the archive holds a root index file;
 * false only when none of that is so and `listedAll` (every file of the archive was listed);
 * undefined otherwise — an index past the files listed may be there.
 */
export function offersImport(manifest: Record<string, unknown>, files: FileLookup, listedAll: boolean): boolean | undefined {
  const named = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
  if (['main', 'module', 'browser', 'types', 'typings'].some((field) => named(manifest[field]))) return true;
  if (manifest.exports !== undefined && manifest.exports !== null) return true;
  if (ROOT_INDEX_FILES.some((file) => files.has(file))) return true;
  return listedAll ? false : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

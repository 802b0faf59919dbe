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
 * Paths a lookup walks at most for patterns, over all of them (256 patterns over 200,000 files
 * would walk 51 million); past it a pattern is taken as matched: work not done is never a finding.
 */
export const PATTERN_STEPS = 2_000_000;

/** A lookup over a list of paths. */
export function fileLookup(paths: Iterable<string>): FileLookup {
  const files = new Set(paths);
  const sorted = [...files].sort();
  let steps = 0;
  return {
    has: (path) => files.has(path),
    matches: (prefix, suffix) => {
      // Binary search for the first path at or after the prefix, then walk the paths that start with it.
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid]! < prefix) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
        if (++steps > PATTERN_STEPS) return true;
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
function isTypesCondition(condition: string): boolean {
  return condition === 'types' || condition.startsWith('types@');
}

/** TypeScript's lookup for `types`: the file, with `.d.ts` added or put in place of `.js`, or a folder's index.d.ts. */
function typesResolve(path: string, files: FileLookup): boolean {
  if (path === '') return files.has('index.d.ts');
  const stem = path.replace(/\.(?:[cm]?js)$/, '');
  const declaration = /\.[cm]?js$/.test(path) ? `${stem}.d${path.slice(path.lastIndexOf('.')).replace('js', 'ts')}` : `${path}.d.ts`;
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
  for (const [name, target] of bins) {
    if (!room()) break;
    if (typeof target !== 'string' || target.trim() === '') continue;
    const path = packagePath(target.trim());
    if (path === null || path === '') continue;
    declared += 1;
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
  // Each condition path leads to one target (or an array of fallbacks): every one is a way the package is loaded.
  const walk = (subpath: string, key: string, value: unknown, depth: number, types: boolean): void => {
    if (!room() || depth > MAX_DEPTH) return;
    const primary = subpath === '.' && !types;
    if (typeof value === 'string') {
      const found = exportResolves(value, files);
      if (found === null) return;
      declared += 1;
      if (!found) missing.push({ field: types ? 'types' : 'exports', key, target: value, primary });
    } else if (Array.isArray(value)) {
      const results = value.slice(0, 16).map((v) => (typeof v === 'string' ? exportResolves(v, files) : null));
      const looked = results.filter((r) => r !== null);
      if (looked.length === 0) return;
      declared += 1;
      const first = value.find((v): v is string => typeof v === 'string');
      if (!looked.includes(true)) missing.push({ field: types ? 'types' : 'exports', key, target: first ?? '', primary });
    } else if (isObject(value)) {
      for (const [condition, inner] of Object.entries(value)) {
        if (NODE_CONDITIONS.has(condition)) walk(subpath, `${key} ${condition}`, inner, depth + 1, types);
        else if (isTypesCondition(condition)) walk(subpath, `${key} ${condition}`, inner, depth + 1, true);
      }
    }
  };
  for (const { key, value } of exportTargets) walk(key, key, value, 0, false);

  return { declared, missing };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

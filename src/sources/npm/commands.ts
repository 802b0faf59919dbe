/**
 * The command names npm links into `node_modules/.bin` (and, for `npm i -g`, onto the user's
 * PATH) for a package.json, read as npm reads them (docs/security.md, "Commands a package puts on
 * PATH"): each `bin` key cut to its last path segment (`\` and `:` count as `/`), a string `bin`
 * named after the package's unscoped name, and — only when `bin` is not set — every file under
 * `directories.bin` named by its file name. Names are compared lower-cased with a Windows
 * launcher extension (`.cmd`, `.exe`, …) dropped, as a case-insensitive PATH lookup finds them.
 */

/** Command names kept at most per package (a hostile map may have thousands of keys). */
export const MAX_COMMANDS = 200;
const MAX_NAME_CHARS = 100;

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** npm-normalize-package-bin's name rule: the last segment of the key, `\` and `:` read as `/`. */
export function linkedName(key: string): string | null {
  const segments = key.replace(/[\\:]/g, '/').split('/');
  const base = segments.at(-1) ?? '';
  if (base === '' || base === '.' || base === '..') return null;
  return base.slice(0, MAX_NAME_CHARS);
}

/** npm's test for "`bin` is set" (`!bin`): any set value keeps it from reading `directories.bin`. */
function binSet(bin: unknown): boolean {
  return bin !== undefined && bin !== null && bin !== '' && bin !== false && bin !== 0;
}

/** The `directories.bin` folder npm reads when `bin` is not set, relative and without `./`; null otherwise. */
export function commandsFolder(manifest: Obj): string | null {
  if (binSet(manifest.bin)) return null;
  const dir = isObj(manifest.directories) ? manifest.directories.bin : undefined;
  if (typeof dir !== 'string' || dir.trim() === '') return null;
  const folder = dir.trim().replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  return folder === '.' ? '' : folder;
}

/**
 * The command names a package.json's `bin` links; `files` (the archive's listing, paths relative
 * to the package root) gives those of `directories.bin`. Sorted, distinct, at most MAX_COMMANDS.
 */
export function linkedCommands(manifest: Obj, files?: Iterable<string>): string[] {
  const names = new Set<string>();
  const bin = manifest.bin;
  if (typeof bin === 'string' && bin.trim() !== '') {
    const name = typeof manifest.name === 'string' ? linkedName(manifest.name.replace(/^@[^/]*\//, '')) : null;
    if (name !== null) names.add(name);
  } else if (isObj(bin)) {
    for (const [key, target] of Object.entries(bin)) {
      if (typeof target !== 'string' || target.trim() === '') continue;
      const name = linkedName(key);
      if (name !== null) names.add(name);
      if (names.size >= MAX_COMMANDS) break;
    }
  } else {
    const folder = commandsFolder(manifest);
    if (folder !== null && files !== undefined) {
      const prefix = folder === '' ? '' : `${folder}/`;
      for (const path of files) {
        if (!path.startsWith(prefix)) continue;
        const name = linkedName(path);
        // npm globs the folder: dot-files are left out.
        if (name === null || name.startsWith('.')) continue;
        names.add(name);
        if (names.size >= MAX_COMMANDS) break;
      }
    }
  }
  return [...names].sort();
}

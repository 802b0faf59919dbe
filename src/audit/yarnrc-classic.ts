/**
 * The registries the audited project's yarn 1 (classic) `.yarnrc` files set (`registry "…"`,
 * `"@scope:registry" "…"`), read for one purpose only: yarn 1 fetches a yarn.lock v1 pin naming
 * no URL from there, and nerq never follows them, not even with `--trust-project-npmrc`
 * (docs/security.md, "The audited tree is untrusted"; src/audit/lockfile-integrity.ts). The files
 * are the audited directory's and each parent's inside its checkout, where yarn 1 looks for them;
 * the nearest setting wins. Each is read as any file of the tree (inside it, at most
 * YARNRC_CLASSIC_MAX_BYTES, never blocking), line by line as yarn 1 reads its top-level keys
 * (install-settings.ts reads its `yarn-path` the same way); never a credential: a URL's user name,
 * password and query are dropped, and no other key is read. A file that cannot be read names no
 * registry. yarn 1 also reads a key written as a flag (`--registry "…"`, or `--install.registry "…"`
 * for `yarn install` alone) as that option on its command line, which overrides the `registry` key
 * of every file; the install-only one comes after the general one, so it wins.
 */
import path from 'node:path';
import { normaliseRegistry } from '../sources/npm/config.js';
import { withoutCredentials } from '../util/url-credentials.js';
import { readTreeFileSync } from './tree-file.js';

/** The largest `.yarnrc` read (a real one is a few hundred bytes). */
const YARNRC_CLASSIC_MAX_BYTES = 256 * 1024;

/**
 * A top-level `registry` or `@scope:registry` key, or the flag `--registry` / `--install.registry`
 * (quoted or not), then its value.
 */
const REGISTRY_LINE = /^("?)(registry|--registry|--install\.registry|@[a-z0-9][a-z0-9._~-]{0,213}:registry)\1:?[ \t]+(\S.*)$/i;

/** The keys of a flag-written registry, by how late yarn 1 applies them (the later wins). */
const FLAG_KEYS = ['--install.registry', '--registry'] as const;

/** A value as yarn 1 writes it: quoted (JSON-style) or bare. */
function unquote(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The registries of one `.yarnrc` text by scope (`''` for the default, the flag itself for a
 * flag-written one), first setting of each.
 */
function parseRegistries(text: string): Map<string, string> {
  const found = new Map<string, string>();
  // yarn 1 strips a byte-order mark before it parses the file (its lockfile parser's stripBOM).
  for (const raw of text.replace(/^\ufeff/, '').split('\n')) {
    const match = REGISTRY_LINE.exec(raw.replace(/\r$/, ''));
    if (match?.[2] === undefined || match[3] === undefined) continue;
    const key = match[2].toLowerCase();
    const scope = key === 'registry' ? '' : key.startsWith('--') ? key : key.slice(0, -':registry'.length);
    const value = unquote(match[3]);
    if (value === null || found.has(scope)) continue;
    try {
      found.set(scope, normaliseRegistry(withoutCredentials(value), '.yarnrc registry'));
    } catch {
      // not a URL yarn could use either
    }
  }
  return found;
}

/**
 * The registry the project's `.yarnrc` files (from `dir` up to `boundary`, the checkout) set for
 * each package: its scope's, else the default; null for a package they set none for.
 */
export function yarnClassicRegistries(dir: string, boundary: string): (packageName: string) => string | null {
  const root = path.resolve(boundary);
  const settings = new Map<string, string>();
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const relative = path.relative(root, current);
    if (relative.startsWith('..') || path.isAbsolute(relative)) break;
    const read = readTreeFileSync(path.join(current, '.yarnrc'), root, YARNRC_CLASSIC_MAX_BYTES);
    if (read.kind === 'text') {
      for (const [scope, registry] of parseRegistries(read.text)) if (!settings.has(scope)) settings.set(scope, registry);
    }
    if (relative === '') break;
  }
  return (packageName) => {
    const slash = packageName.indexOf('/');
    const scoped = packageName.startsWith('@') && slash > 1 ? settings.get(packageName.slice(0, slash).toLowerCase()) : undefined;
    return scoped ?? FLAG_KEYS.map((key) => settings.get(key)).find((value) => value !== undefined) ?? settings.get('') ?? null;
  };
}

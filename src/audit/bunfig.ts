/**
 * The registries the audited project's `bunfig.toml` sets for `bun install` (`[install] registry`,
 * `[install.scopes]`, each a URL or a table with a `url`), read for one purpose only: a bun.lock
 * pin naming no URL is fetched from there, and nerq never follows it (docs/security.md, "The
 * audited tree is untrusted"; src/audit/lockfile-integrity.ts). Read as any file of the tree
 * (inside it, size-capped, never blocking); never a credential: a URL's user name, password and
 * query are dropped, a table's `token`, `username` and `password` are not read. A file that
 * cannot be read or parsed names no registry.
 */
import path from 'node:path';
import { parse } from 'smol-toml';
import { normaliseRegistry } from '../sources/npm/config.js';
import { withoutCredentials } from '../util/url-credentials.js';
import { readTreeFileSync } from './tree-file.js';

/** The largest bunfig.toml read (a real one is a few hundred bytes). */
const BUNFIG_MAX_BYTES = 256 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A registry setting's URL (a string, or a table's `url`), normalised without credentials; null when unusable. */
function registryUrl(value: unknown): string | null {
  const raw = typeof value === 'string' ? value : isRecord(value) && typeof value.url === 'string' ? value.url : null;
  if (raw === null) return null;
  try {
    return normaliseRegistry(withoutCredentials(raw.trim()), 'bunfig.toml registry');
  } catch {
    return null;
  }
}

/**
 * The registry the `bunfig.toml` in `dir` (inside `boundary`) sets for each package: its scope's,
 * else the default; null for a package it sets none for.
 */
export function bunfigRegistries(dir: string, boundary: string): (packageName: string) => string | null {
  const read = readTreeFileSync(path.join(dir, 'bunfig.toml'), boundary, BUNFIG_MAX_BYTES);
  if (read.kind !== 'text') return () => null;
  let install: unknown;
  try {
    install = (parse(read.text) as Record<string, unknown>).install;
  } catch {
    return () => null;
  }
  if (!isRecord(install)) return () => null;
  const fallback = registryUrl(install.registry);
  const scopes = new Map<string, string>();
  if (isRecord(install.scopes)) {
    for (const [name, value] of Object.entries(install.scopes)) {
      const url = registryUrl(value);
      if (url !== null) scopes.set(`@${name.replace(/^@/, '').toLowerCase()}`, url);
    }
  }
  return (packageName) => {
    const slash = packageName.indexOf('/');
    const scoped = packageName.startsWith('@') && slash > 1 ? scopes.get(packageName.slice(0, slash).toLowerCase()) : undefined;
    return scoped ?? fallback;
  };
}

/**
 * Dependencies a package ships inside its own tarball (`bundleDependencies`): npm installs them
 * from that tarball, not from the registry (docs/security.md, "Bundled dependencies"). The
 * lockfile readers list them in the bundling package's `bundled` and write one note per
 * bundling package.
 */
import type { BundledRef } from '../audit/types.js';
import { quote } from './text.js';

/** Names a note spells out before it counts the rest. */
const NAMED = 5;

/**
 * `package-lock.json:120: "tap@16.3.10" bundles 163 dependencies in its tarball ("ink", "react", …):
 * npm installs them from it, not from the registry`.
 */
export function bundledNote(file: string, line: number | null, id: string, bundled: readonly BundledRef[]): string {
  const names = [...new Set(bundled.map((b) => b.name))];
  const shown = names.slice(0, NAMED).map(quote).join(', ');
  const more = names.length > NAMED ? `, and ${names.length - NAMED} more` : '';
  const count = bundled.length === 1 ? 'a dependency' : `${bundled.length} dependencies`;
  return `${file}:${line ?? '?'}: ${quote(id)} bundles ${count} in its tarball (${shown}${more}): npm installs them from it, not from the registry`;
}

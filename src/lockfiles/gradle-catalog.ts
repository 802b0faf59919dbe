/**
 * A Gradle version catalog (`gradle/libs.versions.toml`, docs/scoring.md §9):
 * the libraries a Gradle build declares, each `group:artifact` (as OSV names Maven packages)
 * with the version the catalog gives it.
 *
 * - `[libraries]`: `alias = "g:a:v"`, or a table with `module = "g:a"` or `group` and `name`, and
 *   `version = "v"`, `version.ref = "<key of [versions]>"` or a rich version
 *   `version = { strictly | require | prefer = "v" }` (the first of them that is given).
 * - `[plugins]` and `[bundles]` declare no library: not read.
 * - A version that is a range (`[1.0,2.0)`, `1.+`, `latest.release`), a reference to no
 *   `[versions]` key, or no version at all (a platform or the build script gives it): the
 *   library is `unresolved` with the reason, never guessed.
 *
 * The versions are what the build declares for its direct dependencies (Gradle resolves a version
 * at least that high): the set is direct only and not pinned. A catalog cannot tell test
 * libraries apart: every library counts as runtime. Pure; a file that is not TOML throws a
 * `LockfileError` (toml-text.ts).
 */
import { LockfileError } from '../audit/types.js';
import { parseToml, tableNamed, tomlLayout } from './toml-text.js';
import { quote } from './text.js';

export interface CatalogLibrary {
  /** `group:artifact`. */
  name: string;
  /** The version the catalog gives; null when it gives none that is one version (`reason` says why). */
  version: string | null;
  /** What the catalog writes (a version, a range, `version.ref = x`); '' when nothing. */
  declared: string;
  reason: string | null;
  line: number | null;
}

export interface VersionCatalog {
  file: string;
  libraries: CatalogLibrary[];
  /** What was skipped and why, one line each. */
  notes: string[];
}

/** More libraries than this is not a real catalog (the tree reader caps the bytes first). */
const MAX_LIBRARIES = 5000;
/** A Maven coordinate part: what a group id or artifact id may be. */
const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Why `version` is not one version Gradle would resolve to, or null when it is one. */
export function notOneVersion(version: string): string | null {
  if (version === '') return 'an empty version';
  if (/^[[\]()]|,/.test(version)) return `a version range (${quote(version.slice(0, 80))})`;
  if (version.endsWith('+')) return `a prefix version (${quote(version.slice(0, 80))}: the newest published match)`;
  if (/^latest\./i.test(version)) return `a dynamic version (${quote(version.slice(0, 80))})`;
  if (/\$\{|\s/.test(version) || version.length > 100) return `not a version (${quote(version.slice(0, 80))})`;
  return null;
}

/** The version a `[versions]` entry or a library's `version` gives: a string, or the first of strictly / require / prefer. */
function versionOf(value: unknown): { version: string | null; declared: string; reason: string | null } {
  if (typeof value === 'string') {
    const why = notOneVersion(value.trim());
    return { version: why === null ? value.trim() : null, declared: value, reason: why };
  }
  const rich = record(value);
  if (rich === null) return { version: null, declared: '', reason: 'a version that is neither a string nor a table' };
  for (const key of ['strictly', 'require', 'prefer']) {
    const given = rich[key];
    if (typeof given !== 'string') continue;
    const why = notOneVersion(given.trim());
    return { version: why === null ? given.trim() : null, declared: `${key} ${given}`, reason: why };
  }
  return { version: null, declared: '', reason: 'a rich version with no strictly, require or prefer version' };
}

export function readVersionCatalog(text: string, file: string): VersionCatalog {
  const toml = parseToml(text, file);
  const layout = tomlLayout(text);
  const versions = record(toml.versions) ?? {};
  const libraries = record(toml.libraries);
  if (toml.libraries !== undefined && libraries === null) throw new LockfileError(file, tableNamed(layout, 'libraries')?.line ?? null, '[libraries] is not a table');
  const entries = Object.entries(libraries ?? {});
  if (entries.length > MAX_LIBRARIES) throw new LockfileError(file, null, `more than ${MAX_LIBRARIES} libraries: not a version catalog`);
  const lineOf = (alias: string) => tableNamed(layout, 'libraries')?.keys.get(alias) ?? tableNamed(layout, `libraries.${alias}`)?.line ?? null;
  const notes: string[] = [];
  const out: CatalogLibrary[] = [];
  for (const [alias, raw] of entries) {
    const line = lineOf(alias);
    const skip = (why: string) => notes.push(`${file}${line === null ? '' : `:${line}`}: ${quote(alias)} skipped: ${why}`);
    let group: unknown;
    let artifact: unknown;
    let version: { version: string | null; declared: string; reason: string | null } | null = null;
    const table = record(raw);
    if (typeof raw === 'string') {
      const parts = raw.split(':');
      if (parts.length < 2 || parts.length > 3) {
        skip(`not "group:artifact:version" (${quote(raw.slice(0, 120))})`);
        continue;
      }
      [group, artifact] = parts;
      if (parts[2] !== undefined) version = versionOf(parts[2]);
    } else if (table !== null) {
      const module = typeof table.module === 'string' ? table.module.split(':') : null;
      [group, artifact] = module === null ? [table.group, table.name] : module.length === 2 ? module : [undefined, undefined];
      const given = table.version;
      const ref = record(given)?.ref;
      if (typeof ref === 'string') {
        version = Object.hasOwn(versions, ref) ? versionOf(versions[ref]) : { version: null, declared: `version.ref = ${ref}`, reason: `version.ref ${quote(ref.slice(0, 80))} names no [versions] entry` };
      } else if (given !== undefined) version = versionOf(given);
    } else {
      skip('neither a string nor a table');
      continue;
    }
    if (typeof group !== 'string' || typeof artifact !== 'string' || !PART.test(group) || !PART.test(artifact)) {
      skip('no "group:artifact" module');
      continue;
    }
    const name = `${group}:${artifact}`;
    if (version === null) {
      out.push({ name, version: null, declared: '', reason: 'no version in the catalog (a platform or the build script gives it)', line });
      continue;
    }
    out.push({ name, version: version.version, declared: version.declared, reason: version.reason, line });
  }
  return { file, libraries: out, notes };
}

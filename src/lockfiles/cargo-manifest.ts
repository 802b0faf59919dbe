/**
 * The direct dependencies a `Cargo.toml` declares when no `Cargo.lock` pins them (docs/scoring.md
 * §9): `[dependencies]`, `[build-dependencies]` and `[dev-dependencies]` (and their old
 * `build_dependencies` / `dev_dependencies` spellings), each also under `[target.'<cfg>'.*]`.
 *
 * - `name = "req"` or `name = { version = "req", package = "real", … }`: the crate (renames
 *   undone) with its version requirement, to be resolved against crates.io's index.
 * - `name = { workspace = true }`: the entry of the workspace root's `[workspace.dependencies]`
 *   under that key (its version, path, git or registry); none there, a note.
 * - `path` (the project's own code), `git` and another `registry`: not resolved, named in
 *   `unvouched` with what they are; a table with neither version nor source: a note.
 *
 * Dev: declared under dev-dependencies only (build-dependencies run at build time: runtime).
 * Pure; a file that is not TOML throws a `LockfileError` (toml-text.ts).
 */
import { parseToml } from './toml-text.js';
import { quote } from './text.js';
import { withoutCredentials } from '../util/url-credentials.js';

export interface CargoRequirement {
  /** The crate's name on crates.io. */
  name: string;
  /** Its version requirement as written (`1.0`, `^0.2.3`, `>=1, <2`). */
  requirement: string;
  dev: boolean;
}

export interface CargoManifestDependencies {
  dependencies: CargoRequirement[];
  /** The declarations not resolved against crates.io (path, git, another registry), each a note. */
  unvouched: string[];
  notes: string[];
  /** `[workspace.dependencies]` of this manifest (a workspace root's), for its members. */
  workspaceDependencies: Record<string, unknown> | null;
}

const KINDS: ReadonlyArray<[string, boolean]> = [
  ['dependencies', false],
  ['build-dependencies', false],
  ['build_dependencies', false],
  ['dev-dependencies', true],
  ['dev_dependencies', true],
];

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * @param workspace the `[workspace.dependencies]` of the workspace root above this manifest
 *   (null when none was read: `workspace = true` entries are then named, not resolved).
 */
export function readCargoManifest(text: string, file: string, workspace: Record<string, unknown> | null = null): CargoManifestDependencies {
  const toml = parseToml(text, file);
  const own = record(record(toml.workspace).dependencies);
  const inherited = workspace ?? (Object.keys(own).length > 0 ? own : null);
  const dependencies: CargoRequirement[] = [];
  const unvouched: string[] = [];
  const notes: string[] = [];
  const tables = [toml, ...Object.values(record(toml.target)).map(record)];
  for (const table of tables) {
    for (const [kind, dev] of KINDS) {
      for (const [key, raw] of Object.entries(record(table[kind]))) {
        let spec: unknown = raw;
        let from = '';
        const declared = record(raw);
        if (declared.workspace === true) {
          const root = inherited === null ? undefined : inherited[key];
          if (root === undefined) {
            notes.push(`${file}: ${quote(key)} skipped: inherited from a workspace whose [workspace.dependencies] was not read or does not name it`);
            continue;
          }
          spec = root;
          // A path in [workspace.dependencies] is relative to the workspace root, not to this file.
          if (workspace !== null) from = ', from the workspace root';
        }
        const entry = typeof spec === 'string' ? { version: spec } : record(spec);
        const name = typeof entry.package === 'string' ? entry.package : key;
        if (typeof entry.git === 'string') {
          unvouched.push(`${file}: ${quote(name)} skipped: from a git repository (${quote(withoutCredentials(entry.git).replace(/[?#].*$/, '').slice(0, 200))}${from}), not resolved`);
          continue;
        }
        if (typeof entry.path === 'string') {
          unvouched.push(`${file}: ${quote(name)} skipped: a local path (${quote(entry.path.slice(0, 200))}${from}), not resolved`);
          continue;
        }
        if (typeof entry.registry === 'string' || typeof entry['registry-index'] === 'string') {
          unvouched.push(`${file}: ${quote(name)} skipped: from a registry other than crates.io${from}, not resolved`);
          continue;
        }
        if (typeof entry.version !== 'string') {
          notes.push(`${file}: ${quote(name)} skipped: no version requirement`);
          continue;
        }
        dependencies.push({ name, requirement: entry.version.trim(), dev });
      }
    }
  }
  return { dependencies, unvouched, notes, workspaceDependencies: Object.keys(own).length > 0 ? own : null };
}

/**
 * Yarn berry's registry settings, read from `.yarnrc.yml` for one purpose: which hosts a
 * lockfile may fetch a package's tarball from (a yarn `__archiveUrl`, a `resolved` URL) without
 * a hash the registry publishes for it (src/audit/lockfile-integrity.ts). They never change
 * which registry nerq reads a package's metadata from: that stays npm's configuration
 * (src/sources/npm/config.ts), as documented in README.md ("nerq audit").
 *
 * Read: `npmRegistryServer` and `npmScopes.<scope>.npmRegistryServer`, from
 * - the `YARN_NPM_REGISTRY_SERVER` environment variable, as yarn reads it;
 * - the user's `~/.yarnrc.yml` (trusted like the user's `.npmrc`); `${NAME}`, `${NAME:-default}`
 *   and `${NAME-default}` in those two values are expanded from the environment as yarn does
 *   (an unset variable without a default: the value is ignored, with a warning);
 * - the audited project's `.yarnrc.yml` files (the audited directory and each parent inside its
 *   checkout, where yarn looks for them) only with `--trust-project-npmrc`: the audited tree is
 *   untrusted (docs/security.md). Otherwise a file that sets a registry is ignored with a
 *   `yarnrc-ignored` warning. Nothing in a project file is expanded: a value holding `${` is
 *   ignored, it would read this machine's environment.
 * Nothing else of a file is read: its `npmAuthToken`, `npmAuthIdent` and every other key stay
 * in the parsed text, which is dropped; no warning quotes a value or the YAML parser's message
 * (which quotes the file's text). A file is at most YARNRC_MAX_BYTES, parsed linearly (no
 * duplicate-key search, aliases capped); an unreadable or malformed one is a `yarnrc-invalid`
 * warning, never a failure.
 */
import os from 'node:os';
import path from 'node:path';
import type { parseDocument as ParseDocument } from 'yaml';
import { readTreeFileSync } from './tree-file.js';
import { normaliseRegistry } from '../sources/npm/config.js';

/** The largest `.yarnrc.yml` read (a real one is a few hundred bytes). */
export const YARNRC_MAX_BYTES = 256 * 1024;

const FILE_NAME = '.yarnrc.yml';

export interface YarnrcWarning {
  /** `yarnrc-ignored`: a project file's registries not followed; `yarnrc-invalid`: a file or value that cannot be used. */
  code: 'yarnrc-ignored' | 'yarnrc-invalid';
  /** One line, no value from the file. */
  message: string;
}

export interface YarnRegistries {
  /** The registries yarn is configured to fetch `packageName` from: its scope's, and the default ones. */
  registriesFor(packageName: string): string[];
  readonly warnings: readonly YarnrcWarning[];
  /**
   * The registry an audited project's `.yarnrc.yml` sets for a package (its scope's, else
   * `npmRegistryServer`) that nerq does not follow (no `--trust-project-npmrc`), or null.
   */
  ignoredProjectRegistry?(packageName: string): string | null;
}

export interface LoadYarnRegistriesOptions {
  env: NodeJS.ProcessEnv;
  /** The audited directory: its `.yarnrc.yml`, and each parent's up to `untrustedDir`, are the project's. */
  cwd: string;
  /** The checkout holding `cwd`, whose files are untrusted (no project file is read without it). */
  untrustedDir?: string;
  /** --trust-project-npmrc: follow the project files' registries. */
  trustProject?: boolean;
}

/** A file's registry settings, values as written. */
interface Settings {
  defaults: Array<{ key: string; value: string }>;
  scopes: Array<{ scope: string; key: string; value: string }>;
}

/** An npm scope name (without `@`), as yarn writes it under `npmScopes`. */
const SCOPE = /^[a-z0-9][a-z0-9._~-]{0,213}$/i;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

let parseDocument: typeof ParseDocument | undefined;

/**
 * Loads the YAML parser the files are read with. An audit's runtime awaits it before
 * loadYarnRegistries (src/app/runtime.ts): a check reads no `.yarnrc.yml`, and does not load it.
 */
export async function loadYarnrcParser(): Promise<void> {
  const yaml = await import('yaml');
  // yaml is CommonJS: bundled (dist/), the dynamic import's namespace holds it as its default only (in Node too, beside its names).
  parseDocument ??= yaml.default.parseDocument;
}

/** The registry settings of a `.yarnrc.yml` text, or null when it is not a YAML mapping. */
function parseSettings(text: string): Settings | null {
  if (parseDocument === undefined) throw new Error('loadYarnrcParser() was not awaited before reading a .yarnrc.yml');
  // failsafe: every scalar a string; uniqueKeys off (its search is quadratic); logLevel silent:
  // the parser must not write the file's text to stderr.
  const doc = parseDocument(text, { uniqueKeys: false, schema: 'failsafe', logLevel: 'silent' });
  if (doc.errors.length > 0) return null;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return null;
  }
  const settings: Settings = { defaults: [], scopes: [] };
  if (value === null || value === undefined || value === '') return settings; // an empty file
  if (!isRecord(value)) return null;
  if (Object.hasOwn(value, 'npmRegistryServer') && typeof value.npmRegistryServer === 'string') {
    settings.defaults.push({ key: 'npmRegistryServer', value: value.npmRegistryServer });
  }
  const scopes = Object.hasOwn(value, 'npmScopes') ? value.npmScopes : undefined;
  if (isRecord(scopes)) {
    for (const [name, scope] of Object.entries(scopes)) {
      const bare = name.startsWith('@') ? name.slice(1) : name;
      if (!SCOPE.test(bare) || !isRecord(scope) || !Object.hasOwn(scope, 'npmRegistryServer')) continue;
      if (typeof scope.npmRegistryServer !== 'string') continue;
      settings.scopes.push({ scope: `@${bare.toLowerCase()}`, key: `npmScopes.${bare}.npmRegistryServer`, value: scope.npmRegistryServer });
    }
  }
  return settings;
}

/** yarn's `${NAME}`, `${NAME-default}`, `${NAME:-default}` (with `:`, an empty value takes the default too). */
const VARIABLE = /\$\{([A-Za-z0-9_]+)(:)?(?:-([^}]*))?\}/g;

/** `value` with its variables expanded from `env`, or the name of an unset one without a default. */
function expand(value: string, env: NodeJS.ProcessEnv): { value: string } | { unset: string } {
  let unset: string | undefined;
  const expanded = value.replace(VARIABLE, (whole, name: string, colon: string | undefined, fallback: string | undefined) => {
    const set = Object.hasOwn(env, name) ? env[name] : undefined;
    if (set !== undefined && (colon === undefined || set !== '')) return set;
    if (fallback !== undefined) return fallback;
    unset ??= name;
    return whole;
  });
  return unset === undefined ? { value: expanded } : { unset };
}

class Collected implements YarnRegistries {
  readonly warnings: YarnrcWarning[] = [];
  readonly #defaults = new Set<string>();
  readonly #scopes = new Map<string, Set<string>>();
  readonly #ignored = new Map<string, string>();

  ignoredProjectRegistry(packageName: string): string | null {
    const slash = packageName.indexOf('/');
    const scoped = packageName.startsWith('@') && slash > 1 ? this.#ignored.get(packageName.slice(0, slash).toLowerCase()) : undefined;
    return scoped ?? this.#ignored.get('') ?? null;
  }

  /** A project setting not followed, kept for the lockfile check (src/audit/lockfile-integrity.ts); scope '' for the default. */
  ignore(scope: string, raw: string): void {
    if (raw.includes('${') || this.#ignored.has(scope)) return;
    try {
      this.#ignored.set(scope, normaliseRegistry(raw, 'npmRegistryServer'));
    } catch {
      // not a URL yarn could use either
    }
  }

  registriesFor(packageName: string): string[] {
    const slash = packageName.indexOf('/');
    const scoped = packageName.startsWith('@') && slash > 1 ? this.#scopes.get(packageName.slice(0, slash).toLowerCase()) : undefined;
    return [...(scoped ?? []), ...this.#defaults];
  }

  /** Add one setting's registry; a value that is not a usable URL is a warning naming the key only. */
  add(label: string, key: string, raw: string, scope: string | null, env: NodeJS.ProcessEnv | null): void {
    let value = raw;
    if (env === null) {
      if (raw.includes('${')) {
        this.invalid(`${label}: ${key} uses an environment variable, which is not expanded in the audited project's files: ignored`);
        return;
      }
    } else {
      const expanded = expand(raw, env);
      if ('unset' in expanded) {
        this.invalid(`${label}: ${key} ignored, \${${expanded.unset}} is not set`);
        return;
      }
      value = expanded.value;
    }
    let registry: string;
    try {
      registry = normaliseRegistry(value, key);
    } catch (error) {
      this.invalid(`${label}: ignored ${(error as Error).message}`);
      return;
    }
    if (scope === null) this.#defaults.add(registry);
    else this.#scopes.set(scope, (this.#scopes.get(scope) ?? new Set<string>()).add(registry));
  }

  invalid(message: string): void {
    this.warnings.push({ code: 'yarnrc-invalid', message });
  }
}

/** Read one file and add its registries (`env` null: an untrusted project file, nothing expanded). */
function addFile(into: Collected, file: string, label: string, boundary: string | null, env: NodeJS.ProcessEnv | null, trust: boolean): void {
  const read = readTreeFileSync(file, boundary, YARNRC_MAX_BYTES);
  if (read.kind === 'missing') return;
  if (read.kind !== 'text') {
    const why = read.kind === 'outside' ? 'it resolves outside the audited tree' : read.kind === 'too-large' ? `it is larger than ${YARNRC_MAX_BYTES} bytes` : 'it could not be read';
    into.invalid(`${label}: ignored, ${why}`);
    return;
  }
  const settings = parseSettings(read.text);
  if (settings === null) {
    into.invalid(`${label}: ignored, it could not be parsed`);
    return;
  }
  const keys = [...settings.defaults.map((s) => s.key), ...settings.scopes.map((s) => s.key)];
  if (keys.length === 0) return;
  if (!trust) {
    into.warnings.push({ code: 'yarnrc-ignored', message: `${label} sets ${keys.join(', ')}: ignored (pass --trust-project-npmrc to follow it)` });
    for (const { value } of settings.defaults) into.ignore('', value);
    for (const { scope, value } of settings.scopes) into.ignore(scope, value);
    return;
  }
  for (const { key, value } of settings.defaults) into.add(label, key, value, null, env);
  for (const { scope, key, value } of settings.scopes) into.add(label, key, value, scope, env);
}

/** The project's `.yarnrc.yml` files yarn would read: `cwd`'s and each parent's, inside `untrustedDir`. */
function projectFiles(cwd: string, untrustedDir: string): string[] {
  const root = path.resolve(untrustedDir);
  const files: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const relative = path.relative(root, dir);
    if (relative.startsWith('..') || path.isAbsolute(relative)) break;
    files.push(path.join(dir, FILE_NAME));
    if (relative === '') break;
  }
  return files;
}

/** Yarn's configured registries for an audit (never throws; problems are warnings). */
export function loadYarnRegistries(options: LoadYarnRegistriesOptions): YarnRegistries {
  const { env } = options;
  const collected = new Collected();
  const fromEnv = env.YARN_NPM_REGISTRY_SERVER;
  if (fromEnv !== undefined && fromEnv.trim() !== '') collected.add('YARN_NPM_REGISTRY_SERVER', 'YARN_NPM_REGISTRY_SERVER', fromEnv, null, env);

  const userFile = path.resolve(env.HOME ?? os.homedir(), FILE_NAME);
  const project = options.untrustedDir === undefined ? [] : projectFiles(options.cwd, options.untrustedDir);
  if (!project.includes(userFile)) addFile(collected, userFile, `yarn configuration ${userFile}`, null, env, true);
  for (const file of project) {
    const relative = path.relative(path.resolve(options.untrustedDir ?? options.cwd), file).split(path.sep).join('/');
    addFile(collected, file, `the audited project's ${relative}`, options.untrustedDir ?? null, null, options.trustProject === true);
  }
  return collected;
}

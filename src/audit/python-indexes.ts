/**
 * The Python package indexes configured on the machine that audits, read for one purpose: a
 * requirements file (or a pyproject.toml nerq reads alone) that names no other index is
 * installed there by `pip install -r` / `uv pip install -r`, which also consult these. Such an
 * index is treated as one the file names itself (`--extra-index-url`): a pin is then PyPI's
 * release only with a sha256 PyPI publishes for it (src/audit/lockfile-integrity.ts,
 * docs/security.md "Lockfile injection"). An index configured here only makes nerq stricter.
 *
 * Read, as pip and uv read them (README.md, "nerq audit"):
 * - pip: `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_FIND_LINKS` (whitespace-separated lists),
 *   and the `index-url`, `extra-index-url`, `find-links` of the `[global]` and `[install]`
 *   sections of `PIP_CONFIG_FILE` (none at all when it is the null device), the user's files
 *   (Linux: `$XDG_CONFIG_HOME/pip/pip.conf` or `~/.config/pip/pip.conf`, and `~/.pip/pip.conf`;
 *   macOS: `~/Library/Application Support/pip/pip.conf` too; Windows: `%APPDATA%\pip\pip.ini`
 *   and `~\pip\pip.ini`) and the active virtual environment's (`$VIRTUAL_ENV/pip.conf`);
 * - uv: `UV_INDEX_URL`, `UV_DEFAULT_INDEX`, `UV_INDEX` and `UV_EXTRA_INDEX_URL`
 *   (space-separated; a `UV_INDEX` item may be `name=url`), `UV_FIND_LINKS` (comma-separated),
 *   and `index-url`, `extra-index-url`, `find-links`, `[[index]] url` (top level or under
 *   `[pip]`) of `UV_CONFIG_FILE`, else the user's `uv.toml` (`$XDG_CONFIG_HOME/uv/uv.toml` or
 *   `~/.config/uv/uv.toml`; Windows `%APPDATA%\uv\uv.toml`), none with `UV_NO_CONFIG`.
 * System-wide files (`/etc/pip.conf`, `/etc/xdg/pip/pip.conf`, `/etc/uv/uv.toml`) are not read.
 *
 * An index is kept without its credentials and query (src/util/url-credentials.ts), and named
 * by the setting it came from (`PIP_EXTRA_INDEX_URL`, `pip.conf extra-index-url`): no value
 * reaches a message. A file is at most PYTHON_CONFIG_MAX_BYTES; an unreadable or malformed one
 * is a `python-config-invalid` warning naming the file, never a failure.
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { parse as ParseToml } from 'smol-toml';
import { withoutCredentials } from '../util/url-credentials.js';
import { readTreeFileSync } from './tree-file.js';
import { pipConfigValues, uvConfigValues } from '../lockfiles/python-settings.js';

/** The largest pip.conf or uv.toml read (a real one is a few hundred bytes). */
export const PYTHON_CONFIG_MAX_BYTES = 256 * 1024;

export interface PythonIndex {
  /** The index or find-links location, without credentials or query. */
  url: string;
  /** Where it is configured: the environment variable's name, or the file kind and key. */
  from: string;
}

export interface PythonIndexes {
  readonly indexes: readonly PythonIndex[];
  /** One line each, naming the file, never a value from it. */
  readonly warnings: readonly string[];
}

export interface LoadPythonIndexesOptions {
  env: NodeJS.ProcessEnv;
  /** Defaults to this process's platform (the file locations differ). */
  platform?: NodeJS.Platform;
}


let parse: typeof ParseToml | undefined;

/**
 * Loads the TOML parser uv.toml is read with. An audit's runtime awaits it before
 * loadPythonIndexes (src/app/runtime.ts): a check reads no uv.toml, and does not load it.
 */
export async function loadPythonConfigParser(): Promise<void> {
  parse ??= (await import('smol-toml')).parse;
}

class Collected implements PythonIndexes {
  readonly indexes: PythonIndex[] = [];
  readonly warnings: string[] = [];

  add(from: string, values: readonly string[]): void {
    for (const value of values) {
      const trimmed = value.trim();
      if (trimmed !== '') this.indexes.push({ url: withoutCredentials(trimmed), from });
    }
  }

  file(file: string, kind: 'pip.conf' | 'uv.toml', label: string): void {
    // The user's own file, wherever a link (a dotfile manager's) points: resolved first, since
    // the read itself follows no link.
    let real = file;
    try {
      real = realpathSync(file);
    } catch {
      // missing or unreadable: the read below says which
    }
    const read = readTreeFileSync(real, null, PYTHON_CONFIG_MAX_BYTES);
    if (read.kind === 'missing') return;
    if (read.kind !== 'text') {
      this.warnings.push(`${label} ${file}: ignored, ${read.kind === 'too-large' ? `it is larger than ${PYTHON_CONFIG_MAX_BYTES} bytes` : 'it could not be read'}`);
      return;
    }
    let values: Array<{ key: string; value: string }>;
    if (kind === 'pip.conf') values = pipConfigValues(read.text);
    else {
      if (parse === undefined) throw new Error('loadPythonConfigParser() was not awaited before reading a uv.toml');
      try {
        values = uvConfigValues(parse(read.text));
      } catch {
        this.warnings.push(`${label} ${file}: ignored, it could not be parsed`);
        return;
      }
    }
    for (const { key, value } of values) this.add(`${label} ${key}`, kind === 'pip.conf' ? value.split(/\s+/) : [value]);
  }
}

/** `$XDG_CONFIG_HOME` when set and not empty, else `~/.config` (Linux and macOS, as pip and uv read it). */
function xdgConfigHome(env: NodeJS.ProcessEnv, home: string): string {
  return env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : path.posix.join(home, '.config');
}

/** The user's pip configuration files for `platform`, in the order pip reads them. */
export function pipUserFiles(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  if (platform === 'win32') {
    return [p.join(home, 'pip', 'pip.ini'), ...(env.APPDATA === undefined ? [] : [p.join(env.APPDATA, 'pip', 'pip.ini')])];
  }
  const xdg = xdgConfigHome(env, home);
  return [
    p.join(home, '.pip', 'pip.conf'),
    ...(platform === 'darwin' ? [p.join(home, 'Library', 'Application Support', 'pip', 'pip.conf')] : []),
    p.join(xdg, 'pip', 'pip.conf'),
  ];
}

/** The user's uv.toml for `platform`. */
export function uvUserFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  if (platform === 'win32') return env.APPDATA === undefined ? null : path.win32.join(env.APPDATA, 'uv', 'uv.toml');
  return path.posix.join(xdgConfigHome(env, env.HOME ?? os.homedir()), 'uv', 'uv.toml');
}

/**
 * A location on this machine's own disk: a `file:` URL or a path (no `scheme://`), such as an
 * operator's wheelhouse (`PIP_FIND_LINKS=/opt/wheels`) or an offline mirror
 * (`file:///opt/pypi/simple`). The machine's own configuration names it, so no pull request or
 * remote host can change what it serves: it is not counted as another index (docs/security.md,
 * "Lockfile injection"); a find-links or index in the audited files still is.
 */
export function isLocalLocation(url: string): boolean {
  return /^file:/i.test(url.trim()) || !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url.trim());
}

/** pip's and uv's configured indexes on this machine (never throws; problems are warnings). */
export function loadPythonIndexes(options: LoadPythonIndexesOptions): PythonIndexes {
  const { env } = options;
  const platform = options.platform ?? process.platform;
  const collected = new Collected();
  const set = (name: string): string | null => (Object.hasOwn(env, name) && env[name] !== undefined && env[name].trim() !== '' ? env[name] : null);
  const fromEnv = (name: string, separator: RegExp, item: (value: string) => string = (v) => v) => {
    const value = set(name);
    if (value !== null) collected.add(name, value.split(separator).map(item));
  };
  fromEnv('PIP_INDEX_URL', /\s+/);
  fromEnv('PIP_EXTRA_INDEX_URL', /\s+/);
  fromEnv('PIP_FIND_LINKS', /\s+/);
  fromEnv('UV_INDEX_URL', /\s+/);
  fromEnv('UV_DEFAULT_INDEX', /\s+/);
  fromEnv('UV_EXTRA_INDEX_URL', /\s+/);
  // `name=url`: the name is a word, so an `=` before the scheme's `://` separates it.
  fromEnv('UV_INDEX', /\s+/, (v) => v.replace(/^[A-Za-z0-9_.-]+=(?=[A-Za-z][A-Za-z0-9+.-]*:)/, ''));
  fromEnv('UV_FIND_LINKS', /,/);

  const pipConfigFile = set('PIP_CONFIG_FILE');
  const devNull = platform === 'win32' ? /^nul$/i : /^\/dev\/null$/;
  if (pipConfigFile === null || !devNull.test(pipConfigFile.trim())) {
    if (pipConfigFile !== null) collected.file(pipConfigFile, 'pip.conf', 'PIP_CONFIG_FILE');
    for (const file of pipUserFiles(env, platform)) collected.file(file, 'pip.conf', 'pip.conf');
    const venv = set('VIRTUAL_ENV');
    if (venv !== null) collected.file((platform === 'win32' ? path.win32 : path.posix).join(venv, platform === 'win32' ? 'pip.ini' : 'pip.conf'), 'pip.conf', 'pip.conf');
  }
  if (set('UV_NO_CONFIG') === null) {
    const uvConfigFile = set('UV_CONFIG_FILE');
    const file = uvConfigFile ?? uvUserFile(env, platform);
    if (file !== null) collected.file(file, 'uv.toml', uvConfigFile === null ? 'uv.toml' : 'UV_CONFIG_FILE');
  }
  return collected;
}

/**
 * The user's npm configuration, resolved the way npm resolves it: the registry (default and
 * `@scope:registry`), registry credentials, CA certificates, strict-ssl and proxies.
 *
 * Precedence: `--registry` > NERQ_NPM_REGISTRY > `npm_config_*` environment > project
 * `.npmrc` (at the project root found from `cwd`, as npm finds it) > user `.npmrc`
 * (`npm_config_userconfig` or `$HOME/.npmrc`) > global npmrc (`npm_config_globalconfig`, else
 * `$PREFIX/etc/npmrc`) > npm's built-in defaults. The files are read and `${VAR}`-substituted
 * by @pnpm/npm-conf, which also carries npm's default registry, so it is never written here.
 *
 * `cwd` is where npm would look for the project's `.npmrc`. For a directory being audited, pass
 * it with `untrustedDir`: its `.npmrc` is then untrusted data, not configuration.
 *
 * Every file is read through the reader the caller hands in (`readFile`: src/audit/tree-file.ts,
 * which this layer may not import, docs/architecture.md): without blocking, so a FIFO or a
 * device in place of a file is refused with a warning, never waited on; the project's `.npmrc`
 * inside an untrusted directory must also resolve inside it (docs/security.md, "The audited
 * tree is untrusted").
 *
 * Credentials stay inside the returned object: they are only ever turned into an
 * Authorization header for a URL on the host (and port) they were configured for, and never
 * appear in an error, a warning, `toString()`, `JSON.stringify()` or `util.inspect()`.
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ini from 'ini';
import { inspect } from 'node:util';
// @ts-expect-error -- untyped CommonJS module; the part used is typed by NpmConfDefaults below.
import npmConfModule from '@pnpm/npm-conf';
// @ts-expect-error -- untyped CommonJS module; the part used is typed by ConfConstructor below.
import ConfModule from '@pnpm/npm-conf/lib/conf.js';
import * as typesModule from '@pnpm/npm-conf/lib/types.js';
// @ts-expect-error -- untyped CommonJS module; the part used is typed by NpmConfUtil below.
import utilModule from '@pnpm/npm-conf/lib/util.js';

/** The slice of @pnpm/npm-conf's config chain that is used here. */
interface ConfChain {
  add(data: Record<string, unknown>, marker: string): void;
  addEnv(env: Record<string, string | undefined>): void;
  /** Parse `text` (read from `file`) as `type` and add it as the layer `name`; throws on a bad value. */
  addString(text: string, file: string, type: 'ini', name: string): void;
  set(key: string, value: unknown): void;
  get(key: string, where?: string): unknown;
  /** Every key of every layer. */
  readonly keys: string[];
}
type ConfConstructor = new (base: Record<string, unknown>, types: unknown) => ConfChain;
interface NpmConfDefaults {
  readonly defaults: { registry: string; globalconfig: string; 'strict-ssl': boolean };
}
interface NpmConfUtil {
  findPrefix(dir: string): string;
}

const Conf = ConfModule as ConfConstructor;
const npmConf = npmConfModule as NpmConfDefaults;

/** npm's built-in default registry (the public one), as npm itself carries it. */
export function npmDefaultRegistry(): string {
  return normaliseRegistry(npmConf.defaults.registry, "npm's default registry");
}
const confTypes: unknown = typesModule.types;
const confUtil = utilModule as NpmConfUtil;

/** A configuration that cannot be used (for example a registry that is not an http(s) URL). */
export class NpmConfigError extends Error {
  override name = 'NpmConfigError';
}

/** The largest `.npmrc` read (a real one is a few hundred bytes). */
const NPMRC_MAX_BYTES = 256 * 1024;
/** The largest `cafile` read (a whole CA bundle is a few hundred KiB). */
const CAFILE_MAX_BYTES = 4 * 1024 * 1024;

/** What a read gives: the text, or why there is none. */
export type ConfigFileRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** Resolves (through a symbolic link) outside the boundary. */
  | { kind: 'outside' }
  | { kind: 'not-a-file' | 'too-large' | 'error' };

/**
 * Reads `absolute` as text without blocking and without following a link at the last step,
 * within `boundary` (null: anywhere): src/audit/tree-file.ts's `readTreeFileSync`.
 */
export type ConfigFileReader = (absolute: string, boundary: string | null, maxBytes: number) => ConfigFileRead;

export interface LoadNpmConfigOptions {
  env: NodeJS.ProcessEnv;
  /** How every configuration file is read (see ConfigFileReader). */
  readFile: ConfigFileReader;
  /** The directory nerq runs in (npm's project `.npmrc` is looked up from here). */
  cwd: string;
  /** `--registry` from the command line. */
  cliRegistry?: string;
  /**
   * A directory whose contents are untrusted (the tree `nerq audit` reads). A project `.npmrc`
   * inside it is not configuration: its credentials are never read, and its registry settings
   * are followed only with `trustProjectRegistry` (else a warning names what was ignored).
   */
  untrustedDir?: string;
  trustProjectRegistry?: boolean;
}

export interface NpmConfig {
  /** The default registry, with a trailing slash. */
  readonly registry: string;
  /** Registry for a package: its scope's `@scope:registry` when configured, else the default. */
  registryFor(packageName: string): string;
  /**
   * `Authorization` header value for a request to `url`, from npm's per-registry credentials
   * (`//host[:port]/path/:_authToken`, `:_auth`, `:username` + `:_password`), longest matching
   * path first, and only for that host and port. Never sent over plain http unless a
   * configured registry on that host is itself http.
   */
  authHeaderFor(url: string): string | undefined;
  /** Extra CA certificates (PEM) from `ca` / `cafile`, or undefined. */
  readonly ca: readonly string[] | undefined;
  readonly strictSsl: boolean;
  readonly proxy: string | undefined;
  readonly httpsProxy: string | undefined;
  readonly noProxy: string | undefined;
  /** Problems met while reading the configuration (one line each, no secrets). */
  readonly warnings: readonly string[];
  /**
   * The registry the audited project's `.npmrc` sets for a package (its scope's, else its
   * `registry`) that nerq does not follow (no `--trust-project-npmrc`), or null: the package
   * manager fetches what a lockfile pins without a URL from there.
   */
  ignoredProjectRegistry?(packageName: string): string | null;
  /**
   * npm's `replace-registry-host` where a project registry is ignored: the audited project's
   * `.npmrc` value, else the user's own, else null (npm's default, `npmjs`). It decides which
   * lockfile `resolved` URLs npm fetches from the configured registry (src/audit/lockfile-integrity.ts).
   */
  replaceRegistryHost?(): string | null;
}

interface Credentials {
  token?: string;
  auth?: string;
  username?: string;
  password?: string;
}

const AUTH_FIELDS: Record<string, keyof Credentials> = {
  _authToken: 'token',
  _auth: 'auth',
  username: 'username',
  _password: 'password',
};

/** Normalise a registry URL to end with one slash; throw (without echoing it) when not http(s). */
export function normaliseRegistry(value: unknown, label: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new NpmConfigError(`${label} is not set to a URL`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new NpmConfigError(`${label} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NpmConfigError(`${label} must be an http:// or https:// URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new NpmConfigError(`${label} must not contain credentials (use a //host/:_authToken entry)`);
  }
  url.search = '';
  url.hash = '';
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** `//host[:port]/path/` key (host lower-cased) and field of a credentials entry, if it is one. */
function parseAuthKey(key: string): { nerf: string; field: keyof Credentials } | undefined {
  if (!key.startsWith('//')) return undefined;
  const colon = key.lastIndexOf(':');
  if (colon <= 2) return undefined;
  const field = AUTH_FIELDS[key.slice(colon + 1)];
  if (field === undefined) return undefined;
  const nerf = key.slice(0, colon);
  const slash = nerf.indexOf('/', 2);
  const host = slash === -1 ? nerf.slice(2) : nerf.slice(2, slash);
  const rest = slash === -1 ? '' : nerf.slice(slash);
  return { nerf: `//${host.toLowerCase()}${rest}`, field };
}

function headerFrom(credentials: Credentials): string | undefined {
  if (credentials.token) return `Bearer ${credentials.token}`;
  if (credentials.auth) return `Basic ${credentials.auth}`;
  if (credentials.username && credentials.password) {
    const password = Buffer.from(credentials.password, 'base64').toString('utf8');
    return `Basic ${Buffer.from(`${credentials.username}:${password}`).toString('base64')}`;
  }
  return undefined;
}

function optionalString(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join(',') : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function caList(value: unknown): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === 'string' && item.trim() !== '',
  );
  return list.length > 0 ? list : undefined;
}

class LoadedNpmConfig implements NpmConfig {
  readonly registry: string;
  readonly ca: readonly string[] | undefined;
  readonly strictSsl: boolean;
  readonly proxy: string | undefined;
  readonly httpsProxy: string | undefined;
  readonly noProxy: string | undefined;
  readonly warnings: readonly string[];
  readonly #scopes: ReadonlyMap<string, string>;
  readonly #ignoredRegistries: ReadonlyMap<string, string>;
  readonly #replaceRegistryHost: string | null;
  readonly #credentials: ReadonlyMap<string, Credentials>;
  /** Hosts (host[:port]) that have an http: registry configured: the only http hosts auth goes to. */
  readonly #plainHttpHosts: ReadonlySet<string>;

  constructor(fields: {
    registry: string;
    scopes: Map<string, string>;
    credentials: Map<string, Credentials>;
    ca: string[] | undefined;
    strictSsl: boolean;
    proxy: string | undefined;
    httpsProxy: string | undefined;
    noProxy: string | undefined;
    warnings: string[];
    ignored: IgnoredProjectSettings;
  }) {
    this.registry = fields.registry;
    this.ca = fields.ca === undefined ? undefined : Object.freeze([...fields.ca]);
    this.strictSsl = fields.strictSsl;
    this.proxy = fields.proxy;
    this.httpsProxy = fields.httpsProxy;
    this.noProxy = fields.noProxy;
    this.warnings = Object.freeze([...fields.warnings]);
    this.#scopes = fields.scopes;
    this.#ignoredRegistries = fields.ignored.registries;
    this.#replaceRegistryHost = fields.ignored.replaceRegistryHost;
    this.#credentials = fields.credentials;
    const httpHosts = new Set<string>();
    for (const registry of [fields.registry, ...fields.scopes.values()]) {
      const url = new URL(registry);
      if (url.protocol === 'http:') httpHosts.add(url.host);
    }
    this.#plainHttpHosts = httpHosts;
  }

  registryFor(packageName: string): string {
    if (packageName.startsWith('@')) {
      const slash = packageName.indexOf('/');
      if (slash > 1) {
        const scoped = this.#scopes.get(packageName.slice(0, slash));
        if (scoped !== undefined) return scoped;
      }
    }
    return this.registry;
  }

  ignoredProjectRegistry(packageName: string): string | null {
    const slash = packageName.indexOf('/');
    const scoped = packageName.startsWith('@') && slash > 1 ? this.#ignoredRegistries.get(packageName.slice(0, slash)) : undefined;
    return scoped ?? this.#ignoredRegistries.get('registry') ?? null;
  }

  replaceRegistryHost(): string | null {
    return this.#replaceRegistryHost;
  }

  authHeaderFor(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol === 'http:' && !this.#plainHttpHosts.has(parsed.host)) return undefined;
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    // npm's walk: //host/a/b/ → //host/a/b → //host/a/ → //host/a → //host/ → //host
    let key = `//${parsed.host}${parsed.pathname}`;
    const hostOnly = `//${parsed.host}`;
    while (key.length >= hostOnly.length) {
      const credentials = this.#credentials.get(key);
      const header = credentials === undefined ? undefined : headerFrom(credentials);
      if (header !== undefined) return header;
      if (key === hostOnly) break;
      key = key.replace(/(?:[^/]+|\/)$/, '');
    }
    return undefined;
  }

  /** What is safe to show: no credentials. */
  toJSON(): Record<string, unknown> {
    return {
      registry: this.registry,
      scopes: Object.fromEntries(this.#scopes),
      credentialsFor: [...this.#credentials.keys()],
      strictSsl: this.strictSsl,
      ca: this.ca === undefined ? 0 : this.ca.length,
      proxy: this.proxy !== undefined,
      httpsProxy: this.httpsProxy !== undefined,
      noProxy: this.noProxy,
    };
  }

  toString(): string {
    return `NpmConfig(${this.registry})`;
  }

  [inspect.custom](): string {
    return `NpmConfig ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * Run `fn` with `process.env` temporarily replaced by a view of `env`: @pnpm/npm-conf
 * substitutes `${VAR}` (and expands `~/`) from `process.env`, and the caller's environment
 * must win. `fn` is synchronous, so nothing else can observe the swap.
 *
 * The view answers `${NAME}` for an unset NAME, so a reference to an unset variable stays
 * literal — what npm does — instead of making the library drop the whole file (a CI
 * `.npmrc` with `//host/:_authToken=${NPM_TOKEN}` must still give its registry).
 */
function withProcessEnv<T>(env: NodeJS.ProcessEnv, fn: () => T): T {
  const view = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string' && key !== 'HOME' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
        if (!Object.prototype.hasOwnProperty.call(target, key)) return `\${${key}}`;
      }
      return Reflect.get(target, key);
    },
  });
  const saved = process.env;
  process.env = view;
  try {
    return fn();
  } finally {
    process.env = saved;
  }
}

/** A one-line, secret-free account of why a configuration file was skipped. */
function safeWarning(file: string, warning: string): string {
  if (/tokenHelper/.test(warning)) return `npm configuration ${file}: skipped, tokenHelper uses a variable`;
  return `npm configuration ${file}: skipped, it could not be parsed`;
}

/** Name of an unexpanded `${VAR}` left in a value (its variable was not set). */
function unsetVariable(value: string): string | undefined {
  return /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(value)?.[1];
}

/** npm's setting naming which `resolved` hosts it swaps for the configured registry (`npmjs`, `never`, `always` or a host name). */
const REPLACE_REGISTRY_HOST = 'replace-registry-host';

/**
 * What nerq does not follow of an untrusted project `.npmrc`, for the lockfile check
 * (src/audit/lockfile-integrity.ts): its registries by key (`registry`, `@scope`) and npm's
 * `replace-registry-host` beside them (the project's, else the user's own).
 */
interface IgnoredProjectSettings {
  readonly registries: Map<string, string>;
  replaceRegistryHost: string | null;
}

/** Read the user's npm configuration. Throws NpmConfigError (secret-free, one line) when unusable. */
export function loadNpmConfig(options: LoadNpmConfigOptions): NpmConfig {
  const { env, cwd } = options;
  const builtin = npmConf.defaults;
  const warnings: string[] = [];
  const ignored: IgnoredProjectSettings = { registries: new Map(), replaceRegistryHost: null };

  let conf: ConfChain;
  try {
    conf = withProcessEnv(env, () => readChain(options, builtin, warnings, ignored));
  } catch (error) {
    if (error instanceof NpmConfigError) throw error;
    // The library's own messages can quote a setting's value (a token): never pass them on.
    throw new NpmConfigError('the npm configuration (command line or npm_config_* environment) could not be parsed');
  }

  // npm's `replace-registry-host` of the user's own configuration, where the project's sets none.
  const userReplace = conf.get(REPLACE_REGISTRY_HOST);
  if (ignored.registries.size > 0 && ignored.replaceRegistryHost === null && typeof userReplace === 'string' && userReplace.trim() !== '') {
    ignored.replaceRegistryHost = userReplace.trim().toLowerCase();
  }

  const registry = normaliseRegistry(
    conf.get('registry'),
    options.cliRegistry !== undefined ? '--registry' : 'the npm registry setting',
  );
  const scopes = new Map<string, string>();
  const credentials = new Map<string, Credentials>();
  for (const key of new Set(conf.keys)) {
    const value = conf.get(key);
    const scoped = /^(@[^/:]+):registry$/.exec(key);
    if (scoped?.[1] !== undefined) {
      try {
        scopes.set(scoped[1], normaliseRegistry(value, `${scoped[1]}:registry`));
      } catch (error) {
        warnings.push(`npm configuration: ignored ${(error as Error).message}`);
      }
      continue;
    }
    const auth = parseAuthKey(key);
    if (auth === undefined || typeof value !== 'string' || value === '') continue;
    const unset = unsetVariable(value);
    if (unset !== undefined) {
      warnings.push(`npm configuration: credentials for ${auth.nerf} ignored, \${${unset}} is not set`);
      continue;
    }
    const entry = credentials.get(auth.nerf) ?? {};
    entry[auth.field] = value;
    credentials.set(auth.nerf, entry);
  }

  const strictSsl = conf.get('strict-ssl');
  return new LoadedNpmConfig({
    registry,
    scopes,
    credentials,
    ca: caList(conf.get('ca')),
    strictSsl: strictSsl !== false && strictSsl !== 'false',
    proxy: optionalString(conf.get('proxy')),
    httpsProxy: optionalString(conf.get('https-proxy')),
    noProxy: optionalString(conf.get('noproxy')) ?? optionalString(conf.get('no-proxy')),
    warnings,
    ignored,
  });
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Why a file that exists was not used, in words (no part of its content). */
function refusal(read: Exclude<ConfigFileRead, { kind: 'text' } | { kind: 'missing' }>, maxBytes: number): string {
  if (read.kind === 'outside') return 'it resolves outside the audited tree';
  if (read.kind === 'not-a-file') return 'it is not a regular file';
  if (read.kind === 'too-large') return `it is larger than ${maxBytes} bytes`;
  return 'it could not be read';
}

/**
 * One of the user's own files (trusted: a link, as a dotfile manager's, is followed to wherever
 * it points): its text, `missing`, or `refused` (a warning says why).
 */
function readOwnFile(readFile: ConfigFileReader, file: string, maxBytes: number, label: string, warnings: string[]): { text: string } | 'missing' | 'refused' {
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // missing or unreadable: the read below says which
  }
  const read = readFile(real, null, maxBytes);
  if (read.kind === 'text') return { text: read.text };
  if (read.kind === 'missing') return 'missing';
  warnings.push(`${label} ${file}: skipped, ${refusal(read, maxBytes)}`);
  return 'refused';
}

/** Registry settings (`registry`, `@scope:registry`) of an untrusted project .npmrc; never its credentials. */
function addUntrustedProject(
  chain: ConfChain,
  options: { file: string; boundary: string; trust: boolean; readFile: ConfigFileReader },
  warnings: string[],
  ignored: IgnoredProjectSettings,
): void {
  const { file, boundary, trust } = options;
  const read = options.readFile(file, boundary, NPMRC_MAX_BYTES);
  if (read.kind === 'missing') return; // no project .npmrc
  if (read.kind !== 'text') {
    // A FIFO, a device or a link out of the tree: not used, and its content never read.
    warnings.push(`the audited project's .npmrc: ignored, ${refusal(read, NPMRC_MAX_BYTES)}`);
    return;
  }
  const text = read.text;
  let parsed: Record<string, unknown>;
  try {
    parsed = ini.parse(text) as Record<string, unknown>;
  } catch {
    warnings.push(`the audited project's .npmrc could not be parsed: ignored`);
    return;
  }
  const registries = Object.keys(parsed).filter((key) => key === 'registry' || /^@[^/:]+:registry$/.test(key));
  if (registries.length === 0) return;
  if (!trust) {
    warnings.push(
      `the audited project's .npmrc sets ${registries.join(', ')}: ignored (pass --trust-project-npmrc to follow it); using your own npm registry`,
    );
    // Kept for the lockfile check (src/audit/lockfile-integrity.ts): the registries by key, npm's `replace-registry-host` beside them.
    const replace = parsed[REPLACE_REGISTRY_HOST];
    if (typeof replace === 'string' && replace.trim() !== '') ignored.replaceRegistryHost = replace.trim().toLowerCase();
    for (const key of registries) {
      const value = parsed[key];
      if (typeof value !== 'string') continue;
      try {
        ignored.registries.set(key === 'registry' ? key : key.slice(0, -':registry'.length), normaliseRegistry(value, key));
      } catch {
        // not a URL npm could use either: nothing is fetched from it
      }
    }
    return;
  }
  const settings: Record<string, string> = {};
  for (const key of registries) if (typeof parsed[key] === 'string') settings[key] = parsed[key];
  chain.add(settings, 'project');
}

/** Build the layered chain (runs inside withProcessEnv). */
function readChain(
  options: LoadNpmConfigOptions,
  builtin: NpmConfDefaults['defaults'],
  warnings: string[],
  ignored: IgnoredProjectSettings,
): ConfChain {
  const { env, cwd } = options;
  const chain = new Conf({ registry: builtin.registry, 'strict-ssl': builtin['strict-ssl'] }, confTypes);
  const override = options.cliRegistry ?? optionalString(env.NERQ_NPM_REGISTRY);
  chain.add(override === undefined ? {} : { registry: override }, 'cli');
  chain.addEnv(env);

  // Which files are trusted as user and global configuration is decided before any project
  // file is read, from the command line, the environment and the defaults only.
  const userconfig = optionalString(chain.get('userconfig')) ?? path.join(env.HOME ?? os.homedir(), '.npmrc');
  const prefix = optionalString(chain.get('prefix')) ?? optionalString(env.PREFIX);
  const globalconfig =
    optionalString(chain.get('globalconfig')) ??
    (prefix === undefined ? builtin.globalconfig : path.resolve(prefix, 'etc', 'npmrc'));
  const projectconfig = path.resolve(confUtil.findPrefix(cwd), '.npmrc');

  const files: Array<[string, string]> = [];
  const untrusted = options.untrustedDir !== undefined && isInside(projectconfig, path.resolve(options.untrustedDir));
  if (untrusted) {
    const boundary = path.resolve(options.untrustedDir ?? cwd);
    addUntrustedProject(chain, { file: projectconfig, boundary, trust: options.trustProjectRegistry === true, readFile: options.readFile }, warnings, ignored);
  } else if (projectconfig !== path.resolve(userconfig)) files.push([projectconfig, 'project']);
  files.push([userconfig, 'user'], [globalconfig, 'global']);
  for (const [file, layer] of files) {
    // Read here, not by the library (whose plain read would wait on a FIFO for ever).
    const read = readOwnFile(options.readFile, file, NPMRC_MAX_BYTES, 'npm configuration', warnings);
    if (typeof read === 'string') continue;
    try {
      chain.addString(read.text, file, 'ini', layer);
    } catch (error) {
      warnings.push(safeWarning(file, error instanceof Error ? error.message : ''));
    }
  }

  const cafile = optionalString(chain.get('cafile'));
  if (cafile !== undefined) {
    const read = readOwnFile(options.readFile, cafile, CAFILE_MAX_BYTES, 'npm configuration: cafile', warnings);
    if (read === 'missing') warnings.push(`npm configuration: cafile ${cafile} does not exist`);
    else if (read !== 'refused') {
      // As npm splits a CA bundle: one certificate per END line.
      const delimiter = '-----END CERTIFICATE-----';
      const certificates = read.text
        .split(delimiter)
        .filter((part) => part.trim() !== '')
        .map((part) => `${part.trimStart()}${delimiter}`);
      chain.set('ca', certificates);
    }
  }
  return chain;
}

/**
 * Whether a launch points its package runner at a registry other than the public one: a flag
 * (`npx --registry …` in any spelling npm reads — `--reg`, `--regis=…` —, `--@scope:registry=…`,
 * `--userconfig`, `--globalconfig`, `--prefix` (whose `etc/npmrc` npm reads); `uvx --index-url …`, `-i`,
 * `--extra-index-url`, `--find-links`, `--pip-args`…) or a variable the runner reads, named in the
 * launch's environment (`npm_config_registry`, `UV_INDEX_URL`, `PIP_INDEX_URL`…; only names are
 * read, never values). What such a launch installs is not the public package of that name, so
 * nerq does not evaluate it as one (docs/security.md, "Dependencies no registry vouches for").
 * Used for MCP client configurations (audit/mcp/launch.ts) and MCP Registry entries' runtime
 * arguments (ecosystems/mcp/collect.ts). Pure.
 */
import { withoutCredentials } from '../util/url-credentials.js';
import { npmExecWords } from './npm/exec-argv.js';
import type { PackageEcosystem } from './types.js';

/** Where the runner is pointed instead: the flag's value without credentials (its host when it is a URL), or `env NAME`. */
export interface Redirect {
  source: string;
  host: string | null;
}

/**
 * npm's settings that name where it installs from: the registry, an npmrc (`userconfig`,
 * `globalconfig`), `prefix` (npm reads the global npmrc at `<prefix>/etc/npmrc`, its
 * `globalconfig` default), and a scope's registry (`--@scope:registry=…`). Read from the words
 * as npm reads them (npm/exec-argv.ts: npx's rewrite, then nopt: `--reg`, `--regis=…`, `-C DIR`,
 * `-yC DIR` all reach these names).
 */
const NPM_REDIRECTING = new Set(['registry', 'userconfig', 'globalconfig', 'prefix']);
const SCOPE_REGISTRY = /^@[^:=]+:registry$/;

/** The values npm holds for its redirecting settings, read from `args` as npx's words. */
function npmRedirectValues(args: readonly string[]): string[] {
  return npmExecWords(args, 'npx')
    // A scope's registry is no setting npm knows: spelled without `=` it is a switch (`true`), and
    // the word after it the first npm exec runs (a URL is then a tarball fetched from there).
    .options.filter(([name, value]) => value !== '' && (NPM_REDIRECTING.has(name) || (SCOPE_REGISTRY.test(name) && value !== 'true' && value !== 'false')))
    .map(([, value]) => value);
}

const PYPI_FLAGS = ['--index', '--index-url', '-i', '--extra-index-url', '--default-index', '--find-links', '-f', '--config-file', '--pip-args'];
/**
 * `PREFIX` is npm's global prefix (DESTDIR goes in front of it on Unix), whose `etc/npmrc` npm
 * reads as its global configuration (npm/cli workspaces/config `loadGlobalPrefix`), as it does
 * for `npm_config_prefix`; Windows reads variable names in any case.
 */
const NPM_ENV = /^(?:npm_config_(?:@[^:]+:)?registry|npm_config_userconfig|npm_config_globalconfig|npm_config_prefix|prefix|destdir|yarn_npm_registry_server|bun_config_registry|pnpm_config_registry)$/i;
const PYPI_ENV = /^(?:uv_(?:index|index_url|extra_index_url|default_index|find_links|config_file)|pip_(?:index_url|extra_index_url|find_links|config_file)|pipx_.*index.*)$/i;

/**
 * Every value of a repeatable flag, `--flag v` and `--flag=v`, in order, up to `--`. `clustered`:
 * the runner reads its command line as clap (uv) and argparse (pipx) do, where a one-letter flag
 * takes its value in the same word (`-ihttps://…`) and follows other one-letter flags there
 * (`-qi https://…`, `-qihttps://…`): the first of `names` met in such a word takes the rest of it,
 * or the next word.
 */
export function flagValues(args: readonly string[], names: readonly string[], options: { clustered?: boolean } = {}): string[] {
  const letters = options.clustered === true ? new Set(names.filter((n) => /^-[A-Za-z]$/.test(n)).map((n) => n.charAt(1))) : new Set<string>();
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') break;
    let matched = false;
    for (const name of names) {
      if (arg === name && args[i + 1] !== undefined && args[i + 1] !== '--') values.push(args[++i] ?? '');
      else if (arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
      else continue;
      matched = true;
    }
    if (matched || letters.size === 0 || !/^-[A-Za-z]/.test(arg)) continue;
    for (let at = 1; at < arg.length && /[A-Za-z]/.test(arg.charAt(at)); at++) {
      if (!letters.has(arg.charAt(at))) continue;
      const rest = arg.slice(at + 1).replace(/^=/, '');
      if (rest !== '') values.push(rest);
      else if (args[i + 1] !== undefined && args[i + 1] !== '--') values.push(args[++i] ?? '');
      break;
    }
  }
  return values;
}

/**
 * `pipx run`'s long options (pipx 1.x). pipx reads its command line with argparse, which takes
 * any unambiguous abbreviation of one as the option: `--sp x` is `--spec x`, `--ind URL` is
 * `--index-url URL`, `--pi=…` is `--pip-args=…`, `--wi x` is `--with x`.
 */
const PIPX_RUN_OPTIONS = [
  '--no-cache', '--refresh', '--no-path-check', '--python-args', '--path', '--pypackages', '--with', '--spec', '--python', '--fetch-python',
  '--fetch-missing-python', '--system-site-packages', '--index-url', '--editable', '--pip-args', '--cooldown', '--backend', '--quiet',
  '--verbose', '--skip-maintenance', '--global', '--help',
];

/** A `pipx run` word in its full spelling (`--sp=x` → `--spec=x`); anything else, or an ambiguous abbreviation, as it is. */
export function pipxFlag(arg: string): string {
  const spelled = /^(--[A-Za-z][A-Za-z-]*)(=[\s\S]*)?$/.exec(arg);
  const name = spelled?.[1];
  if (name === undefined || PIPX_RUN_OPTIONS.includes(name)) return arg;
  const full = PIPX_RUN_OPTIONS.filter((option) => option.startsWith(name));
  return full.length === 1 ? `${full[0]}${spelled?.[2] ?? ''}` : arg;
}

/** Each package ecosystem's runner: the arguments that name another registry, and the environment variables that do. */
const REDIRECTS: Record<PackageEcosystem, { values(args: readonly string[]): string[]; env: RegExp }> = {
  npm: { values: (args) => npmRedirectValues(args), env: NPM_ENV },
  pypi: { values: (args) => flagValues(args, PYPI_FLAGS, { clustered: true }), env: PYPI_ENV },
};

const sameBase = (a: string, b: string) => a.trim().replace(/\/+$/, '').toLowerCase() === b.trim().replace(/\/+$/, '').toLowerCase();

/**
 * Where `args` / `envNames` point the ecosystem's runner instead of its public registry (naming one
 * of `publicRegistries` is no redirection), or null.
 */
export function registryRedirect(ecosystem: PackageEcosystem, args: readonly string[], envNames: readonly string[], publicRegistries: readonly string[]): Redirect | null {
  const values = REDIRECTS[ecosystem].values(args);
  for (const value of values) {
    if (publicRegistries.some((p) => sameBase(p, value))) continue;
    let host: string | null = null;
    try {
      host = new URL(value.trim()).hostname.toLowerCase() || null;
    } catch {
      // A file path (`--userconfig ./npmrc`, `--find-links ./wheels`) or pip arguments: no host to name.
    }
    return { source: withoutCredentials(value.trim()).slice(0, 512), host };
  }
  const env = REDIRECTS[ecosystem].env;
  const name = envNames.find((k) => env.test(k));
  return name === undefined ? null : { source: `env ${name}`, host: null };
}

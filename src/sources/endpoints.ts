/**
 * The public APIs' base URLs, and the environment overrides that point them elsewhere
 * (tests point every one at the loopback fixture server).
 *
 * This is the ONE module that names the public API hosts. The npm registry is not here: it
 * comes from the user's npm configuration (see npm/config.ts).
 */
import type { Ecosystem } from '../target/types.js';
import { npmDefaultRegistry } from './npm/config.js';

/** A public API: its default base URL, and the variable that points it elsewhere. */
interface Api {
  url: string;
  env: string;
}

/**
 * The public APIs each ecosystem's own I/O calls (its collector, its range resolver), and OSV's,
 * which every ecosystem shares. Exhaustive over `Ecosystem` (docs/architecture.md, "Add an
 * ecosystem"): a new ecosystem does not compile until it names its APIs here (`{}` for none), each
 * a field of `Endpoints`. The order is the order overrides are read in.
 */
const APIS = {
  npm: { npmApi: { url: 'https://api.npmjs.org', env: 'NERQ_NPM_API_URL' } },
  pypi: {
    pypi: { url: 'https://pypi.org', env: 'NERQ_PYPI_URL' },
    pypiFiles: { url: 'https://files.pythonhosted.org', env: 'NERQ_PYPI_FILES_URL' },
    pypiStats: { url: 'https://pypistats.org/api', env: 'NERQ_PYPISTATS_URL' },
  },
  github: {
    githubApi: { url: 'https://api.github.com', env: 'NERQ_GITHUB_API_URL' },
    githubGraphql: { url: 'https://api.github.com/graphql', env: 'NERQ_GITHUB_GRAPHQL_URL' },
    githubRaw: { url: 'https://raw.githubusercontent.com', env: 'NERQ_GITHUB_RAW_URL' },
    // A repository's Cargo.toml requirements without a Cargo.lock, resolved as cargo would (pipeline/repository-ranges.ts).
    cratesIndex: { url: 'https://index.crates.io', env: 'NERQ_CRATES_INDEX_URL' },
  },
  osv: { osvApi: { url: 'https://api.osv.dev', env: 'NERQ_OSV_API_URL' } },
  mcp: { mcpRegistry: { url: 'https://registry.modelcontextprotocol.io', env: 'NERQ_MCP_REGISTRY_URL' } },
} as const satisfies Record<Ecosystem | 'osv', Partial<Record<keyof Endpoints, Api>>>;

/**
 * Yarn's own public registry: it serves the public npm registry's content under yarn's host. It is
 * yarn berry's default `npmRegistryServer` (which real projects also write in their `.yarnrc.yml`)
 * and the host of yarn 1's `resolved` URLs. nerq never fetches from it: a project or a lockfile
 * naming it names the public registry (src/audit/lockfile-integrity.ts, dependency-confusion.ts).
 */
const YARN_PUBLIC_REGISTRY: Api = { url: 'https://registry.yarnpkg.com', env: 'NERQ_YARN_PUBLIC_REGISTRY' };

/** Every API of the table, by its field of `Endpoints`. */
type ApiField = { [K in keyof typeof APIS]: keyof (typeof APIS)[K] }[keyof typeof APIS];

const API_LIST = Object.values(APIS).flatMap((apis) => Object.entries(apis)) as [ApiField, Api][];

export const DEFAULT_ENDPOINTS = Object.fromEntries(API_LIST.map(([field, api]) => [field, api.url])) as Record<ApiField, string>;

/** The public GitHub host, whose repositories use `githubApi` / `githubGraphql`. */
export const GITHUB_HOST = 'github.com';

/** A GitHub Enterprise Server (or other non-github.com) host named by `GITHUB_SERVER_URL`. */
export interface GithubServer {
  /** Host (lower case, with port when not the default) whose repositories use this API. */
  host: string;
  api: string;
  graphql: string;
}

export interface Endpoints {
  /** npm downloads API. */
  npmApi: string;
  /** PyPI (JSON API under `/pypi/<name>/json`). */
  pypi: string;
  /**
   * Where PyPI serves distribution files (the JSON API's file URLs on PyPI's file host are read
   * from here). `resolveEndpoints` always sets it; a hand-built endpoints object without it reads
   * no file.
   */
  pypiFiles?: string;
  /** pypistats API. */
  pypiStats: string;
  /** GitHub REST API for github.com repositories. */
  githubApi: string;
  /** GitHub GraphQL endpoint (a full URL) for github.com repositories. */
  githubGraphql: string;
  /**
   * GitHub's raw file hosting for github.com repositories (`<base>/<owner>/<repo>/<commit>/<path>`),
   * which does not spend the REST rate limit: workflow files are read from there without a token
   * (sources/github/workflow-files.ts). `resolveEndpoints` always sets it; a hand-built endpoints
   * object without it reads them through REST. Never used for the `githubServer` host.
   */
  githubRaw?: string;
  /**
   * Set in GitHub Actions on a GitHub Enterprise Server (`GITHUB_SERVER_URL` names a host other
   * than github.com and `GITHUB_API_URL` is set): repositories on that host use this API.
   */
  githubServer?: GithubServer;
  /**
   * crates.io's sparse index (`<base>/<prefix>/<name>`, one JSON line per published version): a
   * repository's Cargo.toml requirements without a Cargo.lock are resolved against it.
   * `resolveEndpoints` always sets it; a hand-built endpoints object without it resolves none.
   */
  cratesIndex?: string;
  /** OSV API. */
  osvApi: string;
  /** The official MCP Registry (read API v0.1 under `/v0.1/`). */
  mcpRegistry: string;
  /**
   * The public npm registry, asked only to detect dependency confusion (a name that a private
   * registry serves also exists publicly). npm's own default unless NERQ_NPM_PUBLIC_REGISTRY is set.
   */
  npmPublicRegistry: string;
  /**
   * Yarn's public registry (with one trailing slash), which serves the public npm registry's
   * content: never fetched, only recognised where a project or lockfile names it
   * (see `isYarnPublicRegistry`). `resolveEndpoints` always sets it (NERQ_YARN_PUBLIC_REGISTRY
   * overrides it); a hand-built endpoints object without it recognises none.
   */
  yarnPublicRegistry?: string;
  /**
   * The registry whose search API (`/-/v1/search`) finds a package's peers (`--compare`): the
   * configured registry unless NERQ_NPM_SEARCH_URL names another (a mirror without search).
   */
  npmSearch?: string;
}

/** A bad endpoint override. The message is one line, names the variable, never echoes the value. */
export class EndpointError extends Error {
  override name = 'EndpointError';
}

type Env = Record<string, string | undefined>;

/** Read an override: unset or blank → undefined; otherwise a validated base URL. */
function readOverride(env: Env, variable: string): string | undefined {
  const raw = env[variable]?.trim();
  if (raw === undefined || raw === '') return undefined;
  return validateBaseUrl(raw, variable);
}

/**
 * Check that `value` is an absolute http(s) URL without credentials, query or fragment, and
 * return it without trailing slashes. Throws EndpointError naming `label`.
 */
export function validateBaseUrl(value: string, label: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new EndpointError(`${label} is not a valid URL (expected an http:// or https:// base URL)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EndpointError(`${label} must be an http:// or https:// URL, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new EndpointError(`${label} must not contain credentials`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new EndpointError(`${label} must not contain a query or fragment`);
  }
  return value.trim().replace(/(?<!\/)\/+$/, '');
}

/** Host (with non-default port) of GITHUB_SERVER_URL when it names a host other than github.com. */
function enterpriseHost(env: Env): string | undefined {
  const raw = env.GITHUB_SERVER_URL?.trim();
  if (raw === undefined || raw === '') return undefined;
  const host = new URL(validateBaseUrl(raw, 'GITHUB_SERVER_URL')).host.toLowerCase();
  return host === GITHUB_HOST || host === `www.${GITHUB_HOST}` ? undefined : host;
}

/**
 * The endpoints for this run. Overrides: each API's variable in `APIS` (NERQ_NPM_API_URL,
 * NERQ_PYPI_URL, NERQ_PYPI_FILES_URL, NERQ_PYPISTATS_URL, NERQ_GITHUB_API_URL,
 * NERQ_GITHUB_GRAPHQL_URL, NERQ_GITHUB_RAW_URL, NERQ_CRATES_INDEX_URL, NERQ_OSV_API_URL, NERQ_MCP_REGISTRY_URL),
 * NERQ_NPM_PUBLIC_REGISTRY, NERQ_YARN_PUBLIC_REGISTRY and NERQ_NPM_SEARCH_URL. `GITHUB_API_URL` /
 * `GITHUB_GRAPHQL_URL` (GitHub Actions) are used only for repositories on the non-github.com
 * host named by `GITHUB_SERVER_URL` (`githubServer`). Throws EndpointError for a bad URL.
 */
export function resolveEndpoints(env: NodeJS.ProcessEnv): Endpoints {
  const apis = Object.fromEntries(API_LIST.map(([field, api]) => [field, readOverride(env, api.env) ?? api.url])) as Record<ApiField, string>;
  const endpoints: Endpoints = {
    ...apis,
    npmPublicRegistry: `${readOverride(env, 'NERQ_NPM_PUBLIC_REGISTRY') ?? npmDefaultRegistry().replace(/(?<!\/)\/+$/, '')}/`,
    yarnPublicRegistry: `${readOverride(env, YARN_PUBLIC_REGISTRY.env) ?? YARN_PUBLIC_REGISTRY.url}/`,
  };
  const search = readOverride(env, 'NERQ_NPM_SEARCH_URL');
  if (search !== undefined) endpoints.npmSearch = search;
  const host = enterpriseHost(env);
  const api = host === undefined ? undefined : readOverride(env, 'GITHUB_API_URL');
  if (host !== undefined && api !== undefined) {
    endpoints.githubServer = {
      host,
      api,
      // GHES serves REST under /api/v3 and GraphQL at /api/graphql.
      graphql: readOverride(env, 'GITHUB_GRAPHQL_URL') ?? `${api.replace(/\/api\/v3$/, '/api')}/graphql`,
    };
  }
  return endpoints;
}

/**
 * The GitHub API to use for a repository on `repoHost` (as in its URL): github.com → the
 * public (or overridden) API; the `GITHUB_SERVER_URL` host → its API; any other host → undefined.
 */
export function githubApiFor(
  endpoints: Endpoints,
  repoHost: string,
): { api: string; graphql: string } | undefined {
  const host = repoHost.toLowerCase();
  if (host === GITHUB_HOST || host === `www.${GITHUB_HOST}`) {
    return { api: endpoints.githubApi, graphql: endpoints.githubGraphql };
  }
  if (endpoints.githubServer !== undefined && host === endpoints.githubServer.host) {
    return { api: endpoints.githubServer.api, graphql: endpoints.githubServer.graphql };
  }
  return undefined;
}

/**
 * Whether `url` (a registry a project configures, a lockfile's `resolved` URL) is on yarn's
 * public registry: the same scheme, host and port as `endpoints.yarnPublicRegistry` (so
 * `http://` for the https default is not), under its path. False when the endpoints name none.
 */
export function isYarnPublicRegistry(url: string | null, endpoints: Pick<Endpoints, 'yarnPublicRegistry'>): boolean {
  const base = endpoints.yarnPublicRegistry === undefined ? null : URL.parse(endpoints.yarnPublicRegistry);
  const parsed = url === null ? null : URL.parse(url.trim());
  if (base === null || parsed === null || parsed.origin !== base.origin) return false;
  const prefix = base.pathname.replace(/\/*$/, '/');
  return parsed.pathname.replace(/\/*$/, '/').startsWith(prefix);
}

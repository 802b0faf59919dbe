/**
 * The public APIs' base URLs, and the environment overrides that point them elsewhere
 * (tests point every one at the loopback fixture server).
 *
 * This is the ONE module that names the public API hosts. The npm registry is not here: it
 * comes from the user's npm configuration (see npm/config.ts).
 */
import { npmDefaultRegistry } from './npm/config.js';

export const DEFAULT_ENDPOINTS = {
  npmApi: 'https://api.npmjs.org',
  pypi: 'https://pypi.org',
  pypiFiles: 'https://files.pythonhosted.org',
  pypiStats: 'https://pypistats.org/api',
  githubApi: 'https://api.github.com',
  githubGraphql: 'https://api.github.com/graphql',
  githubRaw: 'https://raw.githubusercontent.com',
  osvApi: 'https://api.osv.dev',
  mcpRegistry: 'https://registry.modelcontextprotocol.io',
} as const;

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
 * The endpoints for this run. Overrides: NERQ_NPM_API_URL, NERQ_PYPI_URL, NERQ_PYPI_FILES_URL, NERQ_PYPISTATS_URL,
 * NERQ_GITHUB_API_URL, NERQ_GITHUB_GRAPHQL_URL, NERQ_GITHUB_RAW_URL, NERQ_OSV_API_URL, NERQ_NPM_SEARCH_URL, NERQ_MCP_REGISTRY_URL. `GITHUB_API_URL` /
 * `GITHUB_GRAPHQL_URL` (GitHub Actions) are used only for repositories on the non-github.com
 * host named by `GITHUB_SERVER_URL` (`githubServer`). Throws EndpointError for a bad URL.
 */
export function resolveEndpoints(env: NodeJS.ProcessEnv): Endpoints {
  const endpoints: Endpoints = {
    npmApi: readOverride(env, 'NERQ_NPM_API_URL') ?? DEFAULT_ENDPOINTS.npmApi,
    pypi: readOverride(env, 'NERQ_PYPI_URL') ?? DEFAULT_ENDPOINTS.pypi,
    pypiFiles: readOverride(env, 'NERQ_PYPI_FILES_URL') ?? DEFAULT_ENDPOINTS.pypiFiles,
    pypiStats: readOverride(env, 'NERQ_PYPISTATS_URL') ?? DEFAULT_ENDPOINTS.pypiStats,
    githubApi: readOverride(env, 'NERQ_GITHUB_API_URL') ?? DEFAULT_ENDPOINTS.githubApi,
    githubGraphql: readOverride(env, 'NERQ_GITHUB_GRAPHQL_URL') ?? DEFAULT_ENDPOINTS.githubGraphql,
    githubRaw: readOverride(env, 'NERQ_GITHUB_RAW_URL') ?? DEFAULT_ENDPOINTS.githubRaw,
    osvApi: readOverride(env, 'NERQ_OSV_API_URL') ?? DEFAULT_ENDPOINTS.osvApi,
    mcpRegistry: readOverride(env, 'NERQ_MCP_REGISTRY_URL') ?? DEFAULT_ENDPOINTS.mcpRegistry,
    npmPublicRegistry: `${readOverride(env, 'NERQ_NPM_PUBLIC_REGISTRY') ?? npmDefaultRegistry().replace(/(?<!\/)\/+$/, '')}/`,
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

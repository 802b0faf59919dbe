/**
 * How long a cached answer stays fresh, per source (README, "The local store"). A fresh entry is served from
 * the store without a request; a stale one is revalidated (`If-None-Match` /
 * `If-Modified-Since`). Freshness 0 means "do not cache". `--max-age` overrides every non-zero
 * freshness (see http/cached.ts); it never makes an uncached endpoint cacheable.
 */
import type { Endpoints } from '../endpoints.js';
import type { HttpRequest } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The default freshness of each kind of answer, in ms. Exported so docs can print it. */
export const FRESHNESS_DEFAULTS = {
  /** npm registry packument (`{registry}/<name>`): changes on every publish. */
  npmPackument: 5 * MINUTE,
  /** npm tarball (`{registry}/…/-/…tgz`): immutable once published. */
  npmTarball: 7 * DAY,
  /** npm attestations (`{registry}/-/npm/v1/attestations/…`). */
  npmAttestations: 1 * HOUR,
  /** npm search API (`{registry}/-/v1/search?…` or `NERQ_NPM_SEARCH_URL`): the peers of `--compare`. */
  npmSearch: 1 * HOUR,
  /** MCP Registry read API (`{mcpRegistry}/v0.1/servers…`): entries change on publish. */
  mcpRegistry: 10 * MINUTE,
  /** npm downloads API (`{npmApi}/downloads/…`): daily numbers. */
  npmDownloads: 1 * DAY,
  /** OSV `POST /v1/querybatch`: new advisories appear. */
  osvQueryBatch: 1 * HOUR,
  /** OSV `GET /v1/vulns/{id}`: advisory records change rarely. */
  osvRecord: 7 * DAY,
  /** GitHub REST and GraphQL (github.com or the `GITHUB_SERVER_URL` server). */
  github: 6 * HOUR,
  /** PyPI JSON API. */
  pypi: 10 * MINUTE,
  /** pypistats (download counts, like npm's downloads API). */
  pypiStats: 1 * DAY,
  /** Anything else: not cached. */
  other: 0,
} as const satisfies Record<string, number>;

export type FreshnessKind = keyof typeof FRESHNESS_DEFAULTS;

/** Rows for documentation: what, and for how long by default. */
export const FRESHNESS_TABLE: ReadonlyArray<{ kind: FreshnessKind; what: string; ms: number }> = [
  { kind: 'npmPackument', what: 'npm registry package metadata (/{name})', ms: FRESHNESS_DEFAULTS.npmPackument },
  { kind: 'npmTarball', what: 'npm tarball (/-/…tgz)', ms: FRESHNESS_DEFAULTS.npmTarball },
  { kind: 'npmAttestations', what: 'npm attestations', ms: FRESHNESS_DEFAULTS.npmAttestations },
  { kind: 'npmSearch', what: 'npm search API (/-/v1/search)', ms: FRESHNESS_DEFAULTS.npmSearch },
  { kind: 'mcpRegistry', what: 'MCP Registry', ms: FRESHNESS_DEFAULTS.mcpRegistry },
  { kind: 'npmDownloads', what: 'npm downloads API', ms: FRESHNESS_DEFAULTS.npmDownloads },
  { kind: 'osvQueryBatch', what: 'OSV querybatch (POST)', ms: FRESHNESS_DEFAULTS.osvQueryBatch },
  { kind: 'osvRecord', what: 'OSV advisory record (/v1/vulns/{id})', ms: FRESHNESS_DEFAULTS.osvRecord },
  { kind: 'github', what: 'GitHub API', ms: FRESHNESS_DEFAULTS.github },
  { kind: 'pypi', what: 'PyPI JSON API', ms: FRESHNESS_DEFAULTS.pypi },
  { kind: 'pypiStats', what: 'pypistats', ms: FRESHNESS_DEFAULTS.pypiStats },
  { kind: 'other', what: 'anything else (not cached)', ms: FRESHNESS_DEFAULTS.other },
];

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The path of `url` below `base` (`''` for the base itself, else starting with `/`), or
 * undefined when `url` is not on the base's origin under its path. Query and fragment ignored.
 */
export function pathUnder(url: URL, base: string): string | undefined {
  const parsed = parse(base);
  if (parsed === undefined || parsed.origin !== url.origin) return undefined;
  const prefix = parsed.pathname.replace(/(?<!\/)\/+$/, '');
  if (prefix === '') return url.pathname;
  if (url.pathname === prefix) return '';
  return url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
}

/** The kind of answer a request asks for (which freshness row applies). */
export function classifyRequest(req: HttpRequest, endpoints: Endpoints, registryOrigins: readonly string[]): FreshnessKind {
  const url = parse(req.url);
  if (url === undefined) return 'other';
  const method = req.method ?? 'GET';
  const on = (base: string | undefined): string | undefined => (base === undefined ? undefined : pathUnder(url, base));

  // Registry first. A registry is matched by its base URL (its path kept), so one on the same
  // origin as another API (a test server, a corporate proxy) does not swallow that API.
  const registryPath = registryOrigins.map((base) => on(base)).find((path) => path !== undefined);
  if (registryPath !== undefined) {
    if (method !== 'GET') return 'other';
    if (registryPath.startsWith('/-/npm/v1/attestations/')) return 'npmAttestations';
    if (/\/-\/[^/]+\.tgz$/i.test(registryPath)) return 'npmTarball';
    if (registryPath === '/-/v1/search') return 'npmSearch';
    // Any other `/-/` path is a registry API (audit…), not a packument.
    if (!registryPath.includes('/-/') && registryPath !== '/' && registryPath !== '') return 'npmPackument';
    return 'other';
  }

  const osv = on(endpoints.osvApi);
  if (osv !== undefined) {
    if (method === 'POST' && osv === '/v1/querybatch') return 'osvQueryBatch';
    if (method === 'GET' && /^\/v1\/vulns\/[^/]+$/.test(osv)) return 'osvRecord';
    return 'other';
  }

  if (method === 'GET' && on(endpoints.npmSearch) === '/-/v1/search') return 'npmSearch';
  if (method === 'GET' && on(endpoints.mcpRegistry)?.startsWith('/v0') === true) return 'mcpRegistry';

  const github = [endpoints.githubApi, endpoints.githubGraphql, endpoints.githubServer?.api, endpoints.githubServer?.graphql];
  if (github.some((base) => on(base) !== undefined)) return 'github';

  if (method !== 'GET') return 'other';
  const downloads = on(endpoints.npmApi);
  if (downloads !== undefined) return downloads.startsWith('/downloads/') ? 'npmDownloads' : 'other';
  if (on(endpoints.pypiStats) !== undefined) return 'pypiStats';
  if (on(endpoints.pypi) !== undefined) return 'pypi';
  return 'other';
}

/**
 * The freshness policy for a run: request → ms it stays fresh (0 = do not cache).
 * `registryOrigins` are the npm registries' base URLs (a URL counts when it is under one).
 */
export function freshnessPolicy(
  endpoints: Endpoints,
  registryOrigins: string[],
  table: Readonly<Record<FreshnessKind, number>> = FRESHNESS_DEFAULTS,
): (req: HttpRequest) => number {
  const origins = [...registryOrigins];
  return (req) => table[classifyRequest(req, endpoints, origins)];
}

/**
 * npm tarballs larger than this are not kept in the store: what nerq needs from them is kept as
 * facts (the facts cache, by URL and integrity), and a handful of platform-binary tarballs of
 * 30–40 MB would otherwise fill the size-capped store and evict everything else.
 */
export const LARGE_TARBALL_BYTES = 4 * 1024 * 1024;

/** Whether an answer of `bytes` to a request is stored (cached-http.ts `storeBody`): all but large npm tarballs. */
export function bodyStorePolicy(
  endpoints: Endpoints,
  registryOrigins: string[],
  limit: number = LARGE_TARBALL_BYTES,
): (req: HttpRequest, bytes: number) => boolean {
  const origins = [...registryOrigins];
  return (req, bytes) => bytes <= limit || classifyRequest(req, endpoints, origins) !== 'npmTarball';
}

/**
 * The services nerq asks, as a user knows them: which one a URL belongs to (from the run's
 * endpoints and registries), and its name in reports ("GitHub unreachable: repository checks
 * unknown"). The HTTP layer counts failures per service (host-health.ts).
 */
import type { Endpoints } from './endpoints.js';
import { pathUnder } from './http/freshness.js';

export const SERVICES = [
  'npm-registry',
  'npm-public-registry',
  'npm-tarballs',
  'npm-attestations',
  'npm-search',
  'npm-downloads',
  'osv',
  'github',
  'github-graphql',
  'github-search',
  'pypi',
  'pypi-simple',
  'pypi-integrity',
  'pypistats',
  'mcp-registry',
] as const;
export type Service = (typeof SERVICES)[number];

/** What a user calls each service. */
export const SERVICE_NAMES: Record<Service, string> = {
  'npm-registry': 'the npm registry',
  'npm-public-registry': 'the public npm registry (dependency-confusion check)',
  'npm-tarballs': 'the npm registry (tarballs)',
  'npm-attestations': 'the npm registry (attestations)',
  'npm-search': 'the npm registry (search)',
  'npm-downloads': "npm's download counts API",
  osv: 'OSV (the vulnerability database)',
  github: 'GitHub',
  'github-graphql': 'GitHub',
  'github-search': 'GitHub (search)',
  pypi: 'PyPI',
  'pypi-simple': 'PyPI',
  'pypi-integrity': 'PyPI',
  pypistats: 'pypistats',
  'mcp-registry': 'the MCP Registry',
};

/**
 * What a service being down leaves unchecked beyond the evidence sources it feeds (those say so
 * with their checks): the public npm registry is asked only to compare a privately resolved
 * package with the public name (docs/security.md, dependency confusion).
 */
export const SERVICE_CHECKS: Readonly<Partial<Record<Service, readonly string[]>>> = {
  'npm-public-registry': ['dependency-confusion'],
};

/** The same, short (a progress line). */
export const SERVICE_SHORT_NAMES: Record<Service, string> = {
  'npm-registry': 'registry',
  'npm-public-registry': 'public registry',
  'npm-tarballs': 'tarballs',
  'npm-attestations': 'attestations',
  'npm-search': 'search',
  'npm-downloads': 'downloads',
  osv: 'OSV',
  github: 'GitHub',
  'github-graphql': 'GitHub',
  'github-search': 'search',
  pypi: 'PyPI',
  'pypi-simple': 'PyPI',
  'pypi-integrity': 'PyPI',
  pypistats: 'pypistats',
  'mcp-registry': 'MCP Registry',
};

function parse(url: string | URL): URL | undefined {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The service `url` belongs to, or null for none nerq knows. `registries` are the base URLs of
 * the npm registries the run installs from (the configured one, scoped ones); the public one
 * (`endpoints.npmPublicRegistry`, asked for dependency-confusion checks) is a service of its own
 * unless it is one of them.
 */
export function serviceOf(url: string | URL, endpoints: Endpoints, registries: readonly string[]): Service | null {
  const parsed = parse(url);
  if (parsed === undefined) return null;
  const on = (base: string | undefined): string | undefined => (base === undefined ? undefined : pathUnder(parsed, base));

  // The search API counts apart from the registry: a search failing says nothing of packuments.
  if (on(endpoints.npmSearch) === '/-/v1/search') return 'npm-search';
  const registryPath = registries.map((base) => on(base)).find((p) => p !== undefined);
  // The public registry, when it is not also one the run installs from, is asked for the
  // dependency-confusion comparison alone: its outage is not the user's registry's.
  if (registryPath === undefined && on(endpoints.npmPublicRegistry) !== undefined) return 'npm-public-registry';
  if (registryPath !== undefined) {
    if (registryPath.startsWith('/-/npm/v1/attestations/')) return 'npm-attestations';
    if (registryPath === '/-/v1/search') return 'npm-search';
    if (/\/-\/[^/]+\.tgz$/i.test(registryPath)) return 'npm-tarballs';
    return 'npm-registry';
  }
  if (on(endpoints.osvApi) !== undefined) return 'osv';
  if (on(endpoints.githubGraphql) !== undefined || on(endpoints.githubServer?.graphql) !== undefined) return 'github-graphql';
  // GitHub's search has a rate limit of its own: a refused search says nothing of the repositories.
  if (on(endpoints.githubApi)?.startsWith('/search/') === true) return 'github-search';
  if (on(endpoints.githubApi) !== undefined || on(endpoints.githubServer?.api) !== undefined) return 'github';
  if (on(endpoints.npmApi) !== undefined) return 'npm-downloads';
  if (on(endpoints.pypiStats) !== undefined) return 'pypistats';
  if (on(endpoints.mcpRegistry) !== undefined) return 'mcp-registry';
  const pypi = on(endpoints.pypi);
  if (pypi !== undefined) {
    if (pypi.startsWith('/simple/')) return 'pypi-simple';
    if (pypi.startsWith('/integrity/')) return 'pypi-integrity';
    return 'pypi';
  }
  return null;
}

/**
 * The services found down, by id: the one service, or for a whole host the services nerq asks
 * there; [] when nerq knows none there (the host is its own name then).
 */
export function servicesOfDown(down: { host: string; service: string | null }, endpoints: Endpoints, registries: readonly string[]): Service[] {
  if (down.service !== null) return (SERVICES as readonly string[]).includes(down.service) ? [down.service as Service] : [];
  const bases = [
    ...registries,
    endpoints.npmPublicRegistry,
    endpoints.osvApi,
    endpoints.githubApi,
    endpoints.githubGraphql,
    endpoints.npmApi,
    endpoints.pypi,
    endpoints.pypiStats,
    endpoints.mcpRegistry,
    ...(endpoints.githubServer === undefined ? [] : [endpoints.githubServer.api, endpoints.githubServer.graphql]),
  ];
  const found = new Set<Service>();
  for (const base of bases) {
    const url = parse(base);
    if (url === undefined || url.host.toLowerCase() !== down.host) continue;
    const service = serviceOf(url, endpoints, registries);
    if (service !== null) found.add(service);
  }
  return [...found];
}

/**
 * What a user calls a host or service found down, one name per service: the service's name, or
 * for a whole host the names of the services nerq asks there ("GitHub", "OSV (the vulnerability
 * database)"), each once; the host itself when nerq knows none there.
 */
export function namesOfDown(
  down: { host: string; service: string | null },
  endpoints: Endpoints,
  registries: readonly string[],
  names: Record<Service, string> = SERVICE_NAMES,
): string[] {
  const services = servicesOfDown(down, endpoints, registries);
  if (services.length === 0) return [down.service ?? down.host];
  return [...new Set(services.map((service) => names[service]))];
}

/** Names in a sentence: "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/** namesOfDown in one phrase ("the npm registry, OSV (the vulnerability database) and PyPI"). */
export function nameOfDown(
  down: { host: string; service: string | null },
  endpoints: Endpoints,
  registries: readonly string[],
  names: Record<Service, string> = SERVICE_NAMES,
): string {
  return joinNames(namesOfDown(down, endpoints, registries, names));
}

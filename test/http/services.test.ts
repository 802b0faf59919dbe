/** Which service a URL belongs to (services.ts): what the HTTP layer counts failures by. */
import { describe, expect, it } from 'vitest';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { joinNames, nameOfDown, namesOfDown, serviceOf, servicesOfDown } from '../../src/sources/services.js';

const endpoints = resolveEndpoints({ NERQ_NPM_PUBLIC_REGISTRY: 'https://public.example/' });
/** The registry the run installs from; the public one (NERQ_NPM_PUBLIC_REGISTRY) is the endpoints'. */
const registries = ['https://registry.example/npm/'];

describe('serviceOf', () => {
  it.for([
    ['https://registry.example/npm/chalk', 'npm-registry'],
    ['https://registry.example/npm/@types%2fnode', 'npm-registry'],
    ['https://registry.example/npm/chalk/-/chalk-4.1.0.tgz', 'npm-tarballs'],
    ['https://registry.example/npm/-/npm/v1/attestations/chalk@4.1.0', 'npm-attestations'],
    ['https://public.example/chalk', 'npm-public-registry'],
    ['https://registry.example/npm/-/v1/search?text=keywords:color&size=36', 'npm-search'],
    [`${endpoints.osvApi}/v1/querybatch`, 'osv'],
    [`${endpoints.osvApi}/v1/vulns/GHSA-x`, 'osv'],
    [`${endpoints.githubApi}/repos/a/b`, 'github'],
    [endpoints.githubGraphql, 'github-graphql'],
    [`${endpoints.githubApi}/search/repositories?q=topic:mcp&sort=stars`, 'github-search'],
    [`${endpoints.npmApi}/downloads/point/last-week/chalk`, 'npm-downloads'],
    [`${endpoints.pypi}/pypi/requests/json`, 'pypi'],
    [`${endpoints.pypi}/simple/requests/`, 'pypi-simple'],
    [`${endpoints.pypi}/integrity/requests/2.31.0/f.whl/provenance`, 'pypi-integrity'],
    [`${endpoints.pypiStats}/packages/requests/recent`, 'pypistats'],
    [`${endpoints.mcpRegistry}/v0.1/servers?search=sentry`, 'mcp-registry'],
  ] as const)('%s → %s', ([url, service]) => {
    expect(serviceOf(url, endpoints, registries)).toBe(service);
  });

  it('NERQ_NPM_SEARCH_URL: its search API is npm-search, its packuments stay the registry\'s', () => {
    const searching = resolveEndpoints({ NERQ_NPM_SEARCH_URL: 'https://public.example/' });
    expect(serviceOf('https://public.example/-/v1/search?text=keywords:a', searching, ['https://public.example/'])).toBe('npm-search');
    expect(serviceOf('https://public.example/chalk', searching, ['https://public.example/'])).toBe('npm-registry');
  });

  it('the public registry is the npm registry when the run installs from it too', () => {
    expect(serviceOf('https://public.example/chalk', endpoints, ['https://public.example'])).toBe('npm-registry');
    expect(serviceOf('https://public.example/npm/chalk', endpoints, ['https://public.example/npm/'])).toBe('npm-registry');
    expect(serviceOf('https://public.example/chalk', endpoints, ['https://public.example/npm/'])).toBe('npm-public-registry');
  });

  it('a URL of no known service, or no URL at all, is null', () => {
    expect(serviceOf('https://elsewhere.example/x', endpoints, registries)).toBeNull();
    expect(serviceOf('not a url', endpoints, registries)).toBeNull();
  });

  it('services on one origin are told apart by their base paths', () => {
    const shared = resolveEndpoints({ NERQ_OSV_API_URL: 'http://127.0.0.1:9/osv', NERQ_NPM_API_URL: 'http://127.0.0.1:9/npm-api' });
    expect(serviceOf('http://127.0.0.1:9/osv/v1/querybatch', shared, ['http://127.0.0.1:9/npm/'])).toBe('osv');
    expect(serviceOf('http://127.0.0.1:9/npm-api/downloads/point/last-week/x', shared, ['http://127.0.0.1:9/npm/'])).toBe('npm-downloads');
    expect(serviceOf('http://127.0.0.1:9/npm/x', shared, ['http://127.0.0.1:9/npm/'])).toBe('npm-registry');
  });
});

describe('nameOfDown', () => {
  it('names a service, a whole host by the services nerq asks there, or else the host', () => {
    expect(nameOfDown({ host: 'api.osv.dev', service: 'osv' }, endpoints, registries)).toBe('OSV (the vulnerability database)');
    expect(nameOfDown({ host: new URL(endpoints.githubApi).host, service: null }, endpoints, registries)).toBe('GitHub');
    expect(nameOfDown({ host: 'registry.example', service: null }, endpoints, registries)).toBe('the npm registry');
    expect(nameOfDown({ host: 'elsewhere.example', service: null }, endpoints, registries)).toBe('elsewhere.example');
    expect(nameOfDown({ host: new URL(endpoints.mcpRegistry).host, service: null }, endpoints, registries)).toBe('the MCP Registry');
  });

  it('the public registry, asked for the dependency-confusion comparison alone, is not named as the npm registry', () => {
    expect(servicesOfDown({ host: 'public.example', service: null }, endpoints, registries)).toEqual(['npm-public-registry']);
    expect(servicesOfDown({ host: 'public.example', service: 'npm-public-registry' }, endpoints, registries)).toEqual(['npm-public-registry']);
    expect(nameOfDown({ host: 'public.example', service: null }, endpoints, registries)).not.toBe(nameOfDown({ host: 'registry.example', service: null }, endpoints, registries));
  });

  it('a whole host serving several services: each by id and name once, the phrase joined "A, B and C"', () => {
    const shared = resolveEndpoints({
      NERQ_OSV_API_URL: 'http://127.0.0.1:9/osv',
      NERQ_PYPI_URL: 'http://127.0.0.1:9/pypi',
      NERQ_PYPISTATS_URL: 'http://127.0.0.1:9/pypistats',
      NERQ_NPM_PUBLIC_REGISTRY: 'http://127.0.0.1:9/npm-public/',
    });
    const regs = ['http://127.0.0.1:9/npm/'];
    const down = { host: '127.0.0.1:9', service: null };
    expect(servicesOfDown(down, shared, regs).sort()).toEqual(['npm-public-registry', 'npm-registry', 'osv', 'pypi', 'pypistats']);
    const names = namesOfDown(down, shared, regs);
    expect(names).toHaveLength(5);
    expect(new Set(names).size).toBe(5);
    expect(nameOfDown(down, shared, regs)).toBe(joinNames(names));
    expect(nameOfDown(down, shared, regs).split(' and ')).toHaveLength(2);
  });

  it('joinNames', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['A'])).toBe('A');
    expect(joinNames(['A', 'B'])).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

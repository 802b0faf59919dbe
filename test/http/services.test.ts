/** Which service a URL belongs to (services.ts): what the HTTP layer counts failures by. */
import { describe, expect, it } from 'vitest';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { nameOfDown, serviceOf } from '../../src/sources/services.js';

const endpoints = resolveEndpoints({ NERQ_NPM_PUBLIC_REGISTRY: 'https://public.example/' });
const registries = ['https://registry.example/npm/', endpoints.npmPublicRegistry];

describe('serviceOf', () => {
  it.for([
    ['https://registry.example/npm/chalk', 'npm-registry'],
    ['https://registry.example/npm/@types%2fnode', 'npm-registry'],
    ['https://registry.example/npm/chalk/-/chalk-4.1.0.tgz', 'npm-tarballs'],
    ['https://registry.example/npm/-/npm/v1/attestations/chalk@4.1.0', 'npm-attestations'],
    ['https://public.example/chalk', 'npm-registry'],
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
  ] as const)('%s → %s', ([url, service]) => {
    expect(serviceOf(url, endpoints, registries)).toBe(service);
  });

  it('NERQ_NPM_SEARCH_URL: its search API is npm-search, its packuments stay the registry\'s', () => {
    const searching = resolveEndpoints({ NERQ_NPM_SEARCH_URL: 'https://public.example/' });
    expect(serviceOf('https://public.example/-/v1/search?text=keywords:a', searching, registries)).toBe('npm-search');
    expect(serviceOf('https://public.example/chalk', searching, registries)).toBe('npm-registry');
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
  });
});

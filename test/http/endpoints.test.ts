import { describe, expect, it } from 'vitest';
import { DEFAULT_ENDPOINTS, EndpointError, githubApiFor, isYarnPublicRegistry, resolveEndpoints } from '../../src/sources/endpoints.js';
import { npmDefaultRegistry } from '../../src/sources/npm/config.js';

describe('resolveEndpoints', () => {
  it('uses the public APIs by default', () => {
    const endpoints = resolveEndpoints({});
    const { npmPublicRegistry, yarnPublicRegistry, ...apis } = endpoints;
    expect(apis).toEqual({ ...DEFAULT_ENDPOINTS });
    expect(yarnPublicRegistry).toBe('https://registry.yarnpkg.com/');
    expect(endpoints.githubServer).toBeUndefined();
    // The public npm registry is npm's own default, never a host written in nerq.
    expect(npmPublicRegistry).toBe(npmDefaultRegistry());
  });

  it('NERQ_NPM_PUBLIC_REGISTRY overrides the public npm registry (one trailing slash)', () => {
    expect(resolveEndpoints({ NERQ_NPM_PUBLIC_REGISTRY: 'http://127.0.0.1:4000/npm//' }).npmPublicRegistry).toBe('http://127.0.0.1:4000/npm/');
  });

  it('NERQ_YARN_PUBLIC_REGISTRY overrides yarn\'s public registry (one trailing slash)', () => {
    expect(resolveEndpoints({ NERQ_YARN_PUBLIC_REGISTRY: 'http://127.0.0.1:4000/yarn//' }).yarnPublicRegistry).toBe('http://127.0.0.1:4000/yarn/');
    expect(() => resolveEndpoints({ NERQ_YARN_PUBLIC_REGISTRY: 'ftp://example.test/' })).toThrow(EndpointError);
  });

  it.each([
    ['NERQ_NPM_API_URL', 'npmApi'],
    ['NERQ_PYPI_URL', 'pypi'],
    ['NERQ_PYPISTATS_URL', 'pypiStats'],
    ['NERQ_GITHUB_API_URL', 'githubApi'],
    ['NERQ_GITHUB_GRAPHQL_URL', 'githubGraphql'],
    ['NERQ_GITHUB_RAW_URL', 'githubRaw'],
    ['NERQ_CRATES_INDEX_URL', 'cratesIndex'],
    ['NERQ_OSV_API_URL', 'osvApi'],
  ] as const)('%s overrides %s (trailing slash dropped, path kept)', (variable, field) => {
    const endpoints = resolveEndpoints({ [variable]: 'http://127.0.0.1:4000/prefix/' });
    expect(endpoints[field]).toBe('http://127.0.0.1:4000/prefix');
    const others = Object.entries(DEFAULT_ENDPOINTS).filter(([key]) => key !== field);
    for (const [key, value] of others) expect(endpoints[key as keyof typeof DEFAULT_ENDPOINTS]).toBe(value);
  });

  it('ignores blank overrides', () => {
    expect(resolveEndpoints({ NERQ_OSV_API_URL: '  ' }).osvApi).toBe(DEFAULT_ENDPOINTS.osvApi);
  });

  it.each([
    ['not a url', 'not a valid URL'],
    ['ftp://example.test/x', 'must be an http:// or https:// URL'],
    ['file:///etc/passwd', 'must be an http:// or https:// URL'],
    ['https://user:s3cret@example.test', 'must not contain credentials'],
    ['https://example.test/x?token=s3cret', 'must not contain a query'],
  ])('rejects %j with a one-line error that names the variable and not the value', (value, message) => {
    let error: unknown;
    try {
      resolveEndpoints({ NERQ_PYPI_URL: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EndpointError);
    const text = (error as Error).message;
    expect(text).toContain('NERQ_PYPI_URL');
    expect(text).toContain(message);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('\n');
  });

  it('ignores GITHUB_API_URL when GITHUB_SERVER_URL is github.com (Actions on github.com)', () => {
    const endpoints = resolveEndpoints({
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: 'https://api.github.com',
      GITHUB_GRAPHQL_URL: 'https://api.github.com/graphql',
    });
    expect(endpoints.githubServer).toBeUndefined();
    expect(endpoints.githubApi).toBe(DEFAULT_ENDPOINTS.githubApi);
  });

  it('uses GITHUB_API_URL only for the GitHub Enterprise host', () => {
    const endpoints = resolveEndpoints({
      GITHUB_SERVER_URL: 'https://GHE.example.test',
      GITHUB_API_URL: 'https://ghe.example.test/api/v3',
      GITHUB_GRAPHQL_URL: 'https://ghe.example.test/api/graphql',
    });
    expect(endpoints.githubServer).toEqual({
      host: 'ghe.example.test',
      api: 'https://ghe.example.test/api/v3',
      graphql: 'https://ghe.example.test/api/graphql',
    });
    expect(endpoints.githubApi).toBe(DEFAULT_ENDPOINTS.githubApi);
    expect(githubApiFor(endpoints, 'github.com')).toEqual({
      api: DEFAULT_ENDPOINTS.githubApi,
      graphql: DEFAULT_ENDPOINTS.githubGraphql,
    });
    expect(githubApiFor(endpoints, 'ghe.example.test')?.api).toBe('https://ghe.example.test/api/v3');
    expect(githubApiFor(endpoints, 'gitlab.com')).toBeUndefined();
  });

  it('derives the GHES GraphQL URL when only GITHUB_API_URL is set', () => {
    const endpoints = resolveEndpoints({
      GITHUB_SERVER_URL: 'https://ghe.example.test',
      GITHUB_API_URL: 'https://ghe.example.test/api/v3',
    });
    expect(endpoints.githubServer?.graphql).toBe('https://ghe.example.test/api/graphql');
  });

  it('lets NERQ_GITHUB_* win for github.com repositories', () => {
    const endpoints = resolveEndpoints({
      NERQ_GITHUB_API_URL: 'http://127.0.0.1:9/github',
      NERQ_GITHUB_GRAPHQL_URL: 'http://127.0.0.1:9/github/graphql',
      GITHUB_SERVER_URL: 'https://ghe.example.test',
      GITHUB_API_URL: 'https://ghe.example.test/api/v3',
    });
    expect(githubApiFor(endpoints, 'github.com')).toEqual({
      api: 'http://127.0.0.1:9/github',
      graphql: 'http://127.0.0.1:9/github/graphql',
    });
  });

  it('validates GITHUB_API_URL when it is used', () => {
    expect(() =>
      resolveEndpoints({ GITHUB_SERVER_URL: 'https://ghe.example.test', GITHUB_API_URL: 'javascript:alert(1)' }),
    ).toThrow(/GITHUB_API_URL/);
  });
});

describe('isYarnPublicRegistry', () => {
  const endpoints = resolveEndpoints({});
  it.each([
    ['https://registry.yarnpkg.com', true],
    ['https://registry.yarnpkg.com/', true],
    ['https://registry.yarnpkg.com//', true],
    ['HTTPS://Registry.Yarnpkg.com/', true],
    ['https://registry.yarnpkg.com/chalk/-/chalk-4.1.0.tgz#0123', true],
    // Plain http is not the https registry; nor is another port, host or a look-alike.
    ['http://registry.yarnpkg.com/', false],
    ['https://registry.yarnpkg.com:8443/', false],
    ['https://registry.yarnpkg.com.example.test/', false],
    ['https://mirror.example.test/registry.yarnpkg.com/', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isYarnPublicRegistry(url, endpoints)).toBe(expected);
  });

  it('follows the override, under its path only', () => {
    const overridden = resolveEndpoints({ NERQ_YARN_PUBLIC_REGISTRY: 'http://127.0.0.1:4000/yarn' });
    expect(isYarnPublicRegistry('http://127.0.0.1:4000/yarn/', overridden)).toBe(true);
    expect(isYarnPublicRegistry('http://127.0.0.1:4000/yarnish/', overridden)).toBe(false);
    expect(isYarnPublicRegistry('https://registry.yarnpkg.com/', overridden)).toBe(false);
  });

  it('names none without the field (a hand-built endpoints object)', () => {
    expect(isYarnPublicRegistry('https://registry.yarnpkg.com/', {})).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { Endpoints } from '../../src/sources/endpoints.js';
import { bodyStorePolicy, classifyRequest, FRESHNESS_DEFAULTS, FRESHNESS_TABLE, freshnessPolicy, LARGE_TARBALL_BYTES, pathUnder } from '../../src/sources/http/freshness.js';
import type { FreshnessKind } from '../../src/sources/http/freshness.js';
import type { HttpRequest } from '../../src/sources/http/types.js';

// Everything on one loopback origin under prefixes, as in the fixture-server tests: the
// policy must tell the APIs apart by base path, not by origin.
const O = 'http://127.0.0.1:4873';
const ENDPOINTS: Endpoints = {
  npmApi: `${O}/npm-api`,
  pypi: `${O}/pypi`,
  pypiStats: `${O}/pypistats/api`,
  githubApi: `${O}/github`,
  githubGraphql: `${O}/github/graphql`,
  githubServer: { host: 'ghe.example', api: `${O}/ghe/api/v3`, graphql: `${O}/ghe/api/graphql` },
  osvApi: `${O}/osv`,
  mcpRegistry: `${O}/mcp-registry`,
  npmSearch: `${O}/search-mirror/`,
  npmPublicRegistry: `${O}/npm-public/`,
};
const REGISTRIES = [`${O}/npm/`, 'https://registry.example/'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('freshnessPolicy', () => {
  const policy = freshnessPolicy(ENDPOINTS, REGISTRIES);
  const cases: Array<[string, HttpRequest, FreshnessKind, number]> = [
    ['packument', { url: `${O}/npm/express` }, 'npmPackument', 5 * MINUTE],
    ['scoped packument', { url: `${O}/npm/@types%2fnode` }, 'npmPackument', 5 * MINUTE],
    ['packument, second registry', { url: 'https://registry.example/left-pad' }, 'npmPackument', 5 * MINUTE],
    ['tarball', { url: `${O}/npm/express/-/express-5.1.0.tgz` }, 'npmTarball', 7 * DAY],
    ['scoped tarball', { url: `${O}/npm/@types/node/-/node-24.0.0.tgz` }, 'npmTarball', 7 * DAY],
    ['attestations', { url: `${O}/npm/-/npm/v1/attestations/express@5.1.0` }, 'npmAttestations', HOUR],
    ['npm search on the registry', { url: `${O}/npm/-/v1/search?text=keywords:http&size=36` }, 'npmSearch', HOUR],
    ['npm search elsewhere (NERQ_NPM_SEARCH_URL)', { url: `${O}/search-mirror/-/v1/search?text=x` }, 'npmSearch', HOUR],
    ['other registry API', { url: `${O}/npm/-/v1/dist-tags` }, 'other', 0],
    ['MCP Registry entry', { url: `${O}/mcp-registry/v0.1/servers/io.github.o%2Fr/versions/latest` }, 'mcpRegistry', 10 * MINUTE],
    ['MCP Registry listing', { url: `${O}/mcp-registry/v0.1/servers?search=x&cursor=c` }, 'mcpRegistry', 10 * MINUTE],
    ['MCP Registry, another path', { url: `${O}/mcp-registry/admin` }, 'other', 0],
    ['registry root', { url: `${O}/npm/` }, 'other', 0],
    ['POST to the registry', { url: `${O}/npm/-/npm/v1/security/advisories/bulk`, method: 'POST', body: '{}' }, 'other', 0],
    ['downloads', { url: `${O}/npm-api/downloads/point/last-week/express` }, 'npmDownloads', DAY],
    ['OSV querybatch', { url: `${O}/osv/v1/querybatch`, method: 'POST', body: '{}' }, 'osvQueryBatch', HOUR],
    ['OSV record', { url: `${O}/osv/v1/vulns/GHSA-xxxx-yyyy-zzzz` }, 'osvRecord', 7 * DAY],
    ['OSV query (not used)', { url: `${O}/osv/v1/query`, method: 'POST', body: '{}' }, 'other', 0],
    ['GitHub REST', { url: `${O}/github/repos/expressjs/express` }, 'github', 6 * HOUR],
    ['GitHub GraphQL', { url: `${O}/github/graphql`, method: 'POST', body: '{}' }, 'github', 6 * HOUR],
    ['GitHub Enterprise', { url: `${O}/ghe/api/v3/repos/o/r` }, 'github', 6 * HOUR],
    ['PyPI', { url: `${O}/pypi/pypi/requests/json` }, 'pypi', 10 * MINUTE],
    ['pypistats', { url: `${O}/pypistats/api/packages/requests/recent` }, 'pypiStats', DAY],
    ['unknown path on the same origin', { url: `${O}/elsewhere/x` }, 'other', 0],
    ['a prefix that only looks alike', { url: `${O}/npmx/express` }, 'other', 0],
    ['unknown host', { url: 'https://example.org/thing' }, 'other', 0],
    ['invalid URL', { url: 'not a url' }, 'other', 0],
  ];

  it.each(cases)('%s', (_label, req, kind, ms) => {
    expect(classifyRequest(req, ENDPOINTS, REGISTRIES)).toBe(kind);
    expect(policy(req)).toBe(ms);
  });

  it('uses a table given in place of the defaults', () => {
    const custom = freshnessPolicy(ENDPOINTS, REGISTRIES, { ...FRESHNESS_DEFAULTS, npmPackument: 42 });
    expect(custom({ url: `${O}/npm/express` })).toBe(42);
  });

  it('exports a table with one row per kind, matching the defaults', () => {
    expect(FRESHNESS_TABLE.map((row) => row.kind).sort()).toEqual(Object.keys(FRESHNESS_DEFAULTS).sort());
    for (const row of FRESHNESS_TABLE) expect(row.ms).toBe(FRESHNESS_DEFAULTS[row.kind]);
  });
});

describe('bodyStorePolicy', () => {
  const stores = bodyStorePolicy(ENDPOINTS, REGISTRIES);
  const tarball = { url: `${O}/npm/@next/swc-linux-x64-gnu/-/swc-linux-x64-gnu-15.0.0.tgz` };

  it('keeps a large npm tarball out of the store (its facts are kept), and every other body in', () => {
    expect(stores(tarball, LARGE_TARBALL_BYTES)).toBe(true);
    expect(stores(tarball, LARGE_TARBALL_BYTES + 1)).toBe(false);
    expect(stores(tarball, 40 * 1024 * 1024)).toBe(false);
    // A packument or an API answer of any size is stored: no facts stand for the whole body.
    expect(stores({ url: `${O}/npm/next` }, 40 * 1024 * 1024)).toBe(true);
    expect(stores({ url: `${O}/github/repos/vercel/next.js` }, 40 * 1024 * 1024)).toBe(true);
    expect(bodyStorePolicy(ENDPOINTS, REGISTRIES, 10)(tarball, 11)).toBe(false);
  });
});

describe('pathUnder', () => {
  it.each([
    ['http://h/npm/x', 'http://h/npm', '/x'],
    ['http://h/npm/x', 'http://h/npm/', '/x'],
    ['http://h/npm', 'http://h/npm', ''],
    ['http://h/npmx', 'http://h/npm', undefined],
    ['http://h/x', 'http://h/', '/x'],
    ['https://h/x', 'http://h/', undefined],
    ['http://h:81/x', 'http://h/', undefined],
    ['http://h/x', 'not a url', undefined],
  ])('%s under %s → %s', (url, base, expected) => {
    expect(pathUnder(new URL(url), base)).toBe(expected);
  });
});

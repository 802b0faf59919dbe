/** npm's search API client (sources/npm/search.ts): the URL, the recorded answer, hostile and failing answers. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { listingOf, npmSearchUrl, queryKeywords, SEARCH_MAX_BYTES, searchNpm } from '../../src/sources/npm/search.js';
import { searchAnswer } from '../support/npm-search.js';
import { fakeHttp } from './fake-http.js';

const REGISTRY = 'http://127.0.0.1:9/npm/';
const recorded = readFileSync(new URL('../../fixtures/http/npm-search/libnpm.npm-cli.json', import.meta.url));
const url = (keywords: string, size = 25) => npmSearchUrl(REGISTRY, `keywords:${keywords}`, size);

describe('npmSearchUrl and queryKeywords', () => {
  test('the registry path kept, the text and size as query parameters, size within 1–250', () => {
    expect(npmSearchUrl(REGISTRY, 'keywords:http,util', 36)).toBe('http://127.0.0.1:9/npm/-/v1/search?text=keywords%3Ahttp%2Cutil&size=36');
    expect(new URL(npmSearchUrl('http://h/', 'keywords:a', 9999)).searchParams.get('size')).toBe('250');
    expect(new URL(npmSearchUrl('http://h', 'keywords:a', 0)).searchParams.get('size')).toBe('1');
  });

  test.each([
    [['HTTP', 'http', ' util '], ['http', 'util']],
    [['package manager', 'a,b', 'key:value', 'ok-1.2_x+y'], ['ok-1.2_x+y']],
    [['\u001b[33mnpm\u001b[39m', 'npm'], ['npm']],
    [['x'.repeat(51), 'y'.repeat(50)], ['y'.repeat(50)]],
  ])('%j → %j', (input, expected) => {
    expect(queryKeywords(input)).toEqual(expected);
  });

  test('at most eight keywords go in one query', () => {
    expect(queryKeywords(Array.from({ length: 12 }, (_, i) => `k${i}`))).toHaveLength(8);
  });
});

describe('searchNpm', () => {
  test('the recorded answer: valid listings kept, the escape-wrapped name dropped, a keywords string read as one keyword', async () => {
    const http = fakeHttp({ [url('npm')]: { status: 200, body: recorded } });
    const result = await searchNpm(http, REGISTRY, { keywords: ['npm'], size: 25 });
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.query).toBe('keywords:npm');
    expect(result.dropped).toBe(1);
    expect(result.total).toBeNull();
    const names = result.listings.map((l) => l.name);
    expect(names).toHaveLength(12);
    expect(names).toContain('@npmcli/map-workspaces');
    expect(names.some((n) => n.includes('\u001b') || n.includes('libnpmversion'))).toBe(false);
    expect(result.listings.find((l) => l.name === 'libnpmaccess')?.keywords).toEqual(['libnpmaccess']);
    // Escape sequences never survive in a kept string.
    expect(JSON.stringify(result.listings)).not.toMatch(/\\u001b|\\u0007/);
    expect(result.listings.find((l) => l.name === 'pkg-no-desc')).toMatchObject({ description: null, keywords: [] });
    expect(http.requests[0]).toMatchObject({ maxBytes: SEARCH_MAX_BYTES, headers: { accept: 'application/json' } });
  });

  test('a documented answer with score, searchScore and total', async () => {
    const body = JSON.stringify(searchAnswer([{ name: 'nerq-a', keywords: ['http', 'client'] }, { name: 'nerq-b', keywords: ['HTTP'] }]));
    const http = fakeHttp({ [url('http')]: { status: 200, body } });
    const result = await searchNpm(http, REGISTRY, { keywords: ['http'], size: 25 });
    expect(result).toMatchObject({ status: 'ok', total: 2, dropped: 0, listings: [{ name: 'nerq-a', keywords: ['http', 'client'], version: '1.0.0', date: '2026-09-15T10:00:00.000Z' }, { name: 'nerq-b', keywords: ['http'] }] });
  });

  test.each([
    ['a failing status', { status: 503, body: '{}' }, /npm search: HTTP 503/],
    ['a body that is not JSON', { status: 200, body: '<html>' }, /not JSON/],
    ['a body without objects', { status: 200, body: '{"results":[]}' }, /no list of objects/],
    ['objects that is not a list', { status: 200, body: '{"objects":{"a":1}}' }, /no list of objects/],
    ['a body over the cap', { status: 200, body: Buffer.alloc(SEARCH_MAX_BYTES + 1, 32) }, /exceeds/],
  ] as const)('%s → unavailable with the reason', async (_, answer, reason) => {
    const result = await searchNpm(fakeHttp({ [url('http')]: answer }), REGISTRY, { keywords: ['http'], size: 25 });
    expect(result.status).toBe('unavailable');
    if (result.status === 'unavailable') expect(result.reason).toMatch(reason);
  });

  test('no keyword: nothing is asked', async () => {
    const http = fakeHttp({});
    expect((await searchNpm(http, REGISTRY, { keywords: [], size: 25 })).status).toBe('unavailable');
    expect(http.requests).toHaveLength(0);
  });
});

describe('listingOf', () => {
  test.each([
    ['no package', { name: 'x' }],
    ['a name that is not a string', { package: { name: 42 } }],
    ['an invalid package name', { package: { name: 'Has Spaces' } }],
    ['a name with a path', { package: { name: '../../etc/passwd' } }],
  ])('%s → dropped', (_, object) => {
    expect(listingOf(object)).toBeNull();
  });

  test('a long description is cut, a bad date is null, non-string keywords are ignored', () => {
    const listing = listingOf({ package: { name: 'ok', description: `a\u0007b ${'x'.repeat(500)}`, keywords: ['http', 7, null, 'HTTP'], date: 'yesterday' } });
    expect(listing?.description?.length).toBe(300);
    expect(listing?.description?.startsWith('ab ')).toBe(true);
    expect(listing).toMatchObject({ keywords: ['http'], date: null, version: null });
  });
});

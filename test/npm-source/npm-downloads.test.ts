import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { downloadsUrl, fetchDownloads } from '../../src/sources/npm/downloads.js';
import { fakeHttp, type FakeAnswer } from './fake-http.js';

const API = 'http://127.0.0.1:9/npm-api';
const fixture = (period: string, name: string) =>
  readFileSync(new URL(`../../fixtures/http/npm-api/downloads/point/${period}/${name}.json`, import.meta.url));

function routes(name: string, week: FakeAnswer, year: FakeAnswer): Record<string, FakeAnswer> {
  return {
    [downloadsUrl(API, 'last-week', name)]: week,
    [downloadsUrl(API, 'last-year', name)]: year,
  };
}

describe('downloadsUrl', () => {
  test.each([
    [API, 'last-week', 'express', `${API}/downloads/point/last-week/express`],
    [`${API}/`, 'last-year', 'express', `${API}/downloads/point/last-year/express`],
    [API, 'last-week', '@types/semver', `${API}/downloads/point/last-week/@types/semver`],
    ['http://127.0.0.1:9', 'last-week', 'JSONStream', 'http://127.0.0.1:9/downloads/point/last-week/JSONStream'],
    [API, 'last-week', 'a?b#c', `${API}/downloads/point/last-week/a%3Fb%23c`],
  ] as const)('%s %s %s', (base, period, name, url) => {
    expect(downloadsUrl(base, period, name)).toBe(url);
  });
});

describe('fetchDownloads', () => {
  test('both periods from the recorded fixtures (scoped name)', async () => {
    const http = fakeHttp(
      routes('@types/semver', { status: 200, body: fixture('last-week', '@types/semver') }, { status: 200, body: fixture('last-year', '@types/semver') }),
    );
    expect(await fetchDownloads(http, API, '@types/semver')).toEqual({
      status: 'ok',
      facts: { lastWeek: 27184950, lastMonth: null, lastYear: 1302558421 },
    });
    expect(http.requests).toHaveLength(2);
  });

  test('only one period answers → the other is null', async () => {
    const http = fakeHttp(routes('chalk', { status: 200, body: fixture('last-week', 'chalk') }, { status: 503 }));
    expect(await fetchDownloads(http, API, 'chalk')).toEqual({ status: 'ok', facts: { lastWeek: 298417562, lastMonth: null, lastYear: null } });
  });

  test('zero downloads is a real answer, not unknown', async () => {
    const body = '{"downloads":0,"start":"2026-11-22","end":"2026-11-28","package":"quiet"}';
    const http = fakeHttp(routes('quiet', { status: 200, body }, { status: 200, body }));
    expect(await fetchDownloads(http, API, 'quiet')).toEqual({ status: 'ok', facts: { lastWeek: 0, lastMonth: null, lastYear: 0 } });
  });

  test.each([
    ['404 (the stats API does not know it)', { status: 404, body: '{"error":"package x not found"}' }, 'not-found'],
    ['an {error} body with 200', { status: 200, body: '{"error":"end date > start date"}' }, 'bad-answer'],
    ['malformed JSON', { status: 200, body: '{"downloads":' }, 'bad-answer'],
    ['a negative count', { status: 200, body: '{"downloads":-5}' }, 'bad-answer'],
    ['a string count', { status: 200, body: '{"downloads":"12"}' }, 'bad-answer'],
    ['an array', { status: 200, body: '[]' }, 'bad-answer'],
    ['a network failure', { fail: 'network' as const, reason: 'ECONNREFUSED' }, 'network-error'],
  ])('%s on both periods → unavailable', async (_label, answer, code) => {
    const result = await fetchDownloads(fakeHttp(routes('x', answer, answer)), API, 'x');
    expect(result).toMatchObject({ status: 'unavailable', code });
    if (result.status === 'unavailable') expect(result.reason).not.toMatch(/\n/);
  });

  test('an invalid API base → unavailable without a request', async () => {
    const http = fakeHttp({});
    const result = await fetchDownloads(http, 'not a url', 'x');
    expect(result).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'not-asked' });
    expect(http.requests).toHaveLength(0);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ABBREVIATED_ACCEPT, PACKUMENT_MAX_BYTES, fetchPackument, packumentUrl } from '../../src/sources/npm/registry.js';
import { fakeHttp } from './fake-http.js';

const BASE = 'http://127.0.0.1:9/npm/';
const chalkBody = readFileSync(new URL('../../fixtures/http/npm/chalk.json', import.meta.url));

describe('packumentUrl', () => {
  test.each([
    ['http://127.0.0.1:9/npm/', 'express', 'http://127.0.0.1:9/npm/express'],
    ['http://127.0.0.1:9/npm', 'express', 'http://127.0.0.1:9/npm/express'],
    ['http://127.0.0.1:9/', '@types/semver', 'http://127.0.0.1:9/@types%2fsemver'],
    ['http://127.0.0.1:9/a/b/', '@scope/pkg', 'http://127.0.0.1:9/a/b/@scope%2fpkg'],
    ['http://127.0.0.1:9/npm/', 'JSONStream', 'http://127.0.0.1:9/npm/JSONStream'],
  ])('%s + %s → %s', (base, name, url) => {
    expect(packumentUrl(base, name)).toBe(url);
  });

  test.each(['../x', '%2e%2e', 'a/b/c', '', ' express', 'http://evil.test/x'])('invalid name %j throws', (name) => {
    expect(() => packumentUrl(BASE, name)).toThrow();
  });
});

describe('fetchPackument', () => {
  test('200 with a JSON object → ok, full document requested with a large cap', async () => {
    const http = fakeHttp({ [`${BASE}chalk`]: { status: 200, body: chalkBody } });
    const result = await fetchPackument(http, BASE, 'chalk');
    expect(result.status).toBe('ok');
    if (result.status === 'ok') expect(result.packument.name).toBe('chalk');
    expect(http.requests[0]?.headers).toEqual({ accept: 'application/json' });
    expect(http.requests[0]?.maxBytes).toBe(PACKUMENT_MAX_BYTES);
    expect(PACKUMENT_MAX_BYTES).toBe(64 * 1024 * 1024);
  });

  test('the abbreviated document is asked for with the header npm sends, when the caller says so', async () => {
    const http = fakeHttp({ [`${BASE}chalk`]: { status: 200, body: chalkBody } });
    expect((await fetchPackument(http, BASE, 'chalk', { accept: ABBREVIATED_ACCEPT })).status).toBe('ok');
    expect(http.requests[0]?.headers).toEqual({
      accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*',
    });
  });

  test('scoped names use the escaped form under the base path', async () => {
    const http = fakeHttp({ [`${BASE}@types%2fsemver`]: { status: 200, body: '{"name":"@types/semver"}' } });
    expect((await fetchPackument(http, BASE, '@types/semver')).status).toBe('ok');
  });

  test('404 → not-found', async () => {
    const http = fakeHttp({ [`${BASE}nope`]: { status: 404, body: '{"error":"Not found"}' } });
    expect(await fetchPackument(http, BASE, 'nope')).toEqual({ status: 'not-found' });
  });

  test.each([
    ['malformed JSON', { status: 200, body: '{"name": "x",' }, 'bad-answer'],
    ['a JSON array', { status: 200, body: '[1,2]' }, 'bad-answer'],
    ['JSON null', { status: 200, body: 'null' }, 'bad-answer'],
    ['a JSON string', { status: 200, body: '"x"' }, 'bad-answer'],
    ['an empty body', { status: 200, body: '' }, 'bad-answer'],
    ['a 500', { status: 500 }, 'http-status'],
    ['a 401', { status: 401 }, 'auth-required'],
    ['a timeout', { fail: 'timeout' as const, reason: 'headers timeout\nafter 10 s' }, 'timeout'],
    ['too large', { fail: 'too-large' as const, reason: 'body exceeds 64 MiB' }, 'too-large'],
  ])('%s → unavailable', async (_label, answer, code) => {
    const http = fakeHttp({ [`${BASE}x`]: answer });
    const result = await fetchPackument(http, BASE, 'x');
    // Said in user words: `--json` carries the reason (sources[].reason, error.message).
    expect(result).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^package metadata: [^\n]+$/), code });
    expect(JSON.stringify(result)).not.toMatch(/packument/i);
  });

  test('an invalid name is refused before any request', async () => {
    const http = fakeHttp({});
    const result = await fetchPackument(http, BASE, '../etc/passwd');
    expect(result).toMatchObject({ status: 'unavailable', code: 'not-asked' });
    expect(JSON.stringify(result)).not.toMatch(/packument/i);
    expect(http.requests).toHaveLength(0);
  });
});

/**
 * Bulk download counts in an audit: `fetchDownloadsBulk` / `bulkChunks` from
 * src/sources/npm/downloads.ts and `prefetchDownloads` from src/audit/evaluate.ts, over the real
 * HTTP client against the loopback fixture server (request counts from its log).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prefetchDownloads } from '../../src/audit/evaluate.js';
import type { AuditSubject } from '../../src/audit/types.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import {
  BULK_MAX,
  bulkChunks,
  bulkDownloadsUrl,
  bulkEligible,
  fetchDownloads,
  fetchDownloadsBulk,
  type DownloadPeriod,
} from '../../src/sources/npm/downloads.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

let server: FixtureServer;
let http: HttpClient;

beforeEach(async () => {
  server = await startFixtureServer();
  http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, retry: { baseDelayMs: 1 }, sleep: async () => {} });
});

afterEach(async () => {
  await http.close();
  await server.close();
});

const api = () => server.url('npm-api');
const PERIODS: DownloadPeriod[] = ['last-week', 'last-year'];
/** The recorded bulk answers (fixtures/http/npm-api/downloads/point/<period>/chalk,express,…). */
const BULK = ['chalk', 'express', 'nerq-unknown-package', 'request'];
const bulkPath = (period: DownloadPeriod, names: readonly string[]) => `/npm-api/downloads/point/${period}/${names.join(',')}`;
const pointPath = (period: DownloadPeriod, name: string) => `/npm-api/downloads/point/${period}/${name}`;
const downloadRequests = () => server.requests.filter((r) => r.path.startsWith('/npm-api/downloads/')).map((r) => r.path).sort();

const UNKNOWN = (period: DownloadPeriod) => ({ reason: `downloads ${period}: the stats API does not know this package`, code: 'not-found' });
const UNKNOWN_BOTH = { reason: expect.any(String), code: 'not-found' };
const CHALK = { lastWeek: 298417562, lastMonth: null, lastYear: 14871265330 };
const EXPRESS = { lastWeek: 52871134, lastMonth: null, lastYear: 2389504713 };
const REQUEST = { lastWeek: 16023411, lastMonth: null, lastYear: 828312907 };

function subject(name: string, ecosystem: AuditSubject['ecosystem'] = 'npm', version: string | null = '1.0.0'): AuditSubject {
  return { ecosystem, name, version, spec: null, direct: true, dev: false, declaredIn: [], resolved: null, via: [] };
}

function ctxFor(): RunContext {
  return { http, endpoints: { npmApi: api() } } as unknown as RunContext;
}

/** Serve the per-package point queries for `names` from the recorded fixtures (unknown → 404). */
function servePoints(names: readonly string[], periods: readonly DownloadPeriod[] = PERIODS): void {
  for (const period of periods) {
    for (const name of names) {
      if (name === 'nerq-unknown-package') server.expect('GET', pointPath(period, name), { status: 404, body: { error: `package ${name} not found` } });
      else server.expect('GET', pointPath(period, name));
    }
  }
}

describe('bulkChunks', () => {
  it('fewer than two names → no bulk query (one name would be the single-package URL)', () => {
    expect(bulkChunks([])).toEqual([]);
    expect(bulkChunks(['chalk'])).toEqual([]);
    expect(bulkChunks(['chalk', 'express'])).toEqual([['chalk', 'express']]);
  });

  it('as few queries as 128 names allow, none of a single name', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
    expect(bulkChunks(names(128)).map((c) => c.length)).toEqual([128]);
    expect(bulkChunks(names(129)).map((c) => c.length)).toEqual([65, 64]);
    expect(bulkChunks(names(850)).map((c) => c.length)).toEqual([122, 122, 122, 122, 122, 122, 118]);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 3000 }), (n) => {
        const chunks = bulkChunks(names(n));
        expect(chunks).toHaveLength(Math.ceil(n / BULK_MAX));
        expect(chunks.flat()).toEqual(names(n));
        for (const chunk of chunks) expect(chunk.length).toBeGreaterThanOrEqual(2);
        for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(BULK_MAX);
      }),
    );
  });

  it('only plain unscoped names go in a bulk query', () => {
    expect(['chalk', 'JSONStream', 'lodash.merge', 'a-b_c~d'].every(bulkEligible)).toBe(true);
    expect(['@types/semver', 'a,b', '', '.hidden', 'a b', 'a/b', 'x'.repeat(215)].some(bulkEligible)).toBe(false);
  });

  it('the bulk URL keeps the base path and the commas literal', () => {
    expect(bulkDownloadsUrl('http://127.0.0.1:9/npm-api/', 'last-week', ['a', 'b'])).toBe('http://127.0.0.1:9/npm-api/downloads/point/last-week/a,b');
  });
});

describe('fetchDownloadsBulk', () => {
  it('a recorded answer: counts for the known names, "unknown" for a null one, in one request', async () => {
    server.expect('GET', bulkPath('last-week', BULK));
    const answers = await fetchDownloadsBulk(http, api(), 'last-week', BULK);
    expect(Object.fromEntries(answers)).toEqual({
      chalk: 298417562,
      express: 52871134,
      'nerq-unknown-package': UNKNOWN('last-week'),
      request: 16023411,
    });
    expect(server.requests).toHaveLength(1);
    expectNoUnexpected(server);
  });

  it('a name left out, answered with a bad entry or for another package is not answered', async () => {
    server.expect('GET', bulkPath('last-year', ['a', 'b', 'c', 'd', 'e']), {
      body: { a: { downloads: 7, package: 'a' }, b: { downloads: -1 }, c: { downloads: 3, package: 'other' }, d: 'many' },
    });
    const answers = await fetchDownloadsBulk(http, api(), 'last-year', ['a', 'b', 'c', 'd', 'e']);
    expect(Object.fromEntries(answers)).toEqual({ a: 7 });
  });

  it.each([
    ['an { error } body', { body: { error: 'too many packages' } }],
    ['a 500', { status: 500 }],
    ['a 404', { status: 404 }],
    ['malformed JSON', { malformed: true }],
    ['an array', { body: [] }],
    ['a connection reset', { reset: true }],
  ])('%s → nothing answered (never zero)', async (_label, response) => {
    server.expect('GET', bulkPath('last-week', ['a', 'b']), response);
    const answers = await fetchDownloadsBulk(http, api(), 'last-week', ['a', 'b']);
    expect(answers.size).toBe(0);
  });

  it('a package named "error" is a package, not a refusal', async () => {
    server.expect('GET', bulkPath('last-week', ['error', 'ok']), { body: { error: { downloads: 5, package: 'error' }, ok: null } });
    const answers = await fetchDownloadsBulk(http, api(), 'last-week', ['error', 'ok']);
    expect(Object.fromEntries(answers)).toEqual({ error: 5, ok: UNKNOWN('last-week') });
  });

  it('fewer than two eligible names → no request', async () => {
    expect((await fetchDownloadsBulk(http, api(), 'last-week', ['chalk', '@types/semver'])).size).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

describe('prefetchDownloads (an audit)', () => {
  it('mixed found / null / scoped: 2 bulk requests, scoped and PyPI left to their own requests', async () => {
    for (const period of PERIODS) server.expect('GET', bulkPath(period, BULK));
    servePoints(['@types/semver']);
    // Unsorted, with a duplicate (two versions of chalk) and a PyPI project of a bulk name.
    const subjects = [subject('request'), subject('chalk'), subject('@types/semver'), subject('express', 'npm', null), subject('nerq-unknown-package'), subject('chalk', 'npm', '2.0.0'), subject('chalk', 'pypi')];
    const prefetched = prefetchDownloads(ctxFor(), subjects);
    expect(prefetched).toBeDefined();
    expect(prefetched?.('@types/semver')).toBeUndefined();
    expect(prefetched?.('not-in-the-audit')).toBeUndefined();
    expect(await prefetched?.('chalk')).toEqual({ status: 'ok', facts: CHALK });
    expect(await prefetched?.('express')).toEqual({ status: 'ok', facts: EXPRESS });
    expect(await prefetched?.('request')).toEqual({ status: 'ok', facts: REQUEST });
    expect(await prefetched?.('nerq-unknown-package')).toEqual({ status: 'unavailable', ...UNKNOWN_BOTH });
    expect(downloadRequests()).toEqual(PERIODS.map((p) => bulkPath(p, BULK)).sort());
    expectNoUnexpected(server);
  });

  it('the same answers as the per-package requests (reports do not change)', async () => {
    for (const period of PERIODS) server.expect('GET', bulkPath(period, BULK));
    servePoints(BULK);
    const prefetched = prefetchDownloads(ctxFor(), BULK.map((name) => subject(name)));
    for (const name of BULK) {
      const bulk = await prefetched?.(name);
      const single = await fetchDownloads(http, api(), name);
      expect(bulk).toEqual(single);
    }
    expectNoUnexpected(server);
  });

  it('one bulk query failing → that period per package, the other still from its bulk answer', async () => {
    server.expect('GET', bulkPath('last-week', BULK));
    server.expect('GET', bulkPath('last-year', BULK), { status: 500 });
    servePoints(BULK, ['last-year']);
    const prefetched = prefetchDownloads(ctxFor(), BULK.map((name) => subject(name)));
    const results = await Promise.all(BULK.map((name) => prefetched?.(name)));
    expect(results).toEqual([
      { status: 'ok', facts: CHALK },
      { status: 'ok', facts: EXPRESS },
      { status: 'unavailable', ...UNKNOWN_BOTH },
      { status: 'ok', facts: REQUEST },
    ]);
    // 2 bulk queries (the failed one asked once: a 500 is not retried) + 4 per-package last-year.
    expect(downloadRequests()).toEqual([...PERIODS.map((p) => bulkPath(p, BULK)), ...BULK.map((n) => pointPath('last-year', n))].sort());
    expectNoUnexpected(server);
  });

  it('a partial answer: only the names it left out ask for themselves', async () => {
    server.expect('GET', bulkPath('last-week', ['chalk', 'express']), { body: { chalk: { downloads: 298417562, package: 'chalk' } } });
    server.expect('GET', bulkPath('last-year', ['chalk', 'express']), { body: { chalk: { downloads: 14871265330, package: 'chalk' }, express: { downloads: 2389504713, package: 'express' } } });
    servePoints(['express'], ['last-week']);
    const prefetched = prefetchDownloads(ctxFor(), [subject('express'), subject('chalk')]);
    expect(await prefetched?.('chalk')).toEqual({ status: 'ok', facts: CHALK });
    expect(await prefetched?.('express')).toEqual({ status: 'ok', facts: EXPRESS });
    expect(downloadRequests()).toEqual([bulkPath('last-week', ['chalk', 'express']), bulkPath('last-year', ['chalk', 'express']), pointPath('last-week', 'express')].sort());
    expectNoUnexpected(server);
  });

  it('a single unscoped npm name → no bulk query at all', () => {
    expect(prefetchDownloads(ctxFor(), [subject('chalk'), subject('@types/semver'), subject('express', 'pypi')])).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });
});

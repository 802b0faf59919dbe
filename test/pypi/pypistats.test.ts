/** pypistats recent downloads: last week and last month; the year is not given (null, not zero). */
import { describe, expect, test } from 'vitest';
import { fetchPypiDownloads } from '../../src/sources/pypi/project.js';
import { pypistatsUrl } from '../../src/sources/pypi/pypistats.js';
import { usePypiServer } from './helpers.js';

const ctx = usePypiServer();

describe('fetchPypiDownloads', () => {
  test('URL: the PEP 503 name under the base path', () => {
    expect(pypistatsUrl('https://pypistats.example/api', 'Flask_Login')).toBe('https://pypistats.example/api/packages/flask-login/recent');
  });

  test('the recorded answer', async () => {
    ctx.server.expect('GET', '/pypistats/packages/flask/recent');
    expect(await fetchPypiDownloads(ctx.http, ctx.pypistats, 'Flask')).toEqual({
      status: 'ok',
      facts: { lastWeek: 21904312, lastMonth: 94130560, lastYear: null },
    });
  });

  test('zero downloads is an answer; a missing period is null', async () => {
    ctx.server.expect('GET', '/pypistats/packages/quiet/recent', { body: { data: { last_day: 0, last_week: 0 }, package: 'quiet', type: 'recent_downloads' } });
    expect(await fetchPypiDownloads(ctx.http, ctx.pypistats, 'quiet')).toEqual({ status: 'ok', facts: { lastWeek: 0, lastMonth: null, lastYear: null } });
  });

  test.each([
    ['404', { status: 404 }, 'not-found'],
    ['malformed JSON', { malformed: true }, 'bad-answer'],
    ['no counts at all', { body: { data: {}, package: 'x', type: 'recent_downloads' } }, 'bad-answer'],
    ['a negative count', { body: { data: { last_week: -1, last_month: 3 } } }, 'bad-answer'],
    ['no data object', { body: { error: 'rate limited' } }, 'bad-answer'],
  ])('%s → unavailable', async (_label, response, code) => {
    ctx.server.expect('GET', '/pypistats/packages/x/recent', response);
    expect(await fetchPypiDownloads(ctx.http, ctx.pypistats, 'x')).toEqual({ status: 'unavailable', reason: expect.any(String), code });
  });

  test('a server error → unavailable with the HTTP reason', async () => {
    ctx.server.expect('GET', '/pypistats/packages/x/recent', { status: 503 });
    expect(await fetchPypiDownloads(ctx.http, ctx.pypistats, 'x')).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'http-status' });
  });
});

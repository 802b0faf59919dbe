/**
 * `nerq serve` on a real loopback socket: every POST body is JSON sent as `application/json`
 * (docs/serve.md, "Errors"). A body of another media type — `text/plain` (what `fetch` sends for
 * a string), a form, none at all — is 415 `unsupported-media-type` before any route reads it; JSON
 * with a charset is taken. No request reaches the fixture server: nothing is evaluated.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from './support.js';

let server: FixtureServer;
let serve: TestApp;
let origin: URL;

beforeAll(async () => {
  server = await startFixtureServer();
  serve = testApp(server);
  origin = new URL(await serve.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  expectNoUnexpected(server);
  expect(server.requests).toEqual([]);
  await serve.close();
  await server.close();
});

/** One POST over the socket with exactly these headers (node:http adds no content-type of its own). */
function post(path: string, body: string | Buffer, headers: Record<string, string>): Promise<{ status: number; code: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: origin.hostname, port: origin.port, method: 'POST', path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const parsed = JSON.parse(text) as { error?: { code?: string } };
        resolve({ status: res.statusCode ?? 0, code: parsed.error?.code });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A lockfile with no package: auditing it asks nothing of any registry.
const AUDIT = JSON.stringify({ fileName: 'package-lock.json', content: JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, packages: { '': { name: 'app', version: '1.0.0' } } }) });
const BATCH = JSON.stringify({ targets: ['chalk'] });

describe.each([
  ['/v1/audit', AUDIT],
  ['/v1/preflight/batch', BATCH],
])('POST %s', (path, body) => {
  it.each([
    ['text/plain'],
    ['text/plain; charset=utf-8'],
    ['application/x-www-form-urlencoded'],
    ['multipart/form-data; boundary=x'],
    ['application/octet-stream'],
    ['application/vnd.api+json'],
    ['not a media type'],
  ])('a JSON body sent as %s → 415 unsupported-media-type', async (type) => {
    expect(await post(path, body, { 'content-type': type })).toEqual({ status: 415, code: 'unsupported-media-type' });
  });

  it('a JSON body with no content-type → 415 unsupported-media-type (JSON is never guessed)', async () => {
    expect(await post(path, body, {})).toEqual({ status: 415, code: 'unsupported-media-type' });
  });

  it('no body and no content-type → 400 bad-request (the body the route needs is missing)', async () => {
    expect(await post(path, '', {})).toEqual({ status: 400, code: 'bad-request' });
  });

  it.each([['gzip'], ['GZIP'], ['br'], ['deflate'], ['identity, gzip'], ['x-unknown']])(
    'a JSON body labelled Content-Encoding: %s → 415 unsupported-media-type (never decoded, never read as if plain)',
    async (coding) => {
      expect(await post(path, body, { 'content-type': 'application/json', 'content-encoding': coding })).toEqual({ status: 415, code: 'unsupported-media-type' });
    },
  );

  it('a gzip body labelled so → 415 unsupported-media-type, not a parse error', async () => {
    const zipped = gzipSync(body);
    expect(await post(path, zipped, { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toEqual({ status: 415, code: 'unsupported-media-type' });
  });

  it('an empty body sent as application/json → 400 bad-request', async () => {
    expect(await post(path, '', { 'content-type': 'application/json' })).toEqual({ status: 400, code: 'bad-request' });
  });
});

describe('JSON is taken whatever its parameters', () => {
  it('a GET, which has no body, is answered whatever its Content-Encoding', async () => {
    const res = await fetch(`${origin.origin}/v1/history?target=chalk`, { headers: { 'content-encoding': 'gzip' } });
    expect(res.status).toBe(200);
  });

  it('POST /v1/audit with Content-Encoding: identity → 200', async () => {
    expect((await post('/v1/audit', AUDIT, { 'content-type': 'application/json', 'content-encoding': 'identity' })).status).toBe(200);
  });


  it('POST /v1/audit as application/json; charset=utf-8 → 200, the audit report', async () => {
    const answer = await post('/v1/audit', AUDIT, { 'content-type': 'application/json; charset=utf-8' });
    expect(answer).toEqual({ status: 200, code: undefined });
  });
});

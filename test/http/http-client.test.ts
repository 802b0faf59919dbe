import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  caBundle,
  createHttpClient,
  formatBytes,
  formatDuration,
  parseRetryAfter,
} from '../../src/sources/http/client.js';
import type { HttpClientOptions } from '../../src/sources/http/client.js';
import { loadNpmConfig } from '../../src/sources/npm/config.js';
import type { HttpClient, HttpResult } from '../../src/sources/http/types.js';
import { USER_AGENT } from '../../src/version.js';
import { expectNoUnexpected, startFixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { makeZeroBomb } from '../support/tarball.js';
import { readTreeFileSync } from '../../src/audit/tree-file.js';

const TOKEN = 'npm_SECRET_TOKEN_value';
const PACKUMENT = {
  name: 'express',
  'dist-tags': { latest: '5.1.0' },
  versions: { '5.1.0': { dist: { tarball: '{{REGISTRY}}/express/-/express-5.1.0.tgz' } } },
};

let root: string;
let server: FixtureServer;
const clients: HttpClient[] = [];
const extraServers: FixtureServer[] = [];
let sleeps: number[];

function client(options: HttpClientOptions = {}): HttpClient {
  const made = createHttpClient({
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 },
    retry: { baseDelayMs: 100, maxRetryAfterMs: 2000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    env: {},
    ...options,
  });
  clients.push(made);
  return made;
}

async function another(): Promise<FixtureServer> {
  const made = await startFixtureServer({ root });
  extraServers.push(made);
  return made;
}

function expectFailure(result: HttpResult): Extract<HttpResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a failure, got HTTP ${result.status}`);
  expect(result.reason).not.toContain('\n');
  return result;
}

function expectOk(result: HttpResult): Extract<HttpResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected success, got ${result.kind}: ${result.reason}`);
  return result;
}

beforeEach(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'nerq-fixtures-'));
  mkdirSync(path.join(root, 'npm'), { recursive: true });
  writeFileSync(path.join(root, 'npm', 'express.json'), JSON.stringify(PACKUMENT));
  writeFileSync(path.join(root, 'npm', 'big.json'), JSON.stringify({ filler: 'x'.repeat(5000) }));
  server = await startFixtureServer({ root });
  sleeps = [];
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all([server, ...extraServers.splice(0)].map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});
expectNoUnexpectedRequests(() => [server, ...extraServers]);

describe('successful requests', () => {
  it('returns status, lower-cased headers, body and final URL, and sends the User-Agent', async () => {
    server.expect('GET', '/npm/express');
    const result = expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.url).toBe(`${server.url('npm')}/express`);
    const body = JSON.parse(result.body.toString('utf8'));
    expect(body.versions['5.1.0'].dist.tarball).toBe(`${server.url('npm')}/express/-/express-5.1.0.tgz`);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['user-agent']).toBe(USER_AGENT);
    expect(server.requests[0]?.headers['accept-encoding']).toMatch(/gzip/);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expectNoUnexpected(server);
  });

  it('keeps the User-Agent even when the caller sets one', async () => {
    server.expect('GET', '/npm/express');
    await client().request({ url: `${server.url('npm')}/express`, headers: { 'User-Agent': 'other' } });
    expect(server.requests[0]?.headers['user-agent']).toBe(USER_AGENT);
  });

  it.each(['gzip', 'br', 'deflate'] as const)('decodes a %s-encoded response', async (encoding) => {
    server.expect('GET', '/npm/express', { encoding });
    const result = expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(JSON.parse(result.body.toString('utf8')).name).toBe('express');
    expect(result.headers['content-encoding']).toBeUndefined();
    // A gzip body's wire bytes come along for the store; other codings' do not.
    if (encoding === 'gzip') expect(zlib.gunzipSync(result.wireGzip!).equals(result.body)).toBe(true);
    else expect(result.wireGzip).toBeUndefined();
    expectNoUnexpected(server);
  });

  it('sends a POST body', async () => {
    server.expect('POST', '/osv/v1/query', { body: { vulns: [] } });
    const result = expectOk(
      await client().request({
        url: `${server.url('osv')}/v1/query`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"package":{"name":"express"}}',
      }),
    );
    expect(JSON.parse(result.body.toString())).toEqual({ vulns: [] });
    expect(server.requests[0]?.body).toBe('{"package":{"name":"express"}}');
  });
});

describe('status failures and retries', () => {
  it('reports a 404 as a status failure naming the host, without retrying', async () => {
    server.expect('GET', '/npm/missing', { status: 404 });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/missing?token=${TOKEN}` }));
    expect(failure).toMatchObject({ kind: 'status', status: 404 });
    expect(failure.reason).toBe(`HTTP 404 from 127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 503 and then succeeds, with full-jitter backoff', async () => {
    server.expect('GET', '/npm/express', { status: 503, times: 2 }).expect('GET', '/npm/express');
    const result = expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(result.status).toBe(200);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]); // random 0.5 × 100 ms × 2^attempt
    expect(server.pending()).toEqual([]);
    expectNoUnexpected(server);
  });

  it.each([429, 502, 503, 504])('gives up on a persistent %i after 3 attempts', async (status) => {
    server.expect('GET', '/npm/express', { status });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(failure).toMatchObject({ kind: 'status', status });
    // One reason however many attempts: repeated outages read the same (they are grouped in reports).
    expect(failure.reason).toBe(`HTTP ${status} from 127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 500', async () => {
    server.expect('GET', '/npm/express', { status: 500 });
    expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST only when asked to', async () => {
    server.expect('POST', '/osv/v1/query', { status: 503 });
    expectFailure(await client().request({ url: `${server.url('osv')}/v1/query`, method: 'POST', body: '{}' }));
    expect(server.requests).toHaveLength(1);
    expectFailure(
      await client().request({ url: `${server.url('osv')}/v1/query`, method: 'POST', body: '{}', retry: true }),
    );
    expect(server.requests).toHaveLength(4);
  });

  it('honours Retry-After in seconds', async () => {
    server
      .expect('GET', '/npm/express', { status: 429, headers: { 'retry-after': '1' }, times: 1 })
      .expect('GET', '/npm/express');
    expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(sleeps).toEqual([1000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('2026-11-30T00:00:00Z');
    server
      .expect('GET', '/npm/express', { status: 503, headers: { 'retry-after': 'Mon, 30 Nov 2026 00:00:01 GMT' }, times: 1 })
      .expect('GET', '/npm/express');
    expectOk(await client({ now: () => now }).request({ url: `${server.url('npm')}/express` }));
    expect(sleeps).toEqual([1000]);
  });

  it('fails fast when Retry-After is over the limit', async () => {
    server.expect('GET', '/npm/express', { status: 503, headers: { 'retry-after': '120' } });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(failure).toMatchObject({ kind: 'status', status: 503 });
    expect(failure.reason).toContain('Retry-After 120 s is over the 2 s limit');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not wait past the run deadline for a retry', async () => {
    server.expect('GET', '/npm/express', { status: 503, headers: { 'retry-after': '2' } });
    const failure = expectFailure(
      await client({ deadline: Date.now() + 1500 }).request({ url: `${server.url('npm')}/express` }),
    );
    expect(failure.reason).toContain('no time left to retry');
    expect(server.requests).toHaveLength(1);
  });
});

describe('network faults', () => {
  it('reports a reset connection as a network failure, after retrying', async () => {
    server.expect('GET', '/npm/express', { reset: true });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(failure.kind).toBe('network');
    expect(failure.reason).toContain(`127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(3);
  });

  it('recovers when a reset is followed by an answer', async () => {
    server.expect('GET', '/npm/express', { reset: true, times: 1 }).expect('GET', '/npm/express');
    expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(server.requests).toHaveLength(2);
  });

  it('times out waiting for headers, naming the host and the limit', async () => {
    server.expect('GET', '/npm/express', { delayMs: 5000 });
    const failure = expectFailure(
      await client({ timeouts: { headersMs: 150 } }).request({ url: `${server.url('npm')}/express` }),
    );
    expect(failure.kind).toBe('timeout');
    expect(failure.reason).toBe(`timeout after 150 ms waiting for headers from 127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(1);
  });

  it('times out on a stalled body', async () => {
    server.route('GET', '/npm/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"name":');
    });
    const failure = expectFailure(
      await client({ timeouts: { bodyMs: 150 } }).request({ url: `${server.url('npm')}/stall` }),
    );
    expect(failure.kind).toBe('timeout');
    expect(failure.reason).toContain('waiting for body data');
  });

  it('treats a truncated body as a failure, not a partial success', async () => {
    server.expect('GET', '/npm/express', { truncate: 20 });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(failure.kind).toBe('network');
    expect(failure.reason).toContain('closed before the response was complete');
  });

  it('treats a truncated gzip body as a failure', async () => {
    server.route('GET', '/npm/express', async (_req, res) => {
      const { gzipSync } = await import('node:zlib');
      const full = gzipSync(Buffer.from(JSON.stringify(PACKUMENT)));
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(full.length - 10) });
      res.end(full.subarray(0, full.length - 10));
    });
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/express` }));
    expect(failure.kind).toBe('network');
  });

  it('reports a refused connection', async () => {
    const gone = await another();
    const url = `${gone.url('npm')}/express`;
    await gone.close();
    const failure = expectFailure(await client().request({ url }));
    expect(failure.kind).toBe('network');
    expect(failure.reason).toContain('connection refused');
  });

  it('hands malformed bodies back as they are (parsing is the source’s job)', async () => {
    server.expect('GET', '/npm/express', { malformed: true });
    const result = expectOk(await client().request({ url: `${server.url('npm')}/express` }));
    expect(() => JSON.parse(result.body.toString())).toThrow();
  });
});

describe('size caps', () => {
  it('refuses a declared Content-Length over the cap without reading it', async () => {
    server.expect('GET', '/npm/big');
    const failure = expectFailure(await client().request({ url: `${server.url('npm')}/big`, maxBytes: 1000 }));
    expect(failure.kind).toBe('too-large');
    expect(failure.reason).toContain('1000 bytes');
  });

  it('aborts a streamed body as soon as it passes the cap', async () => {
    const total = 256 * 1024 * 1024;
    let written = 0;
    let closedEarly = false;
    server.route('GET', '/npm/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // chunked, no length
      const chunk = Buffer.alloc(64 * 1024, 1);
      res.on('close', () => {
        closedEarly = written < total;
      });
      const pump = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    const failure = expectFailure(
      await client().request({ url: `${server.url('npm')}/endless`, maxBytes: 1024 * 1024 }),
    );
    expect(failure.kind).toBe('too-large');
    expect(failure.reason).toContain('1 MiB');
    await expect.poll(() => closedEarly).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('caps the decoded size of a compressed body (gzip bomb)', async () => {
    server.route('GET', '/npm/bomb', (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      makeZeroBomb(512 * 1024 * 1024).pipe(res);
    });
    const failure = expectFailure(
      await client().request({ url: `${server.url('npm')}/bomb`, maxBytes: 2 * 1024 * 1024 }),
    );
    expect(failure.kind).toBe('too-large');
  });

  it('accepts a body exactly at the cap', async () => {
    server.expect('GET', '/npm/exact', { body: Buffer.alloc(4096, 7) });
    const result = expectOk(await client().request({ url: `${server.url('npm')}/exact`, maxBytes: 4096 }));
    expect(result.body.length).toBe(4096);
  });
});

describe('redirects and credentials', () => {
  const authFor = (url: string): string | undefined => (url.startsWith('http://127.0.0.1:') ? `Bearer ${TOKEN}` : undefined);

  it('attaches the auth header from authFor', async () => {
    server.expect('GET', '/npm/express');
    await client({ authFor }).request({ url: `${server.url('npm')}/express` });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('keeps the auth header on a same-origin redirect', async () => {
    server
      .expect('GET', '/npm/old', { status: 302, headers: { location: '/npm/express' } })
      .expect('GET', '/npm/express');
    const result = expectOk(await client({ authFor }).request({ url: `${server.url('npm')}/old` }));
    expect(result.url).toBe(`${server.url('npm')}/express`);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expectNoUnexpected(server);
  });

  it('drops every credential header on a cross-origin redirect (other port)', async () => {
    const other = await another();
    other.expect('GET', '/files/express.tgz', { body: Buffer.from('tarball bytes') });
    server.expect('GET', '/npm/express/-/express-5.1.0.tgz', {
      status: 302,
      headers: { location: `${other.origin}/files/express.tgz` },
    });
    const result = expectOk(
      await client({ authFor }).request({
        url: `${server.url('npm')}/express/-/express-5.1.0.tgz`,
        headers: { Cookie: 'session=1', 'x-api-key': 'kept' },
      }),
    );
    expect(result.body.toString()).toBe('tarball bytes');
    expect(result.url).toBe(`${other.origin}/files/express.tgz`);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers.cookie).toBeUndefined();
    expect(other.requests[0]?.headers['x-api-key']).toBe('kept');
    expectNoUnexpected(server);
    expectNoUnexpected(other);
  });

  it('drops a caller-supplied Authorization header on a cross-origin redirect', async () => {
    const other = await another();
    other.expect('GET', '/x', { body: 'ok' });
    server.expect('GET', '/github/repos/a/b', { status: 307, headers: { location: `${other.origin}/x` } });
    expectOk(
      await client().request({ url: `${server.url('github')}/repos/a/b`, headers: { Authorization: `token ${TOKEN}` } }),
    );
    expect(server.requests[0]?.headers.authorization).toBe(`token ${TOKEN}`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('stops after 5 redirects', async () => {
    server.expect('GET', '/loop', { status: 302, headers: { location: '/loop' } });
    const failure = expectFailure(await client().request({ url: `${server.url()}/loop` }));
    expect(failure.kind).toBe('redirect');
    expect(failure.reason).toContain('more than 5');
    expect(server.requests).toHaveLength(6);
  });

  it.each([
    ['a non-http URL', 'file:///etc/passwd', 'non-http'],
    ['a URL with credentials', 'http://user:pw@127.0.0.1:1/x', 'credentials'],
  ])('refuses a redirect to %s', async (_label, location, reason) => {
    server.expect('GET', '/r', { status: 301, headers: { location } });
    const failure = expectFailure(await client().request({ url: `${server.url()}/r` }));
    expect(failure.kind).toBe('redirect');
    expect(failure.reason).toContain(reason);
    expect(failure.reason).not.toContain('pw');
  });

  it('turns a POST into a GET on 303', async () => {
    server
      .expect('POST', '/osv/v1/query', { status: 303, headers: { location: '/osv/result' } })
      .expect('GET', '/osv/result', { body: { ok: true } });
    expectOk(await client().request({ url: `${server.url('osv')}/v1/query`, method: 'POST', body: '{}' }));
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    expectNoUnexpected(server);
  });

  it('never puts a token or a query string into a reason', async () => {
    server.expect('GET', '/npm/express', { status: 503 });
    const failure = expectFailure(
      await client({ authFor }).request({ url: `${server.url('npm')}/express?access_token=${TOKEN}` }),
    );
    expect(failure.reason).not.toContain(TOKEN);
    expect(failure.reason).not.toContain('access_token');
  });
});

describe('with the npm configuration', () => {
  it("sends the registry token to the registry's origin only, and uses npm's proxy", async () => {
    const other = await another();
    const proxy = await another();
    other.expect('GET', '/npm/express');
    server.expect('GET', '/npm/express');
    const home = path.join(root, 'home');
    mkdirSync(home);
    writeFileSync(
      path.join(home, '.npmrc'),
      `registry=${server.url('npm')}/\n//127.0.0.1:${server.port}/npm/:_authToken=${TOKEN}\n`,
    );
    const npm = loadNpmConfig({ readFile: readTreeFileSync, env: { HOME: home, PREFIX: home }, cwd: home });
    const http = client({ npm });
    expectOk(await http.request({ url: `${npm.registryFor('express')}express` }));
    expectOk(await http.request({ url: `${other.url('npm')}/express` }));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();

    writeFileSync(path.join(home, '.npmrc'), `proxy=${proxy.origin}\n`);
    proxy.expect('GET', '/npm/express', { body: 'via npm proxy' });
    const proxied = client({ npm: loadNpmConfig({ readFile: readTreeFileSync, env: { HOME: home, PREFIX: home }, cwd: home }) });
    const result = expectOk(await proxied.request({ url: `${server.url('npm')}/express` }));
    expect(result.body.toString()).toBe('via npm proxy');
    expect(server.requests).toHaveLength(1);
  });
});

describe('deadline, proxies and misuse', () => {
  it('aborts an in-flight request at the run deadline', async () => {
    server.expect('GET', '/npm/express', { delayMs: 5000 });
    const failure = expectFailure(
      await client({ deadline: Date.now() + 150, timeouts: { headersMs: 10_000 } }).request({
        url: `${server.url('npm')}/express`,
      }),
    );
    expect(failure.kind).toBe('timeout');
    expect(failure.reason).toContain('run deadline');
  });

  it('sends nothing once the run signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const failure = expectFailure(
      await client({ signal: controller.signal }).request({ url: `${server.url('npm')}/express` }),
    );
    expect(failure.kind).toBe('timeout');
    expect(server.requests).toHaveLength(0);
  });

  it('goes through an HTTP proxy from the environment', async () => {
    const proxy = await another();
    proxy.expect('GET', '/npm/express', { body: { via: 'proxy' } });
    const result = expectOk(
      await client({ env: { HTTP_PROXY: proxy.origin } }).request({ url: `${server.url('npm')}/express` }),
    );
    expect(JSON.parse(result.body.toString())).toEqual({ via: 'proxy' });
    expect(proxy.requests[0]?.proxied).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('bypasses the proxy for NO_PROXY hosts', async () => {
    const proxy = await another();
    server.expect('GET', '/npm/express');
    expectOk(
      await client({ env: { HTTP_PROXY: proxy.origin, NO_PROXY: '127.0.0.1' } }).request({
        url: `${server.url('npm')}/express`,
      }),
    );
    expect(proxy.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it("lets npm's proxy setting win over the environment", async () => {
    const proxy = await another();
    const envProxy = await another();
    proxy.expect('GET', '/npm/express', { body: 'npm proxy' });
    expectOk(
      await client({ env: { HTTP_PROXY: envProxy.origin }, proxy: { httpProxy: proxy.origin } }).request({
        url: `${server.url('npm')}/express`,
      }),
    );
    expect(proxy.requests).toHaveLength(1);
    expect(envProxy.requests).toHaveLength(0);
  });

  it.each([
    ['not a url', 'invalid request URL'],
    ['ftp://127.0.0.1/x', 'unsupported URL scheme'],
    ['http://user:pw@127.0.0.1:1/x', 'embedded credentials'],
  ])('never throws: %j → a failure', async (url, reason) => {
    const failure = expectFailure(await client().request({ url }));
    expect(failure.kind).toBe('network');
    expect(failure.reason).toContain(reason);
  });

  it('reports a bad proxy setting per request instead of throwing', async () => {
    const failure = expectFailure(
      await client({ proxy: { httpProxy: 'not a url' } }).request({ url: `${server.url('npm')}/express` }),
    );
    expect(failure.reason).toContain('proxy');
  });

  it('closes idempotently', async () => {
    const made = client();
    await made.close();
    await made.close();
    const failure = expectFailure(await made.request({ url: `${server.url('npm')}/express` }));
    expect(failure.kind).toBe('network');
  });
});

describe('helpers', () => {
  it.each([
    ['5', 0, 5000],
    ['0', 0, 0],
    ['Mon, 30 Nov 2026 00:00:10 GMT', Date.parse('2026-11-30T00:00:00Z'), 10_000],
    ['Mon, 30 Nov 2026 00:00:10 GMT', Date.parse('2026-11-30T00:01:00Z'), 0],
    ['soon', 0, undefined],
    [undefined, 0, undefined],
  ])('parseRetryAfter(%j)', (value, now, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it('backs off with full jitter inside an exponential window', () => {
    expect(backoffDelay(0, 250, () => 0)).toBe(0);
    expect(backoffDelay(0, 250, () => 0.999)).toBeLessThan(250);
    expect(backoffDelay(2, 250, () => 0.999)).toBeLessThan(1000);
    expect(backoffDelay(2, 250, () => 0.5)).toBe(500);
  });

  it.each([
    [150, '150 ms'],
    [15_000, '15 s'],
    [1500, '1.5 s'],
  ])('formatDuration(%i) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([
    [100, '100 bytes'],
    [2048, '2 KiB'],
    [32 * 1024 * 1024, '32 MiB'],
  ])('formatBytes(%i) = %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it("adds extra CAs to Node's default ones instead of replacing them", () => {
    const extra = '-----BEGIN CERTIFICATE-----\nEXTRA\n-----END CERTIFICATE-----';
    const bundle = caBundle(tls, [extra]);
    expect(bundle.at(-1)).toBe(extra);
    expect(bundle.length).toBeGreaterThan(100);
  });
});

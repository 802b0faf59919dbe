import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectNoUnexpected, fixtureFileFor, FIXTURES_ROOT, startFixtureServer } from '../support/fixture-server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { makeTarball } from '../support/tarball.js';

let root: string;
let server: FixtureServer;
const tarball = makeTarball([{ path: 'package.json', content: '{"name":"@scope/pkg","url":"{{REGISTRY}}"}' }]);

function write(relative: string, content: string | Buffer): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A raw GET with node:http (the path is sent exactly as given). */
function get(rawPath: string, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.origin}${rawPath}`, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeEach(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'nerq-fixture-root-'));
  write('npm/express.json', '{"name":"express","tarball":"{{REGISTRY}}/express/-/express-5.1.0.tgz","home":"{{ORIGIN}}"}');
  write('npm/@scope/pkg.json', '{"name":"@scope/pkg"}');
  write('npm/@scope/pkg/-/pkg-1.0.0.tgz', tarball);
  write('npm-api/downloads/point/last-week/express.json', '{"downloads":123}');
  server = await startFixtureServer({ root });
});

afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('fixture mapping', () => {
  it('serves <source>/<path>.json with the registry placeholder filled in', async () => {
    server.expect('GET', '/npm/express');
    const res = await get('/npm/express');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body.toString())).toEqual({
      name: 'express',
      tarball: `${server.url('npm')}/express/-/express-5.1.0.tgz`,
      home: server.origin,
    });
    expectNoUnexpected(server);
  });

  it.each(['/npm/@scope%2fpkg', '/npm/@scope%2Fpkg', '/npm/%40scope%2Fpkg', '/npm/%40scope%2fpkg'])(
    'maps the scoped request %s to npm/@scope/pkg.json',
    async (rawPath) => {
      server.expect('GET', '/npm/@scope%2fpkg');
      const res = await get(rawPath);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString()).name).toBe('@scope/pkg');
      expect(server.requests[0]?.path).toBe(rawPath);
      expectNoUnexpected(server);
    },
  );

  it('serves tarballs as untouched bytes', async () => {
    server.expect('GET', '/npm/@scope/pkg/-/pkg-1.0.0.tgz');
    const res = await get('/npm/@scope/pkg/-/pkg-1.0.0.tgz');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.body.equals(tarball)).toBe(true);
  });

  it('serves nested API paths', async () => {
    server.expect('GET', '/npm-api/downloads/point/last-week/express');
    const res = await get('/npm-api/downloads/point/last-week/express');
    expect(JSON.parse(res.body.toString())).toEqual({ downloads: 123 });
  });

  it('serves another fixture when told to', async () => {
    server.expect('GET', '/npm/renamed', { fixture: 'npm/express.json' });
    expect(JSON.parse((await get('/npm/renamed')).body.toString()).name).toBe('express');
  });

  it('reports an expected route without a fixture file as unexpected', async () => {
    server.expect('GET', '/npm/nothing-here');
    expect((await get('/npm/nothing-here')).status).toBe(599);
    expect(server.unexpected[0]?.reason).toContain('no fixture file');
  });

  it.each([
    ['/npm/../../etc/passwd'],
    ['/npm/./x'],
    ['/'],
    ['/npm/a\0b'],
  ])('never maps %j outside the root', (decoded) => {
    expect(fixtureFileFor(root, decoded)).toBeUndefined();
  });

  it("defaults to the repository's fixtures/http folder", () => {
    expect(FIXTURES_ROOT.replaceAll('\\', '/')).toMatch(/\/fixtures\/http\/$/);
  });
});

describe('expectations', () => {
  it('answers 599 to an undeclared route and records it', async () => {
    const res = await get('/npm/undeclared');
    expect(res.status).toBe(599);
    expect(server.unexpected).toEqual([{ method: 'GET', path: '/npm/undeclared', reason: 'unexpected request' }]);
    expect(() => expectNoUnexpected(server)).toThrow();
  });

  it('matches the method', async () => {
    server.expect('POST', '/npm/express', { body: { posted: true } });
    expect((await get('/npm/express')).status).toBe(599);
    expect((await get('/npm/express', 'POST')).status).toBe(200);
  });

  it('uses a response `times` times, then falls through', async () => {
    server.expect('GET', '/npm/express', { status: 503, times: 2 }).expect('GET', '/npm/express', { times: 1 });
    expect(server.pending()).toEqual(['GET /npm/express', 'GET /npm/express']);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/npm/express')).status);
    expect(statuses).toEqual([503, 503, 200, 599]);
    expect(server.pending()).toEqual([]);
    expect(server.unexpected).toHaveLength(1);
  });

  it('matches a declared query, in any order', async () => {
    server.expect('GET', '/pypistats/packages/requests/recent?period=week&mirrors=false', { body: { ok: 1 } });
    expect((await get('/pypistats/packages/requests/recent?mirrors=false&period=week')).status).toBe(200);
    expect((await get('/pypistats/packages/requests/recent?period=month')).status).toBe(599);
  });

  it('records method, raw path and headers of every request', async () => {
    server.expect('GET', '/npm/express');
    await get('/npm/express?x=1');
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/npm/express?x=1', proxied: false });
    expect(server.requests[0]?.headers.host).toBe(`127.0.0.1:${server.port}`);
  });

  it('serves inline bodies and statuses', async () => {
    server
      .expect('GET', '/a', { status: 201, headers: { 'X-Test': 'yes' }, body: 'text {{REGISTRY}}' })
      .expect('GET', '/b', { status: 404 });
    const a = await get('/a');
    expect([a.status, a.headers['x-test'], a.body.toString()]).toEqual([201, 'yes', `text ${server.url('npm')}`]);
    const b = await get('/b');
    expect([b.status, JSON.parse(b.body.toString())]).toEqual([404, { error: 'Not Found' }]);
  });

  it('sends malformed JSON with a 200', async () => {
    server.expect('GET', '/npm/express', { malformed: true });
    const res = await get('/npm/express');
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.body.toString())).toThrow();
  });

  it('truncates a body under a larger Content-Length', async () => {
    server.expect('GET', '/npm/express', { truncate: 10 });
    await expect(get('/npm/express')).rejects.toThrow(/aborted|closed|socket hang up/i);
  });

  it('resets the connection', async () => {
    server.expect('GET', '/npm/express', { reset: true });
    await expect(get('/npm/express')).rejects.toThrow(/ECONNRESET|socket hang up/i);
  });

  it('runs route handlers for generated responses', async () => {
    server.route('GET', '/gen/file.bin', (_req, res, { url }) => {
      res.end(`generated for ${url.pathname}`);
    });
    expect((await get('/gen/file.bin')).body.toString()).toBe('generated for /gen/file.bin');
  });

  it('gives each server its own port and URLs', async () => {
    const other = await startFixtureServer({ root });
    try {
      expect(other.port).not.toBe(server.port);
      expect(server.url('npm')).toBe(`http://127.0.0.1:${server.port}/npm`);
      expect(server.url()).toBe(server.origin);
    } finally {
      await other.close();
    }
  });

  it('closes even with a delayed response pending', async () => {
    server.expect('GET', '/slow', { delayMs: 60_000 });
    const pending = get('/slow').catch((error: unknown) => error);
    await expect.poll(() => server.requests.length).toBe(1);
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    server = await startFixtureServer({ root }); // for afterEach
  });
});

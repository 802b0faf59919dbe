/**
 * `nerq serve` on a real loopback socket: a query value is read one way only (docs/serve.md,
 * "Routes"). `limit=` is decimal digits — a hexadecimal, exponent, signed, decimal-point,
 * zero-padded, blank or empty value is a 400 `bad-request`, never a number read another way — and
 * `include_package=` takes `true`, `false` or a package name: a yes/no word spelled otherwise is a
 * 400 `bad-option`. Nothing reaches the fixture server: nothing is evaluated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from './support.js';

let server: FixtureServer;
let serve: TestApp;
let origin: string;

beforeAll(async () => {
  server = await startFixtureServer();
  serve = testApp(server);
  origin = await serve.app.listen({ port: 0, host: '127.0.0.1' });
  const store = serve.runtime.session.store!;
  for (const day of ['2026-11-01', '2026-11-02', '2026-11-03']) {
    store.history.record({
      target: 'npm:chalk', ecosystem: 'npm', name: 'chalk', version: '5.3.0', score: 80, grade: 'A', verdict: 'YES', coverage: 1,
      dimensions: {}, checks: {}, evidenceHash: day, evaluatedAt: `${day}T00:00:00.000Z`, toolVersion: 'test',
    });
  }
  store.flush();
});
afterAll(async () => {
  expectNoUnexpected(server);
  expect(server.requests).toEqual([]);
  await serve.close();
  await server.close();
});

/** A GET over the socket with this exact query text: its status, error code, and body. */
async function get(pathAndQuery: string, init: RequestInit = {}): Promise<{ status: number; code: string | undefined; body: Record<string, unknown> }> {
  const res = await fetch(`${origin}${pathAndQuery}`, init);
  const body = (await res.json()) as Record<string, unknown> & { error?: { code?: string } };
  return { status: res.status, code: body.error?.code, body };
}

describe('GET /v1/history limit=', () => {
  it.each(['0x10', '0X10', '1e2', '1E1', '16.0', '1.', '.5', '+16', '-1', '-0', '016', '00', '0b1', '0o7', '%20%2016', '16%20', '%0916', '', 'Infinity', 'NaN', '%EF%BC%91', '1_0', '1,2', '99999999999', '0', '1001'])(
    'limit=%s is a 400 bad-request',
    async (value) => {
      const res = await get(`/v1/history?target=chalk&limit=${value}`);
      expect(res.status).toBe(400);
      expect(res.code).toBe('bad-request');
      expect(res.body).not.toHaveProperty('evaluations');
    },
  );

  it('a repeated or bracketed limit is a 400 bad-request', async () => {
    for (const query of ['limit=1&limit=2', 'limit[]=1', 'limit[0]=1']) {
      const res = await get(`/v1/history?target=chalk&${query}`);
      expect([res.status, res.code], query).toEqual([400, 'bad-request']);
    }
  });

  it('decimal digits from 1 to 1000 are taken as written', async () => {
    const two = await get('/v1/history?target=chalk&limit=2');
    expect(two.status).toBe(200);
    expect((two.body.evaluations as unknown[]).length).toBe(2);
    expect(two.body.olderNotShown).toBe(true);
    for (const value of ['1', '3', '10', '1000']) {
      const res = await get(`/v1/history?target=chalk&limit=${value}`);
      expect(res.status, value).toBe(200);
      expect((res.body.evaluations as unknown[]).length, value).toBe(Math.min(Number(value), 3));
    }
  });

  it('/openapi.json describes limit as decimal digits', async () => {
    const doc = (await get('/openapi.json')).body as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: { type?: string; pattern?: string } }> } }> };
    const limit = doc.paths['/v1/history']!.get.parameters.find((p) => p.name === 'limit')!;
    expect(limit.schema.type).toBe('string');
    const pattern = new RegExp(limit.schema.pattern!);
    expect(['16', '1000'].every((v) => pattern.test(v))).toBe(true);
    expect(['0x10', '1e2', '+16', '016', ''].some((v) => pattern.test(v))).toBe(false);
  });
});

describe('include_package= yes/no words', () => {
  const words = ['TRUE', 'True', 'FALSE', 'False', '1', '0', 'yes', 'no', 'ON', 'off'];
  it.each(words)('include_package=%s is a 400 bad-option on every route that takes it', async (word) => {
    for (const route of ['/v1/preflight', '/v1/report']) {
      const res = await get(`${route}?target=github:acme/widget&include_package=${word}`);
      expect([res.status, res.code], route).toEqual([400, 'bad-option']);
    }
    const batch = await get(`/v1/preflight/batch?include_package=${word}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ targets: ['github:acme/widget'] }),
    });
    expect([batch.status, batch.code]).toEqual([400, 'bad-option']);
  });
});

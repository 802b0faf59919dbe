/**
 * HttpClient.stream: a 2xx body handed to a consumer as it arrives, under the rules of
 * `request` (caps, codings, failures as data, retries); streamBody's fallback for a client
 * without it.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/sources/http/client.js';
import { streamBody } from '../../src/sources/http/stream.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';

let server: FixtureServer;
let http: HttpClient;
beforeEach(async () => {
  server = await startFixtureServer();
  http = createHttpClient({ retry: { retries: 1, baseDelayMs: 1 } });
});
afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

/** A consumer that keeps every chunk (its size and count) and never throws. */
async function collect(body: AsyncIterable<Buffer>): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  try {
    for await (const chunk of body) parts.push(chunk);
  } catch {
    return { bytes: Buffer.from('swallowed'), chunks: -1 };
  }
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe('HttpClient.stream', () => {
  it('hands a gzip-coded body to the consumer decoded, without its coding headers', async () => {
    const text = 'x'.repeat(200_000);
    server.expect('GET', '/npm/coded', { body: text, encoding: 'gzip' });
    const res = await http.stream!({ url: `${server.url('npm')}/coded` }, collect);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.bytes.toString()).toBe(text);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('fails with too-large when the body passes the cap, whatever the consumer made of it', async () => {
    server.route('GET', '/npm/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(300_000, 1));
    });
    const res = await http.stream!({ url: `${server.url('npm')}/big`, maxBytes: 100_000 }, collect);
    expect(res).toMatchObject({ ok: false, kind: 'too-large' });
  });

  it('caps the decoded bytes of a small compressed body (a bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000));
    server.route('GET', '/npm/bomb', (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const res = await http.stream!({ url: `${server.url('npm')}/bomb`, maxBytes: 1_000_000 }, collect);
    expect(res).toMatchObject({ ok: false, kind: 'too-large' });
  });

  it('a body cut short is the transfer\'s failure, and a retry hands the consumer a fresh body', async () => {
    server.expect('GET', '/npm/cut', { truncate: 20, body: 'y'.repeat(1000), times: 1 });
    server.expect('GET', '/npm/cut', { body: 'z'.repeat(1000) });
    const calls: number[] = [];
    const res = await http.stream!({ url: `${server.url('npm')}/cut` }, async (body) => {
      const got = await collect(body);
      calls.push(got.chunks);
      return got;
    });
    // The first attempt's consumer swallowed the reset; the client still saw it and retried.
    expect(calls[0]).toBe(-1);
    expect(res.ok).toBe(true);
    if (res.ok) expect(res.value.bytes.toString()).toBe('z'.repeat(1000));
    expect(calls).toHaveLength(2);
  });

  it('a failed status never reaches the consumer', async () => {
    server.expect('GET', '/npm/gone', { status: 404 });
    let called = false;
    const res = await http.stream!({ url: `${server.url('npm')}/gone` }, async () => {
      called = true;
    });
    expect(res).toMatchObject({ ok: false, kind: 'status', status: 404 });
    expect(called).toBe(false);
  });
});

describe('streamBody', () => {
  it('asks a client without stream for the whole body and hands it over as one piece', async () => {
    const whole: HttpClient = {
      request: async (req) => ({ ok: true, status: 200, headers: {}, body: Buffer.from('abc'), url: req.url }),
      close: async () => undefined,
    };
    const res = await streamBody(whole, { url: 'http://127.0.0.1:9/x' }, collect);
    expect(res).toMatchObject({ ok: true, status: 200, value: { chunks: 1 } });
    if (res.ok) expect(res.value.bytes.toString()).toBe('abc');
  });
});

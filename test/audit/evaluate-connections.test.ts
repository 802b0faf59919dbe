/**
 * An audit runs many evaluations at once (DEFAULT_CONCURRENCY); the shared HTTP client keeps
 * the load on one server polite: at most MAX_CONNECTIONS_PER_ORIGIN connections, the other
 * requests waiting for a free one — and every request still answered (HTTP/1.1 loopback, with
 * HTTP/2 allowed).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY } from '../../src/audit/evaluate.js';
import { createHttpClient, MAX_CONNECTIONS_PER_ORIGIN } from '../../src/sources/http/client.js';
import { mapLimit } from '../../src/util/map-limit.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('connections per origin', () => {
  it('more requests in flight than the cap: never more connections than the cap, all answered', async () => {
    let connections = 0;
    let open = 0;
    let mostOpen = 0;
    server = createServer((req, res) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      // Hold each answer a moment so that requests pile up behind the cap.
      setTimeout(() => {
        open -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path: req.url }));
      }, 5);
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 } });
    const count = 2 * DEFAULT_CONCURRENCY;
    const results = await mapLimit(
      Array.from({ length: count }, (_, i) => i),
      DEFAULT_CONCURRENCY,
      (i) => http.request({ url: `${origin}/item/${i}` }),
    );
    await http.close();

    expect(DEFAULT_CONCURRENCY).toBeGreaterThan(MAX_CONNECTIONS_PER_ORIGIN);
    expect(results.map((r) => (r.ok ? JSON.parse(r.body.toString()).path : r.reason))).toEqual(
      Array.from({ length: count }, (_, i) => `/item/${i}`),
    );
    expect(connections).toBeLessThanOrEqual(MAX_CONNECTIONS_PER_ORIGIN);
    expect(mostOpen).toBeLessThanOrEqual(MAX_CONNECTIONS_PER_ORIGIN);
    expect(mostOpen).toBeGreaterThan(1);
  });
});

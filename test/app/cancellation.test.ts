/**
 * A caller that goes away ends its call's requests: an MCP client cancelling `audit_lockfile`
 * (notifications/cancelled), or an HTTP client of `nerq serve` closing its connection before the
 * answer to POST /v1/audit, aborts the audit's requests in flight, as a deadline does, rather than
 * leaving them to run to the call's own deadline. The registry here never answers; what is asserted
 * is that nerq closes the request — the cancellation reached the HTTP layer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { serveOsv } from '../cli/audit-helpers.js';
import { connectInMemory } from '../mcp/support.js';
import { testApp } from '../serve/support.js';

let server: FixtureServer;

/** A request nerq sent that is never answered: `arrived` when it comes in, `closed` when nerq closes it. */
interface Hanging {
  arrived: Promise<void>;
  closed: Promise<void>;
}

function hang(path: string): Hanging {
  let arrive!: () => void;
  let close!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const closed = new Promise<void>((resolve) => (close = resolve));
  server.route('GET', path, (_req: IncomingMessage, res: ServerResponse) => {
    res.on('close', () => close());
    arrive();
  });
  return { arrived, closed };
}

const LOCKFILE = JSON.stringify({
  name: 'app',
  version: '1.0.0',
  lockfileVersion: 3,
  packages: {
    '': { name: 'app', version: '1.0.0', dependencies: { 'nerq-hang': '1.0.0' } },
    'node_modules/nerq-hang': { version: '1.0.0', resolved: 'https://registry.example/nerq-hang/-/nerq-hang-1.0.0.tgz' },
  },
});

beforeAll(async () => {
  server = await startFixtureServer();
  serveOsv(server, []);
  server.fallback('GET', '/npm-downloads/', { status: 404 });
});

afterAll(async () => {
  await server?.close();
});

describe('cancellation reaches the HTTP layer', () => {
  it('an MCP client cancelling audit_lockfile closes the audit request in flight', async () => {
    const packument = hang('/npm/nerq-hang');
    const connected = await connectInMemory(server);
    try {
      const cancel = new AbortController();
      const call = connected.client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: LOCKFILE } }, CallToolResultSchema, {
        signal: cancel.signal,
        timeout: 120_000,
      });
      call.catch(() => undefined);
      await packument.arrived;
      cancel.abort();
      await expect(call).rejects.toThrow();
      // Without the cancellation reaching it, the request waits for the HTTP client's 15 s wait for
      // headers (then the tool's 60 s deadline): this test's own timeout, shorter, fails first.
      await packument.closed;
    } finally {
      await connected.close();
    }
  }, 10_000);

  it('an HTTP client closing its connection before the answer to POST /v1/audit closes the audit request in flight', async () => {
    const packument = hang('/npm/nerq-hang-serve');
    const t = testApp(server);
    try {
      const origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const gone = new AbortController();
      const answer = fetch(`${origin}/v1/audit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: 'package-lock.json', content: LOCKFILE.replaceAll('nerq-hang', 'nerq-hang-serve') }),
        signal: gone.signal,
      });
      answer.catch(() => undefined);
      await packument.arrived;
      gone.abort();
      await expect(answer).rejects.toThrow();
      // As above: without it, the request waits for the 15 s wait for headers, then the audit's 120 s deadline.
      await packument.closed;
    } finally {
      await t.close();
    }
  }, 10_000);
});

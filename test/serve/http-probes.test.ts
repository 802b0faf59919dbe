/**
 * `nerq serve` and `nerq mcp --http` over a real loopback socket, as a client that gets HTTP
 * wrong would talk to them: headers over Node's 16 KiB limit, `Content-Length`s that lie, HEAD
 * and OPTIONS on every route. Each answer is the front door's own error shape with the status
 * docs/serve.md and docs/mcp.md give — never Node's or Fastify's default body, a 500 or a stack —
 * and nothing is asked upstream for it.
 */
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluator } from '../../src/app/evaluator.js';
import { createRuntime } from '../../src/app/runtime.js';
import { KEEP_ALIVE_MS, receiveTimeout } from '../../src/front/receive-timeout.js';
import { buildMcpHttp } from '../../src/mcp/http.js';
import { ErrorSchema } from '../../src/serve/schemas.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome, NOW, testApp, type TestApp } from './support.js';

let server: FixtureServer;
let serve: TestApp;
let servePort: number;
let mcp: FastifyInstance;
let mcpPort: number;
let closeMcp: () => Promise<void>;

const portOf = (app: FastifyInstance): number => (app.server.address() as { port: number }).port;

beforeAll(async () => {
  server = await startFixtureServer();
  serve = testApp(server);
  await serve.app.listen({ host: '127.0.0.1', port: 0 });
  servePort = portOf(serve.app);
  const home = freshHome();
  const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
  mcp = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), logLevel: 'silent' });
  await mcp.listen({ host: '127.0.0.1', port: 0 });
  mcpPort = portOf(mcp);
  closeMcp = async () => {
    await mcp.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await closeMcp?.();
  await serve?.close();
  if (server !== undefined) expectNoUnexpected(server);
  await server?.close();
});

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Send bytes as they are and read the first answer (the connection closes after it). */
function exchange(port: number, request: string): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    // The server may close while the rest of a long request is still being written (a reset): what it answered is read all the same.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

const request = (method: string, path: string, headers: string[] = [], body = '') =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;

const BATCH = '{"targets":["chalk"]}';
const LIES: Array<[label: string, request: string, status: number]> = [
  ['a 100,000-character URL', request('GET', `/v1/report?target=${'a'.repeat(100_000)}`), 431],
  ['a 20 KiB header', request('GET', '/healthz', [`x-filler: ${'a'.repeat(20_000)}`]), 431],
  ['a 20 KiB bearer token', request('GET', '/v1/report?target=chalk', [`authorization: Bearer ${'a'.repeat(20_000)}`]), 431],
  ['3,000 headers', request('GET', '/healthz', Array.from({ length: 3000 }, (_, i) => `x-h${i}: 1`)), 431],
  ['a Content-Length shorter than the body', request('POST', '/v1/preflight/batch', ['content-type: application/json', 'content-length: 5'], BATCH), 400],
  ['a negative Content-Length', request('POST', '/v1/preflight/batch', ['content-type: application/json', 'content-length: -1'], BATCH), 400],
  ['two Content-Lengths', request('POST', '/v1/preflight/batch', ['content-type: application/json', `content-length: ${BATCH.length}`, 'content-length: 5'], BATCH), 400],
  ['Content-Length and chunked', request('POST', '/v1/preflight/batch', ['content-type: application/json', `content-length: ${BATCH.length}`, 'transfer-encoding: chunked'], `${BATCH.length.toString(16)}\r\n${BATCH}\r\n0\r\n\r\n`), 400],
  ['a Content-Length of 100 GB', request('POST', '/v1/preflight/batch', ['content-type: application/json', 'content-length: 99999999999'], BATCH), 413],
];

describe('nerq serve: HTTP a client gets wrong', () => {
  it.for(LIES)('%s', async ([label, raw, status]) => {
    const before = server.requests.length;
    const answer = await exchange(servePort, raw);
    const context = `${label}: ${answer.status} ${answer.body.slice(0, 160)}`;
    expect(answer.status, context).toBe(status);
    const { error } = ErrorSchema.parse(JSON.parse(answer.body));
    expect(error.code, context).toBe(status === 413 ? 'body-too-large' : 'bad-request');
    expect(error.message, context).toMatch(/^[^\n]{1,200}$/);
    expect(server.requests.length, context).toBe(before);
  });

  it('both servers close an idle keep-alive connection after 5 s (not Fastify\'s 72 s), and look for a request past its deadline at least every second', () => {
    expect(serve.app.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(mcp.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(KEEP_ALIVE_MS).toBe(5_000);
    for (const ms of [200, 3_000, 30_000, 120_000]) {
      const { http, requestTimeout } = receiveTimeout(ms);
      expect(requestTimeout).toBe(ms);
      expect(http.connectionsCheckingInterval, String(ms)).toBeLessThanOrEqual(Math.max(100, Math.min(1_000, ms)));
      expect(http.headersTimeout).toBeLessThanOrEqual(ms);
    }
  });

  it('HEAD and OPTIONS on every route: a GET route answers HEAD, the rest are 405 naming the methods it takes', async () => {
    const before = server.requests.length;
    for (const [path, allow] of [
      ['/v1/preflight/batch', 'POST'],
      ['/v1/audit', 'POST'],
      ['/v1/preflight', 'GET, HEAD'],
      ['/v1/report', 'GET, HEAD'],
      ['/v1/history', 'GET, HEAD'],
      ['/healthz', 'GET, HEAD'],
      ['/openapi.json', 'GET, HEAD'],
    ] as const) {
      const methods = allow === 'POST' ? ['HEAD', 'OPTIONS', 'GET', 'PUT', 'DELETE'] : ['OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'];
      for (const method of methods) {
        const answer = await exchange(servePort, request(method, path, method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? [] : ['content-type: application/json', 'content-length: 2'], method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? '' : '{}'));
        const context = `${method} ${path}: ${answer.status} ${answer.body.slice(0, 120)}`;
        expect(answer.status, context).toBe(405);
        expect(answer.headers.get('allow'), context).toBe(allow);
        if (method !== 'HEAD') expect(ErrorSchema.parse(JSON.parse(answer.body)).error.code, context).toBe('method-not-allowed');
      }
    }
    const head = await exchange(servePort, request('HEAD', '/healthz'));
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const missing = await exchange(servePort, request('OPTIONS', '/v1/nothing'));
    expect(missing.status).toBe(404);
    expect(ErrorSchema.parse(JSON.parse(missing.body)).error.code).toBe('not-found');
    expect(server.requests.length).toBe(before);
  });
});

describe('nerq mcp --http: HTTP a client gets wrong', () => {
  it.for(LIES.map(([label, raw, status]) => [label, raw.replace(/^(\w+) \S+/, '$1 /mcp'), status] as const).filter(([, raw]) => raw.startsWith('POST') || raw.length > 10_000))(
    '%s',
    async ([label, raw, status]) => {
      const answer = await exchange(mcpPort, raw.startsWith('GET') ? raw.replace(/^GET/, 'POST') : raw);
      const context = `${label}: ${answer.status} ${answer.body.slice(0, 160)}`;
      expect(answer.status, context).toBe(status);
      expect(JSON.parse(answer.body), context).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^[^\n]{1,200}$/) } });
    },
  );
});

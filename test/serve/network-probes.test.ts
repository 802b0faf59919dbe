/**
 * `nerq serve` and `nerq mcp --http` over real loopback sockets, as an attacker on the network
 * would talk to them (docs/security.md): more connections than the cap, many requests pipelined
 * on one socket, thousands of query parameters, methods no route takes, a client that leaves
 * mid-evaluation. Each answer is a status and code docs/serve.md and docs/mcp.md give.
 */
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluator } from '../../src/app/evaluator.js';
import { createRuntime } from '../../src/app/runtime.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../src/front/connections.js';
import { buildMcpHttp } from '../../src/mcp/http.js';
import { ErrorSchema } from '../../src/serve/schemas.js';
import { serveOsv } from '../cli/audit-helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome, NOW, testApp } from './support.js';

let server: FixtureServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startFixtureServer();
  serveOsv(server, []);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  if (server !== undefined) expectNoUnexpected(server);
  await server?.close();
});

const portOf = (app: FastifyInstance): number => (app.server.address() as { port: number }).port;

async function listenServe(options: Parameters<typeof testApp>[1] = {}) {
  const opened = testApp(server, { ...options, server: { logLevel: 'silent', ...options.server } });
  cleanups.push(() => opened.close());
  await opened.app.listen({ host: '127.0.0.1', port: 0 });
  return { ...opened, port: portOf(opened.app) };
}

async function listenMcp(maxConnections?: number) {
  const home = freshHome();
  const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
  const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), logLevel: 'silent', ...(maxConnections === undefined ? {} : { maxConnections }) });
  cleanups.push(async () => {
    await app.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: portOf(app) };
}

/** A raw connection: what it received so far, and a promise of its close. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<string>;
  /** Resolves once `count` answers' status lines have arrived. */
  answers(count: number): Promise<string[]>;
}

function open(port: number): Raw {
  const socket = connect(port, '127.0.0.1');
  let raw = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => {
    for (const w of waiters.splice(0)) w();
    resolve(raw);
  }));
  const statuses = () => [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]!);
  const answers = (count: number) =>
    new Promise<string[]>((resolve) => {
      const check = () => {
        if (statuses().length >= count || socket.destroyed) resolve(statuses());
        else waiters.push(check);
      };
      check();
    });
  return { socket, received: () => raw, closed, answers };
}

const get = (path: string, keepAlive = true) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${keepAlive ? '' : 'connection: close\r\n'}\r\n`;

const status = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
const bodyOf = (answer: string): string => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('connections', () => {
  it('past --max-connections a new connection is closed unanswered; those open are served on (serve and mcp --http)', async () => {
    const serve = await listenServe({ server: { maxConnections: 2 } });
    const mcp = await listenMcp(2);
    expect(DEFAULT_MAX_CONNECTIONS).toBe(512);
    expect((await listenMcp()).app.server.maxConnections).toBe(DEFAULT_MAX_CONNECTIONS);
    for (const port of [serve.port, mcp.port]) {
      const path = port === serve.port ? '/healthz' : '/mcp';
      const held = [open(port), open(port)];
      // Each holds a keep-alive connection the server has answered on, so both are counted.
      for (const c of held) c.socket.write(get(path));
      for (const c of held) expect(await c.answers(1), String(port)).toHaveLength(1);
      const third = open(port);
      third.socket.write(get(path, false));
      expect(await third.closed, String(port)).toBe('');
      held[0]!.socket.write(get(path, false));
      expect((await held[0]!.closed).length).toBeGreaterThan(0);
      expect(await held[0]!.answers(2)).toHaveLength(2);
      held[1]!.socket.destroy();
    }
  });

  it('requests pipelined on one connection: 100 are answered, the hundredth says Connection: close and the connection closes after it, the rest never handled (a client that never reads holds at most 100 answers)', async () => {
    const { port, app } = await listenServe();
    let handled = 0;
    app.server.on('request', () => handled++);
    const c = open(port);
    c.socket.write(Array.from({ length: 150 }, () => get('/v1/history?target=chalk')).join(''));
    const received = await c.closed;
    const answered = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]!);
    // The hundredth answer tells the client to reconnect, and is the connection's last.
    const hundredth = received.split(/(?=HTTP\/1\.1 \d{3} )/)[99]!;
    expect(hundredth.toLowerCase()).toContain('connection: close');
    expect(answered).toEqual(Array.from({ length: 100 }, () => '200'));
    expect(handled).toBe(100);
    // So does mcp --http: 100 answered in its own JSON-RPC shape, then the close.
    const mcp = await listenMcp();
    let mcpHandled = 0;
    mcp.app.server.on('request', () => mcpHandled++);
    const m = open(mcp.port);
    m.socket.write(Array.from({ length: 120 }, () => get('/mcp')).join(''));
    const mcpReceived = await m.closed;
    const mcpAnswers = mcpReceived.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(mcpAnswers.map(status)).toEqual(Array.from({ length: 100 }, () => 405));
    expect(mcpAnswers[99]!.toLowerCase()).toContain('connection: close');
    expect(mcpHandled).toBe(100);
    for (const answer of mcpAnswers) expect(JSON.parse(bodyOf(answer))).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect([app.server.maxRequestsPerSocket, mcp.app.server.maxRequestsPerSocket]).toEqual([100, 100]);
  });

  it('a keep-alive connection that reaches the cap is closed once its hundredth answer is written, that answer saying Connection: close — not left open until the idle timeout (serve and mcp --http)', async () => {
    const serve = await listenServe();
    const mcp = await listenMcp();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const { app, port, raw } of [
      { app: serve.app, port: serve.port, raw: get('/healthz') },
      {
        app: mcp.app,
        port: mcp.port,
        raw: `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${initialize.length}\r\n\r\n${initialize}`,
      },
    ]) {
      // An idle timeout far past the test's own: only closing after the last answer ends this connection in time.
      app.server.keepAliveTimeout = 600_000;
      const c = open(port);
      const seen: string[] = [];
      // One request at a time, each sent once the previous answer has arrived, as a keep-alive client does.
      for (let i = 1; i <= 100; i++) {
        c.socket.write(raw);
        seen.splice(0, seen.length, ...(await c.answers(i)));
        expect(seen, `${port}: answer ${i}`).toHaveLength(i);
      }
      const received = await c.closed;
      const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(answers, String(port)).toHaveLength(100);
      expect(answers.map(status).every((s) => s === 200), String(port)).toBe(true);
      expect(answers[98]!.toLowerCase(), String(port)).not.toContain('connection: close');
      expect(answers[99]!.toLowerCase(), String(port)).toContain('connection: close');
    }
  });
});

describe('methods and queries no route takes', () => {
  it('a method HTTP does not know is a 400 bad-request, one it knows but no route takes a 405 naming those it does; CONNECT is a 405 and an Expect other than 100-continue a 417, in the door’s shape (no proxying); nothing is fetched', async () => {
    const { port } = await listenServe();
    const mcp = await listenMcp();
    const before = server.requests.length;
    for (const [method, expected] of [['FOO', 400], ['get', 400], ['PROPFIND', 405], ['TRACE', 405], ['PURGE', 405], ['SEARCH', 405], ['MKCOL', 405]] as const) {
      for (const [p, path] of [[port, '/v1/report?target=chalk'], [mcp.port, '/mcp']] as const) {
        const c = open(p);
        c.socket.write(`${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
        const answer = await c.closed;
        const context = `${method} ${path}: ${answer.slice(0, 200)}`;
        if (p === port) {
          expect(status(answer), context).toBe(expected);
          expect(ErrorSchema.parse(JSON.parse(bodyOf(answer))).error.code, context).toBe(expected === 400 ? 'bad-request' : 'method-not-allowed');
        } else {
          // mcp --http: the 405 of a method that is not POST, or the 404 of a path it has not; a JSON-RPC error either way.
          expect([400, 404, 405], context).toContain(status(answer));
          expect(JSON.parse(bodyOf(answer)), context).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
        }
      }
    }
    // CONNECT (no listener: Node would close the connection unanswered) and an Expect other than
    // 100-continue (Node's bare 417) are answered in each door's shape, the connection closed.
    const unrouted: [raw: string, status: number, code: string][] = [
      [`CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n\r\n`, 405, 'method-not-allowed'],
      ['GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 200-ok\r\n\r\n', 417, 'bad-request'],
      ['POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}', 417, 'bad-request'],
    ];
    for (const [raw, expected, code] of unrouted) {
      for (const p of [port, mcp.port]) {
        const c = open(p);
        c.socket.write(raw);
        const answer = await c.closed;
        const context = `${raw.slice(0, 40)} on ${p === port ? 'serve' : 'mcp'}: ${answer.slice(0, 200)}`;
        expect(status(answer), context).toBe(expected);
        expect(answer.toLowerCase(), context).toContain('\r\nconnection: close\r\n');
        if (expected === 405) expect(answer.toLowerCase(), context).toContain(`\r\nallow: ${p === port ? 'get, head, post' : 'post'}\r\n`);
        if (p === port) expect(ErrorSchema.parse(JSON.parse(bodyOf(answer))).error.code, context).toBe(code);
        else expect(JSON.parse(bodyOf(answer)), context).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      }
    }
    expect(server.requests.length).toBe(before);
  });

  it('thousands of query parameters, repeated or prototype-named keys are a 400 bad-request, nothing fetched', async () => {
    const { port } = await listenServe();
    const before = server.requests.length;
    const paths = [
      `/v1/report?target=chalk&${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')}`,
      `/v1/report?${Array.from({ length: 1000 }, () => 'target=chalk').join('&')}`,
      '/v1/report?target=chalk&__proto__=x',
      '/v1/report?target=chalk&constructor[prototype][x]=1',
      '/v1/report?target[]=chalk',
      '/v1/preflight?target=chalk&include=history&include=history',
    ];
    for (const path of paths) {
      const c = open(port);
      c.socket.write(get(path, false));
      const answer = await c.closed;
      expect(status(answer), path.slice(0, 80)).toBe(400);
      const { error } = ErrorSchema.parse(JSON.parse(bodyOf(answer)));
      expect(error.code).toBe('bad-request');
      expect(error.message).toMatch(/^[^\n]{1,500}$/);
    }
    expect(server.requests.length).toBe(before);
  });
});

describe('a client that leaves mid-evaluation', () => {
  it('the evaluation it started is not started again: the next caller for the target shares it (one upstream request)', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.route('GET', '/npm/nerq-leaving-client', async (_req, res) => {
      arrived();
      await released;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    });
    const { port, evaluator } = await listenServe();
    const leaving = open(port);
    leaving.socket.write(get('/v1/report?target=nerq-leaving-client', false));
    await arrival;
    leaving.socket.destroy();
    await leaving.closed;
    const next = open(port);
    next.socket.write(get('/v1/report?target=nerq-leaving-client', false));
    await new Promise<void>((resolve) => {
      const check = () => (evaluator.stats().coalesced >= 1 ? resolve() : setImmediate(check));
      check();
    });
    release();
    const answer = await next.closed;
    expect(status(answer)).toBe(200);
    expect(evaluator.stats()).toMatchObject({ evaluations: 1, coalesced: 1, pending: 0 });
    expect(server.requests.filter((r) => r.path === '/npm/nerq-leaving-client')).toHaveLength(1);
  });
});

describe('a flood of distinct targets', () => {
  it('500 distinct targets at once start 8 evaluations (--concurrency), queue 256 (--max-queue) and answer the rest 429 queue-full with Retry-After before any upstream request', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = (path: string) => path.startsWith('/npm/nerq-flood-');
    server.routePrefix('GET', '/npm/', async (_req, res) => {
      await released;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    });
    const { app, evaluator } = await listenServe();
    const answers: Array<{ status: number; retryAfter: string | undefined; code: string | undefined }> = [];
    const all = Array.from({ length: 500 }, (_, i) =>
      app.inject({ method: 'GET', url: `/v1/report?target=nerq-flood-${i}` }).then((res) => {
        const answer = { status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, code: res.statusCode === 429 ? ErrorSchema.parse(res.json()).error.code : undefined };
        answers.push(answer);
        return answer;
      }),
    );
    // The refusals come back at once; the others wait for the held upstream.
    await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(244);
    await expect.poll(() => server.requests.filter((r) => held(r.path)).length, { timeout: 20_000 }).toBe(8);
    expect(answers.every((a) => a.status === 429 && a.code === 'queue-full' && Number(a.retryAfter) >= 1)).toBe(true);
    expect(evaluator.stats()).toMatchObject({ pending: 256, refused: 244 });
    release();
    const settled = await Promise.all(all);
    expect(settled.filter((a) => a.status === 429)).toHaveLength(244);
    // Each queued evaluation ran once, eight at a time: one packument request each.
    expect(server.requests.filter((r) => held(r.path))).toHaveLength(256);
    expect(evaluator.stats()).toMatchObject({ evaluations: 256, pending: 0 });
  }, 60_000);
});

describe('the host a request names', () => {
  it('an HTTP/1.1 request without Host is a 400 in the front door\'s shape; two Host lines or one that is no host and port are a 400; an absolute-form target of another name is a 403, as a foreign Host is', async () => {
    const { port } = await listenServe();
    const network = await listenServe({ server: { hosts: { kind: 'any' } } });
    const mcp = await listenMcp();
    const before = server.requests.length;
    const send = async (p: number, raw: string) => {
      const c = open(p);
      c.socket.write(raw);
      return c.closed;
    };
    const cases: Array<[label: string, raw: string, loopback: number, any: number]> = [
      ['HTTP/1.1 without Host', 'GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n', 400, 400],
      ['HTTP/1.0 without Host', 'GET /healthz HTTP/1.0\r\n\r\n', 403, 200],
      ['an absolute-form target of another host', 'GET http://evil.example/healthz HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n', 403, 200],
      ['an absolute-form target of a loopback host', 'GET http://localhost:8787/healthz HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n', 200, 200],
      // RFC 9112 (3.2): more than one Host line, or a value that is no host and port, is a 400 — a
      // proxy in front that routed by the other line, or read the value otherwise, was never checked.
      ['two Host headers, the first foreign', 'GET /healthz HTTP/1.1\r\nhost: evil.example\r\nhost: localhost\r\nconnection: close\r\n\r\n', 400, 400],
      ['two Host headers, the second foreign', 'GET /healthz HTTP/1.1\r\nhost: localhost\r\nhost: evil.example\r\nconnection: close\r\n\r\n', 400, 400],
      ['two Host headers, the same', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nhost: localhost\r\nconnection: close\r\n\r\n', 400, 400],
      ['two Host headers in HTTP/1.0', 'GET /healthz HTTP/1.0\r\nhost: localhost\r\nhost: evil.example\r\n\r\n', 400, 400],
      ['a Host of a loopback name, an empty port and userinfo', 'GET /healthz HTTP/1.1\r\nhost: localhost:@evil.example\r\nconnection: close\r\n\r\n', 400, 400],
      ['a Host with a port that is not digits', 'GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:80x.evil.example\r\nconnection: close\r\n\r\n', 400, 400],
      ['a bracketed loopback followed by a name', 'GET /healthz HTTP/1.1\r\nhost: [::1]evil.example\r\nconnection: close\r\n\r\n', 400, 400],
      ['a loopback Host in capitals, on a port the server is not on', 'GET /healthz HTTP/1.1\r\nhost: LOCALHOST:1\r\nconnection: close\r\n\r\n', 200, 200],
      ['an IPv6 loopback literal with a port', 'GET /healthz HTTP/1.1\r\nhost: [::1]:9\r\nconnection: close\r\n\r\n', 200, 200],
      ['a loopback name with a trailing dot (another name)', 'GET /healthz HTTP/1.1\r\nhost: localhost.\r\nconnection: close\r\n\r\n', 403, 200],
      ['an absolute-form target whose userinfo names loopback', 'GET http://localhost:1@evil.example/healthz HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n', 403, 200],
    ];
    for (const [label, raw, loopback, any] of cases) {
      const onLoopback = await send(port, raw);
      expect(status(onLoopback), label).toBe(loopback);
      expect(status(await send(network.port, raw)), label).toBe(any);
      if (loopback !== 200) expect(ErrorSchema.parse(JSON.parse(bodyOf(onLoopback))).error.code, label).toBe(loopback === 400 ? 'bad-request' : 'forbidden-host');
      const onMcp = await send(mcp.port, raw.replace('/healthz', '/mcp').replace(/^GET http:\/\/([^/]+)\/mcp/, 'GET http://$1/mcp'));
      // mcp --http answers GET /mcp 405 once the host passes.
      expect(status(onMcp), label).toBe(loopback === 200 ? 405 : loopback);
      expect(JSON.parse(bodyOf(onMcp)), label).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
    expect(server.requests.length).toBe(before);
  });
});

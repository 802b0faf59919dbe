/**
 * `nerq mcp --http`: the tools over streamable HTTP with the SDK client on real loopback, DNS
 * rebinding (Host, Origin) and token rejections, and the built CLI end to end.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluator } from '../../src/app/evaluator.js';
import { createRuntime } from '../../src/app/runtime.js';
import { hostPolicyOf } from '../../src/front/allowed-host.js';
import { hostNameOf, isLoopbackOrigin } from '../../src/front/loopback.js';
import { buildMcpHttp, MAX_MCP_BATCH } from '../../src/mcp/http.js';
import { CheckOutputSchema } from '../../src/mcp/server.js';
import { expectPackage, requireBuiltCli } from '../cli/helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv, runCli } from '../support/run-cli.js';
import { freshHome, NOW } from '../serve/support.js';

let server: FixtureServer;
const cleanups: Array<() => Promise<void>> = [];
const TOKEN = 'mcp-http-token-5f1c2a9e';

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  expectPackage(server, 'chalk');
});

afterEach(async () => {
  expectNoUnexpected(server);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await server?.close();
});

function open(tokens: string[] | null) {
  const home = freshHome();
  const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
  const logs: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), tokens, logStream });
  cleanups.push(async () => {
    await app.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });
  return { app, logs: () => logs.join('') };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('nerq mcp --http', () => {
  it('answers tools/call over streamable HTTP with the SDK client', async () => {
    const { app } = open(null);
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'nerq-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['audit_lockfile', 'check_packages', 'compare_packages', 'find_alternatives', 'target_history']);
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'] } });
    expect(CheckOutputSchema.parse(result.structuredContent).reports[0]).toMatchObject({ name: 'chalk', verdictCode: 'caution' });
    const bad = await client.callTool({ name: 'check_packages', arguments: { targets: ['../x'] } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('refuses a Host or Origin that is not loopback (DNS rebinding), before the protocol', async () => {
    const { app } = open(null);
    const before = server.requests.length;
    for (const headers of [{ host: 'evil.example' }, { host: 'evil.example:8788' }, { host: '127.0.0.1.evil.example' }, { host: '127.0.0.1:8788', origin: 'https://evil.example' }, { host: 'localhost', origin: 'null' }]) {
      const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, ...headers }, payload: INITIALIZE });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    for (const headers of [{ host: 'localhost:8788' }, { host: '[::1]:8788', origin: 'http://[::1]:3000' }, { host: '127.0.0.1', origin: 'http://localhost:5173' }]) {
      const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, ...headers }, payload: INITIALIZE });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/mcp', headers: { host: 'localhost' } })).statusCode).toBe(405);
    // Every method and path is guarded, not only the POST that reaches the protocol.
    for (const [method, url] of [['GET', '/mcp'], ['DELETE', '/mcp'], ['HEAD', '/mcp'], ['OPTIONS', '/mcp'], ['GET', '/'], ['POST', '/other']] as const) {
      for (const headers of [{ host: 'evil.example' }, { host: 'localhost', origin: 'https://evil.example' }]) {
        const res = await app.inject({ method, url, headers: { ...headers, 'mcp-session-id': 'a1b2' } });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(server.requests.length).toBe(before);
    expect(hostNameOf('[::1]:80')).toBe('[::1]');
    expect(isLoopbackOrigin('file:///x')).toBe(false);
  });

  it('--allowed-host adds names to the loopback ones; any other Host is still refused before the protocol', async () => {
    const home = freshHome();
    const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
    const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), logLevel: 'silent', hosts: hostPolicyOf(true, ['mcp.proxy.example']) });
    cleanups.push(async () => {
      await app.close();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    });
    for (const [host, status] of [['mcp.proxy.example', 200], ['MCP.proxy.example:443', 200], ['127.0.0.1:8788', 200], ['evil.example', 403], ['mcp.proxy.example.evil.example', 403], ['proxy.example', 403]] as const) {
      const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, host }, payload: INITIALIZE });
      expect(res.statusCode, host).toBe(status);
    }
  });

  it('past --max-queue a call for a new target is an isError result `busy`, at once and with nothing sent upstream; the call under way is answered', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.route('GET', '/npm/nerq-mcp-held', async (_req, res) => {
      arrived();
      await released;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    });
    const home = freshHome();
    const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
    const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime, { concurrency: 1, maxPending: 1 }), logLevel: 'silent' });
    cleanups.push(async () => {
      await app.close();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    });
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'nerq-http-busy', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    const first = client.callTool({ name: 'check_packages', arguments: { targets: ['nerq-mcp-held'] } });
    await arrival;
    const before = server.requests.length;
    const busy = await client.callTool({ name: 'check_packages', arguments: { targets: ['nerq-mcp-other'] } });
    expect(busy.isError).toBe(true);
    expect((busy.content as Array<{ text: string }>)[0]!.text).toMatch(/^busy: /);
    expect(server.requests.length).toBe(before);
    release();
    expect((await first).isError).not.toBe(true);
    await client.close();
  });

  it('bad options of nerq mcp are a usage error (exit 2) before anything is bound', async () => {
    for (const args of [['--allowed-host', 'mcp.example'], ['--max-connections', '9'], ['--http', '--allowed-host', 'mcp.example:8788'], ['--http', '--max-connections', '0'], ['--concurrency', '0'], ['--max-queue', 'x']]) {
      const result = await runCli(['mcp', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^nerq: /);
      expect(result.stdout).toBe('');
    }
  });

  it('answers what a client sends wrong with the status the transport specifies and a JSON-RPC error, never a 500 or a stack', async () => {
    const { app } = open(null);
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const before = server.requests.length;
    const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const json = (value: unknown) => JSON.stringify(value);
    const cases: Array<[label: string, method: string, path: string, headers: Record<string, string>, body: string | undefined, status: number, rpcCode: number | null]> = [
      ['no Accept', 'POST', '/mcp', { 'content-type': 'application/json' }, json(LIST), 406, -32000],
      ['Accept: application/json only', 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, json(LIST), 406, -32000],
      ['Accept: text/event-stream only', 'POST', '/mcp', { 'content-type': 'application/json', accept: 'text/event-stream' }, json(LIST), 406, -32000],
      ['text/plain', 'POST', '/mcp', { ...HEADERS, 'content-type': 'text/plain' }, json(LIST), 415, -32000],
      ['a form', 'POST', '/mcp', { ...HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, 'a=b', 415, -32000],
      ['no content-type', 'POST', '/mcp', { accept: HEADERS.accept }, json(LIST), 415, -32000],
      // A body labelled compressed is never decoded, nor read as if it were plain.
      ['Content-Encoding: gzip', 'POST', '/mcp', { ...HEADERS, 'content-encoding': 'gzip' }, json(LIST), 415, -32000],
      ['Content-Encoding: identity, br', 'POST', '/mcp', { ...HEADERS, 'content-encoding': 'identity, br' }, json(LIST), 415, -32000],
      ['a body that is not JSON', 'POST', '/mcp', HEADERS, '{not json', 400, -32700],
      ['an empty body', 'POST', '/mcp', HEADERS, '', 400, -32700],
      ['__proto__ in the body', 'POST', '/mcp', HEADERS, '{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{"x":1}}', 400, -32700],
      // JSON.parse keeps the last of two keys, a gateway in front may keep the first: refused, as a repeated query parameter is.
      ['a key named twice', 'POST', '/mcp', HEADERS, '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}', 400, -32700],
      ['a key named twice, once escaped', 'POST', '/mcp', HEADERS, '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":1,"\\u0061":2}}', 400, -32700],
      ['JSON that is not JSON-RPC', 'POST', '/mcp', HEADERS, '{"a":1}', 400, -32700],
      ['null', 'POST', '/mcp', HEADERS, 'null', 400, -32700],
      ['two initializations in a batch', 'POST', '/mcp', HEADERS, json([INITIALIZE, { ...INITIALIZE, id: 2 }]), 400, -32600],
      ['an unsupported protocol version', 'POST', '/mcp', { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, json(LIST), 400, -32000],
      ['a body nested 2 million deep (refused before it is parsed)', 'POST', '/mcp', HEADERS, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_packages","arguments":{"targets":${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}}}}`, 400, -32700],
      ['a body nested 65 deep', 'POST', '/mcp', HEADERS, json({ ...LIST, params: { x: JSON.parse(`${'['.repeat(63)}${']'.repeat(63)}`) as unknown } }), 400, -32700],
      ['a body over 12 MiB', 'POST', '/mcp', HEADERS, json({ ...LIST, params: { x: 'a'.repeat(12 * 1024 * 1024) } }), 413, -32000],
      ['GET without a session', 'GET', '/mcp', { accept: 'text/event-stream' }, undefined, 405, -32000],
      ['GET with a session id', 'GET', '/mcp', { accept: 'text/event-stream', 'mcp-session-id': 'a1b2' }, undefined, 405, -32000],
      ['DELETE with a session id', 'DELETE', '/mcp', { 'mcp-session-id': 'a1b2' }, undefined, 405, -32000],
      ['DELETE without a session', 'DELETE', '/mcp', {}, undefined, 405, -32000],
      ['PUT', 'PUT', '/mcp', { 'content-type': 'application/json' }, '{}', 405, -32000],
      ['OPTIONS', 'OPTIONS', '/mcp', { 'access-control-request-method': 'POST' }, undefined, 405, -32000],
      ['HEAD', 'HEAD', '/mcp', {}, undefined, 405, null],
      ['another path', 'POST', '/mcp/tools', HEADERS, json(LIST), 404, -32000],
      ['the root', 'GET', '/', {}, undefined, 404, -32000],
      // What the transport accepts: a notification or a response alone (202, no body), a batch (an array of answers), a session id (ignored: stateless).
      ['a notification alone', 'POST', '/mcp', HEADERS, '{"jsonrpc":"2.0","method":"notifications/initialized"}', 202, null],
      // Batches: only under MCP 2025-03-26 (the revision assumed without a header), at most MAX_MCP_BATCH, never empty.
      ['an empty batch', 'POST', '/mcp', HEADERS, '[]', 400, -32600],
      ['a batch', 'POST', '/mcp', HEADERS, json([LIST, { ...LIST, id: 3 }]), 200, null],
      ['Content-Encoding: identity', 'POST', '/mcp', { ...HEADERS, 'content-encoding': 'identity' }, json(LIST), 200, null],
      ['a batch under 2025-03-26', 'POST', '/mcp', { ...HEADERS, 'mcp-protocol-version': '2025-03-26' }, json([LIST, { ...LIST, id: 3 }]), 200, null],
      ['a batch of the most messages', 'POST', '/mcp', HEADERS, json(Array.from({ length: MAX_MCP_BATCH }, (_, i) => ({ ...LIST, id: 10 + i }))), 200, null],
      ['a batch of one message too many', 'POST', '/mcp', HEADERS, json(Array.from({ length: MAX_MCP_BATCH + 1 }, (_, i) => ({ ...LIST, id: 10 + i }))), 400, -32600],
      ['a batch of notifications over the cap', 'POST', '/mcp', HEADERS, json(Array.from({ length: 5000 }, () => ({ jsonrpc: '2.0', method: 'notifications/initialized' }))), 400, -32600],
      ['a batch under 2025-06-18 (no batches)', 'POST', '/mcp', { ...HEADERS, 'mcp-protocol-version': '2025-06-18' }, json([LIST, { ...LIST, id: 3 }]), 400, -32600],
      ['a batch under 2025-11-25 (no batches)', 'POST', '/mcp', { ...HEADERS, 'mcp-protocol-version': '2025-11-25' }, json([LIST]), 400, -32600],
      ['an unknown session id', 'POST', '/mcp', { ...HEADERS, 'mcp-session-id': 'a1b2' }, json(LIST), 200, null],
      ['an unknown method', 'POST', '/mcp', HEADERS, '{"jsonrpc":"2.0","id":5,"method":"resources/list"}', 200, -32601],
    ];
    for (const [label, method, path, headers, body, status, rpcCode] of cases) {
      const res = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      const context = `${label}: ${res.status} ${text.slice(0, 160)}`;
      expect(res.status, context).toBe(status);
      expect(text, context).not.toMatch(/\bat .+:\d+:\d+|FST_ERR|statusCode/);
      if (status === 405) expect(res.headers.get('allow'), context).toBe('POST');
      if (rpcCode !== null) expect((JSON.parse(text) as { error?: { code?: number } }).error?.code, context).toBe(rpcCode);
      if (status >= 400 && method !== 'HEAD') expect(JSON.parse(text), context).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: expect.stringMatching(/^[^\n]{1,300}$/) } });
      if (label === 'a batch of the most messages') expect((JSON.parse(text) as unknown[]).length).toBe(MAX_MCP_BATCH);
      if (label === 'a batch') expect((JSON.parse(text) as Array<{ id: number }>).map((m) => m.id)).toEqual([2, 3]);
    }
    expect(server.requests.length).toBe(before);
  });

  it('with tokens, a request needs a valid bearer token; the token is never logged', async () => {
    const { app, logs } = open([TOKEN]);
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${TOKEN}-`]) {
      const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, host: 'localhost', ...(authorization ? { authorization } : {}) }, payload: INITIALIZE });
      expect(res.statusCode).toBe(401);
    }
    const ok = await app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, host: 'localhost', authorization: `Bearer ${TOKEN}` }, payload: INITIALIZE });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ result: { serverInfo: { name: 'nerq' } } });
    // A token in the query string (some clients put it there) is not logged: the log has the path only.
    await app.inject({ method: 'POST', url: `/mcp?access_token=${TOKEN}`, headers: { ...HEADERS, host: 'localhost' }, payload: INITIALIZE });
    expect(logs()).toContain('"url":"/mcp"');
    expect(logs()).toContain('"statusCode":401');
    expect(logs()).not.toContain(TOKEN);
  });

  it('the built CLI: --port 0 prints the URL, a token file is required when given, SIGTERM exits 0', async () => {
    const home = freshHome();
    cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
    const tokenFile = path.join(home, 'tokens');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--http', '--port', '0', '--token-file', tokenFile], { cwd: home, env: cliEnv(home, { server }), stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`did not start: ${err}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const client = new Client({ name: 'nerq-http-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    const result = await client.callTool({ name: 'target_history', arguments: { target: 'chalk' } });
    expect(result.structuredContent).toEqual({ target: 'npm:chalk', evaluations: [], olderNotShown: false });
    await client.close();
    const denied = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
    expect(denied.status).toBe(401);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(err).not.toContain(TOKEN);
  });
});

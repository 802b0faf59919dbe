/**
 * Hostile world: the front doors. `nerq serve` and `nerq mcp` take requests from programs nerq
 * does not control (CI jobs, agents, browser pages under --cors-origin). Every malformed request —
 * repeated, array and bracketed query parameters, NUL and broken percent-encoding, over-long
 * targets, prototype keys in the query and the body, bodies of the wrong type or media type,
 * path traversal in the URL, other methods, audit inputs naming files outside the request — is an
 * HTTP 4xx with the contract's JSON error (docs/serve.md), or an MCP error result: never a 500, a
 * crash or a stack trace, and nothing is asked upstream for it.
 */
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { z } from 'zod';
import { createEvaluator } from '../../src/app/evaluator.js';
import { createRuntime } from '../../src/app/runtime.js';
import { buildMcpHttp } from '../../src/mcp/http.js';
import { ERROR_CODES } from '../../src/serve/schemas.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome, NOW, testApp, type TestApp } from '../serve/support.js';
import { connectInMemory, textOf, type Connected } from '../mcp/support.js';
import { noteCases } from './support/metrics.js';

let server: FixtureServer;
let serve: TestApp;
let mcp: Connected;
beforeAll(async () => {
  server = await startFixtureServer();
  serve = testApp(server);
  mcp = await connectInMemory(server);
});
afterAll(async () => {
  await mcp?.close();
  await serve?.close();
  await server?.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };
type Method = 'GET' | 'POST' | 'HEAD' | 'OPTIONS' | 'DELETE' | 'PUT';
const audit = (body: string) => ({ method: 'POST' as const, url: '/v1/audit', payload: body, headers: JSON_TYPE });
const batch = (body: string, headers: Record<string, string> = JSON_TYPE) => ({ method: 'POST' as const, url: '/v1/preflight/batch', payload: body, headers });

const REQUESTS: [label: string, request: { method: Method; url: string; payload?: string; headers?: Record<string, string> }][] = [
  ['a repeated target', { method: 'GET', url: '/v1/preflight?target=a&target=b' }],
  ['target[] (an array)', { method: 'GET', url: '/v1/preflight?target[]=a' }],
  ['target[k] (an object)', { method: 'GET', url: '/v1/preflight?target[a]=b' }],
  ['a NUL target', { method: 'GET', url: '/v1/preflight?target=%00' }],
  ['a 600-character target', { method: 'GET', url: `/v1/preflight?target=${'a'.repeat(600)}` }],
  ['broken percent-encoding', { method: 'GET', url: '/v1/preflight?target=%E0%A4%A' }],
  ['a lone %', { method: 'GET', url: '/v1/preflight?target=%' }],
  ['__proto__ in the query', { method: 'GET', url: '/v1/preflight?__proto__=x&target=a' }],
  ['constructor in the query', { method: 'GET', url: '/v1/preflight?constructor=x&target=a' }],
  ['a dot-dot repository', { method: 'GET', url: '/v1/preflight?target=github:../x' }],
  ['a bad caller', { method: 'GET', url: '/v1/preflight?target=a&caller=%2e%2e%2fx' }],
  ['an empty include', { method: 'GET', url: '/v1/preflight?target=a&include=' }],
  ['an unknown include', { method: 'GET', url: '/v1/preflight?target=a&include=secrets' }],
  ['a repeated limit', { method: 'GET', url: '/v1/history?target=a&limit=1&limit=2' }],
  ['a zero limit', { method: 'GET', url: '/v1/history?target=a&limit=0' }],
  ['a history key of two packages', { method: 'GET', url: '/v1/history?target=npm:a+npm:b' }],
  ['a history key with an empty package', { method: 'GET', url: '/v1/history?target=github:o/r+npm:' }],
  ['include_package on a package', { method: 'GET', url: '/v1/report?target=a&include_package=true' }],
  ['include_package ../x', { method: 'GET', url: '/v1/report?target=github:o/r&include_package=../x' }],
  ['include_package NUL', { method: 'GET', url: '/v1/report?target=github:o/r&include_package=%00' }],
  ['a batch body that is not JSON', batch('x')],
  ['targets as a string', batch('{"targets":"a"}')],
  ['targets of numbers', batch('{"targets":[1]}')],
  ['a bad target in a batch', batch('{"targets":["a","../x"]}')],
  ['__proto__ in a batch body', batch('{"__proto__":{"targets":["a"]}}')],
  // JSON.parse keeps the last of two keys, a proxy in front may keep the first: refused, as a repeated query parameter is.
  ['a key named twice in a batch body', batch('{"targets":["../x"],"targets":["a"]}')],
  ['a key named twice, once escaped', batch('{"targets":["a"],"t\\u0061rgets":["b"]}')],
  ['a key named twice in an audit body', audit('{"fileName":"requirements.txt","content":"x==1\\n","fileName":"package-lock.json"}')],
  ['constructor.prototype in a batch body', batch('{"targets":["a"],"constructor":{"prototype":{}}}')],
  ['a null body', batch('null')],
  ['an array body', batch('[]')],
  ['a string body', batch('"x"')],
  ['an empty body', batch('')],
  ['51 targets', batch(JSON.stringify({ targets: Array.from({ length: 51 }, (_, i) => `p${i}`) }))],
  ['a body as text/plain', batch('{"targets":["a"]}', { 'content-type': 'text/plain' })],
  ['a body as application/xml', batch('<targets/>', { 'content-type': 'application/xml' })],
  ['a JSON body with no content-type', batch('{"targets":["a"]}', {})],
  ['a JSON body as a +json type', batch('{"targets":["a"]}', { 'content-type': 'application/vnd.api+json' })],
  ['github:../..', { method: 'GET', url: '/v1/report?target=github:../..' }],
  ['a repository with a dot-dot segment', { method: 'GET', url: '/v1/preflight?target=github:a/../../b' }],
  ['an npm URL spec', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('npm:x@https://evil.example/x.tgz')}` }],
  ['an npm file: spec', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('npm:x@file:../../etc')}` }],
  ['an npm git spec', { method: 'GET', url: `/v1/preflight?target=${encodeURIComponent('npm:x@git+ssh://git@example.com/a/b.git')}` }],
  ['a file: target', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('file:../../etc/passwd')}` }],
  ['an mcp: target with ..', { method: 'GET', url: '/v1/report?target=mcp:../../x' }],
  ['a bidirectional override in a target', { method: 'GET', url: `/v1/preflight?target=${encodeURIComponent('npm:\u202eevil')}` }],
  ['a Cyrillic look-alike name', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('\u0435\u0445\u0440\u0433\u0435ss')}` }],
  ['a full-width name', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('\uff45\uff58\uff50\uff52\uff45\uff53\uff53')}` }],
  ['a zero-width space in a name', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('ex\u200bpress')}` }],
  ['a look-alike scope', { method: 'GET', url: `/v1/preflight?target=${encodeURIComponent('@\u0455cope/pkg')}` }],
  ['a NUL inside a name', { method: 'GET', url: '/v1/report?target=ch%00alk' }],
  ['github: %2e%2e', { method: 'GET', url: '/v1/report?target=github:%252e%252e/x' }],
  ['a GitHub URL with %2e%2e', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('https://github.com/o/%2e%2e')}` }],
  ['pypi: with extras', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('pypi:requests[security]==2.31.0')}` }],
  ['pypi: with a marker', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('pypi:requests; python_version<"3.8"')}` }],
  ['pypi: with a URL', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('pypi:requests @ https://evil.example/x.whl')}` }],
  ['an npm alias', { method: 'GET', url: `/v1/report?target=${encodeURIComponent('npm:x@npm:y@1')}` }],
  ['a history key with a dot-dot package', { method: 'GET', url: `/v1/history?target=${encodeURIComponent('github:o/r+npm:../x')}` }],
  ['URL specs in a batch', batch(JSON.stringify({ targets: ['npm:x@https://evil.example/x.tgz', 'file:/etc/passwd', 'github:../..'] }))],
  ['an audit file name with ..', audit('{"fileName":"../package-lock.json","content":"{}"}')],
  ['an audit file name with a slash', audit('{"fileName":"a/package-lock.json","content":"{}"}')],
  ['an audit of the policy file', audit('{"fileName":".nerqrc.json","content":"{}"}')],
  ['an audit of the store', audit('{"fileName":"nerq.sqlite","content":"{}"}')],
  ['a policy under __proto__', audit('{"fileName":"package-lock.json","content":"{}","policy":{"__proto__":{"minScore":0}}}')],
  ['a policy that is a list', audit('{"fileName":"package-lock.json","content":"{}","policy":[]}')],
  ['a policy of the wrong type', audit('{"fileName":"package-lock.json","content":"{}","policy":{"minScore":"x"}}')],
  ['an include of an absolute path', audit('{"fileName":"requirements.txt","content":"-r /etc/passwd\\n"}')],
  ['an include outside the request', audit('{"fileName":"requirements.txt","content":"-c ../../etc/passwd\\n"}')],
  ['an include the request does not hold', audit('{"fileName":"requirements.txt","content":"-r other.txt\\n"}')],
  ['content of the wrong type', audit('{"fileName":"package-lock.json","content":{"x":1}}')],
  ['an unknown body key', audit('{"fileName":"package-lock.json","content":"{}","path":"/etc/passwd"}')],
  ['traversal in the path', { method: 'GET', url: '/v1/preflight/../../etc/passwd' }],
  ['a doubled slash', { method: 'GET', url: '//v1/preflight?target=a' }],
  ['NUL in the path', { method: 'GET', url: '/v1/preflight%00?target=a' }],
  ['HEAD with an empty target', { method: 'HEAD', url: '/v1/preflight?target=' }],
  ['OPTIONS without CORS', { method: 'OPTIONS', url: '/v1/preflight' }],
  ['DELETE', { method: 'DELETE', url: '/v1/preflight?target=a' }],
  ['PUT on the audit', { method: 'PUT', url: '/v1/audit', payload: '{}', headers: JSON_TYPE }],
];

describe('nerq serve: a malformed request is a 4xx JSON error, with nothing asked upstream', () => {
  it.for(REQUESTS)('%s', async ([label, request], { task, expect }) => {
    noteCases(task);
    const before = server.requests.length;
    const answer = await serve.app.inject(request);
    const context = `${label}: ${answer.statusCode} ${answer.body.slice(0, 200)}`;
    expect(answer.statusCode, context).toBeGreaterThanOrEqual(400);
    expect(answer.statusCode, context).toBeLessThan(500);
    if (request.method !== 'HEAD') {
      const body = JSON.parse(answer.body) as { error?: { code?: string; message?: string } };
      expect(ERROR_CODES, context).toContain(body.error?.code);
      expect(body.error?.message ?? '', context).toMatch(/^[^\n\r]{1,600}$/);
      expect(answer.body, context).not.toMatch(/\bat .+:\d+:\d+/);
    }
    expect(server.requests.length, context).toBe(before);
  });
});

const TOOL_CALLS: [label: string, name: string, args: Record<string, unknown>][] = [
  ['an unknown tool', 'read_file', { path: '/etc/passwd' }],
  ['targets as a string', 'check_packages', { targets: 'chalk' }],
  ['targets of numbers', 'check_packages', { targets: [1, 2] }],
  ['no targets', 'check_packages', { targets: [] }],
  ['a thousand targets', 'check_packages', { targets: Array.from({ length: 1000 }, (_, i) => `p${i}`) }],
  ['a 600-character target', 'check_packages', { targets: ['a'.repeat(600)] }],
  ['a dot-dot target', 'check_packages', { targets: ['../../etc/passwd'] }],
  ['a NUL target', 'check_packages', { targets: ['chalk\u0000'] }],
  ['github:../..', 'check_packages', { targets: ['github:../..'] }],
  ['an npm URL spec', 'check_packages', { targets: ['npm:x@https://evil.example/x.tgz'] }],
  ['an npm file: spec', 'check_packages', { targets: ['npm:x@file:../../etc'] }],
  ['a file: target', 'check_packages', { targets: ['file:/etc/passwd'] }],
  ['an mcp: target with ..', 'check_packages', { targets: ['mcp:../../x'] }],
  ['a bidirectional override in a target', 'check_packages', { targets: ['npm:\u202eevil'] }],
  ['a history target with a URL spec', 'target_history', { target: 'npm:x@https://evil.example/x.tgz' }],
  ['alternatives of github:../..', 'find_alternatives', { target: 'github:../..' }],
  ['an unknown argument', 'check_packages', { targets: ['chalk'], path: '/etc/passwd' }],
  ['includePackage as a number', 'check_packages', { targets: ['github:o/r'], includePackage: 5 }],
  ['includePackage ../x', 'check_packages', { targets: ['github:o/r'], includePackage: '../x' }],
  ['an audit file name with ..', 'audit_lockfile', { fileName: '../package-lock.json', content: '{}' }],
  ['an audit include outside', 'audit_lockfile', { fileName: 'requirements.txt', content: '-r /etc/passwd\n' }],
  ['audit content of the wrong type', 'audit_lockfile', { fileName: 'package-lock.json', content: { x: 1 } }],
  ['an audit policy that is a list', 'audit_lockfile', { fileName: 'package-lock.json', content: '{}', policy: [] }],
  ['a history limit of zero', 'target_history', { target: 'chalk', limit: 0 }],
  ['a history limit as text', 'target_history', { target: 'chalk', limit: '5' }],
  ['one target to compare', 'compare_packages', { targets: ['chalk'] }],
  ['peers as text', 'find_alternatives', { target: 'chalk', peers: 'all' }],
];

describe('nerq mcp: a malformed tool call is an error result, with nothing asked upstream', () => {
  it.for(TOOL_CALLS)('%s', async ([label, name, args], { task, expect }) => {
    noteCases(task);
    const before = server.requests.length;
    // An error result with nerq's code (docs/mcp.md, "Tools"), never the SDK's wording or a protocol error.
    const result = await mcp.client.callTool({ name, arguments: args });
    const text = textOf(result);
    const context = `${label}: ${text.slice(0, 200)}`;
    expect(result.isError, context).toBe(true);
    expect(text, context).toMatch(/^(bad-target|bad-input|bad-option): [^\n]+$/);
    expect(text, context).not.toMatch(/\bat .+:\d+:\d+/);
    expect(server.requests.length, context).toBe(before);
  });
});

/**
 * A `tools/call` request that is not one (`arguments` not an object, no tool name) is the JSON-RPC
 * error -32602 (docs/mcp.md): its message is one line naming what is wrong, never the SDK's
 * multi-line dump of its schema's issues.
 */
const MALFORMED_CALLS: [label: string, params: Record<string, unknown>][] = [
  ['arguments null', { name: 'check_packages', arguments: null }],
  ['arguments a string', { name: 'check_packages', arguments: 'chalk' }],
  ['arguments a list', { name: 'check_packages', arguments: ['chalk'] }],
  ['a numeric tool name', { name: 42, arguments: {} }],
  ['no tool name', { arguments: { targets: ['chalk'] } }],
];

describe('nerq mcp: a malformed tools/call request is -32602 in one line', () => {
  it.for(MALFORMED_CALLS)('%s', async ([label, params], { task, expect }) => {
    noteCases(task);
    const before = server.requests.length;
    const error = await mcp.client.request({ method: 'tools/call', params } as never, z.unknown()).then(
      () => null,
      (e: unknown) => e as { code?: number; message?: string },
    );
    const context = `${label}: ${JSON.stringify(error?.message ?? null).slice(0, 300)}`;
    expect(error?.code, context).toBe(-32602);
    expect(error?.message ?? '', context).toMatch(/^[^\n\r]{1,400}$/);
    expect(server.requests.length, context).toBe(before);
  });
});

/**
 * A client that sends its body a byte at a time (a slow-body attack, one connection each) holds
 * a socket and a pending request for as long as it keeps sending: a front door must end a request
 * it has not received whole within its request timeout. Fastify switches Node's own limit off
 * (its `requestTimeout` defaults to 0), so nerq sets it. The timeout here is 1 s; the client would
 * need 100 s to finish, and gives up after 10 s whatever happens.
 */
async function slowBodyOutcome(app: FastifyInstance, url: string, headers: string): Promise<{ closed: boolean; sent: number; length: number }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const body = JSON.stringify({ targets: ['x'.repeat(90)] });
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(stop);
      socket.destroy();
      resolve({ closed, sent, length: body.length });
    };
    const stop = setTimeout(() => finish(false), 10_000);
    const timer = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
    }, 1000);
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.write(`POST ${url} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
  });
}

describe('a body sent a byte at a time does not hold the connection', () => {
  it('nerq serve closes it before the body is complete', { timeout: 20_000 }, async ({ task, expect }) => {
    noteCases(task);
    const slow = testApp(server, { server: { requestTimeoutMs: 1000 } });
    try {
      const outcome = await slowBodyOutcome(slow.app, '/v1/preflight/batch', '');
      expect(outcome.closed).toBe(true);
      expect(outcome.sent).toBeLessThan(outcome.length);
    } finally {
      await slow.close();
    }
  });

  it('nerq mcp --http closes it before the body is complete', { timeout: 20_000 }, async ({ task, expect }) => {
    noteCases(task);
    const home = freshHome();
    const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
    const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), logStream: new PassThrough(), requestTimeoutMs: 1000 });
    try {
      const outcome = await slowBodyOutcome(app, '/mcp', 'accept: application/json, text/event-stream\r\n');
      expect(outcome.closed).toBe(true);
      expect(outcome.sent).toBeLessThan(outcome.length);
    } finally {
      await app.close();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

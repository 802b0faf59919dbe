/**
 * `nerq mcp`'s tool arguments (docs/mcp.md, "Tools"): arguments a tool's input schema refuses —
 * a missing or unknown argument, a wrong type, a value out of range — are error results carrying
 * nerq's code (`bad-input:`, `bad-option:` for `includePackage`), not the SDK's wording; a
 * malformed tools/call request is a JSON-RPC "invalid params" error, never an internal error.
 * Nothing is fetched for any of them. In memory and over stdio against the built CLI.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { requireBuiltCli } from '../cli/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv } from '../support/run-cli.js';
import { freshHome } from '../serve/support.js';
import { mcpFixture, textOf } from './support.js';

let server: FixtureServer;
const connect = mcpFixture((started) => {
  server = started;
  requireBuiltCli();
});

/** Calls the schemas refuse, per tool: each must be `bad-input` (ARGUMENT_ERRORS) or `bad-option` (OPTION_ERRORS). */
const ARGUMENT_ERRORS: Array<[string, Record<string, unknown>]> = [
  ['check_packages', {}],
  ['check_packages', { targets: 'chalk' }],
  ['check_packages', { targets: [] }],
  ['check_packages', { targets: [42] }],
  ['check_packages', { targets: ['x'.repeat(513)] }],
  ['check_packages', { targets: Array(21).fill('chalk') }],
  ['check_packages', { targets: ['chalk'], extra: true }],
  ['check_packages', { targets: ['chalk'], constructor: 1 }],
  ['audit_lockfile', { fileName: 'package-lock.json' }],
  ['audit_lockfile', { content: '{}' }],
  ['audit_lockfile', { fileName: 'package-lock.json', content: 5 }],
  ['audit_lockfile', { fileName: 'x'.repeat(101), content: '{}' }],
  ['audit_lockfile', { fileName: 'package-lock.json', content: '{}', policy: [] }],
  ['audit_lockfile', { fileName: 'package-lock.json', content: '{}', policy: 'strict' }],
  ['target_history', {}],
  ['target_history', { target: 'chalk', limit: 0 }],
  ['target_history', { target: 'chalk', limit: 1.5 }],
  ['target_history', { target: 'chalk', limit: '5' }],
  ['target_history', { target: ['chalk'] }],
  ['compare_packages', { targets: ['chalk'] }],
  ['compare_packages', { targets: Array(11).fill('chalk') }],
  ['compare_packages', { target: 'chalk' }],
  ['find_alternatives', {}],
  ['find_alternatives', { target: 'chalk', peers: '3' }],
  ['find_alternatives', { target: 'chalk', peers: 21 }],
  ['find_alternatives', { targets: ['chalk'] }],
];

const OPTION_ERRORS: Array<[string, Record<string, unknown>]> = [
  ['check_packages', { targets: ['github:acme/widget'], includePackage: 5 }],
  ['check_packages', { targets: ['github:acme/widget'], includePackage: null }],
  ['compare_packages', { targets: ['github:acme/widget', 'chalk'], includePackage: { name: 'widget' } }],
  ['find_alternatives', { target: 'github:acme/widget', includePackage: ['widget'] }],
  // A yes/no word as a string is neither the choice nor a package name (`npm:true` names the package).
  ...['true', 'false', 'TRUE', 'False', '1', '0', 'yes', 'no', 'on', 'off'].map((word): [string, Record<string, unknown>] => ['check_packages', { targets: ['github:acme/widget'], includePackage: word }]),
];

describe('tool arguments the schema refuses', () => {
  it('are error results with nerq code, one line naming the argument, and nothing is fetched', async () => {
    const { client } = await connect();
    const before = server.requests.length;
    for (const [name, args] of ARGUMENT_ERRORS) {
      const result = await client.callTool({ name, arguments: args });
      const label = `${name} ${JSON.stringify(args).slice(0, 60)}`;
      expect(result.isError, label).toBe(true);
      expect(textOf(result), label).toMatch(/^bad-input: [^\n]+$/);
      expect(textOf(result), label).not.toMatch(/MCP error|-32602/);
      expect(textOf(result).length, label).toBeLessThanOrEqual(320);
    }
    for (const [name, args] of OPTION_ERRORS) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(/^bad-option: includePackage/);
    }
    expect(server.requests.length).toBe(before);
  });

  it('an unknown tool is a bad-input result; the server goes on answering', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'install_package', arguments: { target: 'chalk' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^bad-input: /);
    const history = await client.callTool({ name: 'target_history', arguments: { target: 'chalk' } });
    expect(history.isError, textOf(history)).toBeFalsy();
    expect(history.structuredContent).toMatchObject({ target: 'npm:chalk', evaluations: [] });
  });

  it('target_history says whether older evaluations were left out, as GET /v1/history and nerq history --json do', async () => {
    const { client, runtime } = await connect();
    const store = runtime.session.store!;
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03']) {
      store.history.record({
        target: 'npm:chalk', ecosystem: 'npm', name: 'chalk', version: '5.3.0', score: 80, grade: 'A', verdict: 'YES', coverage: 1,
        dimensions: {}, checks: {}, evidenceHash: day, evaluatedAt: `${day}T00:00:00.000Z`, toolVersion: 'test',
      });
    }
    store.flush();
    const call = async (limit: number) => (await client.callTool({ name: 'target_history', arguments: { target: 'chalk', limit } })).structuredContent as { evaluations: { evaluatedAt: string }[]; olderNotShown: boolean };
    const two = await call(2);
    expect(two.evaluations.map((e) => e.evaluatedAt.slice(0, 10))).toEqual(['2026-11-02', '2026-11-03']);
    expect(two.olderNotShown).toBe(true);
    expect((await call(3)).olderNotShown).toBe(false);
  });

  it('an argument key or tool name with escape, bidirectional or control characters is quoted without them, one line', async () => {
    const { client } = await connect();
    const hostile = 'x\u202e\u001b[2J\u0007\u200b\n';
    for (const [name, args] of [['target_history', { target: 'chalk', [hostile]: 1 }], [hostile, {}], ['check_packages', { targets: [`a${hostile}`.repeat(200)] }]] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^bad-(input|target): [^\n]+$/);
      expect(textOf(result)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e]/);
      expect(textOf(result).length).toBeLessThanOrEqual(320);
    }
  });

  it('a malformed tools/call request (arguments not an object, no name) is JSON-RPC -32602, not -32603', async () => {
    const { runtime, evaluator } = await connect();
    const mcp = createMcpServer({ runtime, evaluator });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    onTestFinished(() => mcp.close());
    const answers = new Map<number, JSONRPCMessage>();
    clientSide.onmessage = (message) => {
      if ('id' in message && typeof message.id === 'number') answers.set(message.id, message);
    };
    await clientSide.start();
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const malformed = [
      { name: 'check_packages', arguments: 'chalk' },
      { name: 'check_packages', arguments: ['chalk'] },
      { name: 'check_packages', arguments: null },
      { name: 42, arguments: {} },
      { arguments: { targets: ['chalk'] } },
    ];
    for (const [i, params] of malformed.entries()) await clientSide.send({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params } as JSONRPCMessage);
    await expect.poll(() => answers.size).toBe(1 + malformed.length);
    for (const i of malformed.keys()) {
      const answer = answers.get(10 + i) as { error?: { code: number } };
      expect(answer.error?.code, JSON.stringify(malformed[i])).toBe(-32602);
    }
  });
});

describe('over stdio (the built CLI)', () => {
  it('a refused argument is a bad-input result', async () => {
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: cliEnv(home, { server }), cwd: home, stderr: 'pipe' });
    const client = new Client({ name: 'nerq-e2e', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const before = server.requests.length;
    const unknown = await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'], force: true } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^bad-input: /);
    const option = await client.callTool({ name: 'check_packages', arguments: { targets: ['github:acme/widget'], includePackage: 1 } });
    expect(textOf(option)).toMatch(/^bad-option: /);
    expect(server.requests.length).toBe(before);
  });
});

/** What `nerq mcp` answers on stdout to `lines` on its stdin, once the line of id 9 (the last) is answered; it exits 0. */
async function stdioAnswers(home: string, lines: readonly string[]): Promise<Array<{ id: unknown; error?: { code: number }; result?: { isError?: boolean; structuredContent?: unknown } }>> {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp'], { cwd: home, env: cliEnv(home, { server }), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.write(`${lines.join('\n')}\n`);
  // The last line is answered once everything before it was read.
  while (!Buffer.concat(out).toString('utf8').includes('"id":9')) await new Promise((resolve) => setTimeout(resolve, 20));
  child.stdin.end();
  expect(await exited).toBe(0);
  return Buffer.concat(out)
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: unknown; error?: { code: number }; result?: { isError?: boolean; structuredContent?: unknown } });
}

describe('over stdio: lines that are not JSON-RPC messages', () => {
  it('each is answered (-32700 for a line that is not JSON, -32600 for JSON that is no message, with its id when it has one), never dropped; blank lines are skipped; stdout stays protocol', async () => {
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const before = server.requests.length;
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: 'x' }),
      JSON.stringify({ jsonrpc: '2.0', id: 's3', method: 5 }),
      JSON.stringify({ id: 4, method: 'ping' }),
      'not json',
      '{"jsonrpc":"2.0","id":5,"method":"ping"',
      '[1,2]',
      JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }),
      '',
      '   \r',
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    ];
    const answers = await stdioAnswers(home, lines);
    const errors = answers.filter((a) => a.error !== undefined).map((a) => [a.id, a.error?.code]);
    expect(errors).toEqual([
      [2, -32600],
      ['s3', -32600],
      [4, -32600],
      [null, -32700],
      [null, -32700],
      [null, -32600],
      [null, -32600],
    ]);
    expect(answers.filter((a) => a.result !== undefined).map((a) => a.id)).toEqual([0, 9]);
    expect(server.requests.length).toBe(before);
  });
  it('a line --http refuses as a parse error — nested deeper than 64 levels, a key named twice, a __proto__ key — is -32700 too, never an internal error or a value JSON.parse picked', async () => {
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const before = server.requests.length;
    const call = (id: number, args: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"target_history","arguments":${args}}}`;
    const depth = 100_000;
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"audit_lockfile","arguments":{"fileName":"package-lock.json","content":"{}","policy":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`,
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_packages","arguments":{"targets":[${'['.repeat(65)}${']'.repeat(65)}]}}}`,
      call(3, '{"target":"chalk","target":"left-pad"}'),
      call(4, '{"target":"chalk","t\\u0061rget":"left-pad"}'),
      call(5, '{"target":"chalk","__proto__":{"limit":1}}'),
      call(6, '{"target":"chalk","constructor":{"prototype":{"limit":1}}}'),
      '{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}',
      call(9, '{"target":"chalk","limit":2}'),
    ];
    const answers = await stdioAnswers(home, lines);
    expect(answers.filter((a) => a.error !== undefined).map((a) => [a.id, a.error?.code])).toEqual([
      [null, -32700],
      [null, -32700],
      [3, -32700],
      [4, -32700],
      [5, -32700],
      [6, -32700],
      [8, -32700],
    ]);
    const results = answers.filter((a) => a.result !== undefined);
    expect(results.map((a) => a.id)).toEqual([0, 9]);
    expect(results[1]?.result).toMatchObject({ structuredContent: { target: 'npm:chalk', evaluations: [] } });
    expect(server.requests.length).toBe(before);
  });
});

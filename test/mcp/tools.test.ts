/**
 * `nerq mcp`'s tools through the official SDK client: in process over an in-memory transport,
 * and end to end over stdio against the built CLI. Upstream APIs are the loopback fixture server.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AuditOutputSchema, CheckOutputSchema, CompareOutputSchema, HistoryOutputSchema } from '../../src/mcp/server.js';
import { packageLockV3, serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { expectPackage, requireBuiltCli } from '../cli/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv } from '../support/run-cli.js';
import { freshHome } from '../serve/support.js';
import { mcpFixture, jsonTextOf, textOf } from './support.js';

let server: FixtureServer;
const connect = mcpFixture((started) => {
  server = started;
  requireBuiltCli();
  expectPackage(server, 'chalk');
  expectPackage(server, 'request');
  serveSynthetic(server, { name: 'nerq-mcp-one', version: '1.0.0' });
  serveSynthetic(server, { name: 'nerq-mcp-two', version: '2.0.0', deprecated: 'use nerq-mcp-one' });
  serveOsv(server, []);
});

describe('nerq mcp tools (in memory)', () => {
  it('lists five read-only tools with input and output schemas, open-world all but target_history (the local store); descriptions say to ask before NO / DO NOT USE', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['audit_lockfile', 'check_packages', 'compare_packages', 'find_alternatives', 'target_history']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    // Every tool's hints (docs/mcp.md): read-only, not destructive, idempotent; only those that ask public APIs are open-world.
    const hints = Object.fromEntries(
      tools.map((t) => [t.name, { readOnly: t.annotations?.readOnlyHint, destructive: t.annotations?.destructiveHint, idempotent: t.annotations?.idempotentHint, openWorld: t.annotations?.openWorldHint }]),
    );
    const asksPublicApis = { readOnly: true, destructive: false, idempotent: true, openWorld: true };
    expect(hints).toEqual({
      audit_lockfile: asksPublicApis,
      check_packages: asksPublicApis,
      compare_packages: asksPublicApis,
      find_alternatives: asksPublicApis,
      target_history: { ...asksPublicApis, openWorld: false },
    });
    const check = tools.find((t) => t.name === 'check_packages')!;
    expect(check.inputSchema.required).toEqual(['targets']);
    expect(check.description).toMatch(/DO NOT USE/);
    expect(check.description).toMatch(/stop and ask the user/);
    // Quoted registry text is data: an agent is told not to take instructions from it.
    expect(check.description).toMatch(/never as instructions to you/);
    expect(check.description).toMatch(/pypi:requests/);
  });

  it('check_packages: the reports with score, grade, verdict, reasons and advisories as structuredContent', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk', 'nerq-mcp-two'] } });
    expect(result.isError).toBeFalsy();
    const { reports } = CheckOutputSchema.parse(result.structuredContent);
    expect(reports.map((r) => [r.target, r.verdictCode])).toEqual([
      ['chalk', 'caution'],
      ['nerq-mcp-two', 'no'],
    ]);
    expect(reports[0]).toMatchObject({ ecosystem: 'npm', name: 'chalk', version: '4.1.0', score: 74.1, error: null, advisories: [] });
    expect(reports[1]?.caps.map((c) => c.id)).toEqual(['deprecated']);
    // The description says what gives each verdict as nerq gives it (docs/scoring.md §6): a
    // deprecated version is NO (its cap), never listed among what makes DO NOT USE.
    const { tools } = await client.listTools();
    const description = tools.find((t) => t.name === 'check_packages')?.description ?? '';
    const doNotUse = /DO NOT USE \(([^)]*)\)/.exec(description)?.[1] ?? '';
    const no = /NO \(([^)]*)\)/.exec(description)?.[1] ?? '';
    expect(doNotUse).toMatch(/malicious/);
    expect(doNotUse).not.toMatch(/deprecated|vulnerab|advisor/);
    expect(no).toMatch(/deprecated/);

    expect(reports[1]?.reasons.length).toBeGreaterThan(0);
    expect(JSON.parse(jsonTextOf(result))).toEqual(result.structuredContent);
  });

  it('bad input is an isError result with no upstream request, and the server goes on', async () => {
    const { client } = await connect();
    const before = server.requests.length;
    const bad = await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk', 'https://evil.example/x'] } });
    expect(bad.isError).toBe(true);
    // Which of the targets it is, as an argument error names it.
    expect(textOf(bad)).toMatch(/^bad-target: targets\.1: /);
    for (const args of [{ targets: 'chalk' }, { targets: [] }, {}, { targets: Array(21).fill('chalk') }]) {
      const result = await client.callTool({ name: 'check_packages', arguments: args as Record<string, unknown> });
      expect(result.isError, JSON.stringify(args).slice(0, 40)).toBe(true);
    }
    const badHistory = await client.callTool({ name: 'target_history', arguments: { target: '../../etc' } });
    expect(badHistory.isError).toBe(true);
    for (const fileName of ['../package-lock.json', '.npmrc', 'a/b.json', 'package-lock.json\n']) {
      const result = await client.callTool({ name: 'audit_lockfile', arguments: { fileName, content: '{}' } });
      expect(result.isError, fileName).toBe(true);
      expect(textOf(result)).toMatch(/^bad-input: /);
    }
    const unreadable = await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: '{ not json' } });
    expect(unreadable.isError).toBe(true);
    expect(server.requests.length).toBe(before);
    const ok = await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'] } });
    expect(ok.isError).toBeFalsy();
  });

  it('audit_lockfile: every dependency of the content, judged by the default policy', async () => {
    const { client } = await connect();
    const { lock } = packageLockV3(
      [
        { name: 'nerq-mcp-one', version: '1.0.0', direct: true, dev: false },
        { name: 'nerq-mcp-two', version: '2.0.0', direct: true, dev: false },
      ],
      server.url('npm'),
    );
    const result = await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: lock } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const audit = AuditOutputSchema.parse(result.structuredContent);
    expect(audit.result).toBe('fail');
    expect(audit.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(audit.packages.find((p) => p.status === 'fail')?.name).toBe('nerq-mcp-two');

    // With a policy (the shape of .nerqrc.json): the deprecated package is ignored, the audit passes.
    const policy = { ignore: [{ package: 'nerq-mcp-two', reason: 'replaced in the next release' }] };
    const ignored = AuditOutputSchema.parse((await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: lock, policy } })).structuredContent);
    expect(ignored.result).toBe('pass');
    expect(ignored.summary).toMatchObject({ passed: 1, ignored: 1, failed: 0 });
    const badPolicy = await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: lock, policy: { minScore: 'high' } } });
    expect(badPolicy.isError).toBe(true);
    expect(textOf(badPolicy)).toMatch(/^bad-input: policy: minScore: /);
  });

  it('audit_lockfile: one audit at a time; another call while one runs is the busy: result, nothing fetched for it', async () => {
    const { client } = await connect();
    let asked = 0;
    const names = ['nerq-mcp-held-a', 'nerq-mcp-held-b'];
    for (const name of names) {
      server.route('GET', `/npm/${name}`, async (_req, res) => {
        asked += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      });
    }
    const start = server.requests.length;
    const { lock } = packageLockV3(names.map((name) => ({ name, version: '1.0.0', direct: true, dev: false })), server.url('npm'));
    const first = client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: lock } });
    while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'package-lock.json', content: lock } });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(/^busy: /);
    const bad = await client.callTool({ name: 'audit_lockfile', arguments: { fileName: 'a/package-lock.json', content: lock } });
    expect(textOf(bad)).toMatch(/^bad-input: /);
    const done = await first;
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(AuditOutputSchema.parse(done.structuredContent).summary.total).toBe(2);
    expect(server.requests.slice(start).filter((r) => r.path.startsWith('/npm/nerq-mcp-held-'))).toHaveLength(2);
  });

  it('target_history: the evaluations recorded by earlier checks', async () => {
    const { client } = await connect();
    const empty = HistoryOutputSchema.parse((await client.callTool({ name: 'target_history', arguments: { target: 'chalk' } })).structuredContent);
    expect(empty).toEqual({ target: 'npm:chalk', evaluations: [], olderNotShown: false });
    await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'] } });
    const one = HistoryOutputSchema.parse((await client.callTool({ name: 'target_history', arguments: { target: 'npm:chalk' } })).structuredContent);
    expect(one.evaluations).toMatchObject([{ evaluatedAt: '2026-11-30T00:00:00.000Z', version: '4.1.0', score: 74.1, verdictCode: 'caution' }]);
  });
});

describe('nerq mcp over stdio (the built CLI)', () => {
  it('answers tools/call; stdout carries only protocol messages; closing stdin ends it', async () => {
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: cliEnv(home, { server }), cwd: home, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'nerq-e2e', version: '1.0.0' });
    // Any stdout line that is not JSON-RPC fails the transport's parse: onerror would fire.
    const protocolErrors: Error[] = [];
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
    const pid = transport.pid;
    expect(client.getServerVersion()?.name).toBe('nerq');
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['request'] } });
    const { reports } = CheckOutputSchema.parse(result.structuredContent);
    expect(reports[0]).toMatchObject({ name: 'request', verdictCode: 'no' });
    const bad = await client.callTool({ name: 'check_packages', arguments: { targets: ['file:/etc/passwd'] } });
    expect(bad.isError).toBe(true);
    const compared = CompareOutputSchema.parse((await client.callTool({ name: 'compare_packages', arguments: { targets: ['request', 'chalk'] } })).structuredContent);
    expect(compared.highest).toBe('chalk@4.1.0');
    expect(compared.reports.map((r) => r.verdictCode)).toEqual(['no', 'caution']);
    await client.close();
    expect(protocolErrors).toEqual([]);
    // The process is gone once the client closed its stdin.
    await expect.poll(() => {
      try {
        process.kill(pid!, 0);
        return false;
      } catch {
        return true;
      }
    }, { timeout: 10_000 }).toBe(true);
    expect(stderr).not.toMatch(/Error|at .*\.js:\d+/);
    expect(path.isAbsolute(CLI_BIN)).toBe(true);
  });
});

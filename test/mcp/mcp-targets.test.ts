/**
 * `nerq mcp`'s tools given MCP Registry targets with a version (`mcp:namespace/name@1.7.2`): the
 * real airtable entry of the registry's seed (fixtures/mcp-registry/seed.json) at two versions,
 * its npm package as recorded (fixtures/http/npm), GitHub rate-limited and what was not recorded
 * 503. The version asked is the version evaluated, the answer is the one `nerq check --json`
 * gives for the same target, a version the registry does not have is a report of its own (not
 * found: `version-not-found`, never another version's answer), and a version the parser refuses is a `bad-target:`
 * error result with nothing fetched — over stdio's transport (in process) and `--http` alike.
 */
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createEvaluator } from '../../src/app/evaluator.js';
import { createRuntime } from '../../src/app/runtime.js';
import { buildMcpHttp } from '../../src/mcp/http.js';
import { CheckOutputSchema } from '../../src/mcp/server.js';
import { freshHome, NOW } from '../serve/support.js';
import { cliEnv } from '../support/run-cli.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { githubAnswers, parseReport, requireBuiltCli } from '../cli/helpers.js';
import { entryPath, envelope, seedEntry, serveRecordedNpm } from '../cli/mcp-helpers.js';
import { mcpFixture, textOf } from './support.js';

const NAME = 'io.github.domdomegg/airtable-mcp-server';

let server: FixtureServer;
const connect = mcpFixture((started) => {
  server = started;
  for (const version of ['1.7.2', '1.7.3']) server.expect('GET', entryPath(NAME, version), { body: envelope(seedEntry(NAME, version)) });
  server.expect('GET', entryPath(NAME, '9.9.9'), { status: 404, body: { title: 'Not Found', status: 404, detail: 'Server not found' } });
  serveRecordedNpm(server, 'airtable-mcp-server', '1.7.2');
  serveRecordedNpm(server, 'airtable-mcp-server', '1.7.3');
  githubAnswers(server);
});

const registryRequests = () => server.requests.filter((r) => r.path.startsWith('/mcp-registry/')).map((r) => r.path.split('/versions/')[1]);

describe('MCP Registry targets with a version', () => {
  it('check_packages evaluates the version asked, as `nerq check --json` does', async () => {
    requireBuiltCli();
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: [`mcp:${NAME}@1.7.2`, `mcp:${NAME}@1.7.3`] } });
    expect(result.isError).not.toBe(true);
    const { reports } = CheckOutputSchema.parse(result.structuredContent);
    expect(reports.map((r) => [r.target, r.ecosystem, r.name, r.version])).toEqual([
      [`mcp:${NAME}@1.7.2`, 'mcp', NAME, '1.7.2'],
      [`mcp:${NAME}@1.7.3`, 'mcp', NAME, '1.7.3'],
    ]);
    for (const report of reports) {
      const cli = await runCli(['check', report.target, '--json'], { server });
      expect(cli.stderr).not.toMatch(/\n\s+at /);
      const json = parseReport(cli.stdout);
      expect([report.version, report.score, report.grade, report.verdictCode], report.target).toEqual([json.target.version, json.score, json.grade, json.verdictCode]);
      expect(report.caps.map((c) => c.id), report.target).toEqual(json.caps.map((c) => c.id));
      expect(report.reasons.map((r) => r.code), report.target).toEqual(json.verdictReasonDetails.map((r) => r.code));
    }
  });

  it('a version the registry does not have is that version\'s report, not found — not an error result, not another version', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: [`mcp:${NAME}@9.9.9`] } });
    expect(result.isError).not.toBe(true);
    const [report] = CheckOutputSchema.parse(result.structuredContent).reports;
    expect(report).toMatchObject({ version: '9.9.9', score: null, verdictCode: 'unknown', error: { code: 'version-not-found' } });
  });

  it('a version the parser refuses (empty, a second @, a range) is bad-target, and nothing is fetched', async () => {
    const { client } = await connect();
    const before = registryRequests().length;
    for (const target of [`mcp:${NAME}@`, `mcp:${NAME}@1.7.2@1`, `mcp:${NAME}@^1.7.0`, 'mcp:@1.7.2']) {
      const result = await client.callTool({ name: 'check_packages', arguments: { targets: [target] } });
      expect(result.isError, target).toBe(true);
      expect(textOf(result), target).toMatch(/^bad-target: [^\n]+$/);
    }
    const history = await client.callTool({ name: 'target_history', arguments: { target: `mcp:${NAME}@` } });
    expect(textOf(history)).toMatch(/^bad-target: /);
    expect(registryRequests().length).toBe(before);
  });

  it('over --http: the same answer as in process, and the same bad-target result', async () => {
    const { client: local } = await connect();
    const target = `mcp:${NAME}@1.7.2`;
    const expected = CheckOutputSchema.parse((await local.callTool({ name: 'check_packages', arguments: { targets: [target] } })).structuredContent);
    const home = freshHome();
    const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
    const app = buildMcpHttp({ runtime, evaluator: createEvaluator(runtime), tokens: null, logStream: new PassThrough() });
    const client = new Client({ name: 'nerq-mcp-targets', version: '1.0.0' });
    try {
      const origin = await app.listen({ host: '127.0.0.1', port: 0 });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
      const answer = await client.callTool({ name: 'check_packages', arguments: { targets: [target] } });
      expect(answer.isError).not.toBe(true);
      expect(CheckOutputSchema.parse(answer.structuredContent)).toEqual(expected);
      const bad = await client.callTool({ name: 'check_packages', arguments: { targets: [`mcp:${NAME}@1.7.2@1`] } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^bad-target: [^\n]+$/);
    } finally {
      await client.close();
      await app.close();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

/**
 * `nerq mcp`'s comparison tools through the official SDK client over an in-memory transport:
 * `compare_packages` (compareTargets) and `find_alternatives` (compareWithPeers), both through
 * the server's evaluator. Upstream APIs are the loopback fixture server, npm's search answers
 * built from the recorded one (test/support/npm-search.ts).
 */
import { describe, expect, it } from 'vitest';
import { AlternativesOutputSchema, CheckOutputSchema, CompareOutputSchema } from '../../src/mcp/server.js';
import { serveOsv } from '../cli/audit-helpers.js';
import { expectPackage } from '../cli/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { searchAnswer, searchRequests, serveSearch } from '../support/npm-search.js';
import { PEERS, servePeers } from '../support/peers.js';
import { mcpFixture, jsonTextOf, textOf } from './support.js';
import { serveEntryWithSearchDown } from '../cli/mcp-helpers.js';

let server: FixtureServer;
const connect = mcpFixture((started) => {
  server = started;
  expectPackage(server, 'chalk');
  expectPackage(server, 'request');
  servePeers(server);
  serveOsv(server, []);
});

const packumentRequests = (name: string) => server.requests.filter((r) => r.method === 'GET' && r.path === `/npm/${name}`).length;

describe('compare_packages and find_alternatives', () => {
  it('are listed read-only and open-world with input and output schemas; the descriptions say what verdicts mean', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    for (const name of ['compare_packages', 'find_alternatives']) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true, destructiveHint: false });
      expect(tool.description).toMatch(/DO NOT USE/);
      expect(tool.description).toMatch(/stop and ask the user/);
    }
    expect(tools.find((t) => t.name === 'compare_packages')!.inputSchema.required).toEqual(['targets']);
    expect(tools.find((t) => t.name === 'find_alternatives')!.inputSchema.required).toEqual(['target']);
  });

  it('compare_packages: the reports side by side, the highest, the dimensions and the widest differences; evaluated through the shared evaluator', async () => {
    const { client, evaluator } = await connect();
    const result = await client.callTool({ name: 'compare_packages', arguments: { targets: ['request', 'nerq-peer-fetch', 'chalk'] } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const compared = CompareOutputSchema.parse(result.structuredContent);
    expect(JSON.parse(jsonTextOf(result))).toEqual(result.structuredContent);
    expect(compared.reports.map((r) => [r.target, r.verdictCode])).toEqual([
      ['request', 'no'],
      ['nerq-peer-fetch', expect.any(String)],
      ['chalk', 'caution'],
    ]);
    expect(compared.targets).toEqual(['request@2.88.2', 'nerq-peer-fetch@2.0.0', 'chalk@4.1.0']);
    const best = compared.reports.reduce((a, b) => (b.score! > a.score! ? b : a));
    expect(compared.highest).toBe(`${best.name}@${best.version}`);
    expect(compared.dimensions.map((d) => d.id)).toEqual(['security', 'maintenance', 'documentation', 'compliance', 'community']);
    expect(compared.differences.length).toBeGreaterThan(0);
    // request's deprecation (a check it fails and the others pass) leads, as in nerq compare.
    expect(compared.differences[0]!.id).toBe('deprecation');
    expect(evaluator.stats().evaluations).toBe(3);

    // check_packages is answered by the same evaluations: nothing is fetched again.
    const before = packumentRequests('chalk');
    const checked = CheckOutputSchema.parse((await client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'] } })).structuredContent);
    expect(checked.reports[0]!.score).toBe(compared.reports[2]!.score);
    expect(packumentRequests('chalk')).toBe(before);
    expect(evaluator.stats()).toMatchObject({ evaluations: 3, reused: 1 });
  });

  it('find_alternatives: the standing among its peers and the higher-scoring ones with why; a second call reuses the comparison', async () => {
    serveSearch(server, searchAnswer(PEERS));
    const { client, evaluator } = await connect();
    const searches = searchRequests(server).length;
    const result = await client.callTool({ name: 'find_alternatives', arguments: { target: 'request', peers: 4 } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const found = AlternativesOutputSchema.parse(result.structuredContent);
    expect(found.target).toMatchObject({ target: 'request', verdictCode: 'no', score: 49.9 });
    expect(found.unavailable).toBeNull();
    expect(found.comparison).toMatchObject({ category: 'library', sample: { sources: ['npm-search', 'module-replacements'], query: 'keywords:http' } });
    expect(found.alternatives.length).toBeGreaterThan(0);
    for (const alternative of found.alternatives) {
      expect(alternative.score).toBeGreaterThan(49.9);
      expect(alternative.why.length).toBeGreaterThan(0);
    }
    expect(found.alternatives.map((a) => a.target)).not.toContain('nerq-peer-old@2.0.0');
    expect(searchRequests(server).slice(searches)).toEqual([{ text: 'keywords:http', size: '25' }]);

    const evaluations = evaluator.stats().evaluations;
    const again = AlternativesOutputSchema.parse((await client.callTool({ name: 'find_alternatives', arguments: { target: 'request', peers: 4 } })).structuredContent);
    expect(again.alternatives).toEqual(found.alternatives);
    expect(searchRequests(server).length).toBe(searches + 1);
    expect(evaluator.stats().evaluations).toBe(evaluations);
  });

  it('find_alternatives with the search down: no standing, the coded reason, never a made-up average', async () => {
    serveSearch(server, { status: 503 });
    const { client } = await connect();
    const found = AlternativesOutputSchema.parse((await client.callTool({ name: 'find_alternatives', arguments: { target: 'nerq-alt-target' } })).structuredContent);
    expect(found.comparison).toBeNull();
    expect(found.unavailable).toMatchObject({ code: 'search-unavailable', reason: expect.stringMatching(/503/) });
    expect(found.alternatives).toEqual([]);
    expect(found.target.score).not.toBeNull();
  });

  it('find_alternatives for an MCP Registry entry asks the registry search (not the npm one); the search down is search-unavailable', async () => {
    const name = serveEntryWithSearchDown(server);
    const before = searchRequests(server).length;
    const { client } = await connect();
    const found = AlternativesOutputSchema.parse((await client.callTool({ name: 'find_alternatives', arguments: { target: `mcp:${name}` } })).structuredContent);
    expect(found.target.score).not.toBeNull();
    expect(found.comparison).toBeNull();
    expect(found.unavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'host-down', reason: expect.stringMatching(/^MCP Registry search: .*503/) });
    expect(server.requests.some((r) => r.path.startsWith('/mcp-registry/v0.1/servers?search=weather'))).toBe(true);
    expect(searchRequests(server).length).toBe(before);
  });

  it('bad input is an isError result with no upstream request, and the server goes on', async () => {
    const { client } = await connect();
    const before = server.requests.length;
    const badTarget = await client.callTool({ name: 'compare_packages', arguments: { targets: ['chalk', 'file:/etc/passwd'] } });
    expect(badTarget.isError).toBe(true);
    expect(textOf(badTarget)).toMatch(/^bad-target: targets\.1: /);
    for (const args of [{ targets: ['chalk'] }, { targets: Array(11).fill('chalk') }, { targets: 'chalk' }, {}]) {
      const result = await client.callTool({ name: 'compare_packages', arguments: args as Record<string, unknown> });
      expect(result.isError, JSON.stringify(args).slice(0, 40)).toBe(true);
    }
    const badOne = await client.callTool({ name: 'find_alternatives', arguments: { target: 'https://evil.example/x' } });
    expect(badOne.isError).toBe(true);
    expect(textOf(badOne)).toMatch(/^bad-target: /);
    for (const args of [{ target: 'chalk', peers: 0 }, { target: 'chalk', peers: 21 }, { target: 'chalk', peers: 1.5 }, { targets: ['chalk'] }]) {
      const result = await client.callTool({ name: 'find_alternatives', arguments: args as Record<string, unknown> });
      expect(result.isError, JSON.stringify(args)).toBe(true);
    }
    expect(server.requests.length).toBe(before);
  });
});

/**
 * A report error that is the caller's to fix — an `mcp:` word naming several MCP Registry
 * servers (`ambiguous`) — is refused alike by every front door (app/check.ts `refusedRequest`):
 * `nerq check` and `nerq compare` exit 2, `nerq serve` answers 400 `bad-target`, `nerq mcp` the
 * `bad-target:` error result. None of them passes it on as a result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckedSchema } from '../../src/mcp/server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { requireBuiltCli } from '../cli/helpers.js';
import { expectPackage } from '../cli/helpers.js';
import { searchHandler, SEED_2025, startMcpFixtureServer } from '../cli/mcp-helpers.js';
import { connectInMemory, textOf } from '../mcp/support.js';
import { testApp } from '../serve/support.js';

let server: FixtureServer;

beforeAll(async () => {
  requireBuiltCli();
  server = await startMcpFixtureServer();
  server.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 100));
  expectPackage(server, 'chalk');
});

afterAll(async () => {
  await server?.close();
});

describe('an mcp: word that names several servers', () => {
  it('is a usage error for nerq check and nerq compare alike (exit 2)', async () => {
    expect((await runCli(['check', 'mcp:server', '--json'], { server })).code).toBe(2);
    const compared = await runCli(['compare', 'mcp:server', 'chalk', '--json'], { server });
    expect(compared.code).toBe(2);
    expect(compared.stdout).toBe('');
  });

  it('is a 400 bad-target for nerq serve, alone and as a preflight', async () => {
    const t = testApp(server);
    try {
      for (const url of ['/v1/report?target=mcp:server', '/v1/preflight?target=mcp:server', '/v1/preflight?target=chalk&caller=mcp:server']) {
        const answer = await t.app.inject({ method: 'GET', url });
        expect(answer.statusCode, url).toBe(400);
        expect(answer.json<{ error: { code: string } }>().error.code, url).toBe('bad-target');
      }
    } finally {
      await t.close();
    }
  });

  it('is the bad-target error result of nerq mcp, for check_packages, compare_packages and find_alternatives', async () => {
    const connected = await connectInMemory(server);
    try {
      const calls = [
        { name: 'check_packages', arguments: { targets: ['chalk', 'mcp:server'] } },
        { name: 'compare_packages', arguments: { targets: ['mcp:server', 'chalk'] } },
        { name: 'find_alternatives', arguments: { target: 'mcp:server' } },
      ];
      for (const call of calls) {
        const result = await connected.client.callTool(call);
        expect(result.isError, call.name).toBe(true);
        expect(textOf(result), call.name).toMatch(/^bad-target: /);
      }
      // A target the registry answers for is still a result.
      const ok = await connected.client.callTool({ name: 'check_packages', arguments: { targets: ['chalk'] } });
      expect(ok.isError).not.toBe(true);
      expect(CheckedSchema.array().parse((ok.structuredContent as { reports: unknown }).reports)[0]?.error).toBeNull();
    } finally {
      await connected.close();
    }
  });
});

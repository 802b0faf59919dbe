/**
 * `check_packages` names what each advisory is on (docs/mcp.md): the package, its ecosystem and
 * version — the target's own or a dependency's — so an agent can tell which to upgrade. A
 * synthetic package and a synthetic OSV record on the loopback fixture server.
 */
import { describe, expect, it } from 'vitest';
import { CheckOutputSchema } from '../../src/mcp/server.js';
import { CVSS_CRITICAL, osvRecord, serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { mcpFixture } from './support.js';

const connect = mcpFixture((server) => {
  serveSynthetic(server, { name: 'nerq-mcp-vulnerable', version: '1.0.0' });
  serveOsv(server, [osvRecord('GHSA-test-mcp-0001', ['nerq-mcp-vulnerable'], CVSS_CRITICAL, '1.0.1')]);
});

describe('check_packages advisories', () => {
  it('each names the package, ecosystem and version it is on, with the fix', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: ['nerq-mcp-vulnerable'] } });
    const { reports } = CheckOutputSchema.parse(result.structuredContent);
    expect(reports[0]?.error).toBeNull();
    expect(reports[0]?.advisories).toEqual([
      expect.objectContaining({ id: 'GHSA-test-mcp-0001', severity: 'critical', package: 'nerq-mcp-vulnerable', ecosystem: 'npm', version: '1.0.0', affectsResolved: true, fixed: '1.0.1' }),
    ]);
    expect(reports[0]?.verdictCode).not.toBe('yes');
  });
});

/** The mcp-registry-status check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpRegistryStatus from '../../src/checks/mcp-registry-status.js';
import { NOW, facts } from './mcp-support.js';

describe('mcp-registry-status', () => {
  it('deprecated without a message still caps; no status is unknown', () => {
    const out = mcpRegistryStatus.evaluate({ mcp: facts({ status: 'deprecated' }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-deprecated', limit: 49.9, args: { message: 'no message given' } });
    expect(mcpRegistryStatus.evaluate({ mcp: facts({ status: null }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
  });

  it('a status nerq does not know is unknown and named, never read as active', () => {
    const out = mcpRegistryStatus.evaluate({ mcp: facts({ status: null, statusUnrecognised: 'suspended' }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'unrecognised', data: { status: 'suspended' } });
    expect(out.caps ?? []).toEqual([]);
  });
});

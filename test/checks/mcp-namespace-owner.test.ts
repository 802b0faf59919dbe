/** The mcp-namespace-owner check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpNamespaceOwner from '../../src/checks/mcp-namespace-owner.js';
import { NOW, facts } from './mcp-support.js';

describe('mcp-namespace-owner', () => {
  it('case-insensitive match; a domain namespace is not applicable; no repository is unknown', () => {
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: 'ACME' }) }, NOW)).toMatchObject({ score: 100, messageId: 'match' });
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ name: 'com.example/weather' }) }, NOW).notApplicable).toBe(true);
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: null }) }, NOW)).toMatchObject({ score: null, messageId: 'no-repository' });
  });
});

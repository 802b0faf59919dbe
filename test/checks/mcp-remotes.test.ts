/** The mcp-remotes check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpRemotes from '../../src/checks/mcp-remotes.js';
import { NOW, facts } from './mcp-support.js';

describe('mcp-remotes', () => {
  const remote = (url: string, secretHeaders: string[] = []) => ({ type: 'streamable-http', url, headers: secretHeaders, secretHeaders });
  it('a host under the owner’s github.io, secret headers named', () => {
    const out = mcpRemotes.evaluate({ mcp: facts({ remotes: [remote('https://acme.github.io/mcp', ['Authorization'])] }) }, NOW);
    expect(out).toMatchObject({ score: 100, messageId: 'https' });
    expect(out.data?.secretHeaders).toEqual(['Authorization']);
    expect(out.holdVerdict).toBeUndefined();
  });
  it('a URL template in the host is not tied to the publisher', () => {
    expect(mcpRemotes.evaluate({ mcp: facts({ remotes: [remote('https://{tenant}.example.net/mcp')] }) }, NOW)).toMatchObject({ score: 60, messageId: 'foreign-host' });
  });
});

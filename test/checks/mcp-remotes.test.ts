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
  it('a host under the owner\'s name on a domain the namespace does not prove is not the publisher\'s', () => {
    for (const url of ['https://acme.xyz/mcp', 'https://mcp.acme.com/mcp', 'https://acme.co.uk/mcp']) {
      expect(mcpRemotes.evaluate({ mcp: facts({ remotes: [remote(url)] }) }, NOW)).toMatchObject({ score: 60, messageId: 'foreign-host', data: { domain: 'acme.github.io' } });
    }
    expect(mcpRemotes.evaluate({ mcp: facts({ name: 'com.acme/weather', remotes: [remote('https://mcp.acme.com/mcp')] }) }, NOW)).toMatchObject({ score: 100, messageId: 'https' });
  });
  it('a URL template in the host is not tied to the publisher', () => {
    expect(mcpRemotes.evaluate({ mcp: facts({ remotes: [remote('https://{tenant}.example.net/mcp')] }) }, NOW)).toMatchObject({ score: 60, messageId: 'foreign-host' });
  });
  // URL templates (server.schema.json: remotes[].url's `{variables}` the user fills in). Recorded:
  // server-json-examples 16 (path variable) and docs/remote-servers.mdx (host variable, com.example);
  // the others are edits of those shapes. Remote-only, as those entries are.
  const named = (name: string, url: string) => mcpRemotes.evaluate({ mcp: facts({ name, packages: [], remotes: [remote(url)] }) }, NOW);
  it('a literal https scheme with variables in the path or leading host labels is https, the literal domain judged', () => {
    expect(named('io.modelcontextprotocol.anonymous/multi-tenant-server', 'https://anonymous.modelcontextprotocol.io/mcp/{tenant_id}')).toMatchObject({ score: 100, messageId: 'https' });
    const tenant = named('com.example/acme-analytics', 'https://{tenant_id}.analytics.example.com/mcp');
    expect(tenant).toMatchObject({ score: 100, messageId: 'https', data: { hosts: ['*.analytics.example.com'] } });
    expect(named('io.github.acme/weather', 'https://{tenant_id}.analytics.example.com/mcp')).toMatchObject({ score: 60, messageId: 'foreign-host', data: { host: '*.analytics.example.com' } });
  });
  it.each(['{url}', '{base_url}/mcp', 'https://{host}/mcp', '{scheme}://analytics.example.com/mcp'])('%s: where it connects is the user\'s to fill in — unknown, not a failure', (url) => {
    const out = named('com.example/acme-analytics', url);
    expect(out).toMatchObject({ score: null, messageId: 'templated', data: { url } });
    expect((out.caps ?? []).map((c) => c.id)).toEqual(['mcp-uninspected']);
  });
  it('a literal http scheme is still a failure, templated or not', () => {
    const out = named('com.example/acme-analytics', 'http://{tenant_id}.analytics.example.com/mcp');
    expect(out).toMatchObject({ score: 0, messageId: 'insecure' });
    expect((out.caps ?? []).map((c) => c.id)).toEqual(['mcp-remote-insecure', 'mcp-uninspected']);
  });
});

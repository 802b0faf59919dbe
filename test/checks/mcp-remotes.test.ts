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
  it.each(['', 'analytics.example.com/mcp', 'https://', 'https://analytics.example.com%40evil/mcp'])('%j: no URL nerq can read — unknown, not a failure, and not called a template', (url) => {
    const out = named('com.example/acme-analytics', url);
    expect(out).toMatchObject({ score: null, messageId: 'unreadable', data: { url } });
    expect((out.caps ?? []).map((c) => c.id)).toEqual(['mcp-uninspected']);
  });
  it('a literal http scheme is still a failure, templated or not', () => {
    const out = named('com.example/acme-analytics', 'http://{tenant_id}.analytics.example.com/mcp');
    expect(out).toMatchObject({ score: 0, messageId: 'insecure' });
    expect((out.caps ?? []).map((c) => c.id)).toEqual(['mcp-remote-insecure', 'mcp-uninspected']);
  });
  it.each(['https://127.0.0.1/mcp', 'https://[::1]/mcp', 'http://169.254.169.254/x', 'https://10.2.3.4/mcp', 'https://172.16.0.1/mcp', 'https://100.64.0.1/mcp', 'https://[fd12::1]/mcp', 'https://[fe80::1]/mcp', 'https://box.local/mcp', 'https://a.internal/mcp', 'https://{t}.home.arpa/mcp'])(
    '%s: on the user\'s own machine or network — 0 and capped',
    (url) => {
      const out = named('com.example/acme-analytics', url);
      expect(out).toMatchObject({ score: 0, messageId: 'local-network' });
      expect((out.caps ?? []).map((c) => c.id)).toEqual(['mcp-remote-local-network', 'mcp-uninspected']);
    },
  );
  it.each(['https://1.2.3.4/mcp', 'https://172.32.0.1/mcp', 'https://local.example.com/mcp', 'https://internal.example.com/mcp'])('%s: a public address or name is not local', (url) => {
    expect(named('com.example/acme-analytics', url).messageId).not.toBe('local-network');
  });
  it('an entry whose only packages are proxies to a remote is held as remote-only; one with its own package is not', () => {
    const proxy = { ...remote('https://tools.example.net/sse'), via: 'npm:mcp-remote' };
    const pkg = (identifier: string) => ({ ...facts().packages[0]!, registryType: 'npm', identifier });
    const only = mcpRemotes.evaluate({ mcp: facts({ packages: [pkg('mcp-remote')], remotes: [proxy] }) }, NOW);
    expect(only).toMatchObject({ score: 60, messageId: 'foreign-host', data: { remoteOnly: true } });
    expect((only.caps ?? []).map((c) => c.id)).toEqual(['mcp-uninspected']);
    expect(only.holdVerdict).toMatch(/proxies/);
    const mixed = mcpRemotes.evaluate({ mcp: facts({ packages: [pkg('mcp-remote'), pkg('own-server')], remotes: [proxy] }) }, NOW);
    expect(mixed).toMatchObject({ data: { remoteOnly: false } });
    expect(mixed.holdVerdict).toBeUndefined();
  });
});

describe('mcp-remotes names the secret headers a remote declares', () => {
  const remote = (url: string, secretHeaders: string[]) => ({ type: 'streamable-http', url, headers: [...secretHeaders, 'X-Region'], secretHeaders });
  it.each([
    ['https', 'com.example/weather', 'https://mcp.example.com/mcp'],
    ['foreign-host', 'com.example/weather', 'https://mcp.elsewhere.net/mcp'],
    ['templated', 'com.example/weather', '{url}'],
    ['unreadable', 'com.example/weather', 'mcp.example.com/mcp'],
  ])('%s: its message names them, or says none', (messageId, name, url) => {
    const withSecret = mcpRemotes.evaluate({ mcp: facts({ name, packages: [], remotes: [remote(url, ['X-API-Key'])] }) }, NOW);
    expect(withSecret.messageId).toBe(messageId);
    expect(mcpRemotes.messages[withSecret.messageId as keyof typeof mcpRemotes.messages]).toContain('{secretHeaderList}');
    expect(withSecret.data?.secretHeaderList).toBe('X-API-Key');
    expect(mcpRemotes.evaluate({ mcp: facts({ name, packages: [], remotes: [remote(url, [])] }) }, NOW).data?.secretHeaderList).toBe('none');
  });
});

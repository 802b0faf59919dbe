/** A configured remote URL as nerq compares it with registry entries' remotes, and what of it is sent. */
import { describe, expect, it } from 'vitest';
import { isLoopback, normaliseRemoteUrl, remoteUrlMatches, searchWordsOf } from '../../../src/audit/mcp/remote-url.js';

describe('normaliseRemoteUrl', () => {
  it.each([
    ['https://User:pw@Mcp.Example.com:443/mcp/?key=s3cret#frag', 'https://mcp.example.com/mcp'],
    ['https://api.githubcopilot.com/mcp/', 'https://api.githubcopilot.com/mcp'],
    ['http://mcp.example.net:8080/sse', 'http://mcp.example.net:8080/sse'],
    ['https://mcp.example.com', 'https://mcp.example.com'],
    ['  https://mcp.example.com/a//  ', 'https://mcp.example.com/a'],
  ])('%s → %s', (url, normal) => {
    expect(normaliseRemoteUrl(url)).toBe(normal);
  });
  it.each(['ftp://x.example/', 'not a url', 'file:///etc/passwd', 'ws://x.example/'])('%s → null', (url) => {
    expect(normaliseRemoteUrl(url)).toBeNull();
  });
});

describe('remoteUrlMatches', () => {
  it('origin and path must both match; a template variable is one non-empty segment', () => {
    expect(remoteUrlMatches('https://api.githubcopilot.com/mcp', 'https://api.githubcopilot.com/mcp/')).toBe(true);
    expect(remoteUrlMatches('https://api.githubcopilot.com/mcp/x', 'https://api.githubcopilot.com/mcp/')).toBe(false);
    expect(remoteUrlMatches('http://api.githubcopilot.com/mcp', 'https://api.githubcopilot.com/mcp')).toBe(false);
    expect(remoteUrlMatches('https://evil.example/mcp', 'https://api.githubcopilot.com/mcp')).toBe(false);
    const template = 'https://anonymous.modelcontextprotocol.io/mcp/{tenant_id}';
    expect(remoteUrlMatches('https://anonymous.modelcontextprotocol.io/mcp/acme-cell1', template)).toBe(true);
    expect(remoteUrlMatches('https://anonymous.modelcontextprotocol.io/mcp/a/b', template)).toBe(false);
    expect(remoteUrlMatches('https://anonymous.modelcontextprotocol.io/mcp', template)).toBe(false);
    // A template's dots and other characters are literal.
    expect(remoteUrlMatches('https://mcpXexample.com/m', 'https://mcp.example.com/m')).toBe(false);
    expect(remoteUrlMatches('https://x.example/m', 'not a url')).toBe(false);
  });
  it('a variable in the host is one label under the literal domain; one that sets the scheme or whole host matches nothing', () => {
    // docs/remote-servers.mdx's multi-tenant host (fixtures/mcp-registry), then edits of it.
    const tenant = 'https://{tenant_id}.analytics.example.com/mcp';
    expect(remoteUrlMatches('https://us-cell1.analytics.example.com/mcp', tenant)).toBe(true);
    expect(remoteUrlMatches('https://evil.example/x.analytics.example.com/mcp', tenant)).toBe(false);
    expect(remoteUrlMatches('https://a.b.analytics.example.com/mcp', tenant)).toBe(false);
    expect(remoteUrlMatches('https://analytics.example.com/mcp', tenant)).toBe(false);
    // An entry declaring a URL the user fills in wholly vouches for no server in particular.
    for (const declared of ['{url}', 'https://{host}/mcp', 'https://{sub}.com/mcp', '{scheme}://mcp.example.com/mcp']) {
      expect(remoteUrlMatches('https://mcp.example.com/mcp', declared), declared).toBe(false);
    }
  });
});

describe('searchWordsOf', () => {
  it('host labels, most significant first, without the top-level label or common words; never the path', () => {
    expect(searchWordsOf('https://observability.mcp.cloudflare.com/sse')).toEqual(['cloudflare', 'observability']);
    expect(searchWordsOf('https://mcp-fs.anonymous.modelcontextprotocol.io/http/s3cret')).toEqual(['modelcontextprotocol', 'anonymous', 'mcp-fs']);
    expect(searchWordsOf('https://api.githubcopilot.com/mcp')).toEqual(['githubcopilot']);
    expect(searchWordsOf('https://a.b.c.d.e.example.com/x')).toEqual(['example']);
    expect(searchWordsOf('https://10.0.0.5/mcp')).toEqual([]);
    expect(searchWordsOf('https://[::1]/mcp')).toEqual([]);
  });
});

describe('isLoopback', () => {
  it.each([
    ['http://localhost:8931/mcp', true],
    ['http://127.0.0.1:3000', true],
    ['http://[::1]:3000', true],
    ['http://app.localhost', true],
    ['https://localhost.example.com', false],
    ['http://[::ffff:127.0.0.1]:8000/mcp', true],
    // A name that merely starts with "127." resolves wherever its owner points it.
    ['http://127.evil.example/sse', false],
    ['http://127.0.0.1.nip.example/sse', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopback(url)).toBe(loopback);
  });
});

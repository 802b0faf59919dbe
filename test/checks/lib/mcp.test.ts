/** Pure helpers of the MCP entry checks and the README `mcp-name:` reader. */
import { describe, expect, it } from 'vitest';
import { hostBelongs, localNetworkHost, namespaceDomain, remoteParts, remoteUrlShown, thisMachineHost, wideningArguments } from '../../../src/checks/lib/mcp.js';
import { readmeMcpNames } from '../../../src/ecosystems/mcp/claims.js';

describe('helpers', () => {
  it('README mcp-name lines, in a comment or not, with a boundary', () => {
    expect(readmeMcpNames('# x\n<!-- mcp-name: io.github.a/b -->\nmcp-name: io.github.c/d\n')).toEqual(['io.github.a/b', 'io.github.c/d']);
    expect(readmeMcpNames('see mcp-name: io.github.a/b. and more')).toEqual([]);
  });
  it('namespace domains, host ownership, widening', () => {
    expect(namespaceDomain('com.example.tools/x')).toBe('tools.example.com');
    expect(hostBelongs('api.tools.example.com', 'com.example.tools/x')).toBe(true);
    expect(hostBelongs('evil-example.com', 'com.example/x')).toBe(false);
    expect(hostBelongs('example.com.evil.io', 'com.example/x')).toBe(false);
    // A subdomain's namespace proves that subdomain, not its parent.
    expect(hostBelongs('example.com', 'com.example.tools/x')).toBe(false);
    // io.github.<owner> proves <owner>.github.io alone, which GitHub gives that account.
    expect(hostBelongs('acme.github.io', 'io.github.acme/y')).toBe(true);
    expect(hostBelongs('evil.github.io', 'io.github.acme/y')).toBe(false);
    // A name that looks like the publisher's proves nothing: anyone may register acme.xyz.
    for (const host of ['acme.xyz', 'acme.com', 'mcp.acme.com', 'mcp.acme.co.uk', 'acme.evil.example', 'acme.vercel.app']) {
      expect(hostBelongs(host, 'io.github.acme/y')).toBe(false);
    }
    expect(wideningArguments(['--network bridge', '--net=host'])).toEqual([{ id: 'host-network', argument: '--net=host' }]);
    expect(wideningArguments(['-v /:/host', '--volume=/://h:ro', '-v /data:/data', '--mount type=bind,source=/,target=/h', '--mount type=bind,source=/srv,target=/s']).map((f) => f.id)).toEqual([
      'host-root-mount',
      'host-root-mount',
      'host-root-mount',
    ]);
    expect(wideningArguments(['--cap-add SYS_ADMIN', '--cap-add=NET_ADMIN', '--cap-drop ALL']).map((f) => f.id)).toEqual(['added-capability', 'added-capability']);
  });
  it.each([
    // Recorded shapes: fixtures/mcp-registry (server-json-examples 07, 16, 17; docs/remote-servers.mdx's multi-tenant host).
    ['https://mcp-fs.anonymous.modelcontextprotocol.io/http', { scheme: 'https', host: 'mcp-fs.anonymous.modelcontextprotocol.io', templated: false }],
    ['https://anonymous.modelcontextprotocol.io/mcp/{tenant_id}', { scheme: 'https', host: 'anonymous.modelcontextprotocol.io', templated: false }],
    ['https://events.anonymous.modelcontextprotocol.io/sse/{tenant_id}', { scheme: 'https', host: 'events.anonymous.modelcontextprotocol.io', templated: false }],
    ['https://{tenant_id}.analytics.example.com/mcp', { scheme: 'https', host: 'analytics.example.com', templated: true }],
    // Edits of those shapes: variables that set the whole host, the scheme, or the whole URL.
    ['https://{host}/mcp', { scheme: 'https', host: null, templated: true }],
    ['https://{sub}.com/mcp', { scheme: 'https', host: null, templated: true }],
    ['https://{a}.{b}.example.com/mcp', { scheme: 'https', host: 'example.com', templated: true }],
    ['https://User:{token}@Mcp.Example.com:{port}/mcp', { scheme: 'https', host: 'mcp.example.com', templated: false }],
    ['http://{tenant}.example.com/sse', { scheme: 'http', host: 'example.com', templated: true }],
    ['{scheme}://mcp.example.com/mcp', { scheme: null, host: 'mcp.example.com', templated: false }],
    ['{url}', { scheme: null, host: null, templated: true }],
    ['{base_url}/mcp', { scheme: null, host: null, templated: true }],
    // A backslash ends the authority of an http(s) URL as a slash does (a client's URL parser
    // connects to evil.example): what follows it is path, not the host.
    ['https://evil.example\\@alice.github.io/mcp', { scheme: 'https', host: 'evil.example', templated: false }],
    ['https://evil.example\\x@{t}.alice.github.io/mcp', { scheme: 'https', host: 'evil.example', templated: false }],
  ])('remoteParts(%s): what the template says before its variables are filled in', (url, parts) => {
    expect(remoteParts(url)).toEqual(parts);
  });
});

describe('thisMachineHost: a package transport\'s own local server', () => {
  const hostOf = (url: string) => remoteParts(url).host ?? '';
  it.each(['http://localhost:8080/mcp', 'http://mcp.localhost/mcp', 'http://127.0.0.1:8931/mcp', 'http://127.1:80/mcp', 'http://0.0.0.0:8000/mcp', 'http://[::1]:8000/mcp', 'http://[::]:8000/mcp', 'http://[::ffff:127.0.0.1]:8000/mcp', 'http://[::ffff:0.0.0.0]:8000/mcp'])(
    '%s is this machine',
    (url) => expect(thisMachineHost(hostOf(url))).toBe(true),
  );
  it.each(['https://127.evil.example/mcp', 'https://localhost.evil.example/mcp', 'http://10.0.0.7/mcp', 'http://[::2]/mcp', 'http://[::ffff:10.0.0.7]/mcp', 'https://mcp.example.com/mcp'])('%s is not', (url) => {
    expect(thisMachineHost(hostOf(url))).toBe(false);
  });
  it('every host of this machine is also on the user\'s own network (localNetworkHost), the mapped forms too', () => {
    for (const url of ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:10.0.0.7]/', 'http://[::]/', 'http://0.0.0.0/']) expect(localNetworkHost(hostOf(url)), url).toBe(true);
  });
});

describe('remoteUrlShown: what a report prints of a remote URL', () => {
  it.each([
    ['https://deploy:s3cret@mcp.example.com/mcp?api_key=sk-1#t=2', 'https://mcp.example.com/mcp'],
    ['{scheme}://deploy:s3cret@mcp.example.com/{tenant}?k=v', '{scheme}://mcp.example.com/{tenant}'],
    ['https://a@b@mcp.example.com/x', 'https://mcp.example.com/x'],
    ['https://mcp.example.com/mcp/{tenant_id}', 'https://mcp.example.com/mcp/{tenant_id}'],
    ['{url}', '{url}'],
  ])('%s → %s', (url, shown) => {
    expect(remoteUrlShown(url)).toBe(shown);
  });
  it('a fully qualified host (final dot) is the same host', () => {
    expect(remoteParts('https://ACME.com./mcp')).toEqual({ scheme: 'https', host: 'acme.com', templated: false });
  });
});

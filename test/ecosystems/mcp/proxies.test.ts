/** The remote a proxy package connects to, read from its arguments as each proxy reads them (ecosystems/mcp/proxies.ts). */
import { describe, expect, it } from 'vitest';
import { proxiedRemote, proxyServerCommand } from '../../../src/ecosystems/mcp/proxies.js';

describe('proxiedRemote', () => {
  it.each<[string, 'npm' | 'pypi', string, string[], string | null, string | null]>([
    ['mcp-remote, URL first', 'npm', 'mcp-remote', ['https://h.example/sse'], 'https://h.example/sse', 'streamable-http'],
    ['mcp-remote, a port and flags after', 'npm', 'mcp-remote', ['https://h.example/sse', '9696', '--transport', 'sse-only'], 'https://h.example/sse', 'sse'],
    ['mcp-remote, a header before the URL', 'npm', 'mcp-remote', ['--header', 'Authorization: Bearer x', 'https://h.example/sse'], 'https://h.example/sse', 'streamable-http'],
    ['mcp-remote, a URL template', 'npm', 'MCP-Remote', ['{server_url}'], '{server_url}', 'streamable-http'],
    ['mcp-remote, no URL', 'npm', 'mcp-remote', ['--debug'], null, null],
    ['mcp-remote, a variable for the URL (returned as written)', 'npm', 'mcp-remote', ['${input:url}'], '${input:url}', 'streamable-http'],
    ['supergateway --sse', 'npm', 'supergateway', ['--sse', 'https://h.example'], 'https://h.example', 'sse'],
    ['supergateway --streamableHttp=', 'npm', 'supergateway', ['--streamableHttp=https://h.example/mcp'], 'https://h.example/mcp', 'streamable-http'],
    ['supergateway --stdio (server mode)', 'npm', 'supergateway', ['--stdio', 'uvx mcp-server-git'], null, null],
    ['mcp-proxy, headers as pairs', 'pypi', 'mcp-proxy', ['--headers', 'Authorization', 'Bearer x', 'https://h.example/sse'], 'https://h.example/sse', 'sse'],
    ['mcp-proxy, streamable HTTP', 'pypi', 'mcp_proxy', ['--transport', 'streamablehttp', 'https://h.example/mcp'], 'https://h.example/mcp', 'streamable-http'],
    ['mcp-proxy, server mode', 'pypi', 'mcp-proxy', ['--port', '8080', 'uvx', 'mcp-server-fetch'], null, null],
    ['npm mcp-proxy is another package', 'npm', 'mcp-proxy', ['https://h.example/sse'], null, null],
    ['a package that is no proxy', 'npm', 'some-server', ['https://h.example/sse'], null, null],
  ])('%s', (_label, ecosystem, name, args, url, type) => {
    const found = proxiedRemote(ecosystem, name, args);
    expect(found?.url ?? null).toBe(url);
    expect(found?.type ?? null).toBe(type);
  });
  it('keeps header names, never their values', () => {
    const found = proxiedRemote('npm', 'mcp-remote', ['https://h.example/sse', '--header', 'Authorization: Bearer tok-123', '--header=X-Key:tok-456']);
    expect(found?.headers).toEqual(['Authorization', 'X-Key']);
    expect(JSON.stringify(found)).not.toMatch(/tok-/);
    expect(proxiedRemote('pypi', 'mcp-proxy', ['-H', 'X-Api-Key', 'tok-789', 'https://h.example/sse'])?.headers).toEqual(['X-Api-Key']);
  });
});

describe('proxyServerCommand', () => {
  it.each<[string, 'npm' | 'pypi', string, string[], string | null]>([
    ['supergateway --stdio', 'npm', 'supergateway', ['--stdio', 'uvx mcp-server-git'], 'uvx'],
    ['supergateway --stdio=, a path and .cmd', 'npm', 'Supergateway', ['--port', '8000', '--stdio=C:\\tools\\npx.cmd -y x'], 'npx'],
    ['supergateway --stdio, a variable for the command', 'npm', 'supergateway', ['--stdio', '$CMD --flag'], 'a command'],
    ['supergateway --sse is no server mode', 'npm', 'supergateway', ['--sse', 'https://h.example'], null],
    ['mcp-proxy, server mode', 'pypi', 'mcp-proxy', ['--port', '8080', 'uvx', 'mcp-server-fetch'], 'uvx'],
    ['mcp-proxy, server mode after --', 'pypi', 'mcp_proxy', ['--sse-port=8080', '--', 'python', '-m', 'x'], 'python'],
    ['mcp-proxy, headers as pairs then a URL', 'pypi', 'mcp-proxy', ['--headers', 'Authorization', 'Bearer x', 'https://h.example/sse'], null],
    ['mcp-remote has no server mode', 'npm', 'mcp-remote', ['https://h.example/sse'], null],
    ['a package that is no proxy', 'npm', 'some-server', ['--stdio', 'npx x'], null],
  ])('%s', (_label, ecosystem, name, args, command) => {
    expect(proxyServerCommand(ecosystem, name, args)).toBe(command);
  });
  it('returns the program alone, never its arguments', () => {
    expect(proxyServerCommand('npm', 'supergateway', ['--stdio', 'npx -y x --token tok-123'])).not.toMatch(/tok-/);
  });
});

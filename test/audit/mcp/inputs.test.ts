/**
 * A configured server's launch as `nerq audit --mcp` places it (src/audit/mcp/inputs.ts): a
 * container image or NuGet tool is code nerq cannot inspect — an `mcp-uninspected` finding with
 * what the reference tells (`pinning`, `registry`, read as the check's mcp-oci-images reads an
 * entry's image) — and a container with a wider reach fails besides. Launch shapes are the
 * recorded client configurations' (fixtures/mcp-clients: `docker run -i --rm … image`), with the
 * image references edited per case.
 */
import { describe, expect, it } from 'vitest';
import { mcpInput } from '../../../src/audit/mcp/inputs.js';
import { mapLaunch } from '../../../src/audit/mcp/launch.js';
import { readMcpConfig } from '../../../src/audit/mcp/read-config.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

function place(servers: Record<string, { command: string; args: string[] }>) {
  const text = JSON.stringify({ mcpServers: servers }, null, 2);
  return mcpInput(readMcpConfig(text, '.mcp.json'), '.mcp.json');
}

describe('container and NuGet launches', () => {
  it.each([
    [`ghcr.io/acme/box@${DIGEST}`, 'digest', 'ghcr.io'],
    ['ghcr.io/acme/box:1.0', 'tag', 'ghcr.io'],
    ['ghcr.io/github/github-mcp-server', 'latest', 'ghcr.io'],
    ['mcp/fetch:latest', 'latest', 'docker.io'],
    ['registry.evil.example/acme/box:1.0', 'foreign-registry', 'registry.evil.example'],
    ['ghcr.io:443/acme/box:1.0', 'tag', 'ghcr.io'],
    ['ghcr.io:8443/acme/box:1.0', 'foreign-registry', 'ghcr.io:8443'],
    ['Not An Image', 'malformed', null],
  ])('docker run %s: mcp-uninspected, pinning %s', (image, pinning, registry) => {
    const { input, findings } = place({ box: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'TOKEN', image] } });
    expect(findings.map((f) => f.code)).toEqual(['mcp-uninspected']);
    expect(findings[0]?.details).toEqual({ file: '.mcp.json', line: 3, server: 'box', kind: 'oci', image, registry, pinning });
    // Not a note any more: it decides the outcome (incomplete), and nothing else is made of it.
    expect(input.notes).toEqual([]);
    expect(input.dependencies).toEqual([]);
  });

  it('a container with a wider reach fails the policy and is still code nerq cannot inspect', () => {
    const { findings } = place({ box: { command: 'podman', args: ['run', '--privileged', '-v', '/var/run/docker.sock:/var/run/docker.sock', 'quay.io/acme/box:2'] } });
    expect(findings.map((f) => [f.code, f.details.server])).toEqual([
      ['mcp-widened-reach', 'box'],
      ['mcp-uninspected', 'box'],
    ]);
    expect(findings[0]?.details.flags).toEqual(['privileged', 'docker-socket']);
    expect(findings[1]?.details).toMatchObject({ kind: 'oci', pinning: 'tag', registry: 'quay.io' });
  });

  it('a NuGet tool (dnx) is code nerq cannot inspect too', () => {
    const { input, findings } = place({ time: { command: 'dnx', args: ['TimeMcpServer@1.0.8', '--yes'] } });
    expect(findings.map((f) => f.code)).toEqual(['mcp-uninspected']);
    expect(findings[0]?.details).toEqual({ file: '.mcp.json', line: 3, server: 'time', kind: 'nuget', identifier: 'TimeMcpServer@1.0.8' });
    expect(input.notes).toEqual([]);
  });

  it('a local file stays a note: the project\'s own code, not evaluable', () => {
    const { input, findings } = place({ mine: { command: 'node', args: ['/opt/mine/server.js'] } });
    expect(findings).toEqual([]);
    expect(input.notes).toHaveLength(1);
  });
});

describe('an installed Python module (`python -m pkg`)', () => {
  it.each([
    ['python', ['-m', 'mcp_server_fetch'], { kind: 'module', command: 'python', module: 'mcp_server_fetch' }],
    ['python3', ['-m', 'mcp_server_git', '--repository', '/srv/repo'], { kind: 'module', command: 'python3', module: 'mcp_server_git' }],
    ['py', ['-3', '-m', 'acme.server'], { kind: 'module', command: 'py', module: 'acme.server' }],
    ['python', ['-u', '-m', 'pkg'], { kind: 'module', command: 'python', module: 'pkg' }],
    ['python', ['-mpkg'], { kind: 'module', command: 'python', module: 'pkg' }],
    ['python', ['-um', 'pkg'], { kind: 'module', command: 'python', module: 'pkg' }],
    ['python', ['-X', 'utf8', '-m', 'pkg'], { kind: 'module', command: 'python', module: 'pkg' }],
    ['/usr/bin/python3', ['-m', 'pkg'], { kind: 'module', command: 'python3', module: 'pkg' }],
    // A script's own `-m` is its argument, not Python's; code given with -c is no module.
    ['python', ['server.py', '-m', 'fast'], { kind: 'local', command: 'python', file: 'server.py' }],
    ['python', ['-c', 'import x', '-m', 'pkg'], { kind: 'local', command: 'python', file: null }],
    // What follows -m is no module name: not echoed.
    ['python', ['-m', '$(curl x)'], { kind: 'local', command: 'python', file: null }],
  ])('%s %j', (command, args, expected) => {
    expect(mapLaunch({ command, args })).toEqual(expected);
  });

  it('is a note of its own, naming the module', () => {
    const { input, findings } = place({ fetch: { command: 'python', args: ['-m', 'mcp_server_fetch'] } });
    expect(findings).toEqual([]);
    expect(input.dependencies).toEqual([]);
    expect(input.notes).toHaveLength(1);
    expect(input.notes[0]).toContain('"mcp_server_fetch"');
    expect(input.notes[0]).not.toContain('"-m');
  });
});

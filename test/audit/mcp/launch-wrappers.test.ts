/**
 * Launches behind a wrapper that starts the command after its own options (src/audit/mcp/launch.ts;
 * docs/security.md, "MCP servers"): the package the command starts is the launch. A command nerq
 * cannot read that names a package runner among its words starts a package all the same: code
 * nerq cannot inspect (`mcp-uninspected`), never a note; a program of this machine's stays a note.
 */
import { describe, expect, it } from 'vitest';
import { mcpInput } from '../../../src/audit/mcp/inputs.js';
import { mapLaunch } from '../../../src/audit/mcp/launch.js';
import { readMcpConfig } from '../../../src/audit/mcp/read-config.js';

const PKG = 'chalk@4.1.0';

describe('wrappers taken off', () => {
  it.each<[string, string, string[], string]>([
    ['stdbuf', 'stdbuf', ['-oL', 'npx', '-y', PKG], 'npx'],
    ['stdbuf with separate values', 'stdbuf', ['-o', 'L', '-e', '0', 'npx', '-y', PKG], 'npx'],
    ['stdbuf long option', 'stdbuf', ['--output=L', 'npx', '-y', PKG], 'npx'],
    ['sudo', 'sudo', ['npx', '-y', PKG], 'npx'],
    ['sudo -u user', 'sudo', ['-u', 'mcp', 'npx', '-y', PKG], 'npx'],
    ['sudo clustered -Eu user', 'sudo', ['-Eu', 'mcp', 'npx', '-y', PKG], 'npx'],
    ['sudo --user= and a variable', '/usr/bin/sudo', ['--user=mcp', 'HOME=/tmp', '--', 'npx', '-y', PKG], 'npx'],
    ['doas -u user', 'doas', ['-n', '-u', 'mcp', 'npx', '-y', PKG], 'npx'],
    ['wsl', 'wsl', ['npx', '-y', PKG], 'npx'],
    ['wsl.exe -d distro -e', 'wsl.exe', ['-d', 'Ubuntu', '-e', 'npx', '-y', PKG], 'npx'],
    ['wsl --exec', 'wsl', ['--exec', 'npx', '-y', PKG], 'npx'],
    ['wsl --', 'wsl', ['--cd', '~', '--', 'npx', '-y', PKG], 'npx'],
    ['volta run', 'volta', ['run', 'npx', '-y', PKG], 'npx'],
    ['volta run --node', 'volta', ['run', '--node', '20', 'npx', '-y', PKG], 'npx'],
    ['mise exec --', 'mise', ['exec', '--', 'npx', '-y', PKG], 'npx'],
    ['mise x with a tool --', 'mise', ['x', 'node@22', '--', 'npx', '-y', PKG], 'npx'],
    ['mise exec -c line', 'mise', ['exec', 'node@22', '-c', `npx -y ${PKG}`], 'npx'],
    ['asdf exec', 'asdf', ['exec', 'npx', '-y', PKG], 'npx'],
    ['fnm exec --using=', 'fnm', ['exec', '--using=20', '--', 'npx', '-y', PKG], 'npx'],
    ['fnm exec --using', 'fnm', ['exec', '--using', '20', 'npx', '-y', PKG], 'npx'],
    ['corepack pnpm dlx', 'corepack', ['pnpm', 'dlx', PKG], 'pnpm dlx'],
    ['corepack yarn dlx', 'corepack', ['yarn', 'dlx', PKG], 'yarn dlx'],
    ['corepack pnpm@version dlx', 'corepack', ['pnpm@9.1.0', 'dlx', PKG], 'pnpm dlx'],
    ['corepack npx', 'corepack', ['npx', '-y', PKG], 'npx'],
    ['sudo then env then stdbuf', 'sudo', ['env', 'A=1', 'stdbuf', '-oL', 'npx', '-y', PKG], 'npx'],
    ['in a shell line', 'sh', ['-c', `sudo -u mcp npx -y ${PKG}`], 'npx'],
    ['in one command string', 'stdbuf -oL npx -y chalk@4.1.0', [], 'npx'],
  ])('%s: the package it starts', (_label, command, args, runner) => {
    expect(mapLaunch({ command, args })).toMatchObject({ kind: 'package', runner, ecosystem: 'npm', name: 'chalk', version: '4.1.0' });
  });
});

describe('a command nerq cannot read that starts a package runner', () => {
  it.each<[string, string, string[]]>([
    ['a wrapper nerq does not know', 'with-proxy', ['npx', '-y', PKG]],
    ['mise exec without its --', 'mise', ['exec', 'npx']],
    ['nvm exec', 'nvm', ['exec', '20', 'npx', '-y', PKG]],
    ['a runner by its path', 'runas', ['/usr/local/bin/npx', '-y', PKG]],
    ['sh -c installing then running', 'sh', ['-c', `npm i -g ${PKG} && chalk`]],
    ['bash -c with a substitution', 'bash', ['-c', `"$(which npx)" -y ${PKG}`]],
    ['sudo starting nothing nerq can read, a runner among its words', 'sudo', ['-u', 'npx']],
  ])('%s: mcp-uninspected, never a note', (_label, command, args) => {
    const launch = mapLaunch({ command, args });
    expect(launch).toMatchObject({ kind: 'unknown', runsPackage: true });
    const { input, findings } = mcpInput(readMcpConfig(JSON.stringify({ mcpServers: { srv: { command, args } } }), '.mcp.json'), '.mcp.json');
    expect(findings.map((f) => [f.code, f.details?.kind])).toEqual([['mcp-uninspected', 'unreadable-package']]);
    expect(input.notes).toEqual([]);
  });

  it.each<[string, string, string[]]>([
    ['a program of this machine', 'my-mcp-server', ['--stdio']],
    ['a program given a package-like word inside another', 'my-mcp-server', ['--mode=npx-compatible']],
    ['a shell line running local programs', 'bash', ['-c', 'cd /srv && ./server --stdio; echo done']],
    ['stdbuf starting a local program', 'stdbuf', ['-oL', 'my-mcp-server']],
  ])('%s: not evaluable, a note', (_label, command, args) => {
    const launch = mapLaunch({ command, args });
    expect(launch.kind === 'unknown' ? launch.runsPackage : 'not unknown').toBeUndefined();
    const { findings } = mcpInput(readMcpConfig(JSON.stringify({ mcpServers: { srv: { command, args } } }), '.mcp.json'), '.mcp.json');
    expect(findings).toEqual([]);
  });
});

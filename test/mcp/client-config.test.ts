/**
 * The MCP client configurations the README ("`nerq mcp`") and docs/mcp.md ("Configure an agent",
 * "Streamable HTTP") print are what their clients read and what starts nerq: every JSON block
 * is in its client's format (`mcpServers` for Claude Code, Claude Desktop and Cursor; `servers`
 * with a `type` for VS Code), every `claude mcp add` line names the same command, and the stdio
 * entry, with `/path/to/nerq` this checkout, starts `nerq mcp` and lists its tools.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { requireBuiltCli } from '../cli/helpers.js';
import { freshHome } from '../serve/support.js';
import { CLI_BIN, cliEnv, REPO_ROOT, runCli } from '../support/run-cli.js';

const CHECKOUT = '/path/to/nerq';
const COMMAND = `${CHECKOUT}/node_modules/.bin/node`;
const ARGS = [`${CHECKOUT}/bin/nerq.js`, 'mcp'];
const URL_SHOWN = 'http://127.0.0.1:8788/mcp';

const read = (file: string): string => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const README = read('README.md');
const sections = {
  'README.md': README.slice(README.indexOf('### `nerq mcp`'), README.indexOf('### `nerq cache stats`')),
  'docs/mcp.md': read('docs/mcp.md'),
};

const blocksOf = (text: string, language: string): string[] =>
  [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);

interface Entry {
  where: string;
  format: 'mcpServers' | 'servers';
  entry: Record<string, unknown>;
}

/** Every JSON block that configures a client, with the file it is printed in. */
function configurations(): Entry[] {
  const found: Entry[] = [];
  for (const [where, text] of Object.entries(sections)) {
    for (const block of blocksOf(text, 'json')) {
      const json = JSON.parse(block) as Record<string, unknown>;
      const format = Object.keys(json).find((key) => key === 'mcpServers' || key === 'servers') as Entry['format'] | undefined;
      if (format === undefined) continue;
      expect(Object.keys(json), where).toEqual([format]);
      const servers = json[format] as Record<string, Record<string, unknown>>;
      expect(Object.keys(servers), where).toEqual(['nerq']);
      found.push({ where, format, entry: servers.nerq! });
    }
  }
  return found;
}

/** Every `claude mcp add` line of the sh blocks, split into words (quoted words kept whole). */
function claudeAddLines(): string[][] {
  return Object.values(sections)
    .flatMap((text) => blocksOf(text, 'sh'))
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith('claude mcp add '))
    .map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? word[2]!));
}

describe('the MCP client configurations the README and docs/mcp.md print', () => {
  it("each is JSON in its client's format: a stdio entry runs nerq mcp by path, an HTTP entry names the default URL", () => {
    const found = configurations();
    const kinds = new Set<string>();
    for (const { where, format, entry } of found) {
      if ('command' in entry) {
        kinds.add(`${format} stdio`);
        expect({ command: entry.command, args: entry.args }, where).toEqual({ command: COMMAND, args: ARGS });
        // VS Code's `servers` entries carry their type; the `mcpServers` clients infer it from `command`.
        if (format === 'servers') expect(entry.type, where).toBe('stdio');
        const allowed = format === 'servers' ? ['type', 'command', 'args', 'env'] : ['command', 'args', 'env'];
        for (const key of Object.keys(entry)) expect(allowed, `${where}: ${key}`).toContain(key);
      } else {
        kinds.add(`${format} http`);
        expect(entry, where).toEqual({ type: 'http', url: URL_SHOWN, headers: { Authorization: 'Bearer …' } });
      }
    }
    expect([...kinds].sort()).toEqual(['mcpServers http', 'mcpServers stdio', 'servers http', 'servers stdio']);
    // The README gives both stdio formats too, not only docs/mcp.md.
    expect(new Set(found.filter(({ where }) => where === 'README.md').map(({ format }) => format))).toEqual(new Set(['mcpServers', 'servers']));
  });

  it('each `claude mcp add` line runs the same command, or names the same URL with --transport http', () => {
    const lines = claudeAddLines();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    let stdio = 0;
    let http = 0;
    for (const words of lines) {
      const dashes = words.indexOf('--');
      if (dashes >= 0) {
        stdio += 1;
        expect(words.slice(0, dashes)).toEqual(['claude', 'mcp', 'add', 'nerq']);
        expect(words.slice(dashes + 1)).toEqual([COMMAND, ...ARGS]);
      } else {
        http += 1;
        expect(words).toEqual(['claude', 'mcp', 'add', '--transport', 'http', 'nerq', URL_SHOWN, '--header', 'Authorization: Bearer …']);
      }
    }
    expect(stdio).toBeGreaterThanOrEqual(1);
    expect(http).toBe(1);
  });

  it('the stdio entry, with /path/to/nerq this checkout, starts nerq mcp: its five tools', async () => {
    requireBuiltCli();
    const command = COMMAND.replace(CHECKOUT, REPO_ROOT.replace(/\/$/, ''));
    expect(existsSync(command)).toBe(true);
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const transport = new StdioClientTransport({
      command,
      args: ARGS.map((arg) => arg.replace(CHECKOUT, REPO_ROOT.replace(/\/$/, ''))),
      // A client starts its servers elsewhere than the checkout: the home directory here.
      env: cliEnv(home),
      cwd: home,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'nerq-config', version: '1.0.0' });
    const protocolErrors: Error[] = [];
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
    onTestFinished(() => client.close());
    expect(client.getServerVersion()?.name).toBe('nerq');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['audit_lockfile', 'check_packages', 'compare_packages', 'find_alternatives', 'target_history']);
    expect(protocolErrors).toEqual([]);
  });

  it('the HTTP entries name the address nerq mcp --http listens on: its host and path, and the default port', async () => {
    requireBuiltCli();
    const help = await runCli(['mcp', '--help']);
    expect(help.stdout).toMatch(new RegExp(`default ${new URL(URL_SHOWN).port}\\b`));
    const home = freshHome();
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--http', '--port', '0'], { cwd: home, env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    onTestFinished(() => void child.kill('SIGKILL'));
    const listening = await new Promise<URL>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('nerq mcp --http did not start')), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /^listening on (\S+)\n/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]!));
        }
      });
    });
    const shown = new URL(URL_SHOWN);
    expect({ protocol: listening.protocol, hostname: listening.hostname, pathname: listening.pathname }).toEqual({
      protocol: shown.protocol,
      hostname: shown.hostname,
      pathname: shown.pathname,
    });
    const client = new Client({ name: 'nerq-config', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(listening));
    expect((await client.listTools()).tools).toHaveLength(5);
    await client.close();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});

/**
 * The README's MCP outputs are what the built CLI prints against the fixture server (README.md,
 * "MCP servers" and "`nerq audit --mcp`"; each block's prose says it comes from there): the
 * look-alike entry's `nerq check mcp:…` report, the multi-package seed entry's JSON, the
 * five-server project's `nerq audit --mcp` and the reviewed container launch. A block that
 * shows a `$ nerq …` line is compared as it stands, cut at lines `…` (each part printed in
 * order, the first at the start, the last at the end); the JSON block, abridged with `…`, is
 * what the report holds where it shows a member.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { expectPackage, githubAnswers } from './helpers.js';
import { entryWithBarePackage, example, nerqFixtureBareWith, searchHandler, SEED, seedEntry, serveEntry, startMcpFixtureServer } from './mcp-helpers.js';
import { runAuditIn, useMcpSandbox, writeInHome, type McpHome } from './mcp-sandbox.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The README's fenced blocks whose first line is `$ nerq <command>`, in order: the command and what it prints. */
const SHOWN = [...README.matchAll(/^```[a-z]*\n\$ nerq ([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({ command: m[1]!, printed: m[2]! }));

function shown(command: string, nth = 0): string {
  const blocks = SHOWN.filter((b) => b.command === command);
  expect(blocks.length, command).toBeGreaterThan(nth);
  return blocks[nth]!.printed;
}

/** `printed` is the block: every part between lines `…` in it, in order, the first at its start and the last at its end. */
function expectShown(printed: string, block: string): void {
  const parts = block.split('\n…\n');
  expect(printed.startsWith(parts[0]!), `${parts[0]}\n---- printed:\n${printed}`).toBe(true);
  expect(printed.endsWith(parts.at(-1)!), `${parts.at(-1)}\n---- printed:\n${printed}`).toBe(true);
  let from = 0;
  for (const part of parts) {
    const at = printed.indexOf(part, from);
    expect(at, `${part}\n---- printed:\n${printed}`).toBeGreaterThanOrEqual(from);
    from = at + part.length;
  }
}

const sandbox = useMcpSandbox(startMcpFixtureServer);

describe("the README's `nerq check mcp:…` outputs", () => {
  it('the look-alike entry (an edit of the seed entry naming the real server’s package) as the terminal report prints it', async () => {
    const command = 'check mcp:io.github.domdomegg-tools/airtable-mcp-server';
    const block = shown(command);
    // The set-up of test/cli/check-mcp.test.ts's look-alike: GitHub's hourly budget spent, OSV not recorded.
    const server = await sandbox.start();
    const lookAlike = entryWithBarePackage('io.github.domdomegg-tools/airtable-mcp-server');
    lookAlike.repository = { url: 'https://github.com/domdomegg-tools/airtable-mcp-server', source: 'github' };
    serveEntry(server, lookAlike);
    expectPackage(server, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const result = await runCli(command.split(' '), { server });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expectShown(result.stdout, block);
  });

  it('the multi-package seed entry (its npm package answered 404) as --json prints it, where the abridged block shows a member', async () => {
    const section = README.slice(README.indexOf("and the JSON of the registry's multi-package seed entry"));
    const block = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    // The block is the report with members left out (`…`): what it shows is compared exactly.
    const shownJson = JSON.parse(block.replace(/,\s*…/g, '')) as object;
    const server = await sandbox.start();
    serveEntry(server, seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3'));
    server.expect('GET', '/npm/airtable-mcp-server', { status: 404, body: { error: 'Not found' } });
    const result = await runCli(['check', 'mcp:io.github.domdomegg/airtable-mcp-server', '--json'], { server });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject(shownJson);
  });
});

describe("the README's `nerq audit --mcp` outputs", () => {
  function home(files: Record<string, string>): McpHome {
    const where = sandbox.home(files, 'nerq-readme-mcp-');
    // The project is a repository of its own: the policy search stops at its root.
    mkdirSync(path.join(where.project, '.git'));
    return where;
  }

  it('a project .mcp.json with five servers: an npm package, a privileged container, the docs’ remote-only entry, an undeclared URL, a local file', async () => {
    const block = shown('audit --mcp', 0);
    const fs = example('07-remote-server-example.json');
    const where = home({
      '.mcp.json': [
        '{',
        '  "mcpServers": {',
        '    "bare": { "command": "npx", "args": ["-y", "nerq-fixture-bare@1.0.0"] },',
        '    "box": { "command": "docker", "args": ["run", "-i", "--rm", "--privileged", "ghcr.io/acme/box:1.0"] },',
        '    "fs": { "type": "http", "url": "https://mcp-fs.anonymous.modelcontextprotocol.io/http" },',
        '    "docs": { "type": "http", "url": "https://mcp.example.com/private/path?token=s3cr3t" },',
        '    "mine": { "command": "node", "args": ["/opt/mine/server.js"] }',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    githubAnswers(server);
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([fs, ...SEED], 100));
    serveEntry(server, fs, {}, fs.version);
    const result = await runAuditIn(where, ['--mcp'], server);
    expect(result.code).toBe(1);
    expectShown(result.stdout, block);
    // The prose under the block: two searches and the matched entry's version; the docs server's path and query never sent.
    const asked = server.requests.filter((r) => r.path.startsWith('/mcp-registry/')).map((r) => decodeURIComponent(r.path));
    expect(asked.map((p) => new URL(p, 'http://x').searchParams.get('search')).filter((s) => s !== null)).toEqual(['modelcontextprotocol', 'example']);
    expect(asked.filter((p) => p.includes('/versions/'))).toEqual([`/mcp-registry/v0.1/servers/${fs.name}/versions/${fs.version}`]);
    for (const p of asked) expect(p).not.toMatch(/private|token|s3cr3t/);
  });

  it('the GitHub MCP server’s container launch given the Docker socket, with the README’s first ignore entry (and without it, and with widened reach alone)', async () => {
    const block = shown('audit --mcp', 1);
    const config = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'mcp-clients', 'claude-desktop', 'github-mcp-server.install-claude.L179.json'), 'utf8')) as {
      mcpServers: { github: { args: string[] } };
    };
    config.mcpServers.github.args.splice(3, 0, '-v', '/var/run/docker.sock:/var/run/docker.sock');
    const where = home({ '.mcp.json': JSON.stringify(config, null, 2) });
    const server = await sandbox.start();
    githubAnswers(server);
    // The README's policy block: its first entry is the one this output shows.
    const policy = JSON.parse(/```json\n(\{\n {2}"ignore": \[\n {4}\{ "mcp": "github"[\s\S]*?)```/.exec(README)![1]!) as { ignore: object[] };
    const first = policy.ignore[0]!;

    const without = await runAuditIn(where, ['--mcp'], server);
    expect(without.code).toBe(1);
    expect(without.stdout.replace(/\n/g, ' ')).toContain('FAIL: 1 MCP server launch fails the policy; 1 MCP server runs code nerq cannot inspect');

    writeInHome(where, '.nerqrc.json', JSON.stringify({ ignore: [{ ...first, finding: 'mcp-widened-reach' }] }));
    const widenedOnly = JSON.parse((await runAuditIn(where, ['--mcp', '--json'], server)).stdout) as AuditReport;
    expect(widenedOnly.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });

    writeInHome(where, '.nerqrc.json', JSON.stringify({ ignore: [first] }, null, 2));
    const result = await runAuditIn(where, ['--mcp'], server);
    expect(result.code).toBe(0);
    expectShown(result.stdout, block);
  });
});

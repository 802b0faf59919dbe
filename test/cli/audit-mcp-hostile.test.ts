/**
 * `nerq audit --mcp` over a client configuration that carries secrets everywhere a real one can
 * (fixtures/mcp-hostile/secrets.mcp.json: the shapes of the recorded configurations in
 * fixtures/mcp-clients — npx with arguments and `env`, an http server with `headers`, a docker
 * launch with `-e NAME=value`, a shell line, a runner under a user's folder — each value a made-up
 * token): every format prints none of them. Registries answer nothing (503): only what is read of
 * the configuration matters here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-cli.js';
import { runAuditIn, useMcpSandbox } from './mcp-sandbox.js';

const CONFIG = readFileSync(path.join(REPO_ROOT, 'fixtures', 'mcp-hostile', 'secrets.mcp.json'), 'utf8');
const SECRETS = [...CONFIG.matchAll(/SECRET[A-Z]{4}\d{4}/g)].map((m) => m[0]);

const sandbox = useMcpSandbox();

describe('nerq audit --mcp never prints a configured secret', () => {
  it.each(['table', 'json', 'markdown', 'sarif'])('--format %s', async (format) => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(14);
    const server = await sandbox.start();
    for (const prefix of ['/npm/', '/npm-api/', '/pypi/', '/mcp-registry/', '/github/', '/osv/']) {
      server.fallback('GET', prefix, { status: 503, body: 'not recorded' });
      server.fallback('POST', prefix, { status: 503, body: 'not recorded' });
    }
    const where = sandbox.home({ '.mcp.json': CONFIG }, 'nerq-mcp-hostile-');
    const result = await runAuditIn(where, ['--mcp', '--format', format], server);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect([1, 3]).toContain(result.code);
    for (const secret of SECRETS) {
      expect(result.stdout, secret).not.toContain(secret);
      expect(result.stderr, secret).not.toContain(secret);
    }
    // Nor is one sent to a server nerq asks.
    for (const request of server.requests) for (const secret of SECRETS) expect(`${request.path} ${JSON.stringify(request.body ?? '')}`).not.toContain(secret);
  });
});

describe('nerq audit --mcp: a proxy is a package, and the server it connects to a remote', () => {
  // The argument shapes of mcp-remote's, mcp-proxy's and supergateway's READMEs (fixtures/PROVENANCE.md).
  const TOKEN = 'SECRETPROX0001';
  const servers = {
    remote: { command: 'npx', args: ['-y', 'mcp-remote@0.1.29', `https://mcp.proxied.example/s/${TOKEN}/sse?key=${TOKEN}`, '--header', `Authorization: Bearer ${TOKEN}`] },
    plain: { command: 'bunx', args: ['mcp-remote', 'http://mcp.plain.example/sse', '--allow-http'] },
    py: { command: 'uvx', args: ['mcp-proxy', '--headers', 'Authorization', `Bearer ${TOKEN}`, 'https://mcp.proxied.example/sse'] },
    gateway: { command: 'pnpm', args: ['dlx', 'supergateway', '--oauth2Bearer', TOKEN, '--sse', 'https://mcp.proxied.example/sse'] },
    here: { command: 'npx', args: ['mcp-remote', 'http://localhost:8931/sse'] },
    serve: { command: 'uvx', args: ['mcp-proxy', '--port', '8080', 'uvx', 'mcp-server-fetch'] },
    // VS Code's input variable: the URL is set when the client starts.
    vars: { command: 'npx', args: ['-y', 'mcp-remote', '${input:mcp-url}', '--header', `Authorization: Bearer ${TOKEN}`] },
  };
  it('each proxy package is evaluated, each remote judged (unverified, http fails), no token printed or sent', async () => {
    const server = await sandbox.start();
    for (const prefix of ['/npm/', '/npm-api/', '/pypi/', '/github/', '/osv/']) {
      server.fallback('GET', prefix, { status: 503, body: 'not recorded' });
      server.fallback('POST', prefix, { status: 503, body: 'not recorded' });
    }
    server.fallback('GET', '/mcp-registry/', { body: { servers: [], metadata: { count: 0 } } });
    const where = sandbox.home({ '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) }, 'nerq-mcp-proxies-');
    const result = await runAuditIn(where, ['--mcp', '--json'], server);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(result.stdout) as { entries: { subject: { ecosystem: string; name: string } }[]; warnings: { code: string; message: string; details: Record<string, unknown> }[] };
    expect([...new Set(report.entries.map((e) => `${e.subject.ecosystem}:${e.subject.name}`))].sort()).toEqual(['npm:mcp-remote', 'npm:supergateway', 'pypi:mcp-proxy']);
    const unverified = report.warnings.filter((w) => w.code === 'mcp-remote-unverified').map((w) => [w.details.server, w.details.origin, w.details.reason]);
    expect(unverified.sort()).toEqual([
      ['gateway', 'https://mcp.proxied.example', 'not-declared'],
      ['plain', 'http://mcp.plain.example', 'not-declared'],
      ['py', 'https://mcp.proxied.example', 'not-declared'],
      ['remote', 'https://mcp.proxied.example', 'not-declared'],
      ['vars', null, 'unreadable-url'],
    ]);
    expect(report.warnings.filter((w) => w.code === 'mcp-remote-insecure').map((w) => w.details.server)).toEqual(['plain']);
    expect(report.warnings.find((w) => w.code === 'mcp-remote-unverified' && w.details.server === 'remote')?.message).toContain('npm:mcp-remote');
    const notes = report.warnings.filter((w) => w.code === 'input-note').map((w) => w.message).join('\n');
    expect(notes).toMatch(/"here".*npm:mcp-remote.*http:\/\/localhost:8931/);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stderr).not.toContain(TOKEN);
    for (const request of server.requests) expect(`${request.path} ${JSON.stringify(request.body ?? '')}`).not.toContain(TOKEN);
  });
});

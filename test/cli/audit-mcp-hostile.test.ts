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
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { requireBuiltCli } from './helpers.js';
import { closeMcpHome, mcpHome, runAuditIn } from './mcp-sandbox.js';

const CONFIG = readFileSync(path.join(REPO_ROOT, 'fixtures', 'mcp-hostile', 'secrets.mcp.json'), 'utf8');
const SECRETS = [...CONFIG.matchAll(/SECRET[A-Z]{4}\d{4}/g)].map((m) => m[0]);

let server: FixtureServer | undefined;
let home = '';
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  if (server !== undefined) await server.close();
  await closeMcpHome(undefined, home);
  server = undefined;
  home = '';
});

describe('nerq audit --mcp never prints a configured secret', () => {
  it.each(['table', 'json', 'markdown', 'sarif'])('--format %s', async (format) => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(14);
    server = await startFixtureServer();
    for (const prefix of ['/npm/', '/npm-api/', '/pypi/', '/mcp-registry/', '/github/', '/osv/']) {
      server.fallback('GET', prefix, { status: 503, body: 'not recorded' });
      server.fallback('POST', prefix, { status: 503, body: 'not recorded' });
    }
    const where = mcpHome({ '.mcp.json': CONFIG }, 'nerq-mcp-hostile-');
    home = where.home;
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

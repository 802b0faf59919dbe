/**
 * `nerq serve` as a user starts it: the built CLI on a port the system picks, over real loopback
 * HTTP, with a token file; SIGTERM while a request is in flight lets it finish, then exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreflightSchema } from '../../src/serve/schemas.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { requireBuiltCli } from '../cli/helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv, runCli } from '../support/run-cli.js';
import { freshHome } from './support.js';

let server: FixtureServer;
let home: string;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  serveOsv(server, []);
  serveSynthetic(server, { name: 'nerq-serve-drain', version: '1.0.0' });
  home = freshHome();
});

afterAll(async () => {
  expectNoUnexpected(server);
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  origin: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

async function startServe(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve', ...args], { cwd: home, env: cliEnv(home, { server }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { child, origin, stdout: () => out, stderr: () => err, exit };
}

describe('nerq serve', () => {
  it('--port 0 prints the port; a token is required; SIGTERM drains the requests in flight and exits 0', async () => {
    const token = 'serve-token-2b7e151628aed2a6';
    const tokenFile = path.join(home, 'tokens');
    writeFileSync(tokenFile, `# tokens\n${token}\n`, { mode: 0o600 });
    // The packument answers slowly: the request is in flight when SIGTERM arrives.
    server.expect('GET', '/npm/nerq-serve-slow', { delayMs: 1_200, status: 404, body: { error: 'not found' }, times: 1 });
    const serve = await startServe(['--port', '0', '--token-file', tokenFile]);

    const denied = await fetch(`${serve.origin}/v1/preflight?target=chalk`);
    expect(denied.status).toBe(401);

    const ok = await fetch(`${serve.origin}/v1/preflight?target=nerq-serve-drain`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(PreflightSchema.strict().parse(await ok.json())).toMatchObject({ target: 'nerq-serve-drain', target_source: 'npm' });

    // Under load: 12 requests in flight (one slow evaluation shared by 10, and 2 batches), then SIGTERM.
    const auth = { authorization: `Bearer ${token}` };
    const inFlight = [
      ...Array.from({ length: 10 }, () => fetch(`${serve.origin}/v1/preflight?target=nerq-serve-slow`, { headers: auth })),
      ...Array.from({ length: 2 }, () =>
        fetch(`${serve.origin}/v1/preflight/batch`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ targets: ['nerq-serve-slow', 'nerq-serve-drain'] }) }),
      ),
    ];
    // Every one of them has reached the server (a request still in transit when SIGTERM arrives is refused, as it should be):
    // the first slow preflight evaluates, the other 9 and the batches' 2 join it, the batches' 2 drain targets reuse the answer above.
    await expect
      .poll(async () => ((await (await fetch(`${serve.origin}/healthz`)).json()) as { evaluations: { coalesced: number; reused: number } }).evaluations, { timeout: 10_000 })
      .toMatchObject({ coalesced: 11, reused: 2 });
    serve.child.kill('SIGTERM');
    const drained = await Promise.all(inFlight);
    expect(drained.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(PreflightSchema.parse(await drained[0]!.json()).recommendation).toBe('UNKNOWN');
    expect(await serve.exit).toBe(0);
    await expect(fetch(`${serve.origin}/healthz`)).rejects.toThrow();

    // stdout: the one line; the logs on stderr never hold the token.
    expect(serve.stdout()).toBe(`listening on ${serve.origin}\n`);
    expect(serve.stderr()).toContain('shutting down');
    expect(serve.stderr()).not.toContain(token);
    // The store was closed cleanly: the evaluation is in the history `nerq history` reads.
    const history = await runCli(['history', 'nerq-serve-drain', '--json'], { env: { HOME: home, XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_STATE_HOME: path.join(home, '.local', 'state'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_CONFIG_HOME: path.join(home, '.config') } });
    expect(JSON.parse(history.stdout).evaluations).toHaveLength(1);
  });

  it('bad options are a usage error (exit 2) before anything is bound', async () => {
    for (const args of [['--port', '70000'], ['--port', 'x'], ['--token-file', path.join(home, 'missing')], ['--log-level', 'loud'], ['--cors-origin', '*'], ['--cors-origin', 'https://app.example/'], ['--allowed-host', 'nerq.example:8787'], ['--allowed-host', 'http://nerq.example'], ['--max-connections', '0']]) {
      const result = await runCli(['serve', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^nerq: /);
      expect(result.stdout).toBe('');
    }
  });
});

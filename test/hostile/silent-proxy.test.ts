/**
 * Hostile world: a proxy that never answers. The proxy accepts every connection and then says
 * nothing — not to a CONNECT (https targets are tunnelled), not to a forwarded request (plain
 * http targets are not). Every agent nerq creates (direct, proxy, per origin) must carry the
 * same explicit timeouts, and the run deadline must cancel a request still waiting for its
 * connection: `--timeout` bounds the whole run whatever the proxy does.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { parseReport } from '../cli/helpers.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr, expectRssBounded, expectWithinDeadline } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const TIMEOUT_S = 4;

let proxy: Server;
let proxyUrl: string;
const sockets = new Set<Socket>();
let connections = 0;

beforeAll(async () => {
  requireCli();
  proxy = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // Read and never answer.
    socket.resume();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

/** Every endpoint on `scheme`, on hosts that only the proxy could reach. */
function endpoints(scheme: 'https' | 'http'): Record<string, string> {
  const host = (name: string) => `${scheme}://${name}.nerq-hostile.test`;
  return {
    NERQ_NPM_REGISTRY: `${host('registry')}/`,
    NERQ_NPM_PUBLIC_REGISTRY: `${host('public')}/`,
    NERQ_NPM_API_URL: host('api'),
    NERQ_OSV_API_URL: host('osv'),
    NERQ_GITHUB_API_URL: host('github'),
    NERQ_GITHUB_GRAPHQL_URL: `${host('github')}/graphql`,
    NERQ_PYPI_URL: host('pypi'),
    NERQ_PYPISTATS_URL: host('pypistats'),
  };
}

describe('a proxy that accepts connections and never answers', () => {
  const cases: [label: string, scheme: 'https' | 'http', variable: string][] = [
    ['https targets, tunnelled through HTTPS_PROXY (CONNECT)', 'https', 'HTTPS_PROXY'],
    ['http targets, forwarded through HTTP_PROXY', 'http', 'HTTP_PROXY'],
    ["npm's own https-proxy setting (npm_config_https_proxy)", 'https', 'npm_config_https_proxy'],
  ];
  it.concurrent.for(cases)('%s: the run ends at its deadline', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, scheme, variable], { task, expect }) => {
    noteCases(task);
    const env = { ...endpoints(scheme), [variable]: proxyUrl };
    const before = connections;
    const run = await runHostile(['check', 'chalk', '--json', '--timeout', String(TIMEOUT_S)], { env });
    const context = `${label}\nexit ${run.code}\nstderr: ${run.stderr.slice(0, 500)}`;
    // The proxy was really used (the test would prove nothing otherwise).
    expect(connections, context).toBeGreaterThan(before);
    expectWithinDeadline(task, run, TIMEOUT_S * 1000, context);
    expectCleanStderr(run.stderr, context);
    expectRssBounded(task, run, context);
    // The registry never answered: an error report (exit 3) that names the deadline.
    const report = parseReport(run.stdout);
    expect(run.code, context).toBe(3);
    expect(report.error?.code, context).toBe('registry-unavailable');
    expect(report.error?.message, context).toMatch(/deadline|timeout/i);
  });
});

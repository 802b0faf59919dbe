/**
 * A host that is down is not asked again within the run (host-health.ts): the bookkeeping on its
 * own, then the HTTP client against loopback servers that refuse, fail DNS, time out or answer 5xx.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostHealth, REPEATED_FAULTS, type HostDown } from '../../src/sources/http/host-health.js';
import { createHttpClient, type HttpClientOptions } from '../../src/sources/http/client.js';
import type { HttpClient, HttpResult } from '../../src/sources/http/types.js';
import { startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { refusingOrigin } from '../hostile/support/faults.js';

const url = (text: string) => new URL(text);

describe('host health bookkeeping', () => {
  it.for(['dns', 'refused', 'unreachable', 'tls'] as const)('a %s failure marks the whole host down at once, and says so once', (fault) => {
    const health = createHostHealth();
    const heard: HostDown[] = [];
    health.onDown((down) => heard.push(down));
    expect(health.failed(url('https://API.example/a'), fault, 'network', `${fault} for api.example`)).toBe(true);
    expect(health.failed(url('https://api.example/b'), fault, 'network', 'again')).toBe(false);
    expect(health.downFor(url('https://api.example/c/d'))).toEqual({ host: 'api.example', service: null, fault, reason: `${fault} for api.example`, kind: 'network' });
    expect(heard).toHaveLength(1);
    expect(health.downFor(url('https://other.example/a'))).toBeUndefined();
  });

  it.for(['timeout', 'server-error'] as const)('%s marks one service down after REPEATED_FAULTS in a row; the host\'s other services stay up', (fault) => {
    const scopeOf = (u: URL) => u.pathname.split('/')[1] ?? '';
    const health = createHostHealth({ scopeOf });
    for (let i = 1; i < REPEATED_FAULTS; i++) expect(health.failed(url('http://h/osv/x'), fault, 'timeout', 'slow')).toBe(false);
    expect(health.downFor(url('http://h/osv/y'))).toBeUndefined();
    expect(health.failed(url('http://h/osv/z'), fault, 'timeout', 'slow')).toBe(true);
    expect(health.down().map((d) => [d.host, d.service])).toEqual([['h', 'osv']]);
    expect(health.downFor(url('http://h/osv/y'))?.reason).toBe('slow');
    expect(health.downFor(url('http://h/github/y'))).toBeUndefined();
  });

  it('reset forgets outages and strikes: the hosts are asked again, and a later outage is told again', () => {
    const health = createHostHealth({ scopeOf: (u) => u.pathname.split('/')[1] ?? '' });
    const heard: HostDown[] = [];
    health.onDown((down) => heard.push(down));
    health.failed(url('https://a.example/x'), 'refused', 'network', 'refused');
    for (let i = 1; i < REPEATED_FAULTS; i++) health.failed(url('http://h/osv/x'), 'timeout', 'timeout', 'slow');
    health.reset();
    expect(health.down()).toEqual([]);
    expect(health.downFor(url('https://a.example/x'))).toBeUndefined();
    // The strikes before the reset do not count: one more timeout is not an outage.
    expect(health.failed(url('http://h/osv/x'), 'timeout', 'timeout', 'slow')).toBe(false);
    expect(health.failed(url('https://a.example/x'), 'refused', 'network', 'refused again')).toBe(true);
    expect(heard.map((d) => d.reason)).toEqual(['refused', 'refused again']);
  });

  it('connect timeouts in a row mark the whole host down', () => {
    const health = createHostHealth({ scopeOf: (u) => u.pathname });
    for (let i = 0; i < REPEATED_FAULTS; i++) health.failed(url(`http://h/p${i}`), 'connect-timeout', 'timeout', 'no connection');
    expect(health.down().map((d) => [d.host, d.service])).toEqual([['h', null]]);
    expect(health.downFor(url('http://h/other'))?.fault).toBe('connect-timeout');
  });

  it('an answer in between forgives the earlier timeouts', () => {
    const health = createHostHealth();
    for (let round = 0; round < 3; round++) {
      for (let i = 1; i < REPEATED_FAULTS; i++) health.failed(url('http://h/a'), 'timeout', 'timeout', 'slow');
      health.answered(url('http://h/b'));
    }
    expect(health.down()).toEqual([]);
  });

  it('a scope function that throws counts by host', () => {
    const health = createHostHealth({ scopeOf: () => { throw new Error('no'); } });
    for (let i = 0; i < REPEATED_FAULTS; i++) health.failed(url('http://h/a'), 'server-error', 'network', 'HTTP 503 from h');
    expect(health.down().map((d) => d.service)).toEqual(['h']);
  });
});

let root: string;
let servers: FixtureServer[];
let clients: HttpClient[];
let sleeps: number[];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'nerq-health-'));
  servers = [];
  clients = [];
  sleeps = [];
});

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});
expectNoUnexpectedRequests(() => servers);

function client(options: HttpClientOptions): HttpClient {
  const made = createHttpClient({
    timeouts: { connectMs: 2000, headersMs: 150, bodyMs: 2000 },
    retry: { baseDelayMs: 10 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    env: {},
    ...options,
  });
  clients.push(made);
  return made;
}

async function fixtureServer(): Promise<FixtureServer> {
  const server = await startFixtureServer({ root });
  servers.push(server);
  return server;
}


const reasonOf = (result: HttpResult): string => (result.ok ? `HTTP ${result.status}` : result.reason);

describe('the HTTP client and a host that is down', () => {
  it('a DNS failure is not retried, and the requests queued for that host are abandoned at once', async () => {
    const health = createHostHealth();
    const heard: HostDown[] = [];
    health.onDown((down) => heard.push(down));
    const http = client({ health });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => http.request({ url: `http://nerq-health-test.invalid/repos/a/b${i}` })),
    );
    expect(new Set(results.map(reasonOf))).toEqual(new Set(['DNS lookup failed for nerq-health-test.invalid']));
    expect(heard.map((d) => [d.host, d.fault])).toEqual([['nerq-health-test.invalid', 'dns']]);
    expect(sleeps).toEqual([]);
    // Asked again later in the run: refused without a lookup, with the same reason.
    expect(reasonOf(await http.request({ url: 'http://nerq-health-test.invalid/later' }))).toBe('DNS lookup failed for nerq-health-test.invalid');
  });

  it('a refused connection marks the host down without a retry', async () => {
    const health = createHostHealth();
    const http = client({ health });
    const origin = await refusingOrigin();
    const first = await http.request({ url: `${origin}/a` });
    expect(reasonOf(first)).toContain('connection refused');
    expect(sleeps).toEqual([]);
    expect(health.down().map((d) => d.fault)).toEqual(['refused']);
    const rest = await Promise.all(Array.from({ length: 20 }, () => http.request({ url: `${origin}/b` })));
    expect(new Set(rest.map(reasonOf))).toEqual(new Set([reasonOf(first)]));
  });

  it('a TLS failure (an https URL whose host does not speak TLS) marks the host down without a retry', async () => {
    const health = createHostHealth();
    const http = client({ health });
    // A server that answers in plain HTTP: the TLS handshake fails on its first bytes.
    const sockets: net.Socket[] = [];
    const plain = net.createServer((socket) => {
      sockets.push(socket);
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `https://127.0.0.1:${(plain.address() as net.AddressInfo).port}`;
      const first = await http.request({ url: `${origin}/a` });
      expect(reasonOf(first)).toMatch(/^TLS error with 127\.0\.0\.1:\d+ /);
      expect(sleeps).toEqual([]);
      expect(health.down().map((d) => d.fault)).toEqual(['tls']);
      const rest = await Promise.all(Array.from({ length: 20 }, () => http.request({ url: `${origin}/b` })));
      expect(new Set(rest.map(reasonOf))).toEqual(new Set([reasonOf(first)]));
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('503 answers in a row mark the host down: no request is sent to it afterwards', async () => {
    const server = await fixtureServer();
    server.expect('GET', '/osv/v1/vulns/A', { status: 503 });
    const health = createHostHealth();
    const http = client({ health });
    const first = await http.request({ url: `${server.url('osv')}/v1/vulns/A` });
    expect(first.ok).toBe(false);
    // Three attempts (two retries) were three 503s in a row.
    expect(server.requests).toHaveLength(REPEATED_FAULTS);
    expect(health.down().map((d) => [d.fault, d.service])).toEqual([['server-error', `127.0.0.1:${server.port}`]]);
    const again = await http.request({ url: `${server.url('osv')}/v1/vulns/A` });
    expect(reasonOf(again)).toBe(reasonOf(first));
    expect(server.requests).toHaveLength(REPEATED_FAULTS);
  });

  it('timeouts in a row mark the host down; a 404 between them does not', async () => {
    const server = await fixtureServer();
    server
      // undici checks a headers timeout on a coarse timer (ticks of about half a second): the
      // 150 ms timeout fires up to a second late, so the answer comes well after that.
      .expect('GET', '/github/slow', { delayMs: 5000 })
      .expect('GET', '/github/missing', { status: 404 });
    const health = createHostHealth();
    const http = client({ health });
    await http.request({ url: `${server.url('github')}/slow` });
    await http.request({ url: `${server.url('github')}/slow` });
    await http.request({ url: `${server.url('github')}/missing` });
    await http.request({ url: `${server.url('github')}/slow` });
    await http.request({ url: `${server.url('github')}/slow` });
    expect(health.down()).toEqual([]);
    await http.request({ url: `${server.url('github')}/slow` });
    expect(health.down().map((d) => [d.fault, d.kind])).toEqual([['timeout', 'timeout']]);
    const sent = server.requests.length;
    const refused = await http.request({ url: `${server.url('github')}/missing` });
    expect(refused.ok).toBe(false);
    expect(server.requests).toHaveLength(sent);
  });

  it('a service found down (5xx in a row) abandons the requests still queued for it; the host\'s other services are still asked', async () => {
    const server = await fixtureServer();
    server
      .expect('GET', '/osv/fail', { status: 503 })
      .expect('GET', '/osv/slow', { status: 200, body: { ok: true }, delayMs: 400 })
      .expect('GET', '/github/x', { status: 200, body: { ok: true } });
    const health = createHostHealth({ scopeOf: (u) => u.pathname.split('/')[1] ?? '' });
    const http = client({ health, retry: { retries: 0 } });
    // 3 failing requests and 29 slow ones take the origin's 32 connections; 40 more slow ones wait in the queue.
    const failing = Array.from({ length: REPEATED_FAULTS }, () => http.request({ url: `${server.url('osv')}/fail` }));
    const slow = Array.from({ length: 69 }, () => http.request({ url: `${server.url('osv')}/slow` }));
    await Promise.all([...failing, ...slow]);
    expect(health.down().map((d) => [d.fault, d.service])).toEqual([['server-error', 'osv']]);
    const sentSlow = server.requests.filter((r) => r.path === '/osv/slow').length;
    // Those already sent may finish; those still queued when it went down are not sent one by one.
    expect(sentSlow).toBeLessThanOrEqual(32);
    expect((await http.request({ url: `${server.url('github')}/x` })).ok).toBe(true);
  });

  it('after reset (a long-lived server asks the hosts again), a host found down before is asked again', async () => {
    const server = await fixtureServer();
    server.expect('GET', '/npm/x', { status: 200, body: { ok: true } });
    const health = createHostHealth();
    const http = client({ health });
    expect((await http.request({ url: `${server.url('npm')}/x` })).ok).toBe(true);
    // The host is found down (as a refused connection would), then forgotten.
    health.failed(new URL(`${server.url('npm')}/x`), 'refused', 'network', `connection refused by 127.0.0.1:${server.port}`);
    expect((await http.request({ url: `${server.url('npm')}/x` })).ok).toBe(false);
    health.reset();
    const again = await http.request({ url: `${server.url('npm')}/x` });
    expect(reasonOf(again)).toBe('HTTP 200');
  });

  it('one host down leaves the others alone', async () => {
    const server = await fixtureServer();
    server.expect('GET', '/npm/x', { status: 200, body: { ok: true } });
    const health = createHostHealth();
    const http = client({ health });
    await http.request({ url: 'http://nerq-health-test.invalid/x' });
    const result = await http.request({ url: `${server.url('npm')}/x` });
    expect(result.ok).toBe(true);
  });
});

/**
 * Issue 6 end to end: the local store across runs of the built CLI, sharing one
 * NERQ_CACHE_DIR. Requests are counted on the fixture server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, type RouteHandler } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { checkOf, expectPackage, parseReport, requireBuiltCli, sourceOf } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
beforeAll(() => requireBuiltCli());

async function setup(name = 'chalk', osv?: RouteHandler): Promise<{ server: FixtureServer; env: Record<string, string> }> {
  const server = await startFixtureServer();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-store-'));
  cleanups.push(async () => {
    expectNoUnexpected(server);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  expectPackage(server, name, osv === undefined ? {} : { osv });
  return { server, env: { NERQ_CACHE_DIR: dir } };
}

/** Requests other than GitHub's: its rate-limit 403 is never cached (the budget may have reset by the next run). */
const cacheable = (server: { requests: { path: string }[] }) => server.requests.filter((r) => !r.path.startsWith('/github/')).length;

/** The report without the GitHub source and checks (rate-limited online, "offline" offline). */
function withoutGithub(stdout: string): unknown {
  const report = parseReport(stdout);
  return {
    ...report,
    checks: report.checks.filter((c) => c.evidence.source !== 'github'),
    sources: report.sources.filter((s) => s.id !== 'github'),
  };
}

describe('the HTTP cache', () => {
  it('a second run within freshness sends no request and prints the same report', async () => {
    const { server, env } = await setup();
    const first = await runCli(['check', 'chalk', '--json', '--no-history'], { server, env });
    const requests = cacheable(server);
    expect(requests).toBeGreaterThan(0);
    const second = await runCli(['check', 'chalk', '--json', '--no-history'], { server, env });
    expect(cacheable(server), 'served from the store').toBe(requests);
    expect(second.stdout).toBe(first.stdout);
    expect(second.code).toBe(first.code);

    const stats = await runCli(['cache', 'stats', '--json'], { env });
    const parsed = JSON.parse(stats.stdout) as { entries: number; lastRun: { hits: number; misses: number } };
    expect(parsed.entries).toBeGreaterThan(0);
    // The one miss is GitHub's rate-limit 403, never cached.
    expect(parsed.lastRun.misses).toBe(1);
    expect(parsed.lastRun.hits).toBeGreaterThan(0);
  });

  it('--no-cache sends the requests again', async () => {
    const { server, env } = await setup();
    await runCli(['check', 'chalk', '--json', '--no-history'], { server, env });
    const requests = server.requests.length;
    await runCli(['check', 'chalk', '--json', '--no-history', '--no-cache'], { server, env });
    expect(server.requests.length).toBe(requests * 2);
  });

  it('--offline answers from the store with no request; what is not there is unknown', async () => {
    const { server, env } = await setup();
    const online = await runCli(['check', 'chalk', '--json', '--no-history'], { server, env });
    const requests = server.requests.length;
    const offline = await runCli(['check', 'chalk', '--json', '--no-history', '--offline', '--max-age', '0'], { server, env });
    expect(server.requests.length, 'offline never reaches the network').toBe(requests);
    expect(withoutGithub(offline.stdout)).toEqual(withoutGithub(online.stdout));
    expect(parseReport(offline.stdout).sources.find((s) => s.id === 'github')?.reason).toMatch(/offline/);

    const missing = await runCli(['check', 'express', '--json', '--offline'], { server, env });
    expect(server.requests.length).toBe(requests);
    expect(missing.code).toBe(3);
    expect(parseReport(missing.stdout).error?.message).toMatch(/offline/);
  });

  it('cache clear empties the cache', async () => {
    const { server, env } = await setup();
    await runCli(['check', 'chalk', '--json'], { server, env });
    const cleared = await runCli(['cache', 'clear'], { env });
    expect(cleared.code).toBe(0);
    const stats = JSON.parse((await runCli(['cache', 'stats', '--json'], { env })).stdout) as { entries: number };
    expect(stats.entries).toBe(0);
  });
});

describe('history', () => {
  it('records each evaluation, explains a move of 5 or more, and lists the runs', async () => {
    let advisory = false;
    const osv: RouteHandler = (_req, res, { body }) => {
      const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { name: string } }[] }).queries;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: queries.map((q) => (advisory && q.package.name === 'chalk' ? { vulns: [{ id: 'GHSA-test-hist-0001', modified: '2026-01-01T00:00:00Z' }] } : {})) }));
    };
    const { server, env } = await setup('chalk', osv);
    server.expect('GET', '/osv/v1/vulns/GHSA-test-hist-0001', {
      status: 200,
      body: JSON.stringify({
        id: 'GHSA-test-hist-0001',
        modified: '2026-01-01T00:00:00Z',
        summary: 'Synthetic high advisory',
        severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }],
        affected: [{ package: { ecosystem: 'npm', name: 'chalk' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.1.1' }] }] }],
      }),
    });

    const first = parseReport((await runCli(['check', 'chalk', '--json'], { server, env: { ...env, NERQ_NOW: '2026-10-02T00:00:00Z' } })).stdout);
    expect(first.previous).toBeNull();

    advisory = true;
    const result = await runCli(['check', 'chalk', '--json', '--no-cache'], { server, env: { ...env, NERQ_NOW: '2026-11-30T00:00:00Z' } });
    const second = parseReport(result.stdout);
    expect(second.previous).toMatchObject({ evaluatedAt: '2026-10-02T00:00:00.000Z', version: '4.1.0', score: first.score, grade: first.grade });
    expect(second.previous!.change).toBe(Math.round(((second.score as number) - (first.score as number)) * 10) / 10);
    expect(second.previous!.change).toBeLessThanOrEqual(-5);
    expect(second.previous!.movers.map((m) => m.id)).toEqual(expect.arrayContaining(['security', 'known-vulnerabilities']));
    expect(checkOf(second, 'known-vulnerabilities')).toMatchObject({ score: 30, status: 'fail' });

    // A third run with the same facts: the table says nothing changed since the second.
    const table = await runCli(['check', 'chalk'], { server, env: { ...env, NERQ_NOW: '2026-12-01T00:00:00Z' } });
    expect(table.stdout).toMatch(/◆ ±0\.0 since 2026-11-30 \(was \d+\.\d [A-F+]+, 4\.1\.0\)/);

    const history = await runCli(['history', 'chalk'], { env });
    expect(history.code).toBe(0);
    expect(history.stdout).toMatch(/^npm:chalk {2}[▁▂▃▄▅▆▇█]{3}$/m);
    expect(history.stdout).toContain('2026-10-02 00:00:00');
    expect(history.stdout).toContain('2026-11-30 00:00:00');
    const series = JSON.parse((await runCli(['history', 'chalk', '--json'], { env })).stdout) as { evaluations: { score: number }[] };
    expect(series.evaluations.map((e) => e.score)).toEqual([first.score, second.score, second.score]);
  });

  it('nerq score never prints previous, even when the store has history', async () => {
    const { server, env } = await setup();
    const dir = env.NERQ_CACHE_DIR!;
    const file = path.join(dir, 'e.json');
    await runCli(['check', 'chalk', '--json'], { server, env: { ...env, NERQ_NOW: '2026-10-02T00:00:00Z' } });
    const check = await runCli(['check', 'chalk', '--json', '--save-evidence', file], { server, env });
    expect(parseReport(check.stdout).previous).not.toBeNull();
    const score = await runCli(['score', file, '--json'], { env });
    expect(parseReport(score.stdout).previous).toBeNull();
    expect(sourceOf(parseReport(score.stdout), 'registry')?.status).toBe('ok');
  });

  it('history of an unknown target says so and exits 3; a bad target exits 2', async () => {
    const { env } = await setup();
    const none = await runCli(['history', 'left-pad'], { env });
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(/no evaluations of npm:left-pad/);
    const bad = await runCli(['history', '../x'], { env });
    expect(bad.code).toBe(2);
  });
});

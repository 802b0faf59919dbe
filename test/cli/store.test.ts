/**
 * End to end: the local store across runs of the built CLI, sharing one
 * NERQ_CACHE_DIR. Requests are counted on the fixture server.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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

  it('cache clear empties the cache and shrinks the store file; stats name the cap', async () => {
    const { server, env } = await setup();
    await runCli(['check', 'chalk', '--json'], { server, env });
    const full = JSON.parse((await runCli(['cache', 'stats', '--json'], { env })).stdout) as { file: string; bytes: number; capBytes: number; evicted: unknown };
    expect(full.capBytes).toBe(256 * 1024 * 1024);
    // What pruning to the cap dropped is counted too (test/store/stored-facts-cache.test.ts counts a real prune); none here.
    expect(full.evicted).toEqual({ entries: 0, bytes: 0 });
    const text = (await runCli(['cache', 'stats'], { env })).stdout;
    expect(text).toMatch(/kept to 256 MiB together/);
    expect(text).toMatch(/^evicted +0 entries, 0\.0 MiB /m);
    const before = statSync(full.file).size;
    const cleared = await runCli(['cache', 'clear'], { env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/; the store file is now \d+\.\d MiB\n$/);
    const stats = JSON.parse((await runCli(['cache', 'stats', '--json'], { env })).stdout) as { entries: number };
    expect(stats.entries).toBe(0);
    // The cleared pages went back to the file system (VACUUM), not kept as free pages.
    expect(statSync(full.file).size).toBeLessThan(before - full.bytes / 2);
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
    expect(table.stdout).toMatch(/◆ unchanged since 2026-11-30 \(\d+\.\d [A-F+]+, 4\.1\.0\)/);
    expect(table.stdout).not.toContain('±');

    const history = await runCli(['history', 'chalk'], { env });
    expect(history.code).toBe(0);
    // Scaled to the scores shown: the higher first run is the top block, the drop the bottom one.
    expect(history.stdout).toMatch(new RegExp(`^npm:chalk {2}█▁▁ {2}min ${(second.score as number).toFixed(1)} · max ${(first.score as number).toFixed(1)}$`, 'm'));
    expect(history.stdout).toContain('2026-10-02 00:00:00');
    expect(history.stdout).toContain('2026-11-30 00:00:00');
    expect(history.stdout).not.toContain('not shown');
    const series = JSON.parse((await runCli(['history', 'chalk', '--json'], { env })).stdout) as { evaluations: { score: number }[]; olderNotShown: boolean };
    expect(series.evaluations.map((e) => e.score)).toEqual([first.score, second.score, second.score]);
    expect(series.olderNotShown).toBe(false);

    // --limit: the newest n, and a line saying older ones were left out.
    const limited = await runCli(['history', 'chalk', '--limit', '2'], { env });
    expect(limited.code).toBe(0);
    expect(limited.stdout).not.toContain('2026-10-02 00:00:00');
    expect(limited.stdout).toContain('the last 2 evaluations; older ones are not shown (--limit N shows more)');
    const limitedJson = JSON.parse((await runCli(['history', 'chalk', '--json', '--limit', '2'], { env })).stdout) as { evaluations: unknown[]; olderNotShown: boolean };
    expect(limitedJson).toMatchObject({ olderNotShown: true });
    expect(limitedJson.evaluations).toHaveLength(2);
    const bad = await runCli(['history', 'chalk', '--limit', '0'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('nerq: --limit must be a whole number from 1 to 100000\n');
  });

  it('the same evaluation twice on one day adds one row; the next day, or a change, adds another', async () => {
    const { server, env } = await setup();
    const at = (now: string) => ({ ...env, NERQ_NOW: now });
    await runCli(['check', 'chalk', '--json'], { server, env: at('2026-11-30T08:00:00Z') });
    // The same evaluation at the very same time (a fixed clock) adds nothing either.
    await runCli(['check', 'chalk', '--json'], { server, env: at('2026-11-30T08:00:00Z') });
    const again = parseReport((await runCli(['check', 'chalk', '--json'], { server, env: at('2026-11-30T09:00:00Z') })).stdout);
    // Still compared with the first: nothing changed.
    expect(again.previous).toMatchObject({ evaluatedAt: '2026-11-30T08:00:00.000Z', change: 0 });
    await runCli(['check', 'chalk', '--json'], { server, env: at('2026-12-01T08:00:00Z') });
    const series = JSON.parse((await runCli(['history', 'chalk', '--json'], { env })).stdout) as { evaluations: { evaluatedAt: string }[] };
    expect(series.evaluations.map((e) => e.evaluatedAt)).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-01T08:00:00.000Z']);
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

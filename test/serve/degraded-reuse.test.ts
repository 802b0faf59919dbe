/**
 * `nerq serve` reuses a finished report for `--reuse` seconds only when every source answered: a
 * report a source was unavailable to answers again for a few seconds at most (docs/serve.md,
 * "Under load"), so a later request gets the full report once the source recovers.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serveSynthetic } from '../cli/audit-helpers.js';
import { downloadsPath, osvNoAdvisories } from '../cli/helpers.js';
import { startFixtureServer, useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from './support.js';

let server: FixtureServer;
/** Takes the synthetic package's download counts that the main server answers 404 instead. */
let elsewhere: FixtureServer;
let osvFailing = true;
const apps: TestApp[] = [];

useSharedFixtureServer(async (started) => {
  server = started;
  serveSynthetic(server, { name: 'nerq-degraded', version: '1.0.0' });
  serveSynthetic(server, { name: 'nerq-degraded-burst', version: '1.0.0' });
  // The stats service does not know this package: `downloads` is unavailable with `not-found`, a final answer.
  elsewhere = await startFixtureServer();
  serveSynthetic(server, { name: 'nerq-final-answer', version: '1.0.0' }, { stats: elsewhere });
  for (const period of ['last-week', 'last-year'] as const) server.expect('GET', downloadsPath(period, 'nerq-final-answer'), { status: 404 });
  server.route('POST', '/osv/v1/querybatch', (req, res, context) => {
    if (!osvFailing) return osvNoAdvisories(req, res, context);
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"unavailable"}');
  });
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

afterAll(async () => {
  await elsewhere?.close();
});

/** A server on a clock the test moves; services found down are asked again at once (the fault, not the health reset, is under test). */
function open(clock: { now: number }): TestApp {
  const made = testApp(server, { evaluator: { monotonicNow: () => clock.now, healthResetMs: 0 } });
  apps.push(made);
  return made;
}

async function report(app: TestApp, target: string) {
  const answer = await app.app.inject({ method: 'GET', url: `/v1/report?target=${target}` });
  expect(answer.statusCode).toBe(200);
  const body = answer.json<{ sources: Array<{ id: string; status: string; code?: string }> }>();
  return {
    osv: body.sources.find((s) => s.id === 'vulnerabilities')?.status,
    downloads: body.sources.find((s) => s.id === 'downloads')?.code ?? null,
    maxAge: Number(/max-age=(\d+)/.exec(String(answer.headers['cache-control']))?.[1]),
  };
}

describe('reuse of a report a source was unavailable to', () => {
  it('is not kept past a few seconds: once the source recovers the next request gets the full report, which is kept for --reuse', async () => {
    const clock = { now: 0 };
    const app = open(clock);
    osvFailing = true;
    const first = await report(app, 'nerq-degraded');
    expect(first.osv).toBe('unavailable');
    expect(first.maxAge).toBeLessThanOrEqual(5);

    osvFailing = false;
    clock.now += 6_000;
    const second = await report(app, 'nerq-degraded');
    expect(second.osv).toBe('ok');
    expect(second.maxAge).toBe(60);
    expect(app.evaluator.stats()).toMatchObject({ evaluations: 2, reused: 0 });

    clock.now += 30_000;
    expect((await report(app, 'nerq-degraded')).osv).toBe('ok');
    expect(app.evaluator.stats()).toMatchObject({ evaluations: 2, reused: 1 });
  });

  it('identical requests in flight still share one evaluation, and a burst right after it is answered from it', async () => {
    const clock = { now: 0 };
    const app = open(clock);
    osvFailing = true;
    const together = await Promise.all([report(app, 'nerq-degraded-burst'), report(app, 'nerq-degraded-burst')]);
    expect(together.map((r) => r.osv)).toEqual(['unavailable', 'unavailable']);
    expect(app.evaluator.stats()).toMatchObject({ evaluations: 1, coalesced: 1 });

    clock.now += 2_000;
    expect((await report(app, 'nerq-degraded-burst')).osv).toBe('unavailable');
    expect(app.evaluator.stats()).toMatchObject({ evaluations: 1, reused: 1 });
    osvFailing = false;
  });

  it('a source unavailable with a final answer (not-found) is kept for --reuse: asking again would not change it', async () => {
    const clock = { now: 0 };
    const app = open(clock);
    osvFailing = false;
    const first = await report(app, 'nerq-final-answer');
    expect(first).toMatchObject({ osv: 'ok', downloads: 'not-found', maxAge: 60 });
    clock.now += 30_000;
    expect((await report(app, 'nerq-final-answer')).downloads).toBe('not-found');
    expect(app.evaluator.stats()).toMatchObject({ evaluations: 1, reused: 1 });
  });
});

/**
 * The shared evaluator of long-lived front doors, against the fixture server: hosts found down
 * are asked again after the reset period, callers' deadlines do not end the evaluation, a full
 * queue refuses new targets at once.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CallerDeadlineError, coalesceKey, createEvaluator, QueueFullError } from '../../src/app/evaluator.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { parseTarget } from '../../src/app/targets.js';
import { serveSynthetic } from '../cli/audit-helpers.js';
import { osvNoAdvisories, osvNoRecords } from '../cli/helpers.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome, NOW } from '../serve/support.js';

let server: FixtureServer;
let osvFailing = true;
const opened: Array<{ runtime: Runtime; home: string }> = [];

useSharedFixtureServer((started) => {
  server = started;
  for (const name of ['nerq-eval-a', 'nerq-eval-b', 'nerq-eval-c', 'nerq-eval-d']) serveSynthetic(server, { name, version: '1.0.0' });
  server.route('POST', '/osv/v1/querybatch', (req, res, context) => {
    if (!osvFailing) return osvNoAdvisories(req, res, context);
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"unavailable"}');
  });
  server.expect('GET', '/npm/nerq-eval-slow', { delayMs: 800, status: 404, body: { error: 'not found' } });
  // A package the registry does not know is asked about by name: OSV holds no record for it.
  server.route('POST', '/osv/v1/query', osvNoRecords);
});

afterEach(async () => {
  for (const { runtime, home } of opened.splice(0)) {
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  }
});

function runtime(): Runtime {
  const home = freshHome();
  const made = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
  opened.push({ runtime: made, home });
  return made;
}

const osvRequests = () => server.requests.filter((r) => r.path === '/osv/v1/querybatch').length;

describe('coalesceKey', () => {
  it('a repository with an include-package choice is keyed apart from one without, or with another; other targets ignore it', () => {
    const repo = parseTarget('github:acme/widget');
    const keys = [coalesceKey(repo), coalesceKey(repo, { includePackage: { name: null } }), coalesceKey(repo, { includePackage: { name: 'widget' } }), coalesceKey(repo, { includePackage: { name: 'npm:widget' } })];
    expect(new Set(keys).size).toBe(4);
    expect(coalesceKey(repo, { includePackage: undefined })).toBe(keys[0]);
    const pkg = parseTarget('widget@3');
    expect(coalesceKey(pkg, { includePackage: { name: null } })).toBe(coalesceKey(pkg));
  });
});

describe('createEvaluator', () => {
  it('asks a service found down again once the reset period has passed', async () => {
    osvFailing = true;
    let clock = 0;
    const app = runtime();
    const evaluator = createEvaluator(app, { healthResetMs: 60_000, monotonicNow: () => clock });
    const first = await evaluator.evaluate(parseTarget('nerq-eval-a'));
    expect(first.report.sources.find((s) => s.id === 'vulnerabilities')?.status).toBe('unavailable');
    expect(app.activity.down().length).toBeGreaterThan(0);

    // Within the period: OSV is not asked.
    const before = osvRequests();
    clock += 30_000;
    await evaluator.evaluate(parseTarget('nerq-eval-b'));
    expect(osvRequests()).toBe(before);

    // After it, OSV (healed meanwhile) is asked again and answers.
    osvFailing = false;
    clock += 31_000;
    const healed = await evaluator.evaluate(parseTarget('nerq-eval-c'));
    expect(osvRequests()).toBeGreaterThan(before);
    expect(healed.report.sources.find((s) => s.id === 'vulnerabilities')?.status).toBe('ok');
    expect(app.activity.down()).toEqual([]);
  });

  it("a caller's deadline ends its wait, not the evaluation; a full queue refuses a new target before any request", async () => {
    osvFailing = false;
    const evaluator = createEvaluator(runtime(), { maxPending: 1 });
    const waiting = evaluator.evaluate(parseTarget('nerq-eval-slow'), AbortSignal.timeout(100));
    const patient = evaluator.evaluate(parseTarget('nerq-eval-slow'));
    await expect(waiting).rejects.toThrow(CallerDeadlineError);
    const requests = server.requests.length;
    await expect(evaluator.evaluate(parseTarget('nerq-eval-d'))).rejects.toThrow(QueueFullError);
    expect(server.requests.length).toBe(requests);
    expect((await patient).report.error?.code).toBe('not-found');
    expect(evaluator.stats()).toMatchObject({ evaluations: 1, coalesced: 1, refused: 1, pending: 0 });
  });
});

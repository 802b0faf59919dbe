/**
 * The use cases in process, against the fixture server: one runtime (one HTTP pool, one store,
 * one GitHub rate-limit switch) serving several calls, each with its own deadline — what a
 * long-lived front door does. The reports are the CLI's, byte for byte.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditProject, AuditInputError, prepareAudit } from '../../src/app/audit.js';
import { checkTargets } from '../../src/app/check.js';
import { historyKeyOf, readHistory } from '../../src/app/history.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { evidenceFromJson, EvidenceError, rescoreEvidence } from '../../src/app/score.js';
import { renderAuditJson } from '../../src/render/audit-json.js';
import { renderJson } from '../../src/render/json.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv, DEFAULT_NOW, runCli } from '../support/run-cli.js';
import { serveOsv, serveSynthetic, syntheticTarballPath, TempDirs } from '../cli/audit-helpers.js';
import { expectPackage, requireBuiltCli } from '../cli/helpers.js';

const NOW = new Date(DEFAULT_NOW);
let server: FixtureServer;
let home: string;
const runtimes: Runtime[] = [];
const dirs = new TempDirs();

/** A runtime configured as the CLI is in the tests: every endpoint at the fixture server, a fresh store. */
function runtime(extraEnv: Record<string, string> = {}): Runtime {
  const made = createRuntime({ env: cliEnv(home, { server, env: extraEnv }), cwd: home, clock: () => NOW });
  runtimes.push(made);
  return made;
}

const githubRequests = () => server.requests.filter((r) => r.path.startsWith('/github/'));

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'chalk');
  expectPackage(server, 'request');
  server.expect('GET', '/npm/nerq-slow', { delayMs: 2_000, status: 404, body: { error: 'not found' } });
  serveSynthetic(server, { name: 'nerq-app-one', version: '1.0.0' });
  serveSynthetic(server, { name: 'nerq-app-two', version: '2.1.0', deprecated: 'use nerq-app-one' });
  serveOsv(server, []);
});

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

afterAll(async () => {
  dirs.cleanUp();
});

function freshHome(): void {
  home = mkdtempSync(path.join(os.tmpdir(), 'nerq-app-'));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, dir), { recursive: true });
}

describe('checkTargets', () => {
  it('returns the report the CLI prints, with its evidence, and records history', async () => {
    freshHome();
    const app = runtime();
    const [outcome] = await checkTargets(app, { targets: [parseTarget('chalk')], gate: DEFAULT_GATE });
    expect(outcome?.report).toMatchObject({ verdictCode: 'caution', score: 74.1, gate: { passed: true, reasonDetails: [] } });
    expect(outcome?.evidence?.target.name).toBe('chalk');
    expect(outcome?.report.sources.find((s) => s.id === 'github')?.status).toBe('unavailable');

    const cli = await runCli(['check', 'chalk', '--json'], { server });
    expect(renderJson(outcome!.report, { pretty: true })).toBe(cli.stdout);

    await app.close();
    runtimes.splice(0);
    const again = runtime();
    const nextDay = new Date(NOW.getTime() + 86_400_000);
    const [second] = await checkTargets(again, { targets: [parseTarget('chalk')], gate: DEFAULT_GATE, now: nextDay });
    // The store of the first call holds it: the next day's call compares with it.
    expect(second?.report.previous).toMatchObject({ evaluatedAt: NOW.toISOString(), score: 74.1 });
    expect(readHistory(again.session.store!, historyKeyOf('chalk')).map((r) => r.score)).toEqual([74.1, 74.1]);
  });

  it('serves calls with their own deadlines over one pool: a call out of time does not end the next', async () => {
    freshHome();
    const app = runtime();
    const late = await checkTargets(app, { targets: [parseTarget('nerq-slow')], gate: DEFAULT_GATE, signal: AbortSignal.timeout(200) });
    expect(late[0]?.report.error?.code).toBe('registry-unavailable');
    expect(late[0]?.report.error?.message).toMatch(/run deadline reached/);
    const [ok] = await checkTargets(app, { targets: [parseTarget('request')], gate: DEFAULT_GATE, signal: AbortSignal.timeout(20_000) });
    expect(ok?.report).toMatchObject({ verdictCode: 'no', error: null });
    expect(ok?.report.caps.map((c) => c.id)).toEqual(['deprecated']);
  });

  it("shares GitHub's rate-limit switch between calls until the reset time", async () => {
    freshHome();
    const app = runtime();
    const before = githubRequests().length;
    await checkTargets(app, { targets: [parseTarget('chalk')], gate: DEFAULT_GATE });
    const first = githubRequests().length - before;
    expect(first).toBe(1);
    // Same instant: the limit still holds, GitHub is not asked again.
    const [held] = await checkTargets(app, { targets: [parseTarget('request')], gate: DEFAULT_GATE });
    expect(githubRequests().length - before).toBe(first);
    expect(held?.report.sources.find((s) => s.id === 'github')).toMatchObject({ status: 'unavailable', code: 'rate-limited', reason: expect.stringContaining('11:00 UTC') });
    // After the reset (11:00 UTC), a call asks again.
    await checkTargets(app, { targets: [parseTarget('request')], gate: DEFAULT_GATE, now: new Date('2026-11-30T12:00:00Z') });
    expect(githubRequests().length - before).toBe(first + 1);
  });
});

describe('rescoreEvidence', () => {
  it('gives back the report the evidence was collected for', async () => {
    freshHome();
    const [outcome] = await checkTargets(runtime(), { targets: [parseTarget('request')], gate: DEFAULT_GATE });
    const evidence = evidenceFromJson(JSON.parse(JSON.stringify(outcome!.evidence)));
    const [report] = rescoreEvidence(evidence, { gate: DEFAULT_GATE });
    expect(renderJson(report!, { pretty: true })).toBe(renderJson({ ...outcome!.report, previous: null }, { pretty: true }));
    expect(() => evidenceFromJson({ schemaVersion: 3 })).toThrow(EvidenceError);
  });

  it('evidence saved before source codes still loads: its unavailable source reads as unclassified; a saved code is kept', async () => {
    freshHome();
    const [outcome] = await checkTargets(runtime(), { targets: [parseTarget('request')], gate: DEFAULT_GATE });
    const saved = JSON.parse(JSON.stringify(outcome!.evidence)) as { sources: Record<string, unknown> };
    saved.sources.downloads = { status: 'unavailable', reason: 'saved by a nerq without source codes' };
    saved.sources.attestations = { status: 'unavailable', reason: 'attestations: HTTP 503', code: 'http-status' };
    const [report] = rescoreEvidence(evidenceFromJson(saved), { gate: DEFAULT_GATE });
    expect(report!.sources.find((s) => s.id === 'downloads')).toEqual({ id: 'downloads', status: 'unavailable', reason: 'saved by a nerq without source codes', code: 'unclassified' });
    expect(report!.sources.find((s) => s.id === 'attestations')).toMatchObject({ status: 'unavailable', code: 'http-status' });
    for (const source of report!.sources) expect(source.status === 'ok' ? source.code : typeof source.code).toBe(source.status === 'ok' ? undefined : 'string');
  });
});

describe('prepareAudit and auditProject', () => {
  const lockOf = (packages: { name: string; version: string }[]) => {
    const registry = server.url('npm');
    return JSON.stringify({
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: Object.fromEntries(packages.map((p) => [p.name, `^${p.version}`])) },
        ...Object.fromEntries(
          packages.map((p) => [`node_modules/${p.name}`, { version: p.version, resolved: `${registry}${syntheticTarballPath(p).slice('/npm'.length)}`, license: 'MIT' }]),
        ),
      },
    });
  };

  it('reads the project, evaluates every dependency and applies the policy: the report the CLI prints', async () => {
    freshHome();
    const dir = dirs.project({
      'package-lock.json': lockOf([
        { name: 'nerq-app-one', version: '1.0.0' },
        { name: 'nerq-app-two', version: '2.1.0' },
      ]),
    });
    const plan = await prepareAudit({ dir });
    expect(plan.subjects.map((s) => `${s.name}@${s.version}`).sort()).toEqual(['nerq-app-one@1.0.0', 'nerq-app-two@2.1.0']);
    const report = await auditProject(runtime(), plan, { gate: DEFAULT_GATE, signal: AbortSignal.timeout(60_000) });
    expect(report.summary).toEqual({ total: 2, passed: 1, failed: 1, ignored: 0, errors: 0, incomplete: 0 });
    const failed = report.entries.find((e) => e.policy.status === 'fail');
    expect(failed?.subject.name).toBe('nerq-app-two');
    expect(failed?.report.caps.map((c) => c.id)).toEqual(['deprecated']);
    expect(failed?.policy.failures.map((f) => f.rule)).toContain('capped');

    const cli = await runCli(['audit', dir, '--json'], { server });
    expect(cli.code).toBe(1);
    expect(renderAuditJson(report)).toBe(cli.stdout);
  });

  it('bad input is an AuditInputError before any request', async () => {
    const empty = dirs.project({ 'README.md': '# nothing to audit\n' });
    const requests = server.requests.length;
    await expect(prepareAudit({ dir: empty, dirLabel: 'empty' })).rejects.toThrow(AuditInputError);
    await expect(prepareAudit({ dir: dirs.project({ 'package-lock.json': '{ not json' }) })).rejects.toThrow(AuditInputError);
    expect(server.requests.length).toBe(requests);
  });
});

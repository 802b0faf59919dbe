/**
 * Hostile world, part 1: network faults (issue 8). Every source of an npm check (the
 * packument, the tarball, the downloads API, the attestations, OSV's querybatch and its
 * advisory records) meets every fault in support/faults.ts, one at a time, while the other
 * sources answer normally. The real CLI runs with `--json` and a short `--timeout`; each case
 * must end without a crash or a stack trace, within the deadline plus 1 s, with the source's checks
 * unknown for a reason naming the fault, every other check as in the healthy run, no
 * fabricated value, and the exit code the report's gate gives. The packument failing is an
 * error report (exit 3).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { parseReport, sourceOf } from '../cli/helpers.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { requireCli, runHostile, type HostileRun } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, contractExitCode, expectCleanStderr, expectRssBounded, expectWithinDeadline } from './support/expect.js';
import { ENDPOINT_FAULTS, FAULT_IDS, faultHandler, refusingOrigin, UNRESOLVABLE_ORIGIN, type FaultId } from './support/faults.js';
import { noteCases } from './support/metrics.js';
import { DEFAULT_REASONS, PACKAGE, SOURCES, type SourceRow } from './support/sources.js';

/**
 * The faults that can only end at the run deadline get a short one; the others a longer one,
 * so that on a loaded machine their own reason (not the deadline) is what the report names.
 */
const WAITING: readonly FaultId[] = ['timeout before headers', 'stall mid-body'];
const timeoutOf = (fault: FaultId | null): number => (fault !== null && WAITING.includes(fault) ? 3 : 10);
const argsFor = (fault: FaultId | null): string[] => ['check', PACKAGE, '--json', '--timeout', String(timeoutOf(fault))];

const servers = new Set<FixtureServer>();
async function server(): Promise<FixtureServer> {
  const s = await startFixtureServer();
  servers.add(s);
  return s;
}

beforeAll(() => requireCli());
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

/** The healthy run of each row's world (computed once, shared by the row's cases). */
const baselines = new Map<string, Promise<{ report: Report; run: HostileRun }>>();
function baselineOf(row: SourceRow): Promise<{ report: Report; run: HostileRun }> {
  let pending = baselines.get(row.id);
  if (pending === undefined) {
    pending = (async () => {
      const s = await server();
      row.world(s);
      const run = await runHostile(argsFor(null), { server: s });
      const report = parseReport(run.stdout);
      // GitHub (its stand-in answers 404) is not one of the rows yet: its state is its own.
      if (!report.sources.every((source) => source.status === 'ok' || source.id === 'github')) {
        throw new Error(`the healthy world of ${row.id} is not healthy: ${JSON.stringify(report.sources)}`);
      }
      if (s.unexpected.length > 0) throw new Error(`unexpected requests: ${JSON.stringify(s.unexpected)}`);
      return { report, run };
    })();
    baselines.set(row.id, pending);
  }
  return pending;
}

const scores = (report: Report, leaveOut: readonly string[] = []): [string, number | null][] =>
  report.checks.filter((c) => !leaveOut.includes(c.id)).map((c) => [c.id, c.score]);

interface Case {
  row: SourceRow;
  fault: FaultId;
}

const CASES: [string, Case][] = SOURCES.flatMap((row) =>
  FAULT_IDS.filter((fault) => !ENDPOINT_FAULTS.includes(fault) || row.pointAt !== undefined).map(
    (fault): [string, Case] => [`${row.id}: ${fault}`, { row, fault }],
  ),
);

describe('network faults, one source at a time', () => {
  it('the matrix covers every source and fault (endpoint faults only where a source has its own origin)', ({ expect }) => {
    const separable = SOURCES.filter((row) => row.pointAt !== undefined).length;
    expect(CASES).toHaveLength(SOURCES.length * FAULT_IDS.length - (SOURCES.length - separable) * ENDPOINT_FAULTS.length);
    for (const row of SOURCES) expect(row.pointAt !== undefined || typeof row.sharedOrigin === 'string', row.id).toBe(true);
  });

  it.concurrent.for(CASES)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, { row, fault }], { task, expect }) => {
    noteCases(task);
    const baseline = await baselineOf(row);
    const s = await server();
    const other = fault === 'redirect to another origin' ? await server() : undefined;

    let env: Record<string, string> = {};
    if (ENDPOINT_FAULTS.includes(fault)) {
      const origin = fault === 'DNS failure' ? UNRESOLVABLE_ORIGIN : await refusingOrigin();
      const pointed = row.pointAt?.(origin) ?? {};
      env = pointed.env ?? {};
      row.world(s, pointed.overrides);
    } else {
      // Declared first, the fault wins over the healthy route for the same path.
      for (const route of row.routes) {
        const handler = faultHandler(fault, { sample: row.sample(s, route), contentType: row.contentType, wrongShape: row.wrongShape, method: row.method }, other);
        if (handler !== undefined) s.route(row.method, route, handler);
        other?.expect(row.method, route, { body: row.sample(s, route), headers: { 'content-type': row.contentType } });
      }
      row.world(s);
    }

    const run = await runHostile(argsFor(fault), { server: s, env });
    const context = `${label}\nexit ${run.code}\nstderr: ${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expectWithinDeadline(task, run, timeoutOf(fault) * 1000, context);
    expectRssBounded(task, run, context);
    expect(s.unexpected, context).toEqual([]);
    const report = parseReport(run.stdout);
    expect(run.code, context).toBe(contractExitCode(report));
    const reason = row.reasons?.[fault] ?? DEFAULT_REASONS[fault];

    if (fault === 'redirect to another origin') {
      // Followed (registries redirect to CDNs), the answer used as if served directly.
      expect(other?.requests.length, context).toBeGreaterThan(0);
      expect(report.sources.map((source) => [source.id, source.status]), context).toEqual(baseline.report.sources.map((source) => [source.id, source.status]));
      expect(scores(report), context).toEqual(scores(baseline.report));
      expect(run.code, context).toBe(baseline.run.code);
      return;
    }

    if (row.fatal) {
      expect(run.code, context).toBe(3);
      expect(report.error?.code, context).toBe('registry-unavailable');
      expect(report.error?.message, context).toMatch(reason);
      expect(report).toMatchObject({ score: null, grade: null, verdictCode: 'unknown', gate: { passed: null } });
      return;
    }

    const source = sourceOf(report, row.reportSource);
    expect(source.status, context).toBe('unavailable');
    expect(source.reason, context).toMatch(reason);
    for (const id of row.unknownChecks) {
      const check = report.checks.find((c) => c.id === id);
      const healthy = baseline.report.checks.find((c) => c.id === id);
      expect(healthy?.score, `${id} is scored in the healthy run`).not.toBeNull();
      expect(check, context).toMatchObject({ score: null, status: 'unknown' });
      // Nothing made up in its place: an unknown check's evidence carries no count.
      expect(Object.values(check?.evidence ?? {}).filter((v) => typeof v === 'number'), `${context}\n${id}`).toEqual([]);
    }
    // Every other check reads other sources: exactly as in the healthy run.
    expect(scores(report, [...row.unknownChecks, ...row.mayChange]), context).toEqual(
      scores(baseline.report, [...row.unknownChecks, ...row.mayChange]),
    );
    expect(report.coverage, context).toBeLessThanOrEqual(baseline.report.coverage);
    row.also?.(report);
  });
});

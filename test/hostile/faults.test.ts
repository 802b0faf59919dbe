/**
 * Hostile world, part 1: network faults. Every source (npm: the packument, the
 * tarball, the downloads API, the attestations; OSV's querybatch and its advisory records;
 * PyPI: the project JSON, the Simple and Integrity APIs, the dependencies' JSON, pypistats;
 * GitHub: REST without a token, GraphQL with one) meets every fault in support/faults.ts, one
 * at a time, while the other sources answer normally (support/sources.ts has the rows and their
 * healthy worlds). The real CLI runs with `--json` and a short `--timeout`; each case must end
 * without a crash or a stack trace, within the deadline plus 1 s, with the source's checks
 * unknown for a reason naming the fault, every other check as in the healthy run, no
 * fabricated value, and the exit code the report's gate gives. The npm packument or the PyPI
 * project JSON failing is an error report (exit 3).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { parseReport, sourceOf } from '../cli/helpers.js';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../support/fixture-server.js';
import { requireCli, runHostile, type HostileRun } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, contractExitCode, expectCleanStderr, expectRssBounded, expectWithinDeadline } from './support/expect.js';
import { ENDPOINT_FAULTS, FAULT_IDS, faultHandler, refusingOrigin, UNRESOLVABLE_ORIGIN, type FaultId } from './support/faults.js';
import { noteCases, noteKnownFailure } from './support/metrics.js';
import { DEFAULT_REASONS, PACKAGE, routeSpecs, SOURCES, type Finding, type SourceRow } from './support/sources.js';

/**
 * The faults that can only end at the run deadline get a short one; the others a longer one,
 * so that on a loaded machine their own reason (not the deadline) is what the report names.
 * The short one must still leave the healthy sources time to answer: it is at least 3 s and at
 * least three times the row's healthy run (plus 1 s), so on a busy machine — where a run that
 * takes 0.3 s alone can take several seconds — the deadline ends only the faulted source.
 */
const WAITING: readonly FaultId[] = ['timeout before headers', 'stall mid-body'];
const HEALTHY_TIMEOUT_S = 10;
function timeoutOf(fault: FaultId, healthyWallMs: number): number {
  // A fault that ends on its own (a body over the cap read to its limit, a reset) must end by
  // itself, not by the deadline: it is given at least 30 s and twenty times the healthy run (on a
  // machine loaded by other work, reading 100 MB to the cap took more than 10 s), within the
  // test's own time limit.
  if (!WAITING.includes(fault)) return Math.min(90, Math.max(3 * HEALTHY_TIMEOUT_S, Math.ceil((20 * healthyWallMs) / 1000)));
  return Math.max(3, Math.ceil((3 * healthyWallMs) / 1000) + 1);
}
const argsFor = (row: SourceRow, timeoutS: number): string[] => ['check', row.target ?? PACKAGE, '--json', '--timeout', String(timeoutS)];

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

/** The run's JSON report; a run that printed none fails with what it said instead. */
function reportOf(run: HostileRun, label: string): Report {
  try {
    return parseReport(run.stdout);
  } catch (error) {
    throw new Error(`${label}: no JSON report (exit ${run.code}, ${String(error)})\nstdout: ${run.stdout.slice(0, 300)}\nstderr: ${run.stderr.slice(0, 1000)}`);
  }
}

/** The healthy run of each row's world (computed once, shared by the row's cases). */
const baselines = new Map<string, Promise<{ report: Report; run: HostileRun }>>();
function baselineOf(row: SourceRow): Promise<{ report: Report; run: HostileRun }> {
  let pending = baselines.get(row.id);
  if (pending === undefined) {
    pending = (async () => {
      const s = await server();
      row.world(s);
      const run = await runHostile(argsFor(row, HEALTHY_TIMEOUT_S), { server: s, env: row.env?.(s) ?? {} });
      const report = reportOf(run, `the healthy world of ${row.id}`);
      // Unless the row serves GitHub, GitHub goes to its stand-in (404): its state is its own.
      if (!report.sources.every((source) => source.status === 'ok' || (source.id === 'github' && row.servesGithub !== true))) {
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

/** The known finding a case has, if any (support/sources.ts `findings`), and whether it is deterministic there. */
const findingOf = (row: SourceRow, fault: FaultId): { finding: Finding; strict: boolean } | undefined => {
  const finding = row.findings?.find((f) => f.faults.includes(fault) || f.slowMachineFaults?.includes(fault) === true);
  return finding === undefined ? undefined : { finding, strict: finding.faults.includes(fault) };
};

/** Each finding's deterministic cases: the strict assertion that fails today, on the case's own run. */
const FINDING_CASES: [string, Case & { finding: Finding; caseLabel: string }][] = CASES.flatMap(([label, c]) => {
  const found = findingOf(c.row, c.fault);
  return found === undefined || !found.strict ? [] : [[`${label} — ${found.finding.title}`, { ...c, finding: found.finding, caseLabel: label }]];
});

interface CaseRun {
  run: HostileRun;
  report: Report;
  /** What the faulted server saw. */
  requests: RecordedRequest[];
  unexpected: FixtureServer['unexpected'];
  /** What the second server saw (the cross-origin redirect only). */
  otherRequests: number | undefined;
  /** The run's --timeout, in seconds. */
  timeoutS: number;
}

/** One run per case, shared by the case and its finding (whichever asks first starts it). */
const caseRuns = new Map<string, Promise<CaseRun>>();
function runCase(label: string, { row, fault }: Case): Promise<CaseRun> {
  let pending = caseRuns.get(label);
  if (pending === undefined) {
    pending = (async () => {
      const timeoutS = timeoutOf(fault, (await baselineOf(row)).run.wallMs);
      const s = await server();
      const other = fault === 'redirect to another origin' ? await server() : undefined;
      let env: Record<string, string> = row.env?.(s) ?? {};
      if (ENDPOINT_FAULTS.includes(fault)) {
        const origin = fault === 'DNS failure' ? UNRESOLVABLE_ORIGIN : await refusingOrigin();
        const pointed = row.pointAt?.(origin) ?? {};
        env = { ...env, ...pointed.env };
        row.world(s, pointed.overrides);
      } else {
        // Declared first, the fault wins over the healthy route for the same path.
        for (const { method, path } of routeSpecs(row)) {
          const handler = faultHandler(fault, { sample: row.sample(s, path), contentType: row.contentType, wrongShape: row.wrongShape, method }, other);
          if (handler !== undefined) s.route(method, path, handler);
          if (row.answer !== undefined) other?.route(method, path, row.answer);
          else other?.expect(method, path, { body: row.sample(s, path), headers: { 'content-type': row.contentType } });
        }
        row.world(s);
      }
      const run = await runHostile(argsFor(row, timeoutS), { server: s, env });
      return { run, report: reportOf(run, label), requests: [...s.requests], unexpected: [...s.unexpected], otherRequests: other?.requests.length, timeoutS };
    })();
    caseRuns.set(label, pending);
  }
  return pending;
}

describe('network faults, one source at a time', () => {
  it('the matrix covers every source and fault (endpoint faults only where a source has its own origin)', ({ expect }) => {
    const separable = SOURCES.filter((row) => row.pointAt !== undefined).length;
    expect(CASES).toHaveLength(SOURCES.length * FAULT_IDS.length - (SOURCES.length - separable) * ENDPOINT_FAULTS.length);
    for (const row of SOURCES) expect(row.pointAt !== undefined || typeof row.sharedOrigin === 'string', row.id).toBe(true);
    // Every finding names faults of its row's matrix (a fault the row does not run would hide it).
    for (const row of SOURCES) {
      for (const finding of row.findings ?? []) {
        for (const fault of [...finding.faults, ...(finding.slowMachineFaults ?? [])]) {
          expect(CASES.some(([, c]) => c.row === row && c.fault === fault), `${row.id}: ${fault}`).toBe(true);
        }
      }
    }
  });

  it.concurrent.for(CASES)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, c], { task, expect }) => {
    const { row, fault } = c;
    noteCases(task);
    const baseline = await baselineOf(row);
    const { run, report, unexpected, requests, otherRequests, timeoutS } = await runCase(label, c);
    const context = `${label}\nexit ${run.code}\nstderr: ${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expectWithinDeadline(task, run, timeoutS * 1000, context);
    expectRssBounded(task, run, context);
    expect(unexpected, context).toEqual([]);
    expect(run.code, context).toBe(contractExitCode(report));
    const reason = row.reasons?.[fault] ?? DEFAULT_REASONS[fault];

    if (fault === 'redirect to another origin') {
      // Followed (registries redirect to CDNs), the answer used as if served directly.
      expect(otherRequests, context).toBeGreaterThan(0);
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
    const answered = row.answeredFaults?.includes(fault) === true;
    // A body the server did serve can be an answer (a listing that is no provenance): ok, not unknown.
    expect(source.status, context).toBe(answered ? 'ok' : 'unavailable');
    if (!answered) expect(source.reason, context).toMatch(reason);
    for (const id of answered ? [] : row.unknownChecks) {
      const check = report.checks.find((c) => c.id === id);
      const healthy = baseline.report.checks.find((c) => c.id === id);
      expect(healthy?.score, `${id} is scored in the healthy run`).not.toBeNull();
      expect(check, context).toMatchObject({ score: null, status: 'unknown' });
      // Nothing made up in its place: an unknown check's evidence carries no count.
      expect(Object.values(check?.evidence ?? {}).filter((v) => typeof v === 'number'), `${context}\n${id}`).toEqual([]);
    }
    const leaveOut = [...row.unknownChecks, ...row.mayChange];
    if (findingOf(row, fault)?.finding.othersMayBeUnknown === true) {
      // A known finding holds other sources back (its own test below asserts they are not):
      // meanwhile each other check is as in the healthy run or unknown, never another value.
      const healthy = new Map(scores(baseline.report, leaveOut));
      for (const [id, score] of scores(report, leaveOut)) {
        if (score !== null) expect([id, score], context).toEqual([id, healthy.get(id)]);
      }
      expect(scores(report, leaveOut).map(([id]) => id), context).toEqual([...healthy.keys()]);
    } else {
      // Every other check reads other sources: exactly as in the healthy run.
      expect(scores(report, leaveOut), context).toEqual(scores(baseline.report, leaveOut));
    }
    expect(report.coverage, context).toBeLessThanOrEqual(baseline.report.coverage);
    row.also?.(report, { fault, requests });
  });
});

/**
 * Known findings (bugs outside this suite's files, reported to the lead): each asserts the
 * contract the case above cannot hold yet, and is expected to fail until the fix lands —
 * then Vitest reports it as passing unexpectedly, and `fails` is removed from its row.
 * Declared only while a finding is open: Vitest refuses a suite without tests.
 */
if (FINDING_CASES.length > 0) {
  describe('network faults: known findings (expected to fail until fixed)', () => {
    it.concurrent.fails.for(FINDING_CASES)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, c], { task }) => {
      noteKnownFailure(task);
      const baseline = await baselineOf(c.row);
      const { report, requests } = await runCase(c.caseLabel, c);
      c.finding.assert({ report, baseline: baseline.report, requests, leaveOut: [...c.row.unknownChecks, ...c.row.mayChange] });
    });
  });
}

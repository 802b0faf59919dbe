/**
 * One check of a typical package (`nerq check <name>`): cold (a fresh HOME, so an empty store)
 * and warm (the same HOME again), and a profiled cold run for where the time goes.
 *
 * Cold figures come from the server's request log: the dependent request rounds on the
 * critical path and the overhead (wall time − time spent waiting on that path); see
 * critical-path.ts for the definitions.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, runCli, type BenchContext, type CliRun, type Figure, type WorkloadResult } from '../context.js';
import { criticalPath } from '../critical-path.js';
import { locatorFor, summariseProfile, type CpuProfile, type ProfileSummary } from '../profile.js';
import type { RequestRecord } from '../server.js';
import { formatMs, formatSummary, median, summarise } from '../stats.js';
import { byRoute, showRequest } from '../requests.js';

export const TARGETS = { rounds: 4, overheadMs: 300, warmMs: 250 } as const;

interface ColdRun {
  run: CliRun;
  rounds: number;
  waitingMs: number;
  overheadMs: number;
  chain: RequestRecord[];
}

function analyse(run: CliRun): ColdRun {
  const path = criticalPath(run.requests);
  return { run, rounds: path.rounds, waitingMs: path.waitingMs, overheadMs: run.child.wallMs - path.waitingMs, chain: path.chain };
}

const byService = (requests: readonly RequestRecord[]): string =>
  Object.entries(
    requests.reduce<Record<string, number>>((acc, r) => {
      acc[r.service] = (acc[r.service] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([service, n]) => `${service} ${n}`)
    .join(', ');

export interface CheckOutcome {
  results: WorkloadResult[];
  /** The HOME the cold runs filled (the warm store), for reuse. */
  warmHome: string | null;
}

export async function checkWorkloads(ctx: BenchContext): Promise<CheckOutcome> {
  const target = ctx.world.model.checkTarget;
  const args = ['check', target.name];
  const cold: ColdRun[] = [];
  let lastHome: string | null = null;
  for (let i = -1; i < ctx.options.runs.cheap; i++) {
    const home = freshHome(ctx.tmp, 'check-cold');
    const run = await runCli(ctx, args, { home });
    if (!evaluatedExit(run.child) || run.child.stdout.trim() === '') {
      const failed: WorkloadResult = { id: 'check-cold', title: 'one check, cold', status: 'failed', reason: `nerq ${args.join(' ')}: ${describeExit(run.child)}${run.child.stdout.trim() === '' ? ', no report on stdout' : ''}`, figures: [], details: [] };
      return { results: [failed], warmHome: null };
    }
    if (i >= 0) cold.push(analyse(run));
    lastHome = home;
  }
  const results: WorkloadResult[] = [coldResult(ctx, cold)];

  // Warm: the store the last cold run filled.
  const warm: CliRun[] = [];
  for (let i = -1; i < ctx.options.runs.cheap && lastHome !== null; i++) {
    const run = await runCli(ctx, args, { home: lastHome });
    if (!evaluatedExit(run.child) || run.child.stdout.trim() === '') {
      results.push({ id: 'check-warm', title: 'one check, warm store', status: 'failed', reason: `${describeExit(run.child)}${run.child.stdout.trim() === '' ? ', no report on stdout' : ''}`, figures: [], details: [] });
      warm.length = 0;
      break;
    }
    if (i >= 0) warm.push(run);
  }
  if (warm.length > 0) results.push(warmResult(warm));

  results.push(await sanityAndProfile(ctx, args));
  return { results, warmHome: lastHome };
}

function coldResult(ctx: BenchContext, runs: ColdRun[]): WorkloadResult {
  const rounds = summarise(runs.map((r) => r.rounds));
  const overhead = summarise(runs.map((r) => r.overheadMs));
  const wall = summarise(runs.map((r) => r.run.child.wallMs));
  const waiting = summarise(runs.map((r) => r.waitingMs));
  // The run shown in detail: the one with the median overhead.
  const shown = [...runs].sort((a, b) => a.overheadMs - b.overheadMs)[runs.length >> 1] as ColdRun;
  const t0 = shown.run.child.startedAt;
  const unknown = shown.run.requests.filter((r) => !r.known);
  const count = (n: number) => String(Math.round(n));
  const figures: Figure[] = [
    {
      workload: 'one check, cold',
      figure: 'dependent request rounds (critical path)',
      target: `≤ ${TARGETS.rounds}`,
      value: formatSummary(rounds, count),
      met: rounds.median <= TARGETS.rounds,
    },
    {
      workload: 'one check, cold',
      figure: 'overhead = wall − waiting on the critical path',
      target: `≤ ${TARGETS.overheadMs} ms`,
      value: formatSummary(overhead),
      met: overhead.median <= TARGETS.overheadMs,
      note: `wall ${formatSummary(wall)}, waiting ${formatSummary(waiting)}, ${shown.run.requests.length} requests (${byService(shown.run.requests)})`,
    },
  ];
  const details = [
    `Target: \`nerq check ${ctx.world.model.checkTarget.name}\` (${ctx.world.model.checkTarget.versions.length} versions, ${Object.keys(ctx.world.model.checkTarget.dependencies).length} dependencies, a GitHub repository${ctx.options.githubToken ? ', GITHUB_TOKEN set' : ', no token'}).`,
    [
      `Critical path of the median run (${shown.rounds} rounds, waiting ${formatMs(shown.waitingMs)} of ${formatMs(shown.run.child.wallMs)} wall):`,
      '',
      '| # | request | starts at | took |',
      '| --- | --- | --- | --- |',
      ...shown.chain.map((r, i) => `| ${i + 1} | \`${showRequest(r)}\` | ${formatMs(r.start - t0)} | ${formatMs(r.end - r.start)} |`),
    ].join('\n'),
  ];
  details.push(`Requests of that run by route: ${byRoute(shown.run.requests)}.`);
  if (unknown.length > 0) details.push(`Routes the bench server does not implement (answered 404): ${[...new Set(unknown.map((r) => `\`${showRequest(r)}\``))].slice(0, 10).join(', ')}`);
  return { id: 'check-cold', title: 'one check, cold', status: 'ok', figures, details };
}

function warmResult(runs: CliRun[]): WorkloadResult {
  const wall = summarise(runs.map((r) => r.child.wallMs));
  const requests = runs.map((r) => r.requests.length);
  return {
    id: 'check-warm',
    title: 'one check, warm store',
    status: 'ok',
    figures: [
      {
        workload: 'one check, warm store',
        figure: 'process wall time',
        target: `≤ ${TARGETS.warmMs} ms`,
        value: formatSummary(wall),
        met: wall.median <= TARGETS.warmMs,
        note: `requests per warm run: ${median(requests)}`,
      },
    ],
    details: [],
  };
}

/** One cold `--json` run for the sources' statuses, and one profiled cold run. */
async function sanityAndProfile(ctx: BenchContext, args: string[]): Promise<WorkloadResult> {
  const details: string[] = [];
  const json = await runCli(ctx, [...args, '--json'], { home: freshHome(ctx.tmp, 'check-json') });
  try {
    const report = JSON.parse(json.child.stdout) as { score?: unknown; verdict?: unknown; coverage?: unknown; sources?: Array<{ id: string; status: string; reason?: string | null }> };
    const sources = (report.sources ?? []).map((s) => `${s.id}: ${s.status}${s.reason ? ` (${s.reason})` : ''}`);
    details.push(`Sanity (\`--json\` run): score ${String(report.score)}, verdict ${String(report.verdict)}, coverage ${String(report.coverage)}; sources — ${sources.join('; ')}.`);
  } catch {
    details.push(`Sanity (\`--json\` run): could not read the report (${describeExit(json.child)}).`);
  }

  const profileDir = path.join(ctx.tmp, `profile-${Date.now()}`);
  const run = await runCli(ctx, args, {
    home: freshHome(ctx.tmp, 'check-profile'),
    // The readable build of the same code: its module comments attribute the samples.
    cliBin: ctx.profileCliBin,
    extraEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=250` },
  });
  let summary: ProfileSummary | null = null;
  try {
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file !== undefined) {
      const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
      const urls = new Set(profile.nodes.map((n) => n.callFrame.url).filter((u) => u.startsWith('file://')));
      const files = new Map<string, string>();
      for (const url of urls) {
        try {
          files.set(url, readFileSync(fileURLToPath(url), 'utf8'));
        } catch {
          // a file that vanished: its frames stay unattributed
        }
      }
      summary = summariseProfile(profile, locatorFor(files));
    }
  } catch {
    summary = null;
  }
  if (summary === null) {
    return { id: 'check-profile', title: 'where the time goes (cold check)', status: 'failed', reason: `no CPU profile was written (${describeExit(run.child)})`, figures: [], details };
  }
  const network = criticalPath(run.requests);
  details.push(
    [
      `Where the time goes in one cold check (CPU profile, ${formatMs(run.child.wallMs)} wall under the profiler; network waiting on the critical path ${formatMs(network.waitingMs)}):`,
      '',
      '| bucket | time | share |',
      '| --- | --- | --- |',
      ...summary.buckets.map((b) => `| ${b.bucket} | ${formatMs(b.ms)} | ${(b.share * 100).toFixed(1)} % |`),
      '',
      `Modules with the most time: ${summary.modules
        .filter((m) => !m.module.startsWith('('))
        .slice(0, 8)
        .map((m) => `\`${m.module}\` ${formatMs(m.ms)}`)
        .join(', ')}.`,
    ].join('\n'),
  );
  const busy = summary.totalMs - (summary.buckets.find((b) => b.bucket === 'waiting (idle)')?.ms ?? 0);
  return {
    id: 'check-profile',
    title: 'where the time goes (cold check)',
    status: 'ok',
    figures: [
      {
        workload: 'one check, cold',
        figure: 'where the time goes',
        target: '(informational)',
        value: summary.buckets
          .filter((b) => b.share >= 0.05)
          .map((b) => `${b.bucket} ${Math.round(b.share * 100)} %`)
          .join(', '),
        met: null,
        note: `CPU busy ${formatMs(busy)} of ${formatMs(summary.totalMs)} profiled`,
      },
    ],
    details,
  };
}

/**
 * `nerq check <target> --compare --peers 12` (README, "Compared with its peers"): cold (a fresh
 * HOME) against a plain cold check of the same target, interleaved so both see the same machine,
 * and warm (the cold run's HOME again). The peers' evaluations run concurrently, so the cold
 * wall time should stay within 2× a single check's.
 */
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, runCli, type BenchContext, type CliRun, type WorkloadResult } from '../context.js';
import { formatSummary, median, summarise } from '../stats.js';

export const COMPARE_TARGETS = { peers: 12, coldRatio: 2 } as const;

interface Pair {
  plain: CliRun;
  compared: CliRun;
  home: string;
}

export async function compareWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const target = ctx.world.model.checkTarget.name;
  const plainArgs = ['check', target, '--json'];
  const compareArgs = ['check', target, '--json', '--compare', '--peers', String(COMPARE_TARGETS.peers)];
  const failed = (id: string, title: string, args: readonly string[], run: CliRun): WorkloadResult => ({
    id,
    title,
    status: 'failed',
    reason: `nerq ${args.join(' ')}: ${describeExit(run.child)}`,
    figures: [],
    details: [],
  });

  const pairs: Pair[] = [];
  for (let i = -1; i < ctx.options.runs.cheap; i++) {
    const plain = await runCli(ctx, plainArgs, { home: freshHome(ctx.tmp, 'compare-plain') });
    if (!evaluatedExit(plain.child)) return [failed('compare-cold', 'check --compare, cold', plainArgs, plain)];
    const home = freshHome(ctx.tmp, 'compare-cold');
    const compared = await runCli(ctx, compareArgs, { home });
    if (!evaluatedExit(compared.child)) return [failed('compare-cold', 'check --compare, cold', compareArgs, compared)];
    if (i >= 0) pairs.push({ plain, compared, home });
  }
  const report = (run: CliRun): { peers: number | null; reason: string | null } => {
    try {
      const json = JSON.parse(run.child.stdout) as { comparison?: { peers?: number } | null; comparisonUnavailable?: { reason?: string } };
      return { peers: json.comparison?.peers ?? null, reason: json.comparisonUnavailable?.reason ?? null };
    } catch {
      return { peers: null, reason: 'no JSON report' };
    }
  };
  const plainWall = summarise(pairs.map((p) => p.plain.child.wallMs));
  const coldWall = summarise(pairs.map((p) => p.compared.child.wallMs));
  const ratio = summarise(pairs.map((p) => p.compared.child.wallMs / p.plain.child.wallMs));
  const shown = report(pairs[0]!.compared);
  const searches = pairs[0]!.compared.requests.filter((r) => r.path.includes('/-/v1/search')).length;

  const warm: CliRun[] = [];
  const warmHome = pairs.at(-1)!.home;
  for (let i = -1; i < ctx.options.runs.cheap; i++) {
    const run = await runCli(ctx, compareArgs, { home: warmHome });
    if (!evaluatedExit(run.child)) return [failed('compare-warm', 'check --compare, warm store', compareArgs, run)];
    if (i >= 0) warm.push(run);
  }
  const warmWall = summarise(warm.map((r) => r.child.wallMs));
  const ratioText = (n: number) => `${n.toFixed(2)}×`;
  return [
    {
      id: 'compare-cold',
      title: 'check --compare, cold',
      status: 'ok',
      figures: [
        {
          workload: `check --compare --peers ${COMPARE_TARGETS.peers}, cold`,
          figure: 'wall time ÷ one cold check (interleaved runs)',
          target: `≤ ${COMPARE_TARGETS.coldRatio}×`,
          value: formatSummary(ratio, ratioText),
          met: ratio.median <= COMPARE_TARGETS.coldRatio,
          note: `--compare ${formatSummary(coldWall)}, plain ${formatSummary(plainWall)}; ${shown.peers === null ? `no comparison (${shown.reason ?? 'unknown'})` : `${shown.peers} peers compared`}, ${searches} search request, ${median(pairs.map((p) => p.compared.requests.length))} requests`,
        },
      ],
      details: [],
    },
    {
      id: 'compare-warm',
      title: 'check --compare, warm store',
      status: 'ok',
      figures: [
        {
          workload: `check --compare --peers ${COMPARE_TARGETS.peers}, warm store`,
          figure: 'process wall time',
          target: '(informational)',
          value: formatSummary(warmWall),
          met: null,
          note: `requests per warm run: ${median(warm.map((r) => r.requests.length))} (the search is not cached)`,
        },
      ],
      details: [],
    },
  ];
}

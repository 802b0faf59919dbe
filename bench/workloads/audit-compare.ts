/**
 * `nerq audit --compare` (README, "Compared with its peers"): the packages that fail the policy —
 * and only they, at most 10, the lowest scores first — get their standing among their peers.
 * The project is the smallest audit project; `--min-score 80` makes more than ten of its
 * packages fail, so the cap is reached and the run pays for the most comparisons an audit makes.
 *
 * Cold: a fresh HOME, each run interleaved with a plain cold audit of the same project and
 * policy (the ratio of their wall times is what --compare costs). Warm: the last cold run's HOME
 * again. Counted from the report and the server's log: comparisons, peer evaluations (the sum of
 * the compared entries' `comparison.peers`), search requests, and the upstream requests
 * --compare adds to the plain audit.
 */
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, runCli, type BenchContext, type CliRun, type WorkloadResult } from '../context.js';
import { formatSummary, median, summarise } from '../stats.js';
import { auditAvailable, writeProject } from './audit.js';

export const AUDIT_COMPARE = { minScore: 80, limit: 10 } as const;
/** The budget the workload needs (six pairs of audits and six warm runs on a loaded 2-core machine): skipped with less left. */
const NEEDS_MS = 75_000;

/** What the `--compare` report says: entries compared, peers evaluated for them, the cap's warning. */
export interface ComparedReport {
  entries: number;
  failing: number;
  compared: number;
  peers: number;
  skipped: number | null;
}

/** Reads a `nerq audit --json --compare` report; null when stdout is not one. Pure. */
export function readComparedReport(stdout: string): ComparedReport | null {
  try {
    const report = JSON.parse(stdout) as {
      entries?: Array<{ policy?: { status?: string }; report?: { comparison?: { peers?: number } | null; comparisonUnavailable?: unknown } }>;
      warnings?: Array<{ code?: string; details?: { skipped?: number } }>;
    };
    if (!Array.isArray(report.entries)) return null;
    const compared = report.entries.filter((e) => e.report?.comparison != null || e.report?.comparisonUnavailable != null);
    return {
      entries: report.entries.length,
      failing: report.entries.filter((e) => e.policy?.status === 'fail').length,
      compared: compared.length,
      peers: compared.reduce((sum, e) => sum + (e.report?.comparison?.peers ?? 0), 0),
      skipped: report.warnings?.find((w) => w.code === 'compare-limited')?.details?.skipped ?? null,
    };
  } catch {
    return null;
  }
}

const isSearch = (run: CliRun) => run.requests.filter((r) => r.service === 'npm' && r.path.split('?')[0] === '/npm/-/v1/search').length;

export async function auditCompareWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const size = Math.min(...ctx.options.auditSizes);
  const label = `audit --compare of ${size.toLocaleString('en-US')} packages`;
  const notRun = (id: string, title: string, status: 'not-available' | 'failed' | 'skipped', reason: string): WorkloadResult => ({ id, title, status, reason, figures: [], details: [] });
  if (ctx.remainingMs() < NEEDS_MS) {
    const why = `${Math.round(ctx.remainingMs() / 1000)} s of budget left, ${NEEDS_MS / 1000} s needed (\`--only audit-compare\` runs it alone)`;
    return [notRun('audit-compare-cold', `${label}, cold`, 'skipped', why), notRun('audit-compare-warm', `${label}, warm store`, 'skipped', why)];
  }
  const { available, status, reason } = await auditAvailable(ctx);
  if (!available) return [notRun('audit-compare-cold', `${label}, cold`, status, reason), notRun('audit-compare-warm', `${label}, warm store`, status, reason)];
  if (ctx.world.generated < size) await ctx.world.extend(size);
  const { dir } = writeProject(ctx, size);
  const policy = ['--min-score', String(AUDIT_COMPARE.minScore)];
  const plainArgs = ['audit', dir, '--json', ...policy];
  const compareArgs = [...plainArgs, '--compare'];
  const failed = (id: string, title: string, args: readonly string[], why: string): WorkloadResult[] => [notRun(id, title, 'failed', `nerq ${args.join(' ')}: ${why}`)];

  const pairs: Array<{ plain: CliRun; compared: CliRun; report: ComparedReport; home: string }> = [];
  for (let i = -1; i < ctx.options.runs.cheap; i++) {
    ctx.progress(`${label}, cold ${i < 0 ? 'warm-up' : `run ${i + 1}`}`);
    const plain = await runCli(ctx, plainArgs, { home: freshHome(ctx.tmp, 'audit-compare-plain'), cwd: dir });
    if (!evaluatedExit(plain.child)) return failed('audit-compare-cold', `${label}, cold`, plainArgs, describeExit(plain.child));
    const home = freshHome(ctx.tmp, 'audit-compare-cold');
    const compared = await runCli(ctx, compareArgs, { home, cwd: dir });
    const report = readComparedReport(compared.child.stdout);
    if (!evaluatedExit(compared.child) || report === null) return failed('audit-compare-cold', `${label}, cold`, compareArgs, report === null ? `no readable JSON report (${describeExit(compared.child)})` : describeExit(compared.child));
    if (i >= 0) pairs.push({ plain, compared, report, home });
  }
  const warm: CliRun[] = [];
  const warmHome = pairs.at(-1)!.home;
  for (let i = -1; i < ctx.options.runs.cheap; i++) {
    const run = await runCli(ctx, compareArgs, { home: warmHome, cwd: dir });
    if (!evaluatedExit(run.child)) return failed('audit-compare-warm', `${label}, warm store`, compareArgs, describeExit(run.child));
    if (i >= 0) warm.push(run);
  }

  const shown = pairs[0]!.report;
  const ratio = summarise(pairs.map((p) => p.compared.child.wallMs / p.plain.child.wallMs));
  const coldWall = summarise(pairs.map((p) => p.compared.child.wallMs));
  const plainWall = summarise(pairs.map((p) => p.plain.child.wallMs));
  const searches = median(pairs.map((p) => isSearch(p.compared)));
  const added = median(pairs.map((p) => p.compared.requests.length - p.plain.requests.length));
  const warmWall = summarise(warm.map((r) => r.child.wallMs));
  const ratioText = (n: number) => `${n.toFixed(2)}×`;
  const counted = `${shown.compared} of ${shown.failing} failing packages compared${shown.skipped === null ? '' : ` (${shown.skipped} skipped by the cap)`}, ${shown.peers} peer evaluations, ${searches} search requests`;
  return [
    {
      id: 'audit-compare-cold',
      title: `${label}, cold`,
      status: 'ok',
      figures: [
        {
          workload: `${label} (--min-score ${AUDIT_COMPARE.minScore}), cold`,
          figure: 'wall time ÷ the same audit without --compare (interleaved runs)',
          target: '(informational)',
          value: formatSummary(ratio, ratioText),
          met: null,
          note: `--compare ${formatSummary(coldWall)}, plain ${formatSummary(plainWall)}; ${counted}; +${added} upstream requests (median)`,
        },
        {
          workload: `${label}, cold`,
          figure: 'packages compared; search requests',
          target: `≤ ${AUDIT_COMPARE.limit}; 1 per compared package`,
          value: `${shown.compared}; ${searches}`,
          met: shown.compared <= AUDIT_COMPARE.limit && searches <= shown.compared,
          note: `${shown.peers} peer evaluations in the first run's report`,
        },
      ],
      details: [],
    },
    {
      id: 'audit-compare-warm',
      title: `${label}, warm store`,
      status: 'ok',
      figures: [
        {
          workload: `${label}, warm store`,
          figure: 'process wall time',
          target: '(informational)',
          value: formatSummary(warmWall),
          met: null,
          note: `requests per warm run: ${median(warm.map((r) => r.requests.length))}, of which search ${median(warm.map(isSearch))} (npm search answers are cached for an hour)`,
        },
      ],
      details: [],
    },
  ];
}

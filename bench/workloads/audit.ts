/**
 * `nerq audit` of a generated project (package.json + package-lock.json v3) of 100, 1,000 and
 * 5,000 packages: cold (fresh HOME), warm store (the same HOME again), peak RSS, and the
 * request counts that matter (OSV batches and advisory records, GitHub requests with a token).
 *
 * The audit command is detected first (`nerq audit --help`); without it every audit workload
 * is reported "not available" and the rest of the bench still runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, firstLine, runCli, type BenchContext, type CliRun, type Figure, type WorkloadResult } from '../context.js';
import { criticalPath } from '../critical-path.js';
import { buildProject, type Project } from '../generate/lockfile.js';
import type { RequestRecord } from '../server.js';
import { formatMs, formatSummary, growth, isLinearOrBetter, summarise } from '../stats.js';
import { byRoute, showRequest } from '../requests.js';

export const AUDIT_TARGETS = { coldMs: 8000, warmMs: 1500, rssMb: 250, osvBatches: 2, reposPerGithubRequest: 25 } as const;

export interface AuditCounts {
  total: number;
  osvBatches: number;
  osvRecords: number;
  github: number;
  npm: number;
  downloads: number;
  unknown: string[];
}

/** The request counts of one run, from its log. Pure. */
export function countRequests(requests: readonly RequestRecord[]): AuditCounts {
  const is = (r: RequestRecord, method: string, prefix: string) => r.method === method && r.path.startsWith(prefix);
  return {
    total: requests.length,
    osvBatches: requests.filter((r) => is(r, 'POST', '/osv/v1/querybatch')).length,
    osvRecords: requests.filter((r) => is(r, 'GET', '/osv/v1/vulns/')).length,
    github: requests.filter((r) => r.service === 'github').length,
    npm: requests.filter((r) => r.service === 'npm').length,
    downloads: requests.filter((r) => r.service === 'npm-api').length,
    unknown: [...new Set(requests.filter((r) => !r.known).map((r) => showRequest(r)))],
  };
}

interface AuditRun {
  run: CliRun;
  counts: AuditCounts;
  rounds: number;
  entries: number | null;
  /** `source: status` → count over every entry's report. */
  sources: Map<string, number>;
  /** Most common unavailable reasons. */
  reasons: Map<string, number>;
}

function analyse(run: CliRun): AuditRun {
  const sources = new Map<string, number>();
  const reasons = new Map<string, number>();
  let entries: number | null = null;
  try {
    const report = JSON.parse(run.child.stdout) as { entries?: Array<{ report?: { sources?: Array<{ id: string; status: string; reason?: string | null }> } }> };
    if (Array.isArray(report.entries)) {
      entries = report.entries.length;
      for (const entry of report.entries) {
        for (const s of entry.report?.sources ?? []) {
          sources.set(`${s.id}: ${s.status}`, (sources.get(`${s.id}: ${s.status}`) ?? 0) + 1);
          if (s.status === 'unavailable' && s.reason) reasons.set(`${s.id}: ${s.reason}`, (reasons.get(`${s.id}: ${s.reason}`) ?? 0) + 1);
        }
      }
    }
  } catch {
    entries = null;
  }
  return { run, counts: countRequests(run.requests), rounds: criticalPath(run.requests).rounds, entries, sources, reasons };
}

/** A run is killed when it overruns the budget by more than a minute (it then counts as failed). */
function childTimeout(ctx: BenchContext): number {
  return Math.max(60_000, ctx.remainingMs() + 60_000);
}

/** Why a run cannot count (it did not evaluate, or its report is not the project's), or null. */
function runProblem(run: AuditRun, size: number): string | null {
  if (!evaluatedExit(run.run.child)) return describeExit(run.run.child);
  if (run.entries === null) return `no readable JSON report on stdout (${describeExit(run.run.child)})`;
  if (run.entries !== size) return `the report has ${run.entries} entries for ${size} packages`;
  return null;
}

/** Whether this CLI has an `audit` command: yes, no (not there yet), or it crashed. */
export async function auditAvailable(ctx: BenchContext): Promise<{ available: boolean; status: 'not-available' | 'failed'; reason: string }> {
  const probe = await runCli(ctx, ['audit', '--help'], { home: freshHome(ctx.tmp, 'audit-probe') });
  if (probe.child.code === 0 && /audit/.test(probe.child.stdout)) return { available: true, status: 'failed', reason: '' };
  const why = firstLine(probe.child.stderr) || `exit ${probe.child.code}`;
  if (/unknown command/i.test(probe.child.stderr)) {
    return { available: false, status: 'not-available', reason: `the CLI has no \`audit\` command yet (\`nerq audit --help\`: ${why})` };
  }
  return { available: false, status: 'failed', reason: `\`nerq audit --help\` failed: ${why}` };
}

export function writeProject(ctx: BenchContext, size: number): { dir: string; project: Project } {
  const project = buildProject(ctx.world.model, size, ctx.world.registry, (spec, version) => ctx.world.integrityOf(spec, version));
  const dir = path.join(ctx.tmp, `project-${size}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), project.packageJson);
  writeFileSync(path.join(dir, 'package-lock.json'), project.packageLock);
  return { dir, project };
}

/** Where the warm-up run is filed in the runs map (sizes are positive, warm runs negative). */
const WARM_UP_KEY = 0;

/** `132 (npm 100, GitHub 32)`: the requests of a run by service. */
function requestSummary(c: AuditCounts): string {
  const parts = [
    ['npm', c.npm],
    ['downloads', c.downloads],
    ['OSV', c.osvBatches + c.osvRecords],
    ['GitHub', c.github],
  ].filter(([, n]) => (n as number) > 0);
  return `${c.total}${parts.length > 0 ? ` (${parts.map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`;
}

const notRun = (id: string, title: string, status: 'not-available' | 'failed', reason: string): WorkloadResult => ({ id, title, status, reason, figures: [], details: [] });

/**
 * The audit runs, most important first, so that a slow CLI still yields the headline figures
 * within the budget:
 *
 * 1. the smallest project once, as the warm-up (page cache, server, and the estimate of the
 *    time per package every later budget decision uses);
 * 2. the main (1,000) project cold, once — always run, it is the point of the bench;
 * 3. the same store warm, straight away (packuments stay fresh for minutes only): a warm-up
 *    and the runs — always at least one;
 * 4. more cold runs of the main project, then the largest project once (its bodies are
 *    generated just before, and that time is budgeted too), then the smallest project's runs
 *    (without them the growth table uses its warm-up run) — each only when its estimate, from
 *    the time per package of the biggest project measured so far, fits in the budget left.
 */
export async function auditWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const sizes = [...new Set(ctx.options.auditSizes)].sort((a, b) => a - b);
  const smallest = sizes[0] as number;
  const main = sizes[Math.min(1, sizes.length - 1)] as number;
  const largest = sizes.length > 2 ? (sizes.at(-1) as number) : null;
  const mainLabel = `audit of ${main.toLocaleString('en-US')} packages`;
  const { available, status, reason } = await auditAvailable(ctx);
  if (!available) {
    return [
      notRun('audit-cold', `${mainLabel}, cold`, status, reason),
      notRun('audit-warm', `${mainLabel}, warm store`, status, reason),
      notRun('audit-growth', 'audit growth', status, reason),
    ];
  }

  const runs = new Map<number, AuditRun[]>();
  const projects = new Map<number, Project>();
  const dirs = new Map<number, string>();
  const failures: string[] = [];
  const broken = new Set<number>();
  // ms per package of the latest cold run of each size; estimates use the biggest size measured
  // (a small project's start-up cost would overstate a big one).
  const perPackageMs = new Map<number, number>();
  const rateFor = (): number => {
    const biggest = Math.max(0, ...perPackageMs.keys());
    return perPackageMs.get(biggest) ?? 0;
  };

  const project = async (size: number): Promise<string> => {
    const known = dirs.get(size);
    if (known !== undefined) return known;
    if (ctx.world.generated < size) {
      ctx.progress(`generating the bodies of packages ${ctx.world.generated.toLocaleString('en-US')}–${size.toLocaleString('en-US')}`);
      await ctx.world.extend(size);
    }
    const written = writeProject(ctx, size);
    projects.set(size, written.project);
    dirs.set(size, written.dir);
    return written.dir;
  };

  /** One run; false when it failed (and the size is then given up). */
  const once = async (size: number, label: string, home: string, keep: AuditRun[] | null): Promise<boolean> => {
    if (broken.has(size)) return false;
    const dir = await project(size);
    ctx.progress(`audit ${size} ${label}`);
    const run = await runCli(ctx, ['audit', dir, '--json'], { home, cwd: dir, measureRss: true, timeoutMs: childTimeout(ctx) });
    const analysed = analyse(run);
    const problem = runProblem(analysed, size);
    if (problem !== null) {
      failures.push(`${size} packages, ${label}: ${problem}`);
      broken.add(size);
      return false;
    }
    if (!label.startsWith('warm')) perPackageMs.set(size, run.child.wallMs / size);
    keep?.push(analysed);
    return true;
  };

  /** Whether an optional run of `size` (plus `extraMs`) fits; records why not. */
  const fits = (size: number, label: string, extraMs = 0): boolean => {
    const estimate = rateFor() * size * 1.2 + extraMs;
    if (estimate <= ctx.remainingMs()) return true;
    failures.push(`${size} packages, ${label}: skipped, an estimated ${formatMs(estimate)} exceeds the ${formatMs(Math.max(0, ctx.remainingMs()))} left in the budget`);
    return false;
  };

  const coldList = (size: number): AuditRun[] => {
    const list = runs.get(size) ?? [];
    runs.set(size, list);
    return list;
  };

  // 1. Warm-up.
  // Kept aside: the growth table falls back on it when no other run of that size fits.
  const warmUp: AuditRun[] = [];
  if (smallest !== main) await once(smallest, 'cold warm-up', freshHome(ctx.tmp, `audit-${smallest}`), warmUp);
  runs.set(WARM_UP_KEY, warmUp);
  // 2. The main project, cold, once (its HOME becomes the warm store).
  const mainHome = freshHome(ctx.tmp, `audit-${main}`);
  const mainOk = await once(main, 'cold run 1', mainHome, coldList(main));
  // 3. Warm store, straight after.
  if (mainOk) {
    const warm = coldList(-main);
    const warmRuns = ctx.options.runs.audit;
    for (let i = -1; i < warmRuns; i++) {
      const label = i < 0 ? 'warm warm-up' : `warm run ${i + 1}/${warmRuns}`;
      const last = warm.at(-1)?.run.child.wallMs ?? 0;
      if (i >= 1 && last * 1.2 > ctx.remainingMs()) {
        failures.push(`${main} packages, ${label}: skipped, it would not fit in the budget`);
        break;
      }
      if (!(await once(main, label, mainHome, i < 0 ? null : warm))) break;
    }
  }
  // 4. Optional runs, most useful first.
  for (let i = 2; mainOk && i <= ctx.options.runs.audit; i++) {
    if (!fits(main, `cold run ${i}`)) break;
    if (!(await once(main, `cold run ${i}/${ctx.options.runs.audit}`, freshHome(ctx.tmp, `audit-${main}`), coldList(main)))) break;
  }
  if (largest !== null && !broken.has(main)) {
    // Generating the missing bodies takes about as long per package as the first ones did.
    const generation = (ctx.world.stats.generateMs / Math.max(1, ctx.world.generated)) * Math.max(0, largest - ctx.world.generated);
    if (fits(largest, 'cold run 1', generation)) await once(largest, 'cold run 1/1', freshHome(ctx.tmp, `audit-${largest}`), coldList(largest));
  }
  if (smallest !== main) {
    const smallRuns = Math.min(3, ctx.options.runs.cheap);
    for (let i = 1; i <= smallRuns; i++) {
      if (!fits(smallest, `cold run ${i}`)) break;
      if (!(await once(smallest, `cold run ${i}/${smallRuns}`, freshHome(ctx.tmp, `audit-${smallest}`), coldList(smallest)))) break;
    }
  }
  return report(ctx, sizes, main, runs, projects, failures);
}

function report(ctx: BenchContext, sizes: number[], main: number, runs: Map<number, AuditRun[]>, projects: Map<number, Project>, failures: string[]): WorkloadResult[] {
  const label = main.toLocaleString('en-US');
  const latency = `${ctx.options.latencyMs} ms latency`;
  const results: WorkloadResult[] = [];
  const cold = runs.get(main) ?? [];
  const warm = runs.get(-main) ?? [];
  const project = projects.get(main);
  const failed = (id: string, title: string): WorkloadResult => ({ id, title, status: 'failed', reason: failures.join('; ') || 'no run completed', figures: [], details: [] });

  if (cold.length === 0 || project === undefined) {
    results.push(failed('audit-cold', `audit of ${label} packages, cold`));
  } else {
    const wall = summarise(cold.map((r) => r.run.child.wallMs));
    const rss = cold.map((r) => r.run.child.peakRssKb).filter((v): v is number => v !== null);
    const rssMb = summarise(rss.map((kb) => kb / 1024));
    const counts = cold[cold.length - 1]!.counts;
    const githubLimit = Math.ceil(project.repositories / AUDIT_TARGETS.reposPerGithubRequest);
    const figures: Figure[] = [
      { workload: `audit of ${label} packages, cold, ${latency}`, figure: 'wall time', target: `≤ ${formatMs(AUDIT_TARGETS.coldMs)}`, value: formatSummary(wall), met: wall.median <= AUDIT_TARGETS.coldMs, note: `rounds on the critical path: ${formatSummary(summarise(cold.map((r) => r.rounds)), String)}` },
      {
        workload: `audit of ${label} packages, cold`,
        figure: 'peak RSS',
        target: `≤ ${AUDIT_TARGETS.rssMb} MB`,
        value: rss.length === 0 ? 'not measured' : formatSummary(rssMb, (mb) => `${Math.round(mb)} MB`),
        met: rss.length === 0 ? null : rssMb.median <= AUDIT_TARGETS.rssMb,
      },
      {
        workload: `audit of ${label} packages`,
        figure: 'OSV batch queries (+ advisory records)',
        target: `≤ ${AUDIT_TARGETS.osvBatches} batches (+ 1 per distinct advisory: ${project.advisories})`,
        value: `${counts.osvBatches} batches + ${counts.osvRecords} records`,
        met: counts.osvBatches <= AUDIT_TARGETS.osvBatches && counts.osvRecords <= project.advisories,
      },
      {
        workload: `audit of ${label} packages`,
        figure: `GitHub requests (token set; ${project.repositories} repositories)`,
        target: `≤ 1 per ${AUDIT_TARGETS.reposPerGithubRequest} repositories (≤ ${githubLimit})`,
        value: String(counts.github),
        met: counts.github <= githubLimit,
      },
    ];
    results.push({ id: 'audit-cold', title: `audit of ${label} packages, cold`, status: 'ok', figures, details: auditDetails(cold[cold.length - 1]!, project) });
  }

  if (warm.length === 0) {
    results.push(failed('audit-warm', `audit of ${label} packages, warm store`));
  } else {
    const wall = summarise(warm.map((r) => r.run.child.wallMs));
    results.push({
      id: 'audit-warm',
      title: `audit of ${label} packages, warm store`,
      status: 'ok',
      figures: [{ workload: `audit of ${label} packages, warm store`, figure: 'wall time', target: `≤ ${formatMs(AUDIT_TARGETS.warmMs)}`, value: formatSummary(wall), met: wall.median <= AUDIT_TARGETS.warmMs, note: `requests per warm run: ${requestSummary(warm[warm.length - 1]!.counts)}` }],
      details: warmDetails(warm[warm.length - 1]!),
    });
  }

  const warmUpRun = runs.get(WARM_UP_KEY)?.[0];
  const fellBack: number[] = [];
  const points = sizes.flatMap((size) => {
    let list = runs.get(size) ?? [];
    if (list.length === 0 && size === sizes[0] && warmUpRun !== undefined) {
      list = [warmUpRun];
      fellBack.push(size);
    }
    return list.length === 0 ? [] : [{ size, ms: summarise(list.map((r) => r.run.child.wallMs)).median, runs: list }];
  });
  const steps = growth(points);
  const linear = isLinearOrBetter(steps);
  const table = [
    '| packages | wall, median (min–max) | per package | peak RSS | requests | rounds |',
    '| --- | --- | --- | --- | --- | --- |',
    ...points.map((p) => {
      const wall = summarise(p.runs.map((r) => r.run.child.wallMs));
      const rss = p.runs.map((r) => r.run.child.peakRssKb).filter((v): v is number => v !== null);
      return `| ${p.size.toLocaleString('en-US')} | ${formatSummary(wall)} | ${formatMs(wall.median / p.size)} | ${rss.length === 0 ? '–' : `${Math.round(Math.max(...rss) / 1024)} MB`} | ${p.runs[0]!.counts.total} | ${p.runs[0]!.rounds} |`;
    }),
    '',
    ...steps.map((s) => `- ${s.fromSize.toLocaleString('en-US')} → ${s.toSize.toLocaleString('en-US')}: size ×${s.sizeRatio.toFixed(1)}, time ×${s.timeRatio.toFixed(2)} (${s.exponentFactor <= 1 ? 'better than linear' : `${((s.exponentFactor - 1) * 100).toFixed(0)} % worse than linear`})`),
  ].join('\n');
  const missing = sizes.filter((s) => !points.some((p) => p.size === s));
  results.push({
    id: 'audit-growth',
    title: 'audit growth',
    status: points.length >= 2 ? 'ok' : 'failed',
    ...(points.length >= 2 ? {} : { reason: failures.join('; ') || 'fewer than two sizes ran' }),
    figures:
      points.length >= 2
        ? [
            {
              workload: `audit at ${sizes.map((s) => s.toLocaleString('en-US')).join(', ')} packages`,
              figure: 'wall time growth',
              target: 'linear or better (10 % tolerance)',
              value: steps.map((s) => `×${s.timeRatio.toFixed(2)} for ×${s.sizeRatio.toFixed(0)}`).join(', ') + (missing.length > 0 ? ` (${missing.join(', ')} not run)` : ''),
              // Judged only on the whole series: a missing size leaves the question open.
              met: missing.length > 0 ? null : linear,
              ...(missing.length > 0 ? { note: `not run: ${missing.join(', ')} packages (${failures.join('; ')})` } : {}),
            },
          ]
        : [],
    details: points.length > 0 ? [table] : [],
  });
  if (fellBack.length > 0) results[results.length - 1]!.details.push(`The ${fellBack.join(', ')}-package point is the warm-up run: no other run of that size fitted in the budget.`);
  if (failures.length > 0) results[results.length - 1]!.details.push(`Notes: ${failures.join('; ')}.`);
  return results;
}

/** What a warm run still asked the network for (a warm store should need next to nothing). */
function warmDetails(run: AuditRun): string[] {
  if (run.run.requests.length === 0) return ['The warm run made no request.'];
  return [`Requests a warm run still made (${run.run.requests.length}): ${byRoute(run.run.requests)}; statuses ${[...new Set(run.run.requests.map((r) => r.status))].join(', ')}.`];
}

function auditDetails(run: AuditRun, project: Project): string[] {
  const c = run.counts;
  const lines = [
    `Project: ${project.count} packages, ${project.repositories} GitHub repositories, ${project.advisories} advisories affecting the pinned versions. Requests in one cold run: ${c.total} (npm ${c.npm}, downloads ${c.downloads}, OSV ${c.osvBatches} batches + ${c.osvRecords} records, GitHub ${c.github}); ${run.rounds} rounds on the critical path; report entries: ${run.entries ?? 'unreadable'}.`,
  ];
  lines.push(`Requests by route: ${byRoute(run.run.requests)}.`);
  const sources = [...run.sources].sort((a, b) => a[0].localeCompare(b[0])).map(([k, n]) => `${k} ×${n}`);
  if (sources.length > 0) lines.push(`Sources over all entries: ${sources.join(', ')}.`);
  const reasons = [...run.reasons].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, n]) => `${k} (×${n})`);
  if (reasons.length > 0) lines.push(`Most common reasons a source was unavailable: ${reasons.join('; ')}.`);
  if (c.unknown.length > 0) lines.push(`Routes the bench server does not implement (answered 404): ${c.unknown.slice(0, 10).map((u) => `\`${u}\``).join(', ')}.`);
  return lines;
}

/**
 * `nerq serve` with `include=alternatives` (docs/serve.md, "Alternatives"): the preflight also
 * names the peers scoring higher, found by npm's search and evaluated through the server's own
 * evaluator (coalesced, reused for the reuse window).
 *
 * Each round starts two servers on fresh HOMEs, so every round is cold:
 * - plain: 8 packages × 8 concurrent identical preflights, all at once, without the opt-in —
 *   the cold latency the comparison is weighed against;
 * - alternatives: the same 64 requests with `include=alternatives`: p50/p99 latency, search
 *   requests (target: one per package — concurrent identical requests coalesce into one
 *   comparison), evaluations and packument fetches (against the plain burst's: what the peers
 *   cost; a popular package's packument is also read as a dependency of others, so fetches per
 *   name are not one even without the opt-in);
 *   then warm: 320 requests over the same packages, 32 concurrent, with and without the opt-in
 *   (target: no search, no evaluation — the comparisons are reused).
 * Figures are medians over the rounds.
 */
import { freshHome } from '../child.js';
import type { BenchContext, Figure, WorkloadResult } from '../context.js';
import type { RequestRecord } from '../server.js';
import { formatMs, formatSummary, median, summarise, type Summary } from '../stats.js';
import { health, load, percentile, startServe, type Shot, type Started } from './serve.js';

const ID = 'serve-alternatives';
const TITLE = 'nerq serve, include=alternatives';
export const ALTERNATIVES_LOAD = { rounds: 3, packages: 8, perPackage: 8, warmRequests: 320, warmConcurrency: 32 } as const;
const QUERY = '&include=alternatives';
/** The budget the workload needs (three rounds on a loaded 2-core machine): skipped with less left. */
const NEEDS_MS = 60_000;

/** Upstream requests of a cold burst: search requests and full-packument fetches by package name. Pure. */
export function upstreamCounts(log: readonly RequestRecord[]): { searches: number; packuments: number; maxPerName: number } {
  let searches = 0;
  const perName = new Map<string, number>();
  for (const r of log) {
    if (r.service !== 'npm' || r.method !== 'GET') continue;
    const p = r.path.split('?')[0]!;
    if (p === '/npm/-/v1/search') searches++;
    else if (!p.includes('/-/')) {
      const name = decodeURIComponent(p.slice('/npm/'.length));
      perName.set(name, (perName.get(name) ?? 0) + 1);
    }
  }
  const counts = [...perName.values()];
  return { searches, packuments: counts.reduce((a, b) => a + b, 0), maxPerName: Math.max(0, ...counts) };
}

interface Round {
  plainCold: Shot[];
  plainCounts: { searches: number; packuments: number; maxPerName: number };
  plainEvaluations: number;
  cold: Shot[];
  counts: { searches: number; packuments: number; maxPerName: number };
  coldEvaluations: number;
  warm: { shots: Shot[]; wallMs: number };
  warmPlain: { shots: Shot[]; wallMs: number };
  warmSearches: number;
  warmEvaluations: number;
  /** Per package: how many alternatives its answer named, or why none. */
  answers: string[];
}

const errorsOf = (shots: readonly Shot[]) => shots.filter((s) => s.status !== 200).length;
const p = (shots: readonly Shot[], q: number) => percentile(shots.map((s) => s.ms), q);

async function burst(origin: string, targets: readonly string[], query: string): Promise<Shot[]> {
  const n = targets.length * ALTERNATIVES_LOAD.perPackage;
  return (await load(origin, targets, n, n, query)).shots;
}

async function answersOf(origin: string, targets: readonly string[]): Promise<string[]> {
  return Promise.all(
    targets.map(async (target) => {
      try {
        const res = await fetch(`${origin}/v1/preflight?target=${encodeURIComponent(target)}${QUERY}`);
        const body = (await res.json()) as { alternatives?: unknown[]; alternatives_unavailable?: { code?: string } | null };
        return body.alternatives_unavailable?.code ?? `${body.alternatives?.length ?? 0} named`;
      } catch {
        return 'no answer';
      }
    }),
  );
}

async function round(ctx: BenchContext, targets: readonly string[]): Promise<Round> {
  let plain: Started | null = await startServe(ctx, freshHome(ctx.tmp, 'serve-plain'));
  let plainCold: Shot[];
  let plainCounts: Round['plainCounts'];
  let plainEvaluations: number;
  try {
    ctx.server.resetLog();
    plainCold = await burst(plain.origin, targets, '');
    plainCounts = upstreamCounts(ctx.server.log);
    plainEvaluations = (await health(plain.origin)).evaluations;
  } finally {
    await plain.stop();
    plain = null;
  }
  const serve = await startServe(ctx, freshHome(ctx.tmp, 'serve-alternatives'));
  try {
    ctx.server.resetLog();
    const before = await health(serve.origin);
    const cold = await burst(serve.origin, targets, QUERY);
    const counts = upstreamCounts(ctx.server.log);
    const afterCold = await health(serve.origin);
    const answers = await answersOf(serve.origin, targets);
    await load(serve.origin, targets, 64, ALTERNATIVES_LOAD.warmConcurrency, QUERY);
    ctx.server.resetLog();
    const warm = await load(serve.origin, targets, ALTERNATIVES_LOAD.warmRequests, ALTERNATIVES_LOAD.warmConcurrency, QUERY);
    const warmSearches = upstreamCounts(ctx.server.log).searches;
    const afterWarm = await health(serve.origin);
    const warmPlain = await load(serve.origin, targets, ALTERNATIVES_LOAD.warmRequests, ALTERNATIVES_LOAD.warmConcurrency);
    return {
      plainCold,
      plainCounts,
      plainEvaluations,
      cold,
      counts,
      coldEvaluations: afterCold.evaluations - before.evaluations,
      warm,
      warmPlain,
      warmSearches,
      warmEvaluations: afterWarm.evaluations - afterCold.evaluations,
      answers,
    };
  } finally {
    await serve.stop();
  }
}

export async function serveAlternativesWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const targets = ctx.world.model.packages.slice(0, Math.min(ctx.world.generated, ALTERNATIVES_LOAD.packages)).map((pkg) => pkg.name);
  if (targets.length < ALTERNATIVES_LOAD.packages) return { id: ID, title: TITLE, status: 'skipped', reason: `fewer than ${ALTERNATIVES_LOAD.packages} generated packages`, figures: [], details: [] };
  if (ctx.remainingMs() < NEEDS_MS) {
    return { id: ID, title: TITLE, status: 'skipped', reason: `${Math.round(ctx.remainingMs() / 1000)} s of budget left, ${NEEDS_MS / 1000} s needed (\`--only serve-alternatives\` runs it alone)`, figures: [], details: [] };
  }
  const rounds: Round[] = [];
  const count = ALTERNATIVES_LOAD.rounds;
  for (let i = 0; i < count; i++) {
    ctx.progress(`${TITLE}, round ${i + 1} of ${count}`);
    try {
      rounds.push(await round(ctx, targets));
    } catch (error) {
      return { id: ID, title: TITLE, status: 'not-available', reason: (error as Error).message.split('\n')[0]!, figures: [], details: [] };
    }
  }
  const of = (pick: (r: Round) => number): Summary => summarise(rounds.map(pick));
  const ratio = (n: number) => `${n.toFixed(2)}×`;
  const concurrent = targets.length * ALTERNATIVES_LOAD.perPackage;
  const coldP50 = of((r) => p(r.cold, 50));
  const coldP99 = of((r) => p(r.cold, 99));
  const plainP50 = of((r) => p(r.plainCold, 50));
  const coldRatio = of((r) => p(r.cold, 50) / p(r.plainCold, 50));
  const coldErrors = rounds.reduce((n, r) => n + errorsOf(r.cold) + errorsOf(r.plainCold), 0);
  const searches = of((r) => r.counts.searches);
  const fetches = (pick: (r: Round) => Round['counts']) => `${median(rounds.map((r) => pick(r).packuments))} (at most ${median(rounds.map((r) => pick(r).maxPerName))} of one name)`;
  const warmP50 = of((r) => p(r.warm.shots, 50));
  const warmP99 = of((r) => p(r.warm.shots, 99));
  const warmRps = of((r) => (r.warm.shots.length / r.warm.wallMs) * 1000);
  const warmRatio = of((r) => p(r.warm.shots, 50) / p(r.warmPlain.shots, 50));
  const warmErrors = rounds.reduce((n, r) => n + errorsOf(r.warm.shots) + errorsOf(r.warmPlain.shots), 0);
  const warmSearches = Math.max(...rounds.map((r) => r.warmSearches));
  const warmEvaluations = Math.max(...rounds.map((r) => r.warmEvaluations));
  const answers = rounds[0]!.answers.map((a, i) => `${targets[i]}: ${a}`).join(', ');
  const roundsNote = `medians of ${rounds.length} rounds, each on fresh servers`;
  const figures: Figure[] = [
    {
      workload: 'serve, include=alternatives',
      figure: `cold: ${targets.length} packages × ${ALTERNATIVES_LOAD.perPackage} concurrent identical preflights (${concurrent} at once), p50 / p99`,
      target: '(informational)',
      value: `${formatSummary(coldP50)} / ${formatSummary(coldP99)}`,
      met: null,
      note: `${roundsNote}; ${coldErrors} errors; answers: ${answers}`,
    },
    {
      workload: 'serve, include=alternatives',
      figure: 'cold p50 ÷ the same burst without the opt-in (fresh server each)',
      target: '(informational)',
      value: formatSummary(coldRatio, ratio),
      met: null,
      note: `plain p50 ${formatSummary(plainP50)}; evaluations ${median(rounds.map((r) => r.coldEvaluations))} (plain ${median(rounds.map((r) => r.plainEvaluations))}); packument fetches ${fetches((r) => r.counts)} (plain ${fetches((r) => r.plainCounts)})`,
    },
    {
      workload: 'serve, include=alternatives',
      figure: `cold coalescing: search requests for the ${concurrent} requests`,
      target: `${targets.length} (1 per package), no error`,
      value: `${formatSummary(searches, String)}; ${coldErrors} errors`,
      met: searches.max <= targets.length && searches.min >= targets.length && coldErrors === 0,
    },
    {
      workload: 'serve, include=alternatives',
      figure: `warm: ${ALTERNATIVES_LOAD.warmRequests} preflights over the ${targets.length} packages, ${ALTERNATIVES_LOAD.warmConcurrency} concurrent, p50 / p99`,
      target: 'no search, no evaluation, no error',
      value: `${formatSummary(warmP50)} / ${formatSummary(warmP99)}; ${warmSearches} searches, ${warmEvaluations} evaluations, ${warmErrors} errors`,
      met: warmSearches === 0 && warmEvaluations === 0 && warmErrors === 0,
      note: `${roundsNote}; ${formatSummary(warmRps, (n) => n.toFixed(0))} req/s; p50 ÷ the same load without the opt-in ${formatSummary(warmRatio, ratio)}`,
    },
  ];
  return { id: ID, title: TITLE, status: 'ok', figures, details: [] };
}

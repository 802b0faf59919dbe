/**
 * `nerq serve` under load (docs/serve.md, "Under load"): the built CLI serving on a loopback
 * port, asked over real HTTP by the bench's own process.
 *
 * - cold coalescing: 32 concurrent preflights for one package nobody asked before — how many
 *   packument requests reach the registry (target: 1) and how long the answers take;
 * - cold, distinct: 16 packages × 8 concurrent requests each, all at once: one evaluation per
 *   package (target), no error;
 * - warm throughput: 640 preflights for packages already evaluated, 32 concurrent: requests/s,
 *   p50 and p99 latency, no error (answered by the evaluator's reuse window);
 * - warm re-evaluation: the same with `--reuse 0`, every request scored anew from the store's
 *   cached answers (what the reuse window saves).
 */
import { spawn } from 'node:child_process';
import { cliEnv, freshHome } from '../child.js';
import type { BenchContext, Figure, WorkloadResult } from '../context.js';
import { formatMs, median } from '../stats.js';

export const SERVE_TARGETS = { coldPackumentRequests: 1, warmRequestsPerS: 200 } as const;

export interface Started {
  origin: string;
  stop(): Promise<number | null>;
}

export async function startServe(ctx: BenchContext, home: string, extra: readonly string[] = []): Promise<Started> {
  const child = spawn(ctx.node, [ctx.cliBin, 'serve', '--port', '0', '--log-level', 'warn', '--max-queue', '1024', ...extra], {
    env: cliEnv({ home, origin: ctx.server.origin, now: ctx.options.now, githubToken: ctx.options.githubToken }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`nerq serve did not start: ${err.slice(0, 300)}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    origin,
    stop: async () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}

export interface Shot {
  status: number;
  ms: number;
}

async function preflight(origin: string, target: string, query: string): Promise<Shot> {
  const started = performance.now();
  try {
    const res = await fetch(`${origin}/v1/preflight?target=${encodeURIComponent(target)}${query}`);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** `total` requests for `targets` (round robin), `concurrency` at once; `query` is appended to each URL (`&include=…`). */
export async function load(origin: string, targets: readonly string[], total: number, concurrency: number, query = ''): Promise<{ shots: Shot[]; wallMs: number }> {
  const shots: Shot[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        shots.push(await preflight(origin, targets[i % targets.length]!, query));
      }
    }),
  );
  return { shots, wallMs: performance.now() - started };
}

export async function health(origin: string): Promise<{ evaluations: number; coalesced: number; reused: number }> {
  const res = await fetch(`${origin}/healthz`);
  return ((await res.json()) as { evaluations: { evaluations: number; coalesced: number; reused: number } }).evaluations;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function serveWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const names = ctx.world.model.packages.slice(0, Math.min(ctx.world.generated, 40)).map((p) => p.name);
  if (names.length < 18) return { id: 'serve', title: 'nerq serve under load', status: 'skipped', reason: 'fewer than 18 generated packages', figures: [], details: [] };
  const home = freshHome(ctx.tmp, 'serve');
  let serve: Started;
  try {
    serve = await startServe(ctx, home);
  } catch (error) {
    return { id: 'serve', title: 'nerq serve under load', status: 'not-available', reason: (error as Error).message.split('\n')[0]!, figures: [], details: [] };
  }
  const figures: Figure[] = [];
  const packumentRequests = (name: string) => ctx.server.log.filter((r) => r.service === 'npm' && decodeURIComponent(r.path.split('?')[0]!) === `/npm/${name}`).length;
  try {
    // Cold coalescing: one package, 32 at once.
    const coldTarget = names[0]!;
    ctx.server.resetLog();
    const cold = await load(serve.origin, [coldTarget], 32, 32);
    const coldErrors = cold.shots.filter((s) => s.status !== 200).length;
    const coldFetches = packumentRequests(coldTarget);
    figures.push({
      workload: 'serve',
      figure: 'cold coalescing: packument requests for 32 concurrent preflights of one package',
      target: `${SERVE_TARGETS.coldPackumentRequests}`,
      value: `${coldFetches} (${coldErrors} errors; answers in ${formatMs(median(cold.shots.map((s) => s.ms)))} median)`,
      met: coldFetches === SERVE_TARGETS.coldPackumentRequests && coldErrors === 0,
    });

    // Cold, distinct: 16 packages × 8 requests, all at once.
    const distinct = names.slice(1, 17);
    ctx.server.resetLog();
    const before = await health(serve.origin);
    const mixed = await load(serve.origin, distinct, distinct.length * 8, distinct.length * 8);
    const mixedErrors = mixed.shots.filter((s) => s.status !== 200).length;
    // A package's packument is also read as a dependency of others: count evaluations instead.
    const after = await health(serve.origin);
    const evaluations = after.evaluations - before.evaluations;
    figures.push({
      workload: 'serve',
      figure: 'cold, 16 distinct packages × 8 concurrent: evaluations',
      target: '16, no error',
      value: `${evaluations} (${after.coalesced - before.coalesced} coalesced; ${mixedErrors} errors in ${mixed.shots.length}; ${formatMs(mixed.wallMs)} wall)`,
      met: evaluations === distinct.length && mixedErrors === 0,
    });

    // Warm throughput: the 17 packages above, 640 requests, 32 concurrent.
    await load(serve.origin, names.slice(0, 17), 64, 32);
    const warm = await load(serve.origin, names.slice(0, 17), 640, 32);
    const warmErrors = warm.shots.filter((s) => s.status !== 200).length;
    const rps = (warm.shots.length / warm.wallMs) * 1000;
    const latencies = warm.shots.map((s) => s.ms);
    figures.push({
      workload: 'serve',
      figure: 'warm preflight throughput, 32 concurrent (640 requests, 17 packages)',
      target: `≥ ${SERVE_TARGETS.warmRequestsPerS} req/s, no error`,
      value: `${rps.toFixed(0)} req/s; p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))}; ${warmErrors} errors`,
      met: rps >= SERVE_TARGETS.warmRequestsPerS && warmErrors === 0,
    });
  } finally {
    const code = await serve.stop();
    figures.push({ workload: 'serve', figure: 'SIGTERM after the load: exit code', target: '0', value: String(code), met: code === 0 });
  }
  // The same warm load with no reuse window: every request scored anew from the warm store.
  try {
    const rescoring = await startServe(ctx, home, ['--reuse', '0']);
    try {
      const warm = await load(rescoring.origin, names.slice(0, 17), 160, 32);
      const latencies = warm.shots.map((s) => s.ms);
      figures.push({
        workload: 'serve',
        figure: 'warm, --reuse 0 (every request re-scored from the store), 32 concurrent, 160 requests',
        target: '(informational)',
        value: `${((warm.shots.length / warm.wallMs) * 1000).toFixed(0)} req/s; p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))}; ${warm.shots.filter((s) => s.status !== 200).length} errors`,
        met: null,
      });
    } finally {
      await rescoring.stop();
    }
  } catch (error) {
    figures.push({ workload: 'serve', figure: 'warm, --reuse 0', target: '(informational)', value: `failed: ${(error as Error).message.split('\n')[0]}`, met: null });
  }
  return { id: 'serve', title: 'nerq serve under load', status: 'ok', figures, details: [] };
}

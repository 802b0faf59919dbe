/**
 * `nerq audit` of a project with platform-binary packages (docs/security.md, "Memory"): a
 * generated 300-package project of which six are `@next/swc-*` packages whose tarballs carry a
 * 30–45 MiB incompressible native binary (as large on the wire: 33–43 MB is what the real ones
 * weigh). nerq reads every tarball as it streams and lets only a few large bodies stream at once
 * (large-bodies.ts): the target is the peak RSS of the whole audit, cold (fresh HOME), ≤ 400 MB.
 *
 * The world is generated for this workload (the main world has no binaries) and served by the
 * same server for the time of its runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, runCli, type BenchContext, type CliRun, type WorkloadResult } from '../context.js';
import { buildProject } from '../generate/lockfile.js';
import { generateWorld, tarballPath } from '../generate/world.js';
import { formatMs, formatSummary, summarise } from '../stats.js';
import { auditAvailable } from './audit.js';

export const HEAVY_TARGETS = { packages: 300, rssMb: 400, runs: 2 } as const;
/** The budget the workload needs (generation and two runs, on a loaded 2-core machine): skipped with less left. */
const NEEDS_MS = 120_000;
/** Which packages of the world are platform binaries (spread over the lockfile). */
export const BINARY_INDEXES = [12, 47, 95, 150, 210, 270] as const;

const ID = 'audit-binaries';
const TITLE = `audit of ${HEAVY_TARGETS.packages} packages with ${BINARY_INDEXES.length} platform binaries (30–45 MiB tarballs)`;

/** How many of the binary packages' tarballs the report says were read. */
function binariesRead(run: CliRun, names: ReadonlySet<string>): number | null {
  try {
    const report = JSON.parse(run.child.stdout) as { entries?: Array<{ report?: { target?: { name?: string }; sources?: Array<{ id: string; status: string }> } }> };
    return (report.entries ?? []).filter(
      (e) => names.has(e.report?.target?.name ?? '') && e.report?.sources?.some((s) => s.id === 'tarball' && s.status === 'ok'),
    ).length;
  } catch {
    return null;
  }
}

export async function heavyWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const { available, status, reason } = await auditAvailable(ctx);
  if (!available) return { id: ID, title: TITLE, status, reason, figures: [], details: [] };
  if (ctx.remainingMs() < NEEDS_MS) {
    const reason = `${Math.round(ctx.remainingMs() / 1000)} s of budget left, ${NEEDS_MS / 1000} s needed (\`--only heavy\` runs it alone)`;
    return { id: ID, title: TITLE, status: 'skipped', reason, figures: [], details: [] };
  }

  ctx.progress(`generating ${HEAVY_TARGETS.packages} packages with ${BINARY_INDEXES.length} platform binaries`);
  const world = await generateWorld(
    { seed: ctx.options.seed, count: HEAVY_TARGETS.packages, now: new Date(ctx.options.now), registry: ctx.world.registry, binaryIndexes: BINARY_INDEXES },
    Math.min(2, os.availableParallelism()),
  );
  const binaries = BINARY_INDEXES.map((i) => world.model.packages[i]!);
  const names = new Set(binaries.map((p) => p.name));
  const project = buildProject(world.model, HEAVY_TARGETS.packages, world.registry, (spec, version) => world.integrityOf(spec, version));
  const dir = path.join(ctx.tmp, 'project-binaries');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), project.packageJson);
  writeFileSync(path.join(dir, 'package-lock.json'), project.packageLock);
  const tarballMb = binaries.map((p) => (world.tarballs.get(tarballPath(p.name, p.locked))?.length ?? 0) / 1e6);

  const runs: CliRun[] = [];
  const failures: string[] = [];
  ctx.server.setWorld(world);
  try {
    for (let i = 0; i < HEAVY_TARGETS.runs; i++) {
      ctx.progress(`audit with platform binaries, cold ${i + 1}/${HEAVY_TARGETS.runs}`);
      const run = await runCli(ctx, ['audit', dir, '--json'], { home: freshHome(ctx.tmp, `binaries-${i}`), cwd: dir, measureRss: true, timeoutMs: Math.max(120_000, ctx.remainingMs() + 60_000) });
      if (!evaluatedExit(run.child)) failures.push(`run ${i + 1}: ${describeExit(run.child)}`);
      else runs.push(run);
    }
  } finally {
    ctx.server.setWorld(ctx.world);
  }
  if (runs.length === 0) return { id: ID, title: TITLE, status: 'failed', reason: failures.join('; ') || 'no run completed', figures: [], details: [] };

  const rss = runs.map((r) => r.child.peakRssKb).filter((v): v is number => v !== null);
  const rssMb = summarise(rss.map((kb) => kb / 1024));
  const wall = summarise(runs.map((r) => r.child.wallMs));
  const read = runs.map((r) => binariesRead(r, names));
  return {
    id: ID,
    title: TITLE,
    status: 'ok',
    figures: [
      {
        workload: `${TITLE}, cold`,
        figure: 'peak RSS',
        target: `≤ ${HEAVY_TARGETS.rssMb} MB`,
        value: rss.length === 0 ? 'not measured' : formatSummary(rssMb, (mb) => `${Math.round(mb)} MB`),
        met: rss.length === 0 ? null : rssMb.median <= HEAVY_TARGETS.rssMb,
        note: `binary tarballs read: ${read.map((n) => (n === null ? '?' : `${n}/${binaries.length}`)).join(', ')}`,
      },
      { workload: `${TITLE}, cold`, figure: 'wall time', target: 'informational', value: formatSummary(wall, formatMs), met: null },
    ],
    details: [
      `Platform binaries: ${binaries.map((p, i) => `${p.name}@${p.locked} (${tarballMb[i]!.toFixed(1)} MB)`).join(', ')}.` +
        (failures.length > 0 ? ` Failed runs: ${failures.join('; ')}.` : ''),
    ],
  };
}

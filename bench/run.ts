/**
 * `npm run bench`: generate the synthetic world, serve it on loopback with injected latency,
 * run every workload against the built CLI (bin/nerq.js → dist/), print the targets table and
 * write bench/RESULTS.md. Progress goes to stderr; the table to stdout.
 *
 *   node --import ./bench/register.ts bench/run.ts [--latency 40] [--connect-latency MS]
 *     [--seed 9] [--sizes 100,1000,5000] [--runs 5] [--audit-runs 3] [--budget 260]
 *     [--only startup,check,compare,audit,audit-compare,serve,serve-alternatives,outage,heavy] [--no-token] [--quick] [--out FILE | --no-write]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchContext, BenchOptions, WorkloadResult } from './context.js';
import { generateWorld } from './generate/world.js';
import { mergeResults, redactPaths, renderGenerated, renderStdout, selectionKey, type Environment } from './results.js';
import { startBenchServer } from './server.js';
import { formatMs } from './stats.js';
import { auditWorkloads } from './workloads/audit.js';
import { checkWorkloads } from './workloads/check.js';
import { auditCompareWorkloads } from './workloads/audit-compare.js';
import { compareWorkloads } from './workloads/compare.js';
import { OUTAGE_TARGETS, outageWorkloads } from './workloads/outage.js';
import { heavyWorkload } from './workloads/heavy.js';
import { serveWorkload } from './workloads/serve.js';
import { serveAlternativesWorkload } from './workloads/serve-alternatives.js';
import { startupWorkload } from './workloads/startup.js';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DEFAULT_NOW = '2026-11-30T00:00:00Z';
const USAGE = `usage: npm run bench -- [--latency MS] [--connect-latency MS] [--seed N] [--sizes 100,1000,5000]
                      [--runs N] [--audit-runs N] [--budget SECONDS] [--only startup,check,compare,audit,audit-compare,serve,serve-alternatives,outage,heavy]
                      [--no-token] [--quick] [--out FILE | --no-write]`;

class UsageError extends Error {}

/** The workload families `--only` selects, in the order they run. */
const WORKLOADS: readonly string[] = ['startup', 'check', 'compare', 'audit', 'audit-compare', 'serve', 'serve-alternatives', 'outage', 'heavy'];
/** What `--quick` runs when `--only` does not say: all but the comparisons (a minute or more each; `--only` runs them). */
const QUICK_WORKLOADS: readonly string[] = WORKLOADS.filter((w) => w !== 'audit-compare' && w !== 'serve-alternatives');

function positiveInt(value: string | undefined, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return n;
}

interface CliArgs {
  options: BenchOptions;
  only: Set<string>;
  /** The `--only` workloads as RESULTS.md's block key; null for a run of every workload. */
  selection: string | null;
  out: string | null;
}

export function parseCli(argv: string[]): CliArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      latency: { type: 'string' },
      'connect-latency': { type: 'string' },
      seed: { type: 'string' },
      sizes: { type: 'string' },
      runs: { type: 'string' },
      'audit-runs': { type: 'string' },
      budget: { type: 'string' },
      only: { type: 'string' },
      'no-token': { type: 'boolean' },
      quick: { type: 'boolean' },
      out: { type: 'string' },
      'no-write': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) throw new UsageError(USAGE);
  const quick = values.quick === true;
  const latencyMs = positiveInt(values.latency, 'latency', 40, 0);
  const sizes = (values.sizes ?? (quick ? '50,200' : '100,1000,5000')).split(',').map((s) => positiveInt(s.trim(), 'sizes', 0));
  const only = new Set((values.only ?? (quick ? QUICK_WORKLOADS : WORKLOADS).join(',')).split(',').map((s) => s.trim()));
  for (const name of only) if (!WORKLOADS.includes(name)) throw new UsageError(`--only: unknown workload ${name} (${WORKLOADS.join(', ')})`);
  return {
    options: {
      latencyMs,
      connectLatencyMs: positiveInt(values['connect-latency'], 'connect-latency', latencyMs, 0),
      seed: positiveInt(values.seed, 'seed', 9, 0),
      now: DEFAULT_NOW,
      auditSizes: sizes,
      runs: {
        cheap: positiveInt(values.runs, 'runs', quick ? 2 : 5),
        audit: positiveInt(values['audit-runs'], 'audit-runs', quick ? 1 : 3),
      },
      githubToken: values['no-token'] === true ? null : 'bench-token',
      budgetMs: positiveInt(values.budget, 'budget', 260) * 1000,
    },
    only,
    selection: values.only === undefined || WORKLOADS.every((w) => only.has(w)) ? null : selectionKey(only),
    out: values['no-write'] === true ? null : path.resolve(values.out ?? (quick ? path.join(os.tmpdir(), 'nerq-bench-RESULTS.md') : path.join(REPO_ROOT, 'bench', 'RESULTS.md'))),
  };
}

function checkNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 22)) {
    throw new UsageError(`Node ${process.versions.node} cannot run nerq; run the bench through npm (npm run bench), which uses the project's Node 24`);
  }
}

/**
 * A private copy of the built CLI (bin/, dist/ and package.json, which makes the .js files ES
 * modules): every run measures the same build, even if dist/ is rebuilt while the bench runs.
 * The bundle is self-contained, so nothing else is needed.
 */
function snapshotCli(tmp: string): string {
  const root = path.join(tmp, 'cli');
  mkdirSync(root, { recursive: true });
  for (const entry of ['bin', 'dist', 'package.json']) cpSync(path.join(REPO_ROOT, entry), path.join(root, entry), { recursive: true });
  return path.join(root, 'bin', 'nerq.js');
}

/**
 * The same CLI built readable (NERQ_READABLE_BUILD=1: not minified, so the bundler's module
 * comments stay), for the profiled run only: the shipped build is minified, and the profile
 * attributes its samples to source modules by those comments. Null when the build fails (the
 * profile then runs on the shipped build, unattributed).
 */
function readableCli(tmp: string): string | null {
  const root = path.join(tmp, 'cli-readable');
  const require = createRequire(import.meta.url);
  const tsupDir = path.dirname(require.resolve('tsup/package.json'));
  const tsupBin = (JSON.parse(readFileSync(path.join(tsupDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.tsup;
  if (tsupBin === undefined) return null;
  const built = spawnSync(process.execPath, [path.join(tsupDir, tsupBin)], {
    cwd: REPO_ROOT,
    env: { ...process.env, NERQ_READABLE_BUILD: '1', NERQ_BUILD_OUT: path.join(root, 'dist') },
    stdio: 'ignore',
  });
  if (built.status !== 0) return null;
  for (const entry of ['bin', 'package.json']) cpSync(path.join(REPO_ROOT, entry), path.join(root, entry), { recursive: true });
  return path.join(root, 'bin', 'nerq.js');
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const startedAt = performance.now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const { options, only, selection, out } = parseCli(argv);
  checkNode();
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli.js'))) throw new UsageError('dist/cli.js is missing: build the CLI first (npm run build)');
  const progress = (message: string) => process.stderr.write(`bench: ${message} (${((performance.now() - startedAt) / 1000).toFixed(0)} s)\n`);

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'nerq-bench-'));
  const server = await startBenchServer({ latencyMs: options.latencyMs, connectLatencyMs: options.connectLatencyMs });
  try {
    const cliBin = snapshotCli(tmp);
    const profileCliBin = only.has('check') ? readableCli(tmp) : null;
    // The model covers the largest project; bodies are built now up to the main (middle) size,
    // and for the largest project only if its run fits in the budget (see workloads/audit.ts).
    const sizes = [...options.auditSizes].sort((a, b) => a - b);
    // The outage workload's project has OUTAGE_TARGETS.packages packages of the same world.
    const count = Math.max(...sizes, only.has('outage') ? OUTAGE_TARGETS.packages : 0);
    const now = sizes[Math.min(1, sizes.length - 1)] as number;
    progress(`generating ${now.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} packages (seed ${options.seed})`);
    const world = await generateWorld({ seed: options.seed, count, bodies: now, now: new Date(options.now), registry: server.url('npm') }, Math.min(4, os.availableParallelism()));
    await world.extend(world.model.checkTarget.index + 1);
    server.setWorld(world);
    const describeWorld = () => {
      const big = world.stats.biggestPackuments;
      return `Generated ${world.generated.toLocaleString('en-US')} packages in ${formatMs(world.stats.generateMs)} (${Math.round(world.stats.packumentBytes / 1e6)} MB of packuments, the biggest ${big.map((b) => `${(b.bytes / 1e6).toFixed(1)} MB / ${b.versions} versions`).join(', ')}; ${Math.round(world.stats.tarballBytes / 1e6)} MB of tarballs; ${world.model.repositories.size} GitHub repositories and ${world.model.advisories.size} advisories in the model).`;
    };
    progress(describeWorld());

    const ctx: BenchContext = {
      options,
      server,
      world,
      node: process.execPath,
      cliBin,
      profileCliBin: profileCliBin ?? cliBin,
      repoRoot: REPO_ROOT,
      tmp,
      startedAt,
      progress,
      remainingMs: () => options.budgetMs - (performance.now() - startedAt),
    };
    const results: WorkloadResult[] = [];
    if (only.has('startup')) {
      progress('start-up');
      results.push(await startupWorkload(ctx));
    }
    if (only.has('check')) {
      progress(`one check (${world.model.checkTarget.name}), cold and warm`);
      results.push(...(await checkWorkloads(ctx)).results);
    }
    if (only.has('compare')) {
      progress(`check --compare (${world.model.checkTarget.name}), cold and warm`);
      results.push(...(await compareWorkloads(ctx)));
    }
    if (only.has('audit')) {
      progress('audits');
      results.push(...(await auditWorkloads(ctx)));
    }
    if (only.has('audit-compare')) {
      progress('audit --compare, cold and warm');
      results.push(...(await auditCompareWorkloads(ctx)));
    }
    if (only.has('serve')) {
      progress('nerq serve under load');
      results.push(await serveWorkload(ctx));
    }
    if (only.has('serve-alternatives')) {
      progress('nerq serve with include=alternatives');
      results.push(await serveAlternativesWorkload(ctx));
    }
    if (only.has('outage')) {
      progress('audits with the public APIs down');
      results.push(...(await outageWorkloads(ctx)));
    }
    if (only.has('heavy')) {
      progress('audit with platform binaries');
      results.push(await heavyWorkload(ctx));
    }

    const env: Environment = {
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      node: process.versions.node,
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      latencyMs: options.latencyMs,
      connectLatencyMs: options.connectLatencyMs,
      seed: options.seed,
      githubToken: options.githubToken !== null,
      generated: describeWorld(),
      benchSeconds: (performance.now() - startedAt) / 1000,
      load: [loadAtStart, os.loadavg()[0] ?? 0],
      command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    };
    const redact = (text: string) => redactPaths(text, { repoRoot: REPO_ROOT, tmp: os.tmpdir(), home: os.homedir() });
    process.stdout.write(redact(renderStdout(results, env)));
    if (out !== null) {
      const previous = existsSync(out) ? readFileSync(out, 'utf8') : null;
      writeFileSync(out, mergeResults(previous, redact(renderGenerated(results, env, selection)), selection));
      progress(`wrote ${path.relative(process.cwd(), out) || out}`);
    }
    return 0;
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  }
}

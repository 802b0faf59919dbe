/**
 * What every workload shares: the server and world, how to run the CLI against them (one run
 * = a child process plus the requests it made), the time budget, and the result types the
 * report is built from.
 */
import { cliEnv, runChild, type ChildResult } from './child.js';
import type { World } from './generate/world.js';
import type { BenchServer, RequestRecord } from './server.js';

export interface BenchOptions {
  latencyMs: number;
  connectLatencyMs: number;
  seed: number;
  /** NERQ_NOW for every run, and the generator's "now". */
  now: string;
  /** Sizes of the audit growth series; the middle one is "the 1,000-package audit". */
  auditSizes: number[];
  /** Runs after the warm-up: cheap workloads (start-up, one check) and the main audit. The largest audit runs once. */
  runs: { cheap: number; audit: number };
  githubToken: string | null;
  /** Wall-clock budget for the whole bench (ms, from start). */
  budgetMs: number;
}

export interface Figure {
  workload: string;
  figure: string;
  target: string;
  /** The measured value as printed. */
  value: string;
  /** Met, not met, or null when there is nothing to judge (not available, informational). */
  met: boolean | null;
  note?: string;
}

export interface WorkloadResult {
  id: string;
  title: string;
  status: 'ok' | 'not-available' | 'failed' | 'skipped';
  /** Why it is not ok (one line). */
  reason?: string;
  figures: Figure[];
  /** Markdown blocks for RESULTS.md (tables of details). */
  details: string[];
}

export interface CliRun {
  child: ChildResult;
  requests: RequestRecord[];
}

export interface BenchContext {
  options: BenchOptions;
  server: BenchServer;
  world: World;
  /** The Node binary that runs the CLI (the bench's own). */
  node: string;
  /** bin/nerq.js */
  cliBin: string;
  /** The same CLI built readable (run.ts), for the profiled run; cliBin when that build failed. */
  profileCliBin: string;
  repoRoot: string;
  /** Temporary root for homes, projects and profiles (removed at the end). */
  tmp: string;
  startedAt: number;
  progress(message: string): void;
  /** ms left in the budget. */
  remainingMs(): number;
}

/** Run `nerq <args>` with HOME `home`; the requests are the server's log for this run only. */
export async function runCli(
  ctx: BenchContext,
  args: readonly string[],
  options: { home: string; cwd?: string; measureRss?: boolean; extraEnv?: Record<string, string>; timeoutMs?: number; cliBin?: string },
): Promise<CliRun> {
  ctx.server.resetLog();
  const child = await runChild({
    command: ctx.node,
    args: [options.cliBin ?? ctx.cliBin, ...args],
    env: cliEnv({
      home: options.home,
      origin: ctx.server.origin,
      now: ctx.options.now,
      githubToken: ctx.options.githubToken,
      ...(options.extraEnv === undefined ? {} : { extra: options.extraEnv }),
    }),
    cwd: options.cwd ?? options.home,
    timeoutMs: options.timeoutMs ?? 600_000,
    ...(options.measureRss === undefined ? {} : { measureRss: options.measureRss }),
  });
  // A request the child abandoned is logged when its socket closes; give the loop a moment.
  for (let i = 0; i < 50 && ctx.server.inFlight() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return { child, requests: [...ctx.server.log] };
}

/**
 * The line of a child's stderr that says what went wrong: nerq's own one-line message, else an
 * error line of a crash (not the stack position above it), else the first line.
 */
export function firstLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const pick = lines.find((l) => l.startsWith('nerq:')) ?? lines.find((l) => /^(\w*Error\b|Error \[)/.test(l)) ?? lines[0] ?? '';
  return pick.slice(0, 200);
}

/** Exit codes of a run that evaluated something (0 pass, 1 fail the gate, 3 not evaluated). */
export function evaluatedExit(child: ChildResult): boolean {
  return !child.timedOut && (child.code === 0 || child.code === 1 || child.code === 3);
}

export function describeExit(child: ChildResult): string {
  if (child.timedOut) return 'killed after the timeout';
  if (child.signal !== null) return `killed by ${child.signal}`;
  const line = firstLine(child.stderr);
  return `exit ${child.code}${line === '' ? '' : `: ${line}`}`;
}

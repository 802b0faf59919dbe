/** Assertions every hostile case shares: no crash, no stack trace, bounded time and memory. */
import { expect } from 'vitest';
import type { Report } from '../../../src/report/schema.js';
import type { HostileRun } from './cli.js';
import { noteRss, noteTime } from './metrics.js';

export const MiB = 1024 * 1024;
/** Generous: a healthy `check` peaks near 150 MiB. */
export const RSS_BOUND_BYTES = 400 * MiB;
/** A test that runs the CLI: generous, for a loaded CI machine (the run's own bound is asserted inside). */
export const CLI_TEST_TIMEOUT_MS = 120_000;
/** Slack after the run deadline for the last answers, rendering, the store and exit. */
export const DEADLINE_SLACK_MS = 1000;

/** stderr holds only `nerq:` lines: no stack frame, no internal module path, no raw error dump. */
export function expectCleanStderr(stderr: string, context = ''): void {
  expect(stderr, context).not.toMatch(/^\s+at\s/m);
  expect(stderr, context).not.toMatch(/node:internal|\.[cm]?js:\d+:\d+/);
  for (const line of stderr.split('\n').filter((l) => l.trim() !== '')) expect(line, context).toMatch(/^nerq: /);
}

/**
 * The run ended within its deadline plus the slack: measured from the start of the run
 * deadline when the wrapper saw it (else from spawn, a stricter bound), less the time the
 * machine kept the CLI off the CPU (see support/measure-rss.mjs). A hang waits; it does not
 * queue for a CPU, so this still catches every one.
 */
export function expectWithinDeadline(task: { meta: object }, run: HostileRun, deadlineMs: number, context = ''): void {
  const measured = run.afterDeadlineMs === null ? run.wallMs : run.afterDeadlineMs - run.starvedMs;
  const bound = deadlineMs + DEADLINE_SLACK_MS;
  noteTime(task, measured, bound);
  expect(measured, `${context}: ${Math.round(measured)} ms after the deadline started`).toBeLessThanOrEqual(bound);
}

export function expectRssBounded(task: { meta: object }, run: HostileRun, context = ''): void {
  noteRss(task, run.peakRssBytes);
  expect(run.peakRssBytes, `${context}: the wrapper reported the peak RSS`).not.toBeNull();
  expect(run.peakRssBytes ?? Infinity, `${context}: peak RSS`).toBeLessThan(RSS_BOUND_BYTES);
}

/** The exit code README.md, "Exit codes" gives a single report: its gate passed 0, failed 1, not evaluated 3. */
export function contractExitCode(report: Report): number {
  return report.gate.passed === true ? 0 : report.gate.passed === false ? 1 : 3;
}

/** A refusal of bad input: exit 2, one clean `nerq:` line naming `where`, nothing on stdout. */
export function expectOneLineRefusal(run: { code: number | null; stdout: string; stderr: string }, where: RegExp, context = ''): void {
  expect(run.code, context).toBe(2);
  expectCleanStderr(run.stderr, context);
  expect(run.stderr.trim().split('\n'), context).toHaveLength(1);
  expect(run.stderr, context).toMatch(where);
  expect(run.stdout, context).toBe('');
}

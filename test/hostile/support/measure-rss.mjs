// Runs the CLI module named by argv[2] in this process, as `node <cli> <args…>` would, and
// when it exits writes to fd 3 (JSON): the peak resident set size in KiB, the exit time, and
// when each `AbortSignal.timeout` was created with its delay — the run deadline is one of
// them, so the parent can bound the time from the deadline's start to the exit apart from
// process start-up.
//
// On Linux it also reports how long the main thread sat runnable on a run queue without a CPU
// (the second field of /proc/self/schedstat): on a loaded machine that time is the machine's,
// not a wait of the CLI's, and the parent takes it out of the measured wall time.
// Times are ms since this wrapper started.
//
// The peak RSS is the kernel's high-water mark of this process's own memory (VmHWM): not
// `process.resourceUsage().maxRSS`, which Linux carries over from the parent across
// fork + exec (a child of a 400 MB test worker reports 400 MB). Where /proc is missing, the
// RSS is sampled instead.
import { readFileSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const started = performance.now();

/** Main-thread run-queue wait in ms, or null where the kernel does not say. */
function runQueueWaitMs() {
  try {
    const fields = readFileSync('/proc/self/schedstat', 'utf8').trim().split(/\s+/);
    const ns = Number(fields[1]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/** VmHWM in KiB, or null without /proc. */
function highWaterKiB() {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

let sampledKiB = 0;
const sample = () => {
  sampledKiB = Math.max(sampledKiB, Math.round(process.memoryUsage().rss / 1024));
};
if (highWaterKiB() === null) setInterval(sample, 10).unref();

const deadlines = [];
const timeout = AbortSignal.timeout.bind(AbortSignal);
AbortSignal.timeout = (ms) => {
  deadlines.push({ at: performance.now() - started, ms, waitedMs: runQueueWaitMs() });
  return timeout(ms);
};

const cli = process.argv[2];
process.argv.splice(2, 1);
process.on('exit', () => {
  sample();
  const report = {
    maxRssKiB: highWaterKiB() ?? sampledKiB,
    exitAt: performance.now() - started,
    waitedMs: runQueueWaitMs(),
    deadlines,
  };
  try {
    writeSync(3, `${JSON.stringify(report)}\n`);
  } catch {
    // fd 3 is not open: run by hand, nothing to report
  }
});
await import(pathToFileURL(cli).href);

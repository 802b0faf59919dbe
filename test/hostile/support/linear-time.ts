/**
 * Linear-time properties for the hostile suite (test/hostile/super-linear.test.ts, workflow-calls
 * and the rest): time a parse of an input and of 8 times that input in this thread's CPU time and
 * hold the larger to MAX_RATIO times the smaller, with slack. Linear growth is 8, quadratic 64.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import { noteTime } from './metrics.js';

// A full collection before each timed run: garbage an earlier run left (the larger input's own
// repeats, megabytes each) is otherwise charged to the run that happens to trigger its collection.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Linear growth is 8 for 8× the input; quadratic 64. Linear code over inputs of megabytes (the
 * calibrated sizes below) measured up to ~28× on this suite's readers (the terminal sanitiser on
 * runs of `ESC [1;`, a Gradle build on runs of `pom { `): the larger input crosses cache and heap
 * space sizes the smaller fits in. The bound is half of quadratic, above that.
 */
export const MAX_RATIO = 32;
/** Absolute slack for tiny timings (a GC pause, a scheduler tick). */
export const SLACK_MS = 15;
/** Repetitions of the unit in the smaller input, by default. */
export const K = 4000;

/**
 * Milliseconds of CPU time this thread has used: unlike the wall clock it does not advance while
 * the scheduler runs another process. The wall clock where the runtime has no per-thread clock.
 */
function cpuNow(): number {
  if (typeof process.threadCpuUsage !== 'function') return performance.now();
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** This process's CPU time (every thread): an async parse does part of its work off the main thread. */
function processCpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function bestOf3(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    collectGarbage();
    const start = cpuNow();
    try {
      fn();
    } catch {
      // bad input is an answer too; only the time matters here
    }
    best = Math.min(best, cpuNow() - start);
  }
  return best;
}

export async function bestOf3Async(fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    collectGarbage();
    const start = processCpuNow();
    await fn();
    best = Math.min(best, processCpuNow() - start);
  }
  return best;
}

interface Growth {
  small: number;
  large: number;
  bound: number;
}

/** How many times a pair that misses its bound is measured in all. */
const ATTEMPTS = 5;

/**
 * Time `run(k)` and `run(8k)`; the larger must stay within MAX_RATIO × the smaller + `slack`. With
 * `calibrate`, k is first doubled (up to 256×) until the smaller input takes CALIBRATED_MS: below
 * that, allocation and garbage-collection steps (and the CPU clock's tick) swamp the parse itself.
 * A pair over its bound is measured again, both sizes, up to ATTEMPTS times; the best pair counts:
 * a shared machine under load can slow the larger input of a pair several times for seconds.
 */
export function growth(run: (k: number) => unknown, k = K, calibrate = false, slack = SLACK_MS): Growth {
  bestOf3(() => run(k)); // warm up (JIT, lazy loading)
  let size = k;
  let small = bestOf3(() => run(size));
  while (calibrate && small < CALIBRATED_MS && size < 256 * k) {
    size *= 2;
    small = bestOf3(() => run(size));
  }
  // The CPU clock advances in ticks (4 ms on a 250 Hz kernel): a smaller input faster than one
  // tick may read 0, which would make the bound the slack alone.
  const boundOf = (ms: number): number => MAX_RATIO * Math.max(ms, CPU_TICK_MS) + slack;
  let best: Growth = { small, large: bestOf3(() => run(8 * size)), bound: boundOf(small) };
  for (let attempt = 1; attempt < ATTEMPTS && best.large > best.bound; attempt += 1) {
    const again = bestOf3(() => run(size));
    const pair = { small: again, large: bestOf3(() => run(8 * size)), bound: boundOf(again) };
    if (pair.large - pair.bound < best.large - best.bound) best = pair;
  }
  return best;
}

/** The coarsest step of the CPU clock on common kernels (250 Hz). */
export const CPU_TICK_MS = 4;

/** What the smaller input of a calibrated measurement takes at least. */
const CALIBRATED_MS = 20;

export function expectLinear(task: { meta: object }, label: string, g: Growth): void {
  noteTime(task, g.large, g.bound);
  expect(g.large, `${label}: ${g.small.toFixed(1)} ms → ${g.large.toFixed(1)} ms for 8× the input`).toBeLessThanOrEqual(g.bound);
}


/**
 * Hostile world, part 4: bad input. Over 250 invalid targets and flag values
 * (support/bad-input.ts: empty, blank, 10,000 characters, newlines, `..`, encoded slashes,
 * URLs with credentials or to other hosts, IDN homoglyphs, invalid semver and PEP 440,
 * unsupported purl types, every control and invisible character, bad --min-score,
 * --timeout, --format…) each make the real CLI exit 2 with exactly one line on stderr, no
 * stack trace, no raw control character echoed, and not one request: neither the fixture
 * server (every endpoint) nor the GitHub stand-in sees anything.
 *
 * Hundreds of CLI start-ups would take minutes, so the cases run through the real `main` of
 * the built CLI several per child process (support/run-many.mjs), in parallel batches; a
 * sample also runs as separate processes, to hold the real exit status to the same contract.
 */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { parseTarget } from '../../src/target/parse.js';
import { TargetError } from '../../src/target/types.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { requireCli, runHostile, runMany, type ManyRun } from './support/cli.js';
import { BAD_FLAGS, BAD_TARGETS, NUL_TARGETS } from './support/bad-input.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { FORBIDDEN } from './support/hostile-world.js';
import { githubStub } from './support/github-stub.js';
import { noteCases, noteRss, noteTime } from './support/metrics.js';

/** Batch runners at once (each is CPU-bound). */
const PARALLEL = Math.max(2, Math.min(8, availableParallelism()));
const PER_RUNNER = 25;

let server: FixtureServer;
beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

/** Map with at most `limit` in flight. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index]!);
      }
    }),
  );
  return out;
}

/** What is wrong with a run that should be a usage error, or null. */
function usageErrorProblem(run: ManyRun): string | null {
  if (run.crash !== undefined) return `crashed: ${run.crash.slice(0, 300)}`;
  if (run.code !== 2) return `exit ${run.code}`;
  if (run.stdout !== '') return `stdout: ${JSON.stringify(run.stdout.slice(0, 100))}`;
  const lines = run.stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '') return `${lines.filter((l) => l !== '').length} lines on stderr: ${JSON.stringify(run.stderr.slice(0, 300))}`;
  const line = lines[0]!;
  if (!line.startsWith('nerq: ')) return `stderr does not start with "nerq: ": ${JSON.stringify(line.slice(0, 100))}`;
  if (/^\s+at\s|node:internal|Error:/.test(run.stderr)) return `a stack trace or raw error: ${JSON.stringify(line.slice(0, 200))}`;
  if (FORBIDDEN.test(line)) return `a raw control or invisible character echoed: ${JSON.stringify(line.slice(0, 200))}`;
  if (line.length > 400) return `a ${line.length}-character line (the input echoed whole?)`;
  return null;
}

type Case = [label: string, args: string[]];
const ALL: Case[] = [
  ...BAD_TARGETS.map(([label, target]): Case => [`target: ${label}`, ['check', target]]),
  ...BAD_FLAGS.map(([label, args]): Case => [`flag: ${label}`, args]),
];

/** Commander's "Did you mean …?" suggestions: checked on their own, with their text. */
const KNOWN_TWO_LINES = new Set(['flag: a misspelt option', 'flag: a misspelt command']);
const CASES = ALL.filter(([label]) => !KNOWN_TWO_LINES.has(label));
const KNOWN = ALL.filter(([label]) => KNOWN_TWO_LINES.has(label));
describe('bad input exits 2 with one line on stderr, before any request', () => {
  it('there are at least 150 cases', ({ expect }) => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    expect(KNOWN).toHaveLength(KNOWN_TWO_LINES.size);
  });

  it(`all ${CASES.length} cases through the CLI's main`, async ({ task, expect }) => {
    noteCases(task, CASES.length);
    const chunks: Case[][] = [];
    for (let i = 0; i < CASES.length; i += PER_RUNNER) chunks.push(CASES.slice(i, i + PER_RUNNER));
    const started = performance.now();
    const runs = (await mapLimit(chunks, PARALLEL, (chunk) => runMany(chunk.map(([, args]) => args), { server }))).flat();
    // The issue asks to keep the category near 30 s: recorded against that, asserted only as a hang bound.
    const elapsed = performance.now() - started;
    noteTime(task, elapsed, 30_000);
    expect(elapsed).toBeLessThan(120_000);
    const problems = CASES.flatMap(([label, args], i) => {
      const problem = usageErrorProblem(runs[i]!);
      return problem === null ? [] : [`${label} (${JSON.stringify(args).slice(0, 80)}): ${problem}`];
    });
    expect(problems).toEqual([]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect((await githubStub()).requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  }, 120_000);

  it('a commander suggestion ("Did you mean --json?") stays on the one stderr line', async ({ expect }) => {
    const runs = await runMany(KNOWN.map(([, args]) => args), { server });
    expect(runs.map(usageErrorProblem)).toEqual(KNOWN.map(() => null));
    expect(runs[0]!.stderr).toMatch(/^nerq: unknown option '--jsn' \(Did you mean --json\?\)\n$/);
  });

  // A sample as separate processes: the real exit status, and nothing printed after main returns.
  const SAMPLE = CASES.filter((_, i) => i % 25 === 0);
  it.concurrent.for(SAMPLE)('as its own process: %s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, args], { task, expect }) => {
    const run = await runHostile(args, { server });
    noteRss(task, run.peakRssBytes);
    expect(usageErrorProblem(run), JSON.stringify(run)).toBeNull();
    expect(server.requests).toEqual([]);
  });

  it.for(NUL_TARGETS.map((t): [string] => [JSON.stringify(t)]))('a NUL in %s is refused by the parser (an argument cannot carry one)', ([quoted], { task, expect }) => {
    noteCases(task);
    const target = JSON.parse(quoted) as string;
    let thrown: unknown;
    try {
      parseTarget(target);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TargetError);
    const message = (thrown as Error).message;
    expect(message).not.toMatch(/\n/);
    expect(message).not.toMatch(FORBIDDEN);
  });
});

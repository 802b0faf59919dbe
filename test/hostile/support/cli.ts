/**
 * Run the built CLI as a child, the way `test/support/run-cli.ts` does (an environment built
 * from scratch, every endpoint on the fixture server — GitHub's on support/github-stub.ts
 * unless the caller's `env` points it elsewhere, as the GitHub fault rows do), and measure what the hostile suite
 * bounds: wall time from spawn to exit, and the child's peak RSS (reported by a small
 * wrapper on fd 3). HOME, the working directory and TMPDIR are temporary folders the test
 * can inspect before they are removed.
 *
 * `NERQ_HOSTILE_CLI` may name another build of `dist/cli.js` (a developer's private build).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureServer } from '../../support/fixture-server.js';
import { cliEnv, REPO_ROOT } from '../../support/run-cli.js';
import { githubStub } from './github-stub.js';

const WRAPPER = fileURLToPath(new URL('./measure-rss.mjs', import.meta.url));
/** A child still running after this long is killed and the test fails (a hang). */
const KILL_AFTER_MS = 60_000;

export function cliPath(): string {
  return process.env.NERQ_HOSTILE_CLI || path.join(REPO_ROOT, 'dist', 'cli.js');
}

/** Fail the suite with a clear message when the CLI was not built. */
export function requireCli(): void {
  if (!existsSync(cliPath())) {
    throw new Error(`${cliPath()} does not exist: run \`npm run build\` (npm test builds it) before the hostile suite`);
  }
}

/** Temporary HOME (with its XDG folders), working directory and TMPDIR for one run. */
export interface Sandbox {
  root: string;
  home: string;
  cwd: string;
  tmp: string;
  /** Where nerq keeps its store in this sandbox (`$XDG_CACHE_HOME/nerq`). */
  store: string;
  remove(): void;
}

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(path.join(os.tmpdir(), 'nerq-hostile-'));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'cwd');
  const tmp = path.join(root, 'tmp');
  for (const dir of [cwd, tmp, ...['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')].map((d) => path.join(home, d))]) {
    mkdirSync(dir, { recursive: true });
  }
  return { root, home, cwd, tmp, store: path.join(home, '.cache', 'nerq'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file (not folder) under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    if (!existsSync(current)) return;
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

export interface HostileRunOptions {
  server?: FixtureServer;
  /** Extra variables (they win over the scratch environment). */
  env?: Record<string, string>;
  stdin?: string;
  /** Run in this sandbox (kept for the caller to inspect; the caller removes it). */
  sandbox?: Sandbox;
}

export interface HostileRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Spawn to exit, in ms. */
  wallMs: number;
  /** The child's peak RSS in bytes (null when the wrapper could not report it: the child was killed). */
  peakRssBytes: number | null;
  /**
   * Ms from the start of the run deadline (`--timeout`, default 60 s) to the exit: the part of
   * the run the deadline bounds. Null when no deadline of that length was started (usage
   * errors, `score`); the caller then bounds `wallMs`.
   */
  afterDeadlineMs: number | null;
  /**
   * Of `afterDeadlineMs`, the time the CLI's main thread was runnable but had no CPU (a loaded
   * machine's doing, from /proc/self/schedstat); 0 where the kernel does not report it.
   */
  starvedMs: number;
}

interface WrapperReport {
  maxRssKiB: number;
  exitAt: number;
  waitedMs: number | null;
  deadlines: { at: number; ms: number; waitedMs: number | null }[];
}

function readReport(text: string): WrapperReport | null {
  try {
    return JSON.parse(text) as WrapperReport;
  } catch {
    return null;
  }
}

/** The --timeout value of an argument list in ms (the CLI's default otherwise). */
export function deadlineMsOf(args: readonly string[]): number {
  const index = args.indexOf('--timeout');
  const value = index === -1 ? undefined : Number(args[index + 1]);
  return value !== undefined && Number.isFinite(value) ? value * 1000 : 60_000;
}

/** Run `nerq <args>` in a sandbox; resolves with its output and measurements. */
export async function runHostile(args: string[], options: HostileRunOptions = {}): Promise<HostileRun> {
  const sandbox = options.sandbox ?? makeSandbox();
  try {
    const github = await githubStub();
    const env = { ...cliEnv(sandbox.home, { ...(options.server ? { server: options.server } : {}) }), TMPDIR: sandbox.tmp, ...github.env, ...options.env };
    return await new Promise<HostileRun>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, [WRAPPER, cliPath(), ...args], {
        cwd: sandbox.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      const rss: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.stdio[3]?.on('data', (chunk: Buffer) => rss.push(chunk));
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin ?? '');
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, KILL_AFTER_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const wallMs = performance.now() - started;
        const out = Buffer.concat(stdout).toString('utf8');
        const err = Buffer.concat(stderr).toString('utf8');
        if (killed) {
          reject(new Error(`nerq ${args.join(' ').slice(0, 200)} was killed after ${KILL_AFTER_MS / 1000} s\nstderr:\n${err.slice(0, 2000)}`));
          return;
        }
        const report = readReport(Buffer.concat(rss).toString('utf8'));
        const deadline = report?.deadlines.find((d) => d.ms === deadlineMsOf(args));
        resolve({
          code: code ?? (signal ? 128 : 1),
          stdout: out,
          stderr: err,
          wallMs,
          peakRssBytes: report === null ? null : report.maxRssKiB * 1024,
          afterDeadlineMs: report === null || deadline === undefined ? null : report.exitAt - deadline.at,
          starvedMs: report?.waitedMs == null || deadline?.waitedMs == null ? 0 : Math.max(0, report.waitedMs - deadline.waitedMs),
        });
      });
    });
  } finally {
    if (options.sandbox === undefined) sandbox.remove();
  }
}

const MANY = fileURLToPath(new URL('./run-many.mjs', import.meta.url));

export interface ManyRun {
  code: number;
  stdout: string;
  stderr: string;
  /** An exception that escaped the CLI's module (its top-level await rejected). */
  crash?: string;
}

/**
 * Run many short command lines (usage errors) in ONE child process, each through the CLI's
 * real `main` with its own argv (see support/run-many.mjs), in the same scratch environment
 * as `runHostile`. For the bad-input category, where hundreds of full start-ups would take
 * minutes.
 */
export async function runMany(cases: readonly string[][], options: Pick<HostileRunOptions, 'server' | 'env'> = {}): Promise<ManyRun[]> {
  const sandbox = makeSandbox();
  try {
    const github = await githubStub();
    const env = { ...cliEnv(sandbox.home, { ...(options.server ? { server: options.server } : {}) }), TMPDIR: sandbox.tmp, ...github.env, ...options.env };
    return await new Promise<ManyRun[]>((resolve, reject) => {
      const child = spawn(process.execPath, [MANY, cliPath()], { cwd: sandbox.cwd, env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
      // The runs' own output is captured inside the child; what reaches these pipes is the runner's.
      const err: Buffer[] = [];
      const results: Buffer[] = [];
      child.stdout.resume();
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.stdio[3]?.on('data', (chunk: Buffer) => results.push(chunk));
      child.stdin.end(JSON.stringify(cases));
      const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(Buffer.concat(results).toString('utf8')) as ManyRun[]);
        } catch {
          reject(new Error(`the batch runner failed (exit ${code}): ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`));
        }
      });
    });
  } finally {
    sandbox.remove();
  }
}

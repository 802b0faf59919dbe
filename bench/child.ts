/**
 * Running the CLI as a child process, the way a user does: `node bin/nerq.js …` with the same
 * Node binary as the bench, an environment built from scratch (a temporary HOME and XDG
 * folders, every endpoint pointed at the bench server, a fixed NERQ_NOW), wall time on the
 * monotonic clock, and, when asked, the child's peak RSS: GNU time's `%M` when
 * `/usr/bin/time` is GNU time, else the high-water mark polled from /proc (Linux), else null.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** performance.now() at spawn and at exit. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
  /** Peak resident set size in KiB, or null when it was not measured. */
  peakRssKb: number | null;
  timedOut: boolean;
}

export interface ChildOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  measureRss?: boolean;
}

const GNU_TIME = '/usr/bin/time';
let gnuTimeWorks: boolean | undefined;

/** Whether /usr/bin/time is GNU time (understands `-f %M -o FILE`). */
export function hasGnuTime(): boolean {
  if (gnuTimeWorks !== undefined) return gnuTimeWorks;
  gnuTimeWorks = false;
  if (!existsSync(GNU_TIME)) return false;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-bench-time-'));
  try {
    const out = path.join(dir, 'rss');
    const probe = spawnSync(GNU_TIME, ['-f', '%M', '-o', out, process.execPath, '-e', '0'], { stdio: 'ignore' });
    gnuTimeWorks = probe.status === 0 && /^\d+\s*$/m.test(readFileSync(out, 'utf8'));
  } catch {
    gnuTimeWorks = false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return gnuTimeWorks;
}

/** The last integer line GNU time wrote (it may add "Command exited with non-zero status N" first). */
export function parseGnuTimeRss(text: string): number | null {
  const lines = text.trim().split('\n').map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) if (/^\d+$/.test(lines[i] ?? '')) return Number(lines[i]);
  return null;
}

/** VmHWM (peak RSS, KiB) from /proc/<pid>/status, or null. */
export function readVmHwm(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : Number(m[1]);
  } catch {
    return null;
  }
}

export async function runChild(options: ChildOptions): Promise<ChildResult> {
  const useTime = options.measureRss === true && hasGnuTime();
  const timeDir = useTime ? mkdtempSync(path.join(os.tmpdir(), 'nerq-bench-rss-')) : null;
  const timeFile = timeDir === null ? null : path.join(timeDir, 'rss');
  const [command, args] =
    timeFile === null ? [options.command, options.args] : [GNU_TIME, ['-f', '%M', '-o', timeFile, options.command, ...options.args]];
  try {
    return await new Promise<ChildResult>((resolve, reject) => {
      const startedAt = performance.now();
      const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      // Without GNU time, poll the high-water mark (it only grows, so the last read is the best).
      let polled: number | null = null;
      const poll =
        options.measureRss === true && !useTime && child.pid !== undefined
          ? setInterval(() => {
              const value = readVmHwm(child.pid as number);
              if (value !== null) polled = Math.max(polled ?? 0, value);
            }, 20)
          : null;
      child.on('error', (error) => {
        clearTimeout(timer);
        if (poll !== null) clearInterval(poll);
        reject(error);
      });
      child.on('close', (code, signal) => {
        const endedAt = performance.now();
        clearTimeout(timer);
        if (poll !== null) clearInterval(poll);
        let peakRssKb: number | null = polled;
        if (timeFile !== null) {
          try {
            peakRssKb = parseGnuTimeRss(readFileSync(timeFile, 'utf8'));
          } catch {
            peakRssKb = null;
          }
        }
        resolve({
          code,
          signal,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          startedAt,
          endedAt,
          wallMs: endedAt - startedAt,
          peakRssKb,
          timedOut,
        });
      });
    });
  } finally {
    if (timeDir !== null) rmSync(timeDir, { recursive: true, force: true });
  }
}

/** A fresh temporary HOME with its XDG folders (the store starts empty). */
export function freshHome(root: string, label: string): string {
  const home = mkdtempSync(path.join(root, `${label}-`));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) {
    mkdirSync(path.join(home, dir), { recursive: true });
  }
  return home;
}

export interface CliEnvOptions {
  home: string;
  /** `http://127.0.0.1:PORT` of the bench server. */
  origin: string;
  now: string;
  githubToken?: string | null;
  extra?: Record<string, string>;
}

/**
 * The child's environment, from scratch: nothing inherited but PATH (no npm_config_*, no
 * tokens, no NODE_OPTIONS), every endpoint on the bench server. Both the registry and the
 * "public" registry are the same base, so no package looks like dependency confusion.
 */
export function cliEnv(options: CliEnvOptions): Record<string, string> {
  const { home, origin } = options;
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    USERPROFILE: home,
    TMPDIR: os.tmpdir(),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    NO_COLOR: '1',
    NERQ_NOW: options.now,
    NERQ_NPM_REGISTRY: `${origin}/npm/`,
    NERQ_NPM_PUBLIC_REGISTRY: `${origin}/npm/`,
    NERQ_NPM_API_URL: `${origin}/npm-api`,
    NERQ_PYPI_URL: `${origin}/pypi`,
    NERQ_PYPISTATS_URL: `${origin}/pypistats`,
    NERQ_GITHUB_API_URL: `${origin}/github`,
    NERQ_GITHUB_GRAPHQL_URL: `${origin}/github/graphql`,
    NERQ_OSV_API_URL: `${origin}/osv`,
    ...(options.githubToken ? { GITHUB_TOKEN: options.githubToken } : {}),
    ...options.extra,
  };
}

/**
 * Run the built CLI (`bin/nerq.js` → `dist/cli.js`) as a child process, the way a user does,
 * in an environment built from scratch: PATH, a fresh temporary HOME (with its XDG folders),
 * NO_COLOR, a fixed NERQ_NOW, and — with a fixture server — every endpoint pointed at it.
 * Nothing is inherited: no npm_config_* (npm passes its registry to scripts), no tokens.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { FixtureServer } from './fixture-server.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_BIN = path.join(REPO_ROOT, 'bin', 'nerq.js');
export const DEFAULT_NOW = '2026-11-30T00:00:00Z';
const TIMEOUT_MS = 30_000;

export interface RunCliOptions {
  /** Extra variables (they win over the defaults below). */
  env?: Record<string, string>;
  server?: FixtureServer;
  stdin?: string;
  /** Working directory (default: the temporary HOME). */
  cwd?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The child's environment, from scratch. */
export function cliEnv(home: string, options: Pick<RunCliOptions, 'env' | 'server'> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    NO_COLOR: '1',
    NERQ_NOW: DEFAULT_NOW,
  };
  // Without a fixture server every endpoint still points at loopback (port 9, discard: the
  // connection is refused), so no test can reach for the internet by accident.
  const { server } = options;
  const base = (prefix: string) => (server === undefined ? `http://127.0.0.1:9/${prefix}` : server.url(prefix));
  Object.assign(env, {
    NERQ_NPM_REGISTRY: `${base('npm')}/`,
    NERQ_NPM_API_URL: base('npm-api'),
    NERQ_PYPI_URL: base('pypi'),
    // PyPI's file host (wheels read by range requests) is refused unless a test serves files
    // itself (`env: { NERQ_PYPI_FILES_URL: server.url('pypi-files') }`): recorded project JSON
    // names real files the fixtures do not hold.
    NERQ_PYPI_FILES_URL: 'http://127.0.0.1:9/pypi-files',
    NERQ_PYPISTATS_URL: base('pypistats'),
    NERQ_GITHUB_API_URL: base('github'),
    NERQ_GITHUB_GRAPHQL_URL: `${base('github')}/graphql`,
    NERQ_GITHUB_RAW_URL: base('github-raw'),
    NERQ_CRATES_INDEX_URL: base('crates-index'),
    NERQ_OSV_API_URL: base('osv'),
    NERQ_MCP_REGISTRY_URL: base('mcp-registry'),
    NERQ_NPM_PUBLIC_REGISTRY: `${base('npm-public')}/`,
  });
  return { ...env, ...options.env };
}

/** Run `nerq <args>`; resolves with the exit code and output, rejects when killed after 30 s. */
export async function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-home-'));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) {
    mkdirSync(path.join(home, dir), { recursive: true });
  }
  try {
    return await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_BIN, ...args], {
        cwd: options.cwd ?? home,
        env: cliEnv(home, options),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.stdin.on('error', () => undefined); // the CLI may exit without reading stdin
      child.stdin.end(options.stdin ?? '');
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, TIMEOUT_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const out = Buffer.concat(stdout).toString('utf8');
        const err = Buffer.concat(stderr).toString('utf8');
        if (timedOut) {
          reject(new Error(`nerq ${args.join(' ')} was killed after ${TIMEOUT_MS / 1000} s\nstdout:\n${out}\nstderr:\n${err}`));
          return;
        }
        const result = { code: code ?? (signal ? 128 : 1), stdout: out, stderr: err };
        recordCliRun(args, options, home, result);
        resolve(result);
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Recording what the CLI printed (scripts/behaviour-outputs.ts)

/**
 * With NERQ_RECORD_OUTPUTS=<dir>, every CLI run a test makes is appended to
 * `<dir>/<test file>.txt` under its test's name: arguments, exit code, stdout and stderr, and
 * for `--save-evidence` the evidence written and `nerq score --json` of it. Loopback ports and
 * temporary paths are replaced by placeholders, so two trees' records compare with `diff -r`.
 * Runs a test makes concurrently land in any order: the script sorts each file's records.
 * Without the variable nothing is recorded.
 */
export const RECORD_MARK = '#### nerq run:';

export function recordCliRun(args: readonly string[], options: RunCliOptions, home: string, result: CliResult): void {
  const dir = process.env.NERQ_RECORD_OUTPUTS;
  if (dir === undefined || dir === '') return;
  const state = expect.getState();
  const file = path.relative(REPO_ROOT, state.testPath ?? 'unknown');
  const cwd = options.cwd ?? home;
  const normalise = (text: string) => normaliseOutput(text, home, cwd, options.server);
  const parts = [
    `${RECORD_MARK} ${state.currentTestName ?? '(no test)'}`,
    `$ nerq ${args.map(normalise).join(' ')}`,
    `exit ${result.code}`,
    '--- stdout',
    normalise(result.stdout),
    '--- stderr',
    normalise(result.stderr),
  ];
  const saveAt = args.indexOf('--save-evidence');
  const saved = saveAt === -1 ? undefined : args[saveAt + 1];
  if (saved !== undefined && saved !== '-') {
    const evidenceFile = path.resolve(cwd, saved);
    if (existsSync(evidenceFile)) {
      parts.push('--- saved evidence', normalise(readFileSync(evidenceFile, 'utf8')));
      const score = spawnSync(process.execPath, [CLI_BIN, 'score', evidenceFile, '--json'], { cwd, env: cliEnv(home, options), encoding: 'utf8' });
      parts.push(`--- score --json of it (exit ${String(score.status)})`, normalise(score.stdout), '--- its stderr', normalise(score.stderr));
    }
  }
  const out = path.join(dir, `${file}.txt`);
  mkdirSync(path.dirname(out), { recursive: true });
  appendFileSync(out, `${parts.join('\n')}\n`);
}

function normaliseOutput(text: string, home: string, cwd: string, server: FixtureServer | undefined): string {
  let out = text.replaceAll(cwd, '<CWD>').replaceAll(home, '<HOME>').replaceAll(REPO_ROOT, '<REPO>/').replaceAll(os.tmpdir(), '<TMP>');
  if (server !== undefined) out = out.replaceAll(`127.0.0.1:${server.port}`, '127.0.0.1:<PORT>');
  return (
    out
      // Other loopback servers a test started (a second registry), and Node's process ids.
      .replace(/127\.0\.0\.1:\d{2,5}\b/g, '127.0.0.1:<OTHER-PORT>')
      .replace(/\(node:\d+\)/g, '(node:<PID>)')
      // Temporary directories a test made itself (mkdtemp's six random characters).
      .replace(/(<TMP>\/[\w.-]*?)[A-Za-z0-9]{6}(?=[/"'\s:]|$)/gm, '$1XXXXXX')
      // The same reached from a sibling temporary directory the CLI ran in (`../nerq-audit-WWIgCu/bom.cdx.json`).
      .replace(/((?:^|[\s"'(])(?:\.\.\/)+nerq-[\w.]*?-)[A-Za-z0-9]{6}(?=\/)/gm, '$1XXXXXX')
      // Instants of the machine's clock (the cache statistics' last run), never a fixture's date.
      .replaceAll(new RegExp(`${new Date().toISOString().slice(0, 10)}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z`, 'g'), '<NOW>')
  );
}

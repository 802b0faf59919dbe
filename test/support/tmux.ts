/**
 * Drive the built CLI in a real terminal: a detached tmux session of a given size on a private
 * tmux server (its own socket, so nothing else is touched), the environment built as runCli
 * builds it (cliEnv, plus TERM), the screen read with `capture-pane`, keys sent with `send-keys`.
 * The exit code is written to a file by the shell that ran nerq.
 *
 * tmux is a test dependency of this suite: `.ci/run` runs on a machine that has it, and a
 * missing tmux fails these tests with that message instead of skipping them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FixtureServer } from './fixture-server.js';
import { CLI_BIN, cliEnv } from './run-cli.js';

export function requireTmux(): void {
  const found = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error('tmux is required by the terminal tests (apt-get install tmux)');
}

export interface TerminalOptions {
  columns: number;
  rows?: number;
  server?: FixtureServer;
  env?: Record<string, string>;
  cwd?: string;
  /** An existing HOME (a store to reuse); default: a fresh one, removed by close(). */
  home?: string;
}

export interface Terminal {
  readonly home: string;
  /** The visible screen, lines without trailing spaces; a line the terminal wrapped is one line. */
  screen(): string;
  /** Send tmux key names (`C-c`, `Enter`) or literal text (`literal: true`). */
  keys(keys: string, literal?: boolean): void;
  /** Wait until the screen matches; throws with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The terminal's line settings (`stty -a` of the pane's tty): what nerq left it in. */
  stty(): string;
  /** Wait for nerq to exit; its code, and ms from the call to the exit. */
  exited(timeoutMs?: number): Promise<{ code: number; afterMs: number }>;
  close(): void;
}

const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Start `nerq <args>` in a fresh tmux session `columns` wide. */
export function openTerminal(args: readonly string[], options: TerminalOptions): Terminal {
  requireTmux();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-tty-'));
  const home = options.home ?? path.join(dir, 'home');
  for (const sub of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, sub), { recursive: true });
  const env = { ...cliEnv(home, { ...(options.server === undefined ? {} : { server: options.server }), ...(options.env === undefined ? {} : { env: options.env }) }), TERM: 'xterm-256color' };
  const exitFile = path.join(dir, 'exit');
  const script = path.join(dir, 'run.sh');
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
  writeFileSync(
    script,
    // The shell catches Ctrl-C itself (a trap, which its children do not inherit) so that it
    // outlives nerq and writes the exit code; nerq gets the signal as from any shell.
    `trap : INT TERM\ncd ${shellQuote(options.cwd ?? home)}\nenv -i ${assignments} ${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} ${args.map(shellQuote).join(' ')}\necho $? > ${shellQuote(exitFile)}\nsleep 600\n`,
  );
  const socket = `nerq-test-${process.pid}-${path.basename(dir)}`;
  const tmux = (...rest: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...rest], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'nerq', '-x', String(options.columns), '-y', String(options.rows ?? 40), `sh ${shellQuote(script)}`);
  // -J: a line the terminal wrapped at its right edge is read back whole, so that a line wider
  // than the terminal shows as one (else tmux's wrap would hide it, and no width could fail).
  const screen = () =>
    tmux('capture-pane', '-p', '-J', '-t', 'nerq')
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .trimEnd();
  return {
    home,
    screen,
    stty() {
      const tty = tmux('display-message', '-p', '-t', 'nerq', '#{pane_tty}').trim();
      return execFileSync('stty', ['-a', '-F', tty], { encoding: 'utf8' });
    },
    keys(keys, literal = false) {
      tmux('send-keys', '-t', 'nerq', ...(literal ? ['-l'] : []), keys);
    },
    async waitFor(pattern, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const now = screen();
        if (pattern.test(now)) return now;
        if (Date.now() > until) throw new Error(`the screen never matched ${pattern}:\n${now}`);
        await sleep(50);
      }
    },
    async exited(timeoutMs = 20_000) {
      const started = Date.now();
      for (;;) {
        if (existsSync(exitFile)) {
          const text = readFileSync(exitFile, 'utf8').trim();
          if (text !== '') return { code: Number(text), afterMs: Date.now() - started };
        }
        if (Date.now() - started > timeoutMs) throw new Error(`nerq did not exit within ${timeoutMs} ms:\n${screen()}`);
        await sleep(25);
      }
    },
    close() {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

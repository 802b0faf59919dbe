/**
 * nerq in a real terminal (tmux): the spinner shows how far a run is and what it waits on, it
 * does not swallow what is typed, and Ctrl-C ends the run at once — exit 130, the spinner gone,
 * the store intact and usable by the next run.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { openTerminal, requireTmux, type Terminal } from '../support/tmux.js';
import { packageLockV3, serveOsv, serveSynthetic, TempDirs, type SyntheticPackage } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const QUICK: SyntheticPackage[] = Array.from({ length: 6 }, (_, i) => ({ name: `nerq-audit-tty-${i}`, version: '1.0.0' }));
/** Its packument never comes in time: the run waits on the registry until interrupted. */
const SLOW: SyntheticPackage = { name: 'nerq-audit-tty-slow', version: '1.0.0' };

const dirs = new TempDirs();
let server: FixtureServer;
let project: string;
const terminals: Terminal[] = [];

beforeAll(async () => {
  requireBuiltCli();
  requireTmux();
  server = await startFixtureServer();
  for (const pkg of QUICK) serveSynthetic(server, pkg);
  server.expect('GET', `/npm/${SLOW.name}`, { delayMs: 60_000 });
  server.fallback('GET', '/npm-api/', { status: 404 });
  serveOsv(server, []);
  const { lock, manifest } = packageLockV3([...QUICK, SLOW].map((p) => ({ ...p, direct: true })), server.url('npm'));
  project = dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
});

afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});

afterAll(async () => {
  await server?.close();
  dirs.cleanUp();
});

function open(args: string[], columns = 80, home?: string): Terminal {
  const terminal = openTerminal(args, { columns, server, ...(home === undefined ? {} : { home }) });
  terminals.push(terminal);
  return terminal;
}

describe('the spinner on a terminal', () => {
  it('says how far the audit is and what it waits on, within the width, and leaves the keyboard to the terminal', async () => {
    const terminal = open(['audit', project], 80);
    const screen = await terminal.waitFor(/6\/7 evaluated .*waiting on registry 1/);
    for (const line of screen.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    // The terminal is left as the shell set it: line editing, echo and keyboard signals on. A
    // spinner that put it in raw mode to discard keystrokes would swallow Ctrl-C (no signal).
    const settings = terminal.stty().split(/\s+/);
    expect(settings).toEqual(expect.arrayContaining(['icanon', 'echo', 'isig']));
    terminal.keys('C-c');
    expect((await terminal.exited()).code).toBe(130);
  });
});

/**
 * The audit table as a terminal shows it: packages with long scoped names (wider than the name
 * column) and long reasons, at 80 and 120 columns. The screen is read with wrapped lines
 * joined, so a line nerq wrote wider than the terminal is seen as one.
 */
describe('the audit table on a terminal', () => {
  const WIDE: SyntheticPackage[] = [
    { name: '@nerq-tty-scope-long/a-package-name-as-long-as-real-ones-get', version: '1.0.0', deprecated: 'no longer maintained: every release of this package has moved to a successor, see its README for what to use instead' },
    { name: '@nerq-tty-scope/short', version: '1.0.0' },
  ];
  let wide: string;
  beforeAll(() => {
    for (const pkg of WIDE) serveSynthetic(server, pkg);
    const { lock, manifest } = packageLockV3(WIDE.map((p) => ({ ...p, direct: true })), server.url('npm'));
    wide = dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
  });

  it.for([80, 120])('at %i columns no line is wider than the terminal, the names and the reason whole', async (columns) => {
    const terminal = openTerminal(['audit', wide], { columns, rows: 120, server });
    terminals.push(terminal);
    expect((await terminal.exited()).code).toBe(1);
    const screen = terminal.screen();
    expect(screen).toMatch(/^nerq audit · FAIL/m);
    for (const line of screen.split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
    const joined = screen.replace(/\n\s+/g, ' ');
    for (const pkg of WIDE) expect(screen).toContain(`${pkg.name}@1.0.0`);
    expect(joined).toContain('every release of this package has moved to a successor');
  });
});

describe('Ctrl-C', () => {
  it('ends the run at once with exit 130, says so, and leaves the store intact for the next run', async () => {
    const terminal = open(['audit', project], 80);
    await terminal.waitFor(/evaluated/);
    terminal.keys('C-c');
    const { code, afterMs } = await terminal.exited(10_000);
    expect(code).toBe(130);
    // Promptly: not when the slow answer would have come (a minute), nor after a deadline.
    expect(afterMs).toBeLessThan(5_000);
    const screen = terminal.screen();
    expect(screen).toContain('nerq: interrupted (Ctrl-C)');
    expect(screen).not.toMatch(/^nerq audit ·/m);

    // The answers fetched before Ctrl-C were written; the database is whole.
    const db = new DatabaseSync(path.join(terminal.home, '.cache', 'nerq', 'nerq.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      const cached = db.prepare('SELECT COUNT(*) AS n FROM http_cache').get() as { n: number };
      expect(cached.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }

    // And the next run uses it (offline: only what the interrupted run stored).
    const next = open(['check', QUICK[0]!.name, '--offline', '--json'], 80, terminal.home);
    expect((await next.exited()).code).not.toBe(2);
  });
});

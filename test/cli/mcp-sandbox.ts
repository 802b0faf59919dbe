/**
 * A home folder and a project for `nerq audit --mcp` tests: MCP client configurations written
 * where the clients keep them (`~/…` under the home folder, the rest under the project), the
 * CLI run in the project with that home and its XDG folders (so nothing of the machine's own
 * configuration is read), and everything removed after.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { expectNoUnexpected, startFixtureServer, useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { requireBuiltCli } from './helpers.js';

export interface McpHome {
  home: string;
  /** `<home>/projects/app`, the audited directory and the CLI's working directory. */
  project: string;
}

/** Write `text` at `~/…` (under the home folder) or at a path relative to the project. */
export function writeInHome(where: McpHome, file: string, text: string): void {
  const full = file.startsWith('~/') ? path.join(where.home, file.slice(2)) : path.join(where.project, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

export function mcpHome(files: Record<string, string>, prefix = 'nerq-mcp-home-'): McpHome {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  const where = { home, project: path.join(home, 'projects', 'app') };
  mkdirSync(where.project, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeInHome(where, file, text);
  return where;
}

/** `nerq audit …` in the project, with only that home folder's configuration (and the variables given). */
export function runAuditIn(where: McpHome, args: string[], server: FixtureServer | undefined, extraEnv: Record<string, string> = {}) {
  const { home } = where;
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    ...extraEnv,
  };
  return runCli(['audit', ...args], { ...(server === undefined ? {} : { server }), cwd: where.project, env });
}

/** After a test: the fixture server asked nothing unexpected and is closed; the home folder is gone. */
export async function closeMcpHome(server: FixtureServer | undefined, home: string): Promise<void> {
  if (server !== undefined) {
    expectNoUnexpected(server);
    await server.close();
  }
  if (home !== '') rmSync(home, { recursive: true, force: true });
}

export interface McpSandbox {
  /** The fixture server the running test started last (undefined until it starts one). */
  readonly server: FixtureServer | undefined;
  /** The running test's home folder and project (undefined until it makes them). */
  readonly where: McpHome | undefined;
  /** Start a fixture server for the running test (checked for unexpected requests and closed after it). */
  start(): Promise<FixtureServer>;
  /** Make a home folder and project holding `files` for the running test (removed after it). */
  home(files: Record<string, string>, prefix?: string): McpHome;
}

/**
 * The set-up the MCP CLI tests share, for the file that calls this at its top level: the built
 * CLI required; each test starts its fixture servers (`start`, by default plain ones) and makes its
 * home folders as it needs them; after it, every server it started asked nothing unexpected and is
 * closed, every home folder is removed, and `server` and `where` are undefined again.
 */
export function useMcpSandbox(start: () => Promise<FixtureServer> = () => startFixtureServer()): McpSandbox {
  beforeAll(() => requireBuiltCli());
  const startServer = useFixtureServers(start);
  const homes: string[] = [];
  let server: FixtureServer | undefined;
  let where: McpHome | undefined;
  afterEach(async () => {
    server = undefined;
    where = undefined;
    for (const home of homes.splice(0)) await closeMcpHome(undefined, home);
  });
  return {
    get server() {
      return server;
    },
    get where() {
      return where;
    },
    async start() {
      server = await startServer();
      return server;
    },
    home(files, prefix) {
      where = mcpHome(files, prefix);
      homes.push(where.home);
      return where;
    },
  };
}

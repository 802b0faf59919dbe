/**
 * A home folder and a project for `nerq audit --mcp` tests: MCP client configurations written
 * where the clients keep them (`~/…` under the home folder, the rest under the project), the
 * CLI run in the project with that home and its XDG folders (so nothing of the machine's own
 * configuration is read), and everything removed after.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectNoUnexpected, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';

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

/**
 * The set-up a hostile audit test file shares: the built CLI, one fixture server answering an
 * empty OSV and 404 for GitHub besides whatever the file serves, and the project folders it
 * writes — closed and removed after the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { serveOsv, TempDirs } from '../../cli/audit-helpers.js';
import { startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';
import { requireCli } from './cli.js';

export interface AuditWorld {
  /** The fixture server (set up before the file's tests run). */
  readonly server: FixtureServer;
  readonly dirs: TempDirs;
}

const NOT_FOUND = { status: 404, body: '{"message":"Not Found"}' };

/** Registers the file's beforeAll/afterAll; `serve` adds the file's own answers (packages, PyPI fallbacks). */
export function useAuditWorld(serve: (server: FixtureServer) => void = () => {}): AuditWorld {
  const dirs = new TempDirs();
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    requireCli();
    server = await startFixtureServer();
    serveOsv(server, []);
    serve(server);
    server.fallback('GET', '/github/', NOT_FOUND);
    server.fallback('POST', '/github/', NOT_FOUND);
  });
  afterAll(async () => {
    await server?.close();
    dirs.cleanUp();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the audit world is set up in beforeAll');
      return server;
    },
    dirs,
  };
}

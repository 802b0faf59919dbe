/**
 * A private temporary home directory with the XDG folders nerq's store and configuration use,
 * and a harness for in-process use-case tests: a fixture server, a home, runtimes built on both
 * (closed, and the server checked for unexpected requests, by `stop`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, type Runtime, type RuntimeConfig } from '../../src/app/runtime.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from './fixture-server.js';
import { cliEnv } from './run-cli.js';

export function tempHome(prefix: string): string {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, dir), { recursive: true });
  return home;
}

export interface AppHarness {
  readonly server: FixtureServer;
  /**
   * A runtime on the server and the home, its clock fixed at `now`; closed by `stop`. `cache:
   * false` never reads the HTTP cache (as --no-cache): each evaluation asks the server again.
   */
  runtime(env?: Record<string, string>, options?: Pick<RuntimeConfig, 'cache'>): Runtime;
  stop(): Promise<void>;
}

export async function startAppHarness(prefix: string, now: Date): Promise<AppHarness> {
  const server = await startFixtureServer();
  const home = tempHome(prefix);
  const runtimes: Runtime[] = [];
  return {
    server,
    runtime(env = {}, options = {}) {
      const made = createRuntime({ env: cliEnv(home, { server, env: { NERQ_NOW: now.toISOString(), ...env } }), cwd: home, clock: () => now, ...options });
      runtimes.push(made);
      return made;
    },
    async stop() {
      expectNoUnexpected(server);
      await Promise.all(runtimes.splice(0).map((r) => r.close()));
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

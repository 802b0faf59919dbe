/** A fixture server and a real HTTP client for the PyPI source tests (fast retries, no sleeping). */
import { afterEach, beforeEach } from 'vitest';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

export interface PypiTestContext {
  server: FixtureServer;
  http: HttpClient;
  /** `http://127.0.0.1:PORT/pypi` */
  pypi: string;
  /** `http://127.0.0.1:PORT/pypistats` */
  pypistats: string;
  /** The paths requested, in order. */
  paths(): string[];
}

/** Start a server and client before each test, close both after it (and fail on unexpected routes). */
export function usePypiServer(): PypiTestContext {
  const ctx = {} as PypiTestContext;
  beforeEach(async () => {
    ctx.server = await startFixtureServer();
    ctx.http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, retry: { baseDelayMs: 1 }, sleep: async () => {} });
    ctx.pypi = ctx.server.url('pypi');
    ctx.pypistats = ctx.server.url('pypistats');
    ctx.paths = () => ctx.server.requests.map((r) => r.path);
  });
  afterEach(async () => {
    expectNoUnexpected(ctx.server);
    await ctx.http.close();
    await ctx.server.close();
  });
  return ctx;
}

/** Routes for a fixture project: its project JSON and Simple API page (and more paths if given). */
export function expectProject(server: FixtureServer, project: string, ...extra: string[]): void {
  server.expect('GET', `/pypi/pypi/${project}/json`);
  server.expect('GET', `/pypi/simple/${project}/`);
  for (const path of extra) server.expect('GET', path);
}

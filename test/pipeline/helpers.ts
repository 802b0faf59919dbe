/** What the pipeline tests share: an HTTP client for the fixture server, npm configurations, a run context. */
import type { RunContext } from '../../src/pipeline/context.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { GithubRateLimiter } from '../../src/sources/github/source.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { NpmConfig } from '../../src/sources/npm/config.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { endpointsFor } from '../github/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';

/** A real HTTP client with short timeouts and retries that do not sleep. */
export function testHttpClient(): HttpClient {
  return createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, retry: { baseDelayMs: 1 }, sleep: async () => {} });
}

/** An npm configuration with `registry` for every scope, no credentials, no proxy. */
export function npmConfigAt(registry: string): NpmConfig {
  return {
    registry,
    registryFor: () => registry,
    authHeaderFor: () => undefined,
    ca: undefined,
    strictSsl: true,
    proxy: undefined,
    httpsProxy: undefined,
    noProxy: undefined,
    warnings: [],
  };
}

/** For runs that must never reach an npm registry (a closed loopback port). */
export const NO_NPM: NpmConfig = npmConfigAt('http://127.0.0.1:9/npm/');

/**
 * A run context for `server` with no npm registry, no token and the default gate, at `now`;
 * `extra` adds or overrides what a test needs (facts cache, audit lookups, a GitHub stub).
 */
export function runContextFor(http: HttpClient, server: FixtureServer, now: Date, extra: Partial<RunContext> = {}): RunContext {
  return {
    http,
    npm: NO_NPM,
    endpoints: endpointsFor(server),
    githubToken: null,
    githubLimiter: new GithubRateLimiter(),
    now,
    category: null,
    gate: DEFAULT_GATE,
    ...extra,
  };
}

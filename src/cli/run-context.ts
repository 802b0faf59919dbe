/**
 * Everything a run of `check` or `audit` shares: npm configuration, endpoints, the GitHub token,
 * one HTTP client (one keep-alive pool per origin, credentials bound to their origins) behind the
 * store's cache, and the clock. Bad configuration is a usage error (exit 2).
 */
import { createHash } from 'node:crypto';
import type { RunContext } from '../pipeline/context.js';
import type { GateOptions } from '../scoring/gate.js';
import { resolveEndpoints, type Endpoints } from '../sources/endpoints.js';
import { githubAuthFor, githubToken } from '../sources/github.js';
import { createHostHealth, type HostHealth } from '../sources/host-health.js';
import { createHttpClient } from '../sources/http.js';
import { loadNpmConfig, type NpmConfig } from '../sources/npm-config.js';
import { observeRequests } from '../sources/observed-http.js';
import { nameOfDown, SERVICE_SHORT_NAMES, serviceOf } from '../sources/services.js';
import type { RunActivity } from './progress.js';
import type { HttpClient } from '../sources/types.js';
import { UsageError } from './options.js';
import { StoreSession } from './store-session.js';
import { printWarning } from './stderr.js';

const DEFAULT_TIMEOUT_S = 60;

export interface RunSetupOptions {
  cwd: string;
  registry?: string | undefined;
  offline?: boolean | undefined;
  cache?: boolean | undefined;
  history?: boolean | undefined;
  maxAge?: number | undefined;
  timeout?: number | undefined;
  category?: string | undefined;
  gate: GateOptions;
  now: Date;
  /** The audited directory (`audit`): its own .npmrc is untrusted data, not configuration. */
  untrustedDir?: string;
  trustProjectNpmrc?: boolean;
}

export interface RunSetup {
  ctx: RunContext;
  session: StoreSession;
  http: HttpClient;
  npm: NpmConfig;
  endpoints: Endpoints;
  /** The hosts found down during the run (each one is asked no more after it failed). */
  health: HostHealth;
  /** What the run is waiting on now, for the progress line. */
  activity: RunActivity;
}

/**
 * A short hash of the credentials a run sends (the GitHub token, the default registry's npm
 * credential), '' with none: the facts cache's keys are scoped by it (see StoreSession.facts).
 * Facts from a scoped registry with its own credential are keyed by that registry's credential
 * hash in the source itself.
 */
export function credentialScope(token: string | null, npm: Pick<NpmConfig, 'registry' | 'authHeaderFor'>): string {
  const npmAuth = npm.authHeaderFor(npm.registry) ?? null;
  if (token === null && npmAuth === null) return '';
  return createHash('sha256').update(JSON.stringify([token, npmAuth])).digest('hex').slice(0, 16);
}

export function setUpRun(options: RunSetupOptions): RunSetup {
  let npm: NpmConfig;
  let endpoints: Endpoints;
  try {
    npm = loadNpmConfig({
      env: process.env,
      cwd: options.cwd,
      ...(options.registry === undefined ? {} : { cliRegistry: options.registry }),
      ...(options.untrustedDir === undefined ? {} : { untrustedDir: options.untrustedDir }),
      trustProjectRegistry: options.trustProjectNpmrc === true,
    });
    endpoints = resolveEndpoints(process.env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  for (const warning of npm.warnings) printWarning(warning);

  const token = githubToken(process.env);
  const githubAuth = githubAuthFor(endpoints, token);
  const deadline = AbortSignal.timeout((options.timeout ?? DEFAULT_TIMEOUT_S) * 1000);
  const session = new StoreSession(
    {
      offline: options.offline === true,
      cache: options.cache !== false,
      history: options.history !== false,
      ...(options.maxAge === undefined ? {} : { maxAgeS: options.maxAge }),
    },
    process.env,
  );
  // Failures are counted per service (a scoped registry unknown here counts by its host).
  const registries = [npm.registry, endpoints.npmPublicRegistry];
  const health = createHostHealth({ scopeOf: (url) => serviceOf(url, endpoints, registries) ?? url.host });
  const network = observeRequests(createHttpClient({ npm, signal: deadline, authFor: githubAuth, health }), (url) => {
    const service = serviceOf(url, endpoints, registries);
    return service === null ? new URL(url).host : SERVICE_SHORT_NAMES[service];
  });
  const activity: RunActivity = {
    inFlight: () => network.inFlight(),
    down: () => health.down().map((d) => nameOfDown(d, endpoints, registries, SERVICE_SHORT_NAMES)),
  };
  const http = session.http(network, endpoints, npm, githubAuth);
  const ctx: RunContext = {
    http,
    npm,
    endpoints,
    githubToken: token,
    now: options.now,
    category: options.category ?? null,
    gate: options.gate,
    facts: session.facts(credentialScope(token, npm)),
  };
  return { ctx, session, http, npm, endpoints, health, activity };
}

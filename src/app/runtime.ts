/**
 * The runtime: what every use case shares, built once per process — the npm configuration, the
 * endpoints, the credentials, one HTTP client (one keep-alive pool per origin, credentials bound
 * to their origins) behind the store's cache, the facts cache, the GitHub rate-limit switch and
 * the clock. A use case call gets its own view of it (`callContext`): the pool with the call's
 * deadline on each request, the call's instant, gate and category — so one long-lived process
 * (a server) serves many calls over one pool, each with its own deadline.
 *
 * Bad configuration is a `ConfigError`; nothing here writes to a terminal (warnings go to
 * `config.warn`).
 */
import { createHash } from 'node:crypto';
import type { RunContext } from '../pipeline/context.js';
import type { GateOptions } from '../scoring/gate.js';
import { resolveEndpoints, type Endpoints } from '../sources/endpoints.js';
import { githubAuthFor, githubToken, GithubRateLimiter } from '../sources/github/source.js';
import { createHttpClient } from '../sources/http/client.js';
import { createHostHealth, type HostHealth } from '../sources/http/host-health.js';
import { createLargeBodyGate } from '../sources/http/large-bodies.js';
import { observeRequests } from '../sources/http/observed.js';
import { streamBody } from '../sources/http/stream.js';
import { loadNpmConfig, type NpmConfig } from '../sources/npm/config.js';
import { loadPythonConfigParser, loadPythonIndexes, type PythonIndexes } from '../audit/python-indexes.js';
import { loadYarnrcParser, loadYarnRegistries, type YarnRegistries } from '../audit/yarnrc.js';
import { readTreeFileSync } from '../audit/tree-file.js';
import type { HttpClient, HttpRequest } from '../sources/http/types.js';
import { namesOfDown, SERVICE_SHORT_NAMES, serviceOf } from '../sources/services.js';
import { StoreSession, type StoreOptions } from './store-session.js';

export interface RuntimeConfig {
  /** Where configuration is read: endpoints, tokens, npm's variables, the store's directory. */
  env: NodeJS.ProcessEnv;
  /** The directory npm's configuration is found from (a project's .npmrc). */
  cwd: string;
  /** --registry: the npm registry, over npm's configuration. */
  registry?: string | undefined;
  /**
   * A checkout whose .npmrc is untrusted data, not configuration (an audited project). Given,
   * yarn's registries (`.yarnrc.yml`) are also read: an audit vouches lockfile hosts with them;
   * and pip's and uv's configured indexes, which an audit holds requirements files to.
   */
  untrustedDir?: string | undefined;
  /** --trust-project-npmrc: follow the audited project's .npmrc and .yarnrc.yml registries. */
  trustProjectNpmrc?: boolean | undefined;
  /** Answer only from the store. */
  offline?: boolean | undefined;
  /** false: do not read the HTTP cache (answers are still written). */
  cache?: boolean | undefined;
  /** false: do not record evaluations or compare with the previous one. */
  history?: boolean | undefined;
  /** Treat cached answers older than this (seconds) as stale. */
  maxAgeS?: number | undefined;
  /** The evaluation clock (NERQ_NOW fixes it); default the real one. */
  clock?: () => Date;
  /** Where warnings go (npm configuration, the store); default nowhere. */
  warn?: (message: string) => void;
}

/** Configuration that cannot be used (an invalid registry URL or endpoint variable). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** What one call asks for, beside its targets. */
export interface CallOptions {
  /** Aborts the call's requests: its deadline (`AbortSignal.timeout`) or its cancellation. */
  signal?: AbortSignal | undefined;
  /** The evaluation instant; default the runtime's clock at the start of the call. */
  now?: Date | undefined;
  gate: GateOptions;
  /** --category: overrides every target's category. */
  category?: string | null | undefined;
  /** --include-package: repository targets fold in a verified package's registry checks (docs/scoring.md §9). */
  includePackage?: { name: string | null } | undefined;
}

/** What the runtime is waiting on now, for a progress line: requests in flight per service, services down. */
export interface RuntimeActivity {
  inFlight(): ReadonlyMap<string, number>;
  /** The services found down, one name each (a whole host down is each service nerq asks there), each once. */
  down(): readonly string[];
}

export interface Runtime {
  readonly npm: NpmConfig;
  /** Yarn's configured registries (an audit's only; none otherwise): lockfile hosts they vouch for. */
  readonly yarn: YarnRegistries;
  /** pip's and uv's indexes configured on this machine (an audit's only; none otherwise): python-indexes.ts. */
  readonly python: PythonIndexes;
  readonly endpoints: Endpoints;
  readonly githubToken: string | null;
  /** The pool every call's requests go through, behind the store's cache. */
  readonly http: HttpClient;
  readonly session: StoreSession;
  /** The hosts found down (each one is asked no more after it failed; README.md, "Unreachable hosts"). */
  readonly health: HostHealth;
  readonly activity: RuntimeActivity;
  /** The evaluation clock. */
  now(): Date;
  /** The view of the runtime one call evaluates with. */
  callContext(call: CallOptions): RunContext;
  /**
   * Close the pool, record the cache counters, prune and write the store. `abandon` (a front door
   * shutting down, once no caller waits): requests still in flight — an evaluation nobody waits
   * for, on a host that does not answer — are aborted, not waited for until their own timeouts.
   */
  close(options?: { abandon?: boolean }): Promise<void>;
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

/** The pool with a call's signal on every request it sends; closing it leaves the pool open. */
export function withSignal(http: HttpClient, signal: AbortSignal | undefined): HttpClient {
  if (signal === undefined) return http;
  const withCall = (req: HttpRequest): HttpRequest => ({ ...req, signal: req.signal === undefined ? signal : AbortSignal.any([signal, req.signal]) });
  return {
    request: (req) => http.request(withCall(req)),
    stream: (req, consume) => streamBody(http, withCall(req), consume),
    close: () => Promise.resolve(),
  };
}

const NO_YARN_REGISTRIES: YarnRegistries = { registriesFor: () => [], warnings: [] };
const NO_PYTHON_INDEXES: PythonIndexes = { indexes: [], warnings: [] };

/**
 * Loads the parsers an audit's configuration files are read with (`.yarnrc.yml`'s YAML,
 * uv.toml's TOML): awaited before createRuntime with `untrustedDir`. A check reads neither file,
 * and so loads neither parser.
 */
export async function loadAuditConfigParsers(): Promise<void> {
  await Promise.all([loadYarnrcParser(), loadPythonConfigParser()]);
}

export function createRuntime(config: RuntimeConfig): Runtime {
  const warn = config.warn ?? (() => undefined);
  let npm: NpmConfig;
  let endpoints: Endpoints;
  try {
    npm = loadNpmConfig({
      env: config.env,
      readFile: readTreeFileSync,
      cwd: config.cwd,
      ...(config.registry === undefined ? {} : { cliRegistry: config.registry }),
      ...(config.untrustedDir === undefined ? {} : { untrustedDir: config.untrustedDir }),
      trustProjectRegistry: config.trustProjectNpmrc === true,
    });
    endpoints = resolveEndpoints(config.env);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  for (const warning of npm.warnings) warn(warning);
  const yarn =
    config.untrustedDir === undefined
      ? NO_YARN_REGISTRIES
      : loadYarnRegistries({ env: config.env, cwd: config.cwd, untrustedDir: config.untrustedDir, trustProject: config.trustProjectNpmrc === true });
  for (const warning of yarn.warnings) warn(warning.message);
  const python = config.untrustedDir === undefined ? NO_PYTHON_INDEXES : loadPythonIndexes({ env: config.env });
  for (const warning of python.warnings) warn(warning);

  const token = githubToken(config.env);
  const githubAuth = githubAuthFor(endpoints, token);
  const storeOptions: StoreOptions = {
    offline: config.offline === true,
    cache: config.cache !== false,
    history: config.history !== false,
    ...(config.maxAgeS === undefined ? {} : { maxAgeS: config.maxAgeS }),
  };
  const session = new StoreSession(storeOptions, config.env, warn);
  // Failures are counted per service (a scoped registry unknown here counts by its host).
  const registries = [npm.registry];
  const health = createHostHealth({ scopeOf: (url) => serviceOf(url, endpoints, registries) ?? url.host });
  // The run's large-body permits (large-bodies.ts): at most LARGE_BODY_PERMITS tarballs over
  // LARGE_BODY_BYTES stream at once, whatever the number of evaluations in flight.
  const largeBodies = createLargeBodyGate();
  const network = observeRequests(createHttpClient({ npm, authFor: githubAuth, health, largeBodies }), (url) => {
    const service = serviceOf(url, endpoints, registries);
    return service === null ? new URL(url).host : SERVICE_SHORT_NAMES[service];
  });
  const activity: RuntimeActivity = {
    inFlight: () => network.inFlight(),
    down: () => [...new Set(health.down().flatMap((d) => namesOfDown(d, endpoints, registries, SERVICE_SHORT_NAMES)))],
  };
  const http = session.http(network, endpoints, npm, githubAuth);
  const facts = session.facts(credentialScope(token, npm));
  const githubLimiter = new GithubRateLimiter();
  const clock = config.clock ?? (() => new Date());

  return {
    npm,
    yarn,
    python,
    endpoints,
    githubToken: token,
    http,
    session,
    health,
    activity,
    now: clock,
    callContext: (call) => ({
      http: withSignal(http, call.signal),
      npm,
      endpoints,
      githubToken: token,
      githubLimiter,
      now: call.now ?? clock(),
      category: call.category ?? null,
      gate: call.gate,
      facts,
      ...(call.includePackage === undefined ? {} : { includePackage: call.includePackage }),
    }),
    async close(options) {
      await http.close(options);
      session.close();
    },
  };
}

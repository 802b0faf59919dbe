/**
 * Start `nerq serve` (docs/serve.md): one runtime, one evaluator, the Fastify application on
 * `host:port`. The line `listening on http://HOST:PORT` goes to stdout once the socket is bound
 * (with `--port 0`, the port the system chose); logs go to stderr as JSON lines. SIGTERM or
 * SIGINT: stop accepting, let requests in flight finish within the grace period, close the
 * store, resolve 0.
 */
import { createEvaluator } from '../app/evaluator.js';
import { createRuntime } from '../app/runtime.js';
import { hostPolicyOf } from '../front/allowed-host.js';
import { isLoopbackAddress } from '../front/loopback.js';
import { readTokenFile, ServerConfigError } from '../front/token-file.js';
import { buildServer } from './server.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** A file of bearer tokens, one a line. */
  tokenFile?: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock?: (() => Date) | undefined;
  warn: (message: string) => void;
  /** Where the `listening on` line goes (default stdout). */
  announce?: (line: string) => void;
  logLevel?: string | undefined;
  /** How long in-flight requests get to finish after SIGTERM (default 10 s). */
  graceMs?: number;
  /** Evaluations at once, and distinct ones waiting, before 429 (defaults of the evaluator). */
  concurrency?: number | undefined;
  maxPending?: number | undefined;
  requestTimeoutMs?: number | undefined;
  /** How long a finished evaluation answers again (the evaluator's default: 60 s). */
  reuseMs?: number | undefined;
  /** Requests per minute from one client address (none by default). */
  rateLimitPerMinute?: number | undefined;
  /** Browser origins allowed to read the answers (CORS), exact; none by default. */
  corsOrigins?: readonly string[] | undefined;
  /** Host names answered besides loopback ones (`--allowed-host`); none by default. */
  allowedHosts?: readonly string[] | undefined;
  /** Open connections at most (front/connections.ts). */
  maxConnections?: number | undefined;
}

/**
 * An origin `--cors-origin` accepts: exactly `scheme://host[:port]` of an http(s) page, as a
 * browser sends it in `Origin` — no wildcard, no path, no trailing slash.
 */
export function corsOriginOf(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text || text.includes('*')) {
    throw new ServerConfigError(`--cors-origin must be an exact origin such as https://app.example.com (scheme, host and port only), not ${JSON.stringify(text.slice(0, 100))}`);
  }
  return text;
}

/** Runs until SIGTERM or SIGINT; resolves with the exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  const tokens = options.tokenFile === undefined ? null : readTokenFile(options.tokenFile, options.warn);
  const corsOrigins = (options.corsOrigins ?? []).map(corsOriginOf);
  const hosts = hostPolicyOf(isLoopbackAddress(options.host), options.allowedHosts ?? []);
  const runtime = createRuntime({ env: options.env, cwd: options.cwd, warn: options.warn, ...(options.clock ? { clock: options.clock } : {}) });
  const evaluator = createEvaluator(runtime, {
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.maxPending === undefined ? {} : { maxPending: options.maxPending }),
    ...(options.reuseMs === undefined ? {} : { reuseMs: options.reuseMs }),
  });
  const app = buildServer({
    runtime,
    evaluator,
    tokens,
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    rateLimit: options.rateLimitPerMinute ? { max: options.rateLimitPerMinute, windowMs: 60_000 } : null,
    corsOrigins,
    // Bound to loopback, only a loopback Host is answered (DNS rebinding); on a network address, any — unless --allowed-host lists the names.
    hosts,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await runtime.close();
    throw new ServerConfigError(`cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  (options.announce ?? ((line) => process.stdout.write(`${line}\n`)))(`listening on http://${host}:${port}`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      app.log.info('shutting down: finishing requests in flight');
      const grace = setTimeout(() => app.server.closeAllConnections(), options.graceMs ?? 10_000);
      grace.unref();
      void app
        .close()
        .catch(() => undefined)
        // No caller waits any more: an evaluation still running (its callers' deadlines passed) is abandoned.
        .then(() => runtime.close({ abandon: true }))
        .then(
          () => resolve(0),
          () => resolve(0),
        )
        .finally(() => {
          clearTimeout(grace);
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
        });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

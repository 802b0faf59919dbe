/** `nerq serve`: the HTTP API (docs/serve.md). Options are checked here; bad ones are a usage error (exit 2). */
import { z } from 'zod';
import { ConfigError } from '../app/runtime.js';
import { ServerConfigError } from '../front/token-file.js';
import { serve } from '../serve/start.js';
import { clockFrom, logLevelOption, parseOptions, UsageError, warn, wholeOption as whole } from './options.js';

const ServeOptionsSchema = z.object({
  host: z.string().min(1, '--host must not be empty').default('127.0.0.1'),
  port: whole('--port', 0, 65_535).default(8787),
  tokenFile: z.string().min(1).optional(),
  logLevel: logLevelOption.default('info'),
  concurrency: whole('--concurrency', 1, 256).optional(),
  maxQueue: whole('--max-queue', 1, 100_000).optional(),
  timeout: whole('--timeout', 1, 3600).optional(),
  reuse: whole('--reuse', 0, 86_400).optional(),
  rateLimit: whole('--rate-limit', 1, 1_000_000).optional(),
  corsOrigin: z.array(z.string()).optional(),
  allowedHost: z.array(z.string()).optional(),
  maxConnections: whole('--max-connections', 1, 65_535).optional(),
});

export async function runServe(raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(ServeOptionsSchema, raw);
  const fixed = clockFrom(process.env);
  try {
    return await serve({
      host: options.host,
      port: options.port,
      tokenFile: options.tokenFile,
      env: process.env,
      cwd: process.cwd(),
      clock: fixed === null ? undefined : () => fixed,
      warn,
      logLevel: options.logLevel,
      concurrency: options.concurrency,
      maxPending: options.maxQueue,
      requestTimeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
      reuseMs: options.reuse === undefined ? undefined : options.reuse * 1000,
      rateLimitPerMinute: options.rateLimit,
      corsOrigins: options.corsOrigin,
      allowedHosts: options.allowedHost,
      maxConnections: options.maxConnections,
    });
  } catch (error) {
    if (error instanceof ServerConfigError || error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** `nerq mcp`: the MCP server on stdio, or with --http on loopback (docs/mcp.md). */
import { z } from 'zod';
import { ConfigError } from '../app/runtime.js';
import { serveMcpHttp, serveMcpStdio } from '../mcp/start.js';
import { ServerConfigError } from '../front/token-file.js';
import { clockFrom, logLevelOption, parseOptions, UsageError, warn, wholeOption } from './options.js';

const McpOptionsSchema = z.object({
  http: z.boolean().optional(),
  port: wholeOption('--port', 0, 65_535).optional(),
  tokenFile: z.string().min(1).optional(),
  logLevel: logLevelOption.optional(),
  concurrency: wholeOption('--concurrency', 1, 256).optional(),
  maxQueue: wholeOption('--max-queue', 1, 100_000).optional(),
  maxConnections: wholeOption('--max-connections', 1, 65_535).optional(),
  allowedHost: z.array(z.string()).optional(),
});

export async function runMcp(raw: Record<string, unknown> = {}): Promise<number> {
  const options = parseOptions(McpOptionsSchema, raw);
  if (
    !options.http &&
    (options.port !== undefined || options.tokenFile !== undefined || options.logLevel !== undefined || options.maxConnections !== undefined || options.allowedHost !== undefined)
  ) {
    throw new UsageError('--port, --token-file, --log-level, --max-connections and --allowed-host go with --http');
  }
  const fixed = clockFrom(process.env);
  const base = { env: process.env, cwd: process.cwd(), clock: fixed === null ? undefined : () => fixed, warn, concurrency: options.concurrency, maxPending: options.maxQueue };
  try {
    if (options.http) {
      return await serveMcpHttp({
        ...base,
        port: options.port ?? 8788,
        tokenFile: options.tokenFile,
        logLevel: options.logLevel,
        maxConnections: options.maxConnections,
        allowedHosts: options.allowedHost,
      });
    }
    return await serveMcpStdio(base);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ServerConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Start `nerq mcp` on stdio (docs/mcp.md), or with `--http` on loopback: one runtime and one evaluator for the session; stdout
 * carries protocol messages only (warnings go to `warn`, i.e. stderr). Resolves 0 when the
 * client closes the connection (stdin ends) or on SIGTERM / SIGINT, after the store is closed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEvaluator } from '../app/evaluator.js';
import { createRuntime } from '../app/runtime.js';
import { hostPolicyOf } from '../front/allowed-host.js';
import { readTokenFile, ServerConfigError } from '../front/token-file.js';
import { buildMcpHttp } from './http.js';
import { answeringBadLines } from './stdio-lines.js';
import { createMcpServer } from './server.js';

export interface McpStartOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock?: (() => Date) | undefined;
  warn: (message: string) => void;
  /** Evaluations at once, and distinct ones waiting, before a call is refused `busy` (defaults of the evaluator: 8 and 256). */
  concurrency?: number | undefined;
  maxPending?: number | undefined;
}

const evaluatorFor = (runtime: ReturnType<typeof createRuntime>, options: McpStartOptions) =>
  createEvaluator(runtime, {
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.maxPending === undefined ? {} : { maxPending: options.maxPending }),
  });

export async function serveMcpStdio(options: McpStartOptions): Promise<number> {
  const runtime = createRuntime({ env: options.env, cwd: options.cwd, warn: options.warn, ...(options.clock ? { clock: options.clock } : {}) });
  const server = createMcpServer({ runtime, evaluator: evaluatorFor(runtime, options) });
  // A line that is not a JSON-RPC message is answered, not dropped (stdio-lines.ts).
  const transport = new StdioServerTransport(answeringBadLines(process.stdin, (line) => process.stdout.write(line)), process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  // The session is over: an evaluation still running (a call cancelled or past its deadline) is abandoned.
  await runtime.close({ abandon: true });
  return 0;
}

export interface McpHttpStartOptions extends McpStartOptions {
  port: number;
  tokenFile?: string | undefined;
  logLevel?: string | undefined;
  /** Where the `listening on` line goes (default stdout). */
  announce?: (line: string) => void;
  /** Open connections at most (front/connections.ts). */
  maxConnections?: number | undefined;
  /** Host names answered besides loopback ones (`--allowed-host`); none by default. */
  allowedHosts?: readonly string[] | undefined;
}

/** `nerq mcp --http`: streamable HTTP on 127.0.0.1 only; runs until SIGTERM or SIGINT, then resolves 0. */
export async function serveMcpHttp(options: McpHttpStartOptions): Promise<number> {
  const tokens = options.tokenFile === undefined ? null : readTokenFile(options.tokenFile, options.warn);
  const hosts = hostPolicyOf(true, options.allowedHosts ?? []);
  const runtime = createRuntime({ env: options.env, cwd: options.cwd, warn: options.warn, ...(options.clock ? { clock: options.clock } : {}) });
  const app = buildMcpHttp({
    runtime,
    evaluator: evaluatorFor(runtime, options),
    tokens,
    hosts,
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
  });
  try {
    await app.listen({ host: '127.0.0.1', port: options.port });
  } catch (error) {
    await runtime.close();
    throw new ServerConfigError(`cannot listen on 127.0.0.1:${options.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  (options.announce ?? ((line) => process.stdout.write(`${line}\n`)))(`listening on http://127.0.0.1:${port}/mcp`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await app.close().catch(() => undefined);
  await runtime.close({ abandon: true });
  return 0;
}

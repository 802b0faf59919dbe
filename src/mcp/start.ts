/**
 * Start `nerq mcp` on stdio (docs/mcp.md): one runtime and one evaluator for the session; stdout
 * carries protocol messages only (warnings go to `warn`, i.e. stderr). Resolves 0 when the
 * client closes the connection (stdin ends) or on SIGTERM / SIGINT, after the store is closed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEvaluator } from '../app/evaluator.js';
import { createRuntime } from '../app/runtime.js';
import { createMcpServer } from './server.js';

export interface McpStartOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock?: (() => Date) | undefined;
  warn: (message: string) => void;
}

export async function serveMcpStdio(options: McpStartOptions): Promise<number> {
  const runtime = createRuntime({ env: options.env, cwd: options.cwd, warn: options.warn, ...(options.clock ? { clock: options.clock } : {}) });
  const server = createMcpServer({ runtime, evaluator: createEvaluator(runtime) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  await runtime.close();
  return 0;
}

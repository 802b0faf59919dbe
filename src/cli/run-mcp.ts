/** `nerq mcp`: the MCP server on stdio (docs/mcp.md). */
import { ConfigError } from '../app/runtime.js';
import { serveMcpStdio } from '../mcp/start.js';
import { clockFrom, UsageError, warn } from './options.js';

export async function runMcp(): Promise<number> {
  const fixed = clockFrom(process.env);
  try {
    return await serveMcpStdio({ env: process.env, cwd: process.cwd(), clock: fixed === null ? undefined : () => fixed, warn });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

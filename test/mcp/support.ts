/** `nerq mcp`'s tools in process: the SDK client over an in-memory transport, a fresh store, every endpoint at the fixture server. */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createEvaluator, type Evaluator } from '../../src/app/evaluator.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome, NOW } from '../serve/support.js';

export interface Connected {
  client: Client;
  runtime: Runtime;
  evaluator: Evaluator;
  /** Close the client, the server (once its evaluations ended) and the store; remove the home. */
  close(): Promise<void>;
}

export async function connectInMemory(server: FixtureServer): Promise<Connected> {
  const home = freshHome();
  const runtime = createRuntime({ env: cliEnv(home, { server }), cwd: home, clock: () => NOW });
  const evaluator = createEvaluator(runtime);
  const mcp = createMcpServer({ runtime, evaluator });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'nerq-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    runtime,
    evaluator,
    async close() {
      await client.close();
      await mcp.close();
      await evaluator.idle();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result's first content item. */
export const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { type: string; text: string }[])[0]?.text ?? '';

/** `nerq mcp`'s tools in process: the SDK client over an in-memory transport, a fresh store, every endpoint at the fixture server. */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createEvaluator, type Evaluator } from '../../src/app/evaluator.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
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

/** The text of a tool result's last content item: the answer's JSON (after nerq's verdict lines, when it has them). */
export const jsonTextOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { type: string; text: string }[]).at(-1)?.text ?? '';

/**
 * A test file's fixture server and in-process clients: `setup` runs once on the started server
 * (serve what the file's tests need); after each test the server must have seen nothing
 * unexpected and every client the test connected is closed; the server closes after the file.
 * Returns `connect`, which connects a client to a fresh `nerq mcp` over that server.
 */
export function mcpFixture(setup: (server: FixtureServer) => void): () => Promise<Connected> {
  let server: FixtureServer | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    server = await startFixtureServer();
    setup(server);
  });
  afterEach(async () => {
    if (server !== undefined) expectNoUnexpected(server);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await server?.close();
  });
  return async () => {
    if (server === undefined) throw new Error('mcpFixture: connect() before the fixture server started');
    const connected = await connectInMemory(server);
    cleanups.push(connected.close);
    return connected;
  };
}

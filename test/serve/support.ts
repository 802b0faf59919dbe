/** A `nerq serve` application in process against the fixture server: a fresh store, every endpoint at loopback. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createEvaluator, type Evaluator, type EvaluatorOptions } from '../../src/app/evaluator.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { buildServer, type ServerOptions } from '../../src/serve/server.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { cliEnv, DEFAULT_NOW } from '../support/run-cli.js';

export const NOW = new Date(DEFAULT_NOW);

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  evaluator: Evaluator;
  home: string;
  /** Everything the server logged. */
  logs(): string;
  close(): Promise<void>;
}

export function freshHome(): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-serve-'));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, dir), { recursive: true });
  return home;
}

export function testApp(
  server: FixtureServer,
  options: { evaluator?: EvaluatorOptions; server?: Partial<Omit<ServerOptions, 'runtime' | 'evaluator'>>; env?: Record<string, string>; now?: Date } = {},
): TestApp {
  const home = freshHome();
  const now = options.now ?? NOW;
  const runtime = createRuntime({ env: cliEnv(home, { server, env: options.env }), cwd: home, clock: () => now });
  const evaluator = createEvaluator(runtime, options.evaluator);
  const chunks: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const app = buildServer({ runtime, evaluator, logLevel: 'info', logStream, ...options.server });
  return {
    app,
    runtime,
    evaluator,
    home,
    logs: () => chunks.join(''),
    async close() {
      await app.close();
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

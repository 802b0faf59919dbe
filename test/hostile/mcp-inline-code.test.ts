/**
 * Hostile world: inline code in an MCP launch. A configuration may start a server with code
 * written in its arguments (`node -e "…"`, `python -c "…"`, `tsx -e`, `node -p`), and that code
 * may carry a token (`require('srv')({ apiKey: '…' })`). nerq lists such a launch as a local
 * program it cannot evaluate, and never echoes an argument other than the package
 * (docs/security.md, "MCP client configurations are data"): the token reaches no output.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const TOKEN = 'sk-inlineSECRET0123456789abcdef';

/** [label, command, args]: each runs code written in its arguments, the token in it. */
const LAUNCHES: [string, string, string[]][] = [
  ['node -e', 'node', ['-e', `require('srv')({ apiKey: '${TOKEN}' })`]],
  ['node --eval then a file-like word', 'node', ['--eval', `run('${TOKEN}')`, 'x.js']],
  ['node -p', 'node', ['-p', `'${TOKEN}'`]],
  ['tsx -e', 'tsx', ['-e', `start('${TOKEN}')`]],
  ['python -c', 'python', ['-c', `import srv; srv.run(key='${TOKEN}')`]],
  ['python3 -W then -c', 'python3', ['-W', 'ignore', '-c', `run('${TOKEN}')`]],
  ['python3 -X option, then a script and its arguments', 'python3', ['-X', 'utf8', 'server.py', '--key', TOKEN]],
];

let scratch: string;
beforeAll(() => {
  requireCli();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-inline-code-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('inline code in a launch is not echoed', () => {
  it.concurrent.for(LAUNCHES)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, command, args], { task }) => {
    noteCases(task);
    const dir = path.join(scratch, label.replace(/[^a-z0-9]+/gi, '-'));
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { srv: { command, args } } }));
    for (const format of [['--json'], ['--format', 'markdown'], ['--format', 'sarif'], []]) {
      const run = await runHostile(['audit', dir, '--mcp-config', path.join(dir, 'mcp.json'), '--offline', ...format]);
      const context = `${label} ${format.join(' ')}: exit ${run.code}\n${run.stderr.slice(0, 400)}\n${run.stdout.slice(0, 900)}`;
      expectCleanStderr(run.stderr, context);
      expect(run.stdout + run.stderr, context).not.toContain(TOKEN);
      // The launch is still listed, not dropped.
      expect(run.stdout + run.stderr, context).toContain('srv');
    }
  });
});

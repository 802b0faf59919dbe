/**
 * Hostile world: an MCP launch that hides the package it runs behind a wrapper. A pull request
 * adds a server to the project's MCP configuration whose command is not the runner itself but
 * something that starts it — `env`, `timeout`, `nice`, a shell given a command line, the
 * runner by its full Windows path (with a space in it), `pnpx` — and the client still fetches
 * and runs the package from npm or PyPI. nerq must see that package (evaluate it; offline it
 * cannot, so the run is INCOMPLETE), not call the launch "not evaluable" and pass the run. A
 * wrapper nerq cannot see through that still names a package runner among its words starts a
 * package nerq cannot name: code it cannot inspect, INCOMPLETE as well.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const PACKAGE = 'nerq-hidden-pkg';

/** [label, command, args]: each starts PACKAGE (from npm, or PyPI for uvx). */
const LAUNCHES: [string, string, string[]][] = [
  ['env', 'env', ['npx', '-y', PACKAGE]],
  ['/usr/bin/env with a variable', '/usr/bin/env', ['NODE_ENV=production', 'npx', '-y', PACKAGE]],
  ['env -S with the command line in one word', 'env', ['-S', `npx -y ${PACKAGE}`]],
  ['timeout', 'timeout', ['60', 'npx', '-y', PACKAGE]],
  ['timeout with a signal', 'timeout', ['-s', 'KILL', '60s', 'npx', '-y', PACKAGE]],
  ['nice', 'nice', ['-n', '10', 'npx', '-y', PACKAGE]],
  ['nohup', 'nohup', ['npx', '-y', PACKAGE]],
  ['sh -c', 'sh', ['-c', `npx -y ${PACKAGE}`]],
  ['bash -c with exec', 'bash', ['-c', `exec npx -y ${PACKAGE}`]],
  ['bash -lc, two commands', 'bash', ['-lc', `cd /tmp && npx -y '${PACKAGE}'`]],
  ['sh -c, then another command', 'sh', ['-c', `npx -y ${PACKAGE}; true`]],
  ['powershell -Command', 'powershell', ['-Command', `npx -y ${PACKAGE}`]],
  ['cmd /k', 'cmd', ['/k', 'npx', '-y', PACKAGE]],
  ['npx by its full Windows path', 'C:\\Program Files\\nodejs\\npx.cmd', ['-y', PACKAGE]],
  ['pnpx', 'pnpx', [PACKAGE]],
  ['env then uvx', 'env', ['uvx', PACKAGE]],
  ['stdbuf', 'stdbuf', ['-oL', 'npx', '-y', PACKAGE]],
  ['sudo -u', 'sudo', ['-u', 'mcp', 'npx', '-y', PACKAGE]],
  ['doas', 'doas', ['npx', '-y', PACKAGE]],
  ['wsl -e', 'wsl', ['-e', 'npx', '-y', PACKAGE]],
  ['volta run', 'volta', ['run', 'npx', '-y', PACKAGE]],
  ['mise exec --', 'mise', ['exec', '--', 'npx', '-y', PACKAGE]],
  ['mise x --', 'mise', ['x', '--', 'npx', '-y', PACKAGE]],
  ['asdf exec', 'asdf', ['exec', 'npx', '-y', PACKAGE]],
  ['fnm exec', 'fnm', ['exec', '--using=20', '--', 'npx', '-y', PACKAGE]],
  ['corepack pnpm dlx', 'corepack', ['pnpm', 'dlx', PACKAGE]],
  ['corepack yarn dlx', 'corepack', ['yarn', 'dlx', PACKAGE]],
];

/** [label, command, args]: each starts a package runner in a way nerq cannot read. */
const UNREADABLE: [string, string, string[]][] = [
  ['a wrapper nerq does not know', 'with-proxy', ['npx', '-y', PACKAGE]],
  ['nvm exec', 'nvm', ['exec', '20', 'npx', '-y', PACKAGE]],
  ['sh -c installing then running', 'sh', ['-c', `npm i -g ${PACKAGE} && ${PACKAGE}`]],
];

let scratch: string;
beforeAll(() => {
  requireCli();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-wrappers-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `nerq audit --mcp-config` (offline, JSON) over one server `srv` launched as `command args`, in a folder of its own. */
async function auditLaunch(folder: string, command: string, args: readonly string[]) {
  const dir = path.join(scratch, folder.replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { srv: { command, args } } }));
  return runHostile(['audit', dir, '--mcp-config', path.join(dir, 'mcp.json'), '--offline', '--json']);
}

describe('a package started through a wrapper is the package', () => {
  it.concurrent.for(LAUNCHES)('%s: the package is seen and the run is not PASS', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, command, args], { task }) => {
    noteCases(task);
    const run = await auditLaunch(label, command, args);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 400)}\n${run.stdout.slice(0, 600)}`;
    expectCleanStderr(run.stderr, context);
    // Offline the package cannot be evaluated: INCOMPLETE, never PASS.
    expect(run.code, context).toBe(3);
    expect(run.stdout, context).toContain(PACKAGE);
    const report = JSON.parse(run.stdout) as { warnings: { code: string; message: string }[] };
    expect(report.warnings.filter((w) => w.code === 'input-note' && w.message.includes('"srv"')), context).toEqual([]);
  });
});

describe('a package runner started in a way nerq cannot read is code nerq cannot inspect', () => {
  it.concurrent.for(UNREADABLE)('%s: mcp-uninspected, the run is not PASS', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, command, args], { task }) => {
    noteCases(task);
    const run = await auditLaunch(`unreadable-${label}`, command, args);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 400)}\n${run.stdout.slice(0, 600)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const report = JSON.parse(run.stdout) as { warnings: { code: string; message: string }[] };
    expect(report.warnings.map((w) => w.code), context).toContain('mcp-uninspected');
    expect(report.warnings.filter((w) => w.code === 'input-note' && w.message.includes('"srv"')), context).toEqual([]);
  });
});

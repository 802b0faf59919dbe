/**
 * Hostile world: commands to the CI runner in nerq's own log. A CI job logs what nerq prints,
 * and the runner reads commands out of that log: GitHub Actions a line that starts with `::`
 * after white space, and its older `##[command]data` anywhere in a line (`##[stop-commands]x`
 * silences every annotation nerq writes after it, `##[add-mask]` hides text, `##[error]` plants
 * an annotation); Azure Pipelines `##vso[…]` anywhere. Strangers' text — a package's
 * description or deprecation, an MCP server's key in a pull request's configuration — reaches
 * stdout (every format) and stderr; none of it may be read as a command, and JSON stays the
 * same data once parsed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { version } from './support/package-world.js';
import { recordedPackument, SOURCES, VERSION } from './support/sources.js';

/** Commands a runner would act on, each as a stranger would write it. */
const COMMANDS = [
  '##[stop-commands]pwned',
  '##[add-mask]nerq',
  '##[set-output name=verdict;]YES',
  '##VSO[task.setvariable variable=NERQ_OK]true',
  '##vso[task.complete result=Succeeded;]done',
];
/** Text that lands at the start of a line when a table wraps it (or is printed on its own line). */
const LINE_START = ' '.repeat(70) + '::error title=nerq::forged ' + '\u3000::warning::forged';
const HOSTILE = `${COMMANDS.join(' ')} ${LINE_START}`;

/**
 * The first line of `text` a runner would read as a command, or null. nerq's own annotations
 * (stderr under `GITHUB_ACTIONS=true`) are commands by design: a line that is one of those is
 * parsed as it, so what its message holds is data.
 */
function commandIn(text: string, ownAnnotations: boolean): string | null {
  for (const line of text.split(/\r\n|\r|\n/)) {
    const trimmed = line.replace(/^[\s\u0085]+/u, '');
    if (ownAnnotations && /^::(?:error|warning) (?:[^:]*,)?title=nerq%3A [^\n]*?::/.test(trimmed)) continue;
    if (trimmed.startsWith('::') || /##(?:vso)?\[/i.test(line)) return line.slice(0, 160);
  }
  return null;
}

describe('nerq audit: an MCP configuration in the pull request names its servers after runner commands', () => {
  let scratch: string;
  beforeAll(() => {
    requireCli();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-ci-log-'));
    mkdirSync(path.join(scratch, 'project'));
    // Each key gives a finding that names it (a container with the Docker socket's reach).
    const servers = Object.fromEntries([...COMMANDS, LINE_START].map((key, i) => [key, { command: 'docker', args: ['run', '--privileged', `image-${i}`] }]));
    writeFileSync(path.join(scratch, 'project', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const cases: [format: string, actions: boolean][] = ['table', 'markdown', 'json', 'sarif'].flatMap((f) => [[f, false], [f, true]] as [string, boolean][]);
  it.concurrent.for(cases)('%s (GITHUB_ACTIONS=%s): no command reaches stdout or stderr', { timeout: CLI_TEST_TIMEOUT_MS }, async ([format, actions], { task }) => {
    noteCases(task, COMMANDS.length + 1);
    const project = path.join(scratch, 'project');
    const run = await runHostile(['audit', project, '--mcp-config', path.join(project, 'mcp.json'), '--offline', '--format', format], {
      env: actions ? { GITHUB_ACTIONS: 'true' } : { GITHUB_ACTIONS: '' },
    });
    const context = `${format}, GITHUB_ACTIONS=${actions}: exit ${run.code}\n${run.stderr.slice(0, 400)}`;
    expectCleanStderr(run.stderr.split('\n').filter((line) => !line.startsWith('::')).join('\n'), context);
    expect(run.code, context).toBe(1);
    // The keys are still reported (the findings name them).
    expect(run.stdout, context).toMatch(/stop-commands/);
    expect(commandIn(run.stdout, false), `${context}\nstdout`).toBeNull();
    expect(commandIn(run.stderr, actions), `${context}\nstderr`).toBeNull();
    if (actions) expect(run.stderr, context).toMatch(/^::error /m);
    if (format === 'json' || format === 'sarif') {
      // The same data once parsed: the keys are there as written.
      const text = JSON.stringify(JSON.parse(run.stdout));
      for (const key of COMMANDS) expect(text, `${context}\n${key}`).toContain(JSON.stringify(key).slice(1, -1));
    }
  });
});

describe('nerq check: a package whose description and deprecation hold runner commands', () => {
  const servers = new Set<FixtureServer>();
  beforeAll(() => requireCli());
  afterAll(async () => {
    await Promise.all([...servers].map((s) => s.close()));
  });

  it.concurrent.for(['table', 'markdown', 'json'])('%s: no command reaches stdout or stderr', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task }) => {
    noteCases(task, COMMANDS.length + 1);
    const server = await startFixtureServer();
    servers.add(server);
    // chalk's recorded packument, edited: the commands in its description and 4.1.0's deprecation.
    const packument = recordedPackument();
    (packument as Record<string, unknown>).description = HOSTILE;
    Object.assign(version(packument), { description: HOSTILE, deprecated: HOSTILE });
    SOURCES[0]!.world(server, { packument: { body: packument } });
    const run = await runHostile(['check', `chalk@${VERSION}`, '--timeout', '15', '--format', format], { server, env: { GITHUB_ACTIONS: 'true' } });
    const context = `${format}: exit ${run.code}\n${run.stderr.slice(0, 400)}`;
    expectCleanStderr(run.stderr, context);
    expect([0, 1, 3], context).toContain(run.code);
    expect(run.stdout, context).toMatch(/stop-commands/);
    expect(commandIn(run.stdout, false), `${context}\nstdout`).toBeNull();
    expect(commandIn(run.stderr, false), `${context}\nstderr`).toBeNull();
    if (format === 'json') expect(JSON.stringify(JSON.parse(run.stdout))).toContain('##[stop-commands]pwned');
  });
});

/**
 * Hostile world, part 3: terminal and document injection. Text from the network
 * reaches the terminal and Markdown documents (pull-request comments, job summaries) through
 * the table and Markdown renderers. With hostile text in every field nerq prints — the name,
 * description, licence, README, advisory summaries and aliases, publisher and maintainer
 * names, repository and homepage URLs, provenance details, source failure reasons, check
 * messages and evidence — neither output holds an escape sequence, control, bidirectional,
 * zero-width or tag character, and Markdown cannot leave its table or inject a link, an
 * image, HTML or a mention.
 *
 * First the renderers in-process over test/render's hostile report (every format, colour,
 * width), then end to end: the CLI evaluating a hostile package (`check` in every format,
 * then `score` over the evidence it saved).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { renderReports } from '../../src/cli/output.js';
import type { Report } from '../../src/report/schema.js';
import { hostileReport } from '../render/reports.js';
import { parseNdjson, parseReport } from '../cli/helpers.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { makeSandbox, requireCli, runHostile, type HostileRun } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr, expectRssBounded, expectWithinDeadline } from './support/expect.js';
import { EVIL, forbiddenIn, hostileWorld, markdownBreakout } from './support/hostile-world.js';
import { noteCases, noteKnownFailure } from './support/metrics.js';
import { githubEnv, hostileRepositoryWorld, WIDGET_PACKAGE } from './support/github-world.js';
import { PACKAGE, VERSION } from './support/sources.js';

/** The exact version: its manifest is deprecated, and a bare name would resolve past it. */
const TARGET = `${PACKAGE}@${VERSION}`;

/** test/render's hostile report, with the hostile text in the fields it leaves out too. */
function everyFieldHostile(): Report {
  const report = hostileReport();
  report.target.input = `chalk${EVIL}`;
  report.target.repository = `https://evil.test/${EVIL}`;
  report.target.purl = `pkg:npm/${EVIL}`;
  report.verdict = `YES${EVIL}`;
  report.error = null;
  for (const advisory of report.advisories) {
    advisory.summary = EVIL;
    advisory.aliases.push(EVIL);
    advisory.published = EVIL;
  }
  report.previous = { evaluatedAt: EVIL, version: EVIL, score: 50, grade: 'C', change: 1, movers: [{ kind: 'check', id: EVIL, from: 1, to: 2 }] };
  return report;
}

describe('the renderers, in-process, over a report hostile in every field', () => {
  const variants: [string, Parameters<typeof renderReports>[1], number][] = [];
  for (const width of [40, 80, 120]) {
    for (const color of [false, true]) {
      for (const evidence of [false, true]) variants.push([`table, ${width} columns${color ? ', colour' : ''}${evidence ? ', --evidence' : ''}`, { format: 'table', color, width, evidence }, 1]);
    }
  }
  variants.push(['markdown, one report', { format: 'markdown', color: false, width: 80 }, 1]);
  variants.push(['markdown, several reports (summary table and <details>)', { format: 'markdown', color: false, width: 80 }, 3]);

  it.for(variants)('%s', ([, settings, count], { task, expect }) => {
    noteCases(task);
    const reports = Array.from({ length: count }, everyFieldHostile);
    const out = renderReports(reports, settings);
    expect(forbiddenIn(out, settings.color)).toBeNull();
    if (settings.format === 'markdown') expect(markdownBreakout(out)).toBeNull();
    // The text is neutralised, not dropped: the words around the escapes are still there.
    expect(out).toMatch(/gnp\.exe|exe\.gnp/);
  });

  it('the JSON report keeps the hostile text exactly (it is data, escaped by JSON itself)', ({ task, expect }) => {
    noteCases(task);
    const report = everyFieldHostile();
    const json = renderReports([report], { format: 'json', color: false, width: 80 });
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(report)));
  });
});

describe('end to end: the CLI evaluating a hostile package', () => {
  const servers = new Set<FixtureServer>();
  beforeAll(() => requireCli());
  afterAll(async () => {
    await Promise.all([...servers].map((s) => s.close()));
  });

  const runs: [string, string[], Record<string, string>, boolean][] = [];
  for (const hostileName of [false, true]) {
    const which = hostileName ? 'renamed by its packument' : 'under its own name';
    runs.push([`${which}: table`, [], {}, hostileName]);
    runs.push([`${which}: table, colour forced, --evidence`, ['--evidence'], { FORCE_COLOR: '1', NO_COLOR: '' }, hostileName]);
    runs.push([`${which}: markdown`, ['--format', 'markdown'], {}, hostileName]);
    runs.push([`${which}: markdown, two targets`, ['--format', 'markdown', TARGET], {}, hostileName]);
  }

  it.concurrent.for(runs)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, args, env, hostileName], { task, expect }) => {
    noteCases(task);
    const server = await startFixtureServer();
    servers.add(server);
    hostileWorld(server, { hostileName });
    const color = env.FORCE_COLOR === '1';
    const run = await runHostile(['check', TARGET, '--timeout', '20', ...args], { server, env });
    const context = `${label}\nexit ${run.code}\nstderr: ${run.stderr.slice(0, 300)}`;
    expectCleanStderr(run.stderr, context);
    expectWithinDeadline(task, run, 20_000, context);
    expectRssBounded(task, run, context);
    expect(server.unexpected, context).toEqual([]);
    expect([0, 1, 3], context).toContain(run.code);
    expect(forbiddenIn(run.stdout, color), context).toBeNull();
    expect(forbiddenIn(run.stderr), context).toBeNull();
    if (args.includes('markdown')) expect(markdownBreakout(run.stdout), context).toBeNull();
    if (hostileName) {
      // A packument naming another package is refused (docs/security.md): nothing it says is shown.
      expect(run.code, context).toBe(3);
      expect(run.stdout, context).not.toMatch(/octocat|gnp\.exe/);
    } else {
      // The report was rendered (not an error page): the hostile description's words are shown.
      expect(run.stdout, context).toMatch(/octocat|gnp\.exe/);
    }
  });

  it.concurrent.for([[false], [true]] as const)('JSON, then `score` of the saved evidence in table and Markdown (hostile name: %s)', { timeout: CLI_TEST_TIMEOUT_MS }, async ([hostileName], { task, expect }) => {
    noteCases(task, 3);
    const server = await startFixtureServer();
    servers.add(server);
    hostileWorld(server, { hostileName });
    const sandbox = makeSandbox();
    try {
      const evidenceFile = path.join(sandbox.cwd, 'evidence.json');
      const checked = await runHostile(['check', TARGET, '--json', '--timeout', '20', '--save-evidence', evidenceFile], { server, sandbox });
      expectCleanStderr(checked.stderr, checked.stderr);
      const report = parseReport(checked.stdout);
      if (hostileName) {
        // A packument naming another package is refused: the registry is unavailable, not read.
        expect(report.error?.code).toBe('registry-unavailable');
        expect(existsSync(evidenceFile), 'no evidence of a refused answer').toBe(false);
        return;
      }
      // JSON carries the text as data: the hostile description reaches the check messages intact.
      expect(JSON.stringify(report)).toContain('\\u001b');
      const evidence = readFileSync(evidenceFile, 'utf8');
      for (const format of ['table', 'markdown']) {
        const scored = await runHostile(['score', evidenceFile, '--format', format], { sandbox });
        expectCleanStderr(scored.stderr, scored.stderr);
        expectRssBounded(task, scored, `score --format ${format}`);
        expect(scored.code, scored.stderr).toBe(checked.code);
        expect(forbiddenIn(scored.stdout), `score --format ${format}`).toBeNull();
        if (format === 'markdown') expect(markdownBreakout(scored.stdout)).toBeNull();
      }
      expect(evidence.length).toBeGreaterThan(0);
    } finally {
      sandbox.remove();
    }
  });

  it.concurrent('NDJSON for several targets stays one object per line', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const server = await startFixtureServer();
    servers.add(server);
    hostileWorld(server, { hostileName: false });
    const run = await runHostile(['check', TARGET, TARGET, '--json', '--timeout', '20'], { server });
    expectCleanStderr(run.stderr, run.stderr);
    const reports = parseNdjson(run.stdout);
    expect(reports).toHaveLength(2);
  });
});

/**
 * A repository nerq reads files of: with GitHub's REST world for the npm package `widget`, the
 * root package.json names another package (a monorepo root), so the link check reads the
 * repository's pnpm-workspace.yaml — here one whose YAML directive carries an OSC 8 hyperlink
 * and an erase-screen sequence.
 *
 * Finding (src/sources/github/link.ts, `pnpmPackages`): the file is parsed with the `yaml`
 * library's default log level, which reports an unknown directive through
 * `process.emitWarning`; Node prints it to stderr as `(node:PID) [BAD_DIRECTIVE] YAMLWarning:
 * Unknown directive …`, quoting the file's bytes — escape sequences included — on the user's
 * terminal. The fix: `parseYaml(text, { maxAliasCount: 10, logLevel: 'silent' })`, as
 * src/audit/detect.ts does. Marked `fails` until it lands.
 */
describe("end to end: a hostile repository's pnpm-workspace.yaml", () => {
  const HOSTILE_YAML = `%NERQ\u001b]8;;https://evil.test/\u0007click\u001b]8;;\u0007\u001b[2J directive\n---\npackages:\n  - packages/*\n`;
  let server: FixtureServer | undefined;
  let pending: Promise<HostileRun> | undefined;
  /** One run shared by both tests below. */
  const run = (): Promise<HostileRun> => {
    pending ??= (async () => {
      requireCli();
      server = await startFixtureServer();
      hostileRepositoryWorld(server, HOSTILE_YAML);
      return runHostile(['check', WIDGET_PACKAGE, '--timeout', '20'], { server, env: githubEnv(server, false) });
    })();
    return pending;
  };
  afterAll(async () => {
    await server?.close();
  });

  it('the file is read, the run ends in time, and the table holds none of its escape sequences', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const done = await run();
    const context = `exit ${done.code}\nstderr: ${done.stderr.slice(0, 300)}`;
    expect(server?.unexpected, context).toEqual([]);
    expect(server?.requests.map((r) => r.path), context).toContain('/github/repos/acme/widget/contents/pnpm-workspace.yaml');
    expect([0, 1], context).toContain(done.code);
    expectWithinDeadline(task, done, 20_000, context);
    expectRssBounded(task, done, context);
    expect(forbiddenIn(done.stdout), context).toBeNull();
  });

  it('stderr holds only nerq lines, and none of the file’s escape sequences (the YAML parser is silenced)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const done = await run();
    expect(forbiddenIn(done.stderr), done.stderr.slice(0, 300)).toBeNull();
    expectCleanStderr(done.stderr, done.stderr.slice(0, 300));
  });
});

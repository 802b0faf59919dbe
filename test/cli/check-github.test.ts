/**
 * `nerq check` end to end for GitHub, through the built CLI against the
 * fixture server: a `github:owner/repo` target scored from its repository alone, an npm package
 * whose repository link is verified, a starjacked one, a missing repository, a spent rate limit,
 * and the request counts without a token (REST) and with one (GraphQL), read from the server's
 * request log. The token never leaves GitHub's API: not in stdout, stderr, evidence or the store.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import type { Report } from '../../src/report/schema.js';
import { USER_AGENT } from '../../src/version.js';
import { expectNoUnexpected, FIXTURES_ROOT, startFixtureServer, type FixtureServer, type RecordedRequest } from '../support/fixture-server.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { serveRepo } from '../github/helpers.js';
import {
  GITHUB_NOW,
  serveAdvertisedWidget,
  serveNpmWidget,
  serveWidgetGraphql,
  serveWidgetRest,
  TOKEN,
  WIDGET_RATE_LIMITED,
  WIDGET_REST_REPOSITORY,
  WIDGET_REST_TARGET,
  WIDGET_TARGET_DISTRIBUTION,
  WIDGET_TARGET_LISTINGS,
} from './github-helpers.js';
import { ANSI, checkOf, DIMENSION_IDS, githubAnswers, parseReport, requireBuiltCli, schemaViolations, sourceOf, statusForScore } from './helpers.js';

/** The checks that read the `github` source, in report order. */
const GITHUB_CHECKS = CHECKS.filter((c) => (c.needs as readonly string[]).includes('github')).map((c) => c.id);
/**
 * A repository target's checks in report order: the GitHub ones (licence consistency compares the
 * licence its package.json declares), with its own files' maturity, README, changelog and licence file.
 */
const REPOSITORY_TARGET_CHECKS = CHECKS.filter(
  (c) => (c.needs as readonly string[]).includes('github') || ['project-maturity', 'advertised-packages', 'readme', 'changelog', 'license-file', 'malicious-package', 'vulnerable-dependencies', 'workflow-safety'].includes(c.id),
).map((c) => c.id);

const RATE_LIMIT_REASON = 'GitHub API rate limit reached (resets at 13:05 UTC); set GITHUB_TOKEN to raise the limit';
const UNVERIFIED = 'package.json at main names "widget", not "widgets-helper"';

interface Run extends CliResult {
  /** The requests this run made (the server's log is shared by a describe block). */
  requests: RecordedRequest[];
}

function useServer(setUp: (server: FixtureServer) => void): { server: () => FixtureServer; run: (args: string[], env?: Record<string, string>) => Promise<Run> } {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    setUp(server);
  });
  afterAll(async () => {
    if (server === undefined) return;
    expectNoUnexpected(server);
    await server.close();
  });
  const get = (): FixtureServer => {
    if (server === undefined) throw new Error('fixture server not started');
    return server;
  };
  return {
    server: get,
    async run(args, env = {}) {
      const before = get().requests.length;
      const result = await runCli(args, { server: get(), env: { NERQ_NOW: GITHUB_NOW, ...env } });
      return { ...result, requests: get().requests.slice(before) };
    },
  };
}

/** GitHub requests as `METHOD path` without the query, sorted. */
function githubLines(requests: readonly RecordedRequest[]): string[] {
  return requests.filter((r) => r.path.startsWith('/github/')).map((r) => `${r.method} ${r.path.split('?')[0]}`).sort();
}

function dimensionsOf(report: Report): Array<{ id: string; score: number | null; coverage: number }> {
  return report.dimensions.map(({ id, score, coverage }) => ({ id, score, coverage }));
}

function expectJsonReport(result: CliResult, code: number): Report {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toBe('');
  expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
  return parseReport(result.stdout);
}

describe('nerq check github:acme/widget without a token (REST)', () => {
  const ctx = useServer((server) => serveWidgetRest(server, { manifest: true }));
  let json: Run;
  let report: Report;

  beforeAll(async () => {
    json = await ctx.run(['check', 'github:acme/widget', '--json']);
    report = expectJsonReport(json, 0);
  });

  it('is a github target named by a valid pkg:github purl, scored and passing the gate (exit 0)', () => {
    expect(report.target).toEqual({
      input: 'github:acme/widget',
      ecosystem: 'github',
      name: 'acme/widget',
      version: null,
      purl: 'pkg:github/acme/widget',
      repository: 'https://github.com/acme/widget',
    });
    const purl = PackageURL.fromString(report.target.purl ?? '');
    expect({ type: purl.type, namespace: purl.namespace, name: purl.name, version: purl.version ?? null }).toEqual({
      type: 'github',
      namespace: 'acme',
      name: 'widget',
      version: null,
    });
    expect(report.error).toBeNull();
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage }).toEqual({
      score: 94.3,
      grade: 'A+',
      verdict: 'YES',
      coverage: 1,
    });
    // package.json declares a command: the category comes from the repository's own manifest.
    expect(report.category).toEqual({ id: 'cli', reason: 'ships a command' });
    expect(report.verdictReasons).toEqual([]);
    expect(report.gate).toMatchObject({ passed: true, reasons: [] });
    // Every package source is not-applicable and left out: GitHub, and the dependency set its
    // package.json gives (none: no OSV request) are the sources.
    expect(report.sources).toEqual([
      { id: 'dependencies', status: 'ok', reason: null },
      { id: 'vulnerabilities', status: 'ok', reason: null },
      { id: 'github', status: 'ok', reason: null },
    ]);
  });

  it('reports every GitHub check with its evidence, the checks of its own files, and no package check', () => {
    expect(GITHUB_CHECKS).toHaveLength(12);
    expect(report.checks.map((c) => c.id)).toEqual(REPOSITORY_TARGET_CHECKS);
    for (const check of report.checks.filter((c) => GITHUB_CHECKS.includes(c.id))) {
      expect({ id: check.id, status: check.status }).toEqual({ id: check.id, status: statusForScore(check.score) });
      expect(check.evidence).toMatchObject({ repository: 'acme/widget', verifiedBy: 'target' });
    }
    for (const packageCheck of ['license-declared', 'weekly-downloads', 'known-vulnerabilities', 'install-scripts', 'wheels-published', 'yanked-release']) {
      expect(report.checks.find((c) => c.id === packageCheck), packageCheck).toBeUndefined();
    }
    const scores = Object.fromEntries(report.checks.map((c) => [c.id, c.score]));
    expect(scores).toEqual({
      'malicious-package': 100,
      'vulnerable-dependencies': 100,
      'advertised-packages': 100,
      'security-policy': 100,
      'release-signing': 80,
      'dependency-update-tool': 100,
      'workflow-safety': 100,
      'commit-activity': 90,
      'issue-responsiveness': 74,
      'pr-merge-rate': 66.7,
      'repository-archived': 100,
      'ci-present': 100,
      'project-maturity': 100,
      readme: 100,
      changelog: 100,
      'license-file': 100,
      'license-consistency': 100,
      contributors: 55,
      'stars-forks': 100,
      'community-files': 100,
    });
    expect(checkOf(report, 'commit-activity').evidence).toMatchObject({ commits90d: 5, commits365d: 8, authors365d: 4, branch: 'main' });
    expect(checkOf(report, 'stars-forks').evidence).toMatchObject({ stars: 15234, forks: 1203 });
    expect(checkOf(report, 'release-signing').evidence).toMatchObject({ tag: 'v3.2.0', signedReleases: 2, examined: 4 });
    expect(checkOf(report, 'issue-responsiveness').evidence).toMatchObject({ method: 'comments-or-close', sampled: 3, responded: 2 });
    // The authors of the branch's 11 newest commits, as with a token: alice 5, bob 3, dave 1.
    expect(checkOf(report, 'contributors')).toMatchObject({
      score: 55,
      message: '3 contributors in the last 11 commits (bus factor 1)',
      evidence: { count: 3, busFactor: 1, topShare: 0.556, basis: 'recent-commits', commitsExamined: 11 },
    });
    // The licence package.json declares against the one GitHub detects; the LICENSE text against both.
    expect(checkOf(report, 'license-consistency')).toMatchObject({ messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicense: 'MIT' } });
    expect(checkOf(report, 'license-file')).toMatchObject({ messageId: 'consistent', evidence: { files: ['LICENSE'], found: ['MIT'] } });
    expect(checkOf(report, 'readme')).toMatchObject({ messageId: 'good', evidence: { path: 'README.md', source: 'repository', docsFolder: true } });
    // Created in 2015, but its history starts on 2024-12-03 (its oldest of 11 commits): 545 days, the shorter clock.
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      messageId: 'established',
      evidence: { createdAt: '2015-03-01T10:00:00Z', tags: '0', firstCommitAt: '2024-12-03T12:00:00.000Z', commits: 11, days: 545, firstReleaseDays: 457, firstReleaseExact: true },
    });
  });

  it('lists all five dimensions, documentation and compliance from the repository\'s own files', () => {
    expect(report.dimensions.map((d) => d.id)).toEqual([...DIMENSION_IDS]);
    expect(dimensionsOf(report)).toEqual([
      { id: 'security', score: 98.7, coverage: 1 },
      { id: 'maintenance', score: 89.5, coverage: 1 },
      { id: 'documentation', score: 100, coverage: 1 },
      { id: 'compliance', score: 100, coverage: 1 },
      { id: 'community', score: 82, coverage: 1 },
    ]);
  });

  it('makes exactly 19 GitHub REST requests (7 for the repository, 9 for its own files and history, 3 for its workflows) and one registry lookup, each naming nerq, none with a token', () => {
    // 13 + 1 before the history's two commit listings were read, 16 before the workflows were, 18
    // before its SECURITY.md (private reporting alone) had GitHub asked whether that is on.
    expect(json.requests).toHaveLength(20);
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 100, messageId: 'safe', evidence: { listed: 3, read: 3, outsider: 1 } });
    expect(json.requests.filter((r) => r.path.startsWith('/npm/')).map((r) => r.path)).toEqual(['/npm/widget']);
    expect(report.distribution?.packages).toMatchObject([{ name: 'widget', status: 'verified', check: 'npm:widget' }]);
    expect(checkOf(report, 'security-policy')).toMatchObject({ messageId: 'channel', evidence: { file: '.github/SECURITY.md', channel: 'https://github.com/acme/widget/security/advisories/new' } });
    expect(githubLines(json.requests)).toEqual([...WIDGET_REST_TARGET].sort());
    for (const request of json.requests) {
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it('renders the terminal table: the header, five dimension rows, the GitHub checks', async () => {
    const table = await ctx.run(['check', 'github:acme/widget']);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('');
    expect(table.stdout).not.toMatch(ANSI);
    expect(table.stdout).toMatch(/^acme\/widget {2}PASS {2}verdict YES {2}score 94\.3\/100 {2}grade A\+$/m);
    for (const title of ['Security', 'Maintenance', 'Documentation', 'Compliance', 'Community']) {
      expect(table.stdout).toMatch(new RegExp(`^│ ${title}\\s+│ [█░]+ │\\s+\\d+\\.\\d │\\s+0\\.\\d\\d │\\s+100% │$`, 'm'));
    }
    expect(table.stdout).toMatch(/✔ {2}90\.0 {2}Commit activity/);
    expect(table.stdout).toMatch(/✔ 100\.0 {2}Stars and forks/);
    expect(table.stdout).toMatch(/^Gate {2}PASS\b/m);
    expect(table.requests).toHaveLength(20);
  });

  it('renders Markdown with the same numbers', async () => {
    const md = await ctx.run(['check', 'github:acme/widget', '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stderr).toBe('');
    expect(md.stdout).toMatch(/^## nerq · `acme\/widget`$/m);
    expect(md.stdout).toContain('**94.3/100** · grade **A+** · ✅ **YES** · coverage 100% · category cli');
    expect(md.stdout).toContain('| Documentation | 100.0 | 0.20 | 100% |');
    expect(md.stdout).toContain('| Security | 98.7 | 0.30 | 100% |');
    expect(md.stdout).toContain('| ✅ pass | Commit activity | 90.0 | 4 commits in the last 90 days (7 in 365 days by 4 authors; 1 commit by a bot not counted) |');
    expect(md.stdout).toContain('Licence matches the repository');
  });
});

describe('every form of a repository target is the same repository, named as the API spells it', () => {
  const ctx = useServer((server) => {
    serveWidgetRest(server, { manifest: true });
    // Names are matched case-insensitively by GitHub: the first request goes as typed.
    server.expect('GET', '/github/repos/ACME/Widget', { fixture: 'github/repos/acme/widget' });
  });

  // Pasted without a scheme, with `www.`, a trailing slash or a path to a file or branch: the same repository (its default
  // branch; a folder's page, `/tree/<ref>/<folder>`, names the folder: test/mcp/subfolder.test.ts).
  it.each(['github:ACME/Widget', 'https://github.com/acme/widget', 'github.com/acme/widget.git', 'www.github.com/acme/widget/', 'github.com/acme/widget/blob/main/README.md', 'github.com/acme/widget/tree/main', 'pkg:github/acme/widget'])('%s', async (input) => {
    const run = await ctx.run(['check', input, '--json']);
    const report = expectJsonReport(run, 0);
    expect(report.target).toEqual({
      input,
      ecosystem: 'github',
      name: 'acme/widget',
      version: null,
      purl: 'pkg:github/acme/widget',
      repository: 'https://github.com/acme/widget',
    });
    expect(report.score).toBe(94.3);
    expect(run.requests).toHaveLength(20);
  });
});

describe('a git URL naming a GitHub repository is no target: exit 2, one line naming the target to use, no request', () => {
  const ctx = useServer(() => undefined);
  it.each([
    ['git+https://user:s3cret@github.com/acme/widget.git', '"git+https://github.com/acme/widget.git"'],
    ['git@github.com:acme/widget.git', '"git@github.com:acme/widget.git"'],
    ['github.com:acme/widget', '"github.com:acme/widget"'],
  ])('%s', async (input, quoted) => {
    const run = await ctx.run(['check', input, '--json']);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `nerq: ${quoted} is a git URL, not a target: for the repository, check github:acme/widget\n` });
    expect(run.requests).toEqual([]);
  });
});

describe('a GitHub release dated in the future (docs/security.md, "Dates in the future")', () => {
  // acme/widget's recorded releases, its draft v3.3.0 published with a date five years ahead.
  const releases = (JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/widget/releases.json'), 'utf8')) as Array<Record<string, unknown>>).map((r) =>
    r.tag_name === 'v3.3.0' ? { ...r, draft: false, published_at: '2031-01-01T00:00:00Z' } : r,
  );
  const ctx = useServer((server) => {
    serveRepo(server, 'acme/widget', { override: { releases: { body: releases } } });
    serveAdvertisedWidget(server);
  });

  it('keeps its place as the latest but reads as undated: never recent, the first release no longer exact, the other dates still counting', async () => {
    const report = expectJsonReport(await ctx.run(['check', 'github:acme/widget', '--json']), 0);
    // Signing is judged on the release GitHub lists first, whatever its date: it carries no signature.
    expect(checkOf(report, 'release-signing')).toMatchObject({ messageId: 'lapsed', evidence: { tag: 'v3.3.0', publishedAt: null } });
    expect(checkOf(report, 'project-maturity')).toMatchObject({
      evidence: { releasesFutureDated: 1, releasesRecent: '1+', firstReleaseAt: '2025-03-01T10:00:00.000Z', firstReleaseExact: false },
    });
  });
});

describe('an archived repository: github:acme/relic', () => {
  // acme/relic's recorded repository answer (archived, 812 stars, issues off); its other
  // answers are acme/widget's.
  const ctx = useServer((server) => {
    serveRepo(server, 'acme/relic', { from: 'acme/relic' });
    // Its README (acme/widget's) advertises `widget`, which the registry says is acme/widget's.
    serveAdvertisedWidget(server);
  });

  it("caps maintenance at 10 and the verdict says why", async () => {
    const report = expectJsonReport(await ctx.run(['check', 'github:acme/relic', '--json']), 0);
    expect(checkOf(report, 'repository-archived')).toMatchObject({ score: 0, messageId: 'archived', evidence: { archived: true } });
    expect(report.caps).toEqual([
      {
        id: 'repository-archived',
        limit: 10,
        reason: 'the repository is archived: no more fixes will land',
        args: { repository: 'acme/relic', state: 'archived' },
        dimension: 'maintenance',
      },
    ]);
    expect(dimensionsOf(report).find((d) => d.id === 'maintenance')).toEqual({ id: 'maintenance', score: 10, coverage: 0.818 });
    // Its README (acme/widget's) advertises `widget`, published from acme/widget: a held verdict besides the cap.
    expect(report.verdictReasonDetails.map((r) => r.code).sort()).toEqual(['dimension-capped', 'verdict-held']);
    expect(report.verdictReasonDetails.find((r) => r.code === 'dimension-capped')?.args).toMatchObject({ cap: 'repository-archived', dimension: 'maintenance' });
    expect(checkOf(report, 'advertised-packages')).toMatchObject({ messageId: 'elsewhere', score: 0, evidence: { elsewhere: 'npm:widget', linksTo: 'https://github.com/acme/widget' } });
    expect(report.verdictReasons).toEqual(report.verdictReasonDetails.map((r) => r.text));
    expect(checkOf(report, 'issue-responsiveness')).toMatchObject({ score: null, messageId: 'issues-disabled' });
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage }).toEqual({
      // 66 before its workflows were read (judged safe: a pass of weight 1 in Security).
      score: 66.5,
      grade: 'C',
      verdict: 'CAUTION',
      coverage: 0.955,
    });
  });
});

describe('nerq check github:acme/widget with GITHUB_TOKEN (GraphQL)', () => {
  const ctx = useServer((server) => serveWidgetGraphql(server));
  let json: Run;
  let report: Report;

  beforeAll(async () => {
    json = await ctx.run(['check', 'github:acme/widget', '--json'], { GITHUB_TOKEN: TOKEN });
    report = expectJsonReport(json, 0);
  });

  it('makes one GraphQL query for the repository, then reads its own files through REST, all with the token', () => {
    // 1 GraphQL + 4 REST listings (the tree, the tags, the history's two commit listings) + 1
    // GraphQL query for README, LICENSE, package.json, SECURITY.md and the three workflows + 1
    // registry; 11 when each file was a REST request; + 1 REST request asking whether private
    // reporting, the only channel its SECURITY.md names, is on.
    expect(json.requests).toHaveLength(8);
    expect(githubLines(json.requests)).toEqual(['POST /github/graphql', 'POST /github/graphql', ...WIDGET_TARGET_LISTINGS, ...WIDGET_TARGET_DISTRIBUTION].sort());
    const filesQuery = json.requests.find((r) => r.path === '/github/graphql' && r.body.includes('NerqFiles'));
    expect(Object.values((JSON.parse(filesQuery?.body ?? '{}') as { variables: Record<string, string> }).variables).filter((v) => v.startsWith('main:')).sort()).toEqual(
      ['main:.github/SECURITY.md', 'main:LICENSE', 'main:README.md', 'main:package.json'],
    );
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 100, evidence: { read: 3 } });
    for (const request of json.requests.filter((r) => r.path.startsWith('/github/'))) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('gives the same checks, with first-response responsiveness and recent-commit contributors from GraphQL', () => {
    expect(report.checks.map((c) => c.id)).toEqual(REPOSITORY_TARGET_CHECKS);
    expect(checkOf(report, 'issue-responsiveness')).toMatchObject({ score: 80, evidence: { method: 'first-response', medianHoursToResponse: 15 } });
    // The authors of the last 100 commits (11 here: 3 people, one of them with most commits), as over REST.
    expect(checkOf(report, 'contributors')).toMatchObject({ score: 55, evidence: { basis: 'recent-commits', commitsExamined: 11 } });
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage }).toEqual({
      score: 94.6,
      grade: 'A+',
      verdict: 'YES',
      coverage: 1,
    });
  });

  it('GH_TOKEN is used the same way', async () => {
    const run = await ctx.run(['check', 'github:acme/widget', '--json'], { GH_TOKEN: TOKEN });
    expect(run.code).toBe(0);
    expect(githubLines(run.requests)).toEqual(githubLines(json.requests));
    for (const request of run.requests.filter((r) => r.path.startsWith('/github/'))) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('github:acme/widget with and without a token: one contributors result, one grade', () => {
  const ctx = useServer((server) => {
    serveWidgetRest(server, { manifest: true });
    serveWidgetGraphql(server);
  });

  it('REST and GraphQL count the same people over the same commits; only responsiveness is measured differently', async () => {
    const rest = await ctx.run(['check', 'github:acme/widget', '--json']);
    const graphql = await ctx.run(['check', 'github:acme/widget', '--json'], { GITHUB_TOKEN: TOKEN });
    expect(githubLines(rest.requests)).toEqual([...WIDGET_REST_TARGET].sort());
    expect(githubLines(graphql.requests)).toEqual(['POST /github/graphql', 'POST /github/graphql', ...WIDGET_TARGET_LISTINGS, ...WIDGET_TARGET_DISTRIBUTION].sort());
    const viaRest = expectJsonReport(rest, 0);
    const viaGraphql = expectJsonReport(graphql, 0);
    const contributors = (report: Report) => {
      const { score, status, messageId, message, evidence } = checkOf(report, 'contributors');
      return { score, status, messageId, message, evidence };
    };
    expect(contributors(viaRest)).toEqual(contributors(viaGraphql));
    expect(contributors(viaRest)).toMatchObject({ score: 55, message: '3 contributors in the last 11 commits (bus factor 1)' });
    // Every other check scores the same too, except issue responsiveness: without a token a comment
    // count or a close is a response (the time is the close), with one the first comment by someone else.
    const differing = viaRest.checks.filter((c) => checkOf(viaGraphql, c.id).score !== c.score).map((c) => c.id);
    expect(differing).toEqual(['issue-responsiveness']);
    expect({ rest: [viaRest.score, viaRest.grade], graphql: [viaGraphql.score, viaGraphql.grade] }).toEqual({
      rest: [94.3, 'A+'],
      graphql: [94.6, 'A+'],
    });
  });

  it('evidence saved before, with REST\'s all-time contributors list, still loads and re-scores as it did', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-contributors-'));
    try {
      const file = path.join(dir, 'evidence.json');
      expectJsonReport(await ctx.run(['check', 'github:acme/widget', '--json', '--save-evidence', file]), 0);
      const evidence = JSON.parse(readFileSync(file, 'utf8')) as { sources: { github: { facts: { contributors: unknown } } } };
      // What REST recorded then: the contributors list (alice 100, bob 60, carol 30, dave 20, erin 10), no basis.
      evidence.sources.github.facts.contributors = { count: 5, busFactor: 2, topShare: 0.455 };
      writeFileSync(file, JSON.stringify(evidence));
      const report = expectJsonReport(await runCli(['score', file, '--json'], { env: { NERQ_NOW: GITHUB_NOW } }), 0);
      expect(checkOf(report, 'contributors')).toMatchObject({ score: 70, message: '5 contributors; bus factor 2' });
      expect(checkOf(report, 'contributors').evidence).not.toHaveProperty('basis');
      expect({ score: report.score, grade: report.grade }).toEqual({ score: 95.2, grade: 'A+' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, bytes: readFileSync(file) }));
}

describe('the token never appears in output, evidence or the store', () => {
  const ctx = useServer((server) => {
    serveWidgetGraphql(server);
    serveNpmWidget(server, 'widget');
  });
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-h9-token-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a github: target and an npm package, in JSON, the table with --evidence, and the saved evidence', async () => {
    // The store (HTTP cache, history) goes to a folder the test can read after the run.
    const store = { XDG_CACHE_HOME: path.join(dir, 'cache'), XDG_DATA_HOME: path.join(dir, 'data'), XDG_STATE_HOME: path.join(dir, 'state') };
    const evidenceFile = path.join(dir, 'evidence.json');
    const runs = [
      await ctx.run(['check', 'github:acme/widget', '--json', '--save-evidence', evidenceFile], { GITHUB_TOKEN: TOKEN, ...store }),
      await ctx.run(['check', 'widget', '--evidence'], { GITHUB_TOKEN: TOKEN, ...store }),
      // --no-cache: the same answers are asked for again (and stored again), this time with GH_TOKEN.
      await ctx.run(['check', 'widget', '--no-cache', '--format', 'markdown', '--save-evidence', path.join(dir, 'widget.json')], { GH_TOKEN: TOKEN, ...store }),
    ];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toContain(TOKEN);
      expect(run.stderr).not.toContain(TOKEN);
      // The GitHub requests did carry it: the runs were authenticated.
      expect(run.requests.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
      // …and nothing else did.
      for (const request of run.requests.filter((r) => !r.path.startsWith('/github/'))) expect(request.headers.authorization, request.path).toBeUndefined();
    }
    const evidence = JSON.parse(readFileSync(evidenceFile, 'utf8')) as { target: { ecosystem: string }; sources: { github: { status: string; facts: { via: unknown } } } };
    expect(evidence.target.ecosystem).toBe('github');
    // The evidence records the GitHub requests the server saw: the repository's query, 4 listings,
    // the files' query and whether private reporting (its SECURITY.md's only channel) is on.
    expect(evidence.sources.github).toMatchObject({ status: 'ok', facts: { via: { api: 'graphql', requests: 7 } } });
    expect(runs[0]?.requests).toHaveLength(8);
    const written = filesUnder(dir);
    expect(written.length).toBeGreaterThan(2);
    for (const { file, bytes } of written) {
      expect(bytes.includes(TOKEN), path.relative(dir, file)).toBe(false);
      expect(bytes.includes(Buffer.from(TOKEN, 'utf16le')), path.relative(dir, file)).toBe(false);
    }
  });

  it('a rejected token (HTTP 401): the message names the variables, never the token', async () => {
    const refused = await startFixtureServer();
    try {
      githubAnswers(refused, { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' } });
      const result = await runCli(['check', 'github:acme/widget', '--json'], { server: refused, env: { NERQ_NOW: GITHUB_NOW, GITHUB_TOKEN: TOKEN } });
      const report = expectJsonReport(result, 3);
      expect(report.error?.code).toBe('registry-unavailable');
      expect(report.error?.message).toBe('GitHub could not answer for acme/widget: GitHub GraphQL: GitHub rejected the token (HTTP 401); check GITHUB_TOKEN / GH_TOKEN');
      expect(githubLines(refused.requests)).toEqual(['POST /github/graphql']);
      expect(result.stdout).not.toContain(TOKEN);
      expect(result.stderr).not.toContain(TOKEN);
      expectNoUnexpected(refused);
    } finally {
      await refused.close();
    }
  });
});

describe('a missing repository', () => {
  const ctx = useServer((server) =>
    githubAnswers(server, { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' } }),
  );

  it('404 → not evaluated, exit 3, one request, a one-line message', async () => {
    const json = await ctx.run(['check', 'github:acme/nothing', '--json']);
    const report = expectJsonReport(json, 3);
    expect(report.error).toEqual({ code: 'not-found', message: 'acme/nothing was not found on GitHub' });
    expect(report.verdict).toBe('UNKNOWN');
    expect(report.checks).toEqual([]);
    expect(githubLines(json.requests)).toEqual(['GET /github/repos/acme/nothing']);

    const table = await ctx.run(['check', 'github:acme/nothing']);
    expect(table).toMatchObject({ code: 3, stderr: '', stdout: 'acme/nothing  NOT EVALUATED\nerror not-found: acme/nothing was not found on GitHub\n' });
  });
});

describe('a rate-limited run (remaining 0)', () => {
  const ctx = useServer((server) => {
    githubAnswers(server, WIDGET_RATE_LIMITED);
    serveNpmWidget(server, 'widget');
  });

  it('a github: target cannot be evaluated: exit 3 with the reset time and the token hint, after one request', async () => {
    const json = await ctx.run(['check', 'github:acme/widget', '--json']);
    const report = expectJsonReport(json, 3);
    expect(report.error).toEqual({ code: 'registry-unavailable', message: `GitHub could not answer for acme/widget: ${RATE_LIMIT_REASON}` });
    // Nothing more is asked once the budget is gone (and nothing sleeps until the reset).
    expect(githubLines(json.requests)).toEqual(['GET /github/repos/acme/widget']);

    const table = await ctx.run(['check', 'github:acme/widget']);
    expect(table.code).toBe(3);
    expect(table.stderr).toBe('');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain(`error registry-unavailable: GitHub could not answer for acme/widget: ${RATE_LIMIT_REASON}`);
  });

  it('a budget spent by the first answer (200, remaining 0): nothing more is asked, exit 3 for a github: target', async () => {
    const spent = await startFixtureServer();
    try {
      spent.expect('GET', '/github/repos/acme/widget', { fixture: 'github/repos/acme/widget', headers: WIDGET_RATE_LIMITED.headers ?? {} });
      const result = await runCli(['check', 'github:acme/widget', '--json'], { server: spent, env: { NERQ_NOW: GITHUB_NOW } });
      const report = expectJsonReport(result, 3);
      expect(report.error).toEqual({ code: 'registry-unavailable', message: `GitHub could not answer for acme/widget: ${RATE_LIMIT_REASON}` });
      expect(githubLines(spent.requests)).toEqual(['GET /github/repos/acme/widget']);
      expectNoUnexpected(spent);
    } finally {
      await spent.close();
    }
  });

  it('with a token the reason has the reset time but no token hint', async () => {
    const json = await ctx.run(['check', 'github:acme/widget', '--json'], { GITHUB_TOKEN: TOKEN });
    const report = expectJsonReport(json, 3);
    expect(report.error?.message).toBe('GitHub could not answer for acme/widget: GitHub API rate limit reached (resets at 13:05 UTC)');
    expect(githubLines(json.requests)).toEqual(['POST /github/graphql']);
  });

  it('an npm package: every GitHub check unknown with the reason; the package is still scored (exit 0)', async () => {
    const json = await ctx.run(['check', 'widget', '--json']);
    const report = expectJsonReport(json, 0);
    expect(sourceOf(report, 'github')).toEqual({ id: 'github', status: 'unavailable', reason: RATE_LIMIT_REASON, code: 'rate-limited' });
    for (const id of GITHUB_CHECKS) {
      expect(checkOf(report, id)).toMatchObject({
        score: null,
        status: 'unknown',
        messageId: 'source-unavailable',
        message: `Unknown: github unavailable (${RATE_LIMIT_REASON})`,
      });
    }
    expect(checkOf(report, 'readme').score).toBe(90);
    expect(report.coverage).toBe(0.739);
    expect(githubLines(json.requests)).toEqual(['GET /github/repos/acme/widget']);
  });
});

describe('an npm package whose repository is acme/widget (verified by its package.json)', () => {
  const ctx = useServer((server) => {
    serveWidgetRest(server, { manifest: true });
    serveNpmWidget(server, 'widget');
  });
  let json: Run;
  let report: Report;

  beforeAll(async () => {
    json = await ctx.run(['check', 'widget', '--json']);
    report = expectJsonReport(json, 0);
  });

  it('reports the GitHub checks with evidence next to the npm checks', () => {
    expect(report.target).toMatchObject({ ecosystem: 'npm', name: 'widget', version: '3.2.0', purl: 'pkg:npm/widget@3.2.0', repository: 'https://github.com/acme/widget' });
    const ids = report.checks.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([...GITHUB_CHECKS, 'readme', 'license-declared', 'weekly-downloads', 'known-vulnerabilities', 'install-scripts']));
    for (const id of GITHUB_CHECKS) {
      const check = checkOf(report, id);
      expect(check.score, id).not.toBeNull();
      expect(check.evidence, id).toMatchObject({ repository: 'acme/widget', verifiedBy: 'manifest' });
    }
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicense: 'MIT' } });
    // PyPI-only checks do not apply to an npm package.
    expect(ids).not.toContain('wheels-published');
    expect(ids).not.toContain('yanked-release');
    expect(dimensionsOf(report).every((d) => d.coverage === 1)).toBe(true);
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage }).toEqual({
      score: 92.7,
      grade: 'A+',
      verdict: 'YES',
      coverage: 1,
    });
    expect(report.verdictReasons).toEqual([]);
  });

  it('makes 8 GitHub requests without a token: the 7 of a repository and its package.json', () => {
    expect(githubLines(json.requests)).toEqual([...WIDGET_REST_REPOSITORY, 'GET /github/repos/acme/widget/contents/package.json'].sort());
    const manifest = json.requests.find((r) => r.path === '/github/repos/acme/widget/contents/package.json');
    expect(manifest?.headers.accept).toBe('application/vnd.github.raw+json');
  });

  it('with a token: one GitHub request (the query reads package.json too)', async () => {
    const server = ctx.server();
    serveWidgetGraphql(server);
    const run = await ctx.run(['check', 'widget', '--json'], { GITHUB_TOKEN: TOKEN });
    const withToken = expectJsonReport(run, 0);
    expect(githubLines(run.requests)).toEqual(['POST /github/graphql']);
    expect(checkOf(withToken, 'stars-forks').evidence).toMatchObject({ verifiedBy: 'manifest', stars: 15234 });
  });

  it('renders both kinds of checks in the table', async () => {
    const table = await ctx.run(['check', 'widget']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^widget@3\.2\.0 {2}PASS {2}verdict YES {2}score 92\.7\/100 {2}grade A\+$/m);
    for (const title of ['Commit activity', 'Stars and forks', 'Licence matches the repository', 'README substance', 'Weekly downloads']) {
      expect(table.stdout).toContain(title);
    }
  });
});

describe('a starjacked package: widgets-helper claims acme/widget', () => {
  const ctx = useServer((server) => {
    serveWidgetRest(server, { manifest: true });
    serveNpmWidget(server, 'widgets-helper');
  });
  let json: Run;
  let report: Report;

  beforeAll(async () => {
    json = await ctx.run(['check', 'widgets-helper', '--json']);
    report = expectJsonReport(json, 0);
  });

  it('every GitHub check is unknown: the repository link is not verified', () => {
    for (const id of GITHUB_CHECKS) {
      expect(checkOf(report, id), id).toMatchObject({
        score: null,
        status: 'unknown',
        messageId: 'link-unverified',
        message: `Unknown: repository link not verified (${UNVERIFIED})`,
        evidence: { repository: 'acme/widget', verifiedBy: null, reason: UNVERIFIED },
      });
    }
    // The package's own checks are scored as for the real one.
    expect(checkOf(report, 'readme').score).toBe(90);
    expect(checkOf(report, 'weekly-downloads').score).toBe(100);
  });

  it('the verdict reasons say why the repository is not credited', () => {
    expect(report.verdictReasons).toEqual([
      `repository acme/widget is not verified as this package's (${UNVERIFIED}): its popularity and activity are not credited`,
    ]);
    // The uncredited checks leave the mean and coverage drops; the verdict is held at CAUTION so a
    // starjacker cannot win a plain YES by hiding its weak repository.
    expect({ score: report.score, grade: report.grade, verdict: report.verdict, coverage: report.coverage }).toEqual({
      score: 94.1,
      grade: 'A+',
      verdict: 'CAUTION',
      coverage: 0.739,
    });
  });

  it('the manifest was read to decide it (9 GitHub requests)', () => {
    expect(githubLines(json.requests)).toEqual([...WIDGET_REST_REPOSITORY, 'GET /github/repos/acme/widget/contents/package.json'].sort());
  });

  it('the table shows the reason under the header', async () => {
    const table = await ctx.run(['check', 'widgets-helper']);
    expect(table.code).toBe(0);
    const flat = table.stdout.replace(/\s+/g, ' ');
    // First, as an alert (a sentence, so capitalised).
    expect(flat).toMatch(/^widgets-helper@3\.2\.0 PASS verdict CAUTION .* Alerts ▲ Repository acme\/widget is not verified as this package's/);
    // The reason the GitHub checks are unknown, once, with the checks it left unknown; each of them on one line.
    expect(table.stdout.match(/names "widget", not "widgets-helper"/g)).toHaveLength(1);
    expect(flat).toMatch(/Not checked Repository link not verified \(package\.json at main names "widget", not "widgets-helper"\) \d+ checks unknown: Security policy, /);
    expect(table.stdout).toMatch(/^ {2}\? {5}— {2}Security policy \(repository link not verified\)$/m);
  });
});

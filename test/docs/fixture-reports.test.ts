/**
 * docs/fixture-reports.md is generated: nerq's check use case run in process against the loopback
 * fixture server on every recorded repository (fixtures/github-repos, as `github:owner/repo`
 * targets, without and with a token) and every MCP Registry entry the tests resolve
 * (fixtures/mcp-registry), with the answers the recordings lack synthesised exactly as the
 * repository and MCP tests synthesise them (test/repository/recorded-repos.ts RECORDED_CASES,
 * test/cli/mcp-helpers.ts). It must not go stale:
 * `UPDATE_GENERATED=1 npx vitest run test/docs/fixture-reports.test.ts` rewrites it.
 * The MCP entries are checked with the services working (GitHub from the recorded repository where
 * the entry's is one, else unavailable; OSV answering), and one row with them down, as the MCP tests serve them.
 * The same run asserts what a report on each recorded repository must be (docs/fixture-reports.md
 * states it): every dimension known, coverage ≥ 0.7 where the files to read exist, and no YES for
 * the repositories a careful reviewer would not sign; the GitHub request totals docs/scoring.md
 * states; and why each MCP entry with a recorded repository is held.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { createRuntime } from '../../src/app/runtime.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { expectPackage, githubAnswers, osvNoAdvisories, osvNoRecords } from '../cli/helpers.js';
import {
  entryWithBarePackage,
  example,
  nerqFixtureBareWith,
  realEntry,
  seedEntry,
  serveEntry,
  serveRecordedNpm,
  startMcpFixtureServer,
  type Official,
  type ServerJson,
} from '../cli/mcp-helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { cliEnv, DEFAULT_NOW } from '../support/run-cli.js';
import { tempHome } from '../support/temp-home.js';
import { RECORDED_CASES, recordOf, serveRecordedGraphql, serveRecordedRepo, servePublished, type RecordedCase } from '../repository/recorded-repos.js';

const DOC = new URL('../../docs/fixture-reports.md', import.meta.url);
const DIMENSIONS = ['security', 'maintenance', 'documentation', 'compliance', 'community'] as const;
const TOKEN = 'ghp_nerqTestToken0123456789abcdefABCDEF';
/**
 * The repositories the tests check both without and with a token (test/repository): with one,
 * GitHub's GraphQL repository node is synthesised from acme/widget's recorded node
 * (serveRecordedGraphql), its commits and people included, so it is run only where the tests do.
 */
const WITH_TOKEN = new Set(['microsoft/playwright-mcp', 'github/github-mcp-server']);

/** Run one `target` in process on a fresh fixture server set up by `serve`, as of `now`; the report and the requests it sent. */
/** Distinct requests by service: GitHub's REST API, its GraphQL API, its raw file hosting, and every other service (registries, OSV, the MCP Registry). */
interface RequestCounts {
  rest: number;
  graphql: number;
  raw: number;
  other: number;
}

function countRequests(distinct: Iterable<string>): RequestCounts {
  const counts: RequestCounts = { rest: 0, graphql: 0, raw: 0, other: 0 };
  for (const request of distinct) {
    const requestPath = request.split(' ')[1] ?? '';
    if (requestPath === '/github/graphql') counts.graphql += 1;
    else if (requestPath.startsWith('/github/')) counts.rest += 1;
    else if (requestPath.startsWith('/github-raw/')) counts.raw += 1;
    else counts.other += 1;
  }
  return counts;
}

interface Evaluated {
  report: Report;
  requests: number;
  sent: number;
  counts: RequestCounts;
}

async function evaluate(target: string, now: Date, start: () => Promise<FixtureServer>, serve: (server: FixtureServer) => void, env: Record<string, string> = {}): Promise<Evaluated> {
  const server = await start();
  const home = tempHome('nerq-fixture-reports-');
  const runtime = createRuntime({ env: cliEnv(home, { server, env: { NERQ_NOW: now.toISOString(), ...env } }), cwd: home, clock: () => now });
  try {
    serve(server);
    const [outcome] = await checkTargets(runtime, { targets: [parseTarget(target)], gate: DEFAULT_GATE, now });
    if (outcome === undefined) throw new Error(`${target}: no outcome`);
    expectNoUnexpected(server);
    // A retry after an answer the fixtures do not record (503) is sent as often as the retry policy's timing allows: each distinct request counts once.
    const distinct = new Set(server.requests.map((r) => `${r.method} ${r.path} ${r.body}`));
    return { report: JSON.parse(JSON.stringify(outcome.report)) as Report, requests: distinct.size, sent: server.requests.length, counts: countRequests(distinct) };
  } finally {
    await runtime.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Recorded repositories

/**
 * What a careful reviewer would not sign (fixtures/github-repos/README.md): the verdict must not be YES.
 * The reason is printed on the page.
 */
const NOT_SIGNED: Record<string, string> = {
  'formulahendry/mcp-server-code-runner': 'a 16-day-old, single-maintainer MCP server that runs code',
  'GongRzhe/Office-Word-MCP-Server': 'a one-day-old, single-maintainer server with unpinned requirements',
  'ian1roberts/mcp_server': 'four days of history; its README installs a name it does not publish',
  'Rishirandhawa/mcp-rust-sdk': 'its README declares it deprecated and moved',
};

/**
 * Repositories whose dependency files to read do not exist, so coverage ≥ 0.7 is not required
 * (the dependency checks stay unknown rather than being read as clean; docs/scoring.md). Printed on the page.
 */
const NO_FILES: Record<string, string> = {
  'modelcontextprotocol/rust-sdk': 'no Cargo.lock pins the workspace: its requirements resolve to direct dependencies only, so the malicious-dependency check stays unknown',
  'modelcontextprotocol/kotlin-sdk': 'a Gradle build without dependency locking: its version catalog gives direct dependencies only, so the malicious-dependency check stays unknown',
};

async function checkRepository(fullName: string, token: boolean): Promise<Evaluated> {
  const options = RECORDED_CASES[fullName];
  if (options === undefined) throw new Error(`no recorded case ${fullName}`);
  const now = new Date(new Date(recordOf(fullName).recordedCommit.committerDate).getTime() + 86_400_000);
  return evaluate(
    `github:${fullName}`,
    now,
    () => startFixtureServer(),
    (server) => {
      serveRecordedRepo(server, fullName, options);
      if (token) serveRecordedGraphql(server, fullName, { license: options.license });
      servePublished(server, options.published);
      // A PyPI project's link is verified by its pyproject.toml, setup.cfg or setup.py: GitHub answers 404 for the two it lacks.
      if (Object.keys(options.published.pypi ?? {}).length > 0) {
        for (const file of ['setup.cfg', 'setup.py']) server.expect('GET', `/github/repos/${fullName}/contents/${file}`, { status: 404 });
      }
    },
    token ? { GITHUB_TOKEN: TOKEN } : {},
  );
}

// ---------------------------------------------------------------------------------------------
// MCP Registry entries

interface McpCase {
  label: string;
  /** The degraded case the MCP tests serve: GitHub's hourly budget spent and OSV not recorded (503). */
  servicesDown?: true;
  entry: () => ServerJson;
  /** Ask for this version rather than the latest. */
  pinned?: boolean;
  official?: Official;
  serve?: (server: FixtureServer, entry: ServerJson) => void;
}

const NOT_RECORDED = { status: 503, body: 'not recorded' };

/** The entries the MCP tests resolve (test/cli/check-mcp.test.ts, test/cli/mcp-odd.test.ts), served as they serve them. */
const MCP_CASES: McpCase[] = [
  {
    label: 'multi-package (npm + OCI + MCPB), seed',
    entry: () => seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3'),
    pinned: true,
    serve: (s) => serveRecordedNpm(s, 'airtable-mcp-server', '1.7.3'),
  },
  { label: 'npm, real server.json', entry: () => realEntry('io.github.microsoft__playwright-mcp.server.json'), pinned: true, serve: (s) => serveRecordedNpm(s, '@playwright/mcp', '0.0.79') },
  {
    label: 'npm, real server.json — services down: GitHub rate-limited, OSV 503',
    entry: () => realEntry('io.github.microsoft__playwright-mcp.server.json'),
    pinned: true,
    servicesDown: true,
    serve: (s) => serveRecordedNpm(s, '@playwright/mcp', '0.0.79'),
  },
  { label: 'PyPI, real server.json (PyPI not recorded)', entry: () => realEntry('io.github.blazickjp__arxiv-mcp-server.server.json'), serve: (s) => s.fallback('GET', '/pypi/', NOT_RECORDED) },
  { label: 'OCI image only, real server.json', entry: () => realEntry('io.github.github__github-mcp-server.server.json') },
  { label: 'PyPI + ghcr.io image, real server.json (PyPI not recorded)', entry: () => realEntry('io.github.D4Vinci__Scrapling.server.json'), serve: (s) => s.fallback('GET', '/pypi/', NOT_RECORDED) },
  { label: 'remote-only, real server.json', entry: () => realEntry('io.0xarchive__mcp.server.json') },
  { label: 'remote-only, registry example', entry: () => example('07-remote-server-example.json') },
  {
    label: 'PyPI-only, seed (project 404)',
    entry: () => seedEntry('io.github.domdomegg/time-mcp-pypi'),
    serve: (s) => s.expect('GET', '/pypi/pypi/time-mcp-pypi/json', { status: 404, body: { message: 'Not Found' } }),
  },
  { label: 'NuGet-only, seed', entry: () => seedEntry('io.github.domdomegg/time-mcp-nuget') },
  {
    label: 'deprecated (edit: recorded nerq-fixture-bare as its package)',
    entry: () => entryWithBarePackage('io.github.domdomegg/airtable-mcp-server'),
    official: { status: 'deprecated', statusMessage: 'Use io.github.domdomegg/airtable-mcp-server-v2 instead' },
    serve: (s) => void expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } }),
  },
  {
    label: 'look-alike: its npm mcpName names another server (edit)',
    entry: () => {
      const lookAlike = entryWithBarePackage('io.github.domdomegg-tools/airtable-mcp-server');
      lookAlike.repository = { url: 'https://github.com/domdomegg-tools/airtable-mcp-server', source: 'github' };
      return lookAlike;
    },
    serve: (s) => void expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } }),
  },
  {
    label: 'namespace/owner mismatch (edit)',
    entry: () => {
      const entry = example('02-basic-server-with-npm-package.json');
      entry.name = 'io.github.alice/weather';
      entry.repository = { url: 'https://github.com/bob/weather', source: 'github' };
      entry.packages = [];
      return entry;
    },
  },
];

/** The entry's repository when it is one of the fourteen recorded ones (fixtures/github-repos), else null. */
function recordedRepository(entry: ServerJson): string | null {
  const url = (entry.repository as { url?: string } | undefined)?.url ?? '';
  const fullName = /^https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url)?.[1];
  return fullName !== undefined && RECORDED_CASES[fullName] !== undefined ? fullName : null;
}

/**
 * Working services: the MCP Registry entry; GitHub from the recorded repository with the answers
 * the repository rows synthesise (RECORDED_CASES, without their registries' answers) when the entry's
 * repository is recorded, otherwise unavailable (its hourly budget spent: nothing is made up); OSV
 * with no advisory; the packages' registries only where the MCP tests serve a recording, the rest
 * not recorded (503).
 */
function serveWorking(server: FixtureServer, c: McpCase, entry: ServerJson, repository: string | null): void {
  if (repository === null) server.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
  else serveRecordedRepo(server, repository, RECORDED_CASES[repository] as RecordedCase);
  server.route('POST', '/osv/v1/query', osvNoRecords);
  c.serve?.(server, entry);
  githubAnswers(server);
  for (const prefix of ['/npm/', '/npm-api/', '/pypi/']) server.fallback('GET', prefix, NOT_RECORDED);
}

interface EntryRow extends Evaluated {
  label: string;
  name: string;
  /** The entry's repository is recorded and GitHub answers from it. */
  recorded: boolean;
}

/**
 * Why an entry whose repository is recorded is not YES with the services working, as a reviewer
 * would check it (docs/scoring.md §8a). Printed on the page; the run asserts each cap.
 */
const MCP_HELD: Record<string, string> = {
  'io.github.microsoft/playwright-mcp':
    "its npm package `@playwright/mcp` is CAUTION: the recorded registry answer's publish times run against version order (0.0.25 dated after 0.0.82, a mirror's own dates), so its release recency is not known and holds the package; the entry is held with its package (`mcp-package-weakest`). Its documentation and compliance are its repository's, read from the recorded files as the \`github:\` target's are (docs/scoring.md §8a); its package's dependencies are its nested report's, so the repository's are not counted again",
  'io.github.blazickjp/arxiv-mcp-server': 'its PyPI project is not recorded (503): the package could not be evaluated now (`mcp-package-unavailable`, 69.9, incomplete)',
  'io.github.github/github-mcp-server': 'its only package is an OCI image, which nerq does not evaluate yet: no code of it could be inspected (`mcp-uninspected`, 69.9, at most CAUTION whatever the services say)',
};

/** The cap each held entry must show (MCP_HELD). */
const MCP_HELD_CAP: Record<string, string> = {
  'io.github.microsoft/playwright-mcp': 'mcp-package-weakest',
  'io.github.blazickjp/arxiv-mcp-server': 'mcp-package-unavailable',
  'io.github.github/github-mcp-server': 'mcp-uninspected',
};

async function checkEntry(c: McpCase): Promise<EntryRow> {
  const entry = c.entry();
  const target = `mcp:${entry.name}${c.pinned === true ? `@${entry.version}` : ''}`;
  const repository = c.servicesDown === true ? null : recordedRepository(entry);
  const result = await evaluate(target, new Date(DEFAULT_NOW), c.servicesDown === true ? startMcpFixtureServer : () => startFixtureServer(), (server) => {
    serveEntry(server, entry, c.official ?? {}, c.pinned === true ? entry.version : 'latest');
    if (c.servicesDown === true) c.serve?.(server, entry);
    else serveWorking(server, c, entry, repository);
  });
  return { label: c.label, name: entry.name, recorded: repository !== null, ...result };
}

// ---------------------------------------------------------------------------------------------
// The page

const fixed = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : n.toFixed(digits));
const dimensionCell = (report: Report, id: string): string => {
  const d = report.dimensions.find((x) => x.id === id);
  if (d === undefined) return 'n/a';
  return d.score === null ? 'unknown' : d.score.toFixed(0);
};
const categoryCell = (report: Report): string => {
  const c = report.category;
  if (c === null || c === undefined) return '—';
  const ids = (c.matches ?? [c]).map((m) => m.id);
  return [...new Set([c.id, ...ids])].map((id) => `\`${id}\``).join(', ');
};
const verdictCell = (report: Report) => `${report.verdictCode}${report.verdictReasonDetails.length > 0 ? ` (${[...new Set(report.verdictReasonDetails.map((r) => r.code))].join(', ')})` : ''}`;
/** The cells every row has: score, grade, verdict, coverage, category and the five dimensions. */
const reportCells = (report: Report): string[] => [fixed(report.score), report.grade ?? '—', verdictCell(report), fixed(report.coverage, 2), categoryCell(report), ...DIMENSIONS.map((d) => dimensionCell(report, d))];
const row = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;

interface RepoRow {
  repo: string;
  report: Report;
  requests: number;
  sent: number;
  counts: RequestCounts;
  token: { requests: number; counts: RequestCounts; report: Report } | null;
}

function renderPage(repos: RepoRow[], entries: EntryRow[]): string {
  const rest = repos.map((r) => r.counts.rest);
  const lines: string[] = [
    '# Reports on the recorded fixtures',
    '',
    '<!-- Generated by test/docs/fixture-reports.test.ts: UPDATE_GENERATED=1 npx vitest run test/docs/fixture-reports.test.ts -->',
    '',
    "What `nerq check` says about every recorded repository and MCP Registry entry the tests serve, made by running nerq's",
    'check use case in process against the loopback fixture server (no network). The recorded data is real (git data of',
    'fourteen public repositories, fixtures/github-repos/README.md; real MCP Registry entries, fixtures/mcp-registry/README.md);',
    '**what only an API knows is synthesised**, exactly as the tests synthesise it (test/repository/recorded-repos.ts',
    '`RECORDED_CASES`, test/cli/mcp-helpers.ts): the GitHub repository answer (stars, `created_at` from the first commit,',
    'the licence GitHub would detect, topics), releases, issues and community profile (none), the registries\' answers for the',
    'packages a repository advertises, OSV (no advisory), the MCP Registry envelopes and statuses, and the entries marked as',
    'edits. The scores are therefore what nerq makes of these inputs, not of the live projects today.',
    '',
    'Each repository is checked the day after its recorded commit; each MCP entry on the tests\' default date. Dimension',
    'cells are the dimension score, `unknown` (no check of it could be judged) or `n/a` (not part of the report). Requests',
    'are the distinct requests the evaluation sent to the fixture server, split by service: **GitHub** (its REST API, and',
    'with a token its GraphQL API) and **other** (the package registries and their download counts, OSV, the MCP Registry).',
    'For a repository target that is every request (nothing is retried); for an MCP entry a retry after an answer the',
    'fixtures do not record (503) is not counted again, as how often it is retried depends on timing.',
    '',
    '## Repository targets (`github:owner/repo`)',
    '',
    row([
      'target',
      'score',
      'grade',
      'verdict',
      'coverage',
      'category',
      'security',
      'maintenance',
      'documentation',
      'compliance',
      'community',
      'GitHub REST requests (no token)',
      'other requests',
      'with a token: GitHub requests, REST + GraphQL (verdict, score)',
    ]),
    row(Array.from({ length: 14 }, () => '---')),
  ];
  for (const { repo, report, counts, token } of repos) {
    lines.push(
      row([
        `\`github:${repo}\``,
        ...reportCells(report),
        String(counts.rest),
        String(counts.other),
        token === null ? '—' : `${token.counts.rest} + ${token.counts.graphql} (${token.report.verdictCode}, ${fixed(token.report.score)})`,
      ]),
    );
  }
  lines.push(
    '',
    'The same run asserts, for every repository: all five dimensions known; coverage ≥ 0.7 except where the files to read',
    'do not exist; and no YES where a careful reviewer would not sign. The token column is filled for the repositories the',
    'tests check both ways: with a token the repository node, its tags\' dates and file texts come from GraphQL, and that',
    "node's commits, people and counts are synthesised from another recording (acme/widget's), so only its request count",
    'and verdict are shown; the other cells are the report without a token.',
    '',
    `**GitHub REST requests per repository without a token: ${Math.min(...rest)}–${Math.max(...rest)}** (no request to raw file`,
    'hosting: the synthesised commit listings carry no tree, so the newest commit is not known to have the listed tree and',
    'the workflows are read over REST). docs/scoring.md (§9) states the parts, not one total: the repository facts, then',
    '4 + the files read (at most 26 more), at most 8 workflows and 4 action files, one',
    'more when the security policy\'s only channel is private reporting, at most 8 more manifests to verify published',
    'packages. It states two measured totals, which this run checks: microsoft/playwright-mcp 18 without a token and 7 with',
    'one (4 REST + 3 GraphQL), modelcontextprotocol/typescript-sdk 35 without a token.',
    '',
    'Coverage below 0.7 is expected for:',
    '',
    ...Object.entries(NO_FILES).map(([repo, why]) => `- \`github:${repo}\`: ${why}.`),
    '',
    'Not YES, as a careful reviewer would not sign:',
    '',
    ...Object.entries(NOT_SIGNED).map(([repo, why]) => `- \`github:${repo}\`: ${why}.`),
    '',
    '## MCP Registry entries (`mcp:`)',
    '',
    'Services working, as a user would see them: where the entry\'s repository is one of the fourteen recorded ones',
    '("repository recorded": yes), GitHub answers from its recording with the answers the repository rows synthesise',
    '(`RECORDED_CASES`); **for any other repository no answer is made up**: GitHub stays unavailable (its hourly budget',
    'spent), and the repository checks are unknown. OSV answers, with no advisory. A package\'s registry answers only where',
    'the MCP tests serve a recording (the npm registry\'s answers for `airtable-mcp-server`, `@playwright/mcp`,',
    '`nerq-fixture-bare`); its tarball, its dependencies\' registry answers and its download counts are not recorded (503), and no',
    'PyPI project an entry names is recorded (`arxiv-mcp-server`, `scrapling`: 503; `time-mcp-pypi`: 404, as the test',
    'serves it). The row marked **services down** is the degraded case the MCP tests serve: GitHub\'s hourly budget spent and',
    'OSV not recorded (503).',
    '',
    row(['target', 'entry', 'repository recorded', 'score', 'grade', 'verdict', 'coverage', 'category', 'security', 'maintenance', 'documentation', 'compliance', 'community', 'GitHub requests', 'other requests']),
    row(Array.from({ length: 15 }, () => '---')),
  );
  for (const { label, name, report, counts, recorded } of entries) {
    lines.push(
      row([
        `\`mcp:${name}\``,
        label,
        recorded ? 'yes' : 'no: GitHub unavailable',
        ...reportCells(report),
        String(counts.rest + counts.graphql + counts.raw),
        String(counts.other),
      ]),
    );
  }
  lines.push(
    '',
    'Why the entries with a recorded repository are not YES:',
    '',
    ...Object.entries(MCP_HELD).map(([entry, why]) => `- \`mcp:${entry}\`: ${why}.`),
    '',
  );
  return lines.join('\n');
}

describe('docs/fixture-reports.md', () => {
  it('is up to date with what nerq reports on the recorded fixtures, and each repository report holds the acceptance properties', { timeout: 120_000 }, async () => {
    const names = Object.keys(RECORDED_CASES);
    expect(names).toHaveLength(14);
    const repos: RepoRow[] = await Promise.all(
      names.map(async (repo) => {
        const [plain, token] = await Promise.all([checkRepository(repo, false), WITH_TOKEN.has(repo) ? checkRepository(repo, true) : null]);
        return { repo, report: plain.report, requests: plain.requests, sent: plain.sent, counts: plain.counts, token };
      }),
    );
    const entries = await Promise.all(MCP_CASES.map(checkEntry));

    expect(repos.filter((r) => r.token !== null)).toHaveLength(WITH_TOKEN.size);
    // Nothing a repository target asks for is retried here: its counts are every request sent.
    for (const { repo, sent, requests } of repos) expect(sent, repo).toBe(requests);
    for (const { repo, report, token } of repos) {
      for (const r of token === null ? [report] : [report, token.report]) {
        expect(r.error, repo).toBeNull();
        for (const id of DIMENSIONS) expect(r.dimensions.find((d) => d.id === id)?.score, `${repo}: ${id}`).not.toBeNull();
        if (NO_FILES[repo] === undefined) expect(r.coverage, repo).toBeGreaterThanOrEqual(0.7);
        if (NOT_SIGNED[repo] !== undefined) expect(r.verdictCode, repo).not.toBe('yes');
      }
    }
    // GitHub REST without a token, and with one, for the totals docs/scoring.md states (§9).
    const counted = (repo: string) => repos.find((r) => r.repo === repo);
    expect(counted('microsoft/playwright-mcp')?.counts.rest).toBe(18);
    expect(counted('microsoft/playwright-mcp')?.token?.counts).toMatchObject({ rest: 4, graphql: 3 });
    expect(counted('modelcontextprotocol/typescript-sdk')?.counts.rest).toBe(35);
    for (const { repo, counts } of repos) expect(counts.graphql + counts.raw, repo).toBe(0);

    for (const { name, report } of entries) {
      expect(report.error, name).toBeNull();
      expect(report.verdictCode, name).not.toBe('yes');
    }
    // GitHub answers from the recording exactly for the entries whose repository is recorded (and not in the degraded row).
    const working = entries.filter((e) => !e.label.includes('services down'));
    expect(working.filter((e) => e.recorded).map((e) => e.name).sort()).toEqual(Object.keys(MCP_HELD).sort());
    for (const e of working.filter((x) => x.recorded)) {
      expect(e.counts.rest, e.name).toBeGreaterThan(1);
      // Its repository is read as a \`github:\` target's is: every dimension known (docs/scoring.md §8a).
      for (const id of DIMENSIONS) expect(e.report.dimensions.find((d) => d.id === id)?.score, `${e.name}: ${id}`).not.toBeNull();
      expect(e.report.verdictReasonDetails.map((r) => r.args?.cap), e.name).toContain(MCP_HELD_CAP[e.name]);
      // Where a source does not answer (arxiv-mcp-server's PyPI project is not recorded), the reason says so, never thin evidence.
      expect(e.report.verdictReasonDetails.map((r) => r.code), e.name).not.toContain('provisional-thin');
    }
    expect(working.find((e) => e.name === 'io.github.microsoft/playwright-mcp')?.report.verdictReasonDetails.map((r) => r.code)).not.toContain('provisional');
    const degraded = entries.filter((e) => e.label.includes('services down'));
    expect(degraded).toHaveLength(1);
    expect(degraded[0]?.recorded).toBe(false);
    expect(degraded[0]?.report.verdictReasonDetails.map((r) => r.code)).toContain('provisional');
    // A look-alike or a namespace that its repository's owner does not match stays NO.
    for (const name of ['io.github.domdomegg-tools/airtable-mcp-server', 'io.github.alice/weather']) expect(entries.find((e) => e.name === name)?.report.verdictCode, name).toBe('no');

    const rendered = renderPage(repos, entries);
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(DOC, rendered);
    let current = '';
    try {
      current = readFileSync(DOC, 'utf8');
    } catch {
      // Missing file: fall through to the failing comparison.
    }
    expect(current, 'docs/fixture-reports.md is stale: run UPDATE_GENERATED=1 npx vitest run test/docs/fixture-reports.test.ts').toBe(rendered);
  });
});

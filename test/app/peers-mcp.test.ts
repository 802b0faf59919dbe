/**
 * Peers of an `mcp:` target (app/peers/mcp.ts), in process against the fixture server: the MCP
 * Registry's search (`/v0.1/servers?search=…&version=latest`, two entries a page to follow the
 * cursor) over entries made from a real seed entry's shape (fixtures/mcp-registry/seed.json)
 * with the name, description and npm package replaced by synthetic ones.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { compareWithPeers, withComparison } from '../../src/app/compare.js';
import { NO_TOKEN_REST_LIMIT, REPOSITORY_REST_REQUESTS } from '../../src/app/peers/candidate.js';
import { searchWords } from '../../src/app/peers/mcp.js';
import type { Runtime } from '../../src/app/runtime.js';
import { ReportSchema } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { entryPath, envelope, searchHandler, seedEntry, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const NS = 'io.github.nerq-fixtures';
const TARGET = `${NS}/weather-forecast`;

/**
 * The entries name no repository, so their repository checks are unknown and their coverage is
 * below the default minimum (docs/scoring.md §1): a provisional peer is never an alternative, so
 * the comparison is made at a lower minimum, which every entry here reaches.
 */
const GATE = { ...DEFAULT_GATE, minCoverage: 0.2 };

let harness: AppHarness;
let server: FixtureServer;

/** A real entry's shape with a synthetic name, description and one npm package (no repository: GitHub is not asked). */
function entry(name: string, description: string, pkg: string): ServerJson {
  const made = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
  made.name = `${NS}/${name}`;
  made.description = description;
  made.version = '1.0.0';
  delete made.repository;
  delete made.websiteUrl;
  made.packages = [{ registryType: 'npm', identifier: pkg, version: '1.0.0', transport: { type: 'stdio' } }];
  return made;
}

/**
 * The registry: the target, two peers sharing "weather" (one whose package is deprecated, so it
 * scores lower), one that runs shell commands (code execution: another category), and one whose
 * name contains "forecast" without sharing a word (never evaluated).
 */
const ENTRIES: ServerJson[] = [
  entry('weather-forecast', 'Weather forecasts for any city', 'nerq-mcp-weather-forecast'),
  entry('weather-alerts', 'Severe weather alerts by region', 'nerq-mcp-weather-alerts'),
  entry('weather-legacy', 'Weather reports (old API)', 'nerq-mcp-weather-legacy'),
  entry('weather-shell', 'Runs shell commands to fetch weather reports', 'nerq-mcp-weather-shell'),
  entry('forecasting-stocks', 'Stock price forecasting', 'nerq-mcp-stocks'),
];
const PACKAGES = [
  // The target's package is little used: the alerts peer scores higher, the deprecated one lower.
  { name: 'nerq-mcp-weather-forecast', keywords: ['mcp', 'weather'], weekly: 40 },
  { name: 'nerq-mcp-weather-alerts', keywords: ['mcp', 'weather'] },
  { name: 'nerq-mcp-weather-legacy', keywords: ['mcp', 'weather'], deprecated: 'no longer maintained' },
  { name: 'nerq-mcp-weather-shell', keywords: ['mcp', 'weather'] },
];

beforeEach(async () => {
  harness = await startAppHarness('nerq-peers-mcp-', NOW);
  server = harness.server;
  for (const e of ENTRIES.slice(0, 4)) server.expect('GET', entryPath(e.name), { body: envelope(e) });
  for (const pkg of PACKAGES) serveSynthetic(server, { version: '1.0.0', repository: null, ...pkg });
  serveOsv(server, []);
});

afterEach(() => harness.stop());

const runtime = (env: Record<string, string> = {}): Runtime => harness.runtime(env);

async function checked(app: Runtime, name: string) {
  const [outcome] = await checkTargets(app, { targets: [parseTarget(`mcp:${name}`)], gate: GATE, now: NOW });
  return outcome!;
}

const searches = () => server.requests.filter((r) => r.path.startsWith('/mcp-registry/v0.1/servers?')).map((r) => Object.fromEntries(new URL(r.path, 'http://x').searchParams));
const entriesAsked = () => server.requests.filter((r) => r.path.includes('/versions/latest')).map((r) => decodeURIComponent(r.path.split('/servers/')[1]!.split('/versions/')[0]!));

describe('peers of an MCP Registry entry: the registry search by its name and description words', () => {
  it('query words from the name, then the description, generic ones left out', () => {
    expect(searchWords('weather-forecast')).toEqual(['weather', 'forecast']);
    expect(searchWords('The MCP server for GitHub API access: 2024 tools')).toEqual([]);
    expect(searchWords('\u001b[31mred\u001b[0m arXiv papers')).toEqual(['red', 'arxiv', 'papers']);
  });

  it('candidates found by paged search, evaluated as mcp: targets; another category excluded; a lower-scoring peer never an alternative', async () => {
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler(ENTRIES, 2));
    const app = runtime({ GITHUB_TOKEN: 'test-token' });
    const outcome = await checked(app, TARGET);
    expect(outcome.report.category?.id).toBe('mcp-server');
    const result = await compareWithPeers(app, outcome, { gate: GATE, now: NOW, peers: 12 });

    // Two words, each followed through the cursor (4 entries name "weather": two pages).
    const asked = searches();
    expect(asked.filter((s) => s.search === 'weather').map((s) => s.cursor ?? null)).toEqual([null, `${NS}/weather-alerts:1.0.0`]);
    expect(asked.filter((s) => s.search === 'forecast')).toHaveLength(1);
    for (const s of asked) expect(s).toMatchObject({ version: 'latest', limit: '100' });
    // A name containing "forecast" but sharing no word is never evaluated.
    expect(entriesAsked()).not.toContain(`${NS}/forecasting-stocks`);
    expect(new Set(entriesAsked())).toEqual(new Set([TARGET, `${NS}/weather-alerts`, `${NS}/weather-legacy`, `${NS}/weather-shell`]));

    // Two peers of the category: too few for a standing; the peers and the sample are kept.
    expect(result.comparison).toBeNull();
    const comparison = result.comparisonUnavailable!;
    expect(comparison.code).toBe('no-peers');
    expect(comparison.members!.map((m) => m.target).sort()).toEqual([`${NS}/weather-alerts@1.0.0`, `${NS}/weather-legacy@1.0.0`]);
    expect(comparison.sample).toMatchObject({
      sources: ['mcp-registry-search'],
      query: 'search=weather; search=forecast',
      candidates: 4,
      skipped: 1,
      // The shell one: code execution, another category.
      excluded: 1,
      notes: [],
    });
    const legacy = comparison.members!.find((m) => m.target.includes('weather-legacy'))!;
    expect(legacy.score).toBeLessThan(outcome.report.score!);
    expect(result.alternatives.map((a) => a.target)).not.toContain(`${NS}/weather-legacy@1.0.0`);
    expect(result.alternatives.map((a) => a.target)).toEqual([`${NS}/weather-alerts@1.0.0`]);
    expect(result.alternatives[0]!.score).toBeGreaterThan(outcome.report.score!);
    expect(result.alternatives[0]!.why).toEqual([expect.objectContaining({ code: 'shared-keywords', keywords: ['weather'] })]);
    expect(() => ReportSchema.parse(withComparison(outcome.report, result))).not.toThrow();
  });

  it('search down: comparison null with the reason code, never an average; no peer evaluated', async () => {
    server.expect('GET', '/mcp-registry/v0.1/servers', { status: 503 });
    const app = runtime({ GITHUB_TOKEN: 'test-token' });
    const result = await compareWithPeers(app, await checked(app, TARGET), { gate: GATE, now: NOW });
    expect(result).toEqual({
      comparison: null,
      comparisonUnavailable: { code: 'search-unavailable', sourceCode: 'host-down', reason: expect.stringMatching(/^MCP Registry search: .*503/), notes: [] },
      alternatives: [],
    });
    expect(entriesAsked()).toEqual([TARGET]);
  });

  it('a malformed search answer: search-unavailable', async () => {
    server.expect('GET', '/mcp-registry/v0.1/servers', { body: { servers: 'nope' } });
    const app = runtime({ GITHUB_TOKEN: 'test-token' });
    const result = await compareWithPeers(app, await checked(app, TARGET), { gate: GATE, now: NOW });
    expect(result.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'bad-answer', reason: expect.stringMatching(/^MCP Registry search: unexpected answer/) });
  });

  it("without a GitHub token: as many peers as GitHub's 60 requests an hour cover; the rest rate-limited in the sample, a note says why", async () => {
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler(ENTRIES, 100));
    const app = runtime();
    // Nothing known of the budget (no GitHub answer yet): 60 requests, a repository's worth each.
    const fit = Math.floor(NO_TOKEN_REST_LIMIT / REPOSITORY_REST_REQUESTS);
    const all = await compareWithPeers(app, await checked(app, TARGET), { gate: GATE, now: NOW, peers: 12 });
    const sample = all.comparison?.sample ?? all.comparisonUnavailable?.sample;
    // The three weather peers fit: every one is evaluated, no note.
    expect((sample?.candidates ?? 0) - (sample?.skipped ?? 0)).toBe(fit);
    expect(sample).not.toHaveProperty('unevaluated');
    expect(sample?.notes).toEqual([]);
    // With --peers 2 the cap does not bind: no note.
    const two = await compareWithPeers(app, await checked(app, TARGET), { gate: GATE, now: NOW, peers: 2 });
    expect(two.comparisonUnavailable?.notes).toEqual([]);
    expect((two.comparisonUnavailable?.members?.length ?? 0) + (two.comparisonUnavailable?.sample?.excluded ?? 0)).toBe(2);
    // GitHub said 20 are left this hour: one repository's worth, the other two peers rate-limited, said so.
    const reset = String(Math.floor(NOW.getTime() / 1000) + 3600);
    app.callContext({ gate: GATE, now: NOW }).githubLimiter.observe(app.endpoints.githubApi, { 'x-ratelimit-remaining': '20', 'x-ratelimit-reset': reset }, NOW);
    const low = await compareWithPeers(app, await checked(app, TARGET), { gate: GATE, now: NOW, peers: 12 });
    const lowSample = low.comparison?.sample ?? low.comparisonUnavailable?.sample;
    expect((lowSample?.candidates ?? 0) - (lowSample?.skipped ?? 0)).toBe(1);
    expect(lowSample?.unevaluated?.map((u) => u.code)).toEqual(['rate-limited', 'rate-limited']);
    expect(lowSample?.notes).toHaveLength(1);
  });
});

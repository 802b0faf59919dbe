/**
 * A target among its peers (app/compare.ts), in process against the fixture server: peers found
 * by npm's search (answers built from the recorded one) and by the curated replacement list,
 * evaluated by the same engine; standing and alternatives; a failing search; the run's deadline; `compareTargets`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { compareTargets, compareWithPeers, NOTE_PYPI, withComparison } from '../../src/app/compare.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { ReportSchema } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { RECORDED_NAMES, searchAnswer, searchRequests, serveSearch } from '../support/npm-search.js';
import { cliEnv, DEFAULT_NOW } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { expectPackage } from '../cli/helpers.js';

const NOW = new Date(DEFAULT_NOW);
let server: FixtureServer;
let home: string;
const runtimes: Runtime[] = [];

/**
 * The peers of `request` (keywords http, simple, util, utility): a healthy library sharing
 * `http`, one sharing only the generic `util` and `utility` (no peer), a deprecated one (capped
 * at 49.9, never better than request), one whose listing puts it in another category
 * (ai-agent), one sharing no keyword. `ofetch` and `ky` are the curated
 * replacements module-replacements names for request (served here as synthetic packages).
 */
const PEERS: { name: string; keywords: string[]; deprecated?: string }[] = [
  { name: 'nerq-peer-fetch', keywords: ['http', 'fetch', 'client'] },
  { name: 'nerq-peer-util', keywords: ['util', 'utility'] },
  { name: 'nerq-peer-old', keywords: ['http'], deprecated: 'no longer maintained' },
  { name: 'nerq-peer-agent', keywords: ['http', 'ai-agent'] },
  { name: 'nerq-peer-colors', keywords: ['color'] },
];
const CURATED = ['ofetch', 'ky'];

function runtime(extraEnv: Record<string, string> = {}): Runtime {
  const made = createRuntime({ env: cliEnv(home, { server, env: extraEnv }), cwd: home, clock: () => NOW });
  runtimes.push(made);
  return made;
}

useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'request');
  expectPackage(server, 'chalk');
  for (const peer of [...PEERS, ...CURATED.map((name) => ({ name, keywords: ['http', 'fetch'] }))]) {
    serveSynthetic(server, { version: '2.0.0', ...peer });
  }
  serveSynthetic(server, { name: 'nerq-cmp-target', version: '1.0.0', keywords: ['http'] });
  // The target's name under a scope, no repository declared by either: a mirror, however it was built.
  serveSynthetic(server, { name: '@mirror/nerq-cmp-target', version: '2.0.0', keywords: ['http'], provenance: 'mirror/nerq-cmp-target' });
  serveSynthetic(server, { name: 'nerq-cmp-generic', version: '1.0.0', keywords: ['javascript', 'typescript', 'node', 'http'] });
  serveSynthetic(server, { name: 'nerq-cmp-only-generic', version: '1.0.0', keywords: ['javascript', 'nodejs', 'api', 'util'] });
  serveSynthetic(server, { name: 'nerq-peer-js', version: '2.0.0', keywords: ['javascript', 'typescript', 'node'] });
  serveOsv(server, []);
});

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

function freshHome(): void {
  home = mkdtempSync(path.join(os.tmpdir(), 'nerq-compare-'));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, dir), { recursive: true });
}

async function checked(app: Runtime, target: string) {
  const [outcome] = await checkTargets(app, { targets: [parseTarget(target)], gate: DEFAULT_GATE, now: NOW });
  return outcome!;
}

describe('compareWithPeers', () => {
  it('a deprecated target: peers of its category scored, standing among them, higher-scoring alternatives with why', async () => {
    freshHome();
    serveSearch(server, searchAnswer(PEERS, { hostile: true }));
    const app = runtime();
    const outcome = await checked(app, 'request');
    expect(outcome.report).toMatchObject({ score: 49.9, verdictCode: 'no' });
    const before = searchRequests(server).length;
    const result = await compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, peers: 12 });

    // request's keywords are http, simple, util, utility: only http says what it does.
    expect(searchRequests(server).slice(before)).toEqual([{ text: 'keywords:http', size: '36' }]);
    // Only the peers sharing a specific keyword, of the same category by their listing, and the curated ones were evaluated.
    const asked = new Set(server.requests.map((r) => decodeURIComponent(r.path)));
    expect(asked.has('/npm/nerq-peer-util')).toBe(false);
    expect(asked.has('/npm/nerq-peer-agent')).toBe(false);
    expect(asked.has('/npm/nerq-peer-colors')).toBe(false);
    for (const name of RECORDED_NAMES) expect(asked.has(`/npm/${name}`)).toBe(false);

    const comparison = result.comparison!;
    expect(comparison).toMatchObject({ category: 'library', peers: 4, rank: 4 });
    expect(comparison.members.map((m) => m.target).sort()).toEqual(['ky@2.0.0', 'nerq-peer-fetch@2.0.0', 'nerq-peer-old@2.0.0', 'ofetch@2.0.0']);
    const scores = comparison.members.map((m) => m.score).sort((a, b) => a - b);
    expect(comparison.median).toBe(Math.round(((scores[1]! + scores[2]!) / 2) * 10) / 10);
    // request ties with the deprecated peer (both capped at 49.9) and is below the others: 0.5 of 4 below.
    expect(scores[0]).toBe(49.9);
    expect(comparison.percentile).toBe(13);
    expect(comparison.sample).toMatchObject({
      sources: ['npm-search', 'module-replacements'],
      query: 'keywords:http',
      evaluatedAt: NOW.toISOString(),
      excluded: 0,
      // What the curated list suggests that is no package to score: the platform's own feature.
      notes: [expect.stringMatching(/^module-replacements also suggests the platform's own fetch instead of request \(https:\/\/e18e\.dev\/docs\/replacements\/fetch\)$/)],
    });
    // 5 listed peers + 12 recorded listings + 2 curated; 2 evaluated from the search.
    expect(comparison.sample.candidates).toBe(PEERS.length + RECORDED_NAMES.length - 1 + CURATED.length);
    expect(comparison.sample.skipped).toBe(PEERS.length + RECORDED_NAMES.length - 1 - 2);

    const alternatives = result.alternatives;
    expect(alternatives).toHaveLength(3);
    expect(alternatives.map((a) => a.target)).not.toContain('nerq-peer-old@2.0.0');
    for (const alternative of alternatives) {
      expect(alternative.score).toBeGreaterThan(49.9);
      expect(alternative.better.length).toBeGreaterThan(0);
      expect(alternative.why.length).toBeGreaterThan(0);
    }
    const sorted = [...alternatives].sort((a, b) => b.score - a.score);
    expect(alternatives).toEqual(sorted);
    const curated = alternatives.filter((a) => a.why.some((w) => w.code === 'curated-replacement'));
    expect(curated.length).toBeGreaterThan(0);
    expect(curated[0]!.why.find((w) => w.code === 'curated-replacement')).toMatchObject({ source: 'module-replacements', url: 'https://e18e.dev/docs/replacements/fetch' });
    const shared = alternatives.flatMap((a) => a.why).filter((w) => w.code === 'shared-keywords');
    for (const why of shared) expect(why.keywords.length).toBeGreaterThan(0);

    // The report with its comparison keeps the contract.
    expect(() => ReportSchema.parse(withComparison(outcome.report, result))).not.toThrow();
  });

  it('a peer scoring lower is never an alternative; the target ranks first', async () => {
    freshHome();
    serveSearch(server, searchAnswer([{ name: 'nerq-peer-old', keywords: ['http'] }]));
    const app = runtime();
    const outcome = await checked(app, 'nerq-cmp-target');
    const result = await compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, peers: 4 });
    expect(searchRequests(server).at(-1)).toEqual({ text: 'keywords:http', size: '25' });
    // One peer is too few for a standing: no rank or percentile, the peer and the sample kept.
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable).toMatchObject({ code: 'no-peers', members: [{ target: 'nerq-peer-old@2.0.0' }], sample: { query: 'keywords:http' } });
    expect(result.comparisonUnavailable!.members![0]!.score).toBeLessThan(outcome.report.score!);
    expect(result.alternatives).toEqual([]);
  });

  it('the target under another scope, neither declaring a repository, scores higher and is still no alternative: a mirror', async () => {
    freshHome();
    serveSearch(server, searchAnswer([{ name: '@mirror/nerq-cmp-target', keywords: ['http'] }, { name: 'nerq-peer-old', keywords: ['http'] }]));
    const app = runtime();
    const outcome = await checked(app, 'nerq-cmp-target');
    const result = await compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, peers: 4 });
    const mirror = result.comparisonUnavailable!.members!.find((m) => m.target === '@mirror/nerq-cmp-target@2.0.0')!;
    expect(mirror.score).toBeGreaterThan(outcome.report.score!);
    expect(result.alternatives).toEqual([]);
  });

  it('generic keywords (javascript, typescript, node…) are not searched by, and a listing sharing only those is no peer', async () => {
    freshHome();
    serveSearch(server, searchAnswer([{ name: 'nerq-peer-js', keywords: ['javascript', 'typescript', 'node'] }, { name: 'nerq-peer-fetch', keywords: ['http', 'fetch', 'javascript'] }]));
    const app = runtime();
    const result = await compareWithPeers(app, await checked(app, 'nerq-cmp-generic'), { gate: DEFAULT_GATE, now: NOW });
    expect(searchRequests(server).at(-1)).toEqual({ text: 'keywords:http', size: '36' });
    expect(server.requests.some((r) => r.path === '/npm/nerq-peer-js')).toBe(false);
    expect(result.comparisonUnavailable?.members?.map((m) => m.target)).toEqual(['nerq-peer-fetch@2.0.0']);
    expect(result.comparisonUnavailable?.sample).toMatchObject({ query: 'keywords:http', skipped: 1 });
    for (const a of result.alternatives) expect(a.why.flatMap((w) => w.keywords)).toEqual(['http']);

    // Only generic keywords: nothing specific to search by, no search sent.
    const before = searchRequests(server).length;
    const none = await compareWithPeers(app, await checked(app, 'nerq-cmp-only-generic'), { gate: DEFAULT_GATE, now: NOW });
    expect(searchRequests(server).length).toBe(before);
    expect(none).toEqual({ comparison: null, comparisonUnavailable: { code: 'search-unavailable', sourceCode: 'not-asked', reason: expect.stringContaining('only generic keywords (javascript, nodejs, api)'), notes: [] }, alternatives: [] });
  });

  it('--peers N: at most N peers from the search', async () => {
    freshHome();
    serveSearch(server, searchAnswer(PEERS));
    const app = runtime();
    const outcome = await checked(app, 'nerq-cmp-target');
    const result = await compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, peers: 2 });
    expect(result.comparisonUnavailable?.members?.map((m) => m.target).sort()).toEqual(['nerq-peer-fetch@2.0.0', 'nerq-peer-old@2.0.0']);
    expect(result.comparisonUnavailable?.code).toBe('no-peers');
  });

  it('peers found but their registry down: peers-unavailable with counts, never no-peers', async () => {
    freshHome();
    const down = ['nerq-down-a', 'nerq-down-b', 'nerq-down-c'];
    for (const name of down) server.expect('GET', `/npm/${name}`, { status: 503 });
    serveSearch(server, searchAnswer(down.map((name) => ({ name, keywords: ['http'] }))));
    const app = runtime();
    const outcome = await checked(app, 'nerq-cmp-target');
    expect(outcome.report.score).not.toBeNull();
    const result = await compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, peers: 4 });
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable).toMatchObject({ code: 'peers-unavailable', counts: { candidates: 3, unavailable: 3, scored: 0 }, members: [] });
    expect(() => ReportSchema.parse(withComparison(outcome.report, result))).not.toThrow();
  });

  it('search down: comparison null with the reason, never an average; curated alternatives still named', async () => {
    freshHome();
    serveSearch(server, { status: 503 });
    const app = runtime();
    const target = await compareWithPeers(app, await checked(app, 'nerq-cmp-target'), { gate: DEFAULT_GATE, now: NOW });
    expect(target).toEqual({ comparison: null, comparisonUnavailable: { code: 'search-unavailable', sourceCode: 'http-status', reason: expect.stringMatching(/^npm search: .*503/), notes: [] }, alternatives: [] });

    const deprecated = await compareWithPeers(app, await checked(app, 'request'), { gate: DEFAULT_GATE, now: NOW });
    expect(deprecated.comparison).toBeNull();
    expect(deprecated.comparisonUnavailable?.code).toBe('search-unavailable');
    expect(deprecated.alternatives.map((a) => a.target).sort()).toEqual(['ky@2.0.0', 'ofetch@2.0.0']);
    for (const a of deprecated.alternatives) expect(a.why.map((w) => w.code)).toEqual(['curated-replacement']);
    expect(deprecated.comparisonUnavailable?.notes).toEqual([expect.stringMatching(/^module-replacements also suggests the platform's own fetch instead of request \(https:\/\/e18e\.dev\/docs\/replacements\/fetch\)$/)]);

    // The curated replacements evaluated on incomplete evidence (provisional): none offered, and the notes say which and why.
    const provisional = await compareWithPeers(app, await checked(app, 'request'), {
      gate: DEFAULT_GATE,
      now: NOW,
      evaluateTargets: async (targets) => (await checkTargets(app, { targets, gate: DEFAULT_GATE, now: NOW })).map((o) => ({ ...o, report: { ...o.report, provisional: true } })),
    });
    expect(provisional.alternatives).toEqual([]);
    // The search host failed for good in the first call: not asked again in this run.
    expect(provisional.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'host-down' });
    expect(provisional.comparisonUnavailable?.notes).toEqual([
      expect.stringMatching(/^module-replacements also suggests the platform's own fetch instead of request \(https:\/\/e18e\.dev\/docs\/replacements\/fetch\)$/),
      // Provisional peers are no members of a standing, and the notes say so.
      expect.stringMatching(/^2 provisional peers left out of the standing: (ofetch@2\.0\.0, ky@2\.0\.0|ky@2\.0\.0, ofetch@2\.0\.0) /),
      expect.stringMatching(/^module-replacements names (ofetch, ky|ky, ofetch) instead of request; not offered: .*ky@2\.0\.0 \(provisional/),
    ]);
  });

  it('NERQ_NPM_SEARCH_URL: the search goes to that registry', async () => {
    freshHome();
    serveSearch(server, searchAnswer([{ name: 'nerq-peer-fetch', keywords: ['http'] }]), 'npm-search');
    const app = runtime({ NERQ_NPM_SEARCH_URL: server.url('npm-search') });
    const result = await compareWithPeers(app, await checked(app, 'nerq-cmp-target'), { gate: DEFAULT_GATE, now: NOW });
    expect(result.comparisonUnavailable?.members?.map((m) => m.target)).toEqual(['nerq-peer-fetch@2.0.0']);
    expect(server.requests.some((r) => r.path.startsWith('/npm-search/-/v1/search?'))).toBe(true);
  });

  it('PyPI: no search source, said so; a repository target without its facts has nothing to search by; an unscored target is not compared', async () => {
    freshHome();
    const app = runtime();
    const base = (await checked(app, 'nerq-cmp-target')).report;
    const pypi = await compareWithPeers(app, { report: { ...base, target: { ...base.target, ecosystem: 'pypi' } }, evidence: null }, { gate: DEFAULT_GATE });
    expect(pypi).toEqual({ comparison: null, comparisonUnavailable: { code: 'no-search-source', reason: NOTE_PYPI, notes: [NOTE_PYPI] }, alternatives: [] });
    // A repository target is searched by its topics (test/app/peers-github.test.ts): without its facts, nothing to search by.
    const github = await compareWithPeers(app, { report: { ...base, target: { ...base.target, ecosystem: 'github' } }, evidence: null }, { gate: DEFAULT_GATE });
    expect(github.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: expect.any(String), reason: expect.stringMatching(/^GitHub search: /) });
    const unscored = await compareWithPeers(app, { report: { ...base, score: null }, evidence: null }, { gate: DEFAULT_GATE });
    expect(unscored.comparisonUnavailable?.code).toBe('not-evaluated');
  });
});

describe("compareWithPeers and the run's deadline", () => {
  it("the peers are evaluated under the call's signal: its end closes their requests in flight, and the comparison answers with the peers unavailable", async () => {
    freshHome();
    const names = ['nerq-peer-hang-a', 'nerq-peer-hang-b', 'nerq-peer-hang-c'];
    // Peers whose registry never answers: only the deadline ends their requests.
    const hanging = names.map((name) => {
      let arrive!: () => void;
      let close!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const closed = new Promise<void>((resolve) => (close = resolve));
      server.route('GET', `/npm/${name}`, (_req, res) => {
        res.on('close', () => close());
        arrive();
      });
      return { arrived, closed };
    });
    serveSearch(server, searchAnswer(names.map((name) => ({ name, keywords: ['http'] }))));
    const app = runtime();
    const outcome = await checked(app, 'nerq-cmp-target');
    const deadline = new AbortController();
    const comparing = compareWithPeers(app, outcome, { gate: DEFAULT_GATE, now: NOW, signal: deadline.signal });
    // Concurrently: every peer's request is in flight at once.
    await Promise.all(hanging.map((h) => h.arrived));
    deadline.abort(new Error('deadline'));
    await Promise.all(hanging.map((h) => h.closed));
    const result = await comparing;
    // Cut short, the peers count as unanswered, never as scored nor as "no peers"; nothing is averaged.
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable).toMatchObject({ code: 'peers-unavailable', counts: { candidates: 3, unavailable: 3, scored: 0 } });
    expect(result.alternatives).toEqual([]);
  });
});

describe('compareTargets', () => {
  it('three packages side by side: dimensions, the highest, the checks where they differ most', async () => {
    freshHome();
    const { outcomes, comparison } = await compareTargets(runtime(), {
      targets: ['request', 'nerq-peer-fetch', 'chalk'].map(parseTarget),
      gate: DEFAULT_GATE,
      now: NOW,
    });
    expect(outcomes.map((o) => o.report.target.name)).toEqual(['request', 'nerq-peer-fetch', 'chalk']);
    expect(comparison.targets).toEqual(['request@2.88.2', 'nerq-peer-fetch@2.0.0', 'chalk@4.1.0']);
    const best = outcomes.reduce((a, b) => (b.report.score! > a.report.score! ? b : a));
    expect(comparison.highest).toBe(`${best.report.target.name}@${best.report.target.version}`);
    expect(comparison.dimensions.map((d) => d.id)).toEqual(['security', 'maintenance', 'documentation', 'compliance', 'community']);
    expect(comparison.dimensions[0]!.scores).toHaveLength(3);
    expect(comparison.differences.length).toBeGreaterThan(0);
    expect(comparison.differences.length).toBeLessThanOrEqual(5);
    // Checks a target fails (and another does not) first, then the widest gaps; each group by spread.
    const failing = (id: string) => {
      const statuses = outcomes.map((o) => o.report.checks.find((c) => c.id === id)?.status);
      return statuses.includes('fail') && !statuses.every((st) => st === 'fail');
    };
    const groups = comparison.differences.map((d) => failing(d.id));
    expect(groups).toEqual([...groups].sort((a, b) => Number(b) - Number(a)));
    for (const group of [true, false]) {
      const spreads = comparison.differences.filter((_, i) => groups[i] === group).map((d) => d.spread);
      expect(spreads).toEqual([...spreads].sort((a, b) => b - a));
    }
    // request is deprecated: the deprecation check comes first.
    expect(comparison.differences[0]!.id).toBe('deprecation');
  });
});

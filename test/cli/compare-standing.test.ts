/**
 * `nerq check --compare` with the built CLI against the fixture server, cold: the standing's
 * figures are those docs/scoring.md §13 defines, computed here from the members the report lists
 * (rank, percentile with ties as half, median and quartiles linear between closest ranks, the
 * sample's size); an alternative scores strictly higher (a peer scoring the same is not one) and
 * shares a keyword (a listing that shares none is skipped before evaluation); and the comparison
 * leaves the target's score history as a check without it would: one row per evaluation, the
 * next check's `previous` is this one.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { searchAnswer, serveSearch } from '../support/npm-search.js';
import { runCli } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from './audit-helpers.js';
import { parseReport, requireBuiltCli } from './helpers.js';

let server: FixtureServer;

const deps = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`nerq-standing-dep-${i}`, '^1.0.0']));
const TARGET = { name: 'nerq-standing-target', keywords: ['http', 'fetch'], dependencies: deps(8) };
const PEERS = [
  { name: 'nerq-standing-a', keywords: ['http'] },
  { name: 'nerq-standing-b', keywords: ['http', 'fetch'], dependencies: deps(20) },
  { name: 'nerq-standing-c', keywords: ['fetch'], deprecated: 'no longer maintained' },
  { name: 'nerq-standing-d', keywords: ['http'], license: 'GPL-3.0-only' },
  // Scores what the target scores (the same footprint): a member, never an alternative.
  { name: 'nerq-standing-e', keywords: ['http'], dependencies: deps(8) },
  // Shares no keyword: skipped before evaluation, whatever it would score.
  { name: 'nerq-standing-f', keywords: ['colors'] },
];

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  for (const pkg of [TARGET, ...PEERS]) serveSynthetic(server, { version: '2.0.0', ...pkg });
  for (let i = 0; i < 20; i++) serveSynthetic(server, { version: '1.0.0', name: `nerq-standing-dep-${i}` });
  serveOsv(server, []);
  serveSearch(server, searchAnswer(PEERS));
});

/** The quantile of docs/scoring.md §13: linear between closest ranks, one decimal. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return Math.round((sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low)) * 10) / 10;
}

it('the standing is computed from the members it lists, the alternatives score strictly higher, and the history is the target\'s own', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-standing-'));
  const dirs = { XDG_CONFIG_HOME: '.config', XDG_CACHE_HOME: '.cache', XDG_DATA_HOME: '.local/share', XDG_STATE_HOME: '.local/state' };
  const env = Object.fromEntries(Object.entries(dirs).map(([name, dir]) => [name, path.join(home, dir)]));
  for (const dir of Object.values(env)) mkdirSync(dir, { recursive: true });

  const result = await runCli(['check', TARGET.name, '--compare', '--json'], { server, env });
  expect(result.stderr).toBe('');
  const report = parseReport(result.stdout);
  const comparison = report.comparison!;
  expect(comparison).not.toBeNull();
  const members = comparison.members.map((m) => m.score);
  const score = report.score!;
  // Every candidate sharing a keyword was evaluated and scored; the one sharing none was skipped.
  expect(comparison.members.map((m) => m.target).sort()).toEqual(PEERS.slice(0, 5).map((p) => `${p.name}@2.0.0`));
  expect(comparison.sample).toMatchObject({ sources: ['npm-search'], query: 'keywords:http,fetch', candidates: 6, skipped: 1, excluded: 0 });
  expect(comparison.peers).toBe(members.length);
  expect(comparison.rank).toBe(1 + members.filter((s) => s > score).length);
  const below = members.filter((s) => s < score).length;
  const equal = members.filter((s) => s === score).length;
  expect(equal).toBeGreaterThan(0);
  expect(comparison.percentile).toBe(Math.round((100 * (below + equal / 2)) / members.length));
  const sorted = [...members].sort((a, b) => a - b);
  expect([comparison.p25, comparison.median, comparison.p75]).toEqual([quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75)]);
  // Alternatives: exactly the members scoring strictly higher (all YES here), best first.
  const higher = comparison.members.filter((m) => m.score > score);
  expect(higher.length).toBeGreaterThan(0);
  expect(report.alternatives?.map((a) => a.target)).toEqual(higher.map((m) => m.target));
  expect(report.alternatives?.every((a) => a.score > score && a.why.some((w) => w.code === 'shared-keywords'))).toBe(true);

  // The target's history: this evaluation, and the next check reads it as its previous one.
  const later = await runCli(['check', TARGET.name, '--json'], { server, env: { ...env, NERQ_NOW: '2026-12-01T00:00:00Z' } });
  expect(parseReport(later.stdout).previous).toMatchObject({ evaluatedAt: '2026-11-30T00:00:00.000Z', score });
  const history = JSON.parse((await runCli(['history', TARGET.name, '--json'], { server, env })).stdout) as { evaluations: { evaluatedAt: string; score: number }[] };
  expect(history.evaluations.map((e) => [e.evaluatedAt, e.score])).toEqual([
    ['2026-11-30T00:00:00.000Z', score],
    ['2026-12-01T00:00:00.000Z', score],
  ]);
}, 60_000);

/**
 * `nerq audit --compare` end to end (the built CLI against the fixture server): the failing
 * packages — and only they — get their standing among peers and their higher-scoring
 * alternatives, in the JSON (their embedded reports), the table ("instead: …") and Markdown; the
 * outcome and exit code do not change; without --compare nothing is searched.
 */
import { describe, expect, it } from 'vitest';
import { AuditReportSchema } from '../../src/audit/report-schema.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { searchAnswer, searchRequests, serveSearch } from '../support/npm-search.js';
import { runCli } from '../support/run-cli.js';
import { lockProject, parseAudit, useAuditServer, type SyntheticPackage } from './audit-helpers.js';
import { expectUsageError } from './helpers.js';

/** Two packages that fail (deprecated: capped at 49.9) and one that passes. */
const AUDITED: SyntheticPackage[] = [
  { name: 'nerq-cmp-old-http', version: '1.0.0', keywords: ['http'], deprecated: 'use something else' },
  { name: 'nerq-cmp-old-color', version: '1.0.0', keywords: ['color'], deprecated: 'unmaintained' },
  { name: 'nerq-cmp-fine', version: '1.0.0', keywords: ['format'] },
];
/** What npm's search finds: one healthy http library, one healthy colour library. */
const PEERS = [
  { name: 'nerq-cmp-peer-http', keywords: ['http', 'client'] },
  { name: 'nerq-cmp-peer-color', keywords: ['color'] },
];

let server: FixtureServer;
let project: string;

useAuditServer({ packages: [...AUDITED, ...PEERS.map((peer) => ({ version: '2.0.0', ...peer }))] }, (started, dirs) => {
  server = started;
  serveSearch(server, searchAnswer(PEERS));
  project = lockProject(dirs, AUDITED.map((p) => ({ ...p, direct: true })), server);
});

describe('nerq audit --compare', () => {
  it('JSON: each failing package carries its alternatives; the passing one is not compared; same outcome', async () => {
    const result = await runCli(['audit', project, '--compare', '--json'], { server });
    const report = parseAudit(result.stdout);
    expect(AuditReportSchema.safeParse(report).success).toBe(true);
    expect(result.code, result.stderr).toBe(1);
    const byName = Object.fromEntries(report.entries.map((e) => [e.subject.name, e]));
    expect(byName['nerq-cmp-old-http']?.policy.status).toBe('fail');
    expect(byName['nerq-cmp-old-http']?.report.alternatives?.map((a) => a.target)).toEqual(['nerq-cmp-peer-http@2.0.0']);
    expect(byName['nerq-cmp-old-color']?.report.alternatives?.map((a) => a.target)).toEqual(['nerq-cmp-peer-color@2.0.0']);
    // One peer is too few for a standing: null, the peer and the sample kept.
    expect(byName['nerq-cmp-old-http']?.report.comparison).toBeNull();
    expect(byName['nerq-cmp-old-http']?.report.comparisonUnavailable).toMatchObject({ code: 'no-peers', members: [{ target: 'nerq-cmp-peer-http@2.0.0' }], sample: { query: 'keywords:http' } });
    const fine = byName['nerq-cmp-fine']!;
    expect(fine.policy.status).toBe('pass');
    expect('comparison' in fine.report).toBe(false);
    expect('alternatives' in fine.report).toBe(false);
    expect(report.outcome).toMatchObject({ result: 'fail', exitCode: 1 });
    // One search per failing package, none for the passing one.
    expect(searchRequests(server).map((r) => r.text).sort()).toEqual(['keywords:color', 'keywords:http']);
  });

  it('table and Markdown say what to use instead under each failing package', async () => {
    const table = await runCli(['audit', project, '--compare', '--peers', '3'], { server });
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^\s+instead: nerq-cmp-peer-http@2\.0\.0 \d+\.\d [A-F][+]? YES$/m);
    expect(table.stdout).toMatch(/^\s+instead: nerq-cmp-peer-color@2\.0\.0 /m);
    const md = await runCli(['audit', project, '--compare', '--format', 'markdown'], { server });
    expect(md.stdout).toContain('- instead: `nerq-cmp-peer-http@2.0.0` ');
  });

  it('without --compare: no comparison and no search; --peers alone is a usage error', async () => {
    const before = searchRequests(server).length;
    const report = parseAudit((await runCli(['audit', project, '--json'], { server })).stdout);
    expect(report.entries.every((e) => !('comparison' in e.report) && !('alternatives' in e.report))).toBe(true);
    expect(searchRequests(server).length).toBe(before);
    expectUsageError(await runCli(['audit', project, '--peers', '3'], { server }));
  });
});

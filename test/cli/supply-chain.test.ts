/**
 * End to end: the built CLI against the fixture server with OSV answering. The
 * advisory records below are SYNTHETIC (ids in the reserved `GHSA-test-…` / `MAL-TEST-…`
 * ranges) in OSV's real schema; the real-record cases live in test/osv/.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer, type RouteHandler } from '../support/fixture-server.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { checkOf, expectPackage, parseReport, requireBuiltCli, sourceOf, type RouteOverrides } from './helpers.js';

interface Query {
  package: { name: string; ecosystem: string };
  version: string;
}

/** OSV querybatch answering `ids[name]` for each queried package (none for the rest). */
function osvAnswering(ids: Record<string, string[]>): RouteHandler {
  return (_req, res, { body }) => {
    const queries = (JSON.parse(body.toString('utf8')) as { queries: Query[] }).queries;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: queries.map((q) => {
          const found = ids[q.package.name] ?? [];
          return found.length === 0 ? {} : { vulns: found.map((id) => ({ id, modified: '2026-01-01T00:00:00Z' })) };
        }),
      }),
    );
  };
}

const CVSS_HIGH = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H'; // 7.5
const CVSS_CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'; // 9.8
const CVSS_MODERATE = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N'; // 4.2

function record(id: string, pkg: string, events: object[], extra: object = {}): object {
  return {
    id,
    modified: '2026-01-01T00:00:00Z',
    published: '2025-06-01T00:00:00Z',
    aliases: [],
    summary: `Synthetic advisory ${id} for ${pkg}`,
    affected: [{ package: { ecosystem: 'npm', name: pkg }, ranges: [{ type: 'SEMVER', events }] }],
    ...extra,
  };
}

const RECORDS: Record<string, object> = {
  'GHSA-test-high-0001': record('GHSA-test-high-0001', 'debug', [{ introduced: '4.0.0' }, { fixed: '4.3.1' }], {
    severity: [{ type: 'CVSS_V3', score: CVSS_HIGH }],
    aliases: ['CVE-2099-0001'],
  }),
  // The CVE twin of the GHSA above: one advisory, never counted twice.
  'CVE-2099-0001': record('CVE-2099-0001', 'debug', [{ introduced: '4.0.0' }, { fixed: '4.3.1' }], { aliases: ['GHSA-test-high-0001'] }),
  'GHSA-test-mod-0002': record('GHSA-test-mod-0002', 'debug', [{ introduced: '0' }, { fixed: '4.2.1' }], {
    severity: [{ type: 'CVSS_V3', score: CVSS_MODERATE }],
  }),
  'GHSA-test-gone-0003': record('GHSA-test-gone-0003', 'debug', [{ introduced: '0' }], {
    severity: [{ type: 'CVSS_V3', score: CVSS_CRITICAL }],
    withdrawn: '2026-02-01T00:00:00Z',
  }),
  'MAL-TEST-0004': record('MAL-TEST-0004', 'debug', [{ introduced: '0' }], { summary: 'Malicious code in debug (synthetic)' }),
  'GHSA-test-dep-0005': record('GHSA-test-dep-0005', 'ms', [{ introduced: '0' }, { fixed: '2.1.3' }], {
    severity: [{ type: 'CVSS_V3', score: CVSS_CRITICAL }],
  }),
};

const startServer = useFixtureServers();
beforeAll(() => requireBuiltCli());

/** `check debug --json` (debug@4.2.0, depending on ms) with OSV answering `ids`. */
const DEBUG_RECORDED = '2020-09-20T00:00:00Z';

async function checkDebug(ids: Record<string, string[]>, overrides: RouteOverrides = {}): Promise<CliResult & { server: FixtureServer }> {
  const server = await startServer();
  expectPackage(server, 'debug', { osv: osvAnswering(ids), ...overrides });
  for (const id of new Set(Object.values(ids).flat())) server.expect('GET', `/osv/v1/vulns/${id}`, { status: 200, body: JSON.stringify(RECORDS[id]) });
  // Judged the day after its packument was recorded, when debug was maintained: at the suite's
  // NERQ_NOW its last release is years old and holds the verdict on its own.
  return { ...(await runCli(['check', 'debug', '--json'], { server, env: { NERQ_NOW: DEBUG_RECORDED } })), server };
}

describe('known vulnerabilities', () => {
  it('a high advisory affecting the resolved version caps the score at 49.9 and names the fix', async () => {
    const { code, stdout } = await checkDebug({ debug: ['GHSA-test-high-0001', 'CVE-2099-0001'] });
    const report = parseReport(stdout);
    expect(code).toBe(1);
    expect(report.score).toBeLessThanOrEqual(49.9);
    expect(report.verdictCode).toBe('no');
    expect(report.caps.map((c) => c.id)).toContain('vulnerable-version');
    // An affecting high advisory fails the check; the cap is what keeps the package below 50.
    const check = checkOf(report, 'known-vulnerabilities');
    expect(check).toMatchObject({ score: 30, status: 'fail' });
    expect(check.message).toContain('4.3.1');
    // Twins merged: one advisory listing both ids.
    expect(report.advisories).toHaveLength(1);
    expect(report.advisories[0]).toMatchObject({ id: 'GHSA-test-high-0001', severity: 'high', cvss: 7.5, fixed: '4.3.1', package: 'debug', version: '4.2.0', affectsResolved: true, malicious: false });
    expect(report.advisories[0]!.aliases).toContain('CVE-2099-0001');
  });

  it('a moderate advisory lowers the check but does not cap; a withdrawn one is ignored', async () => {
    const { code, stdout } = await checkDebug({ debug: ['GHSA-test-mod-0002', 'GHSA-test-gone-0003'] });
    const report = parseReport(stdout);
    expect(code).toBe(0);
    expect(report.caps).toEqual([]);
    expect(report.advisories.map((a) => a.id)).toEqual(['GHSA-test-mod-0002']);
    const check = checkOf(report, 'known-vulnerabilities');
    expect(check.score).toBe(80);
    expect(check.message).toContain('4.2.1');
    // A vulnerable version is never YES, even below the cap's severities; the gate still passes.
    expect(report.score).toBeGreaterThanOrEqual(70);
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.check])).toEqual([['verdict-held', 'known-vulnerabilities']]);
  });

  it('no advisory: the check passes and the verdict can be YES', async () => {
    const { code, stdout } = await checkDebug({});
    const report = parseReport(stdout);
    expect(code).toBe(0);
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({ score: 100, status: 'pass' });
    expect(report.advisories).toEqual([]);
    expect(report.verdictCode).toBe('yes');
  });
});

describe('malicious packages', () => {
  it('a MAL- record makes the package NO — DO NOT USE, grade F, reason first', async () => {
    const { code, stdout } = await checkDebug({ debug: ['MAL-TEST-0004'] });
    const report = parseReport(stdout);
    expect(code).toBe(1);
    expect(report).toMatchObject({ verdictCode: 'do-not-use', verdict: 'NO — DO NOT USE', grade: 'F' });
    expect(report.score).toBeLessThanOrEqual(9.9);
    expect(report.caps[0]).toMatchObject({ id: 'malicious', limit: 9.9 });
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.cap])).toEqual([['do-not-use-cap', 'malicious']]);
    expect(report.advisories[0]).toMatchObject({ id: 'MAL-TEST-0004', malicious: true });
  });

  it('the table report puts the malicious record in the advisories', async () => {
    const server = await startServer();
    expectPackage(server, 'debug', { osv: osvAnswering({ debug: ['MAL-TEST-0004'] }) });
    server.expect('GET', '/osv/v1/vulns/MAL-TEST-0004', { status: 200, body: JSON.stringify(RECORDS['MAL-TEST-0004']) });
    const { stdout } = await runCli(['check', 'debug'], { server });
    expect(stdout).toMatch(/verdict NO — DO NOT USE/);
    expect(stdout).toMatch(/MAL-TEST-0004\s+MALICIOUS/);
  });
});

describe('vulnerable dependencies', () => {
  it("a dependency's critical advisory lowers that check, and does not cap the target", async () => {
    const { code, stdout } = await checkDebug({ ms: ['GHSA-test-dep-0005'] });
    const report = parseReport(stdout);
    expect(code).toBe(0);
    expect(report.caps).toEqual([]);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 20, status: 'fail' });
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({ score: 100 });
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-test-dep-0005', package: 'ms', severity: 'critical' })]);
  });
});

describe('OSV down is unknown, never "no vulnerabilities"', () => {
  it.each([
    ['503 on every try', { status: 503 }],
    ['a malformed body', { malformed: true }],
  ] as const)('%s → the vulnerability checks are unknown and the verdict stops at CAUTION', async (_name, fault) => {
    const server = await startServer();
    expectPackage(server, 'debug', { osv: fault });
    const { code, stdout } = await runCli(['check', 'debug', '--json'], { server });
    const report = parseReport(stdout);
    // Unchecked is not clean: the gate is not passed (exit 3) however high the score.
    expect(code).toBe(3);
    expect(report.gate.passed).toBeNull();
    expect(sourceOf(report, 'vulnerabilities')?.status).toBe('unavailable');
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({ score: null, status: 'unknown' });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, status: 'unknown' });
    expect(report.score).toBeGreaterThanOrEqual(70);
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.check])).toContainEqual(['danger-unchecked', 'known-vulnerabilities']);
  });
});

describe('release anomalies', () => {
  it.each([
    ['nerq-fixture-provenance-dropped', /provenance/i],
    ['nerq-fixture-postinstall', /postinstall/],
  ])('%s: one anomaly, named with the version it changed since', async (name, pattern) => {
    const server = await startServer();
    expectPackage(server, name);
    const { stdout } = await runCli(['check', name, '--json'], { server });
    const check = checkOf(parseReport(stdout), 'release-anomalies');
    expect(check.score).toBe(60);
    expect(check.message).toMatch(pattern);
    expect(check.message).toMatch(/1\.3\.\d/);
  });

  it('nerq-fixture-new-publisher with a brand-new dependency added (edited: the event-stream shape): two anomalies hold the verdict', async () => {
    const server = await startServer();
    const packument = JSON.parse(readFileSync(new URL('../../fixtures/http/npm/nerq-fixture-new-publisher.json', import.meta.url), 'utf8')) as { versions: Record<string, { dependencies: Record<string, string> }> };
    packument.versions['1.4.0']!.dependencies['flat-stream'] = '^0.1.0';
    // The added dependency: one version, its packument changed a day after 1.4.0 came out.
    server.expect('GET', '/npm/flat-stream', {
      headers: { 'content-type': 'application/vnd.npm.install-v1+json' },
      body: { name: 'flat-stream', modified: '2025-09-09T10:00:00.000Z', 'dist-tags': { latest: '0.1.1' }, versions: { '0.1.1': { name: 'flat-stream', version: '0.1.1', dist: { tarball: '{{REGISTRY}}/flat-stream/-/flat-stream-0.1.1.tgz' } } } },
    });
    expectPackage(server, 'nerq-fixture-new-publisher', { packument: { body: packument } });
    const { stdout } = await runCli(['check', 'nerq-fixture-new-publisher', '--json'], { server });
    const report = parseReport(stdout);
    expect(checkOf(report, 'release-anomalies')).toMatchObject({ score: 15, messageId: 'several' });
    expect(checkOf(report, 'release-anomalies').evidence).toMatchObject({ anomalies: ['new-publisher', 'newcomer-dependency'], newcomerDependencies: ['flat-stream'] });
    expect(report.verdictCode).not.toBe('yes');
  });

  it('nerq-fixture-new-publisher: a lone new publisher is scored once, by publisher-continuity, not again as an anomaly', async () => {
    const server = await startServer();
    expectPackage(server, 'nerq-fixture-new-publisher');
    const { stdout } = await runCli(['check', 'nerq-fixture-new-publisher', '--json'], { server });
    const report = parseReport(stdout);
    expect(checkOf(report, 'release-anomalies')).toMatchObject({ score: 100, messageId: 'publisher-only' });
    expect(checkOf(report, 'publisher-continuity')).toMatchObject({ messageId: 'changed' });
    expect(checkOf(report, 'publisher-continuity').score).toBeLessThan(100);
  });
});

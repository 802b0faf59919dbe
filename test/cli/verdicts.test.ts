/**
 * Verdicts that mean what they say (docs/scoring.md §6a), end to end: the
 * built CLI against the fixture server, on synthetic packages shaped for each rule and on a
 * real flagship judged at the date its packument was recorded.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers } from '../support/fixture-server.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { checkOf, expectPackage, parseReport, requireBuiltCli } from './helpers.js';

const startServer = useFixtureServers();
beforeAll(() => requireBuiltCli());

/** `check <name> --json` with every route the package asks for, at NERQ_NOW `now` (default the suite's). */
async function check(name: string, now?: string, args: string[] = []): Promise<CliResult & { report: ReturnType<typeof parseReport> }> {
  const server = await startServer();
  expectPackage(server, name);
  const result = await runCli(['check', name, '--json', ...args], { server, env: now === undefined ? {} : { NERQ_NOW: now } });
  return { ...result, report: parseReport(result.stdout) };
}

describe('findings', () => {
  it('a compromise-shaped release (new publisher, new postinstall, provenance dropped, 2 h old, latest) is NO and fails the default gate', async () => {
    const { code, report } = await check('nerq-fixture-compromise');
    expect(code).toBe(1);
    expect(report.verdictCode).toBe('no');
    expect(report.score).toBeLessThanOrEqual(49.9);
    expect(report.caps.map((c) => c.id)).toContain('release-anomalies');
    const anomalies = checkOf(report, 'release-anomalies');
    expect(anomalies.evidence).toMatchObject({ anomalies: ['provenance-dropped', 'new-publisher', 'install-script-added'], context: ['fresh-latest'], vetting: true });
    // The cap tells the user what to do: pin the previous version, or re-run once the release is vetted.
    const cap = report.caps.find((c) => c.id === 'release-anomalies');
    expect(cap?.args).toEqual({ version: report.target.version, previous: '1.3.0', anomalies: 'provenance-dropped,new-publisher,install-script-added', vettingDays: 7 });
    expect(report.gate.passed).toBe(false);
  });
});

describe('maintenance holds', () => {
  it('a README that opens by declaring the package deprecated holds the verdict at CAUTION', async () => {
    const { code, report } = await check('nerq-fixture-readme-deprecated');
    expect(code).toBe(0);
    expect(report.verdictCode).toBe('caution');
    expect(checkOf(report, 'deprecation')).toMatchObject({ messageId: 'readme-declared', score: 20 });
    expect(report.verdictReasonDetails).toContainEqual(expect.objectContaining({ code: 'verdict-held', args: expect.objectContaining({ check: 'deprecation' }) }));
  });

  it('a package that is not finished, with no release for more than two years, holds at CAUTION', async () => {
    const { report } = await check('nerq-fixture-stale');
    expect(report.verdictCode).toBe('caution');
    expect(checkOf(report, 'release-recency')).toMatchObject({ messageId: 'stale', score: 30 });
    expect(report.caps).toContainEqual(expect.objectContaining({ id: 'stale-release', dimension: 'maintenance', limit: 30 }));
    expect(report.dimensions.find((d) => d.id === 'maintenance')?.score).toBeLessThanOrEqual(30);
  });

  it('a finished package within the age limit is vouched for: YES', async () => {
    const { code, report } = await check('nerq-fixture-finished');
    expect(code).toBe(0);
    expect(checkOf(report, 'release-recency')).toMatchObject({ messageId: 'finished', score: 70 });
    expect(report.verdictCode).toBe('yes');
  });

  it('the same finished package past the age limit (1,096 days without a release) holds at CAUTION', async () => {
    const { report } = await check('nerq-fixture-finished', '2027-01-15T10:00:00Z');
    expect(checkOf(report, 'release-recency')).toMatchObject({ messageId: 'finished-past-limit' });
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails).toContainEqual(expect.objectContaining({ code: 'verdict-held', args: expect.objectContaining({ check: 'release-recency' }) }));
  });
});

describe('a flagship stays YES', () => {
  it('debug@4.2.0 judged the day after its packument was recorded (4 maintainers, 66 versions, a release in the last 180 days)', async () => {
    const { code, report } = await check('debug', '2020-09-20T00:00:00Z');
    expect(code).toBe(0);
    expect(report.verdictCode).toBe('yes');
    expect(report.verdictReasons).toEqual([]);
  });
});

describe('no YES without evidence', () => {
  it('a score that would be YES with less coverage than the gate needs is CAUTION, provisional, and exits 3', async () => {
    const { code, report } = await check('debug', '2020-09-20T00:00:00Z', ['--min-coverage', '0.99']);
    expect(report.coverage).toBeLessThan(0.99);
    expect(report.score).toBeGreaterThanOrEqual(70);
    expect(report.provisional).toBe(true);
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.map((r) => r.code)).toEqual(['provisional']);
    expect(report.gate.reasonDetails.map((r) => r.code)).toContain('low-coverage');
    expect(code).toBe(3);
  });

  it('the terminal headline says the score is provisional', async () => {
    const server = await startServer();
    expectPackage(server, 'debug');
    const result = await runCli(['check', 'debug', '--min-coverage', '0.99'], { server, env: { NERQ_NOW: '2020-09-20T00:00:00Z' } });
    expect(result.stdout.split('\n')[0]).toMatch(/score \d+\.\d \(provisional\)/);
    expect(result.code).toBe(3);
  });
});

/**
 * Several targets (docs/scoring.md §10): `--json` prints NDJSON, one compact schema-valid report
 * per line in argument order; `--format markdown` prints a summary table first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { ANSI, expectPackage, packumentPath, requireBuiltCli, schemaViolations } from './helpers.js';

let server: FixtureServer;

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  for (const name of ['chalk', 'express', 'debug']) expectPackage(server, name);
  server.expect('GET', packumentPath('does-not-exist'), { status: 404 });
});

/** Split NDJSON into lines, checking each is one compact, schema-valid report. */
function ndjsonLines(stdout: string): Record<string, unknown>[] {
  expect(stdout.endsWith('\n')).toBe(true);
  const lines = stdout.slice(0, -1).split('\n');
  return lines.map((line) => {
    const json = JSON.parse(line) as Record<string, unknown>;
    expect(line, 'compact: serialised without indentation').toBe(JSON.stringify(json));
    expect(() => ReportSchema.parse(json)).not.toThrow();
    expect(schemaViolations(json)).toEqual([]);
    return json;
  });
}

const nameOf = (json: Record<string, unknown>): unknown => (json.target as { name: unknown }).name;

describe('--json with several targets prints NDJSON', () => {
  it('check chalk express --json: exactly two lines, in argument order', async () => {
    const result = await runCli(['check', 'chalk', 'express', '--json'], { server });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = ndjsonLines(result.stdout);
    expect(lines).toHaveLength(2);
    expect(lines.map(nameOf)).toEqual(['chalk', 'express']);
  });

  it('argument order, not completion order: express debug chalk', async () => {
    const result = await runCli(['check', 'express', 'debug', 'chalk', '--json'], { server });
    expect(result.code).toBe(0);
    expect(ndjsonLines(result.stdout).map(nameOf)).toEqual(['express', 'debug', 'chalk']);
  });

  it('a target that could not be evaluated is still one line, with its error', async () => {
    const result = await runCli(['check', 'does-not-exist', 'chalk', '--json'], { server });
    expect(result.code).toBe(3);
    const lines = ndjsonLines(result.stdout);
    expect(lines.map(nameOf)).toEqual(['does-not-exist', 'chalk']);
    expect(lines[0]?.error).toMatchObject({ code: 'not-found' });
    expect(lines[1]?.error).toBeNull();
  });

  it('the same target twice gives two identical lines', async () => {
    const result = await runCli(['check', 'chalk', 'chalk', '--json'], { server });
    expect(result.code).toBe(0);
    const [first, second, ...rest] = result.stdout.split('\n');
    expect(rest).toEqual(['']);
    expect(first).toBe(second);
  });
});

describe('--format markdown with several targets', () => {
  it('prints a summary table with one row per target, then each report', async () => {
    const result = await runCli(['check', 'chalk', 'express', '--format', 'markdown'], { server });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^#+ .*2 targets/);
    const header = lines.findIndex((l) => /^\| Target \| Score \| Grade \| Verdict \| Coverage \| Outcome \|$/.test(l));
    expect(header, result.stdout).toBeGreaterThan(0);
    expect(lines[header + 1]).toMatch(/^\|( *:?-+:? *\|)+$/);
    // Coverage below 100%: GitHub's rate limit is spent in these tests, its checks are unknown.
    expect(lines[header + 2]).toMatch(/^\| `chalk@4\.1\.0` \| 74\.1 \| B \| .*CAUTION \| 73% \| ✅ PASS \|$/);
    expect(lines[header + 3]).toMatch(/^\| `express@4\.17\.1` \| 80\.3 \| A \| .*CAUTION \| 72% \| ✅ PASS \|$/);
    // Then each target's full report, in argument order.
    const chalkAt = result.stdout.indexOf('nerq · `chalk@4.1.0`');
    const expressAt = result.stdout.indexOf('nerq · `express@4.17.1`');
    expect(chalkAt).toBeGreaterThan(0);
    expect(expressAt).toBeGreaterThan(chalkAt);
  });
});

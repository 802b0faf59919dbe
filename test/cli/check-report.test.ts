/**
 * `nerq check` as a process against the fixture server: the terminal report, the JSON
 * report (zod contract and the shipped JSON schema), and the recorded score, grade, verdict
 * and coverage of every fixture package under NERQ_NOW=2026-11-30.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_VERSION, type Report } from '../../src/report/schema.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import {
  ANSI,
  DIMENSION_IDS,
  PACKAGES,
  REPORT_JSON_SCHEMA,
  checkOf,
  expectPackage,
  parseReport,
  requireBuiltCli,
  schemaViolations,
  sourceOf,
  statusForScore,
} from './helpers.js';

let server: FixtureServer;

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  for (const pkg of PACKAGES) expectPackage(server, pkg.name);
});

const hasOneDecimal = (n: number): boolean => Math.round(n * 10) / 10 === n;

/** The package name of a target typed as `name` or `name@version` (scoped names too). */
const nameOf = (target: string): string => target.replace(/(?<=.)@[^@/]*$/, '');

describe('nerq check chalk (terminal report)', () => {
  it("is the README's sample report: each of its parts (cut at a line `…`) printed as it stands, in order", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Sample report'));
    const sample = /```text\n([\s\S]*?)```/.exec(section)![1]!;
    const parts = sample.split('\n…\n');
    expect(parts.length).toBeGreaterThan(1);
    const { stdout } = await runCli(['check', 'chalk'], { server });
    expect(stdout.startsWith(parts[0]!), parts[0]).toBe(true);
    expect(stdout.endsWith(parts.at(-1)!), parts.at(-1)).toBe(true);
    let from = 0;
    for (const part of parts) {
      const at = stdout.indexOf(part, from);
      expect(at, part).toBeGreaterThanOrEqual(from);
      from = at + part.length;
    }
  });

  it('prints the header, all five dimensions, the checks, and only GitHub (rate limit spent) as unavailable', async () => {
    const result = await runCli(['check', 'chalk'], { server });
    // The gate passes (74.1 ≥ 50, coverage 73% ≥ 50%, no overall cap): exit 0, nothing on stderr.
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(ANSI);

    // The first line states the outcome the exit code has, then the verdict, score and grade.
    const header = /^chalk@4\.1\.0\s+(PASS|FAIL|INCOMPLETE)\s+verdict (.+?)\s+score (\d+\.\d)\/100\s+grade (A\+|A|B|C|D|E|F)$/m.exec(result.stdout);
    expect(header, result.stdout).not.toBeNull();
    expect(header?.[1]).toBe('PASS');
    expect(header?.[3]).toBe('74.1');
    expect(header?.[4]).toBe('B');
    // OSV answered with no advisory and GitHub's checks are unknown, not dangerous; what holds the
    // verdict is the fixture's age at NERQ_NOW: 4.1.0 (2020-06-09) is its last stable release.
    expect(header?.[2]).toBe('CAUTION');
    expect(result.stdout).toMatch(/[Mm]aintenance capped at 10: no stable release for 2,364 days/);

    for (const title of ['Security', 'Maintenance', 'Documentation', 'Compliance', 'Community']) {
      expect(result.stdout).toMatch(new RegExp(`^│ ${title}\\s+│.*│\\s+\\d+\\.\\d │\\s+0\\.\\d\\d │\\s+\\d+% │$`, 'm'));
    }
    expect(result.stdout).toMatch(/✔ 100\.0 {2}Known vulnerabilities/);
    // The unavailable source once, with the checks it left unknown; each of those on one line.
    expect(result.stdout).toMatch(/Not checked\n\s+GitHub unavailable: GitHub API rate limit reached \(resets at 11:00 UTC\); set\s+GITHUB_TOKEN to raise the limit\n\s+\d+ checks unknown: /);
    expect(result.stdout.match(/rate limit reached/g)).toHaveLength(1);
    expect(result.stdout).toMatch(/^ {2}\? {5}— {2}Security policy \(GitHub unavailable\)$/m);
    expect(result.stdout).toMatch(/^Gate\s+PASS\b/m);
  });
});

describe('nerq check express --json', () => {
  let report: Report;
  let json: Record<string, unknown>;

  beforeAll(async () => {
    const result = await runCli(['check', 'express', '--json'], { server });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    // One target: one pretty-printed object.
    expect(result.stdout.startsWith('{\n')).toBe(true);
    json = JSON.parse(result.stdout) as Record<string, unknown>;
    report = parseReport(result.stdout);
  });

  it('validates against the shipped JSON schema, every required key present', () => {
    expect(schemaViolations(json)).toEqual([]);
    const required = REPORT_JSON_SCHEMA.required as string[];
    expect(required).toEqual(
      expect.arrayContaining(['schemaVersion', 'target', 'score', 'grade', 'verdict', 'verdictCode', 'coverage', 'dimensions', 'checks', 'caps', 'sources', 'advisories', 'gate', 'error']),
    );
    for (const key of required) expect(json).toHaveProperty([key]);
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
  });

  it('names the target with its purl', () => {
    expect(report.target).toMatchObject({ input: 'express', ecosystem: 'npm', name: 'express', version: '4.17.1', purl: 'pkg:npm/express@4.17.1' });
    expect(report.error).toBeNull();
  });

  it('has a one-decimal score, a grade, a verdict and coverage in 0–1', () => {
    expect(typeof report.score).toBe('number');
    expect(hasOneDecimal(report.score as number)).toBe(true);
    expect(report.grade).not.toBeNull();
    // express 4.17.1's last stable release (2019-05) is years old at NERQ_NOW: held at CAUTION.
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.map((r) => [r.code, r.args.check ?? r.args.cap])).toContainEqual(['verdict-held', 'release-recency']);
    expect(report.coverage).toBeGreaterThan(0);
    expect(report.coverage).toBeLessThanOrEqual(1);
  });

  it('lists all five dimensions, each with coverage in 0–1', () => {
    expect(report.dimensions.map((d) => d.id).sort()).toEqual([...DIMENSION_IDS].sort());
    for (const dimension of report.dimensions) {
      expect(dimension.coverage).toBeGreaterThanOrEqual(0);
      expect(dimension.coverage).toBeLessThanOrEqual(1);
    }
  });

  it('gives every check the status its score implies (≥70 pass, ≥40 warn, <40 fail, null unknown)', () => {
    expect(report.checks.length).toBeGreaterThanOrEqual(14);
    for (const check of report.checks) {
      expect({ id: check.id, status: check.status }).toEqual({ id: check.id, status: statusForScore(check.score) });
      expect(DIMENSION_IDS).toContain(check.dimension);
    }
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({ score: 100, status: 'pass' });
    expect(sourceOf(report, 'vulnerabilities')).toEqual({ id: 'vulnerabilities', status: 'ok', reason: null });
    // express@4.17.1 has 30 direct dependencies, all resolved and queried in the same OSV batch.
    expect(checkOf(report, 'vulnerable-dependencies').evidence).toMatchObject({ dependenciesQueried: 30 });
  });
});

interface Expected {
  /** What is typed after `nerq check`. */
  target: string;
  version: string;
  score: number;
  grade: string;
  verdict: string;
  coverage: number;
  category: string;
  exit: number;
}

/**
 * The fixture packages' reports under NERQ_NOW=2026-11-30. Packages without recorded
 * download counts get a 404 from the stats API (weekly downloads unknown). Every version of
 * `request` is deprecated, so a bare `request` resolves, as npm picks, to its latest 2.88.2.
 * chalk, express and debug were recorded in 2020: at NERQ_NOW their last stable release is
 * years old, which holds the verdict at CAUTION and caps maintenance (docs/scoring.md); judged
 * at their recording date they are YES (test/cli/verdicts.test.ts). The packuments recorded from
 * a mirror are trimmed: their provenance is unknown (mirrors leave `dist.attestations` out), not
 * missing, and those whose times run against version order (request, crossenv, bufferutil,
 * @types/semver, jsonify, json-schema: the mirror's fetch dates) have release dates unknown,
 * which holds the verdict at CAUTION (docs/scoring.md §12). nerq-fixture-bare names no repository:
 * its repository checks are unknown (docs/scoring.md §1) and count against its coverage.
 */
const EXPECTED: Expected[] = [
  { target: 'chalk', version: '4.1.0', score: 74.1, grade: 'B', verdict: 'CAUTION', coverage: 0.731, category: 'library', exit: 0 },
  { target: 'express', version: '4.17.1', score: 80.3, grade: 'A', verdict: 'CAUTION', coverage: 0.721, category: 'web-framework', exit: 0 },
  { target: 'debug', version: '4.2.0', score: 74.3, grade: 'B', verdict: 'CAUTION', coverage: 0.686, category: 'library', exit: 0 },
  { target: 'request', version: '2.88.2', score: 49.9, grade: 'D', verdict: 'NO — USE WITH CAUTION', coverage: 0.601, category: 'library', exit: 1 },
  { target: 'crossenv', version: '0.0.2-security', score: 9.9, grade: 'F', verdict: 'NO — DO NOT USE', coverage: 0.531, category: 'library', exit: 1 },
  { target: 'esbuild', version: '0.28.2', score: 81, grade: 'A', verdict: 'YES', coverage: 0.616, category: 'cli', exit: 0 },
  { target: 'bufferutil', version: '4.1.0', score: 95.4, grade: 'A+', verdict: 'CAUTION', coverage: 0.531, category: 'library', exit: 0 },
  { target: '@types/semver', version: '7.8.0', score: 94.1, grade: 'A+', verdict: 'CAUTION', coverage: 0.576, category: 'library', exit: 0 },
  { target: 'jsonify', version: '0.0.1', score: 75.2, grade: 'B', verdict: 'CAUTION', coverage: 0.531, category: 'library', exit: 0 },
  { target: 'json-schema', version: '0.4.0', score: 83, grade: 'A', verdict: 'CAUTION', coverage: 0.531, category: 'library', exit: 0 },
  { target: 'nerq-fixture-bare', version: '1.0.0', score: 60.9, grade: 'C', verdict: 'CAUTION', coverage: 0.688, category: 'library', exit: 0 },
];

describe('the fixture packages under NERQ_NOW=2026-11-30', () => {
  const seen: Expected[] = [];

  afterAll(() => {
    if (seen.length === 0) return;
    const rows = seen.map((e) => [`${nameOf(e.target)}@${e.version}`, e.score.toFixed(1), e.grade, e.verdict, e.coverage.toFixed(3), e.category, String(e.exit)]);
    const head = ['package', 'score', 'grade', 'verdict', 'coverage', 'category', 'exit'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
    console.log(['fixture package scores (NERQ_NOW=2026-11-30)', line(head), ...rows.map(line)].join('\n'));
  });

  it('covers all 11 fixture packages', () => {
    expect(EXPECTED.map((e) => nameOf(e.target))).toEqual(PACKAGES.map((p) => p.name));
  });

  it.each(EXPECTED)('check $target --json → $score $grade $verdict, exit $exit', async (expected) => {
    const result = await runCli(['check', expected.target, '--json'], { server });
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    const actual: Expected = {
      target: expected.target,
      version: report.target.version ?? '',
      score: report.score ?? Number.NaN,
      grade: report.grade ?? '',
      verdict: report.verdict,
      coverage: report.coverage,
      category: report.category?.id ?? '',
      exit: result.code,
    };
    expect(actual).toEqual(expected);
    expect(result.stderr).toBe('');
    seen.push(actual);
  });
});

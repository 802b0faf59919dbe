/**
 * Exit codes of the built CLI (README.md, "Exit codes"): 0 passed · 1 failed the gate · 2 usage error or
 * invalid input (one `nerq:` line on stderr, no stack, nothing on stdout) · 3 could not be
 * evaluated; precedence 2, then 1, then 3.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { expectPackage, expectUsageError, packumentPath, parseNdjson, parseReport, requireBuiltCli } from './helpers.js';

let server: FixtureServer;
let tmp: string;

beforeAll(() => {
  requireBuiltCli();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nerq-exit-'));
});
useSharedFixtureServer((started) => {
  server = started;
  for (const name of ['chalk', 'express', 'crossenv', 'debug']) expectPackage(server, name);
  // request: its packument, the deprecated 2.88.2's tarball and its download counts.
  expectPackage(server, 'request');
  server.expect('GET', packumentPath('does-not-exist'), { status: 404 });
  server.expect('GET', packumentPath('Does-Not-Exist'), { status: 404 });
});

afterAll(async () => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('exit 0: every target passed', () => {
  it('check chalk', async () => {
    const result = await runCli(['check', 'chalk', '--json'], { server });
    expect(result.code).toBe(0);
    expect(parseReport(result.stdout).gate).toMatchObject({ passed: true, reasons: [] });
  });
});

describe('exit 1: a target failed the gate', () => {
  it('--min-score 95 on a package scoring below it', async () => {
    const result = await runCli(['check', 'chalk', '--min-score', '95', '--json'], { server });
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.score).toBeLessThan(95);
    expect(report.gate).toMatchObject({ threshold: 95, passed: false });
    expect(report.gate.reasonDetails.map((r) => [r.code, r.args.threshold])).toContainEqual(['below-minimum', 95]);
  });

  it('the deprecated request@2.88.2 is capped at 49.9 and fails', async () => {
    const result = await runCli(['check', 'request@2.88.2', '--json'], { server });
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.score).toBe(49.9);
    expect(report.caps.map((c) => [c.id, c.limit])).toEqual([['deprecated', 49.9]]);
    expect(report.gate.passed).toBe(false);
  });

  it('the security-holding placeholder crossenv is NO — DO NOT USE, grade F, at most 9.9', async () => {
    const result = await runCli(['check', 'crossenv', '--json'], { server });
    expect(result.code).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.verdict).toBe('NO — DO NOT USE');
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.grade).toBe('F');
    expect(report.score).not.toBeNull();
    expect(report.score as number).toBeLessThanOrEqual(9.9);
    expect(report.caps.some((c) => c.limit === 9.9)).toBe(true);
  });
});

describe('exit 2: usage errors and invalid input, one line, no stack, nothing on stdout', () => {
  const evidenceFile = (name: string, content: string): string => {
    const file = path.join(tmp, name);
    writeFileSync(file, content);
    return file;
  };

  const cases: { name: string; args: () => string[]; env?: Record<string, string>; stderr: RegExp }[] = [
    { name: 'a bad target', args: () => ['check', '../x'], stderr: /\.\.\/x|invalid|path/i },
    { name: 'an unknown flag', args: () => ['check', 'chalk', '--frobnicate'], stderr: /--frobnicate/ },
    { name: 'a missing argument', args: () => ['check'], stderr: /target/ },
    { name: 'a missing command', args: () => ['frobnicate'], stderr: /frobnicate/ },
    { name: '--min-score abc', args: () => ['check', 'chalk', '--min-score', 'abc'], stderr: /--min-score/ },
    { name: '--min-score 120', args: () => ['check', 'chalk', '--min-score', '120'], stderr: /--min-score/ },
    { name: '--min-coverage 2', args: () => ['check', 'chalk', '--min-coverage', '2'], stderr: /--min-coverage/ },
    { name: '--format xml', args: () => ['check', 'chalk', '--format', 'xml'], stderr: /--format/ },
    { name: '--category nope', args: () => ['check', 'chalk', '--category', 'nope'], stderr: /--category/ },
    { name: '--timeout 0', args: () => ['check', 'chalk', '--timeout', '0'], stderr: /--timeout/ },
    { name: 'NERQ_NOW=garbage', args: () => ['check', 'chalk'], env: { NERQ_NOW: 'garbage' }, stderr: /NERQ_NOW/ },
    // JavaScript's parser would roll a day the month lacks over, skip trailing words, and read a
    // time without a zone in the machine's local time: none of them is the instant written.
    { name: 'NERQ_NOW=2026-02-29 (no such day)', args: () => ['check', 'chalk'], env: { NERQ_NOW: '2026-02-29' }, stderr: /NERQ_NOW/ },
    { name: 'NERQ_NOW=2026-01-01 (any words)', args: () => ['check', 'chalk'], env: { NERQ_NOW: '2026-01-01 (any words)' }, stderr: /NERQ_NOW/ },
    { name: 'NERQ_NOW with a time but no zone', args: () => ['check', 'chalk'], env: { NERQ_NOW: '2026-01-01T10:00:00' }, stderr: /NERQ_NOW/ },
    { name: 'score of a missing file', args: () => ['score', path.join(tmp, 'missing.json')], stderr: /cannot read .*: no such file\n$/ },
    { name: 'score of a directory', args: () => ['score', tmp], stderr: /cannot read .*: a directory\n$/ },
    { name: 'score of an empty array', args: () => ['score', evidenceFile('empty.json', '[]')], stderr: /holds no evidence \(an empty array\)\n$/ },
    { name: 'score of {}', args: () => ['score', evidenceFile('object.json', '{}')], stderr: /not a nerq evidence file at evidenceVersion: missing\n$/ },
    { name: '--json with --format markdown', args: () => ['check', 'chalk', '--json', '--format', 'markdown'], stderr: /^nerq: --json and --format markdown disagree: give one of them\n$/ },
    { name: 'audit of a missing directory names it', args: () => ['audit', path.join(tmp, 'no-such-dir')], stderr: /no-such-dir: cannot list the directory: no such file\n$/ },
    {
      name: 'score of evidence saved by another nerq names both versions and what to do',
      args: () => ['score', evidenceFile('old.json', JSON.stringify({ evidenceVersion: 1, target: { name: 'chalk' } }))],
      stderr: /not a nerq evidence file at evidenceVersion: version 1, saved by another nerq; this one reads version \d+ — check the target again with --save-evidence\n$/,
    },
    { name: 'score of invalid JSON', args: () => ['score', evidenceFile('invalid.json', '{"evidenceVersion": 1,')], stderr: /not valid JSON/ },
    {
      name: 'score of JSON that is not evidence',
      args: () => ['score', evidenceFile('not-evidence.json', JSON.stringify({ name: 'chalk', score: 99 }))],
      stderr: /not a nerq evidence file/,
    },
    { name: 'score with a bad --format', args: () => ['score', path.join(tmp, 'missing.json'), '--format', 'xml'], stderr: /--format/ },
  ];

  it.each(cases)('$name', async ({ args, env, stderr }) => {
    const before = server.requests.length;
    const result = await runCli(args(), { server, ...(env === undefined ? {} : { env }) });
    expectUsageError(result);
    expect(result.stderr).toMatch(stderr);
    expect(server.requests.length, 'a usage error sends no request').toBe(before);
  });
});

describe('exit 3: a target could not be evaluated and none failed', () => {
  it('a package the registry does not know (404) is not found', async () => {
    const result = await runCli(['check', 'does-not-exist', '--json'], { server });
    expect(result.code).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.error?.code).toBe('not-found');
    expect(report.error?.message).toMatch(/does-not-exist was not found/);
    expect(report).toMatchObject({ score: null, grade: null, verdictCode: 'unknown', gate: { passed: null } });
  });

  it('a name in capitals that is not found hints that npm names are lower case', async () => {
    const result = await runCli(['check', 'Does-Not-Exist', '--json'], { server });
    expect(result.code).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.error?.code).toBe('not-found');
    expect(report.error?.message).toMatch(/\(npm package names are lower case: try does-not-exist\)$/);
    // A lower-case name that is not found gets no hint.
    const lower = parseReport((await runCli(['check', 'does-not-exist', '--json'], { server })).stdout);
    expect(lower.error?.message).not.toContain('lower case');
  });

  it('a version that does not exist names the nearest versions', async () => {
    const result = await runCli(['check', 'express@99.0.0'], { server });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/99\.0\.0/);
    expect(result.stdout).toMatch(/nearest:\s+4\.17\.1/);

    const json = await runCli(['check', 'express@99.0.0', '--json'], { server });
    expect(json.code).toBe(3);
    const report = parseReport(json.stdout);
    expect(report.error?.code).toBe('version-not-found');
    expect(report.error?.message).toContain('4.17.1');
  });

  it('a PyPI project PyPI does not know (404) is not found, exit 3', async () => {
    server.expect('GET', '/pypi/pypi/no-such-project/json', { status: 404, body: { message: 'Not Found' } });
    const result = await runCli(['check', 'pypi:No_Such.Project', '--json'], { server });
    expect(result.code).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.target).toMatchObject({ ecosystem: 'pypi', name: 'no-such-project' });
    expect(report.error?.code).toBe('not-found');
  });

  it('a GitHub repository that does not exist (404) is not found, exit 3', async () => {
    server.expect('GET', '/github/repos/nerq-fixture/no-such-repo', { status: 404, body: { message: 'Not Found' } });
    const result = await runCli(['check', 'github:nerq-fixture/no-such-repo', '--json'], { server });
    expect(result.code).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.target.ecosystem).toBe('github');
    expect(report.error).toMatchObject({ code: 'not-found', message: 'nerq-fixture/no-such-repo was not found on GitHub' });
  });

  it('coverage below --min-coverage 0.99 with no failure', async () => {
    // debug has no recorded download counts: coverage 0.91.
    const result = await runCli(['check', 'debug', '--min-coverage', '0.99', '--json'], { server });
    expect(result.code).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.coverage).toBeLessThan(0.99);
    // No cap on the score; debug's last release is years old at NERQ_NOW, which caps maintenance only.
    expect(report.caps.map((c) => [c.id, c.dimension])).toEqual([['stale-release', 'maintenance']]);
    expect(report.gate).toMatchObject({ minCoverage: 0.99, passed: null });
    expect(report.gate.reasonDetails.map((r) => [r.code, r.args.minCoverage])).toEqual([['low-coverage', 0.99]]);
  });
});

describe('precedence: 2, then 1, then 3', () => {
  it('a failed target wins over one not found: request@2.88.2 does-not-exist → 1', async () => {
    const result = await runCli(['check', 'request@2.88.2', 'does-not-exist', '--json'], { server });
    expect(result.code).toBe(1);
    expect(parseNdjson(result.stdout).map((r) => r.gate.passed)).toEqual([false, null]);
  });

  it('a target not found wins over a passing one: does-not-exist chalk → 3', async () => {
    const result = await runCli(['check', 'does-not-exist', 'chalk', '--json'], { server });
    expect(result.code).toBe(3);
    expect(parseNdjson(result.stdout).map((r) => r.gate.passed)).toEqual([null, true]);
  });

  it('a usage error wins over everything: crossenv ../x → 2', async () => {
    const result = await runCli(['check', 'crossenv', '../x'], { server });
    expectUsageError(result);
  });
});

/**
 * A missing guarding source is an outcome (README.md, "Exit codes"): with OSV unreachable, no
 * package is known to be free of vulnerabilities or malicious code, so an audit is INCOMPLETE in
 * every format — the summary line, JSON `outcome` and `warnings` with codes, SARIF
 * `toolExecutionNotifications`, Markdown, and exit 3 — unless `--allow-incomplete` accepts it;
 * the unreachable host is asked once and said once. `nerq check` agrees (gate not passed, exit 3).
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { lockProject, parseAudit, useAuditServer, type SyntheticPackage } from './audit-helpers.js';
import { ReportSchema } from '../../src/report/schema.js';

const PACKAGES: SyntheticPackage[] = [
  { name: 'nerq-audit-first', version: '1.0.0' },
  { name: 'nerq-audit-second', version: '2.1.0' },
  { name: '@nerq-audit/scoped', version: '3.0.1' },
];
/** OSV's host does not resolve (`.invalid` never does). */
const OSV_DOWN = { NERQ_OSV_API_URL: 'http://nerq-osv-down.invalid' };

let server: FixtureServer;
let project: string;

useAuditServer({ packages: PACKAGES }, (started, dirs) => {
  server = started;
  project = lockProject(dirs, PACKAGES.map((p) => ({ ...p, direct: true })), server);
});

describe('an audit while OSV is unreachable', () => {
  it('JSON: every package incomplete, outcome incomplete with exit 3, the source said once with its checks', async () => {
    const result = await runCli(['audit', project, '--json'], { server, env: OSV_DOWN });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    expect(report.entries.map((e) => e.policy.status)).toEqual(['incomplete', 'incomplete', 'incomplete']);
    expect(report.entries[0]?.policy.failures.map((f) => [f.rule, f.checks])).toEqual([['not-checked', ['malicious-package', 'known-vulnerabilities']]]);
    expect(report.summary).toMatchObject({ total: 3, passed: 0, incomplete: 3, failed: 0, errors: 0 });
    expect(report.outcome).toEqual({ result: 'incomplete', exitCode: 3, allowIncomplete: false });
    // One warning for the source (not one per package), naming the host once, and the checks it blinded.
    const sources = report.warnings.filter((w) => w.code === 'source-unavailable');
    expect(sources.map((w) => [w.details.source, w.details.packages, w.details.host])).toEqual([['vulnerabilities', 3, 'nerq-osv-down.invalid']]);
    expect(sources[0]?.details.checks).toEqual(['Not known malicious', 'Known vulnerabilities']);
    expect(sources[0]?.message).toContain('not asked again');
    // It was merged with the unreachable host: no second warning says the same.
    expect(report.warnings.filter((w) => w.code === 'service-unreachable')).toEqual([]);
  });

  it('the table: the first and the last line state INCOMPLETE; the warning is printed once', async () => {
    const result = await runCli(['audit', project], { server, env: OSV_DOWN });
    expect(result.code).toBe(3);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^nerq audit · INCOMPLETE · 3 packages/);
    expect(result.stdout).toMatch(/\nINCOMPLETE: 3 of 3 packages not checked for malicious code and vulnerabilities\n/);
    expect(result.stdout).toContain('--allow-incomplete');
    expect(result.stdout.split('nerq-osv-down.invalid').length - 1).toBe(1);
    expect(result.stdout).not.toContain('PASS:');
  });

  it('--allow-incomplete: exit 0, and the report still says what was not checked', async () => {
    const result = await runCli(['audit', project, '--allow-incomplete', '--json'], { server, env: OSV_DOWN });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(report.summary.incomplete).toBe(3);
    const table = await runCli(['audit', project, '--allow-incomplete'], { server, env: OSV_DOWN });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\nPASS: 3 of 3 packages not checked for malicious code and vulnerabilities\n {2}exit 0: 3 unchecked packages accepted by --allow-incomplete\n/);
    // The flag changes the exit code only: the unchecked grades are still provisional.
    expect(report.entries.every((e) => e.report.gate.reasonDetails.some((r) => r.code === 'allowed-incomplete'))).toBe(true);
    expect(table.stdout).toMatch(/\nGrades: (?:[A-F]\+? provisional \d+(?: · )?)+\n/);
  });

  it('SARIF: a warning per package and the incomplete result as a tool execution notification, with the exit code', async () => {
    const result = await runCli(['audit', project, '--format', 'sarif'], { server, env: OSV_DOWN });
    expect(result.code).toBe(3);
    const log = JSON.parse(result.stdout) as {
      runs: {
        invocations: { executionSuccessful: boolean; exitCode: number; toolExecutionNotifications: { level: string; descriptor: { id: string }; message: { text: string } }[] }[];
        results: { ruleId: string; level: string }[];
      }[];
    };
    const run = log.runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.level])).toEqual(Array.from({ length: 3 }, () => ['policy/not-checked', 'warning']));
    const invocation = run.invocations[0]!;
    expect(invocation.exitCode).toBe(3);
    expect(invocation.toolExecutionNotifications.map((n) => [n.descriptor.id, n.level])).toEqual([
      ['audit-incomplete', 'error'],
      ['source-unavailable', 'warning'],
    ]);
  });

  it('Markdown: the heading says INCOMPLETE, nothing is counted as passing', async () => {
    const result = await runCli(['audit', project, '--format', 'markdown'], { server, env: OSV_DOWN });
    expect(result.code).toBe(3);
    expect(result.stdout.split('\n')[0]).toBe('## nerq audit: ⚠️ INCOMPLETE');
    expect(result.stdout).not.toMatch(/passing package/);
    expect(result.stdout).toContain('not checked');
  });

  it('GitHub Actions annotations: one for the run, not one per package', async () => {
    const result = await runCli(['audit', project, '--format', 'json'], { server, env: { ...OSV_DOWN, GITHUB_ACTIONS: 'true' } });
    const annotations = result.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations.map((l) => l.slice(0, l.indexOf(' ')))).toEqual(['::error', '::warning']);
    expect(annotations[0]).toContain('INCOMPLETE');
  });
});

describe('nerq check while OSV is unreachable', () => {
  it('the gate is not passed and the exit code is 3; --allow-incomplete passes it and says so', async () => {
    const result = await runCli(['check', PACKAGES[0]!.name, '--json'], { server, env: OSV_DOWN });
    expect(result.code, result.stderr).toBe(3);
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.gate.passed).toBeNull();
    expect(report.gate.reasonDetails.some((r) => r.code === 'not-checked' && String(r.args.reason).includes('nerq-osv-down.invalid'))).toBe(true);
    const allowed = await runCli(['check', PACKAGES[0]!.name, '--json', '--allow-incomplete'], { server, env: OSV_DOWN });
    expect(allowed.code, allowed.stderr).toBe(0);
    const passed = ReportSchema.parse(JSON.parse(allowed.stdout));
    expect(passed.gate.passed).toBe(true);
    expect(new Set(passed.gate.reasonDetails.map((r) => r.code))).toEqual(new Set(['allowed-incomplete']));
    const headline = await runCli(['check', PACKAGES[0]!.name, '--allow-incomplete'], { server, env: OSV_DOWN });
    expect(headline.stdout.split('\n')[0]).toMatch(/ PASS .* score [\d.]+ \(provisional\)/);
  });
});

/**
 * Dependencies fetched from a git repository or URL no registry vouches for, in the audit report
 * (src/audit/report.ts) and every renderer: an unvouched one leaves the run incomplete (exit 3)
 * unless --allow-incomplete, a failure elsewhere still decides exit 1, an ignored one is listed
 * and changes nothing; each format names the file, line, package and host.
 */
import { describe, expect, it } from 'vitest';
import { auditOutcome, buildAuditReport } from '../../src/audit/report.js';
import { AuditReportSchema } from '../../src/audit/report-schema.js';
import type { AuditEntry, UnvouchedRemote } from '../../src/audit/types.js';
import { CHECKS } from '../../src/checks/index.js';
import { renderAuditJson } from '../../src/render/audit-json.js';
import { renderAuditMarkdown } from '../../src/render/audit-markdown.js';
import { renderAuditTable } from '../../src/render/audit-table.js';
import { renderAnnotations } from '../../src/render/annotations.js';
import { renderSarif } from '../../src/render/sarif.js';
import { deprecated, entryOf, healthy, NOW } from './policy/reports.js';

const remote = (overrides: Partial<UnvouchedRemote> = {}): UnvouchedRemote => ({
  ecosystem: 'npm',
  name: 'helper',
  file: 'package-lock.json',
  line: 17,
  source: 'git+ssh://github.com/acme/helper.git#0123',
  host: 'github.com',
  status: 'unvouched',
  ignoredBy: null,
  ...overrides,
});

const build = (entries: AuditEntry[], unvouched: UnvouchedRemote[], allowIncomplete = false) =>
  buildAuditReport({
    entries,
    inputs: [{ file: 'package-lock.json', format: 'package-lock@3', dependencies: [] }],
    policySource: null,
    now: NOW,
    warnings: [],
    expiredIgnores: 0,
    allowIncomplete,
    unvouched,
  });

const ignored = remote({ status: 'ignored', ignoredBy: { package: 'helper', reason: 'our fork, reviewed', expires: '2099-01-01' } });

describe('the outcome with dependencies no registry vouches for', () => {
  it.each([
    ['one unvouched, nothing else', [], [remote()], false, 'incomplete', 3],
    ['one unvouched, --allow-incomplete', [], [remote()], true, 'pass', 0],
    ['one ignored', [], [ignored], false, 'pass', 0],
    ['a failing package besides: fail decides (1 before 3)', [entryOf(deprecated())], [remote()], false, 'fail', 1],
    ['a passing package besides', [entryOf(healthy())], [remote()], false, 'incomplete', 3],
  ] as const)('%s → %s (exit %i)', (_, entries, unvouched, allow, result, exitCode) => {
    const report = build([...entries], [...unvouched], allow);
    expect(report.outcome).toEqual({ result, exitCode, allowIncomplete: allow });
  });

  it('auditOutcome counts unvouched entries as unchecked ones', () => {
    const summary = { total: 0, passed: 0, failed: 0, ignored: 0, errors: 0, incomplete: 0 };
    expect(auditOutcome(summary, 0, false, false, { fail: 0, incomplete: 0, unvouched: 1 }).exitCode).toBe(3);
    expect(auditOutcome(summary, 0, true, false, { fail: 0, incomplete: 0, unvouched: 1 }).exitCode).toBe(0);
    expect(auditOutcome(summary, 1, true, false, { fail: 0, incomplete: 0, unvouched: 1 }).exitCode).toBe(1);
  });

  it('one coded warning each, naming the file and line, the package and the host; the list is in the JSON contract', () => {
    const report = build([], [remote(), ignored, remote({ ecosystem: 'pypi', name: null, file: 'requirements.txt', line: 3, source: 'https://files.example.com/x.whl', host: 'files.example.com' })]);
    expect(report.warnings.map((w) => w.code)).toEqual(['unvouched-remote', 'unvouched-remote-ignored', 'unvouched-remote']);
    expect(report.warnings[0]?.details).toMatchObject({ file: 'package-lock.json', line: 17, package: 'helper', host: 'github.com' });
    expect(report.warnings[0]?.message).toMatch(/^package-lock\.json:17: "helper" comes from github\.com /);
    expect(report.warnings[1]?.details).toMatchObject({ reason: 'our fork, reviewed', expires: '2099-01-01' });
    expect(report.warnings[2]?.details).toMatchObject({ file: 'requirements.txt', line: 3, package: null, host: 'files.example.com' });
    const json = JSON.parse(renderAuditJson(report)) as unknown;
    expect(AuditReportSchema.parse(json)).toEqual(json);
    expect((json as { unvouched: unknown[] }).unvouched).toHaveLength(3);
  });

  it('no unvouched member when there is none (older consumers see the same report)', () => {
    const report = build([entryOf(healthy())], []);
    expect('unvouched' in report).toBe(false);
    expect(JSON.parse(renderAuditJson(report))).not.toHaveProperty('unvouched');
  });

  it('SARIF: a policy/unvouched-remote result at the lockfile line for each unvouched one, none for an ignored one', () => {
    const sarif = JSON.parse(renderSarif(build([], [remote(), ignored]), { checks: CHECKS })) as {
      runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[]; properties: Record<string, unknown> }[]; tool: { driver: { rules: { id: string }[] } }; invocations: { exitCode: number }[] }[];
    };
    const run = sarif.runs[0]!;
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({ ruleId: 'policy/unvouched-remote', level: 'warning', properties: { package: 'helper', host: 'github.com' } });
    expect(run.results[0]?.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: 'package-lock.json' }, region: { startLine: 17 } });
    expect(run.tool.driver.rules.map((r) => r.id)).toContain('policy/unvouched-remote');
    expect(run.invocations[0]?.exitCode).toBe(3);
  });

  it('table, Markdown and annotations state the result and name each one', () => {
    const report = build([], [remote(), ignored]);
    const table = renderAuditTable(report, { color: false, width: 200 });
    expect(table).toContain('INCOMPLETE');
    expect(table).toContain('package-lock.json:17: "helper" comes from github.com');
    expect(table).toContain('1 dependency from a git repository or URL no registry vouches for');
    expect(table).toContain('1 such dependency ignored');
    const markdown = renderAuditMarkdown(report);
    expect(markdown).toContain('INCOMPLETE');
    expect(markdown).toMatch(/package-lock\.json:17: .*helper.* comes from github\.com/);
    expect(renderAnnotations(report)).toMatch(/^::error title=nerq%3A audit incomplete::/m);
  });
});

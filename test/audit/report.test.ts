/** The audit report's outcome and its once-only warnings (src/audit/report.ts). */
import { describe, expect, it } from 'vitest';

import { auditOutcome, buildAuditReport, downWarnings, sourceWarnings } from '../../src/audit/report.js';
import type { AuditEntry } from '../../src/audit/types.js';
import { unavailable } from '../support/evidence-builder.js';
import { deprecated, entryOf, healthy, notFound, NOW, reportOf, thin } from './policy/reports.js';

const summary = (counts: Partial<{ failed: number; errors: number; incomplete: number }>) => ({
  total: 10,
  passed: 10,
  failed: 0,
  ignored: 0,
  errors: 0,
  incomplete: 0,
  ...counts,
});

describe('auditOutcome', () => {
  it.each([
    [{}, 0, false, 'pass', 0],
    [{ failed: 1 }, 0, false, 'fail', 1],
    [{ failed: 1, incomplete: 3 }, 0, true, 'fail', 1],
    [{}, 1, false, 'fail', 1],
    [{ errors: 1 }, 0, false, 'incomplete', 3],
    [{ errors: 1 }, 0, true, 'incomplete', 3],
    [{ incomplete: 2 }, 0, false, 'incomplete', 3],
    [{ incomplete: 2 }, 0, true, 'pass', 0],
  ] as const)('%o, %i expired ignores, allowIncomplete %s → %s (exit %i)', (counts, expired, allow, result, exitCode) => {
    expect(auditOutcome(summary(counts), expired, allow)).toEqual({ result, exitCode, allowIncomplete: allow });
  });
});

const withSource = (name: string, reason: string): AuditEntry =>
  entryOf(reportOf({ registry: { name, version: '1.0.0' }, github: unavailable(`GitHub repository: ${reason}`) }));

describe('sourceWarnings', () => {
  it('one warning per source, counting packages, with the commonest reason in plain words and the checks it left unknown', () => {
    const entries = [withSource('a', 'DNS lookup failed for api.github.com'), withSource('b', 'DNS lookup failed for api.github.com'), withSource('c', 'HTTP 502 from api.github.com'), entryOf(healthy())];
    const warnings = sourceWarnings(entries);
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning?.code).toBe('source-unavailable');
    expect(warning?.details).toMatchObject({ source: 'github', packages: 3, reason: 'DNS lookup failed for api.github.com', host: null });
    expect(warning?.details.checks).toContain('Commit activity');
    expect(warning?.message).toMatch(/^GitHub unavailable for 3 of 4 packages \(DNS lookup failed for api\.github\.com\); unknown: /);
    expect(warning?.message).not.toContain('GitHub repository:');
  });

  it('the noun goes with the total: 1 of 2 packages, 1 of 1 package', () => {
    expect(sourceWarnings([withSource('a', 'HTTP 502 from api.github.com'), entryOf(healthy())])[0]?.message).toMatch(/^GitHub unavailable for 1 of 2 packages \(/);
    expect(sourceWarnings([withSource('a', 'HTTP 502 from api.github.com')])[0]?.message).toMatch(/^GitHub unavailable for 1 of 1 package \(/);
  });

  it('names the outage that caused it, once, and the separate host warning is then left out', () => {
    const entries = [withSource('a', 'DNS lookup failed for api.github.com')];
    const down = [{ host: 'api.github.com', service: null, fault: 'dns' as const, reason: 'DNS lookup failed for api.github.com', kind: 'network' as const, name: 'GitHub' }];
    const sources = sourceWarnings(entries, down);
    expect(sources[0]?.message).toMatch(/^GitHub unreachable \(DNS lookup failed for api\.github\.com\), not asked again: GitHub unavailable for 1 of 1 package;/);
    expect(sources[0]?.details.host).toBe('api.github.com');
    expect(downWarnings(down, sources)).toEqual([]);
    const other = [{ ...down[0]!, host: 'api.osv.dev', reason: 'DNS lookup failed for api.osv.dev', name: 'OSV' }];
    expect(downWarnings(other, sources).map((w) => [w.code, w.message])).toEqual([
      ['service-unreachable', 'OSV unreachable (DNS lookup failed for api.osv.dev): not asked again this run'],
    ]);
  });
});

describe('downWarnings: what an outage leaves unchecked that no source says', () => {
  it('the public npm registry down: its services and the dependency-confusion check, by id', () => {
    const down = { host: 'public.example', service: null, fault: 'refused' as const, reason: 'connection refused by public.example', kind: 'network' as const, name: 'the public registry', services: ['npm-public-registry' as const] };
    const [warning] = downWarnings([down], []);
    expect(warning?.code).toBe('service-unreachable');
    expect(warning?.details).toMatchObject({ services: ['npm-public-registry'], checks: ['dependency-confusion'] });
  });

  it('the MCP Registry down: its service by id, and the sentence starts with a capital', () => {
    const down = { host: 'registry.modelcontextprotocol.io', service: null, fault: 'refused' as const, reason: 'connection refused by registry.modelcontextprotocol.io', kind: 'network' as const, name: 'the MCP Registry', services: ['mcp-registry' as const] };
    const [warning] = downWarnings([down], []);
    expect(warning?.details).toMatchObject({ services: ['mcp-registry'], checks: [] });
    expect(warning?.message).toMatch(/^The MCP Registry unreachable/);
  });

  it('another service down blinds no such check', () => {
    const down = { host: 'api.osv.dev', service: 'osv', fault: 'server-error' as const, reason: 'HTTP 503', kind: 'network' as const, name: 'OSV', services: ['osv' as const] };
    expect(downWarnings([down], [])[0]?.details).toMatchObject({ services: ['osv'], checks: [] });
  });
});

describe('sourceWarnings when several services share one host', () => {
  const osvDown = (name: string): AuditEntry =>
    entryOf(reportOf({ registry: { name, version: '1.0.0' }, vulnerabilities: unavailable('OSV querybatch: HTTP 503 from mirror.example') }));
  // GitHub's API on the same host was found down with the same words; OSV was not.
  const githubDown = { host: 'mirror.example', service: 'github', fault: 'server-error' as const, reason: 'HTTP 503 from mirror.example', kind: 'network' as const, name: 'GitHub' };

  it("an outage of another service on the host is not named as the source's cause", () => {
    const [warning] = sourceWarnings([osvDown('a')], [githubDown]);
    expect(warning?.details).toMatchObject({ source: 'vulnerabilities', host: null });
    expect(warning?.message).not.toContain('GitHub');
    expect(downWarnings([githubDown], [warning!]).map((w) => w.code)).toEqual(['service-unreachable']);
  });

  it("the source's own service down, or the whole host, is named", () => {
    const osv = { ...githubDown, service: 'osv', name: 'OSV' };
    expect(sourceWarnings([osvDown('a')], [githubDown, osv])[0]?.message).toMatch(/^OSV unreachable \(HTTP 503 from mirror\.example\), not asked again:/);
    const host = { ...githubDown, service: null, fault: 'refused' as const, name: 'mirror.example' };
    expect(sourceWarnings([osvDown('a')], [host])[0]?.details.host).toBe('mirror.example');
  });
});

describe('buildAuditReport', () => {
  it('orders worst first (fail, error, incomplete, ignored, pass), counts every status, and has the outcome', () => {
    const entries = [entryOf(healthy()), entryOf(thin()), entryOf(notFound()), entryOf(deprecated())];
    const report = buildAuditReport({ entries, inputs: [], policySource: null, now: NOW, warnings: [], expiredIgnores: 0, allowIncomplete: false });
    expect(report.entries.map((e) => e.policy.status)).toEqual(['fail', 'error', 'incomplete', 'pass']);
    expect(report.summary).toEqual({ total: 4, passed: 1, failed: 1, ignored: 0, errors: 1, incomplete: 1 });
    expect(report.outcome).toEqual({ result: 'fail', exitCode: 1, allowIncomplete: false });
    expect(report.warnings.map((w) => w.code)).toContain('source-unavailable');
  });
});

describe('findings no package carries (nerq audit --mcp)', () => {
  const finding = (code: string) => ({ code, message: `.mcp.json: line 3: ${code}`, details: { file: '.mcp.json', line: 3 } });
  const build = (findings: ReturnType<typeof finding>[], entries: AuditEntry[] = [entryOf(healthy())]) =>
    buildAuditReport({ entries, inputs: [], policySource: null, now: NOW, warnings: [], expiredIgnores: 0, allowIncomplete: true, findings });

  it.each([
    [['mcp-widened-reach'], 'fail', 1],
    [['mcp-remote-insecure', 'mcp-remote-unverified'], 'fail', 1],
    [['mcp-remote-unverified'], 'incomplete', 3],
    [[], 'pass', 0],
  ] as const)('%j → %s (exit %i), even with --allow-incomplete and every package passing', (codes, result, exitCode) => {
    const report = build(codes.map(finding));
    expect(report.summary.passed).toBe(report.summary.total);
    expect(report.outcome).toMatchObject({ result, exitCode });
    expect(report.warnings.slice(0, codes.length).map((w) => w.code)).toEqual(codes);
  });

  it('with no package at all, a widened container still fails the run', () => {
    expect(build([finding('mcp-widened-reach')], []).outcome).toMatchObject({ result: 'fail', exitCode: 1 });
  });
});

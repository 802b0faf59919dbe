/**
 * An affecting critical or high advisory reads as a failure everywhere the terminal shows it:
 * the check is `fail` (✖, red) although the penalty leaves it 40 or 60, the Security bar is red,
 * and a moderate one is at best a warning.
 */
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/render/table.js';
import type { Report } from '../../src/report/schema.js';
import { advisory, vulnerabilityFacts } from '../support/evidence-builder.js';
import { reportOf } from '../audit/policy/reports.js';

const withAdvisory = (severity: 'critical' | 'high' | 'moderate' | 'low') =>
  reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity, cvss: null, severitySource: 'database' })] }) });

const check = (report: Report, id: string) => report.checks.find((c) => c.id === id);
const RED = '\u001b[31m';
const GREEN = '\u001b[32m';
const YELLOW = '\u001b[33m';

describe('advisory severity in the status', () => {
  it.each([
    ['critical', 10, 'fail'],
    ['high', 30, 'fail'],
    ['moderate', 80, 'warn'],
    ['low', 90, 'warn'],
  ] as const)('a %s advisory: score %d, status %s', (severity, score, status) => {
    const report = withAdvisory(severity);
    expect(check(report, 'known-vulnerabilities')).toMatchObject({ score, status });
  });

  it('no advisory: pass, as the score says', () => {
    expect(check(reportOf(), 'known-vulnerabilities')).toMatchObject({ score: 100, status: 'pass' });
  });

  it('the terminal shows a critical advisory as ✖ and the Security bar, capped with the score, in red', () => {
    const report = withAdvisory('critical');
    const security = report.dimensions.find((d) => d.id === 'security');
    expect(security?.score).toBeLessThanOrEqual(49.9);
    const plain = renderTable(report, { color: false });
    expect(plain).toMatch(/^ {2}✖ {2}10\.0 {2}Known vulnerabilities$/m);
    const coloured = renderTable(report, { color: true }).split('\n');
    const row = coloured.find((l) => l.includes('Security') && l.includes('│')) ?? '';
    expect(row).toContain(RED);
    expect(row).not.toContain(GREEN);
    // Without an advisory the same bar is green.
    const clean = renderTable(reportOf(), { color: true }).split('\n').find((l) => l.includes('Security') && l.includes('│')) ?? '';
    expect(clean).toContain(GREEN);
  });

  it('a moderate advisory turns the Security bar yellow, not red', () => {
    const row = renderTable(withAdvisory('moderate'), { color: true }).split('\n').find((l) => l.includes('Security') && l.includes('│')) ?? '';
    expect(row).toContain(YELLOW);
    expect(row).not.toContain(RED);
  });
});

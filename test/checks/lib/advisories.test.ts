import { describe, expect, it } from 'vitest';
import {
  capsVersion,
  compareVersions,
  countBySeverity,
  distinctAdvisories,
  highestVersion,
  severityBreakdown,
  worstSeverity,
} from '../../../src/checks/lib/advisories.js';
import type { Severity } from '../../../src/evidence/schema.js';
import { advisory } from '../../support/evidence-builder.js';

const of = (...severities: Severity[]) => severities.map((severity, i) => advisory({ id: `GHSA-${i}`, aliases: [], severity }));

describe('advisory helpers', () => {
  it.each([
    [['low', 'moderate'], 'moderate'],
    [['low', 'unknown'], 'unknown'],
    [['unknown', 'high'], 'high'],
    [['high', 'critical', 'low'], 'critical'],
    [[], null],
  ] as const)('worst of %j is %s', (severities, worst) => {
    expect(worstSeverity(of(...severities))).toBe(worst);
  });

  it.each([
    ['critical', true],
    ['high', true],
    ['unknown', true],
    ['moderate', false],
    ['low', false],
  ] as const)('%s caps the version: %s', (severity, caps) => {
    expect(capsVersion(severity)).toBe(caps);
  });

  it('counts and describes severities worst first, unknown last', () => {
    const list = of('low', 'unknown', 'critical', 'high', 'high');
    expect(countBySeverity(list)).toEqual({ critical: 1, high: 2, moderate: 0, low: 1, unknown: 1 });
    expect(severityBreakdown(list)).toBe('1 critical, 2 high, 1 low, 1 severity unknown, treated as high');
  });

  it('keeps one entry per advisory and package, matching ids and aliases case-insensitively', () => {
    const a = advisory({ id: 'GHSA-aaaa', aliases: ['CVE-2026-1'] });
    const twin = advisory({ id: 'cve-2026-1', aliases: [] });
    const otherPackage = advisory({ id: 'GHSA-aaaa', aliases: ['CVE-2026-1'], package: 'dep-a' });
    expect(distinctAdvisories([a, twin, otherPackage])).toEqual([a, otherPackage]);
  });

  it.each([
    ['2.10.0', '2.9.3', 1],
    ['1.0.0', '1.0.0-beta.1', 1],
    ['1.0.post1', '1.0.0', 1],
    ['3.2', '3.10', -1],
    ['1.2.3', '1.2.3', 0],
    // PEP 440 (PyPI): a pre-release sorts before its release, a post-release after it.
    ['2.0a1', '2.0', -1],
    ['1.0.post1', '1.0', 1],
    ['1.0.dev1', '1.0a1', -1],
  ] as const)('compareVersions(%s, %s) has sign %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  it('picks the highest version', () => {
    expect(highestVersion(['2.1.2', '2.10.0', '2.9.3'])).toBe('2.10.0');
    expect(highestVersion([])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import check from '../../src/checks/known-vulnerabilities.js';
import type { AdvisoryFacts } from '../../src/evidence/schema.js';
import { advisory, evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf, runCheck } from './check-table.js';

const withAdvisories = (...advisories: AdvisoryFacts[]) => evidence({ vulnerabilities: { advisories } });
/** The overall cap and the security dimension's, with one reason. */
const cap = (reason: string) => ({ id: 'vulnerable-version', limit: 49.9, reason });
const dimensionCap = (reason: string) => ({ id: 'vulnerable-version', limit: 49.9, dimension: 'security' as const, reason });

const critical = advisory({ id: 'GHSA-crit-0000-0001', aliases: ['CVE-2026-1001'], severity: 'critical', cvss: 9.8, fixed: '2.1.1' });
const high = advisory({ id: 'GHSA-high-0000-0002', aliases: ['CVE-2026-1002'], severity: 'high', fixed: '2.10.0' });
const moderate = advisory({ id: 'GHSA-mode-0000-0003', aliases: [], severity: 'moderate', cvss: 5.3, fixed: '2.9.3' });
const low = advisory({ id: 'GHSA-low0-0000-0004', aliases: [], severity: 'low', cvss: 3.1, fixed: '2.1.2' });
const unknownSeverity = advisory({
  id: 'GHSA-unkn-0000-0005',
  aliases: [],
  severity: 'unknown',
  severitySource: 'none',
  cvss: null,
  cvssVector: null,
  fixed: '2.1.1',
});

checkTable(check, [
  {
    name: 'a repository target: only its dependencies were asked, so not applicable (not clean)',
    evidence: evidence({ vulnerabilities: { advisories: [], ownAsked: false } }),
    score: null,
    messageId: 'no-own-version',
  },
  {
    name: 'a package its registry no longer serves, asked about with no version: unknown (only malicious records were read), never clean',
    evidence: evidence({ vulnerabilities: { advisories: [advisory({ id: 'MAL-2023-1578', malicious: true, version: null, fixed: null })], versionless: true } }),
    score: null,
    messageId: 'no-version',
  },
  {
    name: 'no advisories',
    evidence: evidence(),
    score: 100,
    messageId: 'none',
    data: { count: 0, ids: [], fixed: null, critical: 0, high: 0, moderate: 0, low: 0, unknown: 0 },
  },
  {
    name: 'one high advisory, fixed later: a fail (30), and the cap applies even though a fix exists',
    evidence: withAdvisories(high),
    score: 30,
    messageId: 'fix-available',
    data: { count: 1, high: 1, ids: ['GHSA-high-0000-0002'], fixed: '2.10.0', unfixed: [], version: '2.1.0' },
    caps: [cap('GHSA-high-0000-0002 (high) affects 2.1.0'), dimensionCap('GHSA-high-0000-0002 (high) affects 2.1.0')],
    message: ['GHSA-high-0000-0002 (1 high)', 'upgrade to 2.10.0'],
  },
  {
    name: 'one critical advisory: a fail (10)',
    evidence: withAdvisories(critical),
    score: 10,
    messageId: 'fix-available',
    data: { critical: 1, penalty: 60, fixed: '2.1.1' },
    caps: [cap('GHSA-crit-0000-0001 (critical) affects 2.1.0'), dimensionCap('GHSA-crit-0000-0001 (critical) affects 2.1.0')],
  },
  {
    name: 'moderate: penalty 20, no cap',
    evidence: withAdvisories(moderate),
    score: 80,
    messageId: 'fix-available',
    data: { moderate: 1, fixed: '2.9.3' },
  },
  { name: 'low: penalty 10, no cap', evidence: withAdvisories(low), score: 90, messageId: 'fix-available', data: { low: 1 } },
  {
    name: 'low and moderate together: 70, still no cap',
    evidence: withAdvisories(low, moderate),
    score: 70,
    messageId: 'fix-available',
    data: { count: 2, low: 1, moderate: 1, fixed: '2.9.3' },
    message: ['1 moderate, 1 low'],
  },
  {
    name: 'severity unknown is treated as high and says so',
    evidence: withAdvisories(unknownSeverity),
    score: 30,
    messageId: 'fix-available',
    data: { unknown: 1, high: 0, penalty: 40 },
    caps: [cap('GHSA-unkn-0000-0005 (severity unknown, treated as high) affects 2.1.0'), dimensionCap('GHSA-unkn-0000-0005 (severity unknown, treated as high) affects 2.1.0')],
    message: ['1 severity unknown, treated as high'],
  },
  {
    name: 'fix guidance is the semver-highest fixed version (2.10.0 > 2.9.3 > 2.1.2)',
    evidence: withAdvisories(low, moderate, high),
    score: 30,
    messageId: 'fix-available',
    data: { fixed: '2.10.0', ids: ['GHSA-low0-0000-0004', 'GHSA-mode-0000-0003', 'GHSA-high-0000-0002'] },
    caps: [cap('GHSA-high-0000-0002 (high) affects 2.1.0'), dimensionCap('GHSA-high-0000-0002 (high) affects 2.1.0')],
    message: ['upgrade to 2.10.0', '1 high, 1 moderate, 1 low'],
  },
  {
    name: 'no fix for any advisory',
    evidence: withAdvisories(advisory({ fixed: null })),
    score: 30,
    messageId: 'no-fix',
    data: { fixed: null, unfixed: ['GHSA-xxxx-yyyy-zzzz'] },
    caps: [cap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0'), dimensionCap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0')],
    message: ['no fix for GHSA-xxxx-yyyy-zzzz'],
  },
  {
    name: 'some fixed, some not: names the unfixed ones and the partial upgrade',
    evidence: withAdvisories(moderate, advisory({ id: 'GHSA-nofx-0000-0006', aliases: [], severity: 'low', fixed: null })),
    score: 70,
    messageId: 'partial-fix',
    data: { fixed: null, partialFix: '2.9.3', unfixed: ['GHSA-nofx-0000-0006'] },
    message: ['no fix for GHSA-nofx-0000-0006', 'upgrading to 2.9.3 fixes the others'],
  },
  {
    name: 'floor 0: two criticals',
    evidence: withAdvisories(critical, advisory({ id: 'GHSA-crit-0000-0007', aliases: [], severity: 'critical', fixed: '2.1.1' })),
    score: 0,
    messageId: 'fix-available',
    data: { critical: 2, penalty: 120 },
    caps: [cap('GHSA-crit-0000-0001 (critical), GHSA-crit-0000-0007 (critical) affect 2.1.0'), dimensionCap('GHSA-crit-0000-0001 (critical), GHSA-crit-0000-0007 (critical) affect 2.1.0')],
  },
  {
    name: 'a cap reason names the worst three and counts the rest',
    evidence: withAdvisories(high, unknownSeverity, critical, advisory({ id: 'GHSA-high-0000-0008', aliases: [], fixed: '2.1.1' })),
    score: 0,
    messageId: 'fix-available',
    caps: [
      {
        ...cap('GHSA-crit-0000-0001 (critical), GHSA-high-0000-0002 (high), GHSA-high-0000-0008 (high) and 1 more affect 2.1.0'),
        args: { advisories: expect.stringMatching(/^GHSA-crit-0000-0001, GHSA-high-0000-0002, GHSA-high-0000-0008, /), count: 4, version: '2.1.0' },
      },
      dimensionCap('GHSA-crit-0000-0001 (critical), GHSA-high-0000-0002 (high), GHSA-high-0000-0008 (high) and 1 more affect 2.1.0'),
    ],
  },
  {
    name: 'twins merged upstream: one advisory with its aliases counts once',
    evidence: withAdvisories(advisory({ aliases: ['CVE-2026-0001', 'PYSEC-2026-1'] })),
    score: 30,
    messageId: 'fix-available',
    data: { count: 1, ids: ['GHSA-xxxx-yyyy-zzzz'] },
    caps: [cap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0'), dimensionCap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0')],
  },
  {
    name: 'the same advisory listed twice (or under a twin id) still counts once',
    evidence: withAdvisories(advisory(), advisory(), advisory({ id: 'CVE-2026-0001', aliases: ['GHSA-xxxx-yyyy-zzzz'] })),
    score: 30,
    messageId: 'fix-available',
    data: { count: 1, ids: ['GHSA-xxxx-yyyy-zzzz'] },
    caps: [cap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0'), dimensionCap('GHSA-xxxx-yyyy-zzzz (high) affects 2.1.0')],
  },
  {
    name: 'malicious records are left to malicious-package',
    evidence: withAdvisories(advisory({ id: 'MAL-2026-1', aliases: [], malicious: true, fixed: null })),
    score: 100,
    messageId: 'none',
    data: { count: 0 },
  },
  {
    name: 'an advisory that does not affect the resolved version is not counted',
    evidence: withAdvisories(advisory({ affectsResolved: false })),
    score: 100,
    messageId: 'none',
  },
  {
    name: 'an advisory without a matched version says "this version"',
    evidence: withAdvisories(advisory({ version: null })),
    score: 30,
    messageId: 'fix-available',
    data: { version: 'this version' },
    caps: [cap('GHSA-xxxx-yyyy-zzzz (high) affects this version'), dimensionCap('GHSA-xxxx-yyyy-zzzz (high) affects this version')],
  },
  // PyPI: PEP 440 versions order the fixes (a pre-release before its release).
  {
    name: 'PyPI: two fixes, 2.2 is above 2.2a1',
    evidence: pypiEvidence({
      vulnerabilities: {
        advisories: [
          advisory({ id: 'PYSEC-2026-1', aliases: [], severity: 'moderate', version: '2.1.0', fixed: '2.2' }),
          advisory({ id: 'GHSA-pypi-0000-0002', aliases: [], severity: 'low', version: '2.1.0', fixed: '2.2a1' }),
        ],
      },
    }),
    score: 70,
    messageId: 'fix-available',
    data: { version: '2.1.0', fixed: '2.2', ids: ['PYSEC-2026-1', 'GHSA-pypi-0000-0002'] },
    message: ['upgrade to 2.2'],
  },
]);

describe('known-vulnerabilities', () => {
  it('holds the verdict for an affecting advisory below the cap\'s severities (a capping one says so by its cap), and not otherwise', () => {
    const held = (advisories: AdvisoryFacts[]) => {
      const ran = runCheck(check, evidence({ vulnerabilities: { advisories } }));
      return ran.kind === 'outcome' ? ran.outcome.holdVerdict : 'not evaluated';
    };
    expect(held([advisory({ id: 'GHSA-low-0001', severity: 'low', version: '2.1.0', fixed: '2.1.1' })])).toBe('GHSA-low-0001 affects 2.1.0; upgrading to 2.1.1 would lift this');
    expect(held([advisory({ severity: 'moderate', fixed: null }), advisory({ id: 'GHSA-two', aliases: [], severity: 'low' })])).toBe('GHSA-xxxx-yyyy-zzzz, GHSA-two affect 2.1.0; a fixed version would lift this');
    expect(held([advisory({ severity: 'moderate' }), advisory({ id: 'GHSA-two', aliases: [], severity: 'high' })])).toBeUndefined();
    expect(held([])).toBeUndefined();
  });

  it('guards danger and is unknown when the vulnerability source is unavailable', () => {
    expect(check.guardsDanger).toBe(true);
    expect(runCheck(check, evidence({ vulnerabilities: unavailable('OSV: HTTP 503') }))).toEqual({
      kind: 'unknown-source',
      source: 'vulnerabilities',
    });
  });
});

describe('known-vulnerabilities on a repository target', () => {
  it('is not applicable: a repository has no version of its own, so an empty list is no clean answer', () => {
    const outcome = outcomeOf(check, evidence({ vulnerabilities: { advisories: [], ownAsked: false } }));
    expect(outcome).toMatchObject({ score: null, messageId: 'no-own-version', notApplicable: true });
  });
});

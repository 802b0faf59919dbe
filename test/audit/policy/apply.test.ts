import { describe, expect, it } from 'vitest';
import {
  applyPolicy,
  expiredIgnores,
  licenseFromEvidence,
  licenseFromReport,
  mergePolicy,
  parsePolicy,
  refusedIgnores,
  type PackageLicense,
  type Policy,
} from '../../../src/audit/policy.js';
import type { Report } from '../../../src/report/schema.js';
import { advisory, evidence, notApplicable, unavailable, vulnerabilityFacts } from '../../support/evidence-builder.js';
import {
  deprecated,
  healthy,
  malicious,
  middling,
  notFound,
  NOW,
  poor,
  pypiReport,
  reportOf,
  subjectOf,
  thin,
} from './reports.js';

/** The effective policy for a policy-file object (validated as if loaded from .nerqrc.json). */
function policyOf(data: Record<string, unknown>, flags: Parameters<typeof mergePolicy>[1] = {}): Policy {
  return mergePolicy({ ...parsePolicy(data, '.nerqrc.json'), source: '.nerqrc.json' }, flags);
}

function decide(report: Report, policy: Policy, options: Parameters<typeof applyPolicy>[4] = {}, now = NOW) {
  return applyPolicy(report, subjectOf(report), policy, now, options);
}

const rules = (outcome: ReturnType<typeof decide>) => outcome.failures.map((f) => f.rule);

describe('mergePolicy', () => {
  it('defaults to the gate of nerq check', () => {
    expect(mergePolicy(null)).toEqual({
      source: null,
      minScore: 50,
      minCoverage: 0.5,
      dimensions: {},
      licenses: { allow: null, deny: [] },
      ignore: [],
      failOn: null,
      failOnSeverity: null,
    });
  });

  it('takes the file values, and flags override them', () => {
    const file = { minScore: 70, minCoverage: 0.8, failOn: 'no' as const, dimensions: { security: 60 } };
    expect(policyOf(file)).toMatchObject({ source: '.nerqrc.json', minScore: 70, minCoverage: 0.8, failOn: 'no', dimensions: { security: 60 } });
    expect(policyOf(file, { minScore: 40, minCoverage: 0.3, failOn: 'caution' })).toMatchObject({
      minScore: 40,
      minCoverage: 0.3,
      failOn: 'caution',
      dimensions: { security: 60 },
    });
  });
});

describe('applyPolicy: scores, floors, verdicts', () => {
  it('a healthy package passes the default policy', () => {
    expect(decide(healthy(), mergePolicy(null))).toEqual({ status: 'pass', failures: [], ignoredBy: null });
  });

  it('fails below minScore, with the score as shown', () => {
    const outcome = decide(healthy(), policyOf({ minScore: 98 }));
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual([{ rule: 'min-score', message: 'score 97.4 is below the minimum 98' }]);
  });

  it('a capped package fails (as the gate of nerq check), the cap first', () => {
    const outcome = decide(deprecated(), mergePolicy(null));
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual([
      { rule: 'capped', message: 'capped at 49.9: version is deprecated: no longer maintained' },
      { rule: 'min-score', message: 'score 49.9 is below the minimum 50' },
    ]);
    // Still failing with a lower bar: a cap is a failure on its own.
    expect(rules(decide(deprecated(), policyOf({ minScore: 30 })))).toEqual(['capped']);
  });

  it('NO — DO NOT USE always fails, whatever the bar, without repeating its cap', () => {
    const outcome = decide(malicious(), policyOf({ minScore: 0 }));
    expect(outcome.status).toBe('fail');
    expect(outcome.failures).toEqual([{ rule: 'verdict', message: 'NO — DO NOT USE: known malicious package: MAL-2026-1' }]);
  });

  it('fails a dimension below its floor; an unknown dimension is no failure', () => {
    const report = middling();
    const documentation = report.dimensions.find((d) => d.id === 'documentation')?.score;
    expect(documentation).toBe(20.9);
    const outcome = decide(report, policyOf({ dimensions: { documentation: 30, security: 50 } }));
    expect(outcome.failures).toEqual([{ rule: 'dimension-floor', message: 'Documentation 20.9 is below its floor 30' }]);
    // A dimension nothing could be measured in has no score: its floor cannot fail.
    const unmeasured = healthy();
    const community = unmeasured.dimensions.find((d) => d.id === 'community');
    if (community === undefined) throw new Error('no community dimension');
    community.score = null;
    expect(decide(unmeasured, policyOf({ dimensions: { community: 90 } })).status).toBe('pass');
    expect(rules(decide(healthy(), policyOf({ dimensions: { community: 99 } })))).toEqual(['dimension-floor']);
  });

  it.each([
    ['low', ['advisory', 'advisory']],
    ['moderate', ['advisory', 'advisory']],
    ['high', ['advisory']],
    ['critical', []],
  ] as const)('--fail-on %s fails the advisories affecting the version at that severity or above', (level, expected) => {
    // A high one (fixed in 2.1.1) and a moderate one; the moderate one alone does not cap the score.
    const report = reportOf({
      vulnerabilities: vulnerabilityFacts({
        advisories: [advisory(), advisory({ id: 'GHSA-mmmm-mmmm-mmmm', severity: 'moderate', cvss: 5.3, fixed: null })],
      }),
    });
    const outcome = decide(report, policyOf({}, { failOnSeverity: level }));
    expect(outcome.failures.filter((f) => f.rule === 'advisory').map((f) => f.rule)).toEqual(expected);
    if (level === 'high') {
      expect(outcome.failures.find((f) => f.rule === 'advisory')?.message).toBe(
        'GHSA-xxxx-yyyy-zzzz (high, CVSS 7.5) affects 2.1.0, fixed in 2.1.1 (fail on high and above)',
      );
    }
  });

  it('--fail-on leaves advisories that do not affect the version, and those of dependencies, to the score', () => {
    const report = reportOf({
      vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ affectsResolved: false }), advisory({ id: 'GHSA-dddd-dddd-dddd', package: 'other-dep' })] }),
    });
    expect(decide(report, policyOf({}, { failOnSeverity: 'low' })).failures.filter((f) => f.rule === 'advisory')).toEqual([]);
  });

  it('failOn decides which verdicts fail besides DO NOT USE', () => {
    const low = poor(); // 33.8, verdict NO, no overall cap
    expect(low.verdictCode).toBe('no');
    expect(decide(low, policyOf({ minScore: 30 })).status).toBe('pass');
    expect(decide(low, policyOf({ minScore: 30, failOn: 'no' })).failures).toEqual([
      { rule: 'verdict', message: 'verdict NO — USE WITH CAUTION fails the policy (failOn: no)' },
    ]);
    const caution = middling();
    expect(caution.verdictCode).toBe('caution');
    expect(decide(caution, policyOf({ failOn: 'no' })).status).toBe('pass');
    expect(rules(decide(caution, policyOf({ failOn: 'caution' })))).toEqual(['verdict']);
  });

  it('a report that could not be evaluated is an error, not a failure', () => {
    expect(decide(notFound(), mergePolicy(null))).toEqual({
      status: 'error',
      failures: [{ rule: 'not-evaluated', message: 'npm package "ghost-pkg" was not found in the registry' }],
      ignoredBy: null,
    });
  });

  it('too little coverage cannot be evaluated, unless something failed', () => {
    const report = thin();
    expect(report.coverage).toBeCloseTo(0.635, 3);
    // Enough coverage, but OSV was down: not checked for vulnerabilities (below).
    expect(decide(report, mergePolicy(null)).status).toBe('incomplete');
    expect(decide(report, policyOf({ minCoverage: 0.7 }))).toEqual({
      status: 'error',
      failures: [{ rule: 'min-coverage', message: 'coverage 64% is below the minimum 70%' }],
      ignoredBy: null,
    });
    expect(rules(decide(report, policyOf({ minCoverage: 0.7, minScore: 99 })))).toEqual(['min-score']);
    // Just under a minimum the numbers still read apart (63.6% would round to the coverage's 64%).
    expect(decide(report, policyOf({ minCoverage: 0.636 })).failures).toEqual([
      { rule: 'min-coverage', message: 'coverage 63.5% is below the minimum 63.6%' },
    ]);
  });

  it('matches the gate of nerq check under the default policy', () => {
    const expected = { true: ['pass'], false: ['fail'], null: ['error', 'incomplete'] } as const;
    for (const report of [healthy(), deprecated(), malicious(), middling(), poor(), thin(), notFound(), pypiReport()]) {
      expect(expected[String(report.gate.passed) as 'true'], report.target.name).toContain(decide(report, mergePolicy(null)).status);
    }
  });

  it('a package its guarding checks could not run on is incomplete, naming the checks, never a pass', () => {
    const outcome = decide(thin(), mergePolicy(null));
    expect(outcome.status).toBe('incomplete');
    expect(outcome.failures.map((f) => [f.rule, f.checks])).toEqual([['not-checked', ['malicious-package', 'known-vulnerabilities']]]);
    expect(outcome.failures[0]?.message).toContain('osv down');
    // The gate of nerq check agrees: it could not be evaluated, for the same reason.
    expect(thin().gate).toMatchObject({ passed: null });
    expect(thin().gate.reasonDetails.some((r) => r.code === 'not-checked' && String(r.args.reason).includes('osv down'))).toBe(true);
    // Anything failing still fails: incomplete is only for what passed on the rest.
    expect(decide(thin(), policyOf({ minScore: 99 })).status).toBe('fail');
  });

  it('an ignore entry covers an incomplete package too', () => {
    const outcome = decide(thin(), policyOf({ ignore: [{ package: 'thin', reason: 'vetted by hand' }] }));
    expect(outcome).toMatchObject({ status: 'ignored', ignoredBy: { reason: 'vetted by hand' } });
  });

  it('a dependency-confusion suspicion fails an otherwise passing package', () => {
    const outcome = decide(healthy(), mergePolicy(null), { dependencyConfusion: { message: 'resolves from a private registry; also on the public one', at: null } });
    expect(outcome.status).toBe('fail');
    expect(rules(outcome)).toEqual(['dependency-confusion']);
  });

  it('the public registry not answering leaves an otherwise passing package incomplete (not-checked), never passed', () => {
    const at = { file: 'package-lock.json', line: 7 };
    const outcome = decide(healthy(), mergePolicy(null), { dependencyConfusion: { message: 'no answer', at, unverified: true } });
    expect(outcome.status).toBe('incomplete');
    expect(outcome.failures.map((f) => [f.rule, f.checks ?? null, f.at ?? null])).toEqual([['not-checked', ['dependency-confusion'], at]]);
  });

  it('an unverified suspicion does not hide a failure, nor count as one', () => {
    const outcome = decide(poor(), mergePolicy(null), { dependencyConfusion: { message: 'no answer', at: null, unverified: true } });
    expect(outcome.status).toBe('fail');
    expect(rules(outcome)).not.toContain('dependency-confusion');
    expect(rules(outcome)).not.toContain('not-checked');
  });
});

describe('applyPolicy: licences', () => {
  const withLicense = (license: string | null) => healthy('lib', '1.0.0', { license });
  const allow = (list: string[]) => policyOf({ licenses: { allow: list } });
  const deny = (list: string[]) => policyOf({ licenses: { deny: list } });

  it.each([
    ['MIT', ['MIT', 'ISC'], 'pass'],
    ['MIT OR Apache-2.0', ['Apache-2.0'], 'pass'],
    ['(MIT OR GPL-3.0-only) AND ISC', ['MIT', 'ISC'], 'pass'],
    ['MIT AND GPL-3.0-only', ['MIT'], 'fail'],
    ['GPL-3.0-only', ['GPL-2.0+'], 'pass'],
    ['GPL-3.0-only', ['MIT'], 'fail'],
  ])('%s against allow %j → %s', (license, list, status) => {
    expect(decide(withLicense(license), allow(list)).status).toBe(status);
  });

  it('says which licence is not allowed and what is', () => {
    expect(decide(withLicense('MIT AND GPL-3.0-only'), allow(['MIT', 'ISC'])).failures).toEqual([
      { rule: 'license-not-allowed', message: 'licence MIT AND GPL-3.0-only is not allowed; the policy allows MIT, ISC' },
    ]);
  });

  it('a licence that is not valid SPDX fails an allow list, saying so', () => {
    expect(decide(withLicense('My Own License v2'), allow(['MIT'])).failures).toEqual([
      {
        rule: 'license-not-allowed',
        message: "licence 'My Own License v2' is not a valid SPDX expression, so it cannot match the allow list; the policy allows MIT",
      },
    ]);
    expect(decide(withLicense('Apache 2.0'), allow(['Apache-2.0'])).failures[0]?.message).toBe(
      "licence 'Apache 2.0' is not a valid SPDX expression (probably Apache-2.0), so it cannot match the allow list; the policy allows Apache-2.0",
    );
    expect(decide(withLicense('UNLICENSED'), allow(['MIT'])).failures[0]?.message).toMatch(/^licence UNLICENSED \(proprietary\) is not allowed/);
    expect(decide(withLicense('SEE LICENSE IN LICENSE.txt'), allow(['MIT'])).failures[0]?.message).toMatch(
      /^custom licence \(see 'LICENSE\.txt'\) cannot match the allow list/,
    );
  });

  it('no licence, or an unknown one, fails an allow list', () => {
    expect(decide(poor(), allow(['MIT'])).failures).toContainEqual({
      rule: 'license-not-allowed',
      message: 'no licence declared; the policy allows MIT',
    });
    const unknown: PackageLicense = { status: 'unknown', reason: 'registry unavailable' };
    expect(decide(healthy(), allow(['MIT']), { license: unknown }).failures).toEqual([
      { rule: 'license-not-allowed', message: 'licence unknown (registry unavailable); the policy allows MIT' },
    ]);
  });

  it.each([
    ['GPL-3.0-only', 'fail'],
    ['MIT OR GPL-3.0-only', 'pass'],
    ['MIT AND GPL-3.0-only', 'fail'],
    ['GPL-3.0-or-later', 'fail'],
    ['AGPL-3.0-only', 'pass'],
    ['GPL-3.0-only WITH GCC-exception-3.1', 'fail'],
    ['My Own License', 'pass'],
  ])('%s against deny ["GPL-3.0-only"] → %s', (license, status) => {
    expect(decide(withLicense(license), deny(['GPL-3.0-only'])).status).toBe(status);
  });

  it('a deny list reads a correctable licence as its correction', () => {
    expect(decide(withLicense('GPLv3'), deny(['GPL-3.0-only'])).failures).toEqual([
      { rule: 'license-denied', message: "licence 'GPLv3' (read as GPL-3.0-or-later) is denied by the policy (GPL-3.0-only)" },
    ]);
  });

  it.each([
    ['AGPL MIT', ['AGPL-3.0-only'], 'fail'],
    ['MIT, GPL-3.0', ['GPL-3.0-only'], 'fail'],
    ['MIT + AGPL-3.0', ['AGPL-3.0-only'], 'fail'],
    ['Apache 2.0 / GPL', ['GPL-3.0-only'], 'fail'],
    ['MIT AND Commercial', ['GPL-3.0-only'], 'pass'],
  ])('an unreadable %j is denied when a licence it may mean is (deny %j → %s)', (license, list, status) => {
    const outcome = decide(withLicense(license), deny(list));
    expect(outcome.status).toBe(status);
    if (status === 'fail') expect(outcome.failures.map((f) => f.rule)).toEqual(['license-denied']);
  });

  it('a denied licence reports the denial only, not also "not allowed"', () => {
    const policy = policyOf({ licenses: { allow: ['MIT'], deny: ['GPL-3.0-only'] } });
    expect(rules(decide(withLicense('GPL-3.0-only'), policy))).toEqual(['license-denied']);
  });

  it('PyPI: the licence from the report or the evidence', () => {
    const report = pypiReport('flask', '3.0.0', { spdx: 'BSD-3-Clause' });
    expect(licenseFromReport(report)).toEqual({ status: 'declared', expression: 'BSD-3-Clause' });
    expect(decide(report, allow(['MIT'])).status).toBe('fail');
    expect(decide(report, allow(['BSD-3-Clause', 'MIT'])).status).toBe('pass');
    const ev = evidence({
      target: { ecosystem: 'pypi', name: 'flask', version: '3.0.0', input: 'pypi:flask', purl: null, repository: null },
      registry: notApplicable('not npm'),
      pypi: { license: { expression: null, classifiers: [], text: 'BSD License', spdx: null, source: null, files: null } },
    });
    expect(licenseFromEvidence(ev)).toEqual({ status: 'declared', expression: 'BSD License' });
  });

  it.each([
    ['a PEP 639 expression over a classifier', { expression: 'MIT', classifiers: ['License :: OSI Approved :: Apache Software License'], text: null, spdx: 'Apache-2.0', source: 'classifier' as const }, 'MIT'],
    ['a classifier-mapped SPDX id over free text', { expression: null, classifiers: ['License :: OSI Approved :: BSD License'], text: 'BSD', spdx: 'BSD-3-Clause', source: 'classifier' as const }, 'BSD-3-Clause'],
    ['free text mapped to SPDX', { expression: null, classifiers: [], text: 'Apache 2.0', spdx: 'Apache-2.0', source: 'text' as const }, 'Apache-2.0'],
    ['unmapped free text', { expression: null, classifiers: [], text: 'Custom Licence', spdx: null, source: null }, 'Custom Licence'],
    ['a blank expression, falling back to the mapping', { expression: ' ', classifiers: [], text: null, spdx: 'ISC', source: 'classifier' as const }, 'ISC'],
  ])('PyPI: the policy and the license-declared check read one licence — %s', (_case, license, expected) => {
    const overrides = {
      target: { ecosystem: 'pypi' as const, name: 'proj', version: '1.0', input: 'pypi:proj', purl: null, repository: null },
      registry: notApplicable('not npm'),
      tarball: notApplicable('not npm'),
      downloads: notApplicable('not npm'),
      dependencies: notApplicable('not npm'),
      attestations: notApplicable('not npm'),
      pypi: { name: 'proj', version: '1.0', license: { ...license, files: null } },
    };
    const fromEvidence = licenseFromEvidence(evidence(overrides));
    expect(fromEvidence).toEqual({ status: 'declared', expression: expected });
    expect(reportOf(overrides).checks.find((c) => c.id === 'license-declared')?.evidence.license).toBe(expected);
  });

  it('licenseFromEvidence: npm manifest, none, unavailable', () => {
    expect(licenseFromEvidence(evidence({ registry: { license: 'ISC' } }))).toEqual({ status: 'declared', expression: 'ISC' });
    expect(licenseFromEvidence(evidence({ registry: { license: null } }))).toEqual({ status: 'none' });
    expect(licenseFromEvidence(evidence({ registry: unavailable('registry timed out') }))).toEqual({
      status: 'unknown',
      reason: 'registry timed out',
    });
  });

  it('licenseFromReport: an error report has no licence check', () => {
    expect(licenseFromReport(notFound())).toEqual({ status: 'unknown', reason: 'the report has no licence-declared check' });
  });
});

describe('applyPolicy: ignore entries', () => {
  const ignoring = (entry: Record<string, unknown>) => policyOf({ ignore: [entry] });

  it('a matching entry makes a failing package ignored, keeping its failures', () => {
    const outcome = decide(deprecated('old-thing', '1.0.0'), ignoring({ package: 'old-thing@^1.0.0', reason: 'replacing it in Q3', expires: '2026-09-30' }));
    expect(outcome.status).toBe('ignored');
    expect(rules(outcome)).toEqual(['capped', 'min-score']);
    expect(outcome.ignoredBy).toEqual({ package: 'old-thing@^1.0.0', reason: 'replacing it in Q3', expires: '2026-09-30' });
  });

  it.each([
    ['old-thing', 'ignored'],
    ['old-thing@1.0.0', 'ignored'],
    ['old-thing@<2', 'ignored'],
    ['npm:old-thing@1.x', 'ignored'],
    ['old-thing@>=1.0.1', 'fail'],
    ['pypi:old-thing', 'fail'],
    ['other-thing', 'fail'],
    ['Old-Thing', 'fail'],
  ])('npm old-thing@1.0.0 with ignore %s → %s', (pkg, status) => {
    expect(decide(deprecated('old-thing', '1.0.0'), ignoring({ package: pkg, reason: 'x' })).status).toBe(status);
  });

  it('npm ranges include pre-releases', () => {
    expect(decide(deprecated('old-thing', '1.1.0-rc.1'), ignoring({ package: 'old-thing@<2', reason: 'x' })).status).toBe('ignored');
  });

  it.each([
    ['requests', 'ignored'],
    ['Requests@>=2.0,<3', 'ignored'],
    ['pypi:requests@2.31.0', 'ignored'],
    ['requests@==2.31.*', 'ignored'],
    ['requests@~=2.30', 'ignored'],
    ['requests@==2.30.0', 'fail'],
    ['requests@^2', 'fail'],
    ['npm:requests', 'fail'],
  ])('PyPI requests==2.31.0 with ignore %s → %s', (pkg, status) => {
    const report = pypiReport('requests', '2.31.0', { spdx: 'Apache-2.0' });
    expect(decide(report, policyOf({ licenses: { allow: ['MIT'] }, ignore: [{ package: pkg, reason: 'x' }] })).status).toBe(status);
  });

  it('PyPI names match after PEP 503 normalisation', () => {
    const report = pypiReport('zope-interface', '6.0', { spdx: 'ZPL-2.1' });
    const policy = policyOf({ licenses: { allow: ['MIT'] }, ignore: [{ package: 'Zope.Interface', reason: 'x' }] });
    expect(decide(report, policy).status).toBe('ignored');
  });

  it('an expired entry no longer applies; an entry is valid through its expiry day', () => {
    const report = deprecated('old-thing', '1.0.0');
    const entry = { package: 'old-thing', reason: 'x', expires: '2026-06-01' };
    expect(decide(report, ignoring(entry), {}, new Date('2026-06-01T23:59:59Z')).status).toBe('ignored');
    expect(decide(report, ignoring(entry), {}, new Date('2026-06-02T00:00:00Z')).status).toBe('fail');
  });

  it('a passing package stays pass even when an entry matches', () => {
    expect(decide(healthy('example'), ignoring({ package: 'example', reason: 'x' }))).toEqual({ status: 'pass', failures: [], ignoredBy: null });
  });

  it('an unevaluated package can be ignored, and so can a dependency-confusion suspicion', () => {
    expect(decide(notFound('ghost-pkg'), ignoring({ package: 'ghost-pkg', reason: 'private package' })).status).toBe('ignored');
    const outcome = decide(healthy('internal'), ignoring({ package: 'internal', reason: 'ours' }), { dependencyConfusion: { message: 'suspicious', at: { file: 'package-lock.json', line: 12 } } });
    expect(outcome.status).toBe('ignored');
    expect(rules(outcome)).toEqual(['dependency-confusion']);
    // The lockfile pin that names the private source stays with the failure.
    expect(outcome.failures[0]?.at).toEqual({ file: 'package-lock.json', line: 12 });
  });

  it('no entry covers a package that is NO — DO NOT USE; refusedIgnores names the entry it did not apply', () => {
    const report = malicious();
    const name = report.target.name;
    const policy = policyOf({ ignore: [{ package: 'other', reason: 'x' }, { package: name, reason: 'we trust it' }] });
    const outcome = decide(report, policy);
    expect(outcome).toMatchObject({ status: 'fail', ignoredBy: null });
    expect(rules(outcome)[0]).toBe('verdict');
    const entries = [{ subject: subjectOf(report), report, policy: outcome }];
    expect(refusedIgnores(entries, policy, NOW).map((w) => [w.code, w.details])).toEqual([
      ['ignore-refused', { index: 1, package: name, target: `${name}@${report.target.version ?? ''}` }],
    ]);
    // A failing package that is not DO NOT USE is covered, and nothing is refused.
    const old = deprecated('old-thing');
    const covering = policyOf({ ignore: [{ package: 'old-thing', reason: 'x' }] });
    const ignored = decide(old, covering);
    expect(ignored.status).toBe('ignored');
    expect(refusedIgnores([{ subject: subjectOf(old), report: old, policy: ignored }], covering, NOW)).toEqual([]);
  });

  it('an expired entry is not refused (it already fails the run as expired)', () => {
    const report = malicious();
    const policy = policyOf({ ignore: [{ package: report.target.name, reason: 'x', expires: '2020-01-01' }] });
    const outcome = decide(report, policy);
    expect(refusedIgnores([{ subject: subjectOf(report), report, policy: outcome }], policy, NOW)).toEqual([]);
  });

  it('a version-less subject is matched by name-only entries only', () => {
    const report = notFound('ghost-pkg', null);
    const subject = subjectOf(report, { version: null, spec: '^1.0.0' });
    const byRange = applyPolicy(report, subject, ignoring({ package: 'ghost-pkg@^1', reason: 'x' }), NOW);
    const byName = applyPolicy(report, subject, ignoring({ package: 'ghost-pkg', reason: 'x' }), NOW);
    expect([byRange.status, byName.status]).toEqual(['error', 'ignored']);
  });
});

describe('expiredIgnores', () => {
  it('names each expired entry with its file, index, package, date and reason', () => {
    const policy = policyOf({
      ignore: [
        { package: 'a@1', reason: 'still valid', expires: '2026-06-01' },
        { package: 'lodash@<4.17.21', reason: 'upgrade blocked by x', expires: '2026-03-01' },
        { package: 'b', reason: 'never expires' },
      ],
    });
    expect(expiredIgnores(policy, NOW)).toEqual([
      '.nerqrc.json: ignore[1] "lodash@<4.17.21" expired on 2026-03-01 (reason: upgrade blocked by x); renew or remove it',
    ]);
    expect(expiredIgnores(policy, new Date('2026-02-01T00:00:00Z'))).toEqual([]);
  });

  it('sanitises what the policy file says', () => {
    const policy = policyOf({ ignore: [{ package: 'x', reason: 'evil\u001b]0;title\u0007\nline', expires: '2020-01-01' }] });
    const [message] = expiredIgnores(policy, NOW);
    expect(message).toBe('.nerqrc.json: ignore[0] "x" expired on 2020-01-01 (reason: evil line); renew or remove it');
  });
});

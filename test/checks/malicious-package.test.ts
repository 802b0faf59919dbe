import { describe, expect, it } from 'vitest';
import check from '../../src/checks/malicious-package.js';
import type { AdvisoryFacts } from '../../src/evidence/schema.js';
import { advisory, dependencyFacts, evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, runCheck } from './check-table.js';

const mal = (overrides: Partial<AdvisoryFacts> = {}) =>
  advisory({
    id: 'MAL-2026-1234',
    aliases: [],
    summary: 'Malicious code in example (npm)',
    severity: 'unknown',
    severitySource: 'none',
    cvss: null,
    cvssVector: null,
    fixed: null,
    malicious: true,
    url: 'https://osv.dev/vulnerability/MAL-2026-1234',
    ...overrides,
  });
const depMal = (overrides: Partial<AdvisoryFacts> = {}) => mal({ id: 'MAL-2026-0042', package: 'dep-a', version: '1.4.2', ...overrides });
const placeholderDeps = dependencyFacts({
  dependencies: [
    { name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false },
    { name: 'dep-b', range: '*', version: '0.0.1-security', reason: null, securityHolding: true },
  ],
});

const maliciousCap = (ids: string) => ({ id: 'malicious', limit: 9.9, doNotUse: true, reason: `known malicious package: ${ids}` });
const dependencyCap = (details: string) => ({
  id: 'malicious-dependency',
  limit: 9.9,
  doNotUse: true,
  reason: `malicious direct dependency: ${details}`,
});

checkTable(check, [
  {
    name: 'nothing known-malicious, dependencies checked',
    evidence: evidence(),
    score: 100,
    messageId: 'clean',
    data: { ids: [], dependencies: [], dependenciesChecked: true, version: '2.1.0' },
  },
  {
    name: 'a MAL- advisory on the resolved version',
    evidence: evidence({ vulnerabilities: { advisories: [mal()] } }),
    score: 0,
    messageId: 'malicious',
    data: { ids: ['MAL-2026-1234'] },
    caps: [maliciousCap('MAL-2026-1234')],
    message: ['Known malicious package: MAL-2026-1234'],
  },
  {
    name: 'a malicious-packages record under a GHSA id (flag set upstream by source), twins once',
    evidence: evidence({
      vulnerabilities: { advisories: [mal({ id: 'GHSA-mal0-0000-0001', aliases: ['MAL-2026-9'] }), mal({ id: 'MAL-2026-9', aliases: ['GHSA-mal0-0000-0001'] })] },
    }),
    score: 0,
    messageId: 'malicious',
    data: { ids: ['GHSA-mal0-0000-0001'] },
    caps: [maliciousCap('GHSA-mal0-0000-0001')],
  },
  {
    name: 'an ordinary advisory (even "maliciously crafted input") is not a malicious record',
    evidence: evidence({
      vulnerabilities: { advisories: [advisory({ summary: 'Maliciously crafted input causes ReDoS', severity: 'critical' })] },
    }),
    score: 100,
    messageId: 'clean',
  },
  {
    name: 'a malicious record for another version only',
    evidence: evidence({ vulnerabilities: { advisories: [mal({ affectsResolved: false })] } }),
    score: 100,
    messageId: 'clean',
  },
  {
    name: 'a direct dependency with a MAL- advisory',
    evidence: evidence({ vulnerabilities: { dependencyAdvisories: [depMal()] } }),
    score: 0,
    messageId: 'malicious-dependency',
    data: { dependencies: ['dep-a'], dependencyIds: ['MAL-2026-0042'], placeholders: [] },
    caps: [dependencyCap('dep-a@1.4.2 (MAL-2026-0042)')],
    message: ['Malicious direct dependency: dep-a@1.4.2 (MAL-2026-0042)'],
  },
  {
    name: 'a direct dependency replaced by a security-holding placeholder',
    evidence: evidence({ dependencies: placeholderDeps }),
    score: 0,
    messageId: 'malicious-dependency',
    data: { dependencies: ['dep-b'], placeholders: ['dep-b'], dependencyIds: [] },
    caps: [dependencyCap('dep-b@0.0.1-security (security-holding placeholder)')],
  },
  {
    name: 'placeholder found even when dependency advisories were not queried',
    evidence: evidence({ dependencies: placeholderDeps, vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 } }),
    score: 0,
    messageId: 'malicious-dependency',
    data: { placeholders: ['dep-b'], dependenciesChecked: false },
    caps: [dependencyCap('dep-b@0.0.1-security (security-holding placeholder)')],
  },
  {
    name: 'placeholder and malicious advisory on dependencies, one entry each',
    evidence: evidence({
      dependencies: placeholderDeps,
      vulnerabilities: { dependencyAdvisories: [depMal(), depMal({ id: 'MAL-2026-0043', package: 'dep-b', version: '0.0.1-security' })] },
    }),
    score: 0,
    messageId: 'malicious-dependency',
    data: { dependencies: ['dep-b', 'dep-a'], dependencyIds: ['MAL-2026-0043', 'MAL-2026-0042'] },
    caps: [dependencyCap('dep-b@0.0.1-security (security-holding placeholder, MAL-2026-0043); dep-a@1.4.2 (MAL-2026-0042)')],
  },
  {
    name: 'malicious itself and through a dependency: both caps, the package message',
    evidence: evidence({ vulnerabilities: { advisories: [mal()], dependencyAdvisories: [depMal()] } }),
    score: 0,
    messageId: 'malicious',
    caps: [
      { ...maliciousCap('MAL-2026-1234'), args: { advisories: 'MAL-2026-1234' } },
      { ...dependencyCap('dep-a@1.4.2 (MAL-2026-0042)'), args: { dependencies: 'dep-a' } },
    ],
  },
  {
    name: 'an ordinary critical advisory in a dependency is not malicious',
    evidence: evidence({ vulnerabilities: { dependencyAdvisories: [depMal({ id: 'GHSA-depa-0000-0001', malicious: false, severity: 'critical' })] } }),
    score: 100,
    messageId: 'clean',
  },
  {
    name: 'dependencies could not be checked: the package alone is clean',
    evidence: evidence({ dependencies: unavailable('HTTP 503'), vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 } }),
    score: 100,
    messageId: 'clean-package-only',
    data: { dependenciesChecked: false },
  },
  {
    name: 'a dependency that could not be resolved was not checked: the package alone is clean',
    evidence: evidence({
      dependencies: dependencyFacts({
        dependencies: [
          { name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false },
          { name: 'dep-b', range: '^9.0.0', version: null, reason: 'not found', securityHolding: false },
        ],
      }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 1 },
    }),
    score: 100,
    messageId: 'clean-package-only',
    data: { dependenciesChecked: false },
  },
  {
    name: 'dependency facts unavailable but registry lists no dependencies: fully checked',
    evidence: evidence({
      registry: { dependencies: 0, dependencyRanges: {} },
      dependencies: unavailable('HTTP 503'),
      vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 },
    }),
    score: 100,
    messageId: 'clean',
    data: { dependenciesChecked: true },
  },
  {
    name: 'registry unavailable: still answers from the vulnerability facts',
    evidence: evidence({ registry: unavailable('HTTP 500'), vulnerabilities: { advisories: [mal()] } }),
    score: 0,
    messageId: 'malicious',
    caps: [maliciousCap('MAL-2026-1234')],
  },
  // PyPI: OSV records in the PyPI ecosystem; the release view gives the version and dependency count.
  {
    name: 'PyPI: a MAL- record for the release',
    evidence: pypiEvidence({
      vulnerabilities: { advisories: [mal({ id: 'MAL-2026-7001', summary: 'Malicious code in example (PyPI)', version: '2.1.0', url: null })] },
    }),
    score: 0,
    messageId: 'malicious',
    data: { ids: ['MAL-2026-7001'], version: '2.1.0', dependenciesChecked: true },
    caps: [maliciousCap('MAL-2026-7001')],
  },
  {
    name: 'PyPI: clean, its one requirement checked',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'clean',
    data: { ids: [], version: '2.1.0', dependenciesChecked: true },
  },
  {
    name: 'PyPI: no requirements, dependency resolution unavailable: fully checked',
    evidence: pypiEvidence({
      pypi: { dependencies: [] },
      dependencies: unavailable('PyPI: HTTP 503'),
      vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 },
    }),
    score: 100,
    messageId: 'clean',
    data: { dependenciesChecked: true },
  },
  // A repository target: the dependency set its lockfiles pin (transitive ones too), no version of its own.
  {
    name: 'repository: every pinned dependency checked, none malicious',
    evidence: evidence({
      dependencies: dependencyFacts({ lockfiles: ['package-lock.json'], unpinned: [] }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 2 },
    }),
    score: 100,
    messageId: 'clean-repository',
    data: { pinned: 2, dependenciesChecked: true },
    message: ["No known-malicious record among the 2 dependencies the repository's lockfiles pin"],
  },
  {
    name: 'repository: its pins clean but a Gemfile beside them: not known to be clean',
    evidence: evidence({
      dependencies: dependencyFacts({ lockfiles: ['ui/package-lock.json'], unpinned: [], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 2 },
    }),
    score: null,
    messageId: 'repository-unevaluated',
    data: { pinned: 2, unevaluatedFiles: ['Gemfile'], unevaluatedEcosystems: ['RubyGems'] },
    message: ['Not known to be clean', 'RubyGems (Gemfile)'],
  },
  {
    name: 'repository: only a Gemfile, no dependency nerq reads: not known to be clean (never "declares no dependencies")',
    evidence: evidence({
      dependencies: dependencyFacts({ dependencies: [], lockfiles: [], unpinned: [], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 0 },
    }),
    score: null,
    messageId: 'repository-unevaluated',
    data: { pinned: 0 },
  },
  {
    name: 'repository: OSV could not answer for its PyPI pins (their batch failed): not known to be clean, the npm pins it answered for named',
    evidence: evidence({
      dependencies: dependencyFacts({ lockfiles: ['package-lock.json', 'uv.lock'], unpinned: [] }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 1, dependencyAdvisoriesUnknown: [{ ecosystem: 'PyPI', packages: 1, reason: 'OSV querybatch: HTTP 503' }] },
    }),
    score: null,
    messageId: 'repository-osv-partial',
    data: { dependenciesChecked: false, osvUnknownCount: 1, answered: 1 },
    message: ['Not known to be clean', '1 PyPI: HTTP 503'],
  },
  {
    name: 'repository: OSV could not answer for its PyPI pins, but an npm pin is malicious: still DO NOT USE',
    evidence: evidence({
      dependencies: dependencyFacts({ lockfiles: ['package-lock.json', 'uv.lock'], unpinned: [] }),
      vulnerabilities: { dependencyAdvisories: [depMal()], dependenciesQueried: 1, dependencyAdvisoriesUnknown: [{ ecosystem: 'PyPI', packages: 1, reason: 'OSV querybatch: HTTP 503' }] },
    }),
    score: 0,
    messageId: 'malicious-locked-dependency',
    caps: [{ ...dependencyCap('x'), reason: "malicious dependency in the repository's lockfiles: dep-a@1.4.2 (MAL-2026-0042)", args: { dependencies: 'dep-a' } }],
  },
  {
    name: 'repository: a malicious transitive pin is named as a lockfile dependency, not a direct one',
    evidence: evidence({
      dependencies: dependencyFacts({ lockfiles: ['package-lock.json'], unpinned: [] }),
      vulnerabilities: { dependencyAdvisories: [depMal()], dependenciesQueried: 2 },
    }),
    score: 0,
    messageId: 'malicious-locked-dependency',
    caps: [{ ...dependencyCap('x'), reason: "malicious dependency in the repository's lockfiles: dep-a@1.4.2 (MAL-2026-0042)", args: { dependencies: 'dep-a' } }],
  },
  {
    name: 'repository: a manifest no lockfile pins leaves it unknown, never clean',
    evidence: evidence({
      dependencies: dependencyFacts({
        lockfiles: [],
        unpinned: ['package.json'],
        dependencies: [{ name: 'dep-a', range: '^1.0.0', version: null, reason: null, securityHolding: false }],
      }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 0 },
    }),
    score: null,
    messageId: 'repository-unchecked',
    data: { pinned: 0, dependenciesChecked: false },
  },
  {
    name: 'repository: every direct range resolved and checked, no lockfile: the transitive dependencies leave it unknown',
    evidence: evidence({
      dependencies: dependencyFacts({
        lockfiles: [],
        unpinned: ['package.json'],
        dependencies: [{ name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false, file: 'package.json', resolvedFromRange: true }],
      }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 1 },
    }),
    score: null,
    messageId: 'repository-direct-only',
    data: { pinned: 1, rangeResolved: 1, rangeFiles: 'package.json', dependenciesChecked: true },
  },
  {
    name: 'repository: a malicious direct dependency resolved from its range still scores 0',
    evidence: evidence({
      dependencies: dependencyFacts({
        lockfiles: [],
        unpinned: ['package.json'],
        dependencies: [{ name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false, file: 'package.json', resolvedFromRange: true }],
      }),
      vulnerabilities: { dependencyAdvisories: [depMal()], dependenciesQueried: 1 },
    }),
    score: 0,
    messageId: 'malicious-resolved-dependency',
    data: { details: ['dep-a@1.4.2 (resolved from range ^1.0.0, direct only, MAL-2026-0042)'] },
    caps: [
      {
        ...dependencyCap('x'),
        reason: "malicious dependency among the repository's dependencies: dep-a@1.4.2 (resolved from range ^1.0.0, direct only, MAL-2026-0042)",
        args: { dependencies: 'dep-a' },
      },
    ],
  },
  {
    // One name and version in two ecosystems, a malicious record for each: two dependencies, not one with two ids.
    name: 'repository: an npm package and a crate of one name, each with its own malicious record: two findings',
    evidence: evidence({
      dependencies: dependencyFacts({
        lockfiles: ['package-lock.json', 'Cargo.lock'],
        unpinned: [],
        dependencies: [
          { name: 'dep-a', range: '1.4.2', version: '1.4.2', reason: null, securityHolding: false, ecosystem: 'npm', file: 'package-lock.json' },
          { name: 'dep-a', range: '1.4.2', version: '1.4.2', reason: null, securityHolding: false, ecosystem: 'cargo', file: 'Cargo.lock' },
        ],
      }),
      vulnerabilities: { dependencyAdvisories: [depMal({ ecosystem: 'npm' }), depMal({ id: 'MAL-2026-0099', ecosystem: 'cargo' })], dependenciesQueried: 2 },
    }),
    score: 0,
    messageId: 'malicious-locked-dependency',
    data: { dependencies: ['dep-a', 'dep-a'], dependencyIds: ['MAL-2026-0042', 'MAL-2026-0099'], details: ['npm: dep-a@1.4.2 (MAL-2026-0042)', 'crates.io: dep-a@1.4.2 (MAL-2026-0099)'] },
    caps: [
      {
        ...dependencyCap('x'),
        reason: "malicious dependency in the repository's lockfiles: npm: dep-a@1.4.2 (MAL-2026-0042); crates.io: dep-a@1.4.2 (MAL-2026-0099)",
        args: { dependencies: 'dep-a, dep-a' },
      },
    ],
  },
  {
    name: 'repository: no dependencies at all',
    evidence: evidence({ dependencies: dependencyFacts({ lockfiles: [], unpinned: [], dependencies: [] }), vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 0 } }),
    score: 100,
    messageId: 'no-dependencies',
  },
]);

describe('malicious-package', () => {
  it('guards danger and is unknown when the vulnerability source is unavailable', () => {
    expect(check.guardsDanger).toBe(true);
    expect(runCheck(check, evidence({ vulnerabilities: unavailable('OSV: HTTP 503') }))).toEqual({ kind: 'unknown-source', source: 'vulnerabilities' });
  });
});

import { describe, expect, it } from 'vitest';
import check from '../../src/checks/vulnerable-dependencies.js';
import type { AdvisoryFacts, Severity } from '../../src/evidence/schema.js';
import { advisory, dependencyFacts, evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, runCheck } from './check-table.js';

/** An advisory on dep-a@1.4.2 (or another dependency). */
const depAdvisory = (overrides: Partial<AdvisoryFacts> = {}) =>
  advisory({ id: 'GHSA-depa-0000-0001', aliases: [], package: 'dep-a', version: '1.4.2', fixed: '1.4.3', ...overrides });
const withDependencyAdvisories = (...dependencyAdvisories: AdvisoryFacts[]) => evidence({ vulnerabilities: { dependencyAdvisories } });
const worst = (severity: Severity) => withDependencyAdvisories(depAdvisory({ severity }));
/** One entry of a repository's dependency set. */
const entry = (name: string, version: string | null, dev: boolean, path?: string[], range?: string) => ({
  name,
  range: range ?? version ?? '',
  version,
  reason: version === null ? 'not pinned: no lockfile covers package.json' : null,
  securityHolding: false,
  ecosystem: 'npm' as const,
  dev,
  ...(path === undefined ? {} : { path }),
  file: version === null ? 'package.json' : 'package-lock.json',
});
/** A repository target's evidence: its dependency set and the advisories OSV gave for it. */
const repository = (
  dependencies: (ReturnType<typeof entry> & { resolvedFromRange?: boolean })[],
  dependencyAdvisories: AdvisoryFacts[],
  set: { unpinned: string[]; lockfiles: string[]; unevaluated?: { file: string; ecosystem: string }[] } = { unpinned: [], lockfiles: ['package-lock.json'] },
) =>
  evidence({
    dependencies: { dependencies, ...set },
    vulnerabilities: { advisories: [], dependencyAdvisories, dependenciesQueried: dependencies.filter((d) => d.version !== null).length, ownAsked: false },
  });


checkTable(check, [
  {
    name: 'no runtime dependencies',
    evidence: evidence({ dependencies: { dependencies: [] }, vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 0 } }),
    score: 100,
    messageId: 'no-dependencies',
    data: { total: 0 },
  },
  {
    name: 'no runtime dependencies, even when nothing was queried',
    evidence: evidence({ dependencies: { dependencies: [] }, vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 } }),
    score: 100,
    messageId: 'no-dependencies',
  },
  {
    name: 'dependencies not queried: unknown',
    evidence: evidence({ vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0 } }),
    score: null,
    messageId: 'not-queried',
    data: { total: 2, dependenciesQueried: 0 },
  },
  {
    name: "dependencies resolved but OSV could not answer for them: unknown, with OSV's reason",
    evidence: evidence({
      vulnerabilities: { dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: 'OSV querybatch: HTTP 503 from osv.test' },
    }),
    score: null,
    messageId: 'advisories-unknown',
    // The reason in a user's words, without the request's internal name (the facts keep it).
    data: { total: 2, unresolved: [], reason: 'HTTP 503 from osv.test' },
    message: ['Dependency advisories unknown: HTTP 503 from osv.test'],
  },
  {
    name: 'dependencies queried, no advisory',
    evidence: evidence(),
    score: 100,
    messageId: 'clean',
    data: { total: 2, dependenciesQueried: 2, dependencies: [], ids: [], worst: null },
    message: ['2 direct dependencies queried'],
  },
  {
    name: 'worst low: 70',
    evidence: worst('low'),
    score: 70,
    messageId: 'vulnerable',
    data: { worst: 'low', dependencies: ['dep-a'], ids: ['GHSA-depa-0000-0001'], affected: 1, advisories: 1, dependenciesQueried: 2 },
    message: ['1 of 2 direct dependencies', 'dep-a@1.4.2 (GHSA-depa-0000-0001)'],
  },
  { name: 'worst moderate: 70', evidence: worst('moderate'), score: 70, messageId: 'vulnerable', data: { worst: 'moderate' } },
  { name: 'worst high: 40, no cap', evidence: worst('high'), score: 40, messageId: 'vulnerable', data: { worst: 'high' } },
  {
    name: 'worst severity unknown: treated as high',
    evidence: worst('unknown'),
    score: 40,
    messageId: 'vulnerable',
    data: { worst: 'unknown' },
    message: ['severity unknown, treated as high'],
  },
  {
    name: 'a critical advisory in a dependency: 20, and still no cap on the target',
    evidence: worst('critical'),
    score: 20,
    messageId: 'vulnerable',
    data: { worst: 'critical' },
    message: ['worst critical'],
  },
  {
    name: 'several dependencies: the worst severity decides; grouped per dependency',
    evidence: withDependencyAdvisories(
      depAdvisory({ severity: 'low' }),
      depAdvisory({ id: 'GHSA-depb-0000-0002', package: 'dep-b', version: '2.3.9', severity: 'critical' }),
      depAdvisory({ id: 'GHSA-depa-0000-0003', severity: 'moderate' }),
    ),
    score: 20,
    messageId: 'vulnerable',
    data: {
      affected: 2,
      advisories: 3,
      dependencies: ['dep-a', 'dep-b'],
      ids: ['GHSA-depa-0000-0001', 'GHSA-depb-0000-0002', 'GHSA-depa-0000-0003'],
      worst: 'critical',
      details: ['dep-a@1.4.2 (GHSA-depa-0000-0001, GHSA-depa-0000-0003)', 'dep-b@2.3.9 (GHSA-depb-0000-0002)'],
    },
    message: ['2 of 2 direct dependencies'],
  },
  {
    name: 'twins merged upstream: one advisory with aliases counts once',
    evidence: withDependencyAdvisories(depAdvisory({ aliases: ['CVE-2026-2001'] }), depAdvisory({ id: 'CVE-2026-2001', aliases: ['GHSA-depa-0000-0001'] })),
    score: 40,
    messageId: 'vulnerable',
    data: { advisories: 1, ids: ['GHSA-depa-0000-0001'] },
  },
  {
    name: 'malicious records are left to malicious-package',
    evidence: withDependencyAdvisories(depAdvisory({ id: 'MAL-2026-7', malicious: true, severity: 'critical' })),
    score: 100,
    messageId: 'clean',
  },
  {
    name: 'an advisory that does not affect the installed version is not counted',
    evidence: withDependencyAdvisories(depAdvisory({ affectsResolved: false })),
    score: 100,
    messageId: 'clean',
  },
  {
    name: 'unresolved dependencies are listed',
    evidence: evidence({
      dependencies: dependencyFacts({
        dependencies: [
          { name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false },
          { name: 'dep-b', range: '^9.0.0', version: null, reason: 'no version matches ^9.0.0', securityHolding: false },
        ],
      }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 1 },
    }),
    score: 100,
    messageId: 'clean-partial',
    data: { unresolved: ['dep-b'], dependenciesQueried: 1, total: 2 },
    message: ['1 of 2', 'not resolved: dep-b'],
  },
  {
    name: 'more than half unresolved → unknown, not a clean bill',
    evidence: evidence({
      dependencies: dependencyFacts({
        dependencies: [
          { name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false },
          { name: 'dep-b', range: '^9.0.0', version: null, reason: 'not found', securityHolding: false },
          { name: 'dep-c', range: '^9.0.0', version: null, reason: 'not found', securityHolding: false },
        ],
      }),
      vulnerabilities: { dependencyAdvisories: [], dependenciesQueried: 1 },
    }),
    score: null,
    messageId: 'not-queried',
    data: { unresolved: ['dep-b', 'dep-c'], total: 3 },
  },
  // PyPI: the requirement resolved as pip would install it today.
  {
    name: 'PyPI: an advisory on the one requirement',
    evidence: pypiEvidence({
      vulnerabilities: { dependencyAdvisories: [depAdvisory({ id: 'PYSEC-2026-9', severity: 'high', fixed: '1.5' })], dependenciesQueried: 1 },
    }),
    score: 40,
    messageId: 'vulnerable',
    data: { total: 1, affected: 1, dependencies: ['dep-a'], ids: ['PYSEC-2026-9'], worst: 'high' },
    message: ['dep-a@1.4.2 (PYSEC-2026-9)'],
  },
  {
    name: 'PyPI: the requirement queried, no advisory',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'clean',
    data: { total: 1, dependenciesQueried: 1 },
  },
  {
    name: 'a repository whose manifest no lockfile pins: unknown, naming the manifest',
    evidence: repository([entry('express', null, false, undefined, '^4.18.0'), entry('vitest', null, true, undefined, '^3.0.0')], [], { unpinned: ['package.json'], lockfiles: [] }),
    score: null,
    messageId: 'unpinned',
    data: { total: 2, unpinned: ['package.json'], unpinnedFiles: 'package.json' },
  },
  {
    name: 'a repository whose manifest no lockfile pins, its ranges resolved: clean only for the direct dependencies, said so',
    evidence: repository(
      [
        { ...entry('express', '4.21.2', false, [], '^4.18.0'), file: 'package.json', resolvedFromRange: true },
        { ...entry('vitest', '3.2.4', true, [], '^3.0.0'), file: 'package.json', resolvedFromRange: true },
        entry('left-pad', null, false, [], '^1.0.0'),
      ],
      [],
      { unpinned: ['package.json'], lockfiles: [] },
    ),
    score: 100,
    messageId: 'repository-clean-ranges',
    data: { dependenciesQueried: 2, rangeResolved: 2, rangeFiles: 'package.json', directOnly: true, notResolved: 'left-pad' },
    message: ['resolved from ranges, direct only', 'not resolved: left-pad'],
  },
  {
    name: 'a repository whose ranges resolved to a vulnerable version: the advisory says the version came from a range',
    evidence: repository(
      [{ ...entry('widget-core', '1.4.0', false, [], '^1.2.0'), file: 'package.json', resolvedFromRange: true }],
      [advisory({ id: 'GHSA-wdgt-0000-0001', aliases: [], package: 'widget-core', version: '1.4.0', fixed: '1.4.1', severity: 'high' })],
      { unpinned: ['package.json'], lockfiles: [] },
    ),
    score: 40,
    messageId: 'repository-vulnerable',
    data: { worst: 'high', directOnly: true, details: ['widget-core@1.4.0 (resolved from range ^1.2.0, direct only, GHSA-wdgt-0000-0001 fixed in 1.4.1)'] },
  },
  {
    name: 'a repository whose only manifest is a Gemfile: unknown, naming it, never "no dependencies"',
    evidence: repository([], [], { unpinned: [], lockfiles: [], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] }),
    score: null,
    messageId: 'repository-unevaluated',
    data: { unevaluatedEcosystems: ['RubyGems'], unevaluatedFiles: ['Gemfile'], dependenciesQueried: 0 },
    message: ['RubyGems (Gemfile)', 'checked beside them: 0'],
  },
  {
    name: 'a Go repository with a locked npm UI: no advisory in the npm pins is not a clean bill',
    evidence: repository([entry('express', '4.18.2', false, [])], [], { unpinned: [], lockfiles: ['ui/package-lock.json'], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] }),
    score: null,
    messageId: 'repository-unevaluated',
    data: { unevaluatedFiles: ['Gemfile'], dependenciesQueried: 1 },
    message: ['checked beside them: 1, none with a known advisory'],
  },
  {
    name: 'a Go repository with a locked npm UI: an npm advisory is still a finding',
    evidence: repository(
      [entry('express', '4.18.2', false, [])],
      [advisory({ id: 'GHSA-expr-0000-0001', aliases: [], package: 'express', version: '4.18.2', fixed: '4.19.0', severity: 'high' })],
      { unpinned: [], lockfiles: ['ui/package-lock.json'], unevaluated: [{ file: 'Gemfile', ecosystem: 'RubyGems' }] },
    ),
    score: 40,
    messageId: 'repository-vulnerable',
    data: { ids: ['GHSA-expr-0000-0001'], unevaluatedFiles: ['Gemfile'] },
  },
  {
    name: 'a repository whose PyPI batch OSV could not answer: no advisory in its npm pins is not a clean bill',
    evidence: evidence({
      dependencies: { dependencies: [entry('express', '4.18.2', false, []), { ...entry('mcp', '1.9.0', false, []), ecosystem: 'pypi' }], unpinned: [], lockfiles: ['package-lock.json', 'uv.lock'] },
      vulnerabilities: { advisories: [], dependencyAdvisories: [], dependenciesQueried: 1, ownAsked: false, dependencyAdvisoriesUnknown: [{ ecosystem: 'PyPI', packages: 1, reason: 'OSV querybatch: HTTP 503' }] },
    }),
    score: null,
    messageId: 'repository-osv-partial',
    data: { osvUnknownCount: 1, osvUnknownEcosystems: ['PyPI'], dependenciesQueried: 1 },
    message: ['1 PyPI: HTTP 503'],
  },
  {
    name: 'a repository whose PyPI batch OSV could not answer: an advisory in its npm pins is still a finding',
    evidence: evidence({
      dependencies: { dependencies: [entry('express', '4.18.2', false, []), { ...entry('mcp', '1.9.0', false, []), ecosystem: 'pypi' }], unpinned: [], lockfiles: ['package-lock.json', 'uv.lock'] },
      vulnerabilities: {
        advisories: [],
        dependencyAdvisories: [advisory({ id: 'GHSA-expr-0000-0001', aliases: [], package: 'express', version: '4.18.2', fixed: '4.19.0', severity: 'high' })],
        dependenciesQueried: 1,
        ownAsked: false,
        dependencyAdvisoriesUnknown: [{ ecosystem: 'PyPI', packages: 1, reason: 'OSV querybatch: HTTP 503' }],
      },
    }),
    score: 40,
    messageId: 'repository-vulnerable',
    data: { ids: ['GHSA-expr-0000-0001'], osvUnknownCount: 1 },
  },
  {
    name: 'a repository: no advisory in the pinned set',
    evidence: repository([entry('express', '4.18.2', false, []), entry('path-to-regexp', '0.1.7', false, ['express'])], []),
    score: 100,
    messageId: 'repository-clean',
    data: { dependenciesQueried: 2, ids: [], devIds: [] },
  },
  {
    name: 'a repository: a high advisory on a transitive runtime dependency, named with its path and fix; a dev one apart',
    evidence: repository(
      [entry('express', '4.18.2', false, []), entry('path-to-regexp', '0.1.7', false, ['express']), entry('vitest', '3.0.1', true, [])],
      [
        advisory({ id: 'GHSA-ptr0-0000-0001', aliases: [], package: 'path-to-regexp', version: '0.1.7', fixed: '0.1.12', severity: 'high' }),
        advisory({ id: 'GHSA-vite-0000-0002', aliases: [], package: 'vitest', version: '3.0.1', fixed: '3.0.5', severity: 'critical' }),
      ],
    ),
    score: 40,
    messageId: 'repository-vulnerable',
    data: {
      worst: 'high',
      ids: ['GHSA-ptr0-0000-0001'],
      details: ['express › path-to-regexp@0.1.7 (GHSA-ptr0-0000-0001 fixed in 0.1.12)'],
      devIds: ['GHSA-vite-0000-0002'],
      devDetails: ['vitest@3.0.1 (GHSA-vite-0000-0002 fixed in 3.0.5)'],
    },
  },
  {
    name: 'a repository: a critical advisory only in a development dependency weighs less (70)',
    evidence: repository(
      [entry('express', '4.18.2', false, []), entry('vitest', '3.0.1', true, [])],
      [advisory({ id: 'GHSA-vite-0000-0002', aliases: [], package: 'vitest', version: '3.0.1', fixed: null, severity: 'critical' })],
    ),
    score: 70,
    messageId: 'repository-dev-only',
    data: { ids: [], devWorst: 'critical', devDetails: ['vitest@3.0.1 (GHSA-vite-0000-0002 no fix)'] },
  },
]);

describe('vulnerable-dependencies', () => {
  it('never asks for a cap and does not guard danger', () => {
    expect(check.guardsDanger).toBeUndefined();
    for (const severity of ['critical', 'high', 'unknown'] as const) {
      const ran = runCheck(check, worst(severity));
      expect(ran.kind === 'outcome' && (ran.outcome.caps ?? [])).toEqual([]);
    }
  });

  it('is unknown when either source is unavailable', () => {
    expect(runCheck(check, evidence({ vulnerabilities: unavailable('OSV: timeout') }))).toEqual({ kind: 'unknown-source', source: 'vulnerabilities' });
    expect(runCheck(check, evidence({ dependencies: unavailable('HTTP 503') }))).toEqual({ kind: 'unknown-source', source: 'dependencies' });
  });
});

import { describe, expect, it } from 'vitest';
import check, { EXTRAS_ONLY_SCORE } from '../../src/checks/unvouched-dependencies.js';
import type { NonRegistryDependency, PypiDirectReference } from '../../src/evidence/schema.js';
import { evidence, manifestOf, registryFacts, tarballFacts } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf, runCheck } from './check-table.js';

const git: NonRegistryDependency = { name: 'helper', spec: 'github:evil/helper', kind: 'git', field: 'dependencies' };
const url: NonRegistryDependency = { name: 'blob', spec: 'https://evil.example/blob.tgz', kind: 'url', field: 'optionalDependencies' };

const pyGit: PypiDirectReference = { name: 'helper', url: 'git+https://git.example/evil/helper.git@main', kind: 'git', extraOnly: false };
const pyDev: PypiDirectReference = { name: 'devtool', url: 'https://files.example/devtool-1.0.tar.gz', kind: 'url', extraOnly: true };

checkTable(check, [
  { name: 'registry ranges only', evidence: evidence(), score: 100, messageId: 'none', data: { dependencies: [], extras: [] } },
  {
    name: 'a git dependency in the packument',
    evidence: evidence({ registry: { nonRegistryDependencies: [git] } }),
    score: 20,
    messageId: 'some',
    data: { count: 1, dependencies: ['helper (git: github:evil/helper)'], extras: [] },
    message: ['helper'],
  },
  {
    name: 'a URL only in the tarball, the git one in both (listed once)',
    evidence: evidence({
      registry: { nonRegistryDependencies: [git] },
      tarball: tarballFacts({ manifest: { ...manifestOf(registryFacts()), nonRegistryDependencies: [git, url] } }),
    }),
    score: 20,
    messageId: 'some',
    data: { count: 2, dependencies: ['helper (git: github:evil/helper)', 'blob (url: https://evil.example/blob.tgz)'] },
  },
  {
    name: 'the tarball unavailable: the packument alone decides',
    evidence: evidence({ registry: { nonRegistryDependencies: [url] }, tarball: { status: 'unavailable', reason: 'tarball: timeout' } }),
    score: 20,
    messageId: 'some',
    data: { count: 1 },
  },
  { name: 'PyPI: version specifiers only', evidence: pypiEvidence(), score: 100, messageId: 'none', data: { dependencies: [], extras: [] } },
  {
    name: 'PyPI: a runtime direct reference (git), and one under an extra listed apart',
    evidence: pypiEvidence({ pypi: { directReferences: [pyGit, pyDev] } }),
    score: 20,
    messageId: 'some',
    data: {
      count: 1,
      dependencies: ['helper (git: git+https://git.example/evil/helper.git@main)'],
      extras: ['devtool (url: https://files.example/devtool-1.0.tar.gz)'],
    },
    message: ['helper'],
  },
  {
    name: 'PyPI evidence saved before direct references were recorded: the runtime ones are read from its dependencies',
    evidence: pypiEvidence({
      pypi: {
        directReferences: undefined,
        dependencies: [
          { name: 'dep-a', specifier: '>=1.0', marker: null },
          { name: 'helper', specifier: '@ git+https://ci:s3cr3t@git.example/evil/helper.git', marker: null },
        ],
      },
    }),
    score: 20,
    messageId: 'some',
    data: { count: 1, dependencies: ['helper (git: git+https://git.example/evil/helper.git)'], extras: [] },
  },
  {
    name: 'PyPI: direct references only under extras weigh less',
    evidence: pypiEvidence({ pypi: { directReferences: [pyDev] } }),
    score: EXTRAS_ONLY_SCORE,
    messageId: 'extras-only',
    data: { count: 1, dependencies: [], extras: ['devtool (url: https://files.example/devtool-1.0.tar.gz)'] },
    message: ['devtool'],
  },
]);

describe('unvouched-dependencies and the verdict', () => {
  it('holds it for a dependency a plain install fetches, in either ecosystem', () => {
    expect(outcomeOf(check, evidence({ registry: { nonRegistryDependencies: [git] } })).holdVerdict).toMatch(/helper/);
    // A hold says what would lift it (docs/scoring.md §6a).
    expect(outcomeOf(check, evidence({ registry: { nonRegistryDependencies: [git] } })).holdVerdict).toMatch(/; a release that takes them from a registry would lift this$/);
    expect(outcomeOf(check, pypiEvidence({ pypi: { directReferences: [pyGit, pyDev] } })).holdVerdict).toMatch(/helper/);
  });

  it('does not hold it for direct references only an extra installs', () => {
    expect(outcomeOf(check, pypiEvidence({ pypi: { directReferences: [pyDev] } })).holdVerdict).toBeUndefined();
  });

  it('is unknown when the PyPI facts are unavailable (not clean)', () => {
    expect(runCheck(check, pypiEvidence({ pypi: { status: 'unavailable', reason: 'pypi: timeout' } }))).toEqual({ kind: 'unknown-source', source: 'release' });
  });
});

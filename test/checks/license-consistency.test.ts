import { describe, expect, it } from 'vitest';
import check from '../../src/checks/license-consistency.js';
import type { PypiLicense } from '../../src/evidence/schema.js';
import { evidence, githubFacts, notApplicable, NOW, unavailable } from '../support/evidence-builder.js';
import { applies, runCheck } from '../../src/scoring/evaluate.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases, repositoryWith } from './github-cases.js';
import { repoFiles, repoManifest, repositoryEvidence } from '../support/repository-evidence.js';

/** The commit a pinned ref (`github:owner/repo@ref`) resolved to: the files were read there. */
const PINNED = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3';
const repoLicensed = (license: string | null) => githubFacts({ repository: repositoryWith({ license }) });
const npm = (declared: string | null, repository: string | null) =>
  evidence({ registry: { license: declared }, github: repoLicensed(repository) });
const pypi = (license: Partial<PypiLicense>, repository: string | null) =>
  evidence({
    registry: notApplicable('not an npm package'),
    tarball: notApplicable('not an npm package'),
    pypi: {
      license: { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null, ...license },
    },
    github: repoLicensed(repository),
  });

checkTable(check, [
  {
    name: 'npm MIT, repository MIT',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT', repositoryLicenseId: 'MIT', declaredIds: ['MIT'] },
    message: ["The package licence MIT matches the repository's (MIT)"],
  },
  { name: 'case-insensitive', evidence: npm('mit', 'MIT'), score: 100, messageId: 'consistent', data: { declared: 'MIT' } },
  { name: 'GPL -only matches -or-later', evidence: npm('GPL-3.0-or-later', 'GPL-3.0-only'), score: 100, messageId: 'consistent' },
  {
    name: 'a dual licence that includes the repository licence',
    evidence: npm('(MIT OR Apache-2.0)', 'Apache-2.0'),
    score: 100,
    messageId: 'consistent',
    data: { declaredIds: ['MIT', 'Apache-2.0'] },
  },
  {
    name: 'different licences: both named',
    evidence: npm('MIT', 'GPL-3.0'),
    score: 20,
    messageId: 'different',
    message: ['The package declares MIT but the repository example/example is licensed GPL-3.0'],
  },
  { name: 'UNLICENSED against an open licence', evidence: npm('UNLICENSED', 'MIT'), score: 20, messageId: 'different', message: ['declares UNLICENSED'] },
  { name: 'UNLICENSED and no repository licence agree', evidence: npm('UNLICENSED', null), score: 100, messageId: 'consistent', message: ["(no licence)"] },
  {
    name: 'no licence detected in the repository',
    evidence: npm('MIT', null),
    score: 40,
    messageId: 'repository-none',
    data: { repositoryLicenseId: null },
    message: ['The package declares MIT, but GitHub finds no licence in example/example'],
  },
  {
    name: 'NOASSERTION: unknown',
    evidence: npm('MIT', 'NOASSERTION'),
    score: null,
    messageId: 'repository-unrecognised',
    message: ['Unknown: GitHub could not identify the licence of example/example (NOASSERTION)'],
  },
  {
    name: 'the package declares none: unknown (license-declared scores it)',
    evidence: npm(null, 'MIT'),
    score: null,
    messageId: 'package-unreadable',
    message: ['Unknown: the package licence (none declared) is not an SPDX licence to compare with'],
  },
  { name: 'SEE LICENSE IN: unknown', evidence: npm('SEE LICENSE IN LICENSE.txt', 'MIT'), score: null, messageId: 'package-unreadable', data: { declared: 'SEE LICENSE IN LICENSE.txt' } },
  { name: 'free text: unknown', evidence: npm('Some custom terms', 'MIT'), score: null, messageId: 'package-unreadable' },
  {
    name: 'PyPI SPDX licence matches',
    evidence: pypi({ expression: 'Apache-2.0', spdx: 'Apache-2.0', source: 'expression' }, 'Apache-2.0'),
    score: 100,
    messageId: 'consistent',
  },
  {
    name: 'PyPI licence from a classifier differs',
    evidence: pypi({ classifiers: ['License :: OSI Approved :: BSD License'], spdx: 'BSD-3-Clause', source: 'classifier' }, 'MIT'),
    score: 20,
    messageId: 'different',
    message: ['The package declares BSD-3-Clause but the repository example/example is licensed MIT'],
  },
  {
    name: 'PyPI licence that maps to no SPDX id: unknown',
    evidence: pypi({ text: 'Copyright me, all rights reserved' }, 'MIT'),
    score: null,
    messageId: 'package-unreadable',
    data: { declared: 'none declared' },
  },
  ...githubRuleCases({ sections: [] }),
  // A github: target: its manifests' licences against the licence GitHub detects.
  {
    name: 'repository: package.json MIT, GitHub detects MIT',
    evidence: repositoryEvidence(),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT', repositoryLicense: 'MIT' },
  },
  {
    name: 'repository: manifests MIT, GitHub detects Apache-2.0 (a transitional LICENSE)',
    evidence: repositoryEvidence({ repository: { license: 'Apache-2.0' } }),
    score: 20,
    messageId: 'different',
  },
  {
    name: 'repository: two published manifests declaring different licences',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest(), repoManifest({ path: 'packages/b/package.json', name: 'b', license: 'Apache-2.0' })] }) }),
    score: 40,
    messageId: 'manifests-disagree',
    data: { declared: 'MIT, Apache-2.0' },
  },
  {
    name: 'repository: the root Cargo.toml declares Apache-2.0 where GitHub detects MIT (no package.json or pyproject.toml)',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'Cargo.toml', license: 'Apache-2.0' }] }) }),
    score: 20,
    messageId: 'different',
    data: { declared: 'Apache-2.0', repositoryLicense: 'MIT' },
  },
  {
    name: 'repository: a package.json licence comes before the root Cargo.toml\'s',
    evidence: repositoryEvidence({ files: repoFiles({ declaredLicenses: [{ path: 'Cargo.toml', license: 'Apache-2.0' }] }) }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository: the root pom.xml (junit-team/junit4) declares "Eclipse Public License 1.0", read as EPL-1.0, where GitHub detects EPL-1.0',
    evidence: repositoryEvidence({ repository: { license: 'EPL-1.0' }, files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'pom.xml', license: 'EPL-1.0' }] }) }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'EPL-1.0', repositoryLicense: 'EPL-1.0' },
  },
  {
    name: 'repository: a pom.xml licence name nerq does not map: unknown (declared-unmapped), never guessed nor passed over for the LICENSE file',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'pom.xml', license: null, unmapped: 'BSD' }] }) }),
    score: null,
    messageId: 'declared-unmapped',
    data: { declared: 'BSD' },
  },
  {
    name: 'repository: a gemspec licence that is code is not evaluated; a mapped declaration beside it is compared',
    evidence: repositoryEvidence({
      files: repoFiles({ manifests: [], declaredLicenses: [{ path: 'x.gemspec', license: null, unmapped: 'X::LICENSE (not evaluated)' }, { path: 'src/X/X.csproj', license: 'MIT' }] }),
    }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository: a SEE LICENSE IN pointer beside a published MIT manifest is no disagreement',
    evidence: repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ license: 'SEE LICENSE IN LICENSE', private: true }), repoManifest({ path: 'src/a/package.json', name: 'a' })] }) }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository: no manifest licence, LICENSE-MIT beside UNLICENSE: either applies, GitHub detects Unlicense',
    evidence: repositoryEvidence({
      repository: { license: 'Unlicense' },
      files: repoFiles({ manifests: [], licenseFiles: [{ path: 'COPYING', spdx: null }, { path: 'LICENSE-MIT', spdx: 'MIT' }, { path: 'UNLICENSE', spdx: 'Unlicense' }] }),
    }),
    score: 100,
    messageId: 'consistent',
    data: { declared: 'MIT OR Unlicense', declaredIds: ['MIT', 'Unlicense'] },
  },
  {
    name: 'repository: no manifest licence, one LICENSE holding MIT against a detected Apache-2.0 still differs',
    evidence: repositoryEvidence({ repository: { license: 'Apache-2.0' }, files: repoFiles({ manifests: [] }) }),
    score: 20,
    messageId: 'different',
    data: { declared: 'MIT' },
  },
  {
    name: 'repository: an older GitHub Enterprise answer without the license key: unknown, not "none"',
    evidence: repositoryEvidence({ repository: { license: null, licenseKnown: false } }),
    score: null,
    messageId: 'detection-unknown',
  },
  {
    name: 'repository at a pinned ref: GitHub detects the default branch\'s licence (Apache-2.0), never compared with the ref\'s MIT',
    evidence: repositoryEvidence({ repository: { license: 'Apache-2.0' }, files: repoFiles({ branch: 'v1.0.0', commit: PINNED }) }),
    score: null,
    messageId: 'detection-default-branch',
    data: { declared: 'MIT', defaultBranch: 'main' },
  },
  {
    name: 'repository at a pinned ref: GitHub detects the same licence as the ref\'s, still not claimed consistent',
    evidence: repositoryEvidence({ files: repoFiles({ branch: 'v1.0.0', commit: PINNED }) }),
    score: null,
    messageId: 'detection-default-branch',
  },
  {
    name: 'repository at a pinned ref in evidence saved before the commit was recorded: the files\' branch is the ref, not the default branch',
    evidence: repositoryEvidence({ repository: { license: 'Apache-2.0' }, files: repoFiles({ branch: 'v1.0.0' }) }),
    score: null,
    messageId: 'detection-default-branch',
  },
  {
    name: 'repository at a pinned ref: manifests at the ref that disagree among themselves still score',
    evidence: repositoryEvidence({
      repository: { license: 'MIT' },
      files: repoFiles({ branch: 'v1.0.0', commit: PINNED, manifests: [repoManifest({ license: 'MIT' }), repoManifest({ path: 'src/a/package.json', name: 'a', license: 'ISC' })] }),
    }),
    score: 40,
    messageId: 'manifests-disagree',
    data: { repositoryLicense: null },
  },
  {
    name: 'package: the registry unavailable leaves the declared licence unknown',
    evidence: evidence({ registry: unavailable('HTTP 503'), github: {} }),
    score: null,
    messageId: 'package-unavailable',
  },
]);

describeGithubSource(check);

describe('license-consistency and repository targets', () => {
  it('applies to a github: target with a declared licence, and is left out when nothing names one', () => {
    expect(applies(check, repositoryEvidence())).toBe(true);
    expect(applies(check, evidence({ github: {} }))).toBe(true);
    const nothing = repositoryEvidence({ files: repoFiles({ manifests: [repoManifest({ license: null })], licenseFiles: [] }) });
    expect(runCheck(check, nothing, { now: NOW })).toMatchObject({ notApplicable: true });
  });
});

import { describe, expect, it } from 'vitest';
import check, { repositoryKey } from '../../src/checks/provenance.js';
import { attestationFacts, evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

const declaring = (url: string | null, raw = 'git+https://github.com/example/example.git') =>
  ({ raw, host: url === null ? null : 'github', url, slug: null, directory: null }) as const;

checkTable(check, [
  {
    name: 'built from the declared repository, signature not verified',
    evidence: evidence(),
    score: 100,
    messageId: 'matches',
    data: {
      repository: 'https://github.com/example/example',
      declaredRepository: 'https://github.com/example/example',
      workflow: '.github/workflows/release.yml',
      commit: '0123456789abcdef0123456789abcdef01234567',
      verified: false,
      signatures: 1,
      predicateType: 'https://slsa.dev/provenance/v1',
    },
    message: ['Built from https://github.com/example/example by .github/workflows/release.yml (attestation found, signature not verified)'],
  },
  {
    name: 'built from the declared repository, verified',
    evidence: evidence({ attestations: attestationFacts({ verified: true }) }),
    score: 100,
    messageId: 'matches-verified',
    data: { verified: true },
    message: ['(attestation verified)'],
  },
  {
    name: 'comparison ignores case, .git, trailing slash, git+ and a SLSA @ref suffix',
    evidence: evidence({
      registry: { repository: declaring(null, 'git+https://GitHub.com/Example/Example.git/') },
      attestations: attestationFacts({ sourceRepository: 'git+https://github.com/example/example@refs/tags/v2.1.0' }),
    }),
    score: 100,
    messageId: 'matches',
    data: { declaredRepository: 'git+https://GitHub.com/Example/Example.git/' },
  },
  {
    name: 'provenance from another repository: a red flag',
    evidence: evidence({ attestations: attestationFacts({ sourceRepository: 'https://github.com/mallory/example' }) }),
    score: 10,
    messageId: 'mismatch',
    data: { repository: 'https://github.com/mallory/example', declaredRepository: 'https://github.com/example/example' },
    message: ['built from https://github.com/mallory/example but the package declares https://github.com/example/example: a red flag'],
  },
  {
    name: 'same owner/repo on another host is a mismatch',
    evidence: evidence({ attestations: attestationFacts({ sourceRepository: 'https://gitlab.com/example/example' }) }),
    score: 10,
    messageId: 'mismatch',
  },
  {
    name: 'no declared repository to compare with',
    evidence: evidence({ registry: { repository: null } }),
    score: 80,
    messageId: 'undeclared',
    data: { declaredRepository: null, repository: 'https://github.com/example/example' },
    message: ['declares no repository'],
  },
  {
    name: 'a declared repository that is not a URL counts as undeclared',
    evidence: evidence({ registry: { repository: declaring(null, 'see README') } }),
    score: 80,
    messageId: 'undeclared',
  },
  {
    name: 'attestation listed, details unavailable',
    evidence: evidence({ attestations: unavailable('HTTP 503') }),
    score: 90,
    messageId: 'details-unavailable',
    data: { predicateType: 'https://slsa.dev/provenance/v1', signatures: 1 },
  },
  {
    name: 'attestation names no source repository',
    evidence: evidence({ attestations: attestationFacts({ sourceRepository: null, workflow: null }) }),
    score: 90,
    messageId: 'no-source',
    data: { repository: null, workflow: null },
  },
  {
    name: 'attestations without a SLSA provenance statement',
    evidence: evidence({ attestations: attestationFacts({ provenance: false, predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1' }) }),
    score: 90,
    messageId: 'no-source',
  },
  {
    name: 'no workflow named',
    evidence: evidence({ attestations: attestationFacts({ workflow: null }) }),
    score: 100,
    messageId: 'matches',
    data: { workflow: null },
    message: ['by an unnamed workflow'],
  },
  {
    name: 'no attestation: registry signatures alone earn nothing',
    evidence: evidence({ registry: { attestations: null, signatures: 2 } }),
    score: 50,
    messageId: 'none',
    data: { signatures: 2 },
    message: ['the build cannot be traced to a source commit'],
  },
  {
    name: 'no attestation on the registry: the attestations facts are not consulted',
    evidence: evidence({ registry: { attestations: null, signatures: 0 }, attestations: attestationFacts({ sourceRepository: 'https://github.com/mallory/x' }) }),
    score: 50,
    messageId: 'none',
  },
  {
    name: 'no attestation on a release published the day before npm offered provenance: does not apply',
    evidence: evidence({ registry: { attestations: null, versions: [{ version: '2.0.1', time: '2022-01-01T00:00:00.000Z' }, { version: '2.1.0', time: '2023-04-18T23:59:59.000Z' }] } }),
    score: null,
    messageId: 'predates',
  },
  {
    name: 'no attestation on a release published the day npm offered provenance: scored',
    evidence: evidence({ registry: { attestations: null, versions: [{ version: '2.1.0', time: '2023-04-19T00:00:00.000Z' }] } }),
    score: 50,
    messageId: 'none',
  },
  {
    name: 'no attestation and no publish time: scored (nothing says it predates)',
    evidence: evidence({ registry: { attestations: null, versions: [{ version: '2.1.0', time: null }] } }),
    score: 50,
    messageId: 'none',
  },
  {
    name: 'no attestation listed in a trimmed packument (a mirror leaves dist.attestations out): unknown, not missing',
    evidence: evidence({ registry: { attestations: null, trimmed: true, maintainers: null, maintainerNames: null } }),
    score: null,
    messageId: 'not-in-packument',
    message: ['Provenance unknown', 'without its provenance attestations'],
  },
  {
    name: 'an attestation listed in a trimmed packument is read as any other',
    evidence: evidence({ registry: { trimmed: true } }),
    score: 100,
    messageId: 'matches',
  },
  // PyPI: PEP 740 provenance on the release files; the repository from the project URLs.
  {
    name: 'PyPI: built from the repository the project URLs name',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'matches',
    data: { repository: 'https://github.com/example/example', declaredRepository: 'https://github.com/example/example', signatures: null },
  },
  {
    name: 'PyPI: Trusted Publisher in another repository: a red flag',
    evidence: pypiEvidence({ attestations: attestationFacts({ sourceRepository: 'https://github.com/mallory/example' }) }),
    score: 10,
    messageId: 'mismatch',
  },
  {
    name: 'PyPI: no file carries provenance',
    evidence: pypiEvidence({ pypi: { files: [{ filename: 'example-2.1.0.tar.gz', packagetype: 'sdist', size: 10, uploadTime: null, yanked: false, hasProvenance: false }] } }),
    score: 50,
    messageId: 'none',
    data: { signatures: null },
  },
  {
    name: 'PyPI: no provenance on a release uploaded before PyPI offered attestations: does not apply',
    evidence: pypiEvidence({
      pypi: {
        releases: [{ version: '2.1.0', time: '2024-11-13T12:00:00.000Z', prerelease: false, yanked: false, yankedReason: null, files: 1 }],
        files: [{ filename: 'example-2.1.0.tar.gz', packagetype: 'sdist', size: 10, uploadTime: null, yanked: false, hasProvenance: false }],
      },
    }),
    score: null,
    messageId: 'predates',
  },
  {
    name: 'PyPI: provenance listed, the integrity API unavailable',
    evidence: pypiEvidence({ attestations: unavailable('PyPI integrity API: HTTP 503') }),
    score: 90,
    messageId: 'details-unavailable',
  },
  {
    name: 'PyPI did not say whether the files carry provenance',
    evidence: pypiEvidence({ pypi: { files: [{ filename: 'example-2.1.0.tar.gz', packagetype: 'sdist', size: 10, uploadTime: null, yanked: false, hasProvenance: null }] } }),
    score: null,
    messageId: 'unknown',
    message: ['Provenance unknown'],
  },
]);

describe('repositoryKey', () => {
  it.each([
    ['https://github.com/Example/Example', 'github.com/example/example'],
    ['git+https://github.com/example/example.git', 'github.com/example/example'],
    ['git@github.com:example/example.git', 'github.com/example/example'],
    ['github:example/example', 'github.com/example/example'],
    ['https://github.com/sigstore/sigstore-js@refs/tags/v1.0.0', 'github.com/sigstore/sigstore-js'],
    ['https://github.com/example/example@0123456789abcdef0123456789abcdef01234567', 'github.com/example/example'],
    ['https://gitlab.com/group/sub/project.git', 'gitlab.com/group/sub/project'],
    ['https://git.example.org/team/tool.git/', 'git.example.org/team/tool'],
    ['git+https://Git.Example.org/Team/Tool', 'git.example.org/team/tool'],
    ['not a url', null],
    ['https://example.org/', null],
    ['', null],
  ] as const)('%s → %s', (input, key) => {
    expect(repositoryKey(input)).toBe(key);
  });
});

describe('provenance: applicability and the verdict hold', () => {
  it('says the check does not apply to a release that predates provenance, and only then', () => {
    const old = evidence({ registry: { attestations: null, versions: [{ version: '2.1.0', time: '2016-05-01T00:00:00.000Z' }] } });
    expect(outcomeOf(check, old).notApplicable).toBe(true);
    expect(outcomeOf(check, evidence({ registry: { attestations: null } })).notApplicable).toBeUndefined();
  });

  it('holds the verdict when the provenance names another repository', () => {
    const mismatch = evidence({ attestations: attestationFacts({ sourceRepository: 'https://github.com/mallory/example' }) });
    expect(outcomeOf(check, mismatch).holdVerdict).toMatch(/built from https:\/\/github\.com\/mallory\/example while the package declares https:\/\/github\.com\/example\/example/);
    expect(outcomeOf(check, mismatch).holdVerdict).toMatch(/; a release whose provenance names the declared repository would lift this$/);
    expect(outcomeOf(check, evidence()).holdVerdict).toBeUndefined();
  });
});

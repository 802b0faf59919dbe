/**
 * The views: one neutral shape from npm or PyPI facts, `unavailable` with the source's reason,
 * `not-applicable` when the ecosystem has no such facts, derived once per evidence.
 */
import { describe, expect, it } from 'vitest';
import { documentsFromPypi } from '../../../src/checks/views/documents.js';
import { isViewId, VIEWS, viewOf } from '../../../src/checks/views/index.js';
import { releaseFromNpm, releaseFromPypi } from '../../../src/checks/views/release.js';
import { deriveWorkflows } from '../../../src/checks/views/workflows.js';
import { evidence, githubFacts, notApplicable, pypiFacts, registryFacts, tarballFacts, unavailable } from '../../support/evidence-builder.js';
import { repoFiles, repositoryEvidence } from '../../support/repository-evidence.js';
import { pypiEvidence } from '../../support/pypi-evidence.js';

const NO_LICENSE = { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null };

describe('view registry', () => {
  it('lists release, documents, repository and workflows, each with a description', () => {
    expect(Object.keys(VIEWS).sort()).toEqual(['documents', 'release', 'repository', 'workflows']);
    for (const view of Object.values(VIEWS)) expect(view.description.trim()).not.toBe('');
    expect(isViewId('release')).toBe(true);
    expect(isViewId('registry')).toBe(false);
  });

  it('derives a view once per evidence object', () => {
    const ev = pypiEvidence();
    expect(viewOf(ev, 'release')).toBe(viewOf(ev, 'release'));
  });
});

describe('release view', () => {
  it('reads npm facts, with the tarball for binding.gyp and the size', () => {
    const ran = viewOf(evidence({ registry: { unpackedSize: null }, tarball: { bindingGyp: true, unpackedSize: 9_000 } }), 'release');
    expect(ran).toMatchObject({ status: 'ok', facts: { ecosystem: 'npm', name: 'example', version: '2.1.0', unpackedSize: 9_000, installTimeCode: true } });
  });

  it('reads PyPI facts', () => {
    const ran = viewOf(pypiEvidence(), 'release');
    expect(ran).toMatchObject({
      status: 'ok',
      facts: {
        ecosystem: 'pypi',
        version: '2.1.0',
        versionParts: { major: 2, prerelease: false },
        isLatest: true,
        deprecated: false,
        description: 'An example project',
        issuesUrl: 'https://github.com/example/example/issues',
        license: { text: 'MIT', form: 'pypi-expression' },
        dependencies: 1,
        peerDependencies: null,
        unpackedSize: null,
        installTimeCode: false,
        typesDeclared: true,
        maintainers: 2,
        attestation: { url: null, predicateType: null },
        signatures: null,
      },
    });
  });

  it('is unavailable with the source reason, and names the source', () => {
    expect(viewOf(evidence({ registry: unavailable('HTTP 503') }), 'release')).toEqual({ status: 'unavailable', reason: 'HTTP 503', source: 'registry' });
    expect(viewOf(pypiEvidence({ pypi: unavailable('PyPI: timeout') }), 'release')).toEqual({
      status: 'unavailable',
      reason: 'PyPI: timeout',
      source: 'pypi',
    });
  });

  it('is not applicable without npm or PyPI facts', () => {
    const ran = viewOf(evidence({ registry: notApplicable('a GitHub repository'), tarball: notApplicable('a GitHub repository') }), 'release');
    expect(ran).toEqual({ status: 'not-applicable', reason: 'a GitHub repository' });
  });

  it('marks PEP 440 pre-releases and yanked releases', () => {
    const facts = releaseFromPypi(
      pypiFacts({
        releases: [
          { version: '1.0', time: '2025-01-01T00:00:00.000Z', prerelease: false, yanked: false, yankedReason: null, files: 1 },
          { version: '1.1rc1', time: '2025-02-01T00:00:00.000Z', prerelease: true, yanked: false, yankedReason: null, files: 1 },
          { version: '1.1', time: '2025-03-01T00:00:00.000Z', prerelease: false, yanked: true, yankedReason: 'oops', files: 1 },
          { version: 'weird version', time: null, prerelease: false, yanked: false, yankedReason: null, files: 0 },
        ],
      }),
    );
    expect(facts.releases.map((r) => [r.version, r.stable, r.yanked])).toEqual([
      ['1.0', true, false],
      ['1.1rc1', false, false],
      ['1.1', true, true],
      ['weird version', false, false],
    ]);
  });

  it('reads a yanked release or an inactive PyPI status as deprecated', () => {
    expect(releaseFromPypi(pypiFacts({ yanked: true, yankedReason: 'broken' })).deprecated).toBe('yanked: broken');
    expect(releaseFromPypi(pypiFacts({ status: { status: 'archived', reason: null } })).deprecated).toBe('project archived');
    expect(releaseFromPypi(pypiFacts({ status: null })).deprecated).toBe(false);
  });

  it('takes the PyPI licence from the expression, then the mapped id, then the free text, then the classifiers', () => {
    const license = (l: object) => releaseFromPypi(pypiFacts({ license: { ...NO_LICENSE, ...l } })).license;
    expect(license({ expression: 'MIT', spdx: 'MIT', source: 'expression' })).toMatchObject({ text: 'MIT', form: 'pypi-expression' });
    expect(license({ classifiers: ['License :: OSI Approved :: MIT License'], spdx: 'MIT', source: 'classifier' })).toMatchObject({
      text: 'MIT',
      form: 'pypi-classifier',
    });
    expect(license({ text: 'MIT License', spdx: 'MIT', source: 'text' })).toMatchObject({ text: 'MIT', form: 'pypi-text' });
    expect(license({ text: 'All rights reserved' })).toMatchObject({ text: 'All rights reserved', form: 'pypi-free-text' });
    expect(license({ classifiers: ['License :: OSI Approved :: BSD License'] })).toMatchObject({ text: null, form: 'pypi-classifier' });
    expect(license({})).toMatchObject({ text: null, form: null });
  });

  it('reads PyPI provenance from the files: any, none, or not said', () => {
    const file = (hasProvenance: boolean | null) => ({ filename: 'x.whl', packagetype: 'bdist_wheel', size: 1, uploadTime: null, yanked: false, hasProvenance });
    expect(releaseFromPypi(pypiFacts({ files: [file(false), file(true)] })).attestation).toEqual({ url: null, predicateType: null });
    expect(releaseFromPypi(pypiFacts({ files: [file(false), file(false)] })).attestation).toBe(false);
    expect(releaseFromPypi(pypiFacts({ files: [file(false), file(null)] })).attestation).toBeNull();
    expect(releaseFromPypi(pypiFacts({ files: [] })).attestation).toBeNull();
  });

  it('keeps the npm legacy licence form even without a licence string', () => {
    expect(releaseFromNpm(registryFacts({ license: null, licenseLegacyForm: true })).license.form).toBe('npm-legacy');
    expect(releaseFromNpm(registryFacts({ license: null })).license.form).toBeNull();
  });
});

describe('documents view', () => {
  it('reads the npm tarball', () => {
    expect(viewOf(evidence(), 'documents')).toMatchObject({
      status: 'ok',
      facts: { ecosystem: 'npm', readme: { path: 'README.md' }, licenseFiles: [{ path: 'LICENSE', spdx: 'MIT' }], changelog: { kind: 'file', path: 'CHANGELOG.md' }, declarationFiles: 3 },
    });
    expect(tarballFacts().readme?.path).toBe('README.md');
  });

  it('is unavailable with the tarball reason (npm) and not applicable without a package', () => {
    expect(viewOf(evidence({ tarball: unavailable('tarball exceeds the 50 MB cap') }), 'documents')).toEqual({
      status: 'unavailable',
      reason: 'tarball exceeds the 50 MB cap',
      source: 'tarball',
    });
    expect(viewOf(evidence({ tarball: notApplicable('no package') }), 'documents').status).toBe('not-applicable');
  });

  it('reads PyPI metadata', () => {
    const docs = documentsFromPypi(pypiFacts());
    expect(docs).toMatchObject({
      ecosystem: 'pypi',
      readme: { path: null, contentType: 'text/markdown', truncated: false },
      licenseFiles: [{ path: 'LICENSE', spdx: null }],
      changelog: { kind: 'url' },
      declarationFiles: null,
    });
    expect(documentsFromPypi(pypiFacts({ license: { ...NO_LICENSE, files: null } })).licenseFiles).toBeNull();
    expect(documentsFromPypi(pypiFacts({ description: null })).readme).toBeNull();
  });

  it('finds a release-history section when there is no changelog URL', () => {
    const text = '# example\n\nIntro.\n\n## Changelog\n\n- 2.1.0: fixes\n';
    const docs = documentsFromPypi(pypiFacts({ changelogUrl: null, description: { text, contentType: 'text/markdown', length: text.length, truncated: false } }));
    expect(docs.changelog).toEqual({ kind: 'section', heading: 'Changelog' });
  });
});

describe('workflows view', () => {
  const safety = { listed: 1, read: ['.github/workflows/ci.yml'], unread: [], outsiderTriggered: [], findings: [], unpinnedActions: 0 };

  it("a repository target's own workflows, with its tree's truncation", () => {
    const result = deriveWorkflows(repositoryEvidence({ files: repoFiles({ workflowSafety: safety, treeTruncated: true }) }));
    expect(result).toEqual({ status: 'ok', facts: { safety, treeTruncated: true, of: 'target' } });
  });

  it('a repository target whose files could not be read is unavailable, as the repository view is', () => {
    expect(deriveWorkflows(repositoryEvidence({ files: null })).status).toBe('unavailable');
  });

  it("a package: its verified repository's workflows when a token read them, else not applicable", () => {
    expect(deriveWorkflows(evidence({ github: githubFacts({ workflowSafety: safety }) }))).toEqual({ status: 'ok', facts: { safety, treeTruncated: false, of: 'package-repository' } });
    expect(deriveWorkflows(evidence({})).status).toBe('not-applicable');
    expect(deriveWorkflows(evidence({ github: unavailable('GitHub API rate limit reached') })).status).toBe('not-applicable');
  });
});

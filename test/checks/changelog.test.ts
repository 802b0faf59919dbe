import check from '../../src/checks/changelog.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';

checkTable(check, [
  {
    name: 'unknown when only the README the registry shows could be read (no tarball)',
    evidence: evidence({ tarball: unavailable('timeout'), registry: { readme: { size: 9, text: '# example', truncated: false } } }),
    score: null,
    messageId: 'no-tarball',
  },
  { name: 'CHANGELOG.md shipped', evidence: evidence(), score: 100, messageId: 'present', data: { path: 'CHANGELOG.md' } },
  { name: 'HISTORY.md shipped', evidence: evidence({ tarball: { changelogFile: 'HISTORY.md' } }), score: 100, messageId: 'present', message: ['HISTORY.md'] },
  {
    name: 'none',
    evidence: evidence({ tarball: { changelogFile: null } }),
    score: 40,
    messageId: 'missing',
    data: { path: null },
    message: ['release notes may live in the repository'],
  },
  // PyPI: a changelog project URL, or a release-history section of the long description.
  {
    name: 'PyPI: Changelog project URL',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'linked',
    data: { path: null, url: 'https://github.com/example/example/blob/main/CHANGES.md' },
  },
  {
    name: 'PyPI: README + CHANGES in the long description',
    evidence: pypiEvidence({
      pypi: {
        changelogUrl: null,
        description: { text: 'example\n=======\n\nDoes things.\n\nRelease History\n---------------\n\n2.1.0\n+++++\n\n- Fixes.\n', contentType: 'text/x-rst', length: 80, truncated: false },
      },
    }),
    score: 100,
    messageId: 'in-description',
    data: { heading: 'Release History' },
    message: ['section "Release History"'],
  },
  {
    name: 'PyPI: a "Changes" heading inside a code block does not count',
    evidence: pypiEvidence({
      pypi: { changelogUrl: null, description: { text: '# x\n\n```\n# Changes\n```\n', contentType: 'text/markdown', length: 20, truncated: false } },
    }),
    score: 40,
    messageId: 'missing-pypi',
    data: { path: null },
  },
  {
    name: 'PyPI: no changelog URL and no history section',
    evidence: pypiEvidence({ pypi: { changelogUrl: null } }),
    score: 40,
    messageId: 'missing-pypi',
    message: ['release notes may live in the repository'],
  },
  {
    name: 'repository: CHANGELOG.md in the tree',
    evidence: repositoryEvidence(),
    score: 100,
    messageId: 'present-repository',
    data: { path: 'CHANGELOG.md' },
  },
  {
    name: 'repository: none',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }) }),
    score: 40,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: a truncated tree without one listed: unknown',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null, treeTruncated: true }) }),
    score: null,
    messageId: 'unreadable',
  },
]);

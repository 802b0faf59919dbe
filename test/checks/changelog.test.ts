import check from '../../src/checks/changelog.js';
import { tagNamesRelease } from '../../src/checks/lib/releases.js';
import { describe, expect, it } from 'vitest';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import type { GithubReleases } from '../../src/evidence/schema.js';

/** A repository's releases listing, summarised (sources/github/summaries.ts): `withNotes` of `listed` carry notes; v2.1.0 the latest. */
function releasesWith(notes: { withNotes: number | undefined; listed: number; latestHasNotes: boolean | undefined }): GithubReleases {
  return {
    last12Months: 6,
    latest: { tag: 'v2.1.0', publishedAt: '2026-05-01T00:00:00Z', signatureAssets: [], assets: 2, ...(notes.latestHasNotes === undefined ? {} : { hasNotes: notes.latestHasNotes }) },
    signedReleases: 0,
    examined: Math.min(notes.listed, 10),
    listed: notes.listed,
    ...(notes.withNotes === undefined ? {} : { withNotes: notes.withNotes }),
    complete: false,
    recent: 1,
    oldestPublishedAt: '2024-01-01T00:00:00.000Z',
  };
}

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
  // A package without a changelog file: its verified repository's GitHub release notes count.
  {
    name: 'none in the package; the verified repository\'s latest GitHub release carries notes',
    evidence: evidence({ tarball: { changelogFile: null }, github: { releases: releasesWith({ withNotes: 7, listed: 9, latestHasNotes: true }) } }),
    score: 100,
    messageId: 'releases-linked',
    data: { path: null, repository: 'example/example', tag: 'v2.1.0', withNotes: 7, listed: 9 },
  },
  {
    name: 'none in the package; an unverified repository lends no release notes (a typosquat naming a famous repository)',
    evidence: evidence({
      tarball: { changelogFile: null },
      github: { releases: releasesWith({ withNotes: 7, listed: 9, latestHasNotes: true }), link: { verifiedBy: null, reason: 'no manifest in the repository names this package' } },
    }),
    score: 40,
    messageId: 'missing',
  },
  {
    name: 'none in the package; the latest release of the monorepo is another package\'s: lends nothing',
    evidence: evidence({
      tarball: { changelogFile: null },
      github: { releases: { ...releasesWith({ withNotes: 7, listed: 9, latestHasNotes: true }), latest: { tag: 'other-package@2.1.0', publishedAt: null, signatureAssets: [], assets: 0, hasNotes: true } } },
    }),
    score: 40,
    messageId: 'missing',
  },
  {
    name: 'none in the package; the latest release is an older version: lends nothing',
    evidence: evidence({
      tarball: { changelogFile: null },
      github: { releases: { ...releasesWith({ withNotes: 7, listed: 9, latestHasNotes: true }), latest: { tag: 'v2.0.9', publishedAt: null, signatureAssets: [], assets: 0, hasNotes: true } } },
    }),
    score: 40,
    messageId: 'missing',
  },
  {
    name: 'none in the package; the repository\'s latest release has only a bare link',
    evidence: evidence({ tarball: { changelogFile: null }, github: { releases: releasesWith({ withNotes: 3, listed: 9, latestHasNotes: false }) } }),
    score: 40,
    messageId: 'missing',
  },
  {
    name: 'none in the package; GitHub unavailable: the package fact stands',
    evidence: evidence({ tarball: { changelogFile: null }, github: unavailable('GitHub answered 503') }),
    score: 40,
    messageId: 'missing',
  },
  {
    name: 'PyPI: no changelog URL or section; the verified repository\'s latest release carries notes',
    evidence: pypiEvidence({
      pypi: { changelogUrl: null },
      github: { releases: releasesWith({ withNotes: 9, listed: 9, latestHasNotes: true }) },
    }),
    score: 100,
    messageId: 'releases-linked',
    data: { repository: 'example/example', tag: 'v2.1.0' },
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
  // Without a changelog file, GitHub release notes on the latest release are the changelog.
  {
    name: 'repository: no file, the latest GitHub release carries notes',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }), releases: releasesWith({ withNotes: 12, listed: 30, latestHasNotes: true }) }),
    score: 100,
    messageId: 'releases-repository',
    data: { path: null, tag: 'v2.1.0', withNotes: 12, listed: 30 },
  },
  {
    name: 'repository: a changelog file wins over release notes',
    evidence: repositoryEvidence({ releases: releasesWith({ withNotes: 3, listed: 3, latestHasNotes: true }) }),
    score: 100,
    messageId: 'present-repository',
    data: { path: 'CHANGELOG.md' },
  },
  {
    name: 'repository: no file, older releases have notes but the latest only a bare link',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }), releases: releasesWith({ withNotes: 4, listed: 9, latestHasNotes: false }) }),
    score: 40,
    messageId: 'releases-latest-bare',
    data: { tag: 'v2.1.0', withNotes: 4, listed: 9 },
  },
  {
    name: 'repository: no file, releases without any notes',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }), releases: releasesWith({ withNotes: 0, listed: 5, latestHasNotes: false }) }),
    score: 40,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: no file and no GitHub release',
    evidence: repositoryEvidence({
      files: repoFiles({ changelog: null }),
      releases: { last12Months: 0, latest: null, signedReleases: 0, examined: 0, listed: 0, withNotes: 0, complete: true, recent: 0, oldestPublishedAt: null },
    }),
    score: 40,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: no file and the releases could not be listed: unknown, never "none"',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }), releases: null }),
    score: null,
    messageId: 'releases-unreadable',
  },
  {
    name: 'repository: a changelog file stands when the releases could not be listed',
    evidence: repositoryEvidence({ releases: null }),
    score: 100,
    messageId: 'present-repository',
  },
  {
    name: 'repository: evidence saved before release notes were recorded scores as it did (no file: none)',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null }), releases: releasesWith({ withNotes: undefined, listed: 5, latestHasNotes: undefined }) }),
    score: 40,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: a truncated tree, release notes on the latest release: found',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null, treeTruncated: true }), releases: releasesWith({ withNotes: 1, listed: 1, latestHasNotes: true }) }),
    score: 100,
    messageId: 'releases-repository',
  },
  {
    name: 'repository: a truncated tree without one listed: unknown',
    evidence: repositoryEvidence({ files: repoFiles({ changelog: null, treeTruncated: true }) }),
    score: null,
    messageId: 'unreadable',
  },
]);

describe('tagNamesRelease', () => {
  it.each([
    ['2.1.0', 'example', '2.1.0', true],
    ['v2.1.0', 'example', '2.1.0', true],
    ['V2.1.0', 'example', '2.1.0', true],
    ['example@2.1.0', 'example', '2.1.0', true],
    ['@scope/pkg@2.1.0', '@scope/pkg', '2.1.0', true],
    ['pkg@v2.1.0', '@scope/pkg', '2.1.0', true],
    ['pkg-v2.1.0', '@scope/pkg', '2.1.0', true],
    ['example/2.1.0', 'example', '2.1.0', true],
    ['12.1.0', 'example', '2.1.0', false],
    ['v2.1.0-beta.1', 'example', '2.1.0', false],
    ['other@2.1.0', 'example', '2.1.0', false],
    ['example-plugin@2.1.0', 'example', '2.1.0', false],
    ['release-2.1.0', 'example', '2.1.0', false],
    ['v2.1.0', 'example', '', false],
  ])('%s names %s@%s: %s', (tag, name, version, expected) => {
    expect(tagNamesRelease(tag, name, version)).toBe(expected);
  });
});

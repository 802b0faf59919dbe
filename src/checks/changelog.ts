/**
 * changelog: whether users can find release notes from the package itself: a changelog file
 * in the npm tarball; for PyPI a changelog project URL, or a release-history section in the
 * long description (projects often publish `README + CHANGES` there); without one, release
 * notes on the latest GitHub release of the package's verified repository. A repository
 * target: a changelog file, or else GitHub release notes on its latest release (docs/scoring.md,
 * Documentation); releases that could not be listed leave it unknown, never "none".
 */
import type { GithubFacts } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { readGithub } from './lib/github.js';
import { tagNamesRelease } from './lib/releases.js';
import type { DocumentsFacts } from './views/documents.js';

/** The messages for a changelog file found, and for none, per ecosystem. */
const PRESENT: Readonly<Record<DocumentsFacts['ecosystem'], 'present' | 'present-repository'>> = { npm: 'present', pypi: 'present', github: 'present-repository' };
const MISSING: Readonly<Record<DocumentsFacts['ecosystem'], 'missing' | 'missing-pypi' | 'missing-repository'>> = { npm: 'missing', pypi: 'missing-pypi', github: 'missing-repository' };

export default defineCheck({
  id: 'changelog',
  dimension: 'documentation',
  weight: 1,
  needs: ['documents'],
  optional: ['github', 'registry', 'pypi'],
  title: 'Changelog',
  description:
    'Looks for a CHANGELOG, HISTORY or CHANGES file in the npm tarball; for PyPI, a Changelog / Changes / Release notes project URL or a changelog or history section in the long description. ' +
    'Found scores 100; without one, release notes on the latest GitHub release of the package\'s verified repository score 100 too when that release is this version (tagged `1.2.3`, `v1.2.3`, `name@1.2.3`, `name-v1.2.3`…; stable preferred; more than GitHub\'s bare generated "Full Changelog" link); none 40 (release notes may live elsewhere in the repository); unknown when the npm tarball could not be read. ' +
    'A `github:` target looks for the file at the root of its repository or in `docs/` (a docs site page such as `docs/changelog.mdx` counts), else beside the manifest of a workspace member it publishes (`packages/a/CHANGELOG.md`, `crates/a/CHANGELOG.md`); without one, its GitHub releases are the changelog when the latest release (stable preferred) carries release notes — more than GitHub\'s bare generated "Full Changelog" link — and unknown when the releases could not be listed.',
  messages: {
    present: 'Changelog shipped ({path})',
    linked: 'Changelog linked from the project URLs ({url})',
    'in-description': 'Release history in the long description (section "{heading}")',
    missing: 'No changelog in the package; release notes may live in the repository',
    'missing-pypi': 'No changelog URL or release-history section on PyPI; release notes may live in the repository',
    'no-tarball': 'Changelog unknown: the package tarball could not be read (only the README the registry shows)',
    'missing-repository': 'No changelog file in the repository (root, docs/ or a published member\'s folder)',
    'present-repository': 'Changelog in the repository ({path})',
    'releases-repository': 'Release notes on GitHub Releases: {withNotes} of the newest {listed} releases, the latest ({tag}) among them',
    'releases-linked': 'No changelog in the package; release notes on the GitHub Releases of {repository}: {withNotes} of the newest {listed} releases, the latest ({tag}) among them',
    'releases-latest-bare': 'No changelog file in the repository, and the latest GitHub release ({tag}) has no release notes ({withNotes} of the newest {listed} do)',
    'releases-unreadable': 'Changelog unknown: no changelog file in the repository, and its GitHub releases could not be listed ({reason})',
    unreadable: 'Changelog unknown: {reason}',
  },
  evaluate: ({ documents, github, registry, pypi }) => {
    if (documents.source === 'packument') return { score: null, messageId: 'no-tarball', data: { path: null } };
    const changelog = documents.changelog;
    const unknown = documents.unknown?.changelog;
    if (changelog === null && unknown !== undefined) {
      const data: Record<string, EvidenceValue> = { path: null, reason: unknown };
      return { score: null, messageId: 'unreadable', data };
    }
    if (changelog === null && documents.unknown?.releases !== undefined) {
      const data: Record<string, EvidenceValue> = { path: null, reason: documents.unknown.releases };
      return { score: null, messageId: 'releases-unreadable', data };
    }
    const notes = documents.releaseNotes;
    if (changelog === null && notes !== undefined && notes.tag !== null && notes.withNotes > 0) {
      const data: Record<string, EvidenceValue> = { path: null, tag: notes.tag, withNotes: notes.withNotes, listed: notes.listed };
      return { score: 40, messageId: 'releases-latest-bare', data };
    }
    const release = registry ?? pypi;
    if (changelog === null && documents.ecosystem !== 'github' && github !== undefined && release !== undefined) {
      const linked = linkedReleaseNotes(github, release.name, release.version);
      if (linked !== null) return { score: 100, messageId: 'releases-linked', data: { path: null, ...linked } };
    }
    if (changelog === null) {
      return { score: 40, messageId: MISSING[documents.ecosystem], data: { path: null } };
    }
    let data: Record<string, EvidenceValue>;
    switch (changelog.kind) {
      case 'file':
        return { score: 100, messageId: PRESENT[documents.ecosystem], data: { path: changelog.path } };
      case 'url':
        data = { path: null, url: changelog.url };
        return { score: 100, messageId: 'linked', data };
      case 'section':
        data = { path: null, heading: changelog.heading };
        return { score: 100, messageId: 'in-description', data };
      case 'releases':
        data = { path: null, tag: changelog.tag, withNotes: changelog.withNotes, listed: changelog.listed };
        return { score: 100, messageId: 'releases-repository', data };
    }
  },
});

/**
 * The release notes of a package's verified repository when its latest GitHub release (stable
 * preferred) is this very version's — tagged `1.2.3`, `v1.2.3`, `name@1.2.3`, `name-v1.2.3`… —
 * and carries notes: they describe what a user installs. A monorepo's latest release may be
 * another package's, so a tag of another name or version lends nothing (docs/scoring.md,
 * Documentation). Null too when the link is not verified (a typosquat borrows no release notes:
 * lib/github.ts, rule 2) or the releases are unknown.
 */
function linkedReleaseNotes(github: GithubFacts, name: string, version: string): { repository: string; tag: string; withNotes: number; listed: number } | null {
  const read = readGithub(github, ['releases']);
  if (!read.ok) return null;
  const { latest, listed, withNotes } = read.sections.releases;
  if (latest === null || latest.hasNotes !== true || listed === undefined || withNotes === undefined) return null;
  if (!tagNamesRelease(latest.tag, name, version)) return null;
  return { repository: read.repository.fullName, tag: latest.tag, withNotes, listed };
}

/**
 * The `documents` view: the documents a package gives its users — README, licence files,
 * changelog, type declaration files — read from the npm tarball (`tarball`) or from PyPI's
 * metadata (`pypi`: the long description is the README PyPI shows; PEP 639 `license_files`;
 * a changelog project URL or a release-history section of the long description).
 * `not-applicable` for a target with neither; `unavailable` with the source's own reason when
 * that source could not answer (an npm tarball over a size cap, a timeout…) — except that an
 * npm package whose tarball could not be read falls back to the README the registry shows (the
 * full packument's `readme`), with everything else unknown.
 *
 * Shape:
 *   ecosystem         a package ecosystem ('npm' | 'pypi': `PackageEcosystem`, ecosystems/types.ts) or 'github'
 *   source            'tarball' | 'packument' (the registry's README only) | 'pypi' | 'repository' (a repository target's tree)
 *   readme            { path, text, size, truncated, contentType, tailHeadings?, tailCodeBlocks? } | null (none shipped);
 *                     `path` is null for PyPI (the long description is not a file) and for
 *                     the registry's README
 *   licenseFiles      [{ path, spdx, others? }]: npm root licence files with the SPDX ids their text
 *                     matches; PyPI `license_files` with spdx null (their text is not read);
 *                     null = unknown (PyPI metadata without PEP 639 `License-File` fields)
 *   changelog         { kind: 'file', path } (npm, repository) | { kind: 'url', url } | { kind: 'section',
 *                     heading } (PyPI) | { kind: 'releases', tag, withNotes, listed } (a repository
 *                     without the file whose latest GitHub release carries notes) | null when none
 *                     was found (unknown for `packument`)
 *   declarationFiles  npm `.d.ts` files shipped; null for PyPI (wheels are not read) and `packument`
 */
import type { GithubReleases, PypiFacts, RegistryFacts, TarballFacts } from '../../evidence/schema.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';
import { findHeading } from '../lib/readme.js';
import { defineView, fromRegistrySources, type RegistryReaders } from './define-view.js';
import { deriveRepository, type RepositoryFacts } from './repository.js';

export type ChangelogRef =
  | { kind: 'file'; path: string }
  | { kind: 'url'; url: string }
  | { kind: 'section'; heading: string }
  /** A repository target's GitHub release notes: `withNotes` of the `listed` newest releases carry notes, the latest (`tag`) among them. */
  | { kind: 'releases'; tag: string; withNotes: number; listed: number };

export interface DocumentsFacts {
  ecosystem: PackageEcosystem | 'github';
  /** Where the documents were read: `packument` is the fallback with the README alone; `repository` a repository target's tree. */
  source: 'tarball' | 'packument' | 'pypi' | 'repository';
  /** `tailHeadings`, `tailCodeBlocks`: a README's headings and code blocks past the cut `text` stops at (util/readme-tail.ts); absent when it was not cut, or in evidence saved before they were recorded. */
  readme: { path: string | null; text: string; size: number; truncated: boolean; contentType: string | null; tailHeadings?: string[]; tailCodeBlocks?: number } | null;
  licenseFiles: { path: string; spdx: string | null; others?: string[] }[] | null;
  changelog: ChangelogRef | null;
  declarationFiles: number | null;
  /**
   * Repository targets: the documents a file fault left unknown (`readme`, `licenseFiles`), with
   * why; the others stand. Absent for packages.
   */
  unknown?: Partial<Record<'readme' | 'licenseFiles' | 'changelog' | 'releases', string>>;
  /**
   * Repository targets without a changelog file: what their GitHub releases hold — the latest
   * release (`tag`, null when none is published) without notes, and how many of the `listed`
   * newest carry notes. Absent when a changelog was found, when the releases could not be listed
   * (`unknown.releases`), and in evidence saved before release notes were recorded.
   */
  releaseNotes?: { tag: string | null; withNotes: number; listed: number };
  /** Repository targets: a `docs/` folder and an `examples/` folder with files; absent for packages. */
  folders?: { docs: boolean; examples: boolean };
  /**
   * Repository targets: the licences the manifests of its published packages declare (else the root
   * Cargo.toml / composer.json / setup.cfg / .gemspec / pom.xml / .NET project, `unmapped` when it
   * names no SPDX licence unambiguously); absent for packages.
   */
  manifestLicenses?: { path: string; license: string | null; unmapped?: string }[];
  /**
   * Repository targets: the licence GitHub detects (`null` none; undefined when the answer did not
   * say, or when it describes another state of the repository than the files: `detectedElsewhere`).
   * At a pinned ref, GitHub's detection at that commit when verified (`files.licenceAtRef`).
   */
  detectedLicense?: string | null;
  /**
   * Repository targets read at a pinned ref (`github:owner/repo@ref`): the default branch whose
   * licence GitHub detects — not the commit the files were read at, so never compared with them
   * (docs/scoring.md §9, "A pinned ref"): the files carry its commit, or name a branch that is not
   * the default one (evidence saved before the commit was recorded); absent otherwise.
   */
  detectedElsewhere?: { defaultBranch: string };
}

/** Headings that introduce release notes appended to a long description (`README + CHANGES`). */
export const CHANGELOG_HEADING = /\b(?:change ?log|changes|history|release notes|what'?s new)\b/i;

/** What a README cut short holds past the cut, when it was recorded (util/readme-tail.ts). */
function tailOf(readme: { tailHeadings?: string[]; tailCodeBlocks?: number }): Pick<NonNullable<DocumentsFacts['readme']>, 'tailHeadings' | 'tailCodeBlocks'> {
  return {
    ...(readme.tailHeadings === undefined ? {} : { tailHeadings: readme.tailHeadings }),
    ...(readme.tailCodeBlocks === undefined ? {} : { tailCodeBlocks: readme.tailCodeBlocks }),
  };
}

export function documentsFromTarball(tarball: TarballFacts): DocumentsFacts {
  return {
    ecosystem: 'npm',
    source: 'tarball',
    readme: tarball.readme === null ? null : { ...tarball.readme, contentType: null },
    licenseFiles: tarball.licenseFiles.map((f) => ({ ...f })),
    changelog: tarball.changelogFile === null ? null : { kind: 'file', path: tarball.changelogFile },
    declarationFiles: tarball.declarationFiles,
  };
}

function pypiChangelog(pypi: PypiFacts): ChangelogRef | null {
  if (pypi.changelogUrl !== null && pypi.changelogUrl.trim() !== '') return { kind: 'url', url: pypi.changelogUrl };
  const heading = pypi.description === null ? null : findHeading(pypi.description.text, CHANGELOG_HEADING);
  return heading === null ? null : { kind: 'section', heading };
}

export function documentsFromPypi(pypi: PypiFacts): DocumentsFacts {
  const description = pypi.description;
  // An empty long description is how PyPI shows "no README" (UNKNOWN in old metadata).
  const hasReadme = description !== null && description.text.trim() !== '' && description.text.trim() !== 'UNKNOWN';
  return {
    ecosystem: 'pypi',
    source: 'pypi',
    readme: hasReadme
      ? {
          path: null,
          text: description.text,
          size: description.length,
          truncated: description.truncated,
          contentType: description.contentType,
          ...tailOf(description),
        }
      : null,
    licenseFiles: pypi.license.files === null ? null : pypi.license.files.map((path) => ({ path, spdx: null })),
    changelog: pypiChangelog(pypi),
    declarationFiles: null,
  };
}

/** Where each package ecosystem's documents are read: the files it ships, else its registry's metadata. */
const DOCUMENTS_READERS: RegistryReaders<DocumentsFacts> = {
  npm: {
    source: 'tarball',
    derive: (tarball) => documentsFromTarball(tarball),
    // Without the tarball, the README the registry shows still answers for the README.
    whenUnavailable: (evidence) => {
      const registry = evidence.sources.registry;
      return registry.status === 'ok' && registry.facts.readme !== null ? documentsFromRegistryReadme(registry.facts.readme) : null;
    },
  },
  pypi: { source: 'pypi', derive: (pypi) => documentsFromPypi(pypi) },
};

export const documentsView = defineView<DocumentsFacts>({
  description:
    'README, licence files, changelog and declaration files: from the npm tarball (`tarball`) or PyPI metadata (`pypi`: long description, PEP 639 `license_files`, changelog URL); for a `github:` target or an MCP Registry entry, from its repository (`repository`).',
  derive: (evidence) => {
    // A repository target: its own files are its documents (a package folded in with
    // --include-package adds its registry checks, not its tarball's copy of the documents).
    // An MCP Registry entry: its repository's files, read as a repository target's are (docs/scoring.md §8a).
    if (evidence.target.ecosystem === 'github' || evidence.target.ecosystem === 'mcp') {
      const repository = deriveRepository(evidence);
      return repository.status === 'ok' ? { status: 'ok', facts: documentsFromRepository(repository.facts) } : repository;
    }
    return fromRegistrySources(evidence, DOCUMENTS_READERS);
  },
});

/** The fallback without the tarball: the registry's README, and nothing known of the other files. */
export function documentsFromRegistryReadme(readme: NonNullable<RegistryFacts['readme']>): DocumentsFacts {
  return {
    ecosystem: 'npm',
    source: 'packument',
    readme: readme === false ? null : { path: null, text: readme.text, size: readme.size, truncated: readme.truncated, contentType: null, ...tailOf(readme) },
    licenseFiles: null,
    changelog: null,
    declarationFiles: null,
  };
}

const TRUNCATED = 'the repository tree listing was truncated: the file may exist unlisted';

/**
 * A repository without a changelog file: its GitHub releases are its changelog when the latest
 * release (stable preferred, as `GithubReleases.latest` picks it) carries notes — the version a
 * user installs is described (docs/scoring.md, Documentation). Evidence saved before release notes
 * were recorded (`withNotes` absent) says nothing either way: no `releaseNotes`.
 */
function releasesChangelog(releases: GithubReleases): { changelog: ChangelogRef | null; releaseNotes?: DocumentsFacts['releaseNotes'] } {
  const { latest, listed, withNotes } = releases;
  if (listed === undefined || withNotes === undefined) return { changelog: null };
  if (latest !== null && latest.hasNotes === true) return { changelog: { kind: 'releases', tag: latest.tag, withNotes, listed } };
  return { changelog: null, releaseNotes: { tag: latest?.tag ?? null, withNotes, listed } };
}

/**
 * The licences a repository's manifests declare: its published package.json / pyproject.toml files
 * (else its first manifest); when none of them declares one, the declarations of the manifests
 * read for their licence alone (docs/scoring.md, Compliance).
 */
function manifestLicenses(files: RepositoryFacts['files'], published: RepositoryFacts['files']['manifests']): NonNullable<DocumentsFacts['manifestLicenses']> {
  const own = (published.length > 0 ? published : files.manifests.slice(0, 1)).map((m) => ({ path: m.path, license: m.license }));
  if (own.some((m) => m.license !== null)) return own;
  const others = (files.declaredLicenses ?? []).map((d) => ({ ...d }));
  return others.some((d) => d.license !== null || d.unmapped !== undefined) ? [...own, ...others] : own;
}

/** A repository target's documents, from its tree (sources/github/repo-files.ts) and, without a changelog file, its GitHub releases. */
export function documentsFromRepository({ files, repository, releases, releasesUnknown }: RepositoryFacts): DocumentsFacts {
  const unread = new Map(files.unread.map((u) => [u.path, u.reason]));
  const unknown: NonNullable<DocumentsFacts['unknown']> = {};
  // In an MCP entry's folder (docs/scoring.md §8a) the README unread is the folder's.
  const inFolder = (p: string) => (files.folder === undefined ? p : p.startsWith(`${files.folder}/`) ? p.slice(files.folder.length + 1) : '');
  const readmeUnread = files.readme === null ? [...unread.keys()].find((p) => /^(?:(?:\.github|docs)\/)?readme[^/]*$/i.test(inFolder(p))) : undefined;
  if (readmeUnread !== undefined) unknown.readme = `${readmeUnread}: ${unread.get(readmeUnread) ?? ''}`;
  else if (files.readme === null && files.treeTruncated) unknown.readme = TRUNCATED;
  if (files.licenseFiles.length === 0 && files.treeTruncated) unknown.licenseFiles = TRUNCATED;
  const fromReleases = files.changelog !== null ? { changelog: null } : releases === null ? null : releasesChangelog(releases);
  if (files.changelog === null && fromReleases === null) unknown.releases = releasesUnknown ?? 'the releases could not be listed';
  const changelog: ChangelogRef | null = files.changelog !== null ? { kind: 'file', path: files.changelog } : (fromReleases?.changelog ?? null);
  if (changelog === null && files.treeTruncated) unknown.changelog = TRUNCATED;
  const published = files.manifests.filter((m) => !m.private);
  return {
    ecosystem: 'github',
    source: 'repository',
    readme: files.readme === null ? null : { ...files.readme, contentType: null },
    // A licence file that could not be read is there, its text unrecognised.
    licenseFiles: files.licenseFiles.map((f) => ({ ...f })),
    changelog,
    declarationFiles: null,
    unknown,
    ...(fromReleases?.releaseNotes === undefined ? {} : { releaseNotes: fromReleases.releaseNotes }),
    folders: { docs: files.docsFolder, examples: files.examplesFolder },
    manifestLicenses: manifestLicenses(files, published),
    // At a pinned ref the detected licence is the default branch's: another state than these files
    // (evidence saved before the commit was recorded names the ref as the files' branch).
    // At a pinned commit, GitHub's detection there when its file is the commit's own blob (files.licenceAtRef) describes these files.
    ...(files.commit !== undefined && files.licenceAtRef !== undefined
      ? { detectedLicense: files.licenceAtRef.license }
      : files.commit !== undefined || files.branch !== repository.defaultBranch
        ? { detectedElsewhere: { defaultBranch: repository.defaultBranch } }
        : repository.licenseKnown
          ? { detectedLicense: repository.license }
          : {}),
  };
}

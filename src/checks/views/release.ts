/**
 * The `release` view: one neutral shape for "the resolved release of a package and its
 * history", read from the npm registry's packument facts (`registry`, with the tarball's
 * `binding.gyp` and size when the tarball was read) or from PyPI's JSON API facts (`pypi`).
 * `not-applicable` for a target with neither (a GitHub repository); `unavailable` with the
 * source's own reason when that source could not answer.
 *
 * Shape (every field is present for both ecosystems; `null` = unknown, as in evidence):
 *   ecosystem      a package ecosystem ('npm' | 'pypi': `PackageEcosystem`, ecosystems/types.ts)
 *   name, version  the package and its resolved version
 *   versionParts   { major, prerelease } of the resolved version by the ecosystem's rules
 *                  (semver for npm, PEP 440 for PyPI); null when the version does not parse
 *   releases       [{ version, time, stable, yanked }] as the registry lists them; every time
 *                  null when `timesWithheld` says the registry's times are not publish times
 *   timesWithheld  npm: why a trimmed packument's times are not taken as publish times
 *                  (lib/publish-times.ts), else null; always null for PyPI
 *   isLatest       the resolved version is what a bare install picks (npm `latest`, PyPI latest)
 *   deprecated     a publisher's "do not use" notice: npm deprecation message; PyPI: yanked
 *                  (with its reason) or a PEP 792 archived / deprecated / quarantined project;
 *                  false = none; null = unknown (trimmed packument)
 *   placeholder    npm security-holding package, by npm's marks on it (lib/holding-package.ts; false for PyPI)
 *   description, keywords, homepage, repository, issuesUrl, documentationUrl
 *   license        { text, form, classifiers }: see LicenseDeclaration
 *   dependencies, optionalDependencies, peerDependencies (null for PyPI)
 *   unpackedSize   npm `dist.unpackedSize`, else the tarball's; null for PyPI (not published)
 *   installTimeCode  npm install scripts / gyp build; PyPI: the release is sdist-only
 *   typesDeclared  npm `types`/`typings`/`types` export condition; PyPI `Typing :: Typed`
 *   maintainers    npm maintainers; PyPI owners and maintainers; null = unknown
 *   attestation    a provenance attestation is listed ({url, predicateType}), false = none,
 *                  null = unknown (PyPI files without a provenance answer; a trimmed npm
 *                  packument without `dist.attestations`)
 *   signatures     npm registry signatures (null for PyPI, which has none)
 *   unvouched      dependencies no registry vouches for: npm git / URL / file: / link: specs in
 *                  the packument or the tarball's package.json; PyPI `requires_dist` direct
 *                  references (`name @ <url>`), each marked when only an extra installs it
 */
import { explain } from '@renovatebot/pep440';
import semver from 'semver';
import type { AttestationFacts, PypiDirectReference, PypiFacts, RegistryFacts, RepositoryRef, TarballFacts } from '../../evidence/schema.js';
import { directReference } from '../../ecosystems/pypi/direct-reference.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';
import { hasInstallHooks, installHooks } from '../lib/install-hooks.js';
import { holdingMarks } from '../lib/holding-package.js';
import { withheldTimes, type WithheldTimes } from '../lib/publish-times.js';
import { isStableVersion } from '../lib/releases.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import { defineView, fromRegistrySources, type RegistryReaders } from './define-view.js';

export interface ReleaseEntry {
  version: string;
  /** Publish (npm) or first upload (PyPI) time, ISO 8601; null when unknown. */
  time: string | null;
  /** A valid version that is not a pre-release: semver without a pre-release tag; PEP 440 without a/b/rc/dev. */
  stable: boolean;
  /** PyPI: every file of the release is yanked. Always false for npm. */
  yanked: boolean;
}

/**
 * The declared licence. `text` is what the licence checks read as SPDX: npm `license`; PyPI
 * the PEP 639 `license_expression`, else the SPDX expression the PyPI source mapped from the
 * classifiers or the free-text `license` field, else that free text; null when none.
 */
export interface LicenseDeclaration {
  text: string | null;
  /**
   * Where `text` came from: `field` (npm `license`), `npm-legacy` (npm object/array form),
   * `pypi-expression` (PEP 639), `pypi-classifier` / `pypi-text` (pre-PEP 639 metadata that the
   * PyPI source mapped to SPDX; a `pypi-classifier` form with a null text names the licence only
   * by a classifier that maps to no single SPDX id), `pypi-free-text` (the free-text `license`
   * field, which the source could not map: not to be guessed at again); null when nothing is
   * declared.
   */
  form: 'field' | 'npm-legacy' | 'pypi-expression' | 'pypi-classifier' | 'pypi-text' | 'pypi-free-text' | null;
  /** PyPI `License ::` trove classifiers (empty for npm). */
  classifiers: string[];
}

/** A dependency fetched from where no registry vouches for it (the URL without its credentials). */
export interface UnvouchedDependency {
  name: string;
  spec: string;
  kind: 'git' | 'vcs' | 'url' | 'file' | 'link';
  /** PyPI: only installed with an extra (`extra == …` marker). Always false for npm. */
  extraOnly: boolean;
}

export interface ReleaseFacts {
  ecosystem: PackageEcosystem;
  name: string;
  version: string;
  versionParts: { major: number; prerelease: boolean } | null;
  releases: ReleaseEntry[];
  /** Why the registry's times were not taken as publish times (a trimmed npm packument: lib/publish-times.ts); null when they were. */
  timesWithheld: WithheldTimes;
  isLatest: boolean;
  deprecated: string | false | null;
  placeholder: boolean;
  description: string | null;
  keywords: string[];
  license: LicenseDeclaration;
  homepage: string | null;
  repository: RepositoryRef | null;
  issuesUrl: string | null;
  documentationUrl: string | null;
  dependencies: number;
  optionalDependencies: number;
  peerDependencies: number | null;
  unpackedSize: number | null;
  installTimeCode: boolean;
  typesDeclared: boolean;
  maintainers: number | null;
  attestation: { url: string | null; predicateType: string | null } | false | null;
  signatures: number | null;
  unvouched: UnvouchedDependency[];
}

/** PEP 792 statuses that tell users not to rely on the project. */
const INACTIVE_PROJECT_STATUSES: readonly string[] = ['archived', 'deprecated', 'quarantined'];

export function releaseFromNpm(registry: RegistryFacts, tarball?: TarballFacts, attestations?: AttestationFacts): ReleaseFacts {
  const parsed = semver.parse(registry.version);
  const withheld = withheldTimes(registry.trimmed, registry.versions);
  return {
    ecosystem: 'npm',
    name: registry.name,
    version: registry.version,
    versionParts: parsed === null ? null : { major: parsed.major, prerelease: parsed.prerelease.length > 0 },
    // A publish time in the future is handed on as the registry gave it: the release checks read it as invalid (lib/releases.ts isFutureTime).
    releases: registry.versions.map((v) => ({ version: v.version, time: withheld === null ? (v.time ?? v.futureTime ?? null) : null, stable: isStableVersion(v.version), yanked: false })),
    timesWithheld: withheld,
    isLatest: registry.isLatest,
    deprecated: registry.deprecated,
    placeholder: holdingMarks(registry, tarball).length > 0,
    description: registry.description,
    keywords: registry.keywords,
    license: {
      text: registry.license,
      form: registry.licenseLegacyForm ? 'npm-legacy' : registry.license === null ? null : 'field',
      classifiers: [],
    },
    homepage: registry.homepage,
    repository: registry.repository,
    issuesUrl: registry.bugs,
    documentationUrl: null,
    dependencies: registry.dependencies,
    optionalDependencies: registry.optionalDependencies,
    peerDependencies: registry.peerDependencies,
    unpackedSize: registry.unpackedSize ?? tarball?.unpackedSize ?? null,
    installTimeCode: hasInstallHooks(installHooks(registry, tarball)),
    typesDeclared: registry.declaresTypes,
    maintainers: registry.maintainers,
    // A listing the attestations endpoint does not back (404, no SLSA statement) is no provenance.
    // No listing in a trimmed packument is unknown: mirrors leave `dist.attestations` out with the
    // rest (docs/scoring.md §1), as they do `deprecated`.
    attestation:
      registry.attestations === null ? (registry.trimmed ? null : false) : attestations?.hollow != null ? false : { ...registry.attestations },
    signatures: registry.signatures,
    unvouched: npmUnvouched(registry, tarball),
  };
}

/** The packument's non-registry dependencies, then those only the tarball's package.json adds. */
function npmUnvouched(registry: RegistryFacts, tarball?: TarballFacts): UnvouchedDependency[] {
  const all = [...registry.nonRegistryDependencies];
  const manifests = [tarball?.manifest, ...(tarball?.manifestAliases ?? []).map((a) => a.manifest)];
  for (const dependency of manifests.flatMap((m) => m?.nonRegistryDependencies ?? [])) {
    if (!all.some((d) => d.name === dependency.name && d.spec === dependency.spec && d.field === dependency.field)) all.push(dependency);
  }
  return all.map((d) => ({ name: d.name, spec: d.spec, kind: d.kind, extraOnly: false }));
}

/** The PEP 440 reading of a version, or null when it is not one. */
function pep440Parts(version: string): { major: number; prerelease: boolean } | null {
  const parsed = explain(version);
  if (parsed === null) return null;
  return { major: parsed.release[0] ?? 0, prerelease: parsed.is_prerelease };
}

/**
 * The licence a PyPI release declares, in the one precedence checks and the audit policy share:
 * the PEP 639 `license_expression`, else the SPDX expression the PyPI source mapped from the
 * classifiers, else the one it mapped from the free-text `license` field, else that free text.
 */
export function pypiLicense(license: PypiFacts['license']): LicenseDeclaration {
  const classifiers = license.classifiers;
  if (license.expression !== null && license.expression.trim() !== '') {
    return { text: license.expression, form: 'pypi-expression', classifiers };
  }
  if (license.spdx !== null && license.source === 'classifier') return { text: license.spdx, form: 'pypi-classifier', classifiers };
  if (license.spdx !== null) return { text: license.spdx, form: 'pypi-text', classifiers };
  if (license.text !== null && license.text.trim() !== '') return { text: license.text, form: 'pypi-free-text', classifiers };
  if (classifiers.length > 0) return { text: null, form: 'pypi-classifier', classifiers };
  return { text: null, form: null, classifiers };
}

/** Yanked, or a project status that says "do not rely on this"; false otherwise. */
function pypiDeprecation(pypi: PypiFacts): string | false {
  if (pypi.yanked) return pypi.yankedReason === null ? 'yanked' : `yanked: ${pypi.yankedReason}`;
  const status = pypi.status;
  if (status !== null && INACTIVE_PROJECT_STATUSES.includes(status.status)) {
    return status.reason === null ? `project ${status.status}` : `project ${status.status}: ${status.reason}`;
  }
  return false;
}

/** PEP 740 provenance on the release's files: listed when any file has it, none when every file answered no. */
function pypiAttestation(files: PypiFacts['files']): ReleaseFacts['attestation'] {
  if (files.some((f) => f.hasProvenance === true)) return { url: null, predicateType: null };
  if (files.length > 0 && files.every((f) => f.hasProvenance === false)) return false;
  return null;
}

/**
 * The release's direct references; for evidence saved before they were recorded, the runtime ones
 * its `dependencies` list (extra-only ones were not kept then).
 */
function pypiDirectReferences(pypi: PypiFacts): PypiDirectReference[] {
  return pypi.directReferences ?? pypi.dependencies.flatMap((d) => directReference(d.name, d.specifier, false) ?? []);
}

export function releaseFromPypi(pypi: PypiFacts): ReleaseFacts {
  return {
    ecosystem: 'pypi',
    name: pypi.name,
    version: pypi.version,
    versionParts: pep440Parts(pypi.version),
    releases: pypi.releases.map((r) => ({
      version: r.version,
      time: r.time,
      stable: !r.prerelease && pep440Parts(r.version)?.prerelease === false,
      yanked: r.yanked,
    })),
    timesWithheld: null,
    isLatest: pypi.latest === pypi.version,
    deprecated: pypiDeprecation(pypi),
    placeholder: false,
    description: pypi.summary,
    keywords: pypi.keywords,
    license: pypiLicense(pypi.license),
    homepage: pypi.homepage,
    repository: pypi.repository,
    issuesUrl: pypi.issuesUrl,
    documentationUrl: pypi.documentationUrl,
    // Distinct projects: one listed twice under different markers is one dependency.
    dependencies: new Set(pypi.dependencies.map((d) => pep503(d.name))).size,
    optionalDependencies: pypi.optionalDependencies,
    peerDependencies: null,
    unpackedSize: null,
    installTimeCode: pypi.sdistOnly,
    typesDeclared: pypi.typed,
    maintainers: pypi.owners,
    attestation: pypiAttestation(pypi.files),
    signatures: null,
    unvouched: pypiDirectReferences(pypi).map((d) => ({ name: d.name, spec: d.url, kind: d.kind, extraOnly: d.extraOnly })),
  };
}

/** Where each package ecosystem's release is read: its registry's own evidence source. */
const RELEASE_READERS: RegistryReaders<ReleaseFacts> = {
  npm: {
    source: 'registry',
    derive: (registry, evidence) => {
      const tarball = evidence.sources.tarball.status === 'ok' ? evidence.sources.tarball.facts : undefined;
      const attestations = evidence.sources.attestations.status === 'ok' ? evidence.sources.attestations.facts : undefined;
      return releaseFromNpm(registry, tarball, attestations);
    },
  },
  pypi: { source: 'pypi', derive: (pypi) => releaseFromPypi(pypi) },
};

export const releaseView = defineView<ReleaseFacts>({
  description:
    'The resolved release and its history: from the npm registry\'s package metadata (`registry`, with the tarball when it was read) or the PyPI JSON API (`pypi`).',
  derive: (evidence) => fromRegistrySources(evidence, RELEASE_READERS),
});

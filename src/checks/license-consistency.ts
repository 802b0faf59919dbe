/**
 * license-consistency: whether the licence the package declares is the licence its source
 * repository carries. A mismatch leaves users unsure which terms apply.
 */
import type { PypiFacts, RegistryFacts } from '../evidence/schema.js';
import type { DocumentsFacts } from './views/documents.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';
import { licenseKey, licensesInFile, readDeclaredLicense } from './lib/spdx.js';
import { truncate } from './lib/text.js';

/** GitHub's `spdx_id` for a licence file it found but could not identify. */
const NOASSERTION = 'NOASSERTION';

type PackageLicense =
  | { kind: 'spdx'; expression: string; ids: string[] }
  | { kind: 'unlicensed'; expression: string }
  | { kind: 'unreadable'; label: string };

/** The package's declared licence, from npm (`license`) or PyPI (its SPDX mapping); undefined without a package. */
function packageLicense(registry: RegistryFacts | undefined, pypi: PypiFacts | undefined): PackageLicense | undefined {
  let declared: string | null;
  if (registry !== undefined) declared = registry.license;
  else if (pypi !== undefined) declared = pypi.license.spdx ?? pypi.license.expression;
  else return undefined;
  return readLicense(declared);
}

function readLicense(declared: string | null): PackageLicense {
  const read = readDeclaredLicense(declared);
  switch (read.kind) {
    case 'spdx':
    case 'corrected':
      return { kind: 'spdx', expression: read.expression, ids: read.ids };
    case 'unlicensed':
      return { kind: 'unlicensed', expression: 'UNLICENSED' };
    case 'none':
      return { kind: 'unreadable', label: 'none declared' };
    case 'see-file':
    case 'invalid':
      return { kind: 'unreadable', label: truncate((declared ?? '').trim(), 120) };
  }
}

export default defineCheck({
  id: 'license-consistency',
  dimension: 'compliance',
  weight: 1,
  // A repository target compares the licences its own manifests declare (the `documents` view).
  needs: ['github'],
  optional: ['release', 'registry', 'pypi', 'documents'],
  title: 'Licence matches the repository',
  description:
    'Compares the package\'s declared licence (npm `license`, or the SPDX licence of the PyPI metadata, corrected if needed) with the licence GitHub detects in the repository, case-insensitively and with GPL `-only`/`-or-later` variants matched: the repository\'s licence among the declared ids scores 100, no licence detected in the repository 40, a different licence (or UNLICENSED against an open licence) 20. ' +
    'Unknown when GitHub cannot identify the repository\'s licence (NOASSERTION), when the package declares nothing comparable (the licence-declared check scores that). ' +
    'A `github:` target compares the licences the manifests of its published packages declare (or, without one, the licences its licence files hold, any of which may apply) with the licence GitHub detects; manifests that disagree among themselves score 40; a declaration that names no SPDX licence unambiguously (a Maven licence name, a gemspec licence that is not a string literal) is unknown, never guessed; unknown when the answer did not say which licence GitHub detects, and at a pinned ref (`github:owner/repo@ref`), where the repository\'s detection is the default branch\'s — unless GitHub\'s licence answer at the ref\'s commit names the very LICENSE blob the commit holds, which is then compared; left out when neither a manifest nor a licence file names one.',
  messages: {
    consistent: 'The package licence {declared} matches the repository\'s ({repositoryLicense})',
    different: 'The package declares {declared} but the repository {repository} is licensed {repositoryLicense}',
    'repository-none': 'The package declares {declared}, but GitHub finds no licence in {repository}',
    'repository-unrecognised': 'Unknown: GitHub could not identify the licence of {repository} (NOASSERTION)',
    'package-unreadable': 'Unknown: the package licence ({declared}) is not an SPDX licence to compare with',
    'package-unavailable': 'Unknown: the package\'s declared licence is unavailable (its registry could not answer)',
    'manifests-disagree': 'The manifests declare different licences: {declared}',
    'declared-unmapped': 'Unknown: a manifest declares {declared}, which names no SPDX licence unambiguously (or is not evaluated)',
    'detection-unknown': 'Unknown: GitHub\'s answer does not say which licence it detects in {repository}',
    'detection-default-branch': 'Unknown: the licence GitHub detects in {repository} is its default branch\'s ({defaultBranch}), not the pinned ref\'s whose files were read',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github, registry, pypi, release, documents }) => {
    const read = readGithub(github);
    if (!read.ok) return read.outcome;
    let repoLicense = read.repository.license;
    let declared: PackageLicense | undefined;
    if (documents?.ecosystem === 'github') {
      const own = repositoryDeclared(documents);
      if (own.kind === 'none') return { score: null, messageId: 'package-unreadable', data: { ...read.data, declared: null }, notApplicable: true };
      // At a pinned ref GitHub's detection is the default branch's: comparing it with the ref's
      // files would mix two states. Manifests at the ref that disagree among themselves still do.
      const elsewhere = documents.detectedElsewhere;
      if (elsewhere !== undefined) {
        if (own.kind === 'disagree') return { score: 40, messageId: 'manifests-disagree', data: { ...read.data, declared: own.label, repositoryLicense: null } };
        return { score: null, messageId: 'detection-default-branch', data: { ...read.data, declared: own.label, defaultBranch: elsewhere.defaultBranch } };
      }
      if (documents.detectedLicense === undefined) return { score: null, messageId: 'detection-unknown', data: { ...read.data, declared: own.label } };
      // The detection that describes the files read: the repository's, or at a pinned ref the commit's own (files.licenceAtRef).
      repoLicense = documents.detectedLicense;
      if (own.kind === 'unmapped') return { score: null, messageId: 'declared-unmapped', data: { ...read.data, declared: own.label } };
      if (own.kind === 'disagree') return { score: 40, messageId: 'manifests-disagree', data: { ...read.data, declared: own.label, repositoryLicense: repoLicense ?? 'no licence' } };
      declared = readLicense(own.text);
    } else {
      // A package: `release` answers for the registry or PyPI facts; without it nothing is compared.
      if (release === undefined) return { score: null, messageId: 'package-unavailable', data: { ...read.data, declared: null } };
      declared = packageLicense(registry, pypi);
    }
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      repositoryLicense: repoLicense ?? 'no licence',
      repositoryLicenseId: repoLicense,
      declared: null,
    };
    // `release` is a need, so the registry or PyPI facts are here; nothing declared reads as unreadable.
    if (declared === undefined) return { score: null, messageId: 'package-unreadable', data };
    data.declared = declared.kind === 'unreadable' ? declared.label : declared.expression;
    if (repoLicense !== null && repoLicense.toUpperCase() === NOASSERTION) {
      return { score: null, messageId: 'repository-unrecognised', data };
    }
    if (declared.kind === 'unreadable') return { score: null, messageId: 'package-unreadable', data };
    if (repoLicense === null) {
      // UNLICENSED and no licence in the repository agree: neither grants anything.
      return declared.kind === 'unlicensed'
        ? { score: 100, messageId: 'consistent', data }
        : { score: 40, messageId: 'repository-none', data };
    }
    if (declared.kind === 'unlicensed') return { score: 20, messageId: 'different', data };
    data.declaredIds = declared.ids;
    const consistent = declared.ids.some((id) => licenseKey(id) === licenseKey(repoLicense));
    return consistent ? { score: 100, messageId: 'consistent', data } : { score: 20, messageId: 'different', data };
  },
});

/**
 * What a repository target declares: its published manifests' licences (a `SEE LICENSE IN <file>`
 * pointer is no licence to compare), else the licences its licence files hold, taken together as
 * alternatives (LICENSE-MIT beside UNLICENSE, or one file holding both texts, offers either).
 */
function repositoryDeclared(
  documents: DocumentsFacts,
): { kind: 'none' } | { kind: 'one'; text: string; label: string } | { kind: 'disagree'; label: string } | { kind: 'unmapped'; label: string } {
  const declared = (documents.manifestLicenses ?? []).flatMap((m) => (m.license === null || readDeclaredLicense(m.license).kind === 'see-file' ? [] : [m.license.trim()]));
  if (declared.length > 0) {
    const distinct = [...new Map(declared.map((t) => [licenseKey(t), t])).values()];
    const label = truncate(distinct.join(', '), 120);
    return distinct.length === 1 ? { kind: 'one', text: distinct[0] ?? '', label } : { kind: 'disagree', label };
  }
  // A declaration nerq does not map to SPDX (or does not evaluate) is never guessed, nor passed over for the licence files.
  const unmapped = (documents.manifestLicenses ?? []).flatMap((m) => (m.unmapped === undefined ? [] : [m.unmapped]));
  if (unmapped.length > 0) return { kind: 'unmapped', label: truncate(unmapped.join(', '), 120) };
  const held = (documents.licenseFiles ?? []).flatMap(licensesInFile);
  const ids = [...new Map(held.map((t) => [licenseKey(t), t])).values()];
  if (ids.length === 0) return { kind: 'none' };
  const text = ids.join(' OR ');
  return { kind: 'one', text, label: truncate(text, 120) };
}

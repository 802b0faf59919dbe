/**
 * provenance: whether the published version carries a build provenance attestation, who
 * built it from where (SLSA predicate; PEP 740 publisher for PyPI), and whether that source
 * repository is the one the package declares — a mismatch is a red flag.
 */
import hostedGitInfo from 'hosted-git-info';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import type { ReleaseFacts } from './views/release.js';
import { parseTime } from './lib/releases.js';

/**
 * When each registry began to carry provenance: npm build provenance became generally available
 * on 2023-04-19, PyPI digital attestations (PEP 740) on 2024-11-14. A release published before
 * could not have any, so lacking it says nothing about the release: the check does not apply.
 */
export const PROVENANCE_SINCE: Readonly<Record<ReleaseFacts['ecosystem'], string>> = {
  npm: '2023-04-19T00:00:00.000Z',
  pypi: '2024-11-14T00:00:00.000Z',
};

/** True when the resolved release was published before its registry offered provenance. */
export function predatesProvenance(release: ReleaseFacts): boolean {
  const published = parseTime(release.releases.find((r) => r.version === release.version)?.time ?? null);
  return published !== null && published.getTime() < Date.parse(PROVENANCE_SINCE[release.ecosystem]);
}

/**
 * A repository reference reduced to `host/owner/repo`, lower case, for comparison: `git+`,
 * scheme, credentials, `.git`, a trailing slash, a fragment and a SLSA `@refs/…` or `@<sha>`
 * suffix are ignored. Null when it is not a repository URL at all.
 */
export function repositoryKey(reference: string): string | null {
  const text = reference.trim().replace(/@(?:refs\/\S*|[0-9a-f]{40})$/i, '');
  if (text === '') return null;
  const hosted = hostedGitInfo.fromUrl(text);
  if (hosted !== undefined) return `${hosted.domain}/${hosted.user}/${hosted.project}`.toLowerCase();
  let url: URL;
  try {
    url = new URL(text.replace(/^git\+/i, ''));
  } catch {
    return null;
  }
  const path = url.pathname.replace(/(?<!\/)\/+$/, '').replace(/\.git$/i, '').replace(/(?<!\/)\/+$/, '');
  if (url.hostname === '' || path === '') return null;
  return `${url.hostname}${path}`.toLowerCase();
}

/** The declared repository as a comparable URL: the browse URL, else the raw value. */
function declaredRepository(release: ReleaseFacts): string | null {
  return release.repository === null ? null : (release.repository.url ?? release.repository.raw);
}

/** The message when the release has no attestation: npm's packument says so; elsewhere it is unknown. */
const NO_ATTESTATION: Readonly<Record<ReleaseFacts['ecosystem'], 'not-in-packument' | 'unknown'>> = { npm: 'not-in-packument', pypi: 'unknown' };

export default defineCheck({
  id: 'provenance',
  dimension: 'security',
  weight: 2,
  needs: ['release'],
  optional: ['attestations'],
  title: 'Build provenance',
  description:
    'Checks for a provenance attestation — npm `dist.attestations` (SLSA predicate), PyPI PEP 740 provenance on the release files (its Trusted Publisher) — and reads the source repository and workflow that built the release; the repository to compare with is the one the npm manifest or the PyPI project URLs declare. ' +
    'Built from the declared repository scores 100, no repository declared to compare with 80, attestation details unavailable or naming no repository 90, no attestation 50, and a source repository other than the declared one 10 (a red flag); unknown when PyPI did not say whether the files carry provenance, and when the abbreviated npm package metadata a mirror serves has no `dist.attestations`: mirrors leave them out. ' +
    'The attestation signature is not verified against the Sigstore trust root unless the evidence says so, and npm registry signatures alone earn nothing (their count is recorded); ' +
    `a release without provenance published before its registry offered it (npm: ${PROVENANCE_SINCE.npm.slice(0, 10)}, PyPI: ${PROVENANCE_SINCE.pypi.slice(0, 10)}) could not have any, so the check does not apply to it, and a mismatch holds the verdict at CAUTION.`,
  messages: {
    none: 'No provenance attestation; the build cannot be traced to a source commit',
    predates: 'No provenance attestation: published before the registry offered provenance',
    unknown: 'Provenance unknown: PyPI did not say whether the release files carry provenance',
    'not-in-packument': 'Provenance unknown: the registry (likely a mirror) served the package metadata without its provenance attestations',
    'details-unavailable': 'Attestation listed; details unavailable',
    'no-source': 'Attestation listed, but it names no source repository',
    matches: 'Built from {repository} by {workflowLabel} (attestation found, signature not verified)',
    'matches-verified': 'Built from {repository} by {workflowLabel} (attestation verified)',
    undeclared: 'Built from {repository} by {workflowLabel}; the package declares no repository to compare with',
    mismatch: 'Provenance says built from {repository} but the package declares {declaredRepository}: a red flag',
  },
  evaluate: ({ release, attestations }) => {
    const signatures = release.signatures;
    const attestation = release.attestation;
    if (attestation === null) return { score: null, messageId: NO_ATTESTATION[release.ecosystem], data: { signatures } };
    if (attestation === false) {
      if (predatesProvenance(release)) return { score: null, messageId: 'predates', data: { signatures }, notApplicable: true };
      return { score: 50, messageId: 'none', data: { signatures } };
    }
    const listed: Record<string, EvidenceValue> = {
      signatures,
      url: attestation.url,
      predicateType: attestation.predicateType,
    };
    if (attestations === undefined) return { score: 90, messageId: 'details-unavailable', data: listed };
    const declared = declaredRepository(release);
    const data: Record<string, EvidenceValue> = {
      ...listed,
      predicateType: attestations.predicateType ?? attestation.predicateType,
      repository: attestations.sourceRepository,
      declaredRepository: declared,
      workflow: attestations.workflow,
      workflowLabel: attestations.workflow ?? 'an unnamed workflow',
      ref: attestations.ref,
      commit: attestations.commit,
      builder: attestations.builder,
      verified: attestations.verified,
    };
    const source = attestations.sourceRepository === null ? null : repositoryKey(attestations.sourceRepository);
    if (!attestations.provenance || source === null) return { score: 90, messageId: 'no-source', data };
    const declaredKey = declared === null ? null : repositoryKey(declared);
    if (declaredKey === null) return { score: 80, messageId: 'undeclared', data };
    if (declaredKey !== source) {
      return {
        score: 10,
        messageId: 'mismatch',
        data,
        holdVerdict: `its provenance says it was built from ${attestations.sourceRepository} while the package declares ${declared}: the release may not come from the code you would review; a release whose provenance names the declared repository would lift this`,
      };
    }
    return { score: 100, messageId: attestations.verified ? 'matches-verified' : 'matches', data };
  },
});

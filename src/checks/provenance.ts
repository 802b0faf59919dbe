/**
 * provenance: whether the published version carries a build provenance attestation, who
 * built it from where (SLSA predicate), and whether that source repository is the one the
 * package declares — a mismatch is a red flag.
 */
import hostedGitInfo from 'hosted-git-info';
import type { RegistryFacts } from '../evidence/schema.js';
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

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
  const path = url.pathname.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  if (url.hostname === '' || path === '') return null;
  return `${url.hostname}${path}`.toLowerCase();
}

/** The declared repository as a comparable URL: the browse URL, else the raw value. */
function declaredRepository(registry: RegistryFacts): string | null {
  return registry.repository === null ? null : (registry.repository.url ?? registry.repository.raw);
}

export default defineCheck({
  id: 'provenance',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['attestations'],
  title: 'Build provenance',
  description:
    'Checks for an npm provenance attestation (`dist.attestations`) and reads its SLSA predicate: the source repository and workflow that built the tarball. ' +
    'Built from the declared repository scores 100, no repository declared to compare with 80, attestation details unavailable or naming no repository 90, no attestation 50, and a source repository other than the declared one 10 (a red flag). ' +
    'The attestation signature is not verified against the Sigstore trust root unless the evidence says so; registry signatures alone earn nothing (their count is recorded).',
  messages: {
    none: 'No provenance attestation; the build cannot be traced to a source commit',
    'details-unavailable': 'Attestation listed; details unavailable',
    'no-source': 'Attestation listed, but it names no source repository',
    matches: 'Built from {repository} by {workflowLabel} (attestation found, signature not verified)',
    'matches-verified': 'Built from {repository} by {workflowLabel} (attestation verified)',
    undeclared: 'Built from {repository} by {workflowLabel}; the package declares no repository to compare with',
    mismatch: 'Provenance says built from {repository} but the package declares {declaredRepository}: a red flag',
  },
  evaluate: ({ registry, attestations }) => {
    const signatures = registry.signatures;
    if (registry.attestations === null) return { score: 50, messageId: 'none', data: { signatures } };
    const listed: Record<string, EvidenceValue> = {
      signatures,
      url: registry.attestations.url,
      predicateType: registry.attestations.predicateType,
    };
    if (attestations === undefined) return { score: 90, messageId: 'details-unavailable', data: listed };
    const declared = declaredRepository(registry);
    const data: Record<string, EvidenceValue> = {
      ...listed,
      predicateType: attestations.predicateType ?? registry.attestations.predicateType,
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
    if (declaredKey !== source) return { score: 10, messageId: 'mismatch', data };
    return { score: 100, messageId: attestations.verified ? 'matches-verified' : 'matches', data };
  },
});

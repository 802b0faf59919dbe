/**
 * provenance: whether the published version carries a build provenance attestation.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'provenance',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  title: 'Build provenance',
  description:
    'Checks for an npm provenance attestation (`dist.attestations`), which ties the tarball to a source commit and CI build. ' +
    'Attested scores 100, none 50; registry signatures alone earn nothing (their count is recorded).',
  messages: {
    attested: 'Provenance attestation present ({predicateType})',
    'attested-untyped': 'Attestation present (its predicate type is not stated)',
    none: 'No provenance attestation; the build cannot be traced to a source commit',
  },
  evaluate: ({ registry }) => {
    const signatures = registry.signatures;
    if (registry.attestations === null) return { score: 50, messageId: 'none', data: { signatures } };
    const data: Record<string, EvidenceValue> = {
      predicateType: registry.attestations.predicateType,
      url: registry.attestations.url,
      signatures,
    };
    return { score: 100, messageId: data.predicateType === null ? 'attested-untyped' : 'attested', data };
  },
});

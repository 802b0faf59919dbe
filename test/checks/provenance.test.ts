import check from '../../src/checks/provenance.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  {
    name: 'SLSA provenance attestation',
    evidence: evidence(),
    score: 100,
    messageId: 'attested',
    data: { predicateType: 'https://slsa.dev/provenance/v1', signatures: 1 },
    message: ['https://slsa.dev/provenance/v1'],
  },
  {
    name: 'attestation without a predicate type',
    evidence: evidence({ registry: { attestations: { url: 'https://example.test/a', predicateType: null } } }),
    score: 100,
    messageId: 'attested-untyped',
    data: { url: 'https://example.test/a', predicateType: null },
  },
  {
    name: 'no attestation: registry signatures alone earn nothing',
    evidence: evidence({ registry: { attestations: null, signatures: 2 } }),
    score: 50,
    messageId: 'none',
    data: { signatures: 2 },
    message: ['the build cannot be traced to a source commit'],
  },
  { name: 'no attestation, no signatures', evidence: evidence({ registry: { attestations: null, signatures: 0 } }), score: 50, messageId: 'none' },
]);

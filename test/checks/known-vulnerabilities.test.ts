import { describe, expect, it } from 'vitest';
import check from '../../src/checks/known-vulnerabilities.js';
import { evidence, ok } from '../support/evidence-builder.js';
import { checkTable, runCheck } from './check-table.js';

checkTable(check, [
  { name: 'no advisories', evidence: evidence({ vulnerabilities: ok({ advisories: [] }) }), score: 100, messageId: 'none', data: { count: 0 } },
  {
    name: 'advisories are not evaluated yet',
    evidence: evidence({ vulnerabilities: ok({ advisories: [{ id: 'GHSA-xxxx' }, { id: 'GHSA-yyyy' }] }) }),
    score: null,
    messageId: 'not-evaluated',
    data: { count: 2 },
  },
]);

describe('known-vulnerabilities today', () => {
  it('guards danger and is unknown while there is no vulnerability source', () => {
    expect(check.guardsDanger).toBe(true);
    expect(runCheck(check, evidence())).toEqual({ kind: 'unknown-source', source: 'vulnerabilities' });
  });
});

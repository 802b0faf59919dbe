import { describe, expect, it } from 'vitest';
import check from '../../src/checks/deprecation.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

checkTable(check, [
  {
    name: 'deprecated',
    evidence: evidence({ registry: { deprecated: 'use other-pkg instead' } }),
    score: 0,
    messageId: 'deprecated',
    data: { deprecated: true, message: 'use other-pkg instead' },
    caps: [{ id: 'deprecated', limit: 49.9, reason: 'version is deprecated: use other-pkg instead' }],
  },
  { name: 'not deprecated', evidence: evidence(), score: 100, messageId: 'not-deprecated', data: { deprecated: false } },
  { name: 'empty message un-deprecates', evidence: evidence({ registry: { deprecated: '' } }), score: 100, messageId: 'not-deprecated' },
  {
    name: 'unknown on a trimmed packument',
    evidence: evidence({ registry: { deprecated: null, trimmed: true } }),
    score: null,
    messageId: 'unknown',
    message: ['the registry did not include it'],
  },
]);

describe('deprecation message', () => {
  it('keeps at most 200 characters of a hostile message in data and the cap reason', () => {
    const outcome = outcomeOf(check, evidence({ registry: { deprecated: `  ${'z'.repeat(1000)}` } }));
    expect(Array.from(String(outcome.data?.message)).length).toBe(200);
    expect(outcome.caps?.[0]?.reason.length).toBeLessThan(240);
  });
});

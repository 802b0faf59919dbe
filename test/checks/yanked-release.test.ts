import { describe, expect, it } from 'vitest';
import check, { YANKED_LIMIT } from '../../src/checks/yanked-release.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, runCheck } from './check-table.js';

const yanked = (yankedReason: string | null) => pypiEvidence({ pypi: { version: '2.1.0', yanked: true, yankedReason } });

checkTable(check, [
  { name: 'not yanked', evidence: pypiEvidence(), score: 100, messageId: 'not-yanked', data: { yanked: false } },
  {
    name: 'yanked with a reason',
    evidence: yanked('Broken wheel for Python 3.12'),
    score: 0,
    messageId: 'yanked',
    data: { yanked: true, version: '2.1.0', reason: 'Broken wheel for Python 3.12' },
    caps: [{ id: 'yanked', limit: 49.9, reason: 'release 2.1.0 is yanked: Broken wheel for Python 3.12' }],
    message: ['Yanked from PyPI: Broken wheel for Python 3.12'],
  },
  {
    name: 'yanked without a reason',
    evidence: yanked(null),
    score: 0,
    messageId: 'yanked-no-reason',
    data: { reason: null },
    caps: [{ id: 'yanked', limit: 49.9, reason: 'release 2.1.0 is yanked' }],
  },
  {
    name: 'a blank reason is no reason',
    evidence: yanked('   '),
    score: 0,
    messageId: 'yanked-no-reason',
    caps: [{ id: 'yanked', limit: 49.9, reason: 'release 2.1.0 is yanked' }],
  },
  {
    name: 'a long reason is cut in evidence and cap',
    evidence: yanked('x'.repeat(500)),
    score: 0,
    messageId: 'yanked',
    data: { reason: `${'x'.repeat(199)}…` },
    caps: [{ id: 'yanked', limit: 49.9, reason: `release 2.1.0 is yanked: ${'x'.repeat(199)}…` }],
  },
]);

describe('yanked-release', () => {
  it('caps like an npm deprecation', () => {
    expect(YANKED_LIMIT).toBe(49.9);
  });

  it('needs the PyPI facts: unknown when they are unavailable', () => {
    expect(runCheck(check, pypiEvidence({ pypi: unavailable('PyPI: HTTP 503') }))).toEqual({ kind: 'unknown-source', source: 'pypi' });
  });

  it('has no PyPI facts to read for an npm package', () => {
    expect(evidence().sources.pypi.status).toBe('not-applicable');
  });
});

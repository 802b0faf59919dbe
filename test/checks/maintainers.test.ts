import check from '../../src/checks/maintainers.js';
import { evidence } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const count = (maintainers: number | null) => evidence({ registry: { maintainers } });

checkTable(check, [
  { name: 'unknown (trimmed packument)', evidence: count(null), score: null, messageId: 'unknown', message: ['the registry did not include it'] },
  { name: '0', evidence: count(0), score: 0, messageId: 'none', data: { maintainers: 0 } },
  { name: '1', evidence: count(1), score: 40, messageId: 'single', message: ['bus factor 1'] },
  { name: '2', evidence: count(2), score: 70, messageId: 'two' },
  { name: '3', evidence: count(3), score: 100, messageId: 'many', data: { maintainers: 3 } },
  { name: '25', evidence: count(25), score: 100, messageId: 'many', message: ['25 maintainers'] },
  // PyPI: owners and maintainers (ownership.roles).
  { name: 'PyPI: 2 roles', evidence: pypiEvidence(), score: 70, messageId: 'two', data: { maintainers: 2 } },
  { name: 'PyPI: 1 owner', evidence: pypiEvidence({ pypi: { owners: 1 } }), score: 40, messageId: 'single' },
  {
    name: 'PyPI: roles not given',
    evidence: pypiEvidence({ pypi: { owners: null } }),
    score: null,
    messageId: 'unknown-pypi',
    message: ['PyPI did not give the project roles'],
  },
]);

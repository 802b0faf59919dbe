import check from '../../src/checks/dependency-footprint.js';
import { evidence } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const deps = (dependencies: number) => evidence({ registry: { dependencies } });

checkTable(check, [
  { name: '0', evidence: deps(0), score: 100, messageId: 'small', data: { dependencies: 0 } },
  { name: '1: the singular', evidence: deps(1), score: 100, messageId: 'one', data: { dependencies: 1 } },
  { name: '5', evidence: deps(5), score: 100, messageId: 'small', data: { dependencies: 5 } },
  { name: '6', evidence: deps(6), score: 80, messageId: 'moderate' },
  { name: '15', evidence: deps(15), score: 80, messageId: 'moderate' },
  { name: '16', evidence: deps(16), score: 60, messageId: 'large' },
  { name: '30', evidence: deps(30), score: 60, messageId: 'large' },
  { name: '31', evidence: deps(31), score: 40, messageId: 'huge', data: { dependencies: 31 } },
  // PyPI: requires_dist without an extra marker (environment markers count).
  {
    name: 'PyPI: one runtime requirement, one from an extra',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'one',
    data: { dependencies: 1, optionalDependencies: 1, peerDependencies: null },
  },
  {
    name: 'PyPI: 16 requirements',
    evidence: pypiEvidence({
      pypi: { dependencies: Array.from({ length: 16 }, (_, i) => ({ name: `dep-${i}`, specifier: '>=1', marker: i === 0 ? 'python_version < "3.11"' : null })) },
    }),
    score: 60,
    messageId: 'large',
    data: { dependencies: 16 },
  },
]);

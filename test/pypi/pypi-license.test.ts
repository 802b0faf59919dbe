/**
 * The licence mapping: PEP 639 expression first, then the classifier table, then short free
 * text — and null, with the text kept, wherever the metadata is ambiguous.
 */
import { describe, expect, test } from 'vitest';
import { CLASSIFIER_SPDX, MAX_LICENSE_TEXT, pypiLicense, spdxFromClassifiers, spdxFromText } from '../../src/sources/pypi/license.js';

const OSI = (name: string) => `License :: OSI Approved :: ${name}`;
const input = (over: Partial<Parameters<typeof pypiLicense>[0]> = {}) => ({
  license_expression: null,
  license: null,
  license_files: null,
  classifiers: [],
  ...over,
});

describe('order: expression, classifiers, text', () => {
  test('a PEP 639 expression wins and keeps the other fields as given', () => {
    expect(
      pypiLicense(input({ license_expression: 'BSD-3-Clause', license_files: ['LICENSE.txt'], classifiers: [OSI('MIT License')], license: 'MIT' })),
    ).toEqual({
      expression: 'BSD-3-Clause',
      classifiers: [OSI('MIT License')],
      text: 'MIT',
      spdx: 'BSD-3-Clause',
      source: 'expression',
      files: ['LICENSE.txt'],
    });
  });

  test('compound expressions are kept as written', () => {
    expect(pypiLicense(input({ license_expression: 'Apache-2.0 OR MIT' }))).toMatchObject({ spdx: 'Apache-2.0 OR MIT', source: 'expression' });
    expect(pypiLicense(input({ license_expression: 'GPL-2.0-or-later WITH Classpath-exception-2.0' }))).toMatchObject({ source: 'expression' });
  });

  test('an invalid expression falls through to the classifiers', () => {
    expect(pypiLicense(input({ license_expression: 'MIT License', classifiers: [OSI('MIT License')] }))).toMatchObject({
      expression: 'MIT License',
      spdx: 'MIT',
      source: 'classifier',
    });
  });

  test('an ambiguous classifier falls through to the text', () => {
    expect(pypiLicense(input({ classifiers: [OSI('BSD License')], license: 'BSD 3-Clause' }))).toMatchObject({ spdx: 'BSD-3-Clause', source: 'text' });
  });

  test('nothing usable → null, the text kept (capped)', () => {
    const body = `Copyright (c) 2019\n\nPermission is hereby granted ${'x'.repeat(3000)}`;
    const result = pypiLicense(input({ classifiers: [OSI('BSD License')], license: body }));
    expect(result.spdx).toBeNull();
    expect(result.source).toBeNull();
    expect(result.text).toHaveLength(MAX_LICENSE_TEXT);
    expect(result.text?.startsWith('Copyright (c) 2019')).toBe(true);
  });

  test('placeholders are no text (setuptools writes UNKNOWN)', () => {
    expect(pypiLicense(input({ license: 'UNKNOWN' })).text).toBeNull();
    expect(pypiLicense(input({ license: '  ' })).text).toBeNull();
    expect(pypiLicense(input()).files).toBeNull();
  });
});

describe('classifier table', () => {
  test.each([
    ['MIT License', 'MIT'],
    ['Apache Software License', 'Apache-2.0'],
    ['ISC License (ISCL)', 'ISC'],
    ['Mozilla Public License 2.0 (MPL 2.0)', 'MPL-2.0'],
    ['Python Software Foundation License', 'PSF-2.0'],
    ['The Unlicense (Unlicense)', 'Unlicense'],
    ['GNU General Public License v3 (GPLv3)', 'GPL-3.0-only'],
    ['GNU General Public License v3 or later (GPLv3+)', 'GPL-3.0-or-later'],
    ['GNU Lesser General Public License v3 or later (LGPLv3+)', 'LGPL-3.0-or-later'],
    ['BSD License', null],
    ['GNU Lesser General Public License v2 or later (LGPLv2+)', null],
    ['GNU General Public License (GPL)', null],
    ['Artistic License', null],
  ])('%s → %s', (name, spdx) => {
    expect(spdxFromClassifiers([OSI(name)])).toBe(spdx);
  });

  test('CC0 and non-OSI classifiers', () => {
    expect(spdxFromClassifiers(['License :: CC0 1.0 Universal (CC0 1.0) Public Domain Dedication'])).toBe('CC0-1.0');
    expect(spdxFromClassifiers(['License :: Public Domain'])).toBeNull();
    expect(spdxFromClassifiers(['License :: Other/Proprietary License'])).toBeNull();
  });

  test('two different licences: AND or OR is not said → null; the same one twice is fine', () => {
    expect(spdxFromClassifiers([OSI('MIT License'), OSI('Apache Software License')])).toBeNull();
    expect(spdxFromClassifiers([OSI('MIT License'), OSI('BSD License')])).toBe('MIT');
  });

  test('every mapped id is a valid SPDX id', async () => {
    const { isSpdxExpression } = await import('../../src/sources/pypi/license.js');
    for (const id of Object.values(CLASSIFIER_SPDX)) if (id !== null) expect(isSpdxExpression(id), id).toBe(true);
  });
});

describe('free text', () => {
  test.each([
    ['MIT', 'MIT'],
    ['MIT License', 'MIT'],
    ['Apache 2.0', 'Apache-2.0'],
    ['Apache License, Version 2.0', 'Apache-2.0'],
    ['Apache-2.0 OR MIT', 'Apache-2.0 OR MIT'],
    ['BSD 3-Clause', 'BSD-3-Clause'],
    ['new BSD', 'BSD-3-Clause'],
    ['MPL 2.0', 'MPL-2.0'],
    ['GPLv3+', 'GPL-3.0-or-later'],
    ['GPL v2 or later', 'GPL-2.0-or-later'],
    // Ambiguous: spdx-correct would guess these; nerq does not.
    ['BSD', null],
    ['GPLv3', null],
    ['LGPL', null],
    ['Apache', null],
    ['Public Domain', null],
    ['Python Software Foundation License', null],
    ['See LICENSE.txt for details; some files are covered by other terms', null],
  ])('%j → %s', (text, spdx) => {
    expect(spdxFromText(text)).toBe(spdx);
  });

  test('multi-line text is never a licence name', () => {
    expect(spdxFromText('MIT\n\nPermission is hereby granted')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { correctLicense, licenseKey, readDeclaredLicense } from '../../../src/checks/lib/spdx.js';

describe('readDeclaredLicense', () => {
  it.each<[string | null, string, Record<string, unknown>]>([
    [null, 'none', {}],
    ['', 'none', {}],
    ['MIT', 'spdx', { ids: ['MIT'] }],
    ['  MIT  ', 'spdx', { expression: 'MIT' }],
    ['(MIT OR Apache-2.0)', 'spdx', { ids: ['MIT', 'Apache-2.0'] }],
    ['MIT OR MIT', 'spdx', { ids: ['MIT'] }],
    ['unlicensed', 'unlicensed', {}],
    ['SEE LICENSE IN ./LICENSE', 'see-file', { file: './LICENSE' }],
    ['see licence in COPYING.md', 'see-file', { file: 'COPYING.md' }],
    ['Apache 2.0', 'corrected', { expression: 'Apache-2.0' }],
    ['bsd-3-clause', 'corrected', { expression: 'BSD-3-Clause' }],
    ['MIT OR Apache 2.0', 'corrected', { expression: 'MIT OR Apache-2.0' }],
    ['Public Domain', 'invalid', { tooLong: false }],
    ['x'.repeat(300), 'invalid', { tooLong: true }],
  ])('%j → %s', (text, kind, extra) => {
    expect(readDeclaredLicense(text)).toMatchObject({ kind, ...extra });
  });

  it('never maps UNLICENSED to the Unlicense', () => {
    expect(readDeclaredLicense('UNLICENSED').kind).toBe('unlicensed');
  });

  it('does not "correct" text that is already valid', () => {
    expect(correctLicense('MIT')).toBeNull();
  });
});

describe('licenseKey', () => {
  it.each([
    ['GPL-3.0', 'gpl-3.0'],
    ['GPL-3.0-only', 'gpl-3.0'],
    ['GPL-3.0-or-later', 'gpl-3.0'],
    ['GPL-3.0+', 'gpl-3.0'],
    ['LGPL-2.1-only', 'lgpl-2.1'],
    ['AGPL-3.0-or-later', 'agpl-3.0'],
    ['MIT', 'mit'],
    ['Apache-2.0', 'apache-2.0'],
  ])('%s → %s', (id, key) => {
    expect(licenseKey(id)).toBe(key);
  });
});

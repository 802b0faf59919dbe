/**
 * The pure parts of the dependency-confusion check that `nerq audit` runs (the end-to-end cases
 * are in audit-registries.test.ts): telling a private mirror of a public release (same version,
 * same bytes) from another package under the same name, on hostile packuments.
 */
import { describe, expect, it } from 'vitest';
import { evaluatedRelease, publishesSameRelease } from '../../src/audit/dependency-confusion.js';
import { evidence, unavailable } from '../support/evidence-builder.js';

const SHA512 = 'sha512-R1a0i6rXaMEJrmBis4Gf3izNdwHF5Gz/YY7b+kNFdoze1L66Dl0J5Xzdv2ODDKcfdBSp5FpjufSnhpTJ2k6rgg==';
const OTHER512 = 'sha512-99TW0nCc0kEHEBO8KSBBTK2UbWv0+fIAQ+5T1GDnD/feXD0Dyu0Enye3WoVF84kAoy2+yO/T0CSt0JfKuy+Gkg==';
const SHA1 = 'sha1-2aaGv2lyUFjCwxF2LZmcP/Df5qs=';
const release = { version: '1.2.0', integrity: SHA512 };

const packument = (versions: unknown): Record<string, unknown> => ({ name: '@corp/lib', versions });

describe('publishesSameRelease', () => {
  it.each([
    ['the same version with the same bytes (a mirror)', packument({ '1.2.0': { dist: { integrity: SHA512 } } }), true],
    ['the same version, several hashes, one shared', packument({ '1.2.0': { dist: { integrity: `${SHA1} ${SHA512}` } } }), true],
    ['the same version with other bytes', packument({ '1.2.0': { dist: { integrity: OTHER512 } } }), false],
    ['other versions only (a squatter at 9.9.9)', packument({ '9.9.9': { dist: { integrity: SHA512 } } }), false],
    ['the version without an integrity', packument({ '1.2.0': { dist: { shasum: 'abc' } } }), false],
    ['a sha1 pin and the same bytes as dist.shasum', packument({ '1.2.0': { dist: { shasum: 'd9a686bf69725058c2c311762d999c3ff0dfe6ab' } } }), 'sha1'],
    ['a sha1 pin and other bytes as dist.shasum', packument({ '1.2.0': { dist: { shasum: '0000000000000000000000000000000000000000' } } }), 'not sha1'],
    ['an integrity that is not a string', packument({ '1.2.0': { dist: { integrity: [SHA512] } } }), false],
    ['a manifest that is not an object', packument({ '1.2.0': 'sha512' }), false],
    ['versions that are not an object', packument([{ dist: { integrity: SHA512 } }]), false],
    ['no versions at all', { name: '@corp/lib' }, false],
    ['the version only on the prototype', packument(Object.create({ '1.2.0': { dist: { integrity: SHA512 } } }) as object), false],
  ])('%s → %s', (_label, doc, same) => {
    // 'sha1' / 'not sha1': the release is pinned by its sha1 only (SHA1 is d9a686bf… in hex).
    if (same === 'sha1' || same === 'not sha1') expect(publishesSameRelease(doc, { version: '1.2.0', integrity: SHA1 })).toBe(same === 'sha1');
    else expect(publishesSameRelease(doc, release)).toBe(same);
  });

  it('a prototype-polluting key in the document changes nothing', () => {
    const hostile = JSON.parse(`{"versions": {"__proto__": {"1.2.0": {"dist": {"integrity": "${SHA512}"}}}}}`) as Record<string, unknown>;
    expect(publishesSameRelease(hostile, release)).toBe(false);
    expect(({} as Record<string, unknown>)['1.2.0']).toBeUndefined();
  });
});

describe('evaluatedRelease', () => {
  it('the version and integrity the evaluation read from the registry', () => {
    const read = evidence({ registry: { integrity: SHA512 } });
    expect(evaluatedRelease(read)).toEqual({ version: read.target.version, integrity: SHA512 });
  });

  it.each([
    ['no evidence (the package could not be evaluated)', null],
    ['the registry unavailable', evidence({ registry: unavailable('packument: HTTP 503') })],
    ['no integrity in the packument', evidence({ registry: { integrity: null } })],
  ])('nothing to compare with: %s', (_label, given) => {
    expect(evaluatedRelease(given)).toBeNull();
  });
});

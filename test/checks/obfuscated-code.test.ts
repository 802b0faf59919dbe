import { describe, expect, it } from 'vitest';
import { TarballFactsSchema, type ObfuscationSignature } from '../../src/evidence/schema.js';
import check from '../../src/checks/obfuscated-code.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

type Listed = { path: string; names: number; signatures: ObfuscationSignature[] };
const scanned = (files: Listed[], more = 0) => evidence({ tarball: { obfuscated: { scanned: 120, files, more } } });
const named = (path: string): Listed => ({ path, names: 10, signatures: ['obfuscator-names'] });

checkTable(check, [
  { name: 'no obfuscated file: left out of the report', evidence: scanned([]), score: null, messageId: 'none', data: { scanned: 120 } },
  {
    name: 'an obfuscated file: 0, named',
    evidence: scanned([named('source/index.js')]),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 1, files: 'source/index.js', signatures: 'obfuscator-names' },
  },
  {
    name: 'files of other signatures: each signature named once, in the fixed order',
    evidence: scanned([
      { path: 'dist/a.js', names: 0, signatures: ['packer', 'hex-escapes'] },
      { path: 'dist/b.js', names: 3, signatures: ['string-array', 'hex-escapes'] },
      { path: 'lib/c.js', names: 0, signatures: ['hidden-by-blanks'] },
    ]),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 3, files: 'dist/a.js, dist/b.js, lib/c.js', signatures: 'string-array, packer, hex-escapes, hidden-by-blanks' },
  },
  {
    name: 'a payload in invisible characters run through eval: both signatures named',
    evidence: scanned([{ path: 'extension.js', names: 0, signatures: ['invisible-code', 'decoded-eval'] }]),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 1, files: 'extension.js', signatures: 'invisible-code, decoded-eval' },
  },
  {
    name: 'more than the files listed',
    evidence: scanned([named('a.js'), named('b.js')], 3),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 5, files: 'a.js, b.js and 3 more' },
  },
  { name: 'evidence saved before nerq looked', evidence: evidence(), score: null, messageId: 'unread' },
  { name: 'no tarball', evidence: evidence({ tarball: unavailable('timeout') }), score: null, messageId: 'unread' },
]);

describe('obfuscated-code', () => {
  it('holds the verdict when it finds obfuscated code, and leaves itself out otherwise', () => {
    const found = outcomeOf(check, scanned([named('index.js')]));
    expect(found.holdVerdict).toMatch(/\(a release without it would lift this\)$/);
    expect(found.notApplicable).toBeUndefined();
    expect(outcomeOf(check, scanned([])).notApplicable).toBe(true);
    expect(outcomeOf(check, evidence()).notApplicable).toBe(true);
  });
});

describe('code shown other than it runs is not called an obfuscator\'s output', () => {
  it.each([
    [['trojan-source'], true],
    [['hidden-by-blanks', 'invisible-code'], true],
    [['trojan-source', 'decoded-eval'], false],
    [['obfuscator-names'], false],
  ] as const)('%j → shownOtherwise %s, still held', (signatures, expected) => {
    const found = outcomeOf(check, scanned([{ path: 'dist/assets/index.js', names: 0, signatures: [...signatures] }]));
    expect([found.score, found.data?.shownOtherwise, typeof found.holdVerdict]).toEqual([0, expected, 'string']);
    expect(found.holdVerdict!.includes(`(${signatures.join(', ')}: dist/assets/index.js)`)).toBe(expected);
  });
});

describe('evidence saved before other signatures were read', () => {
  it('lists its files for javascript-obfuscator names, the only signature then read', () => {
    const saved = TarballFactsSchema.shape.obfuscated.parse({ scanned: 4, files: [{ path: 'index.js', names: 10 }], more: 0 });
    expect(saved?.files).toEqual([{ path: 'index.js', names: 10, signatures: ['obfuscator-names'] }]);
    expect(outcomeOf(check, evidence({ tarball: { obfuscated: saved } })).data).toMatchObject({ signatures: 'obfuscator-names' });
  });
});

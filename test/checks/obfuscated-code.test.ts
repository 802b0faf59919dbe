import { describe, expect, it } from 'vitest';
import check from '../../src/checks/obfuscated-code.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

const scanned = (files: { path: string; names: number }[], more = 0) => evidence({ tarball: { obfuscated: { scanned: 120, files, more } } });

checkTable(check, [
  { name: 'no obfuscated file: left out of the report', evidence: scanned([]), score: null, messageId: 'none', data: { scanned: 120 } },
  {
    name: 'an obfuscated file: 0, named',
    evidence: scanned([{ path: 'source/index.js', names: 10 }]),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 1, files: 'source/index.js' },
  },
  {
    name: 'more than the files listed',
    evidence: scanned([{ path: 'a.js', names: 10 }, { path: 'b.js', names: 10 }], 3),
    score: 0,
    messageId: 'obfuscated',
    data: { count: 5, files: 'a.js, b.js and 3 more' },
  },
  { name: 'evidence saved before nerq looked', evidence: evidence(), score: null, messageId: 'unread' },
  { name: 'no tarball', evidence: evidence({ tarball: unavailable('timeout') }), score: null, messageId: 'unread' },
]);

describe('obfuscated-code', () => {
  it('holds the verdict when it finds obfuscated code, and leaves itself out otherwise', () => {
    const found = outcomeOf(check, scanned([{ path: 'index.js', names: 10 }]));
    expect(found.holdVerdict).toBeTypeOf('string');
    expect(found.notApplicable).toBeUndefined();
    expect(outcomeOf(check, scanned([])).notApplicable).toBe(true);
    expect(outcomeOf(check, evidence()).notApplicable).toBe(true);
  });
});

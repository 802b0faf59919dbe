/**
 * entry-points: the check's table over the missing entry points the tarball reading records (the
 * lookup has its own tests, lib/entry-points.test.ts; the tarball's, test/npm-source/entry-points.test.ts).
 * Entry points that are all there leave the check out, never add points.
 */
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/entry-points.js';
import type { TarballFacts } from '../../src/evidence/schema.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

type EntryPoints = NonNullable<TarballFacts['entryPoints']>;
type Missing = EntryPoints['missing'][number];
const withEntries = (missing: Missing[], extra: Partial<EntryPoints> = {}) => evidence({ tarball: { entryPoints: { declared: 3, missing, listedAll: true, ...extra } } });
const MAIN: Missing = { field: 'main', key: '', target: 'index.js', primary: true };
const SUBPATH: Missing = { field: 'exports', key: './command', target: './dist/command.js', primary: false };
const TYPES: Missing = { field: 'types', key: '', target: 'index.d.ts', primary: false };

checkTable(check, [
  {
    name: 'the `main` is not in the tarball (faker 6.6.6): 0, held',
    evidence: withEntries([MAIN]),
    score: 0,
    messageId: 'broken',
    data: { missing: ['main → "index.js"'], count: 1 },
  },
  {
    name: 'a bin target among stale subpaths: 0; what breaks the release is named first, and alone in the summary',
    evidence: withEntries([SUBPATH, { field: 'bin', key: 'tool', target: './cli.js', primary: true }]),
    score: 0,
    messageId: 'broken',
    data: { count: 2, missing: ['bin "tool" → "./cli.js"', 'exports ./command → "./dist/command.js"'], summary: 'bin "tool" → "./cli.js"' },
  },
  {
    name: "npm's placeholder for Node's built-in crypto (crypto 1.0.1: a README, no index.js): a stand-in, held as one, not a broken release",
    evidence: evidence({ registry: { name: 'crypto' }, tarball: { entryPoints: { declared: 1, missing: [MAIN], listedAll: true } } }),
    score: 0,
    messageId: 'builtin-stand-in',
    data: { name: 'crypto', missing: ['main → "index.js"'] },
  },
  {
    name: 'a scoped name ending in a built-in name is no built-in: broken',
    evidence: evidence({ registry: { name: '@acme/crypto' }, tarball: { entryPoints: { declared: 1, missing: [MAIN], listedAll: true } } }),
    score: 0,
    messageId: 'broken',
  },
  {
    name: 'a built-in name whose entry points are all there (a browser stand-in, events): left out',
    evidence: evidence({ registry: { name: 'events' }, tarball: { entryPoints: { declared: 1, missing: [], listedAll: true } } }),
    score: null,
    messageId: 'present',
  },
  {
    name: 'only a subpath export and a type declaration missing: left out, listed',
    evidence: withEntries([SUBPATH, TYPES]),
    score: null,
    messageId: 'secondary-missing',
    data: { missing: ['exports ./command → "./dist/command.js"', 'types → "index.d.ts"'] },
  },
  {
    name: 'all there: left out',
    evidence: withEntries([]),
    score: null,
    messageId: 'present',
    data: { declared: 3 },
  },
  {
    name: 'a target not among the files listed, with more files than nerq lists: unknown',
    evidence: withEntries([MAIN], { listedAll: false }),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'evidence saved before nerq looked: unknown',
    evidence: evidence(),
    score: null,
    messageId: 'unread',
  },
  {
    name: 'the tarball was not read: unknown',
    evidence: evidence({ tarball: unavailable('timeout') }),
    score: null,
    messageId: 'unread',
  },
]);

describe('entry-points', () => {
  it('only a broken main, bin or "." export holds the verdict', () => {
    expect(outcomeOf(check, withEntries([MAIN])).holdVerdict).toEqual(expect.any(String));
    expect(outcomeOf(check, evidence({ registry: { name: 'child_process' }, tarball: { entryPoints: { declared: 1, missing: [MAIN], listedAll: true } } })).holdVerdict).toEqual(expect.any(String));
    for (const e of [withEntries([SUBPATH, TYPES]), withEntries([]), withEntries([MAIN], { listedAll: false }), evidence()]) expect(outcomeOf(check, e).holdVerdict).toBeUndefined();
  });

  it('present and secondary-missing leave the check out of the report; unknown does not', () => {
    expect(outcomeOf(check, withEntries([])).notApplicable).toBe(true);
    expect(outcomeOf(check, withEntries([TYPES])).notApplicable).toBe(true);
    expect(outcomeOf(check, evidence()).notApplicable).toBeUndefined();
  });
});

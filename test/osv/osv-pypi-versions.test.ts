/**
 * PyPI versions in OSV matching: a real PEP 440 order, so pre-, post-, dev-releases, local
 * versions and epochs find the right first fixed version.
 */
import { describe, expect, test } from 'vitest';
import {
  comparatorFor,
  comparePypiVersions,
  firstFixedAbove,
  OsvRecordSchema,
  type AdvisoryQuery,
} from '../../src/sources/osv/advisory.js';

describe('comparatorFor("PyPI")', () => {
  test('is the PEP 440 comparator', () => {
    expect(comparatorFor('PyPI')).toBe(comparePypiVersions);
  });

  test.each([
    ['2.9.12', '2.9.5', 1],
    ['1.0', '1.0.0', 0],
    ['1.0rc1', '1.0', -1],
    ['1.0.dev0', '1.0a1', -1],
    ['1.0a1', '1.0b1', -1],
    ['1.0', '1.0.post1', -1],
    ['1.0.post1', '1.1.dev0', -1],
    ['1!0.1', '9.9', 1],
    ['1.0+local.2', '1.0+local.10', -1],
    ['1.0+abc', '1.0', 1],
    ['2.0.0-rc.1', '2.0.0rc1', 0],
    [' 1.0 ', '1.0', 0],
  ])('%s vs %s → %i', (a, b, order) => {
    expect(comparePypiVersions(a, b)).toBe(order);
    expect(comparePypiVersions(b, a)).toBe(-order || 0);
  });

  test('versions that are not PEP 440 cannot be compared', () => {
    expect(comparePypiVersions('not-a-version', '1.0')).toBeNull();
    expect(comparePypiVersions('1.0', '')).toBeNull();
  });
});

describe('firstFixedAbove with PyPI versions', () => {
  // Shaped after PYSEC records: several ranges, pre-release and post-release fixes.
  const record = OsvRecordSchema.parse({
    id: 'PYSEC-0000-1',
    affected: [
      {
        package: { name: 'Example_Pkg', ecosystem: 'PyPI' },
        ranges: [
          { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0.0rc2' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '2.1' }, { fixed: '2.1.post1' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '1!0' }, { fixed: '1!1.0' }] },
        ],
      },
    ],
  });
  const query = (version: string): AdvisoryQuery => ({ ecosystem: 'PyPI', name: 'example-pkg', version, compare: comparePypiVersions });

  test.each([
    ['1.9', '2.0.0rc2'],
    ['2.0.0rc1', '2.0.0rc2'],
    ['2.1', '2.1.post1'],
    ['2.0.0', '2.1.post1'],
    ['3.0', '1!1.0'],
    ['1!0.5', '1!1.0'],
    ['1!2.0', null],
  ])('%s → first fix %s', (version, fixed) => {
    expect(firstFixedAbove(record, query(version))).toBe(fixed);
  });
});

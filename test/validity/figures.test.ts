import { describe, expect, it } from 'vitest';
import { auc, figuresOf, median } from '../../scripts/validity/figures.js';
import { trimPackument, withRegistryPlaceholder, README_KEEP_BYTES } from '../../scripts/validity/trim.js';

describe('validity figures', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('counts verdicts and scores below 50', () => {
    const f = figuresOf([
      { score: 80, verdictCode: 'yes' },
      { score: 60, verdictCode: 'caution' },
      { score: 49.9, verdictCode: 'no' },
      { score: 9.9, verdictCode: 'do-not-use' },
      { score: null, verdictCode: 'unknown' },
    ]);
    expect(f).toEqual({ n: 5, median: 54.95, yes: 1, caution: 1, no: 2, unknown: 1, below50: 2 });
  });

  it('computes the AUC with ties counted half', () => {
    const s = (score: number) => ({ score, verdictCode: 'yes' as const });
    expect(auc([s(90), s(80)], [s(10), s(20)])).toBe(1);
    expect(auc([s(10)], [s(90)])).toBe(0);
    expect(auc([s(50), s(70)], [s(50)])).toBe(0.75);
    expect(auc([], [s(1)])).toBeNull();
  });
});

describe('validity set trimming', () => {
  it('keeps what the facts read and drops the rest', () => {
    const trimmed = trimPackument({
      name: 'p',
      users: { a: true },
      readme: 'x'.repeat(README_KEEP_BYTES + 10),
      'dist-tags': { latest: '1.0.0' },
      versions: {
        '0.9.0': { version: '0.9.0', readme: 'old', gitHead: 'abc', scripts: { test: 'tap', postinstall: 'node x' }, dist: { integrity: 'sha512-a', unpackedSize: 10 } },
        '1.0.0': { version: '1.0.0', _npmUser: { name: 'u' }, dist: { integrity: 'sha512-b', tarball: 't', signatures: [] } },
      },
    });
    expect(trimmed.users).toBeUndefined();
    expect((trimmed.readme as string).length).toBe(README_KEEP_BYTES);
    const versions = trimmed.versions as Record<string, Record<string, unknown>>;
    expect(versions['0.9.0']).toEqual({ version: '0.9.0', scripts: { postinstall: 'node x' }, dist: { unpackedSize: 10 } });
    expect(versions['1.0.0']).toEqual({ version: '1.0.0', _npmUser: { name: 'u' }, dist: { integrity: 'sha512-b', tarball: 't', signatures: [] } });
  });

  it('writes the registry origin as the fixtures placeholder', () => {
    const host = ['registry', 'npmjs', 'org'].join('.');
    const alias = ['registry', 'npmjs', 'com'].join('.');
    expect(withRegistryPlaceholder(`"https://${host}/p/-/p-1.0.0.tgz" http://${alias}/x ${host}`)).toBe(
      '"{{REGISTRY}}/p/-/p-1.0.0.tgz" {{REGISTRY}}/x {{REGISTRY_HOST}}',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { PYPI_POPULAR } from '../../../src/ecosystems/pypi/popular-names.js';
import { pep503 } from '../../../src/ecosystems/pypi/name.js';
import { findIntended, isPopular, popularIndex, pypiPopularIndex } from '../../../src/checks/lib/typosquat.js';

describe('the curated PyPI list', () => {
  it('holds 150–250 unique, PEP 503 normalised names', () => {
    expect(PYPI_POPULAR.length).toBeGreaterThanOrEqual(150);
    expect(PYPI_POPULAR.length).toBeLessThanOrEqual(250);
    expect(new Set(PYPI_POPULAR).size).toBe(PYPI_POPULAR.length);
    for (const name of PYPI_POPULAR) expect(pep503(name), name).toBe(name);
  });

  it('has the projects everyone installs', () => {
    for (const name of ['requests', 'numpy', 'urllib3', 'boto3', 'setuptools', 'pyyaml', 'python-dateutil', 'django', 'flask', 'pytest']) {
      expect(PYPI_POPULAR, name).toContain(name);
    }
  });

  it('is the membership set of the PyPI index', () => {
    const index = pypiPopularIndex();
    expect(index.names).toEqual(PYPI_POPULAR);
    for (const name of PYPI_POPULAR) expect(isPopular(name, index), name).toBe(true);
  });
});

describe('pep503', () => {
  it.each([
    ['Foo_Bar', 'foo-bar'],
    ['foo.bar', 'foo-bar'],
    ['FOO--_.bar', 'foo-bar'],
    ['requests', 'requests'],
  ])('%s → %s', (name, normalised) => {
    expect(pep503(name)).toBe(normalised);
  });
});

describe('PyPI typosquat matching', () => {
  const index = pypiPopularIndex();

  it.each([
    ['reqeusts', 'requests', 'distance'],
    ['numpyy', 'numpy', 'distance'],
    ['pythondateutil', 'python-dateutil', 'separator'],
    ['djang0', 'django', 'homoglyph'],
    ['beautifulsop4', 'beautifulsoup4', 'distance'],
  ])('%s → %s (%s)', (name, intended, rule) => {
    expect(findIntended(pep503(name), index)).toMatchObject({ intended, rule });
  });

  it('uses a list of its own, not the npm one', () => {
    expect(isPopular('lodash', index)).toBe(false);
    expect(isPopular('lodash', popularIndex())).toBe(true);
    expect(findIntended('l0dash', index)).toBeNull();
  });
});

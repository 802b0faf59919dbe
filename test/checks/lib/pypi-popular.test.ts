import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PYPI_POPULAR } from '../../../src/ecosystems/pypi/popular-names.js';
import { pep503 } from '../../../src/ecosystems/pypi/name.js';
import { findIntended, isPopular, popularIndex, pypiPopularIndex } from '../../../src/checks/lib/typosquat.js';

describe('the curated PyPI list', () => {
  it('holds 500–800 unique, PEP 503 normalised names', () => {
    expect(PYPI_POPULAR.length).toBeGreaterThanOrEqual(500);
    expect(PYPI_POPULAR.length).toBeLessThanOrEqual(800);
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

  it.each([
    ['pyautogiu', 'pyautogui'],
    ['termncolor', 'termcolor'],
    ['pygaem', 'pygame'],
    ['importlibs-resources', 'importlib-resources'],
    ['pytorch-lighting', 'pytorch-lightning'],
    ['simplyjson', 'simplejson'],
    ['huggingfaces-hub', 'huggingface-hub'],
    ['s4transfer', 's3transfer'],
  ])('real malicious upload %s → %s', (name, intended) => {
    expect(findIntended(pep503(name), index)).toMatchObject({ intended });
  });

  it.each([
    ['aiohtttps', 'aiohttp', 'repeat'],
    ['requstsss', 'requests', 'repeat'],
    ['urlllib', 'urllib3', 'repeat'],
    ['huggingface-hubs', 'huggingface-hub', 'plural'],
    ['python-flask', 'flask', 'affix'],
    ['python3-flask', 'flask', 'affix'],
    ['pythonhttpx', 'httpx', 'affix'],
    ['matlibplot', 'matplotlib', 'anagram'],
    ['sphinx-rdt-theme', 'sphinx-rtd-theme', 'anagram'],
    ['bo3to', 'boto3', 'anagram'],
    ['ttensorflow-gpu', 'tensorflow', 'word'],
  ])('real malicious upload %s → %s (%s, a variant rule)', (name, intended, rule) => {
    expect(findIntended(pep503(name), index)).toMatchObject({ intended, rule });
  });

  // Real names of malicious PyPI uploads that copy a popular name (fixtures/PROVENANCE.md).
  it('names the intended project for at least 86 of the 97 real malicious look-alikes', () => {
    const names = readFileSync(new URL('../../../fixtures/typosquat/pypi-malicious-names.txt', import.meta.url), 'utf8').split('\n').filter((n) => n !== '');
    expect(names).toHaveLength(97);
    const caught = names.filter((n) => !isPopular(pep503(n), index) && findIntended(pep503(n), index) !== null);
    expect(caught.length).toBeGreaterThanOrEqual(86);
  });

  // Legitimate projects next to the word rule: a misspelling's start differs (`zstandard`), its ending (`tensorfolw`).
  // A word of popular npm names is a word too (`unicorn`, not `uvicorn` misspelt).
  it.each(['asdf-standard', 'tensorfolw-gpu', 'tensorflow-gpu', 'django-unicorn'])('%s → null', (name) => {
    expect(findIntended(pep503(name), index)).toBeNull();
  });

  it('uses a list of its own, not the npm one', () => {
    expect(isPopular('lodash', index)).toBe(false);
    expect(isPopular('lodash', popularIndex())).toBe(true);
    expect(findIntended('l0dash', index)).toBeNull();
  });
});

/**
 * pdm.lock entries and the project's `[[tool.pdm.source]]` (src/lockfiles/pdm-sources.ts,
 * docs/security.md "Lockfile injection"): an entry pdm may take from a source other than PyPI
 * gets that source's URL as `resolved`; an entry's file hashes, in the per-package `files`
 * (lock 4.4+) or the older `[metadata.files]` table, its `integrity`. The lockfiles and
 * pyproject texts are synthetic, in pdm's shapes; the digests are `'a'.repeat(64)`-style.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { globMatches, pdmIndexFor, pdmSources } from '../../src/lockfiles/pdm-sources.js';
import { readPdmLock } from '../../src/lockfiles/pdm-lock.js';
import { pythonIntegrity } from '../../src/lockfiles/python-hashes.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const PRIVATE = 'https://${USER}:${TOKEN}@pypi.private.example/simple';
/** As the reader keeps it: without the credentials (src/util/url-credentials.ts). */
const PRIVATE_KEPT = 'https://pypi.private.example/simple';

const lock = (files: string) => `[metadata]
groups = ["default"]
strategy = ["inherit_metadata"]
lock_version = "4.5.0"

[[package]]
name = "Flask"
version = "3.1.3"
groups = ["default"]
${files}
[[package]]
name = "acme-tools"
version = "1.0.0"
groups = ["default"]
`;
const NEW_FILES = `files = [
    {file = "flask-3.1.3-py3-none-any.whl", hash = "sha256:${A}"},
    {file = "flask-3.1.3.tar.gz", hash = "sha256:${B}"},
]
`;
const OLD_LOCK = `[metadata]
lock_version = "4.1"

[[package]]
name = "flask"
version = "3.1.3"

[metadata.files]
"flask 3.1.3" = [
    {url = "https://files.pythonhosted.org/packages/flask-3.1.3-py3-none-any.whl", hash = "sha256:${A}"},
]
`;
const pyproject = (sources: string) => `[project]
name = "app"
version = "0.1.0"
dependencies = ["flask==3.1.3", "acme-tools"]

${sources}`;

function read(lockText: string, sources: string) {
  const input = readPdmLock(lockText, 'pdm.lock', { manifests: { 'pyproject.toml': pyproject(sources) } });
  return Object.fromEntries(input.dependencies.map((d) => [d.name, { resolved: d.resolved, integrity: d.integrity ?? null }]));
}

describe('pdm.lock: hashes', () => {
  it.each([
    ['per-package files (lock 4.4+)', lock(NEW_FILES), pythonIntegrity([`sha256:${A}`, `sha256:${B}`])],
    ['[metadata.files] (older locks)', OLD_LOCK, pythonIntegrity([`sha256:${A}`])],
    ['no files', lock(''), null],
  ])('%s', (_, text, integrity) => {
    expect(read(text, '').flask?.integrity).toBe(integrity);
  });
});

describe('pdm.lock: the sources pyproject.toml declares', () => {
  it.each([
    ['no source: PyPI', '', null, null],
    ['a source on PyPI itself', '[[tool.pdm.source]]\nname = "mirror"\nurl = "https://pypi.org/simple"\n', null, null],
    ['another index: every entry may come from it', `[[tool.pdm.source]]\nname = "private"\nurl = "${PRIVATE}"\n`, PRIVATE_KEPT, PRIVATE_KEPT],
    ['a find_links source', '[[tool.pdm.source]]\nname = "local"\nurl = "file:///${PROJECT_ROOT}/packages"\ntype = "find_links"\n', 'file:///${PROJECT_ROOT}/packages', 'file:///${PROJECT_ROOT}/packages'],
    ['a source named pypi replacing PyPI', '[[tool.pdm.source]]\nname = "pypi"\nurl = "https://mirror.example/simple"\n', 'https://mirror.example/simple', 'https://mirror.example/simple'],
    [
      'include_packages binds acme-* to the other index, the rest stays on PyPI',
      `[[tool.pdm.source]]\nname = "private"\nurl = "${PRIVATE}"\ninclude_packages = ["acme-*"]\n\n[[tool.pdm.source]]\nname = "pypi"\nurl = "https://pypi.org/simple"\ninclude_packages = ["*"]\n`,
      null,
      PRIVATE_KEPT,
    ],
    [
      'the documented idiom: include_packages with exclude_packages = ["*"] binds only those',
      `[[tool.pdm.source]]\nname = "private"\nurl = "${PRIVATE}"\ninclude_packages = ["acme-*"]\nexclude_packages = ["*"]\n`,
      null,
      PRIVATE_KEPT,
    ],
    ['exclude_packages keeps flask off the other index', `[[tool.pdm.source]]\nname = "private"\nurl = "${PRIVATE}"\nexclude_packages = ["fl?sk"]\n`, null, PRIVATE_KEPT],
  ])('%s', (_, sources, flask, acme) => {
    const read_ = read(lock(NEW_FILES), sources);
    expect(read_.flask?.resolved).toBe(flask);
    expect(read_['acme-tools']?.resolved).toBe(acme);
  });

  it('a source that matches by include only is searched alone; an unmatched include leaves the others', () => {
    const sources = pdmSources({ tool: { pdm: { source: [{ url: 'https://a.example/simple', include_packages: ['[ab]*'] }, { url: 'https://pypi.org/simple' }] } } });
    expect(pdmIndexFor('beta', sources)).toBe('https://a.example/simple');
    // pdm's reading of a non-matching include is not relied on: the source may still serve it (the stricter reading).
    expect(pdmIndexFor('Zeta', sources)).toBe('https://a.example/simple');
    expect(pdmIndexFor('zeta', [{ url: 'https://pypi.org/simple', include: [], exclude: [] }])).toBeNull();
  });

  it('a pyproject.toml with tool.pdm.source in another shape declares no source', () => {
    expect(pdmSources({ tool: { pdm: { source: 'https://x.example' } } })).toEqual([]);
    expect(pdmSources({ tool: { pdm: { source: [{ name: 'no-url' }] } } })).toEqual([]);
  });
});

describe('a real pdm.lock whose project binds torch to PyTorch\'s index (CNFlyCat/GPT-SoVITS-V3-Infer-API, fixtures/PROVENANCE.md)', () => {
  const dir = new URL('../../fixtures/lockfiles/real/CNFlyCat__GPT-SoVITS-V3-Infer-API/', import.meta.url);
  const input = readPdmLock(readFileSync(new URL('pdm.lock', dir), 'utf8'), 'pdm.lock', { manifests: { 'pyproject.toml': readFileSync(new URL('pyproject.toml', dir), 'utf8') } });

  it('only the packages include_packages names may come from the other index; exclude_packages = ["*"] keeps the rest on PyPI', () => {
    const fromOther = input.dependencies.filter((d) => d.resolved !== null).map((d) => d.name).sort();
    expect(fromOther).toEqual(['torchaudio', 'torchvision']);
    // torch is locked at a local version (2.0.0+cu118), never on PyPI: unvouched, naming the index it comes from.
    const torch = input.skipped?.find((s) => s.name === 'torch');
    expect(torch?.kind).toBe('remote');
    expect(torch?.note).toContain('download.pytorch.org');
    expect(new Set(input.dependencies.flatMap((d) => d.resolved ?? []))).toEqual(new Set(['https://download.pytorch.org/whl/cu118']));
    expect(input.dependencies.length).toBeGreaterThan(100);
  });

  it('every entry carries the sha256 hashes of its files', () => {
    const torchvision = input.dependencies.find((d) => d.name === 'torchvision');
    expect(torchvision?.integrity).toContain(`sha256-${Buffer.from('bc10d48e9a60d006d0c1b48dea87f1ec9b63d856737d592f7c5c44cd87f3f4b7', 'hex').toString('base64')}`);
    expect(input.dependencies.every((d) => (d.integrity ?? '').startsWith('sha256-'))).toBe(true);
  });
});

describe("pdm's globs (fnmatch)", () => {
  it.each([
    ['torch', 'torch', true],
    ['torchvision', 'torch', false],
    ['torchvision', 'torch*', true],
    ['acme-tools', 'acme-*', true],
    ['flask', 'fl?sk', true],
    ['flask', '[ef]lask', true],
    ['glask', '[!f]lask', true],
    ['flask', '[!f]lask', false],
    ['b', '[a-c]', true],
    ['-', '[a-c]', false],
    ['anything', '*', true],
    ['', '*', true],
    ['abc', 'a*b*c', true],
    ['abcd', 'a*b*c', false],
    ['a[b', 'a[b', true],
  ])('%s ~ %s: %s', (name, glob, expected) => {
    expect(globMatches(name, glob)).toBe(expected);
  });

  it('a pattern of many stars against a long name that fails only at its end is still decided (no regex backtracking)', () => {
    // Not a timing assertion: a backtracking regular expression of this pattern would not return within the test's timeout.
    expect(globMatches('a'.repeat(5000), `${'*a'.repeat(200)}b`)).toBe(false);
  });
});

describe('globs past the bounds give the strictest reading', () => {
  const other = { url: 'https://other.example/simple', include: [] as string[], exclude: ['flask'] };
  const pypi = { url: 'https://pypi.org/simple', include: ['flask'], exclude: [] as string[] };
  it.each([
    ['within the bounds, the globs decide', [other, pypi], null],
    ['more than 16 globs', [{ ...other, exclude: ['flask', ...Array.from({ length: 16 }, (_, i) => `x${i}`)] }, pypi], 'https://other.example/simple'],
    ['a glob over 64 characters', [{ ...other, exclude: ['flask', `${'*'.repeat(65)}`] }, pypi], 'https://other.example/simple'],
  ])('%s', (_, sources, expected) => {
    expect(pdmIndexFor('flask', sources)).toBe(expected);
  });

  it('a name over 100 characters is not matched', () => {
    expect(pdmIndexFor('f'.repeat(101), [{ ...other, exclude: ['f*'] }])).toBe('https://other.example/simple');
    expect(pdmIndexFor('f'.repeat(100), [{ ...other, exclude: ['f*'] }])).toBeNull();
  });
});

/**
 * A pyproject.toml read alone (src/lockfiles/project-indexes.ts): a dependency that names no
 * index gets the first index other than PyPI the project points uv or PDM at as `resolved`, so
 * that its pin is held to PyPI's hashes (docs/security.md, "Lockfile injection"). Synthetic
 * pyproject texts in uv's and PDM's documented shapes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPyproject } from '../../src/lockfiles/pyproject.js';
import { readRequirements } from '../../src/lockfiles/requirements.js';

const project = `[project]
name = "app"
version = "0.1.0"
dependencies = ["flask==3.1.3", "acme==1.0.0"]
`;

function resolved(tool: string): Record<string, string | null> {
  const input = readPyproject(`${project}\n${tool}`, 'pyproject.toml');
  return Object.fromEntries(input.dependencies.map((d) => [d.name, d.resolved]));
}

describe('pyproject.toml read alone: the indexes it declares', () => {
  it.each([
    ['none', '', null, null],
    ['[[tool.uv.index]] on PyPI', '[[tool.uv.index]]\nname = "pypi"\nurl = "https://pypi.org/simple"\n', null, null],
    ['[[tool.uv.index]] elsewhere', '[[tool.uv.index]]\nname = "private"\nurl = "https://private.example/simple"\n', 'https://private.example/simple', 'https://private.example/simple'],
    [
      'an explicit index, only for the package [tool.uv.sources] binds to it',
      '[[tool.uv.index]]\nname = "private"\nurl = "https://private.example/simple"\nexplicit = true\n\n[tool.uv.sources]\nacme = { index = "private" }\n',
      null,
      'https://private.example/simple',
    ],
    ['[tool.uv] extra-index-url', '[tool.uv]\nextra-index-url = ["https://extra.example/simple"]\n', 'https://extra.example/simple', 'https://extra.example/simple'],
    ['[tool.uv] find-links', '[tool.uv]\nfind-links = ["https://links.example/"]\n', 'https://links.example/', 'https://links.example/'],
    // flask matches no include: the source is not relied on to skip it (the stricter reading, pdm-sources.ts).
    ['[[tool.pdm.source]] including acme', '[[tool.pdm.source]]\nname = "private"\nurl = "https://pdm.example/simple"\ninclude_packages = ["acme"]\n', 'https://pdm.example/simple', 'https://pdm.example/simple'],
    ['[[tool.poetry.source]], primary by default', '[[tool.poetry.source]]\nname = "corp"\nurl = "https://poetry.example/simple"\n', 'https://poetry.example/simple', 'https://poetry.example/simple'],
    ['[[tool.poetry.source]] supplemental', '[[tool.poetry.source]]\nname = "corp"\nurl = "https://poetry.example/simple"\npriority = "supplemental"\n', 'https://poetry.example/simple', 'https://poetry.example/simple'],
    ['[[tool.poetry.source]] explicit: only for a dependency that names it', '[[tool.poetry.source]]\nname = "corp"\nurl = "https://poetry.example/simple"\npriority = "explicit"\n', null, null],
    ['[[tool.poetry.source]] PyPI itself (no URL)', '[[tool.poetry.source]]\nname = "PyPI"\npriority = "primary"\n', null, null],
    ['[tool.uv.sources] binding an explicit index in a list with markers', '[[tool.uv.index]]\nname = "private"\nurl = "https://private.example/simple"\nexplicit = true\n\n[tool.uv.sources]\nacme = [{ index = "private", marker = "sys_platform == \'linux\'" }]\n', null, 'https://private.example/simple'],
    ['[[tool.pdm.source]] excluding flask', '[[tool.pdm.source]]\nname = "private"\nurl = "https://pdm.example/simple"\nexclude_packages = ["flask"]\n', null, 'https://pdm.example/simple'],
  ])('%s', (_, tool, flask, acme) => {
    const read = resolved(tool);
    expect(read.flask).toBe(flask);
    expect(read.acme).toBe(acme);
  });
});

describe('a real pyproject.toml with a default [[tool.uv.index]] (getsentry/snuba, fixtures/PROVENANCE.md)', () => {
  it('read alone, every dependency that names no index comes from the private mirror', () => {
    const text = readFileSync(new URL('../../fixtures/lockfiles/real/getsentry__snuba/pyproject.toml', import.meta.url), 'utf8');
    const input = readPyproject(text, 'pyproject.toml');
    expect(input.dependencies.length).toBeGreaterThan(10);
    expect(new Set(input.dependencies.map((d) => d.resolved))).toEqual(new Set(['https://pypi.devinfra.sentry.io/simple']));
  });
});

describe('a requirements file: the uv settings of its directory and the parents `uv pip install -r` may run in', () => {
  const read = (file: string, text: string, manifests: Record<string, string>) => readRequirements(text, file, { manifests }).dependencies.map((d) => d.resolved);

  it.each([
    ['none', 'requirements.txt', {}, [null]],
    ['uv.toml [[index]] beside it', 'requirements.txt', { 'uv.toml': '[[index]]\nurl = "https://uv.example/simple"\n' }, ['https://uv.example/simple']],
    ['uv.toml [pip] extra-index-url', 'requirements.txt', { 'uv.toml': '[pip]\nextra-index-url = ["https://pip.example/simple"]\n' }, ['https://pip.example/simple']],
    ['an explicit uv.toml index is not used', 'requirements.txt', { 'uv.toml': '[[index]]\nurl = "https://uv.example/simple"\nexplicit = true\n' }, [null]],
    ['pyproject.toml [tool.uv] index-url in a parent', 'reqs/prod.txt', { 'pyproject.toml': '[tool.uv]\nindex-url = "https://tool.example/simple"\n' }, ['https://tool.example/simple']],
    ['a uv setting on PyPI', 'requirements.txt', { 'uv.toml': 'index-url = "https://pypi.org/simple"\n' }, [null]],
    ['a malformed pyproject.toml is left out', 'requirements.txt', { 'pyproject.toml': '[tool.uv\n' }, [null]],
  ])('%s', (_, file, manifests, resolved) => {
    expect(read(file, 'flask==3.1.3\n', manifests)).toEqual(resolved);
  });

  it("the file's own --extra-index-url other than PyPI comes first", () => {
    expect(read('requirements.txt', '--extra-index-url https://own.example/simple\nflask==3.1.3\n', { 'uv.toml': 'index-url = "https://uv.example/simple"\n' })).toEqual(['https://own.example/simple']);
  });

  it('an --index-url on PyPI does not hide the uv settings', () => {
    expect(read('requirements.txt', '-i https://pypi.org/simple\nflask==3.1.3\n', { 'uv.toml': 'extra-index-url = ["https://uv.example/simple"]\n' })).toEqual(['https://uv.example/simple']);
  });
});

import { describe, expect, it } from 'vitest';
import { readPyproject } from '../../../src/lockfiles/index.js';
import { poetryToPep440 } from '../../../src/lockfiles/poetry-constraint.js';
import { find, fixture, lineOf, only, readFixture } from './helpers.js';

describe('pyproject.toml alone', () => {
  it('reads PEP 621 dependencies and extras (production) and PEP 735 groups (dev), at their lines', () => {
    const text = fixture('python-pyproject/pyproject.toml');
    const input = readFixture('python-pyproject', 'pyproject.toml');
    expect(input.format).toBe('pyproject.toml');
    expect(only(input, 'requests')).toEqual({
      ecosystem: 'pypi',
      name: 'requests',
      version: null,
      spec: '>=2.31,<3',
      direct: true,
      dev: false,
      file: 'python-pyproject/pyproject.toml',
      line: lineOf(text, '"requests[socks]'),
      workspace: null,
      resolved: null,
    });
    expect(only(input, 'charset-normalizer')).toMatchObject({ spec: '~=3.3', line: lineOf(text, 'Charset_Normalizer') });
    expect(only(input, 'click')).toMatchObject({ version: '8.1.7', dev: false, line: lineOf(text, 'click==8.1.7') });
    expect(only(input, 'pytest')).toMatchObject({ dev: true, spec: '>=7' });
    expect(only(input, 'ruff')).toMatchObject({ dev: true, version: '0.1.6', line: lineOf(text, '"ruff==0.1.6"') });
    expect(find(input, 'private-tool')).toEqual([]);
    expect(input.notes).toEqual([`python-pyproject/pyproject.toml:${lineOf(text, 'private-tool @')}: "private-tool" skipped: a direct URL reference (no index vouches for it)`]);
  });

  it('reads Poetry tables: constraints as PEP 440, groups, named sources, git dependencies skipped', () => {
    const text = fixture('python-pyproject-poetry/pyproject.toml');
    const input = readFixture('python-pyproject-poetry', 'pyproject.toml');
    expect(find(input, 'python')).toEqual([]);
    expect(only(input, 'requests')).toMatchObject({ spec: '>=2.31,<3.0', version: null, line: lineOf(text, 'requests = ') });
    expect(only(input, 'idna')).toMatchObject({ spec: '>=3.6,<3.7' });
    expect(only(input, 'urllib3')).toMatchObject({ spec: '>=1.26,<3' });
    expect(only(input, 'certifi')).toMatchObject({ spec: '==2023.11.17', version: '2023.11.17' });
    expect(only(input, 'private')).toMatchObject({ resolved: 'https://pypi.corp.example.test/simple' });
    expect(only(input, 'pytest')).toMatchObject({ dev: true, line: lineOf(text, 'pytest = ') });
    expect(only(input, 'packaging')).toMatchObject({ dev: false, spec: null });
    expect(input.notes).toEqual([`python-pyproject-poetry/pyproject.toml:${lineOf(text, 'internal = ')}: "internal" skipped: a git, path or URL dependency (no index vouches for it)`]);
  });

  it('reads PDM and uv dev dependency lists', () => {
    const text = '[project]\nname = "x"\n\n[tool.pdm.dev-dependencies]\nlint = ["ruff>=0.1"]\n\n[tool.uv]\ndev-dependencies = [\n  "mypy==1.7.0",\n]\n';
    const input = readPyproject(text, 'pyproject.toml');
    expect(only(input, 'ruff')).toMatchObject({ dev: true, line: 5 });
    expect(only(input, 'mypy')).toMatchObject({ dev: true, version: '1.7.0', line: 9 });
  });

  it('skips the editables PDM allows in dev-dependencies (`-e ./pkg`, `-e git+…#egg=`), instead of refusing the file', () => {
    // The shapes of PDM's documentation for [tool.pdm.dev-dependencies]; PEP 621 lists still refuse `-e`.
    const text = [
      '[project]',
      'name = "x"',
      '',
      '[tool.pdm.dev-dependencies]',
      'editable = [',
      '  "-e git+https://github.com/pallets/click.git@main#egg=click",',
      '  "-e ./mypackage",',
      '  "-e file:///${PROJECT_ROOT}/tests/fixtures/demo#egg=demo",',
      ']',
      'lint = ["ruff>=0.1"]',
      '',
    ].join('\n');
    const input = readPyproject(text, 'pyproject.toml');
    expect(only(input, 'ruff')).toMatchObject({ dev: true, line: 10 });
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.line, s.direct, s.dev])).toEqual([
      ['remote', 'click', 'github.com', 6, true, true],
      ['local', null, null, 7, true, true],
      ['local', 'demo', null, 8, true, true],
    ]);
    expect(() => readPyproject('[project]\nname = "x"\ndependencies = ["-e ./mypackage"]\n', 'pyproject.toml')).toThrow(/pyproject\.toml:3: /);
  });

  it('skips what [tool.uv.sources] takes from a git repository, URL, path or workspace member (a list with markers too), and binds a listed index', () => {
    const text = [
      '[project]',
      'name = "app"',
      'version = "0.1.0"',
      'dependencies = ["a==1", "b==1", "c==1", "d==1", "e==1", "f==1", "g==1"]',
      '',
      '[tool.uv.sources]',
      'a = { git = "https://git.example/o/a", rev = "abc" }',
      'b = { url = "https://files.example/b-1.tar.gz" }',
      'c = { path = "vendor/c" }',
      'd = { workspace = true }',
      'e = [{ path = "vendor/e", marker = "os_name == \'nt\'" }, { git = "ssh://git@git.example/o/e", marker = "os_name != \'nt\'" }]',
      'f = [{ index = "private", marker = "sys_platform == \'linux\'" }]',
      '',
      '[[tool.uv.index]]',
      'name = "private"',
      'url = "https://private.example/simple"',
      'explicit = true',
      '',
    ].join('\n');
    const input = readPyproject(text, 'pyproject.toml');
    expect((input.skipped ?? []).map((s) => [s.name, s.kind, s.host, s.line])).toEqual([
      ['a', 'remote', 'git.example', 4],
      ['b', 'remote', 'files.example', 4],
      ['c', 'local', null, 4],
      ['d', 'local', null, 4],
      ['e', 'remote', 'git.example', 4],
    ]);
    expect(input.dependencies.map((d) => [d.name, d.resolved])).toEqual([['f', 'https://private.example/simple'], ['g', null]]);
  });

  it('refuses a [project] whose dependencies are dynamic (the build backend computes them): never an empty, clean set', () => {
    const dynamic = '[project]\nname = "x"\ndynamic = ["version", "dependencies"]\n\n[tool.setuptools.dynamic]\ndependencies = { file = ["requirements.txt"] }\n';
    expect(() => readPyproject(dynamic, 'pyproject.toml')).toThrow(/pyproject\.toml:3: .*dynamic/);
    // Only the version dynamic, or dependencies declared beside a dynamic list: read as written.
    expect(readPyproject('[project]\nname = "x"\ndynamic = ["version"]\n', 'pyproject.toml').dependencies).toEqual([]);
    expect(readPyproject('[project]\nname = "x"\ndynamic = ["dependencies"]\ndependencies = ["requests>=2"]\n', 'pyproject.toml').dependencies.map((d) => d.name)).toEqual(['requests']);
  });
});

describe('Poetry constraints as PEP 440', () => {
  it.each([
    ['^1.2.3', '>=1.2.3,<2.0.0'],
    ['^1.2', '>=1.2,<2.0'],
    ['^0.2.3', '>=0.2.3,<0.3.0'],
    ['^0.0.3', '>=0.0.3,<0.0.4'],
    ['^0', '>=0,<1'],
    ['~1.2.3', '>=1.2.3,<1.3.0'],
    ['~1', '>=1,<2'],
    ['~=1.2', '~=1.2'],
    ['1.2.3', '==1.2.3'],
    ['1.2.*', '==1.2.*'],
    ['>=1.2 <2.0', '>=1.2,<2.0'],
    ['>= 1.2, != 1.5', '>=1.2,!=1.5'],
    ['*', ''],
  ])('%s → %s', (constraint, spec) => {
    expect(poetryToPep440(constraint)).toBe(spec);
  });

  it.each(['^1.0 || ^2.0', 'latest'])('%s has no PEP 440 form', (constraint) => {
    expect(poetryToPep440(constraint)).toBeNull();
  });
});

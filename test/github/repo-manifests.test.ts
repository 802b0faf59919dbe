/** A repository's manifests reduced to the facts the checks use (pure): PEP 621 and Poetry pyproject.toml files. */
import { describe, expect, it } from 'vitest';
import { declaredLicenseOf, manifestOf, unreadManifestReason } from '../../src/sources/github/repo-manifests.js';

const POETRY = `[tool.poetry]
name = "blog-mcp"
version = "0.1.0"
description = "An MCP server"
license = "MIT"
keywords = ["mcp", "blog"]

[tool.poetry.dependencies]
python = "^3.12"
fastmcp = "^2.3.0"
requests = "^2.28.0"

[tool.poetry.dev-dependencies]
black = "^23.3.0"

[tool.poetry.group.dev.dependencies]
pytest = "^7.3.1"

[tool.poetry.group.main.dependencies]
httpx = "^0.27"

[tool.poetry.scripts]
blog-mcp = "blog_mcp.server:main"

[build-system]
requires = ["poetry-core"]
build-backend = "poetry.core.masonry.api"

[tool.mypy]
warn_unused_configs = true`;

describe('manifestOf: pyproject.toml', () => {
  it('a Poetry project without [project] is read from [tool.poetry]: python is no dependency, the main group is production', () => {
    expect(manifestOf('pyproject.toml', POETRY)).toEqual({
      path: 'pyproject.toml',
      ecosystem: 'pypi',
      name: 'blog-mcp',
      private: false,
      license: 'MIT',
      keywords: ['mcp', 'blog'],
      description: 'An MCP server',
      dependencies: ['fastmcp', 'requests', 'httpx'],
      devDependencies: ['black', 'pytest'],
      hasBin: true,
    });
  });

  it('[project] wins over [tool.poetry] (Poetry 2 reads both)', () => {
    const both = `[project]\nname = "pep621"\ndependencies = ["mcp>=1"]\n\n${POETRY}`;
    expect(manifestOf('pyproject.toml', both)).toMatchObject({ name: 'pep621', dependencies: ['mcp'], license: null });
  });

  it('a tool-configuration file with neither table, or text that is no TOML, gives null (listed as unread)', () => {
    expect(manifestOf('pyproject.toml', '[tool.black]\nline-length = 88\n')).toBeNull();
    expect(manifestOf('pyproject.toml', '[tool.poetry\nname = ')).toBeNull();
  });
});

describe('pyproject licence forms', () => {
  const pyproject = (license: string) => `[project]\nname = "x"\nversion = "1"\n${license}\n`;
  it('a PEP 639 expression, a `{ text }` table, a `{ file }` pointer', () => {
    expect(manifestOf('pyproject.toml', pyproject('license = "MIT"\nlicense-files = ["LICENSE"]'))?.license).toBe('MIT');
    expect(manifestOf('pyproject.toml', pyproject('license = { text = "Apache-2.0" }'))?.license).toBe('Apache-2.0');
    expect(manifestOf('pyproject.toml', pyproject('license = { file = "LICENSE" }'))?.license).toBe('SEE LICENSE IN LICENSE');
    expect(manifestOf('pyproject.toml', pyproject(''))?.license).toBeNull();
  });
});

describe('declaredLicenseOf: the licence a root Cargo.toml or composer.json declares', () => {
  it('Cargo.toml: `[package] license`, inherited from `[workspace.package]`, a workspace root, `license-file`', () => {
    expect(declaredLicenseOf('Cargo.toml', '[package]\nname = "rg"\nlicense = "Unlicense OR MIT"\n')).toBe('Unlicense OR MIT');
    expect(declaredLicenseOf('Cargo.toml', '[package]\nname = "a"\nlicense.workspace = true\n[workspace.package]\nlicense = "Apache-2.0"\n')).toBe('Apache-2.0');
    expect(declaredLicenseOf('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n[workspace.package]\nlicense = "MIT"\n')).toBe('MIT');
    expect(declaredLicenseOf('Cargo.toml', '[package]\nname = "a"\nlicense-file = "LICENSE.txt"\n')).toBe('SEE LICENSE IN LICENSE.txt');
    // Nothing declared is null (never a licence); a file that does not parse is undefined.
    expect(declaredLicenseOf('Cargo.toml', '[workspace]\nmembers = ["a"]\n')).toBeNull();
    expect(declaredLicenseOf('Cargo.toml', '[package\nlicense = ')).toBeUndefined();
  });

  it('composer.json: a string, or a list of alternatives', () => {
    expect(declaredLicenseOf('composer.json', '{"name":"a/b","license":"MIT"}')).toBe('MIT');
    expect(declaredLicenseOf('composer.json', '{"license":["LGPL-2.1-only","GPL-3.0-or-later"]}')).toBe('(LGPL-2.1-only OR GPL-3.0-or-later)');
    expect(declaredLicenseOf('composer.json', '{"license":[]}')).toBeNull();
    expect(declaredLicenseOf('composer.json', '{')).toBeUndefined();
  });
});

describe('unreadManifestReason: why a manifest gave no facts', () => {
  it('a pyproject.toml with only build and tool settings declares no project; broken TOML does not parse', () => {
    const toolOnly = '[build-system]\nrequires = ["setuptools"]\n\n[tool.black]\nline-length = 100\n';
    expect(manifestOf('pyproject.toml', toolOnly)).toBeNull();
    const declaresNone = unreadManifestReason('pyproject.toml', toolOnly);
    const broken = unreadManifestReason('pyproject.toml', '[project\nname = ');
    expect(declaresNone).toContain('[project]');
    expect(broken).not.toBe(declaresNone);
    expect(unreadManifestReason('package.json', '{')).toBe(broken);
  });
});

describe('manifestOf: package.json', () => {
  it.each([
    [{ bin: 'cli.js' }, true],
    [{ bin: {} }, false],
    [{ directories: { bin: './bin' } }, true],
    [{ bin: {}, directories: { bin: './bin' } }, false],
    [{}, false],
  ])('hasBin %j → %s (`directories.bin` when `bin` is not set, as npm reads it)', (fields, expected) => {
    expect(manifestOf('package.json', JSON.stringify({ name: 'tool', ...fields }))?.hasBin).toBe(expected);
  });
});

/**
 * The registry a repository's own npm-family settings point installs at (other-registries.ts
 * `settingsRedirects`, docs/scoring.md §9): the public one names nothing; another host, one an
 * environment variable gives, or a settings file not read names the file.
 */
import { describe, expect, it } from 'vitest';
import { settingsRedirects } from '../../src/sources/github/other-registries.js';

const PUBLICS = { npm: ['https://registry.example/', 'https://yarn.example'], pypi: ['https://pypi.example/simple'] };
const redirects = (file: string, text: string | undefined) => settingsRedirects([file], new Map(text === undefined ? [] : [[file, text]]), PUBLICS);

describe('settingsRedirects', () => {
  it.each([
    ['.npmrc', 'registry = "https://registry.example/"\n@acme:registry=https://registry.example\nengine-strict=true\n'],
    ['.npmrc', '//registry.example/:_authToken=${NPM_TOKEN}\n'],
    ['.yarnrc.yml', 'npmRegistryServer: "https://yarn.example"\nnpmScopes:\n  acme:\n    npmRegistryServer: https://registry.example\n'],
    ['.yarnrc', 'registry "https://yarn.example/"\n"@acme:registry" "https://registry.example/"\n'],
    ['.yarnrc', '# yarn lockfile settings\nnetwork-timeout 600000\n'],
  ])('%s naming the public registries (or none): nothing named', (file, text) => {
    expect(redirects(file, text)).toEqual([]);
  });

  it.each([
    ['.npmrc', 'registry=https://npm.evil.example/\n', 'npm from another registry (npm.evil.example)'],
    ['.npmrc', '@acme:registry=http://10.0.0.1:4873\n', 'npm from another registry (10.0.0.1:4873)'],
    ['.npmrc', 'registry=${NPM_REGISTRY}\n', 'npm from a registry an environment variable sets'],
    ['.yarnrc.yml', 'npmScopes:\n  acme:\n    npmRegistryServer: "https://npm.evil.example"\n', 'npm from another registry (npm.evil.example)'],
    ['.yarnrc.yml', 'npmRegistryServer: "${REGISTRY}"\n', 'npm from a registry an environment variable sets'],
    ['.yarnrc', 'registry npm.evil.example\n', 'npm from another registry (not a URL)'],
    ['.yarnrc', '"@acme:registry" "https://npm.evil.example/"\n', 'npm from another registry (npm.evil.example)'],
  ])('%s %j: named', (file, text, ecosystem) => {
    expect(redirects(file, text)).toEqual([{ file, ecosystem }]);
  });

  it('a settings file not read, or a .yarnrc.yml that is no YAML: named, what it sets unknown', () => {
    expect(redirects('.npmrc', undefined)).toEqual([{ file: '.npmrc', ecosystem: 'npm from a registry its settings may set (the file was not read or does not parse)' }]);
    expect(redirects('.yarnrc.yml', 'npmRegistryServer: [unclosed\n')).toEqual([{ file: '.yarnrc.yml', ecosystem: 'npm from a registry its settings may set (the file was not read or does not parse)' }]);
  });

  it.each([
    ['uv.toml', 'index-url = "https://pypi.example/simple"\n[pip]\nindex-url = "https://pypi.example/simple/"\n'],
    ['uv.toml', 'native-tls = true\n'],
    ['pip.conf', '[global]\ntimeout = 60\nindex-url = https://pypi.example/simple\n'],
    ['pip.ini', '[install]\nno-cache-dir = true\n'],
    ['sub/pip.conf', '[freeze]\nindex-url = https://elsewhere.example/simple\n'],
  ])('%s naming PyPI (or no index): nothing named', (file, text) => {
    expect(redirects(file, text)).toEqual([]);
  });

  it.each([
    ['uv.toml', 'index-url = "https://py.evil.example/simple"\n', 'PyPI from another index (py.evil.example)'],
    ['uv.toml', '[[index]]\nname = "corp"\nurl = "https://py.corp.example/simple"\ndefault = true\n', 'PyPI from another index (py.corp.example)'],
    ['uv.toml', '[pip]\nextra-index-url = ["https://py.corp.example/simple"]\n', 'PyPI and an extra index (py.corp.example): a name on both may be installed from either (dependency confusion)'],
    ['uv.toml', 'index-url = "${UV_INDEX}"\n', 'PyPI from an index an environment variable sets'],
    ['pip.conf', '[global]\nindex-url = https://py.evil.example/simple\n', 'PyPI from another index (py.evil.example)'],
    ['pip.ini', '[global]\nextra_index_url =\n    https://pypi.example/simple\n    https://py.corp.example/simple\n', 'PyPI and an extra index (py.corp.example): a name on both may be installed from either (dependency confusion)'],
    ['pip.conf', '[install]\nfind-links = ./wheels\n', 'PyPI from another index (not a URL)'],
    ['src/app/pip.conf', '[global]\nindex-url = $PIP_INDEX\n', 'PyPI from an index an environment variable sets'],
  ])('%s %j: named', (file, text, ecosystem) => {
    expect(redirects(file, text)).toEqual([{ file, ecosystem }]);
  });

  it('a uv.toml that is no TOML, or a pip.conf not read: named, what it sets unknown', () => {
    const unknown = 'PyPI from an index its settings may set (the file was not read or does not parse)';
    expect(redirects('uv.toml', 'index-url = [unclosed\n')).toEqual([{ file: 'uv.toml', ecosystem: unknown }]);
    expect(redirects('pip.conf', undefined)).toEqual([{ file: 'pip.conf', ecosystem: unknown }]);
  });
});

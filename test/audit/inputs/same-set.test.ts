/**
 * Every format's fixture describes the same project, so every reader must give the same
 * (name, version, direct, dev) set: one npm set, one Python set.
 */
import { describe, expect, it } from 'vitest';
import { foldDependencies } from '../../../src/audit/fold.js';
import { dependencySet, fixture, readFixture } from './helpers.js';

const NPM_SET = [
  'npm:@types/semver@7.8.0 direct dev',
  'npm:ansi-styles@4.3.0 transitive prod',
  'npm:chalk@4.1.0 direct prod',
  'npm:color-convert@2.0.1 transitive prod',
  'npm:color-name@1.1.4 transitive prod',
  'npm:debug@4.2.0 direct prod',
  'npm:has-flag@4.0.0 transitive prod',
  'npm:ms@2.1.2 transitive prod',
  'npm:supports-color@7.2.0 transitive prod',
];

const PYTHON_SET = [
  'pypi:certifi@2023.11.17 transitive prod',
  'pypi:charset-normalizer@3.3.2 transitive prod',
  'pypi:idna@3.6 transitive prod',
  'pypi:iniconfig@2.0.0 transitive dev',
  'pypi:packaging@23.2 transitive dev',
  'pypi:pluggy@1.3.0 transitive dev',
  'pypi:pytest@7.4.3 direct dev',
  'pypi:requests@2.31.0 direct prod',
  'pypi:urllib3@2.1.0 transitive prod',
];

describe('every npm format gives the same dependency set', () => {
  it.each([
    ['npm-v1', 'package-lock.json', ['package.json'], 'package-lock@1'],
    ['npm-v2', 'package-lock.json', ['package.json'], 'package-lock@2'],
    ['npm-v3', 'package-lock.json', ['package.json'], 'package-lock@3'],
    ['npm-shrinkwrap', 'npm-shrinkwrap.json', ['package.json'], 'npm-shrinkwrap@2'],
    ['pnpm-v5', 'pnpm-lock.yaml', [], 'pnpm-lock@5.4'],
    ['pnpm-v6', 'pnpm-lock.yaml', [], 'pnpm-lock@6.0'],
    ['pnpm-v9', 'pnpm-lock.yaml', [], 'pnpm-lock@9.0'],
    ['yarn-classic', 'yarn.lock', ['package.json'], 'yarn-classic'],
    ['yarn-berry', 'yarn.lock', ['package.json'], 'yarn-berry'],
    ['bun', 'bun.lock', [], 'bun.lock@1'],
    ['sbom-cyclonedx', 'bom.cdx.json', [], 'cyclonedx'],
  ])('%s/%s', (dir, name, companions, format) => {
    const input = readFixture(dir, name, companions);
    expect(input.format).toBe(format);
    expect(dependencySet(input.dependencies)).toEqual(NPM_SET);
  });
});

describe('every Python lock format gives the same dependency set', () => {
  it.each([
    ['python-poetry', 'poetry.lock', ['pyproject.toml']],
    ['python-poetry-legacy', 'poetry.lock', ['pyproject.toml']],
    ['python-uv', 'uv.lock', []],
    ['python-pdm', 'pdm.lock', ['pyproject.toml']],
    ['python-pipenv', 'Pipfile.lock', ['Pipfile']],
    ['sbom-spdx', 'sbom.spdx.json', []],
  ])('%s/%s', (dir, name, companions) => {
    expect(dependencySet(readFixture(dir, name, companions).dependencies)).toEqual(PYTHON_SET);
  });

  it('pip-compiled requirements files, folded, give the same set', () => {
    // Include paths are relative to the fixtures folder here, as they are to the audited directory in a run.
    const read = (name: string) => readFixture('python-requirements', name, [], { readInclude: (path) => fixture(path) });
    const subjects = foldDependencies([read('requirements.txt'), read('requirements-dev.txt')], { direct: false, omitDev: false });
    expect(subjects.map((s) => `${s.ecosystem}:${s.name}@${s.version} ${s.direct ? 'direct' : 'transitive'} ${s.dev ? 'dev' : 'prod'}`).sort()).toEqual(PYTHON_SET);
  });
});

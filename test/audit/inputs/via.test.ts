/**
 * The dependency path ("via a › b") from every lockfile that carries a graph: the shortest chain
 * of package names from a direct dependency, [] never shown for a direct one, absent when the
 * format has no graph (Pipfile.lock). The fixtures hold the same project in each format.
 */
import { describe, expect, it } from 'vitest';
import { chainsFrom, MAX_VIA, shortestChain, VIA_ELISION } from '../../../src/lockfiles/graph.js';
import { readInputText } from '../../../src/lockfiles/index.js';
import { NPM_FIXTURE_VIA, readFixture, viaTable } from './helpers.js';

const PYTHON_VIA = {
  requests: 'direct',
  pytest: 'direct',
  certifi: ['requests'],
  'charset-normalizer': ['requests'],
  idna: ['requests'],
  urllib3: ['requests'],
  iniconfig: ['pytest'],
  packaging: ['pytest'],
  pluggy: ['pytest'],
};

const viaOf = (dir: string, name: string, companions: string[]) => viaTable(readFixture(dir, name, companions));

describe('via from each lockfile format', () => {
  it.each([
    ['npm-v1', 'package-lock.json', ['package.json']],
    ['pnpm-v5', 'pnpm-lock.yaml', []],
    ['pnpm-v6', 'pnpm-lock.yaml', []],
    ['pnpm-v9', 'pnpm-lock.yaml', []],
    ['yarn-classic', 'yarn.lock', ['package.json']],
    ['yarn-berry', 'yarn.lock', ['package.json']],
    ['bun', 'bun.lock', ['package.json']],
    ['sbom-cyclonedx', 'bom.cdx.json', []],
    ['sbom-cyclonedx', 'bom.cdx.xml', []],
  ])('%s %s', (dir, name, companions) => {
    expect(viaOf(dir, name, companions)).toEqual(NPM_FIXTURE_VIA);
  });

  it.each([
    ['python-uv', 'uv.lock'],
    ['python-poetry', 'poetry.lock'],
    ['python-pdm', 'pdm.lock'],
  ])('%s %s', (dir, name) => {
    expect(viaOf(dir, name, ['pyproject.toml'])).toEqual(PYTHON_VIA);
  });

  it("insomnia-app's npm 6 lockfile (v1, trimmed): `requires` resolve up the nested tree, so a nested copy's path runs through the package that holds it", () => {
    const dir = 'real/Kong__insomnia@819f4b9/packages/insomnia-app';
    const input = readFixture(dir, 'package-lock.json', ['package.json']);
    const paths = Object.fromEntries(input.dependencies.map((d) => [`${d.name}@${d.version}`, d.direct ? 'direct' : (d.via ?? null)]));
    expect(paths).toEqual({
      'axios@0.19.2': 'direct',
      'follow-redirects@1.5.10': ['axios'],
      'debug@3.1.0': ['axios', 'follow-redirects'],
      'ms@2.0.0': ['axios', 'follow-redirects', 'debug'],
      'hawk@6.0.2': 'direct',
      'boom@4.3.1': ['hawk'],
      'boom@5.2.0': ['hawk', 'cryptiles'],
      'cryptiles@3.1.4': ['hawk'],
      'hoek@4.2.1': ['hawk'],
      'sntp@2.1.0': ['hawk'],
    });
  });

  it("jest's yarn 4 lockfile (trimmed): a descriptor its root `resolutions` replaced still leads to the entry yarn locked for it", () => {
    const input = readFixture('real/jestjs__jest-resolutions', 'yarn.lock', ['package.json']);
    expect(input.dependencies.map((d) => [`${d.name}@${d.version}`, d.direct ? 'direct' : (d.via ?? null), d.dev])).toEqual([
      ['@types/node@18.19.130', 'direct', true],
      ['undici-types@5.26.5', ['@types/node'], true],
    ]);
  });

  it("pydantic's uv.lock (trimmed): a package an extra the project asks for brings in (`mkdocs-material[imaging]`) has its path through the package with the extra", () => {
    const input = readFixture('real/pydantic__pydantic-extras', 'uv.lock');
    expect(input.dependencies.map((d) => [`${d.name}@${d.version}`, d.direct ? 'direct' : (d.via ?? null), d.dev])).toEqual([
      ['cairocffi@1.7.1', ['mkdocs-material', 'cairosvg'], true],
      ['cairosvg@2.9.0', ['mkdocs-material'], true],
      ['mkdocs-material@9.7.6', 'direct', true],
    ]);
  });

  it('Pipfile.lock has no graph: no path is made up', () => {
    const via = viaOf('python-pipenv', 'Pipfile.lock', []);
    expect(via.certifi).toBeNull();
    expect(via.requests).toBe('direct');
  });

  it('a yarn.lock without its package.json guesses the direct ones and chains from them', () => {
    const text = `# yarn lockfile v1

a@^1.0.0:
  version "1.0.0"
  resolved "https://example.test/a/-/a-1.0.0.tgz"
  dependencies:
    b "^1.0.0"

b@^1.0.0:
  version "1.0.0"
  resolved "https://example.test/b/-/b-1.0.0.tgz"
  dependencies:
    c "^1.0.0"

c@^1.0.0:
  version "1.0.0"
  resolved "https://example.test/c/-/c-1.0.0.tgz"
`;
    const deps = readInputText(text, 'yarn.lock', {}).dependencies;
    expect(Object.fromEntries(deps.map((d) => [d.name, d.direct ? 'direct' : (d.via ?? null)]))).toEqual({ a: 'direct', b: ['a'], c: ['a', 'b'] });
  });
});

describe('chainsFrom', () => {
  const graph: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: ['d', 'e'], d: ['a'], e: [], x: ['a'] };
  const edges = (n: string) => graph[n] ?? [];

  it('gives each reachable node a shortest chain, the start itself none, unreachable nodes nothing', () => {
    const chains = chainsFrom(['a'], edges, (n) => n.toUpperCase());
    expect(Object.fromEntries(chains)).toEqual({ a: [], b: ['A'], c: ['A'], d: ['A', 'B'], e: ['A', 'C'] });
    expect(chains.has('x')).toBe(false);
  });

  it('a cycle ends; several starts are each direct', () => {
    const chains = chainsFrom(['d', 'c'], edges, (n) => n);
    expect(Object.fromEntries(chains)).toEqual({ d: [], c: [], a: ['d'], e: ['c'], b: ['d', 'a'] });
  });

  it('keeps a chain of MAX_VIA names whole and elides the middle of a longer one (first names, then the last)', () => {
    const n = 5000;
    const line = (i: number) => (i + 1 < n ? [i + 1] : []);
    const chains = chainsFrom([0], line, (i) => `p${i}`);
    const names = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `p${from + k}`);
    expect(chains.get(MAX_VIA)).toEqual(names(0, MAX_VIA));
    const deep = chains.get(n - 1) as string[];
    expect(deep).toHaveLength(MAX_VIA);
    expect(deep.slice(0, 32)).toEqual(names(0, 32));
    expect(deep[32]).toBe(VIA_ELISION);
    expect(deep.slice(33)).toEqual(names(n - 1 - (MAX_VIA - 33), n - 1));
    expect(chains.get(MAX_VIA + 1)).toEqual([...names(0, 32), VIA_ELISION, ...names(MAX_VIA + 1 - 31, MAX_VIA + 1)]);
  });

  it('shortestChain picks the shortest over folded nodes, undefined when none is known', () => {
    const chains = new Map([['k1', ['x', 'y']], ['k2', ['z']]]);
    expect(shortestChain(chains, ['k1', 'k2'])).toEqual(['z']);
    expect(shortestChain(chains, ['k3'])).toBeUndefined();
  });
});

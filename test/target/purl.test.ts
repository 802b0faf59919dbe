import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/target/parse.js';
import { pep503 } from '../../src/ecosystems/pypi/name.js';
import { purlOf, splitPurl } from '../../src/target/purl.js';
import type { Ecosystem } from '../../src/target/types.js';
import { npmName, semverVersion } from './arbitraries.js';

describe('purlOf builds canonical package URLs', () => {
  it.each<[Ecosystem, string, string | undefined, string]>([
    ['npm', 'express', '5.1.0', 'pkg:npm/express@5.1.0'],
    ['npm', 'express', undefined, 'pkg:npm/express'],
    ['npm', '@scope/pkg', '1.0.0', 'pkg:npm/%40scope/pkg@1.0.0'],
    ['npm', '@types/node', '20.11.0', 'pkg:npm/%40types/node@20.11.0'],
    // packageurl-js lower-cases npm names, as the purl spec asks
    ['npm', 'JSONStream', '1.3.5', 'pkg:npm/jsonstream@1.3.5'],
    ['pypi', 'requests', '2.31.0', 'pkg:pypi/requests@2.31.0'],
    ['pypi', 'Foo_Bar.baz', undefined, 'pkg:pypi/foo-bar-baz'],
    ['github', 'owner/repo', undefined, 'pkg:github/owner/repo'],
    ['github', 'Owner/Repo', 'v1.0.0', 'pkg:github/owner/repo@v1.0.0'],
  ])('%s %s %s → %s', (ecosystem, name, version, purl) => {
    expect(purlOf(ecosystem, name, version)).toBe(purl);
  });

  it('round-trips through parseTarget for lower-case npm names', () => {
    fc.assert(
      fc.property(npmName.map((n) => n.toLowerCase()), semverVersion, (name, version) => {
        expect(parseTarget(purlOf('npm', name, version))).toMatchObject({ ecosystem: 'npm', name, spec: version });
      }),
      { numRuns: 500 },
    );
  });
});

describe('splitPurl', () => {
  it('decodes components and keeps the name as typed', () => {
    expect(splitPurl('pkg:NPM/%40scope/JSONStream@1.0.0?Arch=x64#sub')).toEqual({
      type: 'npm',
      namespace: '@scope',
      name: 'JSONStream',
      version: '1.0.0',
      qualifiers: { arch: 'x64' },
    });
  });

  it.each(['pkg:', 'npm/express', 'pkg:npm', 'pkg://user:pw@npm/x'])('reports %j as not a usable purl', (text) => {
    expect(splitPurl(text)).toHaveProperty('error');
  });
});

describe('pep503', () => {
  it.each([
    ['Requests', 'requests'],
    ['Foo_Bar.baz', 'foo-bar-baz'],
    ['a__-.b', 'a-b'],
    ['zope.interface', 'zope-interface'],
  ])('%s → %s', (name, normalised) => {
    expect(pep503(name)).toBe(normalised);
  });
});

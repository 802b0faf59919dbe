/**
 * SBOM components fetched from a git repository or URL are skipped entries, as lockfile entries
 * are: remote ones (the audit's `unvouched-remote` findings) at the line of what says so, with
 * the host and the source without credentials; `file:` ones local. The texts are shaped as
 * `npm sbom` (CycloneDX 1.5 and SPDX 2.3), cyclonedx-npm (encoded qualifiers, `download_url`
 * for a tarball outside the default registry) and syft (a package's repository URL as its
 * distribution / download location) write them.
 */
import { describe, expect, it } from 'vitest';
import { readCycloneDx, readSpdx } from '../../../src/lockfiles/index.js';
import type { ParsedInput } from '../../../src/lockfiles/types.js';
import { find, lineOf, only } from './helpers.js';

const TOKEN = 'tok3n-s3cret';
const SHA = '0123456789abcdef0123456789abcdef01234567';

type Expected = [needle: string, name: string, kind: 'remote' | 'local', host: string | null];

function expectSkipped(input: ParsedInput, text: string, file: string, expected: Expected[]): void {
  const got = (input.skipped ?? []).map((s) => [s.line, s.name, s.kind, s.host]);
  expect(got).toEqual(expected.map(([needle, name, kind, host]) => [lineOf(text, needle), name, kind, host]));
  for (const entry of input.skipped ?? []) {
    expect(input.notes).toContain(entry.note);
    expect(entry.note.startsWith(`${file}:${entry.line}: `)).toBe(true);
    expect(`${entry.source} ${entry.note}`.includes(TOKEN)).toBe(false);
    expect(entry.source).not.toMatch(/\/\/[^/]*:[^/]*@/);
  }
  expect(input.dependencies.some((d) => expected.some(([, name]) => name === d.name))).toBe(false);
}

const component = (name: string, version: string, purl: string, distribution: string | null, extra: object = {}) => ({
  'bom-ref': `${name}@${version}`,
  type: 'library',
  name: name.replace(/^@[^/]+\//, ''),
  version,
  scope: 'required',
  purl,
  properties: [{ name: 'cdx:npm:package:path', value: `node_modules/${name}` }],
  externalReferences: distribution === null ? [] : [{ type: 'distribution', url: distribution }],
  ...extra,
});

/** `npm sbom --sbom-format cyclonedx` of a project with a git, a tarball-URL, a `file:` and registry dependencies, plus shapes other generators write. */
const cyclonedx = JSON.stringify(
  {
    $schema: 'http://cyclonedx.org/schema/bom-1.5.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: 'urn:uuid:6f4c2d1e-0000-4000-8000-000000000001',
    version: 1,
    metadata: {
      lifecycles: [{ phase: 'build' }],
      tools: [{ vendor: 'npm', name: 'cli', version: '10.8.2' }],
      component: component('app', '1.0.0', 'pkg:npm/app@1.0.0', null, { type: 'application' }),
    },
    components: [
      // npm writes the git resolution into the package URL unencoded.
      component('left-pad', '1.3.0', `pkg:npm/left-pad@1.3.0?vcs_url=git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`, `git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`),
      // A tarball-URL dependency: a plain package URL, the URL only as its distribution.
      component('tarred', '1.0.0', 'pkg:npm/tarred@1.0.0', `https://ci:${TOKEN}@files.example.com/tarred-1.0.0.tgz`),
      component('vendored', '1.0.0', 'pkg:npm/vendored@1.0.0', 'file:vendor/vendored-1.0.0.tgz'),
      component('ms', '2.1.3', 'pkg:npm/ms@2.1.3', 'https://registry.example.test/ms/-/ms-2.1.3.tgz'),
      // cyclonedx-npm: encoded qualifiers; a dev dependency from another git host.
      component('@acme/dev-tool', '2.0.0', `pkg:npm/%40acme/dev-tool@2.0.0?vcs_url=git%2Bhttps%3A%2F%2Fci%3A${TOKEN}%40gitlab.example.com%2Facme%2Fdev-tool.git%23${SHA}`, null, { scope: 'optional' }),
      // cyclonedx-npm: `download_url` for a private registry's tarball (a registry path) and for a plain URL.
      component('@corp/lib', '1.2.0', 'pkg:npm/%40corp/lib@1.2.0?download_url=https%3A%2F%2Fnpm.corp.example.test%2F%40corp%2Flib%2F-%2Flib-1.2.0.tgz', null),
      component('zipped', '0.1.0', 'pkg:npm/zipped@0.1.0?download_url=https%3A%2F%2Fcdn.example.net%2Fzipped%2Fmain.zip', null),
      // syft: a registry package's own repository URL (unpinned) as its distribution.
      component('chalk', '5.3.0', 'pkg:npm/chalk@5.3.0', 'git+https://github.com/chalk/chalk.git'),
    ],
    dependencies: [
      { ref: 'app@1.0.0', dependsOn: ['left-pad@1.3.0', 'tarred@1.0.0', 'vendored@1.0.0', 'ms@2.1.3', '@acme/dev-tool@2.0.0', '@corp/lib@1.2.0', 'chalk@5.3.0'] },
      { ref: '@corp/lib@1.2.0', dependsOn: ['zipped@0.1.0'] },
    ],
  },
  null,
  2,
);

describe('CycloneDX: components fetched from elsewhere', () => {
  const input = readCycloneDx(cyclonedx, 'bom.json');

  it('are skipped entries at the line that says so, with their hosts; registry packages stay packages', () => {
    expectSkipped(input, cyclonedx, 'bom.json', [
      ['pkg:npm/left-pad@1.3.0?vcs_url=', 'left-pad', 'remote', 'github.com'],
      ['"url": "https://ci:', 'tarred', 'remote', 'files.example.com'],
      ['"url": "file:vendor/vendored-1.0.0.tgz"', 'vendored', 'local', null],
      ['pkg:npm/%40acme/dev-tool@2.0.0', '@acme/dev-tool', 'remote', 'gitlab.example.com'],
      ['pkg:npm/zipped@0.1.0', 'zipped', 'remote', 'cdn.example.net'],
    ]);
    expect(only(input, 'ms')).toMatchObject({ version: '2.1.3', direct: true });
    expect(only(input, 'chalk')).toMatchObject({ version: '5.3.0' });
    expect(only(input, '@corp/lib')).toMatchObject({ resolved: 'https://npm.corp.example.test/@corp/lib/-/lib-1.2.0.tgz' });
  });

  it('restore the git+ that npm leaves unencoded in the package URL', () => {
    expect(input.skipped?.[0]?.source).toBe('git+ssh://github.com/stevemao/left-pad.git');
  });

  it('carry the direct and dev flags the dependency graph and scope tell', () => {
    const by = (name: string) => (input.skipped ?? []).find((s) => s.name === name);
    expect(by('left-pad')).toMatchObject({ direct: true, dev: false });
    expect(by('@acme/dev-tool')).toMatchObject({ direct: true, dev: true });
    expect(by('zipped')).toMatchObject({ direct: false, dev: false });
  });

  it('without a dependency graph leave direct unknown', () => {
    const bom = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.4', components: [{ type: 'library', name: 'x', purl: 'pkg:npm/x?vcs_url=git%2Bhttps%3A%2F%2Fgit.example.com%2Fx.git' }] });
    const entry = readCycloneDx(bom, 'bom.json').skipped?.[0];
    expect(entry).toMatchObject({ kind: 'remote', name: 'x', host: 'git.example.com', dev: false });
    expect(entry && 'direct' in entry).toBe(false);
  });
});

const spdxPackage = (id: string, name: string, version: string, purl: string, downloadLocation: string) => ({
  name,
  SPDXID: id,
  versionInfo: version,
  packageFileName: `node_modules/${name}`,
  downloadLocation,
  filesAnalyzed: false,
  homepage: 'NOASSERTION',
  licenseDeclared: 'MIT',
  externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl }],
});

/** `npm sbom --sbom-format spdx` of the same kind of project, plus PyPI packages as PEP 610-aware generators write them. */
const spdx = JSON.stringify(
  {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: 'app@1.0.0',
    documentNamespace: 'http://spdx.org/spdxdocs/app-1.0.0-6f4c2d1e-0000-4000-8000-000000000002',
    creationInfo: { created: '2026-11-30T12:00:00.000Z', creators: ['Tool: npm/cli-10.8.2'] },
    documentDescribes: ['SPDXRef-Package-app-1.0.0'],
    packages: [
      spdxPackage('SPDXRef-Package-app-1.0.0', 'app', '1.0.0', 'pkg:npm/app@1.0.0', 'NOASSERTION'),
      spdxPackage('SPDXRef-Package-left-pad-1.3.0', 'left-pad', '1.3.0', `pkg:npm/left-pad@1.3.0?vcs_url=git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`, `git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`),
      spdxPackage('SPDXRef-Package-tarred-1.0.0', 'tarred', '1.0.0', 'pkg:npm/tarred@1.0.0', `https://ci:${TOKEN}@files.example.com/tarred-1.0.0.tgz`),
      spdxPackage('SPDXRef-Package-ms-2.1.3', 'ms', '2.1.3', 'pkg:npm/ms@2.1.3', 'https://registry.example.test/ms/-/ms-2.1.3.tgz'),
      spdxPackage('SPDXRef-Package-chalk-5.3.0', 'chalk', '5.3.0', 'pkg:npm/chalk@5.3.0', 'git+https://github.com/chalk/chalk.git'),
      spdxPackage('SPDXRef-Package-tool-1.2', 'tool', '1.2', 'pkg:pypi/tool@1.2', 'git+https://git.example.com/acme/tool.git@v1.2'),
      spdxPackage('SPDXRef-Package-wheelie-1.0', 'wheelie', '1.0', 'pkg:pypi/wheelie@1.0?download_url=https%3A%2F%2Ffiles.example.com%2Fwheelie-1.0-py3-none-any.whl', 'NOASSERTION'),
      spdxPackage('SPDXRef-Package-inhouse-0.1', 'inhouse', '0.1', 'pkg:pypi/inhouse@0.1?vcs_url=git%2Bfile%3A%2F%2F%2Fsrv%2Frepos%2Finhouse.git', 'NOASSERTION'),
      spdxPackage('SPDXRef-Package-requests-2.31.0', 'requests', '2.31.0', 'pkg:pypi/requests@2.31.0', 'https://files.example.com/requests-2.31.0.tar.gz'),
    ],
    relationships: [
      { spdxElementId: 'SPDXRef-DOCUMENT', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DESCRIBES' },
      { spdxElementId: 'SPDXRef-Package-left-pad-1.3.0', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-tarred-1.0.0', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEV_DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-ms-2.1.3', relatedSpdxElement: 'SPDXRef-Package-tarred-1.0.0', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-chalk-5.3.0', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-tool-1.2', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-wheelie-1.0', relatedSpdxElement: 'SPDXRef-Package-tool-1.2', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-inhouse-0.1', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEPENDENCY_OF' },
      { spdxElementId: 'SPDXRef-Package-requests-2.31.0', relatedSpdxElement: 'SPDXRef-Package-app-1.0.0', relationshipType: 'DEPENDENCY_OF' },
    ],
  },
  null,
  2,
);

describe('SPDX: packages fetched from elsewhere', () => {
  const input = readSpdx(spdx, 'sbom.spdx.json');

  it('are skipped entries at the line that says so, with their hosts; registry packages stay packages', () => {
    expectSkipped(input, spdx, 'sbom.spdx.json', [
      ['"referenceLocator": "pkg:npm/left-pad@1.3.0?vcs_url=', 'left-pad', 'remote', 'github.com'],
      ['"downloadLocation": "https://ci:', 'tarred', 'remote', 'files.example.com'],
      ['"downloadLocation": "git+https://git.example.com/acme/tool.git@v1.2"', 'tool', 'remote', 'git.example.com'],
      ['pkg:pypi/wheelie@1.0?download_url=', 'wheelie', 'remote', 'files.example.com'],
      ['pkg:pypi/inhouse@0.1?vcs_url=', 'inhouse', 'local', null],
    ]);
    expect(only(input, 'ms')).toMatchObject({ version: '2.1.3', direct: false });
    expect(only(input, 'chalk')).toMatchObject({ version: '5.3.0', direct: true });
    expect(only(input, 'requests')).toMatchObject({ ecosystem: 'pypi', version: '2.31.0' });
    expect(find(input, 'app')).toEqual([]);
  });

  it('carry the direct and dev flags the relationships tell', () => {
    const by = (name: string) => (input.skipped ?? []).find((s) => s.name === name);
    expect(by('left-pad')).toMatchObject({ direct: true, dev: false });
    expect(by('tarred')).toMatchObject({ direct: true, dev: true });
    expect(by('wheelie')).toMatchObject({ direct: false, dev: false });
  });
});

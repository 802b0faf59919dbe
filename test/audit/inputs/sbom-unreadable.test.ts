/**
 * SBOM components whose package URL names no one registry package nerq can read
 * (src/lockfiles/sbom-purl.ts): a package URL without a version takes the component's own when
 * that is a plain version; one with a name the registry does not allow, or with no plain version
 * anywhere (a range, `=4.1.0`, a tag), is an entry without a host — never a note alone, never
 * passed. Each syntax of each format reads it the same way (one code path).
 */
import { describe, expect, it } from 'vitest';
import { readCycloneDx, readCycloneDxXml, readSpdx, readSpdxTagValue } from '../../../src/lockfiles/index.js';
import type { ParsedInput } from '../../../src/lockfiles/types.js';

type Reader = (purl: string, version: string | null, name?: string) => ParsedInput;

const READERS: [string, Reader][] = [
  ['CycloneDX JSON', (purl, version, name = 'x') =>
    readCycloneDx(JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', name, ...(version === null ? {} : { version }), purl }] }), 'bom.cdx.json')],
  ['CycloneDX XML', (purl, version, name = 'x') =>
    readCycloneDxXml(
      `<?xml version="1.0"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.5">\n<components>\n<component type="library">\n<name>${name}</name>\n${version === null ? '' : `<version>${version}</version>\n`}<purl>${purl.replace(/&/g, '&amp;')}</purl>\n</component>\n</components>\n</bom>\n`,
      'bom.xml',
    )],
  ['SPDX JSON', (purl, version, name = 'x') =>
    readSpdx(JSON.stringify({ spdxVersion: 'SPDX-2.3', packages: [{ SPDXID: 'SPDXRef-x', name, ...(version === null ? {} : { versionInfo: version }), externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl }] }] }), 'sbom.spdx.json')],
  ['SPDX tag-value', (purl, version, name = 'x') =>
    readSpdxTagValue(`SPDXVersion: SPDX-2.3\nPackageName: ${name}\nSPDXID: SPDXRef-x\n${version === null ? '' : `PackageVersion: ${version}\n`}ExternalRef: PACKAGE-MANAGER purl ${purl}\n`, 'sbom.spdx')],
];

/** [package URL, the component's own version]: the package audited (the component named as its package URL's package). */
const READ: [string, string | null, string, string, string][] = [
  ['pkg:npm/chalk', '4.1.0', 'npm', 'chalk', '4.1.0'],
  ['pkg:npm/%40scope/pkg', '1.0.0', 'npm', '@scope/pkg', '1.0.0'],
  ['pkg:pypi/requests', '2.31.0', 'pypi', 'requests', '2.31.0'],
  ['pkg:npm/chalk@4.1.0', null, 'npm', 'chalk', '4.1.0'],
];

/** [package URL, the component's own version, the name the entry keeps (null: none the registry allows)]: which package it is cannot be told. */
const UNREADABLE: [string, string | null, string | null][] = [
  ['pkg:npm/chalk', null, 'chalk'],
  ['pkg:npm/chalk', '^4.1.0', 'chalk'],
  ['pkg:npm/chalk', '=4.1.0', 'chalk'],
  ['pkg:npm/chalk', 'latest', 'chalk'],
  ['pkg:npm/chalk/@4.1.0', '4.1.0', null],
  ['pkg:npm/chalk@=4.1.0', '4.1.0', 'chalk'],
  ['pkg:npm/chalk@%5E4.1.0', '4.1.0', 'chalk'],
  ['pkg:npm/chalk@latest', null, 'chalk'],
  ['pkg:npm/%20chalk@4.1.0', '4.1.0', null],
  ['pkg:npm/Bad%20Name@1.0.0', '1.0.0', null],
  ['pkg:pypi/requests', null, 'requests'],
  ['pkg:pypi/requests', '>=2', 'requests'],
  ['pkg:pypi/requests@%3E%3D2', '2.31.0', 'requests'],
  ['pkg:pypi/-requests@2.31.0', '2.31.0', null],
];

describe.each(READERS)('%s', (_format, read) => {
  it.each(READ)('%s (own version %s): %s %s %s', (purl, version, ecosystem, name, pinned) => {
    const input = read(purl, version, name.replace(/^@[^/]+\//, ''));
    expect(input.dependencies.map((d) => [d.ecosystem, d.name, d.version])).toEqual([[ecosystem, name, pinned]]);
    expect(input.skipped ?? []).toEqual([]);
  });

  it.each(UNREADABLE)('%s (own version %s): an entry nerq cannot name, not a note alone', (purl, version, name) => {
    const input = read(purl, version);
    expect(input.dependencies).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.source])).toEqual([['remote', name, null, purl]]);
  });

  it('a component without a package URL, or of a type nerq does not audit, stays a note', () => {
    for (const input of [read('pkg:maven/com.google.guava/guava@33.0.0', '33.0.0'), read('pkg:cargo/serde', null)]) {
      expect(input.dependencies).toEqual([]);
      expect(input.skipped ?? []).toEqual([]);
      expect(input.notes.length).toBeGreaterThan(0);
    }
  });
});

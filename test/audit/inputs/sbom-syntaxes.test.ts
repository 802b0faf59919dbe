/**
 * The other syntaxes of the SBOM formats: CycloneDX XML and SPDX tag-value give exactly the
 * entries the JSON of the same SBOM gives (dependencies with their direct and dev flags, skipped
 * remote and local entries, the notes on what was left out), each at its own line. Real pairs of
 * the same SBOM in both syntaxes (fixtures/lockfiles/real/, fixtures/PROVENANCE.md), the
 * hand-written fixtures in both, and the remote and identity shapes of the JSON tests.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readCycloneDx, readCycloneDxXml, readerFor, readInputText, readSpdx, readSpdxTagValue } from '../../../src/lockfiles/index.js';
import type { ParsedInput } from '../../../src/lockfiles/types.js';
import { cycloneDxXml, spdxTagValue } from '../../support/sbom-syntax.js';
import { fixture, lineOf, lockfileErrorOf, only } from './helpers.js';

const REAL = new URL('../../../fixtures/lockfiles/real/', import.meta.url);
const real = (path: string): string => {
  const bytes = readFileSync(new URL(path, REAL));
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};

/** What an audit takes from an input, without where each entry sits (its file and lines differ between the syntaxes). */
function entries(input: ParsedInput) {
  const where = /^[^:]+(?::\d+)?: /;
  return {
    format: input.format,
    dependencies: input.dependencies.map(({ file: _file, line: _line, ...rest }) => rest),
    skipped: (input.skipped ?? []).map(({ file: _file, line: _line, note, ...rest }) => ({ ...rest, note: note.replace(where, '') })),
    notes: input.notes.map((note) => note.replace(where, '')),
    findings: input.findings ?? [],
  };
}


describe('CycloneDX XML gives what the JSON of the same SBOM gives', () => {
  const PAIRS: [label: string, xml: string, json: string][] = [
    ['juice-shop, cyclonedx-npm, spec 1.4: a graph, nested components, optional scope', 'CycloneDX__bom-examples/SBOM/juice-shop/via_npm/bare/bom.1.4.xml.gz', 'CycloneDX__bom-examples/SBOM/juice-shop/via_npm/bare/bom.1.4.json.gz'],
    ['lhc-vdm-editor, the Node.js module, spec 1.2: no graph', 'CycloneDX__bom-examples/SBOM/cern-lhc-vdm-editor-e564943/bom.xml', 'CycloneDX__bom-examples/SBOM/cern-lhc-vdm-editor-e564943/bom.json'],
  ];

  it.each(PAIRS)('%s', (_, xmlPath, jsonPath) => {
    const xml = real(xmlPath);
    const fromXml = readInputText(xml, xmlPath.replace(/\.gz$/, ''));
    const fromJson = readInputText(real(jsonPath), jsonPath.replace(/\.gz$/, ''));
    expect(fromXml.format).toBe('cyclonedx');
    expect(entries(fromXml)).toEqual(entries(fromJson));
    // Counted in the text, not by a parser: every npm package URL but the described component's.
    expect(fromXml.dependencies).toHaveLength(xml.match(/<purl>pkg:npm\//g)!.length - 1);
    expect(fromXml.dependencies.filter((d) => d.dev)).toHaveLength(xml.match(/<scope>(?:optional|excluded)<\/scope>/g)?.length ?? 0);
    // Each at the line of its own package URL.
    const lines = xml.split('\n');
    const misplaced = fromXml.dependencies.filter((d) => !(lines[(d.line ?? 0) - 1] ?? '').includes(`<purl>pkg:npm/${d.name.replace('@', '%40')}@${d.version}`));
    expect(misplaced).toEqual([]);
  });

  it('the juice-shop SBOM: 1115 packages, 71 direct from the graph, 76 dev', () => {
    const input = readInputText(real('CycloneDX__bom-examples/SBOM/juice-shop/via_npm/bare/bom.1.4.xml.gz'), 'bom.1.4.xml');
    expect([input.dependencies.length, input.dependencies.filter((d) => d.direct).length, input.dependencies.filter((d) => d.dev).length]).toEqual([1115, 71, 76]);
  });

  it('the hand-written fixture: nested components, scope, the graph, a maven component and one without a package URL', () => {
    const xml = fixture('sbom-cyclonedx/bom.cdx.xml');
    const input = readInputText(xml, 'sbom-cyclonedx/bom.cdx.xml');
    expect(entries(input)).toEqual(entries(readInputText(fixture('sbom-cyclonedx/bom.cdx.json'), 'sbom-cyclonedx/bom.cdx.json')));
    expect(only(input, '@types/semver')).toMatchObject({ dev: true, direct: true, line: lineOf(xml, '<purl>pkg:npm/%40types/semver@7.8.0</purl>') });
    expect(only(input, 'ms')).toMatchObject({ direct: false, line: lineOf(xml, '<purl>pkg:npm/ms@2.1.2</purl>') });
  });
});

describe('SPDX tag-value gives what the JSON of the same document gives', () => {
  it.each([
    ['the SPDX 2.3 specification example', 'spdx__spdx-spec@d4dbeb6/examples/SPDXTagExample-v2.3.spdx', 'spdx__spdx-spec@d4dbeb6/examples/SPDXJSONExample-v2.3.spdx.json'],
    ['the SPDX 2.2 specification example', 'spdx__spdx-spec@ed8c9b5/examples/SPDXTagExample-v2.2.spdx', 'spdx__spdx-spec@ed8c9b5/examples/SPDXJSONExample-v2.2.spdx.json'],
  ])('%s: its maven package and the two without a package URL left out, in the same notes', (_, tagPath, jsonPath) => {
    const fromTags = readInputText(real(tagPath), tagPath);
    expect(entries(fromTags)).toEqual(entries(readInputText(real(jsonPath), jsonPath)));
    expect(entries(fromTags).notes).toEqual(['skipped 1 package(s) that are neither npm nor PyPI (maven: 1)', 'skipped 2 package(s) without a package URL']);
  });

  it('the hand-written fixture: DEPENDS_ON and DEV_DEPENDENCY_OF, a golang package, multi-line <text> values that look like tags', () => {
    const text = fixture('sbom-spdx/sbom.spdx');
    const input = readInputText(text, 'sbom-spdx/sbom.spdx');
    expect(entries(input)).toEqual(entries(readInputText(fixture('sbom-spdx/sbom.spdx.json'), 'sbom-spdx/sbom.spdx.json')));
    expect(only(input, 'pytest')).toMatchObject({ direct: true, dev: true, line: lineOf(text, 'ExternalRef: PACKAGE-MANAGER purl pkg:pypi/pytest@') });
    expect(input.dependencies.some((d) => d.name === 'not-this-one')).toBe(false);
  });
});

const SHA = '0123456789abcdef0123456789abcdef01234567';
const component = (name: string, version: string, purl: string, distribution: string | null, extra: object = {}) => ({
  'bom-ref': `${name}@${version}`,
  type: 'library',
  name: name.replace(/^@[^/]+\//, ''),
  ...(name.startsWith('@') ? { group: name.slice(0, name.indexOf('/')) } : {}),
  version,
  scope: 'required',
  purl,
  externalReferences: distribution === null ? [] : [{ type: 'distribution', url: distribution }],
  ...extra,
});

describe('components fetched from elsewhere, and components that name another package, in XML', () => {
  const bom = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    metadata: { component: component('app', '1.0.0', 'pkg:npm/app@1.0.0', null, { type: 'application' }) },
    components: [
      component('left-pad', '1.3.0', `pkg:npm/left-pad@1.3.0?vcs_url=git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`, `git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`),
      component('tarred', '1.0.0', 'pkg:npm/tarred@1.0.0', 'https://files.example.com/tarred-1.0.0.tgz'),
      component('vendored', '1.0.0', 'pkg:npm/vendored@1.0.0', 'file:vendor/vendored-1.0.0.tgz'),
      component('@acme/dev-tool', '2.0.0', `pkg:npm/%40acme/dev-tool@2.0.0?vcs_url=git%2Bhttps%3A%2F%2Fgitlab.example.com%2Facme%2Fdev-tool.git%23${SHA}`, null, { scope: 'optional' }),
      component('@corp/lib', '1.2.0', 'pkg:npm/%40corp/lib@1.2.0?download_url=https%3A%2F%2Fnpm.corp.example.test%2F%40corp%2Flib%2F-%2Flib-1.2.0.tgz&arch=x64', null, {
        components: [component('zipped', '0.1.0', 'pkg:npm/zipped@0.1.0?download_url=https%3A%2F%2Fcdn.example.net%2Fzipped%2Fmain.zip', null)],
      }),
      component('chalk', '5.3.0', 'pkg:npm/chalk@5.3.0', 'git+https://github.com/chalk/chalk.git'),
      { ...component('evil', '4.1.0', 'pkg:npm/trusted@4.1.0', null), name: 'evil' },
      { ...component('trusted', '4.1.1', 'pkg:npm/trusted@4.1.0', null) },
      component('requests', '2.31.0', 'pkg:pypi/requests@2.31.0?repository_url=https://pypi.corp.example.test/simple', null, { scope: 'excluded' }),
      component('guava', '33.0.0', 'pkg:maven/com.google.guava/guava@33.0.0', null),
      component('left-over', '1', 'pkg:npm/left-over', null),
    ],
    dependencies: [
      { ref: 'app@1.0.0', dependsOn: ['left-pad@1.3.0', 'tarred@1.0.0', 'vendored@1.0.0', '@acme/dev-tool@2.0.0', '@corp/lib@1.2.0', 'chalk@5.3.0', 'evil@4.1.0'] },
      { ref: '@corp/lib@1.2.0', dependsOn: ['zipped@0.1.0'] },
    ],
  };

  it('the same skipped entries (remote, local, without a host), packages, flags and notes as the JSON', () => {
    const xml = cycloneDxXml(bom);
    const fromXml = readCycloneDxXml(xml, 'bom.xml');
    const fromJson = readCycloneDx(JSON.stringify(bom, null, 2), 'bom.json');
    expect(entries(fromXml)).toEqual(entries(fromJson));
    expect((fromXml.skipped ?? []).map((s) => [s.name, s.kind, s.host])).toEqual([
      ['left-pad', 'remote', 'github.com'],
      ['tarred', 'remote', 'files.example.com'],
      ['vendored', 'local', null],
      ['@acme/dev-tool', 'remote', 'gitlab.example.com'],
      ['zipped', 'remote', 'cdn.example.net'],
      ['trusted', 'remote', null],
      ['trusted', 'remote', null],
      // No version in its package URL, and its own (`1`) is no plain version: which package it is cannot be told.
      ['left-over', 'remote', null],
    ]);
    // At the line that says so: the package URL, or the distribution reference.
    expect(fromXml.skipped?.[1]?.line).toBe(lineOf(xml, '<url>https://files.example.com/tarred-1.0.0.tgz</url>'));
    expect(fromXml.skipped?.[0]?.line).toBe(lineOf(xml, '<purl>pkg:npm/left-pad@1.3.0'));
    // `&amp;` in the package URL is its `&`: the repository URL is read whole.
    expect(only(fromXml, '@corp/lib').resolved).toBe('https://npm.corp.example.test/@corp/lib/-/lib-1.2.0.tgz');
    expect(only(fromXml, 'requests')).toMatchObject({ ecosystem: 'pypi', dev: true, direct: false, resolved: 'https://pypi.corp.example.test/simple' });
  });

  it.each(['1.2', '1.3', '1.4', '1.5', '1.6'])('spec %s: the same entries', (version) => {
    const versioned = { ...bom, specVersion: version };
    expect(entries(readCycloneDxXml(cycloneDxXml(versioned), 'bom.xml'))).toEqual(entries(readCycloneDx(JSON.stringify(versioned), 'bom.json')));
  });
});

describe('SPDX tag-value: fetched packages and the relationships, as the JSON', () => {
  const pkg = (id: string, name: string, version: string, purl: string, downloadLocation: string, category = 'PACKAGE-MANAGER') => ({
    name,
    SPDXID: id,
    versionInfo: version,
    downloadLocation,
    externalRefs: [{ referenceCategory: category, referenceType: 'purl', referenceLocator: purl }],
  });
  const doc = {
    spdxVersion: 'SPDX-2.2',
    documentDescribes: ['SPDXRef-app'],
    packages: [
      pkg('SPDXRef-app', 'app', '1.0.0', 'pkg:npm/app@1.0.0', 'NOASSERTION'),
      pkg('SPDXRef-left-pad', 'left-pad', '1.3.0', `pkg:npm/left-pad@1.3.0?vcs_url=git+ssh://git@github.com/stevemao/left-pad.git#${SHA}`, 'NOASSERTION'),
      // SPDX 2.2 tools write the category with an underscore.
      pkg('SPDXRef-tarred', 'tarred', '1.0.0', 'pkg:npm/tarred@1.0.0', 'https://files.example.com/tarred-1.0.0.tgz', 'PACKAGE_MANAGER'),
      pkg('SPDXRef-ms', 'ms', '2.1.3', 'pkg:npm/ms@2.1.3', 'NOASSERTION'),
      pkg('SPDXRef-tool', 'tool', '1.2', 'pkg:pypi/tool@1.2', 'git+https://git.example.com/acme/tool.git@v1.2'),
      pkg('SPDXRef-evil', 'evil', '1.0.0', 'pkg:npm/trusted@1.0.0', 'NOASSERTION'),
      pkg('SPDXRef-requests', 'requests', '2.31.0', 'pkg:pypi/requests@2.31.0', 'NOASSERTION'),
    ],
    relationships: [
      { spdxElementId: 'SPDXRef-left-pad', relationshipType: 'DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-app' },
      { spdxElementId: 'SPDXRef-tarred', relationshipType: 'DEV_DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-app' },
      { spdxElementId: 'SPDXRef-tarred', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-ms' },
      { spdxElementId: 'SPDXRef-app', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-tool' },
      { spdxElementId: 'SPDXRef-app', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-evil' },
      { spdxElementId: 'SPDXRef-requests', relationshipType: 'TEST_DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-tool' },
    ],
  };

  it('the same entries, each at its own line', () => {
    const text = spdxTagValue(doc);
    const fromTags = readSpdxTagValue(text, 'sbom.spdx');
    expect(entries(fromTags)).toEqual(entries(readSpdx(JSON.stringify(doc), 'sbom.spdx.json')));
    expect((fromTags.skipped ?? []).map((s) => [s.name, s.kind, s.host, s.line])).toEqual([
      ['left-pad', 'remote', 'github.com', lineOf(text, 'purl pkg:npm/left-pad@')],
      ['tarred', 'remote', 'files.example.com', lineOf(text, 'PackageDownloadLocation: https://files.example.com/')],
      ['tool', 'remote', 'git.example.com', lineOf(text, 'PackageDownloadLocation: git+https://git.example.com/')],
      ['trusted', 'remote', null, lineOf(text, 'purl pkg:npm/trusted@')],
    ]);
    expect(only(fromTags, 'ms')).toMatchObject({ direct: false, dev: true });
    expect(only(fromTags, 'requests')).toMatchObject({ direct: false, dev: true, line: lineOf(text, 'purl pkg:pypi/requests@') });
  });

  it('CRLF line endings and a byte order mark read the same', () => {
    const text = `\uFEFF${spdxTagValue(doc).replace(/\n/g, '\r\n')}`;
    expect(entries(readSpdxTagValue(text, 'sbom.spdx'))).toEqual(entries(readSpdx(JSON.stringify(doc), 'sbom.spdx.json')));
  });

  it('a one-line <text> value, and a relationship on a package in another document, are read', () => {
    const text = `SPDXVersion: SPDX-2.3\nPackageName: a\nSPDXID: SPDXRef-a\nPackageComment: <text>one line</text>\nExternalRef: PACKAGE-MANAGER purl pkg:npm/a@1.0.0\nRelationship: SPDXRef-a DEPENDS_ON DocumentRef-other:SPDXRef-b\n`;
    expect(only(readSpdxTagValue(text, 'a.spdx'), 'a')).toMatchObject({ version: '1.0.0', line: 5 });
  });
});

describe('what these readers refuse, at the line', () => {
  const minimalXml = (purl: string, extra = '') => `<?xml version="1.0"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.5">\n<components>\n<component type="library"${extra}>\n<purl>${purl}</purl>\n</component>\n</components>\n</bom>\n`;

  it.each<[string, string, number | null, RegExp]>([
    ['XML that is not well formed', minimalXml('pkg:npm/a@1.0.0').replace('</component>', '</componen>'), 6, /invalid XML/],
    ['an entity XML does not define', minimalXml('pkg:npm/a@1.0.0?x=&nbsp;'), 5, /entity reference XML does not define/],
    ['a package URL given twice', minimalXml('pkg:npm/a@1.0.0</purl><purl>pkg:npm/b@1.0.0'), 5, /unexpected structure/],
    ['a package URL that is not one', minimalXml('npm/a@1.0.0'), 5, /package URL/],
    ['another root element', '<project xmlns="http://maven.apache.org/POM/4.0.0">\n</project>\n', 1, /not a CycloneDX document/],
    ['a <bom> outside the CycloneDX namespace', '<bom xmlns="http://example.com/bom">\n</bom>\n', 1, /not a CycloneDX document/],
  ])('CycloneDX XML: %s', (_, text, line, message) => {
    const error = lockfileErrorOf(() => readCycloneDxXml(text, 'bom.xml'));
    expect([error.line, message.test(error.message)]).toEqual([line, true]);
  });

  it.each<[string, string, number | null, RegExp]>([
    ['a <text> never closed', 'SPDXVersion: SPDX-2.3\nPackageName: a\nPackageComment: <text>open\nSPDXID: SPDXRef-a\n', 3, /never closed/],
    ['an SPDXID given twice', 'SPDXVersion: SPDX-2.3\nPackageName: a\nSPDXID: SPDXRef-a\nSPDXID: SPDXRef-b\n', 4, /given twice/],
    ['a PackageVersion given twice', 'SPDXVersion: SPDX-2.3\nPackageName: a\nSPDXID: SPDXRef-a\nPackageVersion: 1\nPackageVersion: 2\n', 5, /given twice/],
    ['a package without an SPDXID', 'SPDXVersion: SPDX-2.3\nPackageName: a\nPackageVersion: 1\n', 2, /no SPDXID/],
    ['a line that is not a tag', 'SPDXVersion: SPDX-2.3\nPackageName: a\nthis is prose\n', 3, /not a tag-value line/],
    ['a relationship without its related element', 'SPDXVersion: SPDX-2.3\nRelationship: SPDXRef-DOCUMENT DESCRIBES\n', 2, /relationship needs/],
    ['no SPDXVersion', 'PackageName: a\nSPDXID: SPDXRef-a\n', null, /not an SPDX tag-value document/],
    ['a package URL that is not one', 'SPDXVersion: SPDX-2.3\nPackageName: a\nSPDXID: SPDXRef-a\nExternalRef: PACKAGE-MANAGER purl npm/a@1\n', 4, /package URL/],
  ])('SPDX tag-value: %s', (_, text, line, message) => {
    const error = lockfileErrorOf(() => readSpdxTagValue(text, 'sbom.spdx'));
    expect([error.line, message.test(error.message)]).toEqual([line, true]);
  });
});

describe('XML read as the document means it', () => {
  const bom = (body: string, root = '<bom xmlns="http://cyclonedx.org/schema/bom/1.4">', end = '</bom>') =>
    `${root}<metadata><component type="application" bom-ref="app&amp;1"/></metadata><components>${body}</components><dependencies><dependency ref="app&#38;1"><dependency ref="a&#x26;b"/></dependency></dependencies>${end}`;

  it('character references and the predefined entities decoded in attributes and text, CDATA as written', () => {
    const input = readCycloneDxXml(bom('<component type="library" bom-ref="a&amp;b"><purl><![CDATA[pkg:npm/a@1.0.0?arch=x64&repository_url=https://r.example.test/npm&amp;x]]></purl></component><component bom-ref="c"><purl>pkg:npm/c@1.0.0</purl></component>'), 'bom.xml');
    expect(only(input, 'a')).toMatchObject({ direct: true, resolved: 'https://r.example.test/npm' });
    expect(only(input, 'c')).toMatchObject({ direct: false });
  });

  it('a namespace prefix on every element', () => {
    const text = bom('<cdx:component type="library" bom-ref="a&amp;b"><cdx:purl>pkg:npm/a@1.0.0</cdx:purl></cdx:component>', '<cdx:bom xmlns:cdx="http://cyclonedx.org/schema/bom/1.6">', '</cdx:bom>')
      .replace(/<(\/?)(metadata|components|component|dependencies|dependency)\b/g, '<$1cdx:$2');
    expect(only(readCycloneDxXml(text, 'bom.xml'), 'a')).toMatchObject({ direct: true });
  });
});

describe('which reader a file gets', () => {
  const XML = cycloneDxXml({ specVersion: '1.5', components: [] });
  const TAGS = 'SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\n';
  it.each<[string, string, unknown]>([
    ['bom.xml', XML, readCycloneDxXml],
    ['target/app.cdx.xml', XML, readCycloneDxXml],
    ['reports/sbom-report.xml', XML, readCycloneDxXml],
    ['reports/sbom-report.xml', XML.replace('<bom xmlns=', '<cdx:bom xmlns:cdx='), readCycloneDxXml],
    ['sbom.spdx', TAGS, readSpdxTagValue],
    ['out/app.spdx.tv', `# made by a tool\n\n${TAGS}`, readSpdxTagValue],
    ['out/sbom', TAGS, readSpdxTagValue],
    ['bom.json', JSON.stringify({ bomFormat: 'CycloneDX' }), readCycloneDx],
  ])('%s', (file, text, reader) => {
    expect(readerFor(file, text)).toBe(reader);
  });

  it.each([
    ['pom.xml', '<project xmlns="http://maven.apache.org/POM/4.0.0"></project>'],
    ['notes.md', 'Some SPDXVersion: SPDX-2.3 talk\n'],
  ])('%s: not a supported input', (file, text) => {
    expect(lockfileErrorOf(() => readerFor(file, text)).message).toMatch(/not a supported input/);
  });
});

import { describe, expect, it } from 'vitest';
import { readCycloneDx, readInputText, readSpdx } from '../../../src/lockfiles/index.js';
import { find, fixture, lineOf, lockfileErrorOf, only, readFixture } from './helpers.js';

describe('CycloneDX JSON', () => {
  const text = fixture('sbom-cyclonedx/bom.cdx.json');

  it('reads npm and PyPI purls at their lines, nested components included, and counts what it skips', () => {
    const input = readFixture('sbom-cyclonedx', 'bom.cdx.json');
    expect(only(input, '@types/semver')).toMatchObject({ version: '7.8.0', dev: true, direct: true, line: lineOf(text, '"purl": "pkg:npm/%40types/semver@7.8.0"') });
    expect(only(input, 'ms')).toMatchObject({ direct: false, line: lineOf(text, '"purl": "pkg:npm/ms@2.1.2"') });
    expect(input.notes).toEqual([
      'sbom-cyclonedx/bom.cdx.json: skipped 1 package(s) that are neither npm nor PyPI (maven: 1)',
      'sbom-cyclonedx/bom.cdx.json: skipped 1 package(s) without a package URL',
    ]);
  });

  it('without a dependency graph takes every component as direct, and reads repository_url as resolved', () => {
    const bom = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.4',
      components: [
        { type: 'library', name: 'requests', version: '2.31.0', purl: 'pkg:pypi/Requests@2.31.0?repository_url=https://pypi.corp.example.test/simple', scope: 'excluded' },
        { type: 'library', name: 'left-pad', purl: 'pkg:npm/left-pad' },
      ],
    });
    const input = readCycloneDx(bom, 'bom.json');
    expect(only(input, 'requests')).toMatchObject({ ecosystem: 'pypi', direct: true, dev: true, resolved: 'https://pypi.corp.example.test/simple' });
    expect(find(input, 'left-pad')).toEqual([]);
    // No version anywhere: never a note alone, an entry nerq cannot name (the run incomplete).
    expect(input.skipped?.map((s) => [s.name, s.kind, s.host, s.source])).toEqual([['left-pad', 'remote', null, 'pkg:npm/left-pad']]);
    expect(input.notes[0]).toBe('bom.json: no dependency graph for the described component: every component is taken as direct');
    expect(input.notes).toHaveLength(2);
  });

  it('is recognised by content under any .json name', () => {
    expect(readInputText(text, 'reports/sbom.json').format).toBe('cyclonedx');
  });
});

describe('SPDX JSON', () => {
  const text = fixture('sbom-spdx/sbom.spdx.json');

  it('reads purl external references at their lines and decides direct and dev from the relationships', () => {
    const input = readFixture('sbom-spdx', 'sbom.spdx.json');
    expect(find(input, 'fixture-app')).toEqual([]);
    expect(only(input, 'charset-normalizer')).toMatchObject({ version: '3.3.2', direct: false, line: lineOf(text, 'pkg:pypi/Charset_Normalizer@3.3.2') });
    expect(only(input, 'pytest')).toMatchObject({ direct: true, dev: true });
    expect(input.notes).toEqual([
      'sbom-spdx/sbom.spdx.json: skipped 1 package(s) that are neither npm nor PyPI (golang: 1)',
      'sbom-spdx/sbom.spdx.json: skipped 1 package(s) without a package URL',
    ]);
    expect(readInputText(text, 'out/sbom.json').format).toBe('spdx');
  });

  it('without relationships takes every package as direct and none as dev', () => {
    const doc = JSON.stringify({
      spdxVersion: 'SPDX-2.3',
      packages: [{ SPDXID: 'SPDXRef-a', externalRefs: [{ referenceType: 'purl', referenceLocator: 'pkg:npm/%40scope/a@1.0.0' }] }],
    });
    const input = readSpdx(doc, 'sbom.spdx.json');
    expect(only(input, '@scope/a')).toMatchObject({ direct: true, dev: false });
    expect(input.notes).toEqual(['sbom.spdx.json: no dependency relationships from the described package: every package is taken as direct']);
  });

  it('refuses a purl that is not one, at its line', () => {
    const doc = text.replace('"pkg:pypi/idna@3.6"', '"idna 3.6"');
    expect(lockfileErrorOf(() => readSpdx(doc, 'sbom.spdx.json')).line).toBe(lineOf(doc, '"idna 3.6"'));
  });
});

describe('a component whose own name or version is not its package URL\'s', () => {
  const bom = (fields: Record<string, unknown>, purl: string) =>
    readCycloneDx(JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', ...fields, purl }] }), 'bom.cdx.json');

  it.each<[string, Record<string, unknown>, string]>([
    ['npm, the same name and version', { name: 'chalk', version: '4.1.0' }, 'pkg:npm/chalk@4.1.0'],
    ['npm, the scope in group (with its @)', { group: '@babel', name: 'core', version: '7.0.0' }, 'pkg:npm/%40babel/core@7.0.0'],
    ['npm, the scope in group (without)', { group: 'babel', name: 'core', version: '7.0.0' }, 'pkg:npm/%40babel/core@7.0.0'],
    ['npm, a scoped name without its scope and no group', { name: 'core', version: '7.0.0' }, 'pkg:npm/%40babel/core@7.0.0'],
    ['npm, a v-prefixed version', { name: 'chalk', version: 'v4.1.0' }, 'pkg:npm/chalk@4.1.0'],
    ['PyPI, the name as published and an equal version', { name: 'Flask_Login', version: '0.6' }, 'pkg:pypi/flask-login@0.6.0'],
    ['no name or version given', { version: 7 }, 'pkg:npm/chalk@4.1.0'],
    // GitHub's dependency graph export writes its ecosystem before the name.
    ['npm, the name after GitHub\'s ecosystem label', { name: 'npm:agent-base', version: '4.3.0' }, 'pkg:npm/agent-base@4.3.0'],
    ['npm, a scoped name after GitHub\'s ecosystem label', { name: 'npm:@babel/core', version: '7.0.0' }, 'pkg:npm/%40babel/core@7.0.0'],
    ['PyPI, the name after GitHub\'s ecosystem label', { name: 'pip:requests', version: '2.31.0' }, 'pkg:pypi/requests@2.31.0'],
  ])('%s: audited', (_, fields, purl) => {
    const input = bom(fields, purl);
    expect(input.dependencies).toHaveLength(1);
    expect(input.skipped ?? []).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['npm, another name', { name: 'evil', version: '4.1.0' }, 'pkg:npm/chalk@4.1.0'],
    ['npm, another version', { name: 'chalk', version: '4.1.1' }, 'pkg:npm/chalk@4.1.0'],
    ['npm, another scope', { group: '@evil', name: 'core', version: '7.0.0' }, 'pkg:npm/%40babel/core@7.0.0'],
    ['npm, a version that is no version', { name: 'chalk', version: 'latest' }, 'pkg:npm/chalk@4.1.0'],
    ['PyPI, another name', { name: 'flask-evil', version: '3.1.3' }, 'pkg:pypi/flask@3.1.3'],
    ['npm, another name after an ecosystem label', { name: 'npm:evil', version: '4.1.0' }, 'pkg:npm/chalk@4.1.0'],
    ['npm, a label of another ecosystem', { name: 'pip:chalk', version: '4.1.0' }, 'pkg:npm/chalk@4.1.0'],
  ])('%s: a remote skipped entry without a host, never a package', (_, fields, purl) => {
    const input = bom(fields, purl);
    expect(input.dependencies).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.host])).toEqual([['remote', null]]);
  });
});

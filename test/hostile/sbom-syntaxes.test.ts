/**
 * Hostile world: SBOMs in XML and tag-value (docs/security.md, "XML SBOMs"). An XML document can
 * define entities that expand a few hundred bytes into gigabytes (a billion laughs) or that name
 * a file of the machine or a URL (an external entity): nerq must never expand, read or fetch
 * one. The document type declaration that would define them is refused with one line (exit 2),
 * before the parser sees it, wherever it is; so is nesting without end. Text a stranger wrote
 * takes time linear in its length: many components, a huge attribute, tag-value documents of
 * 10^5 lines, a `<text>` value that is never closed. Bytes that are not UTF-8 give what the JSON
 * of the same SBOM gives with the same bytes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LockfileError } from '../../src/audit/types.js';
import { readCycloneDx, readCycloneDxXml, readInputText, readSpdx, readSpdxTagValue } from '../../src/lockfiles/index.js';
import { TempDirs } from '../cli/audit-helpers.js';
import type { ParsedInput } from '../../src/lockfiles/types.js';
import { cycloneDxXml, spdxTagValue } from '../support/sbom-syntax.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { expectLinear, growth } from './support/linear-time.js';
import { noteCases } from './support/metrics.js';

// Linear-time properties measure CPU time (support/linear-time.ts); a loaded machine stretches their wall clock.
vi.setConfig({ testTimeout: 180_000 });

const SECRET = 'nerq-secret-file-content-7f3a';
const dirs = new TempDirs();
let secretFile: string;
beforeAll(() => {
  const dir = dirs.make('nerq-xxe-');
  secretFile = path.join(dir, 'secret.txt');
  writeFileSync(secretFile, `${SECRET}\n`);
  return () => dirs.cleanUp();
});

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const BOM_OPEN = '<bom xmlns="http://cyclonedx.org/schema/bom/1.5" version="1">';
const withPurl = (purl: string) => `${BOM_OPEN}\n<components>\n<component type="library"><name>a</name><purl>${purl}</purl></component>\n</components>\n</bom>\n`;

const laughs = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`)].join('\n');

/** Documents that define entities, or declare a document type, each with the line of its declaration. */
const DECLARATIONS = (): [label: string, text: string, line: number][] => [
  ['a billion laughs', `${HEAD}<!DOCTYPE bom [\n${laughs}\n]>\n${withPurl('pkg:npm/a@1.0.0?x=&lol9;')}`, 2],
  ['an external entity naming a local file', `${HEAD}<!DOCTYPE bom [\n<!ENTITY xxe SYSTEM "file://${secretFile}">\n]>\n${withPurl('pkg:npm/&xxe;@1.0.0')}`, 2],
  ['an external entity naming a URL', `${HEAD}<!DOCTYPE bom [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/x">]>\n${withPurl('pkg:npm/&xxe;@1.0.0')}`, 2],
  ['a parameter entity', `${HEAD}<!DOCTYPE bom [<!ENTITY % p SYSTEM "file://${secretFile}"> %p;]>\n${withPurl('pkg:npm/a@1.0.0')}`, 2],
  ['an external document type', `${HEAD}<!DOCTYPE bom SYSTEM "file://${secretFile}">\n${withPurl('pkg:npm/a@1.0.0')}`, 2],
  ['a document type after a comment', `${HEAD}<!-- made by a tool -->\n<!DOCTYPE bom>\n${withPurl('pkg:npm/a@1.0.0')}`, 3],
  ['an entity declaration inside the document', `${HEAD}${BOM_OPEN}\n<!ENTITY x "y">\n</bom>\n`, 3],
];

describe('XML entities are never defined, expanded, read or fetched', () => {
  it.for(DECLARATIONS().map(([label]) => label))('%s: refused at its line, in one line', (label, { task }) => {
    noteCases(task);
    const [, text, line] = DECLARATIONS().find(([l]) => l === label)!;
    const started = performance.now();
    let thrown: unknown;
    try {
      readCycloneDxXml(text, 'bom.xml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LockfileError);
    expect((thrown as LockfileError).line).toBe(line);
    expect((thrown as Error).message).not.toMatch(/\n/);
    expect((thrown as Error).message).not.toContain(SECRET);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a document type declaration inside CDATA or a comment is text: the SBOM is read', () => {
    const text = `${HEAD}<!-- <!DOCTYPE bom> -->\n${withPurl('pkg:npm/a@1.0.0').replace('<name>a</name>', '<name>a</name><description><![CDATA[<!DOCTYPE x [<!ENTITY y "z">]>]]></description>')}`;
    expect(readCycloneDxXml(text, 'bom.xml').dependencies.map((d) => d.name)).toEqual(['a']);
  });

  it.concurrent.for(['a billion laughs', 'an external entity naming a local file'])('through the CLI, %s: exit 2, one line on stderr, the file not read', { timeout: CLI_TEST_TIMEOUT_MS }, async (label, { task, expect }) => {
    requireCli();
    noteCases(task);
    const dir = dirs.make('nerq-xml-');
    writeFileSync(path.join(dir, 'bom.xml'), DECLARATIONS().find(([l]) => l === label)![1]);
    const run = await runHostile(['audit', dir, '--json', '--file', path.join(dir, 'bom.xml')]);
    expect(run.code, run.stderr).toBe(2);
    expectCleanStderr(run.stderr);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/bom\.xml:2: a document type or entity declaration/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
  });
});

describe('XML without end', () => {
  it('nesting 100,000 components deep is refused in one line, no crash', () => {
    const k = 100_000;
    const text = `${BOM_OPEN}<components>${'<component><components>'.repeat(k)}${'</components></component>'.repeat(k)}</components></bom>`;
    const error = (() => {
      try {
        readCycloneDxXml(text, 'bom.xml');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(LockfileError);
    expect((error as Error).message).toMatch(/nested more than \d+ elements deep/);
  });

  it('a component nested as deep as allowed is read, as the JSON of it', () => {
    const depth = 100;
    const nest = (i: number): object => ({ type: 'library', name: `p${i}`, version: '1.0.0', purl: `pkg:npm/p${i}@1.0.0`, ...(i < depth ? { components: [nest(i + 1)] } : {}) });
    const bom = { bomFormat: 'CycloneDX', specVersion: '1.5', components: [nest(1)] };
    const fromXml = readCycloneDxXml(cycloneDxXml(bom), 'bom.xml');
    expect(fromXml.dependencies).toHaveLength(depth);
    expect(fromXml.dependencies.map((d) => d.name)).toEqual(readCycloneDx(JSON.stringify(bom), 'bom.json').dependencies.map((d) => d.name));
  });

  it('many components: linear time', ({ task }) => {
    const unit = '<component type="library" bom-ref="r"><name>a</name><version>1.0.0</version><purl>pkg:npm/a@1.0.0</purl></component>\n';
    expectLinear(task, 'components', growth((k) => readCycloneDxXml(`${BOM_OPEN}<components>${unit.repeat(k)}</components></bom>`, 'bom.xml'), 500, true));
  });

  it('a huge attribute and a huge text: read, in linear time', ({ task }) => {
    const text = (k: number) => `${BOM_OPEN}<components><component bom-ref="${'r'.repeat(k)}"><name>${'&amp;'.repeat(k)}</name><purl>pkg:npm/a@1.0.0</purl></component></components></bom>`;
    expect(readCycloneDxXml(text(1_000_000), 'bom.xml').skipped?.map((s) => s.host)).toEqual([null]);
    expectLinear(task, 'attribute', growth((k) => readCycloneDxXml(text(k), 'bom.xml'), 20_000, true));
  });

  it('an unclosed comment, CDATA section or tag: one error, in linear time', ({ task }) => {
    for (const open of ['<!--', '<![CDATA[', '<component bom-ref="']) {
      const text = (k: number) => `${BOM_OPEN}<components>${open}${'a '.repeat(k)}`;
      expect(() => readCycloneDxXml(text(10), 'bom.xml')).toThrow(LockfileError);
      expectLinear(task, open, growth((k) => readCycloneDxXml(text(k), 'bom.xml'), 100_000));
    }
  });
});

describe('tag-value without end', () => {
  const pkg = (i: number) => `PackageName: p${i}\nSPDXID: SPDXRef-p${i}\nPackageVersion: 1.0.0\nPackageComment: <text>a\nPackageName: not-a-package\n</text>\nExternalRef: PACKAGE-MANAGER purl pkg:npm/p${i}@1.0.0\nRelationship: SPDXRef-app DEPENDS_ON SPDXRef-p${i}\n`;
  const doc = (k: number) => `SPDXVersion: SPDX-2.3\nRelationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-app\n${Array.from({ length: k }, (_, i) => pkg(i)).join('')}`;

  it('10^5 lines: read whole, in linear time', ({ task }) => {
    const input = readSpdxTagValue(doc(12_500), 'sbom.spdx');
    // One package each, all direct dependencies of the described one; no <text> line is a package.
    expect([input.dependencies.length, input.dependencies.filter((d) => d.direct).length, input.notes]).toEqual([12_500, 12_500, []]);
    expectLinear(task, 'packages', growth((k) => readSpdxTagValue(doc(k), 'sbom.spdx'), 200, true));
  });

  it('a <text> never closed, before 10^5 lines: one error at its line, in linear time', ({ task }) => {
    const text = (k: number) => `SPDXVersion: SPDX-2.3\nPackageName: a\nPackageComment: <text>open\n${'PackageName: b\n'.repeat(k)}`;
    expect(() => readSpdxTagValue(text(100_000), 'sbom.spdx')).toThrow(/sbom\.spdx:3: .*never closed/);
    expectLinear(task, 'unclosed text', growth((k) => readSpdxTagValue(text(k), 'sbom.spdx'), 5000, true));
  });

  it('many <text> openings on one line, a very long line, many relationships: linear time', ({ task }) => {
    expectLinear(task, 'text openings', growth((k) => readSpdxTagValue(`SPDXVersion: SPDX-2.3\nPackageComment: <text>${'<text>'.repeat(k)}</text>\n`, 'sbom.spdx'), 5000, true));
    expectLinear(task, 'long line', growth((k) => readSpdxTagValue(`SPDXVersion: SPDX-2.3\nPackageName: ${'a: '.repeat(k)}\nSPDXID: x\n`, 'sbom.spdx'), 5000, true));
    // Many edges from one package: the graph is built in linear time too (the JSON reader shares it).
    expectLinear(task, 'relationships', growth((k) => readSpdxTagValue(`SPDXVersion: SPDX-2.3\n${'Relationship: SPDXRef-a DEPENDS_ON SPDXRef-b\n'.repeat(k)}`, 'sbom.spdx'), 2000, true));
    expectLinear(task, 'relationships (JSON)', growth((k) => readSpdx(JSON.stringify({ spdxVersion: 'SPDX-2.3', relationships: Array.from({ length: k }, () => ({ spdxElementId: 'SPDXRef-a', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-b' })) }), 'sbom.spdx.json'), 2000, true));
  });
});

describe('bytes that are not UTF-8', () => {
  // Latin-1 bytes in a name and in a package URL, read as the audit reads every file: as UTF-8.
  const latin1 = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
  const outcome = (read: () => ParsedInput) => {
    try {
      const input = read();
      return { dependencies: input.dependencies.map((d) => d.name), skipped: (input.skipped ?? []).map((s) => s.name) };
    } catch (error) {
      expect(error).toBeInstanceOf(LockfileError);
      expect((error as Error).message).not.toMatch(/\n/);
      return { error: (error as Error).message.replace(/^[^:]+(?::\d+)?: /, '') };
    }
  };

  it.each([
    ['in a name', { name: 'caf\u00e9', version: '1.0.0', purl: 'pkg:npm/cafe@1.0.0' }],
    ['in a package URL', { name: 'cafe', version: '1.0.0', purl: 'pkg:npm/caf\u00e9@1.0.0' }],
    ['in a version', { name: 'cafe', version: '1.0.0\u00e9', purl: 'pkg:npm/cafe@1.0.0' }],
  ])('%s: what the JSON gives with the same bytes', (_, fields) => {
    const bom = { bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', ...fields }] };
    const xml = outcome(() => readCycloneDxXml(latin1(cycloneDxXml(bom)), 'bom.xml'));
    expect(xml).toEqual(outcome(() => readCycloneDx(latin1(JSON.stringify(bom)), 'bom.json')));
    const doc = { spdxVersion: 'SPDX-2.3', packages: [{ SPDXID: 'SPDXRef-a', name: fields.name, versionInfo: fields.version, externalRefs: [{ referenceType: 'purl', referenceLocator: fields.purl }] }] };
    expect(outcome(() => readSpdxTagValue(latin1(spdxTagValue(doc)), 'sbom.spdx'))).toEqual(outcome(() => readSpdx(latin1(JSON.stringify(doc)), 'sbom.spdx.json')));
  });

  it('a UTF-16 document: one error, never a crash', () => {
    const utf16 = Buffer.from(`\uFEFF${HEAD}${withPurl('pkg:npm/a@1.0.0')}`, 'utf16le').toString('utf8');
    expect(() => readInputText(utf16, 'bom.xml')).toThrow(LockfileError);
    expect(() => readInputText(Buffer.from('SPDXVersion: SPDX-2.3\n', 'utf16le').toString('utf8'), 'sbom.spdx')).toThrow(LockfileError);
  });
});

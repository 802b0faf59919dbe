/**
 * The dependencies a pom.xml declares (lockfiles/pom.ts): `groupId:artifactId` at the version
 * written or given by a property, test/provided scopes dev-only, ranges and unknown properties
 * unresolved with the reason; a document that is not a POM one clear error, never a crash.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPom } from '../../src/lockfiles/pom.js';
import { LockfileError } from '../../src/audit/types.js';

const REAL = fileURLToPath(new URL('../../fixtures/lockfiles/real/modelcontextprotocol__java-sdk/', import.meta.url));

const pom = (body: string) => `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n<modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;
const dep = (g: string, a: string, extra = '') => `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId>${extra}</dependency>`;

describe('pom.xml', () => {
  it('modelcontextprotocol/java-sdk (real): the parent\'s BOM import; the module\'s ${…} versions only with the parent read', () => {
    const parent = readPom(readFileSync(`${REAL}pom.xml`, 'utf8'), 'pom.xml');
    expect(parent.dependencies).toEqual([{ name: 'io.projectreactor:reactor-bom', version: '2024.0.0', declared: '2024.0.0', reason: null, dev: false, line: 366 }]);
    const text = readFileSync(`${REAL}mcp-json-jackson2/pom.xml`, 'utf8');
    const module = readPom(text, 'mcp-json-jackson2/pom.xml', parent.inherited);
    expect(module.dependencies.map((d) => [d.name, d.version, d.dev])).toEqual([
      ['com.fasterxml.jackson.core:jackson-databind', '2.21.1', false],
      ['io.modelcontextprotocol.sdk:mcp-core', '2.1.0-SNAPSHOT', false],
      ['com.networknt:json-schema-validator', '2.0.4', false],
      ['org.assertj:assertj-core', '3.27.6', true],
      ['org.junit.jupiter:junit-jupiter-api', '6.0.2', true],
      ['org.junit.jupiter:junit-jupiter-params', '6.0.2', true],
      ['org.mockito:mockito-core', '5.20.0', true],
    ]);
    const alone = readPom(text, 'mcp-json-jackson2/pom.xml');
    expect(alone.dependencies[0]).toMatchObject({ version: null, declared: '${jackson2.version}', reason: expect.stringMatching(/property "jackson2\.version" is not defined/) });
  });

  it('properties, project.version, managed versions, scopes, ranges', () => {
    const read = readPom(
      pom(`<version>3.1.0</version>
<properties><a.version>1.2</a.version><b.version>\${a.version}.3</b.version><loop>\${loop}</loop></properties>
<dependencyManagement><dependencies>${dep('org.m', 'managed', '<version>9.9</version>')}</dependencies></dependencyManagement>
<dependencies>
${dep('org.x', 'literal', '<version>1.0</version>')}
${dep('org.x', 'prop', '<version>${b.version}</version>')}
${dep('org.x', 'self', '<version>${project.version}</version>')}
${dep('org.m', 'managed')}
${dep('org.x', 'test', '<version>2.0</version><scope>test</scope>')}
${dep('org.x', 'provided', '<version>2.0</version><scope>provided</scope>')}
${dep('org.x', 'runtime', '<version>2.0</version><scope>runtime</scope>')}
${dep('org.x', 'range', '<version>[1.0,2.0)</version>')}
${dep('org.x', 'loop', '<version>${loop}</version>')}
${dep('org.x', 'none')}
${dep('${g}', 'unnamed', '<version>1</version>')}
</dependencies>`),
      'pom.xml',
    );
    const by = Object.fromEntries(read.dependencies.map((d) => [d.name, d]));
    expect(by['org.x:literal']).toMatchObject({ version: '1.0', dev: false });
    expect(by['org.x:prop']).toMatchObject({ version: '1.2.3', declared: '${b.version}' });
    expect(by['org.x:self']).toMatchObject({ version: '3.1.0' });
    expect(read.dependencies.filter((d) => d.name === 'org.m:managed').map((d) => d.version)).toEqual(['9.9', '9.9']);
    expect([by['org.x:test']?.dev, by['org.x:provided']?.dev, by['org.x:runtime']?.dev]).toEqual([true, true, false]);
    expect(by['org.x:range']).toMatchObject({ version: null, reason: expect.stringMatching(/^a version range/) });
    expect(by['org.x:loop']).toMatchObject({ version: null, reason: expect.stringMatching(/refers to itself/) });
    expect(by['org.x:none']).toMatchObject({ version: null, reason: expect.stringMatching(/^no version/) });
    expect(read.notes).toEqual([expect.stringMatching(/^pom\.xml:\d+: a dependency skipped: no literal groupId and artifactId$/)]);
  });

  it('hostile input: not XML, a document type, another root, a duplicated <version>, too many dependencies: one LockfileError each', () => {
    expect(() => readPom('<project><dependencies>', 'pom.xml')).toThrow(LockfileError);
    expect(() => readPom('<!DOCTYPE project [<!ENTITY lol "lol">]><project>&lol;</project>', 'pom.xml')).toThrow(/document type/);
    expect(() => readPom('<bom/>', 'pom.xml')).toThrow(/not a Maven POM/);
    expect(() => readPom(pom(`<dependencies>${dep('g', 'a', '<version>1</version><version>2</version>')}</dependencies>`), 'pom.xml')).toThrow(/more than one <version>/);
    expect(() => readPom(pom(`<dependencies>${dep('g', 'a', '<version>&unknown;</version>')}</dependencies>`), 'pom.xml')).toThrow(/entity reference/);
    // Properties that each expand into 50 of the next: a version that would reach 50^6 characters stops at its cap.
    const laughs = Array.from({ length: 7 }, (_, i) => `<p${i}>${i === 6 ? 'x' : `\${p${i + 1}}`.repeat(50)}</p${i}>`).join('');
    const expanded = readPom(pom(`<properties>${laughs}</properties><dependencies>${dep('g', 'a', '<version>${p0}</version>')}</dependencies>`), 'pom.xml');
    expect(expanded.dependencies[0]).toMatchObject({ version: null, reason: expect.stringMatching(/expands past 1000 characters/) });
    const many = pom(`<dependencies>${Array.from({ length: 5001 }, (_, i) => dep('g', `a${i}`, '<version>1</version>')).join('')}</dependencies>`);
    expect(() => readPom(many, 'pom.xml')).toThrow(/more than 5000 dependencies/);
  });
});

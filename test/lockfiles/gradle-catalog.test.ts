/**
 * A Gradle version catalog (lockfiles/gradle-catalog.ts): the libraries a build declares, as
 * `group:artifact` at the version given; ranges, dynamic versions and missing ones unresolved with
 * the reason; plugins and bundles not libraries; odd TOML one clear error, never a crash.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVersionCatalog } from '../../src/lockfiles/gradle-catalog.js';
import { LockfileError } from '../../src/audit/types.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';

const FILE = 'gradle/libs.versions.toml';

describe('gradle/libs.versions.toml', () => {
  it('modelcontextprotocol/kotlin-sdk (recorded): 37 libraries, version.ref resolved, [plugins] left out', () => {
    const text = readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', 'modelcontextprotocol', 'kotlin-sdk', 'contents', 'gradle', 'libs.versions.toml'), 'utf8');
    const { libraries, notes } = readVersionCatalog(text, FILE);
    expect(libraries).toHaveLength(37);
    expect(notes).toEqual([]);
    expect(libraries.every((l) => l.version !== null && l.reason === null)).toBe(true);
    expect(libraries.find((l) => l.name === 'io.ktor:ktor-client-core')).toEqual({ name: 'io.ktor:ktor-client-core', version: '3.5.1', declared: '3.5.1', reason: null, line: 48 });
    expect(libraries.find((l) => l.name === 'dev.detekt:detekt-gradle-plugin')).toMatchObject({ version: '2.0.0-alpha.5' });
    expect(libraries.some((l) => l.name.startsWith('org.jlleitschuh'))).toBe(false);
  });

  it('every way to write a library and a version; ranges, dynamic and missing versions are unresolved with the reason', () => {
    const text = `[versions]
ok = "1.2.3"
rich = { strictly = "2.0" }
prefer = { prefer = "3.1" }
range = { require = "[1.0,2.0)" }

[libraries]
short = "org.a:short:1.0"
noversion = "org.a:bom-managed"
module = { module = "org.a:module", version = "4.0" }
parts = { group = "org.a", name = "parts", version.ref = "ok" }
strict = { module = "org.a:strict", version.ref = "rich" }
preferred = { module = "org.a:preferred", version.ref = "prefer" }
ranged = { module = "org.a:ranged", version.ref = "range" }
plus = { module = "org.a:plus", version = "1.+" }
latest = { module = "org.a:latest", version = "latest.release" }
missing = { module = "org.a:missing", version.ref = "nowhere" }
inline = { module = "org.a:inline", version = { require = "5.0", reject = ["5.0.1"] } }
bad = { module = "not-a-coordinate" }
weird = 42

[bundles]
all = ["short", "module"]

[plugins]
kotlin = { id = "org.jetbrains.kotlin.jvm", version = "2.0.0" }
`;
    const { libraries, notes } = readVersionCatalog(text, FILE);
    const by = Object.fromEntries(libraries.map((l) => [l.name, l]));
    expect(by['org.a:short']).toMatchObject({ version: '1.0', reason: null });
    expect(by['org.a:bom-managed']).toMatchObject({ version: null, reason: expect.stringMatching(/^no version in the catalog/) });
    expect(by['org.a:module']).toMatchObject({ version: '4.0' });
    expect(by['org.a:parts']).toMatchObject({ version: '1.2.3' });
    expect(by['org.a:strict']).toMatchObject({ version: '2.0', declared: 'strictly 2.0' });
    expect(by['org.a:preferred']).toMatchObject({ version: '3.1' });
    expect(by['org.a:ranged']).toMatchObject({ version: null, reason: expect.stringMatching(/^a version range/) });
    expect(by['org.a:plus']).toMatchObject({ version: null, reason: expect.stringMatching(/^a prefix version/) });
    expect(by['org.a:latest']).toMatchObject({ version: null, reason: expect.stringMatching(/^a dynamic version/) });
    expect(by['org.a:missing']).toMatchObject({ version: null, reason: expect.stringMatching(/names no \[versions\] entry/) });
    expect(by['org.a:inline']).toMatchObject({ version: '5.0' });
    expect(libraries).toHaveLength(11);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^gradle\/libs\.versions\.toml:\d+: "bad" skipped: no "group:artifact" module$/);
    expect(notes[1]).toMatch(/"weird" skipped: neither a string nor a table$/);
  });

  it('hostile input: not TOML, [libraries] not a table, a dotted key thousands of parts deep, too many libraries: one LockfileError each', () => {
    expect(() => readVersionCatalog('[libraries\nx = ', FILE)).toThrow(LockfileError);
    expect(() => readVersionCatalog('libraries = "x"', FILE)).toThrow(/\[libraries\] is not a table/);
    expect(() => readVersionCatalog(`${Array.from({ length: 5000 }, () => 'a').join('.')} = 1`, FILE)).toThrow(/dotted parts/);
    const many = `[libraries]\n${Array.from({ length: 5001 }, (_, i) => `l${i} = "g:a${i}:1"`).join('\n')}\n`;
    expect(() => readVersionCatalog(many, FILE)).toThrow(/more than 5000 libraries/);
    // Empty: no library, no error.
    expect(readVersionCatalog('', FILE)).toEqual({ file: FILE, libraries: [], notes: [] });
  });
});

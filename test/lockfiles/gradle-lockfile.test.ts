/**
 * gradle.lockfile (lockfiles/gradle-lockfile.ts): every resolved module at its exact version,
 * dev-only where only test configurations resolve it; `empty=` and comments add nothing; a
 * malformed line skipped with a note, never guessed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isTestConfiguration, readGradleLockfile } from '../../src/lockfiles/gradle-lockfile.js';
import { LockfileError } from '../../src/audit/types.js';

const REAL = fileURLToPath(new URL('../../fixtures/lockfiles/real/DataDog__dd-javac-plugin/gradle.lockfile', import.meta.url));

describe('gradle.lockfile', () => {
  it('DataDog/dd-javac-plugin (real): 11 modules, the runtime ones apart from the test-only ones', () => {
    const input = readGradleLockfile(readFileSync(REAL, 'utf8'), 'gradle.lockfile');
    expect(input.notes).toEqual([]);
    expect(input.dependencies).toHaveLength(11);
    expect(input.dependencies.filter((d) => !d.dev).map((d) => `${d.name}@${d.version}`)).toEqual([
      'io.github.toolfactory:jvm-driver@9.8.0',
      'org.burningwave:core@12.66.2',
      'org.burningwave:jvm-driver@8.19.1',
    ]);
    expect(input.dependencies[0]).toEqual({ ecosystem: 'maven', name: 'commons-io:commons-io', version: '2.14.0', direct: false, dev: true, file: 'gradle.lockfile', line: 4 });
  });

  it('test configurations', () => {
    for (const c of ['testCompileClasspath', 'testRuntimeClasspath', 'integrationTestRuntimeClasspath', 'androidTestImplementation', 'testFixturesApi']) expect(isTestConfiguration(c), c).toBe(true);
    for (const c of ['compileClasspath', 'runtimeClasspath', 'releaseRuntimeClasspath', 'annotationProcessor', 'kapt']) expect(isTestConfiguration(c), c).toBe(false);
  });

  it('hostile input: malformed lines skipped with a note; too many lines one LockfileError', () => {
    const input = readGradleLockfile('g:a=runtimeClasspath\ng:a:1:extra=runtimeClasspath\ng:a:1\n<script>:a:1=x\ng:a:1.0=runtimeClasspath\n', 'gradle.lockfile');
    expect(input.dependencies.map((d) => d.name)).toEqual(['g:a']);
    expect(input.notes).toHaveLength(4);
    expect(input.notes[0]).toMatch(/^gradle\.lockfile:1: skipped: not "group:artifact:version=configurations"/);
    expect(() => readGradleLockfile('\n'.repeat(200_001), 'gradle.lockfile')).toThrow(LockfileError);
  });
});

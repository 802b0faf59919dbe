/**
 * `gradle.lockfile` (Gradle dependency locking, docs/scoring.md §9): one line
 * per resolved module, `group:artifact:version=configuration,configuration…`, the whole resolved
 * graph of the locked configurations at exact versions; `empty=…` names the configurations that
 * resolve nothing; `#` starts a comment. A module only test configurations resolve (`test…`,
 * `…TestCompileClasspath`, `…TestRuntimeClasspath`, …) is dev-only. The file does not say which
 * modules the build declares itself: none is `direct`, and no path is given.
 * (`buildscript-gradle.lockfile` locks the build's own plugins, which the built artifact does not
 * ship: repo-tree.ts does not select it.) Pure; a malformed line is skipped with a note, never guessed.
 */
import { LockfileError } from '../audit/types.js';
import { quote, splitLines } from './text.js';
import type { ModuleDependency, ModuleInput } from './module-types.js';

/** More lines than this is not a gradle.lockfile (the tree reader caps the bytes first). */
const MAX_LINES = 200_000;
const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
const VERSION = /^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}$/;
const CONFIGURATION = /^[A-Za-z0-9_-]{1,200}$/;

/** A configuration only tests resolve: `testCompileClasspath`, `integrationTestRuntimeClasspath`, `androidTestImplementation`, `testFixturesApi` … */
export function isTestConfiguration(name: string): boolean {
  return /^test/.test(name) || /Test(?:[A-Z]|$)/.test(name);
}

export function readGradleLockfile(text: string, file: string): ModuleInput {
  const lines = splitLines(text);
  if (lines.length > MAX_LINES) throw new LockfileError(file, null, `more than ${MAX_LINES} lines: not a gradle.lockfile`);
  const notes: string[] = [];
  const dependencies: ModuleDependency[] = [];
  lines.forEach((raw, index) => {
    const no = index + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const coordinate = eq < 0 ? line : line.slice(0, eq);
    const configurations = eq < 0 ? [] : line.slice(eq + 1).split(',').map((c) => c.trim()).filter((c) => c !== '');
    if (coordinate === 'empty') return;
    const parts = coordinate.split(':');
    const [group, artifact, version] = parts;
    if (
      parts.length !== 3 ||
      group === undefined || artifact === undefined || version === undefined ||
      !PART.test(group) || !PART.test(artifact) || !VERSION.test(version) ||
      configurations.length === 0 || !configurations.every((c) => CONFIGURATION.test(c))
    ) {
      notes.push(`${file}:${no}: skipped: not "group:artifact:version=configurations" (${quote(line.slice(0, 120))})`);
      return;
    }
    dependencies.push({ ecosystem: 'maven', name: `${group}:${artifact}`, version, direct: false, dev: configurations.every(isTestConfiguration), file, line: no });
  });
  return { file, format: 'gradle.lockfile', dependencies, notes, unvouched: [], skipped: [] };
}

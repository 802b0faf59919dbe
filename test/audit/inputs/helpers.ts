/** Shared helpers for the audit input tests: fixture texts, expected lines, one-call reads. */
import { readFileSync } from 'node:fs';
import { readInputText } from '../../../src/lockfiles/index.js';
import type { InputContext, ParsedInput } from '../../../src/lockfiles/types.js';
import { LockfileError, type DeclaredDependency } from '../../../src/audit/types.js';

const ROOT = new URL('../../../fixtures/lockfiles/', import.meta.url);

/** The text of `fixtures/lockfiles/<path>`. */
export function fixture(path: string): string {
  return readFileSync(new URL(path, ROOT), 'utf8');
}

/** The 1-based line of the `nth` line containing `needle` (throws when there is none, so a test cannot pass vacuously). */
export function lineOf(text: string, needle: string, nth = 1): number {
  let seen = 0;
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.includes(needle) && ++seen === nth) return index + 1;
  }
  throw new Error(`no line ${nth} containing ${JSON.stringify(needle)}`);
}

/**
 * Read `fixtures/lockfiles/<dir>/<name>` as the file `<dir>/<name>`, with the named companion
 * files of the same fixture directory as context manifests.
 */
export function readFixture(dir: string, name: string, companions: string[] = [], extra: InputContext = {}): ParsedInput {
  const manifests: Record<string, string> = {};
  for (const companion of companions) manifests[`${dir}/${companion}`] = fixture(`${dir}/${companion}`);
  return readInputText(fixture(`${dir}/${name}`), `${dir}/${name}`, { manifests, ...extra });
}

/** `name@version direct? dev?` rows, sorted and de-duplicated: what "the same dependency set" compares. */
export function dependencySet(dependencies: readonly DeclaredDependency[]): string[] {
  const rows = dependencies.map((d) => `${d.ecosystem}:${d.name}@${d.version} ${d.direct ? 'direct' : 'transitive'} ${d.dev ? 'dev' : 'prod'}`);
  return [...new Set(rows)].sort();
}

/** The dependencies named `name` (and `version`, when given). */
export function find(input: ParsedInput, name: string, version?: string): DeclaredDependency[] {
  return input.dependencies.filter((d) => d.name === name && (version === undefined || d.version === version));
}

/** The one dependency named `name` (fails when there are none or several). */
export function only(input: ParsedInput, name: string, version?: string): DeclaredDependency {
  const found = find(input, name, version);
  if (found.length !== 1) throw new Error(`expected one ${name}${version ? `@${version}` : ''}, found ${found.length}`);
  return found[0] as DeclaredDependency;
}

/** The `LockfileError` `fn` throws (fails the test when it returns or throws anything else). */
export function lockfileErrorOf(fn: () => unknown): LockfileError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LockfileError) return error;
    throw new Error(`expected a LockfileError, got ${String(error)}`);
  }
  throw new Error('expected a LockfileError, but nothing was thrown');
}

/** The 1-based line that is exactly `line` (ignoring a trailing `\r`). */
export function lineExactly(text: string, line: string): number {
  const index = text.split('\n').findIndex((l) => l.replace(/\r$/, '') === line);
  if (index < 0) throw new Error(`no line ${JSON.stringify(line)}`);
  return index + 1;
}

/**
 * The fixtures' one npm project (chalk, debug, @types/semver and what they bring in): each
 * package's shortest path from a direct dependency, `direct` for a direct one. Every lockfile
 * format that records the graph gives this same table.
 */
export const NPM_FIXTURE_VIA: Record<string, 'direct' | string[]> = {
  '@types/semver': 'direct',
  chalk: 'direct',
  debug: 'direct',
  'ansi-styles': ['chalk'],
  'supports-color': ['chalk'],
  'color-convert': ['chalk', 'ansi-styles'],
  'color-name': ['chalk', 'ansi-styles', 'color-convert'],
  'has-flag': ['chalk', 'supports-color'],
  ms: ['debug'],
};

/** Each dependency's path as the table above writes it (null when the reader cannot tell). */
export function viaTable(input: ParsedInput): Record<string, 'direct' | string[] | null> {
  return Object.fromEntries(input.dependencies.map((d) => [d.name, d.direct ? 'direct' : (d.via ?? null)]));
}

/**
 * The dependencies a Maven `pom.xml` declares (docs/scoring.md §9): every
 * `<dependencies><dependency>` and `<dependencyManagement><dependencies><dependency>`, named
 * `groupId:artifactId` (as OSV names Maven packages), at its `<version>`.
 *
 * - A version may be literal or a `${property}` from the pom's `<properties>` (or those of the
 *   parent pom read beside it, `inherited`), `${project.version}` / `${project.parent.version}`;
 *   a dependency with no version takes the one the parent's `<dependencyManagement>` gives.
 * - A version range (`[1.0,2.0)`), a property that cannot be resolved, or no version at all:
 *   the dependency is unresolved with the reason, never guessed. Parent poms outside the
 *   repository are not fetched.
 * - `<scope>test</scope>` and `provided` are dev-only (not on the runtime classpath a user gets).
 *
 * The versions are declared, direct only and not pinned: Maven's nearest-wins mediation picks the
 * transitive ones. Pure; a file that is not well-formed XML (or declares a document type) throws a
 * `LockfileError` (xml-text.ts).
 */
import { LockfileError } from '../audit/types.js';
import { notOneVersion } from './gradle-catalog.js';
import { quote } from './text.js';
import { parseXml, textOf } from './xml-text.js';

export interface PomDependency {
  /** `groupId:artifactId`. */
  name: string;
  version: string | null;
  /** The `<version>` as written; '' when none. */
  declared: string;
  reason: string | null;
  dev: boolean;
  line: number;
}

export interface PomInherited {
  properties: Readonly<Record<string, string>>;
  /** Versions the parent's `<dependencyManagement>` gives, by `groupId:artifactId`. */
  managed: ReadonlyMap<string, string>;
}

export interface PomRead {
  file: string;
  dependencies: PomDependency[];
  /** What this pom passes to the modules below it: its properties and managed versions. */
  inherited: PomInherited;
  notes: string[];
}

/** More dependencies than this is not a real pom (the tree reader caps the bytes first). */
const MAX_DEPENDENCIES = 5000;
/** How many `${…}` references one version may go through. */
const MAX_PROPERTY_DEPTH = 8;
/** What a version may expand to at most, at every step of the expansion. */
const MAX_EXPANDED_CHARS = 1000;
const LIST = /(?:^|\.)dependencies\.dependency$/;
const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
const DEV_SCOPES = new Set(['test', 'provided']);

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function readPom(text: string, file: string, parent: PomInherited | null = null): PomRead {
  const { root, lineOf } = parseXml(text, file, (p) => LIST.test(p));
  if (root.name !== 'project') throw new LockfileError(file, lineOf([]), 'not a Maven POM: its root element is not <project>');
  const project = root.value;
  const at = (path: readonly PropertyKey[]) => textOf(path.reduce<unknown>((node, key) => record(node)?.[key as string], project), file, lineOf(path))?.trim();

  const properties: Record<string, string> = { ...(parent?.properties ?? {}) };
  for (const [key, value] of Object.entries(record(project.properties) ?? {})) {
    if (key.startsWith('#') || key === 'xmlns') continue;
    const given = textOf(value, file, lineOf(['properties', key]));
    if (given !== undefined) properties[key] = given.trim();
  }
  const projectVersion = at(['version']) ?? at(['parent', 'version']);
  if (projectVersion !== undefined) properties['project.version'] = projectVersion;
  const parentVersion = at(['parent', 'version']);
  if (parentVersion !== undefined) properties['project.parent.version'] = parentVersion;

  /** The version with its `${…}` references replaced; the reason when one cannot be. */
  const resolve = (declared: string): { version: string | null; reason: string | null } => {
    let value = declared;
    for (let depth = 0; value.includes('${'); depth += 1) {
      if (depth >= MAX_PROPERTY_DEPTH) return { version: null, reason: `a property that refers to itself or nests too deep (${quote(declared.slice(0, 80))})` };
      const missing = [...value.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1] as string).find((name) => !Object.hasOwn(properties, name));
      if (missing !== undefined) return { version: null, reason: `the property ${quote(missing.slice(0, 80))} is not defined in this pom or its parent read beside it` };
      value = value.replace(/\$\{([^}]*)\}/g, (_m, name: string) => properties[name] as string);
      // Properties that expand into many more (a "billion laughs" of `${…}`) never grow past a version's length.
      if (value.length > MAX_EXPANDED_CHARS) return { version: null, reason: `a property that expands past ${MAX_EXPANDED_CHARS} characters (${quote(declared.slice(0, 80))})` };
    }
    const why = notOneVersion(value.trim());
    return why === null ? { version: value.trim(), reason: null } : { version: null, reason: why };
  };

  const notes: string[] = [];
  const dependencies: PomDependency[] = [];
  const managed = new Map(parent?.managed ?? []);
  const sections: Array<{ path: string[]; managedSection: boolean }> = [
    { path: ['dependencyManagement', 'dependencies', 'dependency'], managedSection: true },
    { path: ['dependencies', 'dependency'], managedSection: false },
  ];
  for (const { path, managedSection } of sections) {
    const list = path.reduce<unknown>((node, key) => record(node)?.[key], project);
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new LockfileError(file, lineOf(path), `<${path.join('><')}> is not a list of dependencies`);
    if (dependencies.length + list.length > MAX_DEPENDENCIES) throw new LockfileError(file, lineOf(path), `more than ${MAX_DEPENDENCIES} dependencies: not read`);
    list.forEach((entry, index) => {
      const here = [...path, index];
      const line = lineOf(here);
      const field = (name: string) => {
        const node = record(entry)?.[name];
        if (Array.isArray(node)) throw new LockfileError(file, lineOf([...here, name]), `a dependency with more than one <${name}>`);
        return textOf(node, file, lineOf([...here, name]))?.trim();
      };
      const group = field('groupId');
      const artifact = field('artifactId');
      if (group === undefined || artifact === undefined || !PART.test(group) || !PART.test(artifact)) {
        notes.push(`${file}:${line}: a dependency skipped: no literal groupId and artifactId`);
        return;
      }
      const name = `${group}:${artifact}`;
      const scope = field('scope') ?? 'compile';
      const declared = field('version');
      const given = declared ?? (managedSection ? undefined : managed.get(name));
      const resolved = given === undefined ? { version: null, reason: 'no version in this pom or the parent read beside it (a parent or BOM outside the repository gives it)' } : resolve(given);
      if (managedSection && resolved.version !== null) managed.set(name, resolved.version);
      dependencies.push({ name, version: resolved.version, declared: declared ?? '', reason: resolved.reason, dev: DEV_SCOPES.has(scope), line });
    });
  }
  return { file, dependencies, inherited: { properties, managed }, notes };
}

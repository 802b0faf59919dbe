/**
 * `Pipfile.lock` (JSON): `default` (production) and `develop` (dev) map names to
 * `{ version: "==1.2.3", index?, hashes, markers }`. The lockfile has no graph: direct are
 * the packages the sibling `Pipfile` (from the context) lists; without it, pipenv's habit of
 * writing `index` only on the packages the Pipfile names decides, and when no entry has one,
 * every package counts as direct (a note says so). Git, path and file entries are skipped
 * with a note; the named index's URL (without one, the first source's: pipenv's default index)
 * becomes `resolved`, and the entry's `hashes` its `integrity`. As pipenv builds the requirement
 * it installs (`requirements_from_lockfile`): `editable` without a git, path or file key changes
 * nothing (the entry is read as any other); a plain string entry (`"flask": "3.1.3"`) is that
 * version (`*` none); an entry with no `==` version is installed as whatever the index serves
 * today, a release nerq never saw: an unvouched entry with no host, never a note alone
 * (docs/security.md, "Dependencies no registry vouches for").
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { parseJson } from './json-text.js';
import { pinnedVersion } from './pep508.js';
import { pythonIntegrity, withIntegrity } from './python-hashes.js';
import { pythonSourceKind, skippedEntry, unplacedSource, type SourceKind } from './source-kind.js';
import { dirOf, joinPath, quote } from './text.js';
import { parseToml } from './toml-text.js';
import type { InputContext, InputReader } from './types.js';
import { validateShape } from './validate.js';

const Entry = z.object({
  version: z.string().optional(),
  index: z.string().optional(),
  hashes: z.array(z.string()).optional(),
  git: z.string().optional(),
  path: z.string().optional(),
  file: z.string().optional(),
  editable: z.boolean().optional(),
});
const PipfileLock = z.object({
  _meta: z.object({ sources: z.array(z.object({ name: z.string(), url: z.string() })).optional() }).optional(),
  default: z.record(z.string(), z.union([z.string(), Entry])).optional(),
  develop: z.record(z.string(), z.union([z.string(), Entry])).optional(),
});
type Entry = z.infer<typeof Entry>;

/** A plain string entry as pipenv reads it: `name==<string>`, or the bare name for `*` or nothing. */
function entryOf(value: string | Entry): Entry {
  if (typeof value !== 'string') return value;
  const version = value.trim();
  return version === '' || version === '*' ? {} : { version: `==${version}` };
}
const Pipfile = z.object({
  packages: z.record(z.string(), z.unknown()).optional(),
  'dev-packages': z.record(z.string(), z.unknown()).optional(),
});

export const readPipfileLock: InputReader = defineReader((text, file, context) => {
  const { value, lineOf } = parseJson(text, file, { depth: 2 });
  const lock = validateShape(PipfileLock, value, file, lineOf);
  const sources = new Map((lock._meta?.sources ?? []).map((s) => [s.name, s.url]));
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const declared = pipfileNames(context, file);
  const entriesOf = (section: Record<string, string | Entry> | undefined) => Object.fromEntries(Object.entries(section ?? {}).map(([name, value]) => [name, entryOf(value)]));
  const sections = [
    ['default', entriesOf(lock.default)],
    ['develop', entriesOf(lock.develop)],
  ] as const;
  const anyIndex = sections.some(([, entries]) => Object.values(entries).some((e) => e.index !== undefined));
  if (declared === null) {
    notes.push(
      anyIndex
        ? `${file}: no Pipfile next to it: direct dependencies are the entries with an "index"`
        : `${file}: no Pipfile next to it: every package is taken as direct`,
    );
  }
  const dependencies: DeclaredDependency[] = [];
  for (const [section, entries] of sections) {
    for (const [rawName, entry] of Object.entries(entries)) {
      const line = lineOf([section, rawName]);
      const version = entry.version === undefined ? null : pinnedVersion(entry.version.replace(/\s+/g, ''));
      const standing = { ...(declared === null ? {} : { direct: declared.has(pep503(rawName)) }), dev: section === 'develop' };
      // pipenv reads `editable` only beside a git, path or file key: alone, the entry installs from the index.
      const reference = entry.git ?? entry.file ?? entry.path;
      if (reference !== undefined) {
        const note = `${file}:${line}: ${quote(rawName)} skipped: not pinned to an index version (git, path or editable)`;
        notes.push(note);
        skipped.push(skippedEntry('pypi', pep503(rawName), file, line, entry.git !== undefined ? gitSourceKind(entry.git) : pythonSourceKind(reference), note, standing));
        continue;
      }
      if (version === null) {
        // pip installs the newest release the specifier allows: one nerq never saw (docs/security.md, "Dependencies no registry vouches for").
        const note = `${file}:${line}: ${quote(rawName)} skipped: not pinned to a version (pipenv installs whatever the index serves)`;
        notes.push(note);
        skipped.push(skippedEntry('pypi', pep503(rawName), file, line, unplacedSource(`${rawName}${entry.version ?? ''}`), note, standing));
        continue;
      }
      const name = pep503(rawName);
      dependencies.push({
        ecosystem: 'pypi',
        name,
        version,
        spec: null,
        direct: declared !== null ? declared.has(name) : anyIndex ? entry.index !== undefined : true,
        dev: section === 'develop',
        file,
        line,
        workspace: null,
        // pipenv installs an entry without an `index` from the lock's first source (the default index).
        resolved: entry.index === undefined ? (lock._meta?.sources?.[0]?.url ?? null) : (sources.get(entry.index) ?? null),
        ...withIntegrity(pythonIntegrity(entry.hashes ?? [])),
      });
    }
  }
  return { file, format: 'Pipfile.lock', dependencies, notes, skipped };
});

/**
 * Where a `git` entry comes from: a git repository, remote unless it is a `file:` URL or a path
 * (the project's own). Some pipenv releases wrote the value as a PEP 508 direct reference, name
 * first (` pypiserver@ git+https://github.com/o/r.git@ref`): the URL after the name is the
 * repository (read whole, the text named no scheme and passed for a local folder). An
 * scp-style address (`git@host:org/repo`) has no `://` after its `@` and is kept as written. A
 * value neither shape fits is a repository nerq cannot place: remote, no host told.
 */
function gitSourceKind(value: string): SourceKind {
  const text = value.trim();
  const named = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*@\s*(?=[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.exec(text);
  const repository = named === null ? text : text.slice(named[0].length);
  const kind = pythonSourceKind(repository);
  const localByShape = /^(?:git\+)?file:/i.test(repository) || /^(?:\.{1,2}(?:[/\\]|$)|[/\\~]|[A-Za-z]:[/\\])/.test(repository);
  return kind.kind === 'local' && !localByShape ? unplacedSource(repository) : kind;
}

/** Names (normalised) the sibling Pipfile declares, or null when the context does not hold it. */
function pipfileNames(context: InputContext | undefined, lockfile: string): Set<string> | null {
  const file = joinPath(dirOf(lockfile), 'Pipfile');
  const text = context?.manifests?.[file];
  if (text === undefined) return null;
  const pipfile = validateShape(Pipfile, parseToml(text, file), file, () => null);
  return new Set([...Object.keys(pipfile.packages ?? {}), ...Object.keys(pipfile['dev-packages'] ?? {})].map(pep503));
}

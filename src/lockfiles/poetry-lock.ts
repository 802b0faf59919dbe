/**
 * `poetry.lock`: `[[package]]` blocks with `name`, `version`, `[package.dependencies]` and,
 * depending on the Poetry version, `category = "dev"` (lock 1.x) or `groups = [...]`
 * (Poetry 2); lock 2.0 from Poetry 1.5–1.8 writes neither, and dev then comes from the
 * sibling pyproject.toml's groups through the graph. Git, directory, file and URL sources are
 * skipped with a note; any other source is an index, as Poetry's installer takes it (it treats
 * `git`, `file`, `directory` and `url` apart and downloads every other type — `legacy`,
 * `Legacy`, `custom` — from the repository the source's `reference` names): its `url` becomes
 * `resolved` (without a URL: PyPI when the `reference` is `PyPI`, else the `reference` itself,
 * an index nerq cannot place), and the hashes of the files the entry lists (`files`, or
 * `[metadata.files]` before Poetry 1.2) its `integrity`.
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import { defineReader } from './define-reader.js';
import { assemblePythonLock, pyprojectRoots, type PythonLockNode } from './python-lock.js';
import { pythonIntegrity } from './python-hashes.js';
import { pythonSourceKind, skippedEntry } from './source-kind.js';
import { quote } from './text.js';
import { arrayTableNameLines, parseToml, tomlLayout, tomlLineOf } from './toml-text.js';
import type { InputReader } from './types.js';
import { validateShape } from './validate.js';

const PoetryLock = z.object({
  package: z
    .array(
      z.object({
        name: z.string(),
        version: z.string(),
        category: z.string().optional(),
        groups: z.array(z.string()).optional(),
        dependencies: z.record(z.string(), z.unknown()).optional(),
        source: z.object({ type: z.string().optional(), url: z.string().optional(), reference: z.string().optional() }).optional(),
        files: z.array(z.object({ hash: z.string().optional() })).optional(),
      }),
    )
    .optional(),
  metadata: z
    .object({
      'lock-version': z.string().optional(),
      // Poetry before 1.2 (lock 1.1) lists each package's files here, by name.
      files: z.record(z.string(), z.array(z.object({ hash: z.string().optional() }))).optional(),
    })
    .optional(),
});

/**
 * The source types Poetry's installer does not download from an index. `git` and `url` are
 * matched in any case (remote code either way); `file` and `directory` only as Poetry writes
 * them: a `File` source is, to Poetry's installer, an index like any other type.
 */
const REMOTE_SOURCES = new Set(['git', 'url']);
const LOCAL_SOURCES = new Set(['file', 'directory']);

/**
 * Where an index source's package is downloaded from: its URL; without one, PyPI (null) when the
 * `reference` names PyPI or nothing, else the repository's name (an index nerq cannot place, never PyPI).
 */
function indexResolved(source: { url?: string | undefined; reference?: string | undefined } | undefined): string | null {
  const url = source?.url?.trim() ?? '';
  if (url !== '') return url;
  const reference = source?.reference?.trim() ?? '';
  return reference === '' || /^pypi$/i.test(reference) ? null : reference;
}

export const readPoetryLock: InputReader = defineReader((text, file, context) => {
  const data = parseToml(text, file);
  const layout = tomlLayout(text);
  const lock = validateShape(PoetryLock, data, file, (path) => tomlLineOf(layout, path));
  const packages = lock.package ?? [];
  const lines = arrayTableNameLines(layout, 'package', packages.map((p) => p.name));
  const notes: string[] = [];
  const nodes: PythonLockNode[] = [];
  const oldFiles = new Map(Object.entries(lock.metadata?.files ?? {}).map(([name, files]) => [pep503(name), files]));
  packages.forEach((pkg, index) => {
    const line = lines[index] ?? null;
    const sourceType = pkg.source?.type;
    const dev = pkg.groups !== undefined ? !pkg.groups.includes('main') : pkg.category !== undefined ? pkg.category === 'dev' : null;
    const node = { name: pep503(pkg.name), line, dependsOn: Object.keys(pkg.dependencies ?? {}).map(pep503), dev };
    if (sourceType !== undefined && (REMOTE_SOURCES.has(sourceType.toLowerCase()) || LOCAL_SOURCES.has(sourceType))) {
      const note = `${file}:${line ?? '?'}: ${quote(pkg.name)} skipped: not from an index (${quote(sourceType)} source)`;
      notes.push(note);
      const url = pkg.source?.url ?? '';
      // A git source is a repository whatever its URL's scheme; file and directory sources are paths.
      const type = sourceType.toLowerCase();
      const kind = type === 'git' ? pythonSourceKind(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? `git+${url}` : url) : type === 'url' ? pythonSourceKind(url) : pythonSourceKind(`file:${url}`);
      nodes.push({ ...node, version: null, resolved: null, skipped: skippedEntry('pypi', node.name, file, line, kind, note) });
      return;
    }
    const files = pkg.files ?? oldFiles.get(node.name) ?? [];
    nodes.push({ ...node, version: pkg.version, resolved: indexResolved(pkg.source), integrity: pythonIntegrity(files.flatMap((f) => f.hash ?? [])) });
  });
  const { dependencies, skipped } = assemblePythonLock(file, nodes, pyprojectRoots(context, file), notes);
  return { file, format: 'poetry.lock', dependencies, notes, skipped };
});

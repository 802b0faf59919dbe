/**
 * `poetry.lock`: `[[package]]` blocks with `name`, `version`, `[package.dependencies]` and,
 * depending on the Poetry version, `category = "dev"` (lock 1.x) or `groups = [...]`
 * (Poetry 2); lock 2.0 from Poetry 1.5–1.8 writes neither, and dev then comes from the
 * sibling pyproject.toml's groups through the graph. Git, directory, file and URL sources are
 * skipped with a note; a named index source becomes `resolved`, and the hashes of the files
 * the entry lists (`files`, or `[metadata.files]` before Poetry 1.2) its `integrity`.
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
        source: z.object({ type: z.string().optional(), url: z.string().optional() }).optional(),
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

const REGISTRY_SOURCES = new Set(['legacy', 'pypi', 'supplemental', 'explicit', 'primary', 'secondary', 'default']);

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
    if (sourceType !== undefined && !REGISTRY_SOURCES.has(sourceType)) {
      const note = `${file}:${line ?? '?'}: ${quote(pkg.name)} skipped: not from an index (${quote(sourceType)} source)`;
      notes.push(note);
      const url = pkg.source?.url ?? '';
      // A git source is a repository whatever its URL's scheme; file and directory sources are paths.
      const kind = sourceType === 'git' ? pythonSourceKind(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? `git+${url}` : url) : sourceType === 'url' ? pythonSourceKind(url) : pythonSourceKind(`file:${url}`);
      nodes.push({ ...node, version: null, resolved: null, skipped: skippedEntry('pypi', node.name, file, line, kind, note) });
      return;
    }
    const files = pkg.files ?? oldFiles.get(node.name) ?? [];
    nodes.push({ ...node, version: pkg.version, resolved: pkg.source?.url ?? null, integrity: pythonIntegrity(files.flatMap((f) => f.hash ?? [])) });
  });
  const { dependencies, skipped } = assemblePythonLock(file, nodes, pyprojectRoots(context, file), notes);
  return { file, format: 'poetry.lock', dependencies, notes, skipped };
});

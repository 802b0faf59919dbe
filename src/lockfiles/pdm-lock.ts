/**
 * `pdm.lock`: `[[package]]` blocks with `name`, `version`, `groups` (PDM 2.11+, with the
 * `inherit_metadata` strategy) and `dependencies` as PEP 508 strings. A package is dev when
 * its groups do not include `default`; without groups, dev comes from the sibling
 * pyproject.toml through the graph. PDM writes a package once more per extra set
 * (`extras = [...]`): one entry per name and version. Git, URL and path packages are skipped
 * with a note. The hashes of an entry's files (`files = [{file, hash}]`, or before lock 4.4 the
 * `[metadata.files]` table keyed `"<name> <version>"`) become its `integrity`; when the sibling
 * pyproject.toml declares a `[[tool.pdm.source]]` other than PyPI that pdm may take the package
 * from (pdm-sources.ts), that source's URL becomes its `resolved` — else, with `static_urls`,
 * the first file `url` on another host than PyPI's (PDM downloads it as written) — and the entry
 * is checked as one from another index (docs/security.md, "Lockfile injection").
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import { defineReader } from './define-reader.js';
import { pdmIndexFor, pdmSources, type PdmSource } from './pdm-sources.js';
import { parseRequirement } from './pep508.js';
import { fetchedFrom, pythonIntegrity } from './python-hashes.js';
import { assemblePythonLock, pyprojectRoots, type PythonLockNode } from './python-lock.js';
import { pythonSourceKind, skippedEntry } from './source-kind.js';
import { dirOf, joinPath, quote } from './text.js';
import { arrayTableNameLines, parseToml, tomlLayout, tomlLineOf } from './toml-text.js';
import type { InputContext, InputReader } from './types.js';
import { validateShape } from './validate.js';

const PdmFiles = z.array(z.object({ url: z.string().optional(), hash: z.string().optional() }));

const PdmLock = z.object({
  metadata: z
    .object({
      lock_version: z.string().optional(),
      groups: z.array(z.string()).optional(),
      // Before lock 4.4, each release's files are listed here, keyed `"<name> <version>"`.
      files: z.record(z.string(), PdmFiles).optional(),
    })
    .optional(),
  package: z
    .array(
      z.object({
        name: z.string(),
        version: z.string().optional(),
        groups: z.array(z.string()).optional(),
        dependencies: z.array(z.string()).optional(),
        git: z.string().optional(),
        url: z.string().optional(),
        path: z.string().optional(),
        files: PdmFiles.optional(),
      }),
    )
    .optional(),
});

export const readPdmLock: InputReader = defineReader((text, file, context) => {
  const layout = tomlLayout(text);
  const lock = validateShape(PdmLock, parseToml(text, file), file, (path) => tomlLineOf(layout, path));
  const packages = lock.package ?? [];
  const lines = arrayTableNameLines(layout, 'package', packages.map((p) => p.name));
  const notes: string[] = [];
  const nodes = new Map<string, PythonLockNode>();
  const sources = projectSources(context, file);
  const oldFiles = new Map<string, string[]>();
  for (const [key, files] of Object.entries(lock.metadata?.files ?? {})) {
    const [rawName, version] = key.trim().split(/\s+/);
    if (rawName !== undefined && version !== undefined) oldFiles.set(`${pep503(rawName)}@${version}`, files.flatMap((f) => f.hash ?? []));
  }
  packages.forEach((pkg, index) => {
    const line = lines[index] ?? null;
    const name = pep503(pkg.name);
    const dependsOn = (pkg.dependencies ?? []).flatMap((text) => {
      const requirement = parseRequirement(text);
      return 'error' in requirement || requirement.name === name ? [] : [requirement.name];
    });
    const dev = pkg.groups === undefined ? null : !pkg.groups.includes('default');
    if (pkg.git !== undefined || pkg.url !== undefined || pkg.path !== undefined || pkg.version === undefined) {
      const note = `${file}:${line ?? '?'}: ${quote(pkg.name)} skipped: not from an index (git, URL or path)`;
      notes.push(note);
      const reference = pkg.git ?? pkg.url ?? pkg.path;
      const skipped = reference === undefined ? undefined : skippedEntry('pypi', name, file, line, pythonSourceKind(reference), note);
      nodes.set(`${name}\u0000skipped\u0000${index}`, { name, version: null, line, resolved: null, dependsOn, dev, ...(skipped === undefined ? {} : { skipped }) });
      return;
    }
    const id = `${name}@${pkg.version}`;
    const seen = nodes.get(id);
    if (seen === undefined) {
      const hashes = [...(pkg.files ?? []).flatMap((f) => f.hash ?? []), ...(oldFiles.get(id) ?? [])];
      // With `static_urls`, PDM records each file's URL and downloads it as written.
      const resolved = fetchedFrom(pdmIndexFor(name, sources), (pkg.files ?? []).map((f) => f.url));
      nodes.set(id, { name, version: pkg.version, line, resolved, integrity: pythonIntegrity(hashes), dependsOn, dev });
    } else {
      seen.dependsOn.push(...dependsOn);
      if (seen.dev !== null && dev !== null) seen.dev = seen.dev && dev;
    }
  });
  const { dependencies, skipped } = assemblePythonLock(file, [...nodes.values()], pyprojectRoots(context, file), notes);
  return { file, format: 'pdm.lock', dependencies, notes, skipped };
});

/** The `[[tool.pdm.source]]` tables of the pyproject.toml beside the lockfile (from the context); none without one. */
function projectSources(context: InputContext | undefined, lockfile: string): PdmSource[] {
  const file = joinPath(dirOf(lockfile), 'pyproject.toml');
  const text = context?.manifests?.[file];
  return text === undefined ? [] : pdmSources(parseToml(text, file));
}

/**
 * `uv.lock`: `[[package]]` blocks with `name`, `version`, `source` and dependency lists of
 * `{ name, version?, extra? }`. The project itself (and each workspace member) is the package
 * whose source is `virtual`, or `editable` at `.` or for a `[manifest]` member: its `dependencies` and `optional-dependencies`
 * are the production roots, its `[package.dev-dependencies]` the dev roots. Dev = not
 * reachable from a production root. With `[manifest] members` (a uv workspace) each direct
 * dependency is attributed to the member's folder. Git, URL, path and directory sources, and an
 * editable one of another folder (a path dependency), are skipped with a note; a registry
 * source becomes `resolved` (or, when it is PyPI, the first sdist or wheel `url` on another
 * host: uv downloads those URLs as written), and the `hash` of its sdist and wheels the entry's
 * `integrity` (python-hashes.ts).
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { chainsFrom, graphStanding, reachable } from './graph.js';
import { fetchedFrom, pythonIntegrity, withIntegrity } from './python-hashes.js';
import { pythonSourceKind, skippedEntry } from './source-kind.js';
import { quote } from './text.js';
import { arrayTableNameLines, parseToml, tomlLayout, tomlLineOf } from './toml-text.js';
import type { InputReader } from './types.js';
import { validateShape } from './validate.js';

const Dep = z.object({ name: z.string(), version: z.string().optional(), extra: z.array(z.string()).optional() });
type Dep = z.infer<typeof Dep>;
const Source = z.object({
  registry: z.string().optional(),
  editable: z.string().optional(),
  virtual: z.string().optional(),
  git: z.string().optional(),
  url: z.string().optional(),
  path: z.string().optional(),
  directory: z.string().optional(),
});
const Package = z.object({
  name: z.string(),
  version: z.string().optional(),
  source: Source.optional(),
  dependencies: z.array(Dep).optional(),
  'optional-dependencies': z.record(z.string(), z.array(Dep)).optional(),
  'dev-dependencies': z.record(z.string(), z.array(Dep)).optional(),
  sdist: z.object({ url: z.string().optional(), hash: z.string().optional() }).optional(),
  wheels: z.array(z.object({ url: z.string().optional(), hash: z.string().optional() })).optional(),
});
type Package = z.infer<typeof Package>;
const UvLock = z.object({
  version: z.number().optional(),
  manifest: z.object({ members: z.array(z.string()).optional() }).optional(),
  package: z.array(Package).optional(),
});

export const readUvLock: InputReader = defineReader((text, file) => {
  const layout = tomlLayout(text);
  const lock = validateShape(UvLock, parseToml(text, file), file, (path) => tomlLineOf(layout, path));
  const packages = lock.package ?? [];
  const lines = arrayTableNameLines(layout, 'package', packages.map((p) => p.name));

  const byName = new Map<string, Package[]>();
  for (const pkg of packages) byName.set(pep503(pkg.name), [...(byName.get(pep503(pkg.name)) ?? []), pkg]);
  const resolve = (dep: Dep): Package | undefined => {
    const candidates = byName.get(pep503(dep.name)) ?? [];
    return dep.version === undefined ? candidates[0] : candidates.find((c) => c.version === dep.version);
  };
  /** What one dependency brings in: the package, and what its requested extras add (`requests[socks]`). */
  const targets = (dep: Dep): Package[] => {
    const target = resolve(dep);
    if (target === undefined) return [];
    const extras = (dep.extra ?? []).flatMap((extra) => target['optional-dependencies']?.[extra] ?? []);
    return [target, ...extras.flatMap((d) => resolve(d) ?? [])];
  };
  const edges = (pkg: Package): Package[] => (pkg.dependencies ?? []).flatMap(targets);

  // The project is the root (`editable = "."`), a workspace member (`[manifest] members`, by
  // name) or a virtual one; another editable is a path dependency installed editable (local code).
  const members = new Set((lock.manifest?.members ?? []).map(pep503));
  const isProject = (pkg: Package) =>
    pkg.source?.virtual !== undefined || (pkg.source?.editable !== undefined && (pkg.source.editable === '.' || members.has(pep503(pkg.name))));
  const workspaceProject = lock.manifest?.members !== undefined;
  const declared = new Map<Package, string[]>();
  const prodRoots: Package[] = [];
  for (const project of packages.filter(isProject)) {
    const workspace = project.source?.editable ?? project.source?.virtual ?? '.';
    const groups: [Dep[], boolean][] = [
      [project.dependencies ?? [], false],
      [Object.values(project['optional-dependencies'] ?? {}).flat(), false],
      [Object.values(project['dev-dependencies'] ?? {}).flat(), true],
    ];
    for (const [deps, dev] of groups) {
      for (const dep of deps) {
        const [target, ...extras] = targets(dep);
        if (target === undefined || isProject(target)) continue;
        declared.set(target, [...(declared.get(target) ?? []), workspace]);
        if (!dev) prodRoots.push(target, ...extras);
      }
    }
  }
  const prod = reachable(prodRoots, edges);
  // A path runs through the package whose extra the project asks for (`mkdocs-material[imaging]` →
  // cairosvg): for the paths only, that package's edges take in what the extras the projects request add.
  const projectExtras = new Map<Package, Package[]>();
  for (const project of packages.filter(isProject)) {
    const deps = [project.dependencies ?? [], ...Object.values(project['optional-dependencies'] ?? {}), ...Object.values(project['dev-dependencies'] ?? {})].flat();
    for (const dep of deps) {
      const [target, ...extras] = targets(dep);
      if (target !== undefined && extras.length > 0) projectExtras.set(target, [...(projectExtras.get(target) ?? []), ...extras]);
    }
  }
  const chains = chainsFrom(declared.keys(), (pkg) => [...edges(pkg), ...(projectExtras.get(pkg) ?? [])], (pkg) => pep503(pkg.name));
  const projects = packages.some(isProject);

  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const dependencies: DeclaredDependency[] = [];
  packages.forEach((pkg, index) => {
    if (isProject(pkg)) return;
    const line = lines[index] ?? null;
    const source = pkg.source ?? {};
    const foreign = source.git ?? source.url ?? source.path ?? source.directory ?? source.editable;
    if (foreign !== undefined || pkg.version === undefined) {
      const note = `${file}:${line ?? '?'}: ${quote(pkg.name)} skipped: ${foreign !== undefined ? 'not from an index (git, URL or path source)' : 'no version'}`;
      notes.push(note);
      // The project's own entries name the roots; a lock without one (not uv's) cannot tell.
      const standing = projects ? graphStanding(pkg, declared, prod) : {};
      if (foreign !== undefined) skipped.push(skippedEntry('pypi', pep503(pkg.name), file, line, pythonSourceKind(foreign), note, standing));
      return;
    }
    const base = {
      ecosystem: 'pypi' as const,
      name: pep503(pkg.name),
      version: pkg.version,
      spec: null,
      dev: !prod.has(pkg),
      file,
      line,
      resolved: fetchedFrom(source.registry ?? null, [pkg.sdist?.url, ...(pkg.wheels ?? []).map((w) => w.url)]),
      ...withIntegrity(pythonIntegrity([pkg.sdist?.hash ?? [], ...(pkg.wheels ?? []).map((w) => w.hash ?? [])].flat())),
    };
    const workspaces = [...new Set(declared.get(pkg) ?? [])];
    const via = chains.get(pkg);
    if (workspaces.length === 0) dependencies.push({ ...base, direct: false, workspace: null, ...(via === undefined ? {} : { via }) });
    else if (!workspaceProject) dependencies.push({ ...base, direct: true, workspace: null });
    else for (const workspace of workspaces) dependencies.push({ ...base, direct: true, workspace });
  });
  return { file, format: 'uv.lock', dependencies, notes, skipped };
});

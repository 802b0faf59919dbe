/**
 * `pyproject.toml`: the dependencies a Python project declares, as an input of its own
 * (specifiers only, resolved later) and as the roots the Python lockfile readers use to tell
 * direct from transitive and dev from production.
 *
 * Read: PEP 621 `[project].dependencies` and `[project.optional-dependencies]` (extras are
 * features of the package, so production), PEP 735 `[dependency-groups]` (dev), Poetry's
 * `[tool.poetry.dependencies]` (production, without `python`), `[tool.poetry.dev-dependencies]`
 * and `[tool.poetry.group.<name>.dependencies]` (dev unless the group is `main`; constraints
 * such as `^2.31` turned into PEP 440), PDM's `[tool.pdm.dev-dependencies]` and uv's
 * `[tool.uv].dev-dependencies` (dev). Git, path and URL dependencies are skipped with a note.
 * Read alone, a dependency `[tool.uv.sources]` takes from a git repository, URL, path or
 * workspace member is skipped the same way (uv's lockfile records such sources in uv.lock); a
 * dependency that names no index gets as `resolved` the first index other than PyPI the project
 * points uv or PDM at (project-indexes.ts); and a file whose `[project]` lists its `dependencies`
 * as `dynamic` is refused (`LockfileError`): the set is not in it.
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { LockfileError } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { eggName, parseRequirement, pinnedVersion } from './pep508.js';
import { poetryToPep440 } from './poetry-constraint.js';
import { projectIndexFinder } from './project-indexes.js';
import { pythonSourceKind, skippedEntry } from './source-kind.js';
import { quote } from './text.js';
import { literalLine, parseToml, tableNamed, tomlLayout, tomlLineOf } from './toml-text.js';
import type { InputReader } from './types.js';
import { validateShape } from './validate.js';

export interface PyDeclaration {
  /** PEP 503 normalised. */
  name: string;
  /** PEP 440 specifier ('' → null); Poetry constraints converted. */
  spec: string | null;
  version: string | null;
  dev: boolean;
  line: number | null;
  /** Index URL of a named Poetry source, when the dependency names one. */
  resolved: string | null;
}

export interface PyprojectDeclarations {
  projectName: string | null;
  declarations: PyDeclaration[];
  notes: string[];
  /** The git, URL and path dependencies skipped (each also has its note). */
  skipped: SkippedEntry[];
}

const Strings = z.array(z.string());
const PoetryDependency = z.union([
  z.string(),
  z.object({ version: z.string().optional(), git: z.string().optional(), path: z.string().optional(), url: z.string().optional(), source: z.string().optional() }),
  z.array(z.object({ version: z.string().optional(), git: z.string().optional(), path: z.string().optional(), url: z.string().optional(), source: z.string().optional() })),
]);
const PoetryDependencies = z.record(z.string(), PoetryDependency);
const Pyproject = z.object({
  project: z
    .object({
      name: z.string().optional(),
      dependencies: Strings.optional(),
      'optional-dependencies': z.record(z.string(), Strings).optional(),
    })
    .optional(),
  'dependency-groups': z.record(z.string(), z.array(z.union([z.string(), z.object({ 'include-group': z.string() })]))).optional(),
  tool: z
    .object({
      poetry: z
        .object({
          name: z.string().optional(),
          dependencies: PoetryDependencies.optional(),
          'dev-dependencies': PoetryDependencies.optional(),
          group: z.record(z.string(), z.object({ dependencies: PoetryDependencies.optional() })).optional(),
          source: z.array(z.object({ name: z.string(), url: z.string().optional() })).optional(),
        })
        .optional(),
      pdm: z.object({ 'dev-dependencies': z.record(z.string(), Strings).optional() }).optional(),
      uv: z.object({ 'dev-dependencies': Strings.optional() }).optional(),
    })
    .optional(),
});

/** What a pyproject.toml declares; throws `LockfileError` when it is not valid TOML or not shaped as one. */
export function pyprojectDeclarations(text: string, file: string): PyprojectDeclarations {
  const data = parseToml(text, file);
  const layout = tomlLayout(text);
  const project = validateShape(Pyproject, data, file, (path) => tomlLineOf(layout, path));
  const declarations: PyDeclaration[] = [];
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const skip = (name: string | null, line: number | null, reference: string, note: string, dev: boolean) => {
    notes.push(note);
    skipped.push(skippedEntry('pypi', name, file, line, pythonSourceKind(reference), note, { direct: true, dev }));
  };

  const pep508List = (items: readonly unknown[], table: string, key: string, dev: boolean, editables = false) => {
    const at = tableNamed(layout, table);
    const keyLine = at?.keys.get(key) ?? null;
    for (const item of items) {
      if (typeof item !== 'string') continue; // `{ include-group = … }`: the included group is read on its own
      const line = keyLine === null || at === undefined ? null : literalLine(layout, keyLine, at.endLine, item);
      // PDM's dev-dependencies may hold editables as pip writes them: `-e ./pkg`, `-e git+https://…#egg=name`.
      const editable = editables ? /^(?:-e|--editable)(?:\s+|=)(\S.*)$/.exec(item.trim())?.[1]?.trim() : undefined;
      if (editable !== undefined) {
        skip(eggName(editable), line, editable, `${file}:${line ?? '?'}: skipped: an editable requirement (a local or VCS checkout)`, dev);
        continue;
      }
      const requirement = parseRequirement(item);
      if ('error' in requirement) throw new LockfileError(file, line ?? keyLine, `${requirement.error}: ${quote(item)}`);
      if (requirement.url !== null) {
        skip(requirement.name, line, requirement.url, `${file}:${line ?? '?'}: ${quote(requirement.name)} skipped: a direct URL reference (no index vouches for it)`, dev);
        continue;
      }
      declarations.push({ name: requirement.name, spec: requirement.spec || null, version: requirement.pinned, dev, line, resolved: null });
    }
  };
  const poetryTable = (deps: z.infer<typeof PoetryDependencies> | undefined, table: string, dev: boolean) => {
    const lines = tableNamed(layout, table)?.keys;
    const sources = new Map((project.tool?.poetry?.source ?? []).map((s) => [s.name, s.url ?? null]));
    for (const [key, value] of Object.entries(deps ?? {})) {
      if (key.toLowerCase() === 'python') continue;
      const line = lines?.get(key) ?? null;
      const first = Array.isArray(value) ? value[0] : value;
      const entry = typeof first === 'string' ? { version: first } : (first ?? {});
      if (entry.git !== undefined || entry.path !== undefined || entry.url !== undefined) {
        // A git repository is fetched as a VCS reference (`git+`), whatever scheme its URL has.
        const reference = entry.git !== undefined ? (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry.git) && !/^file:/i.test(entry.git) ? `git+${entry.git}` : entry.git) : (entry.url ?? entry.path ?? '');
        skip(pep503(key), line, reference, `${file}:${line ?? '?'}: ${quote(key)} skipped: a git, path or URL dependency (no index vouches for it)`, dev);
        continue;
      }
      const constraint = entry.version ?? '*';
      const spec = poetryToPep440(constraint);
      if (spec === null) notes.push(`${file}:${line ?? '?'}: ${quote(key)}: constraint ${quote(constraint)} has no PEP 440 equivalent; kept as written`);
      declarations.push({
        name: pep503(key),
        spec: spec === null ? constraint : spec || null,
        version: spec === null ? null : pinnedVersion(spec),
        dev,
        line,
        resolved: entry.source === undefined ? null : (sources.get(entry.source) ?? null),
      });
    }
  };

  pep508List(project.project?.dependencies ?? [], 'project', 'dependencies', false);
  for (const [extra, items] of Object.entries(project.project?.['optional-dependencies'] ?? {})) {
    pep508List(items, 'project.optional-dependencies', extra, false);
  }
  for (const [group, items] of Object.entries(project['dependency-groups'] ?? {})) pep508List(items, 'dependency-groups', group, true);
  const poetry = project.tool?.poetry;
  poetryTable(poetry?.dependencies, 'tool.poetry.dependencies', false);
  poetryTable(poetry?.['dev-dependencies'], 'tool.poetry.dev-dependencies', true);
  for (const [group, { dependencies }] of Object.entries(poetry?.group ?? {})) {
    poetryTable(dependencies, `tool.poetry.group.${group}.dependencies`, group !== 'main');
  }
  for (const [group, items] of Object.entries(project.tool?.pdm?.['dev-dependencies'] ?? {})) pep508List(items, 'tool.pdm.dev-dependencies', group, true, true);
  pep508List(project.tool?.uv?.['dev-dependencies'] ?? [], 'tool.uv', 'dev-dependencies', true);

  const name = project.project?.name ?? poetry?.name ?? null;
  return { projectName: name === null ? null : pep503(name), declarations, notes, skipped };
}

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The packages `[tool.uv.sources]` takes from somewhere other than an index, each with where from
 * as a reference pythonSourceKind reads (`git+URL`, a URL, a path). A source given as a list (one
 * table per platform marker) counts when any of its tables does: on some machine uv fetches it so.
 */
function uvFetchedSources(data: Record<string, unknown>): Map<string, string> {
  const tool = isTable(data.tool) ? data.tool : {};
  const uv = isTable(tool.uv) ? tool.uv : {};
  const sources = isTable(uv.sources) ? uv.sources : {};
  const fetched = new Map<string, string>();
  for (const [name, source] of Object.entries(sources)) {
    for (const entry of Array.isArray(source) ? source : [source]) {
      if (!isTable(entry)) continue;
      const reference =
        typeof entry.git === 'string' ? (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry.git) && !/^file:/i.test(entry.git) ? `git+${entry.git}` : entry.git)
        : typeof entry.url === 'string' ? entry.url
        : typeof entry.path === 'string' ? entry.path
        : entry.workspace === true ? '.'
        : null;
      if (reference === null) continue;
      // A remote source wins over a local one of the same package: it is the one nothing in the tree shows.
      if (!fetched.has(pep503(name)) || pythonSourceKind(reference).kind === 'remote') fetched.set(pep503(name), reference);
    }
  }
  return fetched;
}

/**
 * Whether `[project]` lists its `dependencies` as `dynamic` (PEP 621) without declaring them: the
 * build backend computes them (from a requirements file, a plugin), so the file alone does not
 * hold them.
 */
function dynamicDependencies(data: unknown): boolean {
  const project = (data as { project?: { dynamic?: unknown; dependencies?: unknown } } | null)?.project;
  return Array.isArray(project?.dynamic) && project.dynamic.includes('dependencies') && project.dependencies === undefined;
}

export const readPyproject: InputReader = defineReader((text, file) => {
  const { declarations, notes, skipped } = pyprojectDeclarations(text, file);
  // Read alone, such a file would give an empty set that reads as a clean one: its dependencies are unknown instead.
  if (dynamicDependencies(parseToml(text, file))) {
    const line = tableNamed(tomlLayout(text), 'project')?.keys.get('dynamic') ?? null;
    throw new LockfileError(file, line, '[project] declares its dependencies dynamic: the build backend computes them, the file does not hold them');
  }
  const data = parseToml(text, file);
  const indexFor = projectIndexFinder(data);
  // uv installs a package that `[tool.uv.sources]` sends to a git repository, URL, path or workspace member from there, not from an index.
  const fetched = uvFetchedSources(data);
  const fromIndex = declarations.filter((d) => {
    const reference = fetched.get(d.name);
    if (reference === undefined) return true;
    const note = `${file}:${d.line ?? '?'}: ${quote(d.name)} skipped: [tool.uv.sources] takes it from a git repository, URL or path (no index vouches for it)`;
    notes.push(note);
    skipped.push(skippedEntry('pypi', d.name, file, d.line, pythonSourceKind(reference), note, { direct: true, dev: d.dev }));
    return false;
  });
  const dependencies: DeclaredDependency[] = fromIndex.map((d) => ({
    ecosystem: 'pypi',
    name: d.name,
    version: d.version,
    spec: d.spec,
    direct: true,
    dev: d.dev,
    file,
    line: d.line,
    workspace: null,
    resolved: d.resolved ?? indexFor(d.name),
  }));
  return { file, format: 'pyproject.toml', dependencies, notes, skipped };
});

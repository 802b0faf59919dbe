/**
 * pip requirements files (`requirements*.txt`, `*.in`): one PEP 508 requirement per logical
 * line (`\` continues a line; `#` after whitespace starts a comment), with pip's options.
 *
 * - `==` / `===` pins give the version; ranges keep `version: null` and the specifier.
 * - `-r` / `--requirement` includes are read through `context.readInclude`, resolved against
 *   the including file; their requirements are reported at their own file and line.
 * - `-c` / `--constraint` files add no requirement, but pin the version of a requirement
 *   that only gives a range; one that names a package and a URL or path (`flask @ https://…`)
 *   makes pip install that package from there: it is a skipped entry, not PyPI's release.
 * - `-e`, URL, path and VCS requirements and `name @ url` references are skipped with a note:
 *   no index vouches for them. A requirement's `--hash` options become its `integrity`
 *   (python-hashes.ts); one that is not a full sha256, sha384 or sha512 hex digest pins
 *   nothing and is a `hash-unreadable` finding; other per-requirement options are ignored. The first index or
 *   find-links location in effect that is not PyPI (`-i` / `--index-url`, `--extra-index-url`,
 *   `-f` / `--find-links`, wherever in the files they are given: pip reads them all before it
 *   installs) becomes every requirement's `resolved`; else the first index other than PyPI that
 *   the uv settings of the file's directory or a parent in the audited tree name (`uv.toml`,
 *   pyproject.toml's `[tool.uv]`: `uv pip install -r` reads them; project-indexes.ts); else the
 *   `--index-url`.
 * - An option line is read as pip reads it (pip-options.ts): every option on it, in any
 *   spelling pip accepts (`--extra=URL`, `--pypi-url`, `-ihttps://…`, quoted words); a line
 *   with `-e` is that editable requirement, else one with `-r` / `-c` is that include.
 * - pip-compile / uv output marks where each pin comes from (`# via requests`): a pin whose
 *   `via` block names no `-r` file or project manifest is transitive; any other requirement
 *   is direct.
 * - A file named for development (`requirements-dev.txt`, `test-requirements.txt`,
 *   `requirements/docs.txt`, …) declares dev dependencies, and so does what it includes.
 */
import type { AuditWarning, DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { LockfileError } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { eggName, parseRequirement } from './pep508.js';
import { uvSettingsIndex } from './project-indexes.js';
import { readPipOptions } from './pip-options.js';
import { hashToken, isPypiIndex, pythonIntegrity, withIntegrity } from './python-hashes.js';
import { pythonSourceKind, skippedEntry } from './source-kind.js';
import { baseName, dirOf, joinPath, quote, splitPythonLines } from './text.js';
import { parseToml } from './toml-text.js';
import type { InputContext, InputReader } from './types.js';

const DEV_NAME = /(^|[-_.])(dev|devel|develop|development|test|tests|testing|lint|linting|docs?|ci|typing)([-_.]|$)/i;

/** Whether a requirements file's name says it is for development. */
export function isDevRequirementsFile(file: string): boolean {
  const parts = file.split('/');
  const stem = baseName(file).replace(/\.(txt|in)$/i, '');
  const folder = parts.length > 1 ? (parts[parts.length - 2] ?? '') : '';
  const withoutWord = stem.replace(/requirements?/i, '');
  return DEV_NAME.test(withoutWord) || (/^requirements?$/i.test(folder) && DEV_NAME.test(stem));
}

const URL_OR_PATH = /^(?:[a-z][a-z0-9+.-]*:\/\/|(?:git|hg|svn|bzr)\+|\.{1,2}[\\/]|\/|[a-z]:\\)/i;
const ARCHIVE = /\.(?:whl|zip|tar\.gz|tar\.bz2|tgz)$/i;

interface State {
  dependencies: DeclaredDependency[];
  notes: string[];
  skipped: SkippedEntry[];
  /** `hash-unreadable`: a `--hash` pip can match no file against (python-hashes.ts). */
  findings: AuditWarning[];
  constraints: Map<string, string>;
  indexUrl: string | null;
  /** `--extra-index-url` and `--find-links` locations, in the order given: pip may take any requirement from them. */
  extraIndexes: string[];
  /** Constraints that name a package and a URL or path: pip installs that package from there. */
  constraintLinks: { name: string; file: string; line: number; reference: string }[];
  visited: Set<string>;
  context: InputContext | undefined;
}

export const readRequirements: InputReader = defineReader((text, file, context) => {
  const state: State = { dependencies: [], notes: [], skipped: [], findings: [], constraints: new Map(), indexUrl: null, extraIndexes: [], constraintLinks: [], visited: new Set([file]), context };
  readFile(text, file, state, 'requirements', isDevRequirementsFile(file));
  takeConstraintLinks(state);
  const named = resolvedFrom(state);
  const resolved = named !== null && !isPypiIndex(named) ? named : (uvProjectIndex(context, file) ?? named);
  for (const dependency of state.dependencies) {
    if (dependency.version === null) dependency.version = state.constraints.get(dependency.name) ?? null;
    dependency.resolved = resolved;
  }
  return { file, format: 'requirements', dependencies: state.dependencies, notes: state.notes, skipped: state.skipped, ...(state.findings.length === 0 ? {} : { findings: state.findings }) };
});

/**
 * Where pip may take a requirement from: the first index or find-links location in effect that is
 * not PyPI (pip picks the best match among all of them: one other location is enough), else the
 * `--index-url`; null when the file names none.
 */
function resolvedFrom(state: State): string | null {
  return [state.indexUrl ?? [], ...state.extraIndexes].flat().find((url) => !isPypiIndex(url)) ?? state.indexUrl;
}

/** The directories `uv pip install -r file` may run in inside the audited tree: the file's and each parent's. */
export function uvSettingsDirs(file: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    dirs.push(dir);
    if (dir === '.' || dir.startsWith('..')) break;
  }
  return dirs;
}

/**
 * A settings file beside a requirements file, parsed; nothing when absent or not valid TOML (uv
 * would refuse to run with it, and the requirements file is read all the same).
 */
function optional<K extends string>(key: K, text: string | undefined, file: string): Partial<Record<K, Record<string, unknown>>> {
  if (text === undefined) return {};
  try {
    return { [key]: parseToml(text, file) } as Partial<Record<K, Record<string, unknown>>>;
  } catch {
    return {};
  }
}

/** The first index other than PyPI the uv settings around a requirements file name (from the context's manifests). */
function uvProjectIndex(context: InputContext | undefined, file: string): string | null {
  const manifests = context?.manifests ?? {};
  for (const dir of uvSettingsDirs(file)) {
    const uvPath = joinPath(dir, 'uv.toml');
    const pyPath = joinPath(dir, 'pyproject.toml');
    const index = uvSettingsIndex({ ...optional('uvToml', manifests[uvPath], uvPath), ...optional('pyproject', manifests[pyPath], pyPath) });
    if (index !== null) return index;
  }
  return null;
}

function readFile(text: string, file: string, state: State, mode: 'requirements' | 'constraints', dev: boolean): void {
  // pip splits the file as Python's str.splitlines() does: a line after a `\v` or U+2028 is a line it installs.
  const physical = splitPythonLines(text);
  // The requirement (or skipped URL requirement) whose pip-compile `# via` block is being read, and what that block names.
  let pending: { dependency: { direct?: boolean }; via: string[] | null; viaOpen: boolean } | null = null;
  const settle = () => {
    if (pending?.via != null && !pending.via.some(isProjectSource)) pending.dependency.direct = false;
    pending = null;
  };

  for (let i = 0; i < physical.length; i += 1) {
    const lineNo = i + 1;
    let line = physical[i] ?? '';
    const comment = /^\s*#(.*)$/.exec(line);
    if (comment !== null) {
      if (pending !== null) {
        const via = /^\s*via\b\s*(.*)$/.exec(comment[1] ?? '');
        if (via !== null) {
          pending.via = via[1] ? [via[1].trim()] : [];
          pending.viaOpen = true;
        } else if (pending.viaOpen && /^\s{2,}\S/.test(comment[1] ?? '')) pending.via?.push((comment[1] ?? '').trim());
        else pending.viaOpen = false;
      }
      continue;
    }
    while (line.endsWith('\\') && i + 1 < physical.length) {
      // As pip does, a comment line ends the continued line: older pip-compile output puts
      // `# via kombu` right after the last `--hash … \`; it is read next, as this pin's `# via`.
      if (/^\s*#/.test(physical[i + 1] ?? '')) {
        line = line.slice(0, -1);
        break;
      }
      i += 1;
      line = line.slice(0, -1) + (physical[i] ?? '');
    }
    line = line.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    settle();

    if (line.startsWith('-')) {
      readOption(line, file, lineNo, state, mode, dev);
      continue;
    }
    const requirementText = line.split(/(?<!\s)\s+--?[a-z]/i)[0]?.trim() ?? line;
    // One run of spaces, not two around an optional group (which backtracks quadratically on a long run).
    const namedReference = /^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\]\s*)?@/.test(requirementText);
    if (!namedReference && (URL_OR_PATH.test(requirementText) || ARCHIVE.test(requirementText))) {
      const entry = skip(state, mode, dev, eggName(requirementText), file, lineNo, requirementText, `${file}:${lineNo}: skipped: a URL or path requirement (no index vouches for it)`);
      if (entry !== null) pending = { dependency: entry, via: null, viaOpen: false };
      continue;
    }
    const requirement = parseRequirement(requirementText);
    if ('error' in requirement) throw new LockfileError(file, lineNo, requirement.error);
    if (requirement.url !== null) {
      const entry = skip(state, mode, dev, requirement.name, file, lineNo, requirement.url, `${file}:${lineNo}: ${quote(requirement.name)} skipped: a direct URL reference (no index vouches for it)`);
      if (entry !== null) pending = { dependency: entry, via: null, viaOpen: false };
      continue;
    }
    if (mode === 'constraints') {
      if (requirement.pinned !== null) state.constraints.set(requirement.name, requirement.pinned);
      continue;
    }
    const hashes = [...line.matchAll(/(?:^|\s)--hash(?:\s*=\s*|\s+)(\S+)/g)].map((m) => m[1] ?? '');
    // A digest cut short, of another algorithm or not hex is no pin: pip can match no file against it.
    const unreadable = hashes.filter((hash) => hashToken(hash) === null);
    if (unreadable.length > 0) {
      state.findings.push({
        code: 'hash-unreadable',
        message: `${file}:${lineNo}: ${quote(requirement.name)}: --hash ${unreadable.map((h) => quote(h)).join(', ')} is not a full sha256, sha384 or sha512 hex digest: it pins nothing`,
        details: { file, line: lineNo, package: requirement.name, hashes: unreadable },
      });
    }
    const dependency: DeclaredDependency = {
      ecosystem: 'pypi',
      name: requirement.name,
      version: requirement.pinned,
      spec: requirement.spec === '' ? null : requirement.spec,
      direct: true,
      dev,
      file,
      line: lineNo,
      workspace: null,
      resolved: null,
      ...withIntegrity(pythonIntegrity(hashes)),
    };
    state.dependencies.push(dependency);
    pending = { dependency, via: null, viaOpen: false };
  }
  settle();
}

/**
 * A skipped requirement: its note, and (in a requirements file, not a constraints one) where it
 * comes from, returned so that a pip-compile `# via` block after it can mark it transitive.
 */
function skip(state: State, mode: 'requirements' | 'constraints', dev: boolean, name: string | null, file: string, lineNo: number, reference: string, note: string): SkippedEntry | null {
  state.notes.push(note);
  if (mode !== 'requirements') {
    if (name !== null) state.constraintLinks.push({ name, file, line: lineNo, reference });
    return null;
  }
  const entry = skippedEntry('pypi', name, file, lineNo, pythonSourceKind(reference), note, { direct: true, dev });
  state.skipped.push(entry);
  return entry;
}


/**
 * pip makes a constraint that names a package and a URL or path (`flask @ https://…`) the only
 * candidate for that package (its resolver's constraint links): the package is installed from
 * there, wherever it is in the tree. A requirement of that name is no longer PyPI's release but a
 * skipped entry at the constraint, and a package only the tree pulls in is one too (transitive).
 */
function takeConstraintLinks(state: State): void {
  for (const link of state.constraintLinks) {
    const replaced = state.dependencies.filter((d) => d.name === link.name);
    if (replaced.length > 0) state.dependencies = state.dependencies.filter((d) => d.name !== link.name);
    const note = `${link.file}:${link.line}: ${quote(link.name)} skipped: a constraint takes it from a URL or path (no index vouches for it)`;
    state.notes.push(note);
    const standing = replaced.length > 0 ? { direct: replaced.some((d) => d.direct), dev: replaced.every((d) => d.dev) } : { direct: false };
    state.skipped.push(skippedEntry('pypi', link.name, link.file, link.line, pythonSourceKind(link.reference), note, standing));
  }
}

/** A `# via` source that means the project itself asked for the package. */
function isProjectSource(source: string): boolean {
  return /^-r\s/.test(source) || /\((?:pyproject\.toml|setup\.py|setup\.cfg)\)$/.test(source) || /^-e\s/.test(source);
}

function readOption(line: string, file: string, lineNo: number, state: State, mode: 'requirements' | 'constraints', dev: boolean): void {
  // Every option on the line counts, in any spelling pip accepts (pip-options.ts). As pip does, a
  // line with an `-e` is that editable requirement, else one with an `-r` or `-c` is that
  // include, and only otherwise are its index and find-links options applied.
  const { options, unknown } = readPipOptions(line);
  for (const option of unknown) state.notes.push(`${file}:${lineNo}: unknown option ${quote(option)} ignored`);
  const first = (name: string) => options.find((o) => o.name === name)?.value;
  const editable = first('--editable');
  if (editable !== undefined) {
    skip(state, mode, dev, eggName(editable), file, lineNo, editable, `${file}:${lineNo}: skipped: an editable requirement (a local or VCS checkout)`);
    return;
  }
  const requirement = first('--requirement');
  const constraint = first('--constraint');
  if (requirement !== undefined || constraint !== undefined) {
    if (requirement !== undefined) include(requirement, file, lineNo, state, mode, dev);
    else include(constraint ?? '', file, lineNo, state, 'constraints', dev);
    return;
  }
  for (const { name, value } of options) {
    switch (name) {
      case '--index-url':
        state.indexUrl = value === '' ? null : value;
        break;
      case '--extra-index-url':
        if (value !== '') state.extraIndexes.push(value);
        state.notes.push(`${file}:${lineNo}: an extra index is configured: packages may resolve from it`);
        break;
      case '--find-links':
        // pip takes distributions from a find-links location as from an index (the URL is not echoed: it may hold a token).
        if (value !== '') state.extraIndexes.push(value);
        state.notes.push(`${file}:${lineNo}: a find-links location is configured: packages may resolve from it`);
        break;
      default:
      // The other options change nothing about what is installed from where.
    }
  }
}

function include(argument: string, file: string, lineNo: number, state: State, mode: 'requirements' | 'constraints', dev: boolean): void {
  if (argument === '') throw new LockfileError(file, lineNo, 'an include option without a file name');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(argument) && !/^file:/i.test(argument)) {
    // A requirements file fetched from a URL lists packages nerq never sees: the run is
    // incomplete like any code from a URL (docs/security.md, "Dependencies no registry vouches
    // for"). A constraints file only narrows versions: noted.
    const note = `${file}:${lineNo}: include ${quote(argument)} not read: a file from a URL (no index vouches for what it lists)`;
    if (mode === 'constraints') state.notes.push(note);
    else skip(state, mode, dev, null, file, lineNo, argument, note);
    return;
  }
  if (argument.startsWith('/') || /^[A-Za-z]:/.test(argument) || /^file:/i.test(argument)) {
    // An absolute path names a file of one machine, not of the audited tree: refused like a
    // relative path that leaves the tree (docs/security.md, "The audited tree is untrusted").
    // So is a drive-relative one (`C:base.txt`, which is how pip's splitting reads `C:\base.txt`).
    throw new LockfileError(file, lineNo, `include ${quote(argument)} is an absolute path or file URL: only files inside the audited directory are read`);
  }
  const path = joinPath(dirOf(file), argument);
  if (state.visited.has(path)) return;
  state.visited.add(path);
  const read = state.context?.readInclude;
  if (read === undefined) {
    state.notes.push(`${file}:${lineNo}: include ${quote(argument)} not followed: no reader given`);
    return;
  }
  const text = read(path);
  if (text === null) throw new LockfileError(file, lineNo, `cannot read the included file ${quote(argument)}`);
  readFile(text, path, state, mode, dev || (mode === 'requirements' && isDevRequirementsFile(path)));
}

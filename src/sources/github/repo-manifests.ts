/**
 * A manifest read from a repository (package.json, pyproject.toml) reduced to the facts the
 * checks use: name, private, licence, keywords, description, dependency names, a command.
 * Pure; a file that does not parse, or a pyproject.toml with neither `[project]` nor
 * `[tool.poetry]`, gives null (the caller lists it as unread).
 */
import { parse as parseToml } from 'smol-toml';
import type { RepoManifest } from '../../evidence/github-facts.js';
import { oneLine } from './request.js';

const MAX_LIST = 200;
const MAX_TEXT = 300;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? oneLine(value, MAX_TEXT) : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap((v) => (typeof v === 'string' ? [oneLine(v, 100)] : [])).slice(0, MAX_LIST) : [];
}

function keys(value: unknown): string[] {
  const r = record(value);
  return r === null ? [] : Object.keys(r).map((k) => oneLine(k, 214)).slice(0, MAX_LIST);
}

/** The distribution name a PEP 508 requirement names (`mcp[cli]>=1.2` → `mcp`). */
function requirementName(requirement: string): string | null {
  const match = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(requirement);
  return match?.[1] ?? null;
}

function requirementNames(value: unknown): string[] {
  return strings(value).flatMap((r) => {
    const name = requirementName(r);
    return name === null ? [] : [name];
  });
}

function npmLicense(value: unknown): string | null {
  if (typeof value === 'string') return text(value);
  const r = record(value);
  return r === null ? null : text(r.type);
}

export function packageJsonManifest(path: string, source: string): RepoManifest | null {
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch {
    return null;
  }
  const m = record(json);
  if (m === null) return null;
  return {
    path,
    ecosystem: 'npm',
    name: text(m.name),
    private: m.private === true,
    license: npmLicense(m.license),
    keywords: strings(m.keywords),
    description: text(m.description),
    dependencies: keys(m.dependencies),
    devDependencies: keys(m.devDependencies),
    // `directories.bin` (every file in the folder a command) counts when `bin` is not set, as npm reads it.
    hasBin: typeof m.bin === 'string' ? m.bin.trim() !== '' : m.bin === undefined || m.bin === null ? text(record(m.directories)?.bin) !== null : keys(m.bin).length > 0,
  };
}

/** pyproject `license`: a PEP 639 expression, `{ text = … }`, or `{ file = … }` (a pointer to the licence file, read as `SEE LICENSE IN <file>`). */
function pyprojectLicense(value: unknown): string | null {
  if (typeof value === 'string') return text(value);
  const r = record(value);
  if (r === null) return null;
  const file = text(r.file);
  return text(r.text) ?? (file === null ? null : `SEE LICENSE IN ${file}`);
}

export function pyprojectManifest(path: string, source: string): RepoManifest | null {
  let toml: unknown;
  try {
    toml = parseToml(source);
  } catch {
    return null;
  }
  const project = record(record(toml)?.project);
  if (project === null) return poetryManifest(path, record(record(record(toml)?.tool)?.poetry));
  const optional = record(project['optional-dependencies']) ?? {};
  const groups = record(record(toml)?.['dependency-groups']) ?? {};
  const devNames = [
    ...Object.entries(optional).filter(([k]) => /^(?:dev|test|tests|lint|docs)$/i.test(k)).flatMap(([, v]) => requirementNames(v)),
    ...Object.values(groups).flatMap((v) => requirementNames(v)),
  ];
  return {
    path,
    ecosystem: 'pypi',
    name: text(project.name),
    // PyPI has no private flag; a classifier says so.
    private: strings(project.classifiers).some((c) => /^Private ::/i.test(c)),
    license: pyprojectLicense(project.license),
    keywords: strings(project.keywords),
    description: text(project.description),
    dependencies: requirementNames(project.dependencies),
    devDependencies: [...new Set(devNames)].slice(0, MAX_LIST),
    hasBin: keys(project.scripts).length > 0,
  };
}

/**
 * A Poetry project without a `[project]` table declares itself in `[tool.poetry]` (name, licence,
 * keywords, description, `dependencies` without `python`, dev groups, `scripts`); null without it.
 */
function poetryManifest(path: string, poetry: Record<string, unknown> | null): RepoManifest | null {
  if (poetry === null) return null;
  const groups = record(poetry.group) ?? {};
  const devNames = [
    ...keys(poetry['dev-dependencies']),
    ...Object.entries(groups).filter(([k]) => k !== 'main').flatMap(([, g]) => keys(record(g)?.dependencies)),
  ];
  const mainGroup = keys(record(groups.main)?.dependencies);
  return {
    path,
    ecosystem: 'pypi',
    name: text(poetry.name),
    private: strings(poetry.classifiers).some((c) => /^Private ::/i.test(c)),
    license: text(poetry.license),
    keywords: strings(poetry.keywords),
    description: text(poetry.description),
    dependencies: [...new Set([...keys(poetry.dependencies), ...mainGroup])].filter((n) => n.toLowerCase() !== 'python').slice(0, MAX_LIST),
    devDependencies: [...new Set(devNames)].slice(0, MAX_LIST),
    hasBin: keys(poetry.scripts).length > 0,
  };
}

/**
 * The licence a root `Cargo.toml` (`[package] license`, inherited `license.workspace = true` or a
 * workspace root's `[workspace.package] license`; `license-file` as `SEE LICENSE IN <file>`) or
 * `composer.json` (`license`, a string or a list of alternatives) declares. Null when it declares
 * none, undefined when the file does not parse.
 */
export function declaredLicenseOf(path: string, source: string): string | null | undefined {
  if (path.endsWith('composer.json')) {
    let json: unknown;
    try {
      json = JSON.parse(source);
    } catch {
      return undefined;
    }
    const license = record(json)?.license;
    if (typeof license === 'string') return text(license);
    const alternatives = strings(license).filter((l) => l.trim() !== '');
    return alternatives.length === 0 ? null : text(alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' OR ')})`);
  }
  let toml: Record<string, unknown> | null;
  try {
    toml = record(parseToml(source));
  } catch {
    return undefined;
  }
  const pkg = record(toml?.package);
  const workspace = record(record(toml?.workspace)?.package);
  const fromWorkspace = (key: 'license' | 'license-file'): unknown => (record(pkg?.[key])?.workspace === true ? workspace?.[key] : pkg?.[key]);
  const license = text(pkg === null ? workspace?.license : fromWorkspace('license'));
  if (license !== null) return license;
  const file = text(pkg === null ? workspace?.['license-file'] : fromWorkspace('license-file'));
  return file === null ? null : `SEE LICENSE IN ${file}`;
}

export function manifestOf(path: string, source: string): RepoManifest | null {
  return path.endsWith('pyproject.toml') ? pyprojectManifest(path, source) : packageJsonManifest(path, source);
}

/**
 * Why manifestOf gave null, in the user's words: a pyproject.toml that parses but holds only
 * build or tool settings declares no project (nothing to read, not a broken file).
 */
export function unreadManifestReason(path: string, source: string): string {
  if (!path.endsWith('pyproject.toml')) return 'the manifest does not parse';
  try {
    parseToml(source);
  } catch {
    return 'the manifest does not parse';
  }
  return 'it declares no [project] or [tool.poetry] table';
}

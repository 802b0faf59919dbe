/**
 * The dependencies of a repository's set that its lockfile (or its pyproject.toml's uv, Poetry or
 * PDM index settings) takes from a host other than the public registry (docs/scoring.md §9): the
 * package manager installs them from there, so the public registry's package of that name and
 * version — what OSV is asked about — is not what is installed. Each file that pins one is named
 * as `unevaluated`, with the host, so that the set is never a clean bill on the public registry's
 * word (as audit does not take such a pin for the public package: docs/security.md,
 * "Dependencies no registry vouches for"). The repository's own npm-family settings do the
 * same for every package of its lockfile (`settingsRedirects`): `registry` or `@scope:registry`
 * in its `.npmrc` (npm puts that host in place of the public one a lockfile's `resolved` URLs
 * name), `npmRegistryServer` in yarn berry's `.yarnrc.yml` (or a scope's, under `npmScopes`), or
 * `registry` in yarn 1's `.yarnrc`; uv's `uv.toml` (`index-url`, `extra-index-url`, `[[index]]`,
 * `find-links`) and pip's `pip.conf` / `pip.ini` (`index-url`, `extra-index-url`, `find-links`)
 * beside a Python project, an extra index named as the dependency-confusion risk it is: a host
 * other than the public registry (or index) — or one an
 * environment variable gives, which the repository does not say — names the file, and a
 * settings file that could not be read is named as well: what it sets is not known. Pure.
 */
import ini from 'ini';
import { parse as parseToml } from 'smol-toml';
import { pipConfigValues, uvConfigValues } from '../../lockfiles/python-settings.js';
import type { DeclaredDependency } from '../../audit/types.js';
import { parseYaml } from '../../lockfiles/yaml-text.js';
import { isPypiIndex } from '../../lockfiles/python-hashes.js';
import { isPackageEcosystem } from '../../ecosystems/rules.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

/** The public registries of a run (its endpoints): npm's (and yarn's mirror of it), PyPI's. */
export interface PublicRegistries {
  npm: readonly string[];
  pypi: readonly string[];
}

/** Files named at most (each with the first other host it pins from). */
const MAX_FILES = 6;

const originOf = (url: string): string | null => {
  const parsed = URL.parse(url.trim());
  return parsed === null || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ? null : parsed.origin;
};

/** Per ecosystem: its name in a report, and whether a `resolved` URL is one of its public registries. */
const PUBLIC_SOURCE: Readonly<Record<PackageEcosystem, { label: string; isPublic: (resolved: string, publics: PublicRegistries) => boolean }>> = {
  npm: { label: 'npm', isPublic: (resolved, publics) => publics.npm.some((u) => originOf(u) === originOf(resolved)) },
  pypi: { label: 'PyPI', isPublic: (resolved, publics) => isPypiIndex(resolved, publics.pypi) },
};

/** `{ file, ecosystem }` for each file with a dependency fetched from another host than `publics` name. */
export function otherRegistrySources(declared: readonly DeclaredDependency[], publics: PublicRegistries): Array<{ file: string; ecosystem: string }> {
  const found = new Map<string, string>();
  for (const d of declared) {
    if (d.resolved === null || found.has(d.file) || found.size >= MAX_FILES || !isPackageEcosystem(d.ecosystem)) continue;
    const origin = originOf(d.resolved);
    const source = PUBLIC_SOURCE[d.ecosystem];
    if (origin === null || source.isPublic(d.resolved, publics)) continue;
    found.set(d.file, `${source.label} from another registry (${URL.parse(origin)?.host ?? origin})`);
  }
  return [...found].map(([file, ecosystem]) => ({ file, ecosystem }));
}

/** uv's and pip's settings files (RepoSelection `settings` beside a Python project). */
const PYTHON_FILES = new Set(['uv.toml', 'pip.conf', 'pip.ini']);

/**
 * The index URLs a uv.toml (top level and `[pip]`: `index-url`, `extra-index-url`, `[[index]]`,
 * `find-links`) or pip.conf / pip.ini (`[global]` / `[install]`: `index-url`, `extra-index-url`,
 * `find-links`, several per value) sets, with their keys, read with the readers the audit uses
 * (lockfiles/python-settings.ts); null when it does not parse.
 */
function pythonIndexes(base: string, text: string): Array<{ key: string; value: string }> | null {
  try {
    if (base === 'uv.toml') return uvConfigValues(parseToml(text) as Record<string, unknown>);
    return pipConfigValues(text).flatMap(({ key, value }) => value.split(/\s+/).filter((v) => v !== '').map((v) => ({ key, value: v })));
  } catch {
    return null;
  }
}

/** `{ file, ecosystem }` when a uv.toml or pip.conf points installs at another index than PyPI, one a variable gives, or cannot be read. */
function pythonRedirect(file: string, text: string | undefined, publics: PublicRegistries): { file: string; ecosystem: string } | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const values = text === undefined ? null : pythonIndexes(base, text);
  if (values === null) return { file, ecosystem: 'PyPI from an index its settings may set (the file was not read or does not parse)' };
  for (const { key, value } of values) {
    // pip and uv expand `${VAR}` and `$VAR` in their settings: the repository does not say which index that is.
    if (value.includes('$')) return { file, ecosystem: 'PyPI from an index an environment variable sets' };
    if (PUBLIC_SOURCE.pypi.isPublic(value, publics)) continue;
    const host = URL.parse(value.trim())?.host || 'not a URL';
    // An extra index is searched beside PyPI: a name on both may come from either (dependency confusion).
    if (key === 'extra-index-url') return { file, ecosystem: `PyPI and an extra index (${host}): a name on both may be installed from either (dependency confusion)` };
    return { file, ecosystem: `PyPI from another index (${host})` };
  }
  return null;
}

/** The registry URLs a settings file sets, as written (`${VAR}` kept); null when it does not parse. */
function settingsRegistries(file: string, text: string): string[] | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  try {
    if (base === '.npmrc') {
      const parsed = ini.parse(text) as Record<string, unknown>;
      return Object.entries(parsed).flatMap(([key, value]) => ((key === 'registry' || /^@[^:]+:registry$/.test(key)) && typeof value === 'string' ? [value] : []));
    }
    if (base === '.yarnrc.yml') {
      const root = parseYaml(text, file).value;
      const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
      const scopes = Object.values(record(record(root).npmScopes)).map((scope) => record(scope).npmRegistryServer);
      return [record(root).npmRegistryServer, ...scopes].filter((v): v is string => typeof v === 'string');
    }
    // yarn 1's `.yarnrc`: `registry "https://…"`, `"@scope:registry" "https://…"` (its values may go unquoted).
    return [...text.matchAll(/^[ \t]*"?(?:@[^:\s"]+:)?registry"?[ \t]+"?([^"\s]+)"?/gm)].map((m) => m[1] as string);
  } catch {
    return null;
  }
}

/**
 * `{ file, ecosystem }` for each npm-family, uv or pip settings file among `texts` (read at the paths
 * `settings` names) that points installs at another registry than `publics` name, or that could
 * not be read or parsed (`unread`).
 */
export function settingsRedirects(settings: readonly string[], texts: ReadonlyMap<string, string>, publics: PublicRegistries): Array<{ file: string; ecosystem: string }> {
  const out: Array<{ file: string; ecosystem: string }> = [];
  for (const file of settings.slice(0, MAX_FILES)) {
    const text = texts.get(file);
    if (PYTHON_FILES.has(file.slice(file.lastIndexOf('/') + 1))) {
      const redirect = pythonRedirect(file, text, publics);
      if (redirect !== null) out.push(redirect);
      continue;
    }
    const registries = text === undefined ? null : settingsRegistries(file, text);
    if (registries === null) {
      out.push({ file, ecosystem: 'npm from a registry its settings may set (the file was not read or does not parse)' });
      continue;
    }
    for (const url of registries) {
      if (url.includes('${')) {
        out.push({ file, ecosystem: 'npm from a registry an environment variable sets' });
        break;
      }
      if (PUBLIC_SOURCE.npm.isPublic(url, publics)) continue;
      out.push({ file, ecosystem: `npm from another registry (${URL.parse(url.trim())?.host ?? 'not a URL'})` });
      break;
    }
  }
  return out;
}

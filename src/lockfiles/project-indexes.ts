/**
 * The indexes a pyproject.toml read alone (no lockfile beside it) points its installer at:
 * uv's `[[tool.uv.index]]` (an `explicit = true` one only for the packages `[tool.uv.sources]`
 * binds to it), `[tool.uv]` `index-url`, `extra-index-url` and `find-links`, Poetry's
 * `[[tool.poetry.source]]` other than `explicit` ones, and PDM's `[[tool.pdm.source]]`
 * (pdm-sources.ts). A dependency that names no index of its own may come
 * from the first of them that is not PyPI, and is then checked as a pin from another index
 * (docs/security.md, "Lockfile injection"). An index the project declares only makes nerq
 * stricter, so it is read without a trust flag. A requirements file is installed by
 * `uv pip install -r` with the uv settings of the directory it runs in (`uv.toml`, or
 * pyproject.toml's `[tool.uv]`, each with a `[pip]` table of the same keys): those of the
 * file's directory and each parent up to the audited one are read for it. Pure.
 */
import { pep503 } from '../ecosystems/pypi/name.js';
import { pdmIndexFor, pdmSources } from './pdm-sources.js';
import { isPypiIndex } from './python-hashes.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** For a parsed pyproject.toml: the index other than PyPI a dependency `name` may come from, or null. */
export function projectIndexFinder(pyproject: Record<string, unknown>): (name: string) => string | null {
  const tool = isRecord(pyproject.tool) ? pyproject.tool : {};
  const uv = isRecord(tool.uv) ? tool.uv : {};
  const sources = isRecord(uv.sources) ? uv.sources : {};
  // A source is a table or, with markers, a list of tables (one per platform): each index named binds the package to it.
  const boundTo = new Map<string, Set<string>>();
  for (const [name, source] of Object.entries(sources)) {
    for (const entry of Array.isArray(source) ? source : [source]) {
      if (!isRecord(entry) || typeof entry.index !== 'string') continue;
      const names = boundTo.get(pep503(name)) ?? new Set<string>();
      boundTo.set(pep503(name), names.add(entry.index));
    }
  }
  const indexes = (Array.isArray(uv.index) ? uv.index : []).flatMap((index) =>
    isRecord(index) && typeof index.url === 'string' ? [{ url: index.url, name: typeof index.name === 'string' ? index.name : null, explicit: index.explicit === true }] : [],
  );
  const plain = [...strings(uv['index-url']), ...strings(uv['extra-index-url']), ...strings(uv['find-links'])];
  // Poetry searches every source that is not `explicit` (primary, the default, and supplemental,
  // or the older `default` and `secondary`) for a dependency that names none; a source with no
  // URL is PyPI itself (`poetry source add PyPI`).
  const poetry = isRecord(tool.poetry) ? tool.poetry : {};
  const poetrySources = (Array.isArray(poetry.source) ? poetry.source : []).flatMap((source) =>
    isRecord(source) && typeof source.url === 'string' && source.priority !== 'explicit' ? [source.url] : [],
  );
  const pdm = pdmSources(pyproject);
  return (name) => {
    const key = pep503(name);
    const bound = boundTo.get(key);
    const uvIndexes = indexes.filter((index) => !index.explicit || (index.name !== null && bound?.has(index.name) === true)).map((index) => index.url);
    return [...uvIndexes, ...plain, ...poetrySources].find((url) => !isPypiIndex(url)) ?? pdmIndexFor(key, pdm);
  };
}

/** The non-explicit index URLs of a uv settings table (uv.toml's top level, `[tool.uv]`) and its `pip` table. */
function uvSettingsIndexes(settings: Record<string, unknown>): string[] {
  return [settings, isRecord(settings.pip) ? settings.pip : {}].flatMap((table) => [
    ...(Array.isArray(table.index) ? table.index : []).flatMap((index) => (isRecord(index) && typeof index.url === 'string' && index.explicit !== true ? [index.url] : [])),
    ...strings(table['index-url']),
    ...strings(table['extra-index-url']),
    ...strings(table['find-links']),
  ]);
}

/**
 * The first index other than PyPI that uv settings point `uv pip install` at: `uvToml`, a parsed
 * uv.toml, or `pyproject`, a parsed pyproject.toml (its `[tool.uv]`); null when none does.
 */
export function uvSettingsIndex(config: { uvToml?: Record<string, unknown>; pyproject?: Record<string, unknown> }): string | null {
  const tool = config.pyproject !== undefined && isRecord(config.pyproject.tool) ? config.pyproject.tool : {};
  const fromPyproject = isRecord(tool.uv) ? uvSettingsIndexes(tool.uv) : [];
  const fromToml = config.uvToml === undefined ? [] : uvSettingsIndexes(config.uvToml);
  return [...fromToml, ...fromPyproject].find((url) => !isPypiIndex(url)) ?? null;
}

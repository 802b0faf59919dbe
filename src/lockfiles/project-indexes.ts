/**
 * The indexes a pyproject.toml read alone (no lockfile beside it) points its installer at:
 * uv's `[[tool.uv.index]]` (an `explicit = true` one only for the packages `[tool.uv.sources]`
 * binds to it), `[tool.uv]` `index-url`, `extra-index-url` and `find-links`, and PDM's
 * `[[tool.pdm.source]]` (pdm-sources.ts). A dependency that names no index of its own may come
 * from the first of them that is not PyPI, and is then checked as a pin from another index
 * (docs/security.md, "Lockfile injection"). An index the project declares only makes nerq
 * stricter, so it is read without a trust flag. Pure.
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
  const boundTo = new Map<string, string>();
  for (const [name, source] of Object.entries(sources)) {
    if (isRecord(source) && typeof source.index === 'string') boundTo.set(pep503(name), source.index);
  }
  const indexes = (Array.isArray(uv.index) ? uv.index : []).flatMap((index) =>
    isRecord(index) && typeof index.url === 'string' ? [{ url: index.url, name: typeof index.name === 'string' ? index.name : null, explicit: index.explicit === true }] : [],
  );
  const plain = [...strings(uv['index-url']), ...strings(uv['extra-index-url']), ...strings(uv['find-links'])];
  const pdm = pdmSources(pyproject);
  return (name) => {
    const key = pep503(name);
    const bound = boundTo.get(key);
    const uvIndexes = indexes.filter((index) => !index.explicit || (index.name !== null && index.name === bound)).map((index) => index.url);
    return [...uvIndexes, ...plain].find((url) => !isPypiIndex(url)) ?? pdmIndexFor(key, pdm);
  };
}

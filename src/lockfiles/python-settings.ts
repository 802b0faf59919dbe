/**
 * pip's and uv's settings files read for the index locations they set (pure): a pip
 * configuration file (`pip.conf`, `pip.ini`) and a parsed `uv.toml`. The audit reads the user's
 * own (audit/python-indexes.ts); a repository target its repository's (sources/github/other-registries.ts).
 */

const PIP_KEYS = new Set(['index-url', 'extra-index-url', 'find-links']);

/**
 * The values of `index-url`, `extra-index-url` and `find-links` in the `[global]` and
 * `[install]` sections of a pip configuration file, read as Python's configparser reads it
 * (`key = value` or `key: value`, an indented line continuing the value, `#` / `;` comment
 * lines; key names compared as pip does, lower case with `_` as `-`). The `ini` package does
 * not read continuation lines, in which pip users list several extra indexes.
 */
export function pipConfigValues(text: string): Array<{ key: string; value: string }> {
  const out: Array<{ key: string; value: string }> = [];
  let section: string | null = null;
  let current: { key: string; value: string } | null = null;
  for (const raw of text.split(/\r?\n|\r/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === '') {
      if (raw.trim() === '') current = null;
      continue;
    }
    if (/^\s/.test(raw) && current !== null) {
      current.value += ` ${raw.trim()}`;
      continue;
    }
    current = null;
    const header = /^\s*\[([^\]]*)\]\s*$/.exec(raw);
    if (header !== null) {
      section = (header[1] ?? '').trim().toLowerCase();
      continue;
    }
    // The first `=` or `:` separates key and value (found by search, not a backtracking pattern).
    const separator = raw.search(/[=:]/);
    if (separator <= 0 || (section !== 'global' && section !== 'install')) continue;
    const key = raw.slice(0, separator).trim().toLowerCase().replace(/_/g, '-').replace(/^--/, '');
    if (!PIP_KEYS.has(key)) continue;
    current = { key, value: raw.slice(separator + 1).trim() };
    out.push(current);
  }
  return out;
}

const asStrings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The index locations of a parsed uv.toml (top level and `[pip]`), by key. */
export function uvConfigValues(config: Record<string, unknown>): Array<{ key: string; value: string }> {
  const out: Array<{ key: string; value: string }> = [];
  for (const table of [config, isRecord(config.pip) ? config.pip : {}]) {
    for (const key of ['index-url', 'extra-index-url', 'find-links']) {
      for (const value of asStrings(table[key])) out.push({ key, value });
    }
    const indexes = Array.isArray(table.index) ? table.index : [];
    for (const index of indexes) {
      if (isRecord(index) && typeof index.url === 'string') out.push({ key: 'index', value: index.url });
    }
  }
  return out;
}

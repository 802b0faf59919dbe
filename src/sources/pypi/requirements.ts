/**
 * `requires_dist` entries (PEP 508 requirement strings, as PyPI lists them) → name, version
 * specifier and environment marker. Both spellings PyPI serves are read: the old
 * `click (>=7.1.2)` and the modern `click>=7.1.2`, with `[extras]`, `; markers` and
 * `name @ url` direct references (kept without the URL's credentials: util/url-credentials.ts).
 * Pure.
 */
import { withoutCredentials } from '../../util/url-credentials.js';

export interface Requirement {
  /** The project name as written. */
  name: string;
  /**
   * The version specifier (`>=7.1.2`, `<2,>=0.2.6`), `@ <url>` for a direct reference (the URL
   * without user name, password or query), `''` for any.
   */
  specifier: string;
  /** The environment marker text, or null. */
  marker: string | null;
  /** The marker names an extra: the requirement is only installed with that extra. */
  extraOnly: boolean;
}

/** No real requirement line is this long. */
const MAX_LENGTH = 2048;
const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*/;
const EXTRA_MARKER = /(?:^|[\s(])extra\s*==/;

export function parseRequirement(entry: string): Requirement | null {
  if (typeof entry !== 'string' || entry.length > MAX_LENGTH) return null;
  const head = NAME.exec(entry);
  if (head === null) return null;
  const name = head[1] as string;
  const rest = entry.slice(head[0].length);

  let spec: string;
  let marker: string | null;
  if (rest.startsWith('@')) {
    // A URL may contain ';', so a direct reference's marker needs whitespace before it (PEP 508).
    const at = rest.search(/\s;/);
    const url = (at === -1 ? rest : rest.slice(0, at)).slice(1).trim();
    spec = `@ ${withoutCredentials(url)}`;
    marker = at === -1 ? null : rest.slice(at).replace(/^\s*;/, '').trim() || null;
  } else {
    const at = rest.indexOf(';');
    spec = (at === -1 ? rest : rest.slice(0, at)).trim();
    marker = at === -1 ? null : rest.slice(at + 1).trim() || null;
    const parenthesised = /^\((.*)\)$/s.exec(spec);
    if (parenthesised) spec = (parenthesised[1] ?? '').trim();
    spec = spec.replace(/\s+/g, '');
    if (spec !== '' && !/^(?:===|~=|==|!=|<=|>=|<|>)/.test(spec)) return null;
  }
  return { name, specifier: spec, marker, extraOnly: marker !== null && EXTRA_MARKER.test(marker) };
}

/** Runtime requirements (no `extra ==` marker) and the extra-only ones. Unparseable entries are dropped. */
export function splitRequirements(entries: readonly string[] | null | undefined): { runtime: Requirement[]; extras: Requirement[] } {
  const parsed = (entries ?? []).map(parseRequirement).filter((r): r is Requirement => r !== null);
  return { runtime: parsed.filter((r) => !r.extraOnly), extras: parsed.filter((r) => r.extraOnly) };
}

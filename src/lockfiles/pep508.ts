/**
 * PEP 508 requirement strings (`requests[socks]>=2.31,<3 ; python_version >= "3.8"`), as
 * requirements files, pyproject.toml and pdm.lock write them: the name (PEP 503 normalised),
 * the version specifier (validated with @renovatebot/pep440), and whether it is a direct URL
 * reference, which no index can vouch for. Markers are kept out of the name and specifier.
 */
import { validRange } from '@renovatebot/pep440';
import { pep503 } from '../ecosystems/pypi/name.js';

export interface Requirement {
  /** PEP 503 normalised. */
  name: string;
  /** The specifier without spaces or parentheses (`>=2.31,<3`), '' for any version. */
  spec: string;
  /** The version a single `==` / `===` clause pins (without wildcard), else null. */
  pinned: string | null;
  /** `name @ url` direct reference. */
  url: string | null;
}

const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*/;

export function parseRequirement(text: string): Requirement | { error: string } {
  const name = NAME.exec(text);
  if (name?.[1] === undefined) return { error: 'not a requirement (expected a project name)' };
  let rest = text.slice(name[0].length);
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) return { error: 'unclosed extras bracket' };
    rest = rest.slice(close + 1).trimStart();
  }
  if (rest.startsWith('@')) {
    // PEP 508: a URL holds no whitespace; what follows it after blanks is the marker (`; …`).
    const url = rest.slice(1).trimStart().split(/\s/, 1)[0] ?? '';
    return { name: pep503(name[1]), spec: '', pinned: null, url };
  }
  let spec = (rest.split(';')[0] ?? '').trim();
  if (spec.startsWith('(') && spec.endsWith(')')) spec = spec.slice(1, -1).trim();
  spec = spec.replace(/\s+/g, '');
  if (spec !== '' && !validRange(spec)) return { error: 'invalid version specifier' };
  return { name: pep503(name[1]), spec, pinned: pinnedVersion(spec), url: null };
}

/** `==1.2.3` / `===1.2.3` → `1.2.3`; anything else (ranges, wildcards, several clauses) → null. */
export function pinnedVersion(spec: string): string | null {
  const match = /^===?([^,*=<>!~]+)$/.exec(spec);
  return match?.[1] ?? null;
}

/** The project a URL names in its `#egg=` fragment (pip's convention), PEP 503 normalised; null without one. */
export function eggName(reference: string): string | null {
  const egg = /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(reference)?.[1];
  return egg === undefined ? null : pep503(egg);
}

/**
 * What every ecosystem's target syntax (`src/ecosystems/<id>/target-syntax.ts`) shares with the
 * target parser (target/parse.ts): the one-line `TargetError` and the quoting of untrusted text
 * in its message, and the usual splits of a name into a package URL's namespace and name. Imports nothing of the parser, so an ecosystem's syntax can use it without a cycle.
 */
import { TargetError, type PurlName } from './types.js';

/**
 * Quote untrusted text for a one-line message: JSON-quoted, everything outside printable
 * ASCII escaped as `\uXXXX`, at most `max` characters of the original shown.
 */
export function quoteForMessage(text: string, max = 60): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  const quoted = JSON.stringify(cut).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return cut.length < text.length ? `${quoted}...` : quoted;
}

/** Refuse the target: `reason` is one line, its untrusted parts quoted with `quoteForMessage`. */
export function fail(reason: string): never {
  throw new TargetError(reason);
}

/** A name split at its first `/` into a package URL's namespace and name (GitHub's `owner/repo`). */
export function atFirstSlash(name: string): PurlName {
  const slash = name.indexOf('/');
  if (slash < 0) return { namespace: undefined, base: name };
  return { namespace: name.slice(0, slash), base: name.slice(slash + 1) };
}

/** An `@scope/name` is namespaced by its scope; any other name is whole. */
export function scopeIfAt(name: string): PurlName {
  return name.startsWith('@') ? atFirstSlash(name) : { namespace: undefined, base: name };
}

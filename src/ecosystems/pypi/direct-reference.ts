/**
 * PEP 508 direct references (`name @ <url>`, a requirement's specifier `@ <url>`): how pip fetches
 * the URL, and the reference as nerq records it (without the URL's credentials:
 * util/url-credentials.ts). Pure.
 */
import type { PypiDirectReference } from '../../evidence/pypi-facts.js';
import { withoutCredentials } from '../../util/url-credentials.js';

/** The longest URL (and name) kept of a direct reference, as npm's non-registry specs. */
const MAX_LENGTH = 200;

/** How pip fetches a direct reference's URL (`@ <url>` specifier): a VCS checkout, a local path or a download; null for a version specifier. */
export function directReferenceKind(specifier: string): PypiDirectReference['kind'] | null {
  if (!specifier.startsWith('@')) return null;
  const url = specifier.slice(1).trim();
  if (/^git\+/i.test(url)) return 'git';
  if (/^(?:hg|svn|bzr)\+/i.test(url)) return 'vcs';
  if (/^file:/i.test(url)) return 'file';
  return 'url';
}

/** A requirement as a direct reference, or null when its specifier is a version specifier. */
export function directReference(name: string, specifier: string, extraOnly: boolean): PypiDirectReference | null {
  const kind = directReferenceKind(specifier);
  if (kind === null) return null;
  return { name: name.slice(0, MAX_LENGTH), url: withoutCredentials(specifier.slice(1).trim()).slice(0, MAX_LENGTH), kind, extraOnly };
}

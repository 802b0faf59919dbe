/**
 * Building request URLs from a configured base URL and untrusted path segments.
 *
 * `new URL('/x', base)` drops the base's path, so every source joins with `joinUrl` instead:
 * the base path is kept (a fixture server can mount each API under a prefix), and each
 * segment is percent-encoded as ONE segment, so a `/` inside a name can never add a level.
 */

/** Thrown for a segment that cannot be a single, literal path segment (a programming error). */
export class UrlSegmentError extends Error {
  override name = 'UrlSegmentError';
}

/**
 * Encode one path segment. `@` is left as is (it is legal in a path, and npm sends scoped
 * names as `@scope%2fpkg`); the encoded slash is written `%2f`, as npm writes it.
 */
export function encodeSegment(segment: string): string {
  // URL parsers treat `.`/`..` (and their %2e spellings) as navigation, whatever the encoding.
  if (segment === '' || segment === '.' || segment === '..') {
    throw new UrlSegmentError('refusing an empty or dot-only URL path segment');
  }
  return encodeURIComponent(segment).replace(/%40/g, '@').replace(/%2F/g, '%2f');
}

/**
 * Join `base` (an absolute http(s) URL, possibly with a path) and encoded `segments`.
 * `joinUrl('http://h:1/github', 'repos', 'a', 'b')` → `http://h:1/github/repos/a/b`.
 * A query or fragment on `base` is not supported (add one with `withQuery`).
 */
export function joinUrl(base: string, ...segments: string[]): string {
  const trimmed = base.replace(/(?<!\/)\/+$/, '');
  if (segments.length === 0) return trimmed;
  return `${trimmed}/${segments.map(encodeSegment).join('/')}`;
}

export type QueryValue = string | number | boolean | undefined;

/**
 * Append query parameters (encoded by URLSearchParams; `undefined` values are skipped),
 * after any query the URL already has.
 */
export function withQuery(url: string, query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  if (text === '') return url;
  const hashAt = url.indexOf('#');
  const head = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?';
  return `${head}${separator}${text}${hash}`;
}

/** `scheme://host[:port]` of a URL, or undefined when it does not parse. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

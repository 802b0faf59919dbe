/** Conditional requests of the HTTP front doors (docs/serve.md, "Under load"). */

/**
 * Whether an `If-None-Match` value names `etag` (RFC 9110, 13.1.2): `*`, or a list of entity tags
 * compared weakly — `W/"x"` matches `"x"`, as a proxy that compresses the answer makes it.
 */
export function noneMatchHas(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const tag of header.matchAll(/(?:W\/)?"[^"]*"/g)) if (tag[0].replace(/^W\//, '') === opaque) return true;
  return false;
}

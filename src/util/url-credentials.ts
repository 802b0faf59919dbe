/**
 * A dependency URL as nerq records it (docs/security.md, "Dependencies no registry vouches
 * for"): without the user name, password and query string, which may carry a token
 * (`https://user:token@host/…`, `…?token=…`). The rest stays as written: the scheme (`git+https`,
 * `file`), host, path, a `@rev` and the `#fragment` (`#egg=…`, `#sha256=…`, an npm committish).
 * Text, not URL parsing, so that an scp-style `git+ssh://git@host:org/repo` or an npm shorthand
 * is handled the same way and nothing else is rewritten. Pure.
 */

/** `scheme://userinfo@` at the start: the userinfo runs to the last `@` before the path. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/;

export function withoutCredentials(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const query = beforeHash.indexOf('?');
  const withoutQuery = query === -1 ? beforeHash : beforeHash.slice(0, query);
  return withoutQuery.replace(USERINFO, '$1') + fragment;
}

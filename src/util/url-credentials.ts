/**
 * A dependency URL as nerq records it (docs/security.md, "Dependencies no registry vouches
 * for"): without the user name, password and query string, which may carry a token
 * (`https://user:token@host/…`, `…?token=…`). The rest stays as written: the scheme (`git+https`,
 * `file`), host, path, a `@rev` and the `#fragment` (`#egg=…`, `#sha256=…`, an npm committish).
 * Text, not URL parsing, so that an scp-style `git+ssh://git@host:org/repo` or an npm shorthand
 * is handled the same way and nothing else is rewritten. Pure.
 */

/**
 * `scheme:` + slashes + `userinfo@` at the start: the userinfo runs to the last `@` before the
 * path. For the schemes the WHATWG URL parser calls special (http, https, ws, wss, ftp, file),
 * which npm's URL handling follows, any number of slashes — none, one, or backslashes
 * — still opens an authority (`https:user:token@host/…` and `https:/user:token@host/…` send the
 * credentials), and a backslash ends it as a slash does. Other schemes need at least one slash.
 */
const SPECIAL_SCHEME = /^(?:https?|wss?|ftp|file):/i;
const SPECIAL_USERINFO = /^((?:https?|wss?|ftp|file):[/\\]*)[^/\\?#]*@/i;
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/+)[^/?#]*@/;

export function withoutCredentials(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const query = beforeHash.indexOf('?');
  const withoutQuery = query === -1 ? beforeHash : beforeHash.slice(0, query);
  const stripped = withoutQuery.replace(SPECIAL_SCHEME.test(withoutQuery) ? SPECIAL_USERINFO : USERINFO, '$1');
  return hasUrlCredentials(stripped) ? `${urlWithoutCredentials(stripped)}${fragment}` : stripped + fragment;
}

/**
 * Whether a URL parser still finds a user name or password: the parser drops tabs and
 * newlines anywhere and spaces and control characters around the URL (`ht\ttps://u:p@h`,
 * ` https://u:p@h`), which the text rule above does not read past.
 */
function hasUrlCredentials(text: string): boolean {
  const parsed = URL.parse(text);
  return parsed !== null && (parsed.username !== '' || parsed.password !== '');
}

/** The URL as the parser reads it, its user name and password removed. */
function urlWithoutCredentials(text: string): string {
  const parsed = new URL(text);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

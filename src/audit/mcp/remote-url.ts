/**
 * A remote MCP server's URL as nerq compares it (README.md, "nerq audit --mcp"): scheme, host
 * (lower case, default port dropped) and path (trailing `/` dropped) — never the user name,
 * password, query string or fragment, which may carry a token and are neither kept nor sent.
 * A registry entry's `remotes[].url` may hold `{variables}` (server.schema.json URL
 * templates): in the path each matches one segment, in the host one DNS label under a literal
 * domain; a template whose variables set the scheme or the whole host matches nothing. Pure.
 */
import { normaliseHttpUrl } from '../../util/http-url.js';
import { loopbackHost, remoteParts } from '../../checks/lib/mcp.js';
import { escapeRegExp } from '../../util/escape-regexp.js';

/** `https://User:pw@Mcp.Example.com:443/mcp/?key=…#x` → `https://mcp.example.com/mcp`; null when not an http(s) URL. */
export const normaliseRemoteUrl = normaliseHttpUrl;

/**
 * The same normalisation for a declared URL that may carry `{variables}` (kept as written until
 * matched). A variable in the path is one segment; in the host, one DNS label under a literal
 * domain of at least two labels (`https://{tenant}.example.com/mcp`). A URL whose variables set
 * its scheme or whole host (`{url}`, `https://{host}/mcp`) declares no place in particular: it
 * matches nothing, so an entry cannot vouch for every server with a URL template.
 */
function declaredPattern(declared: string): RegExp | null {
  const parts = remoteParts(declared);
  if (parts.scheme === null || parts.host === null) return null;
  const placeholders: string[] = [];
  // Stand-ins that survive URL parsing; each becomes a wildcard.
  const text = declared.trim().replace(/\{[^{}/]*\}/g, (m) => {
    placeholders.push(m);
    return `nerqvar${placeholders.length - 1}x`;
  });
  const normal = normaliseRemoteUrl(text);
  if (normal === null) return null;
  const pathStart = normal.indexOf('/', normal.indexOf('//') + 2);
  const origin = pathStart < 0 ? normal : normal.slice(0, pathStart);
  const path = pathStart < 0 ? '' : normal.slice(pathStart);
  const source = escapeRegExp(origin).replace(/nerqvar\d+x/g, '[a-z0-9-]+') + escapeRegExp(path).replace(/nerqvar\d+x/g, '[^/]+');
  return new RegExp(`^${source}$`);
}

/** A configured URL (normalised) is the one an entry declares (possibly templated). */
export function remoteUrlMatches(configured: string, declared: string): boolean {
  return declaredPattern(declared)?.test(configured) ?? false;
}

/** Host labels too common to name a server; the registry's search is a substring match on names. */
const GENERIC_LABELS = new Set(['mcp', 'api', 'www', 'server', 'servers', 'app', 'apps', 'dev', 'remote', 'gateway', 'prod', 'cloud', 'sse', 'http', 'io', 'ai', 'com', 'net', 'org', 'co']);

/**
 * The words the registry is searched with to find the entry declaring a URL: the host's labels
 * (its top-level label and common words aside), most significant first, at most three. Only
 * these words leave the machine — never the path, which may hold a token.
 */
export function searchWordsOf(normalised: string): string[] {
  let host: string;
  try {
    host = new URL(normalised).hostname;
  } catch {
    return [];
  }
  if (/^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return [];
  const labels = host.split('.').slice(0, -1).reverse();
  return [...new Set(labels.filter((l) => l.length >= 3 && !GENERIC_LABELS.has(l) && /^[a-z0-9-]+$/.test(l)))].slice(0, 3);
}

/** A loopback host: a server running on this machine, whatever its scheme. */
export function isLoopback(normalised: string): boolean {
  try {
    const host = new URL(normalised).hostname;
    return loopbackHost(host);
  } catch {
    return false;
  }
}

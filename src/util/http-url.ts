/**
 * An http(s) URL as nerq compares URLs: scheme, host (lower case, default port dropped) and path
 * (trailing `/` dropped) — never the user name, password, query string or fragment, which may
 * carry a token. Used for remote MCP servers (audit/mcp/remote-url.ts) and registry base URLs
 * (ecosystems/mcp/registry-base.ts). Pure.
 */

/** `https://User:pw@Mcp.Example.com:443/mcp/?key=…#x` → `https://mcp.example.com/mcp`; null when not an http(s) URL. */
export function normaliseHttpUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}`;
}

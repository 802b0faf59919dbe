/**
 * Loopback names for the HTTP front doors' guard against DNS rebinding (docs/security.md): a web
 * page whose host name resolves to 127.0.0.1 still sends its own name in `Host`, and its own
 * origin in `Origin`.
 */

/** Host names a loopback server answers to. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header (`127.0.0.1:8788` → `127.0.0.1`, `[::1]:80` → `[::1]`), lower case. */
export function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}

/** A loopback Host header. */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_NAMES.has(hostNameOf(host));
}

/** An Origin header a loopback page sends (`http://localhost:5173`); `null` (a sandboxed page, a file) is not one. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

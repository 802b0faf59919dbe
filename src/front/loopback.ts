/**
 * Loopback names for the HTTP front doors' guard against DNS rebinding (docs/security.md): a web
 * page whose host name resolves to 127.0.0.1 still sends its own name in `Host`, and its own
 * origin in `Origin`.
 */

/** Host names a loopback server answers to. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A loopback IPv4 address (127.0.0.0/8). */
const LOOPBACK_V4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

const isLoopbackName = (name: string): boolean => LOOPBACK_NAMES.has(name) || LOOPBACK_V4.test(name);

/** An address a server binds that only this machine reaches (`--host 127.0.0.1`, `::1`, `localhost`). */
export function isLoopbackAddress(address: string): boolean {
  const name = address.trim().toLowerCase();
  return isLoopbackName(name) || name === '::1' || isLoopbackName(`[${name}]`);
}

/** The host name of a Host header (`127.0.0.1:8788` → `127.0.0.1`, `[::1]:80` → `[::1]`), lower case. */
export function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}

/** A loopback Host header. */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && isLoopbackName(hostNameOf(host));
}

/** An Origin header a loopback page sends (`http://localhost:5173`); `null` (a sandboxed page, a file) is not one. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

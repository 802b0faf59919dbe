/**
 * The Host names a front door answers besides loopback ones (`--allowed-host`, docs/serve.md,
 * "Safety"): a server reached through a name of the network refuses a request whose `Host` is
 * another name (DNS rebinding, a request meant for another virtual host) with 403
 * `forbidden-host`, as one bound to loopback does.
 */
import { hostNameOf, isLoopbackHost } from './loopback.js';
import { ServerConfigError } from './token-file.js';

/**
 * A name `--allowed-host` accepts: a host name or address as the `Host` header carries it,
 * without port or scheme (`nerq.internal.example`, `10.0.0.5`, `[fd00::1]`), lower-cased.
 */
export function allowedHostOf(text: string): string {
  const name = text.trim().toLowerCase();
  let parsed: string | null = null;
  try {
    const url = new URL(`http://${name}`);
    parsed = url.port === '' && url.pathname === '/' && url.username === '' && url.search === '' ? url.hostname : null;
  } catch {
    parsed = null;
  }
  if (name === '' || parsed !== name || name.includes('*')) {
    throw new ServerConfigError(`--allowed-host must be a host name or address without port or scheme, such as nerq.internal.example, not ${JSON.stringify(text.slice(0, 100))}`);
  }
  return name;
}

/** Which `Host` headers a front door answers: loopback names only, those and a list, or any. */
export type HostPolicy = { kind: 'loopback' } | { kind: 'listed'; names: ReadonlySet<string> } | { kind: 'any' };

/**
 * The policy of a server bound to `bound` with `--allowed-host`s `allowed`: any list given is
 * enforced (loopback names stay allowed: a probe on the machine itself); without one, a server
 * bound to loopback answers loopback names only, one bound to a network address any name.
 */
export function hostPolicyOf(boundToLoopback: boolean, allowed: readonly string[]): HostPolicy {
  if (allowed.length > 0) return { kind: 'listed', names: new Set(allowed.map(allowedHostOf)) };
  return boundToLoopback ? { kind: 'loopback' } : { kind: 'any' };
}

/** Whether a request's `Host` header passes the policy. */
export function hostAllowed(policy: HostPolicy, host: string | undefined): boolean {
  if (policy.kind === 'any') return true;
  if (isLoopbackHost(host)) return true;
  return policy.kind === 'listed' && host !== undefined && policy.names.has(hostNameOf(host));
}

/**
 * A `Host` value as RFC 9112 (3.2) and RFC 3986 (3.2.2, 3.2.3) allow it: a bracketed IP literal or
 * a name or IPv4 address of unreserved, percent-encoded and sub-delimiter characters, then an
 * optional `:` and digits (empty, as a client sends for a target without authority, included).
 */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** How many `Host` lines a request carried (Node keeps the first in `headers.host`, dropping the rest). */
export function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

/**
 * Why a request's host is refused, or null: `missing` for an HTTP/1.1 request without `Host`
 * (RFC 9112 requires one; Node's own refusal is a bare 400, so the front door answers it in its
 * own shape), `invalid` for a request with more than one `Host` line or a value that is no host
 * and port (`localhost:@evil.example`; RFC 9112, 3.2, answers both with 400: a proxy in front
 * that read another of the lines, or the value another way, would route by a host nerq never
 * checked), `forbidden` for a `Host` the policy refuses — or an absolute-form request target
 * (`GET http://evil.example/…`) naming a host it refuses: the target's authority is the request's
 * host (RFC 9112, 3.2.2), whatever the `Host` header says.
 */
export function hostRefusal(policy: HostPolicy, request: { host: string | undefined; hostLines: number; url: string | undefined; httpVersion: string }): 'missing' | 'invalid' | 'forbidden' | null {
  if (request.host === undefined && request.httpVersion === '1.1') return 'missing';
  if (request.hostLines > 1 || (request.host !== undefined && !HOST_VALUE.test(request.host.trim()))) return 'invalid';
  if (!hostAllowed(policy, request.host)) return 'forbidden';
  const url = request.url ?? '/';
  if (url.startsWith('/') || url === '*') return null;
  let authority: string | null = null;
  try {
    authority = new URL(url).host;
  } catch {
    authority = null;
  }
  return authority !== null && authority !== '' && hostAllowed(policy, authority) ? null : 'forbidden';
}

/** Fastify's options with Node's server told not to refuse a request without `Host` itself: `hostRefusal` answers it in the front door's shape. */
export function withHostOptions<T extends { http: object }>(options: T): T {
  return { ...options, http: { ...options.http, requireHostHeader: false } };
}

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
 * Why a request's host is refused, or null: `missing` for an HTTP/1.1 request without `Host`
 * (RFC 9112 requires one; Node's own refusal is a bare 400, so the front door answers it in its
 * own shape), `forbidden` for a `Host` the policy refuses — or an absolute-form request target
 * (`GET http://evil.example/…`) naming a host it refuses: the target's authority is the request's
 * host (RFC 9112, 3.2.2), whatever the `Host` header says.
 */
export function hostRefusal(policy: HostPolicy, request: { host: string | undefined; url: string | undefined; httpVersion: string }): 'missing' | 'forbidden' | null {
  if (request.host === undefined && request.httpVersion === '1.1') return 'missing';
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

/**
 * Which hosts (and services) are down for the rest of a run (README.md, "Unreachable hosts"). A
 * host that fails in a way that will not heal within the run is not asked again: the HTTP
 * client answers every later request to it at once with the same failure, instead of retrying
 * it with backoff for each of hundreds of packages.
 *
 * - The whole host, at once: a DNS failure, a refused connection, an unreachable network, a
 *   TLS error; after REPEATED_FAULTS connect timeouts in a row.
 * - One service on the host (`scopeOf`: the npm downloads API, OSV, GitHub's REST API…), after
 *   REPEATED_FAULTS failures in a row with no answer from it in between: timeouts waiting for
 *   an answer, and 5xx answers. One slow or failing request is not an outage; several in a row
 *   are. A service is the unit because one host may serve several (a registry proxy serving npm
 *   and PyPI), and one of them failing says nothing of the others.
 *
 * Anything else (a 404, a 429 rate limit, a reset mid-body, the run's own deadline) says
 * nothing about the host. Pure bookkeeping: no I/O, no clock.
 */

/** How a request failed, as far as the health of its host goes. */
export type HostFault = 'dns' | 'refused' | 'unreachable' | 'tls' | 'connect-timeout' | 'timeout' | 'server-error';

/** Faults of the connection (the whole host), and of those the ones that mark it down at once. */
const HOST_FAULTS: ReadonlySet<HostFault> = new Set(['dns', 'refused', 'unreachable', 'tls', 'connect-timeout']);
const AT_ONCE: ReadonlySet<HostFault> = new Set(['dns', 'refused', 'unreachable', 'tls']);

/** Consecutive timeouts or 5xx answers (no answer in between) that mark a host or service down. */
export const REPEATED_FAULTS = 3;

export interface HostDown {
  /** `host[:port]` as in the request URL, lower case. */
  host: string;
  /** The service that is down (`scopeOf`), or null when the whole host is. */
  service: string | null;
  fault: HostFault;
  /** The failure that marked it down, one line (the HTTP layer's reason: names the host, never a path). */
  reason: string;
  /** The failure's kind, reused for every request refused afterwards (a 5xx outage is `network`: no one status stands for it). */
  kind: 'network' | 'timeout';
}

export interface HostHealth {
  /** The outage a request to `url` runs into (its host's, or its service's); undefined when it may be sent. */
  downFor(url: URL): HostDown | undefined;
  /** An answer came from `url`'s host (any HTTP status below 500): its strikes are forgiven. */
  answered(url: URL): void;
  /** A request to `url` failed with `fault`; true when this marked its host or service down. */
  failed(url: URL, fault: HostFault, kind: HostDown['kind'], reason: string): boolean;
  /** What is down so far, in the order it went down. */
  down(): HostDown[];
  /** Called once per host or service, when it is marked down. */
  onDown(listener: (down: HostDown) => void): void;
}

export interface HostHealthOptions {
  /**
   * The service a URL belongs to (the run knows its endpoints: the registry, OSV, GitHub…);
   * URLs of one service share their strikes. Default: the host.
   */
  scopeOf?: (url: URL) => string;
}

export function createHostHealth(options: HostHealthOptions = {}): HostHealth {
  const down = new Map<string, HostDown>();
  const strikes = new Map<string, number>();
  const listeners: Array<(down: HostDown) => void> = [];
  const hostKey = (url: URL) => `host ${url.host.toLowerCase()}`;
  const serviceOf = (url: URL): string => {
    try {
      return options.scopeOf?.(url) ?? url.host.toLowerCase();
    } catch {
      return url.host.toLowerCase();
    }
  };
  const serviceKey = (url: URL) => `service ${url.host.toLowerCase()} ${serviceOf(url)}`;
  return {
    downFor: (url) => down.get(hostKey(url)) ?? down.get(serviceKey(url)),
    answered(url) {
      strikes.delete(hostKey(url));
      strikes.delete(serviceKey(url));
    },
    failed(url, fault, kind, reason) {
      const wholeHost = HOST_FAULTS.has(fault);
      const key = wholeHost ? hostKey(url) : serviceKey(url);
      if (down.has(key) || down.has(hostKey(url))) return false;
      const count = (strikes.get(key) ?? 0) + 1;
      strikes.set(key, count);
      if (!AT_ONCE.has(fault) && count < REPEATED_FAULTS) return false;
      const outage: HostDown = { host: url.host.toLowerCase(), service: wholeHost ? null : serviceOf(url), fault, reason, kind };
      down.set(key, outage);
      for (const listener of listeners) listener(outage);
      return true;
    },
    down: () => [...down.values()],
    onDown(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * An HttpClient decorator that counts the requests in flight per label (the service a URL
 * belongs to), for a progress line that says what a run is waiting on. Adds no behaviour.
 */
import type { HttpClient } from './types.js';

export interface ObservedHttpClient extends HttpClient {
  inFlight(): ReadonlyMap<string, number>;
}

export function observeRequests(inner: HttpClient, labelOf: (url: string) => string): ObservedHttpClient {
  const counts = new Map<string, number>();
  return {
    async request(req) {
      let label: string;
      try {
        label = labelOf(req.url);
      } catch {
        label = 'other';
      }
      counts.set(label, (counts.get(label) ?? 0) + 1);
      try {
        return await inner.request(req);
      } finally {
        counts.set(label, (counts.get(label) ?? 1) - 1);
      }
    },
    close: () => inner.close(),
    inFlight: () => counts,
  };
}

/**
 * An HttpClient decorator that counts the requests in flight per label (the service a URL
 * belongs to), for a progress line that says what a run is waiting on. Adds no behaviour.
 */
import { streamBody } from './stream.js';
import type { HttpClient } from './types.js';

export interface ObservedHttpClient extends HttpClient {
  inFlight(): ReadonlyMap<string, number>;
}

export function observeRequests(inner: HttpClient, labelOf: (url: string) => string): ObservedHttpClient {
  const counts = new Map<string, number>();
  async function counted<R>(url: string, send: () => Promise<R>): Promise<R> {
    let label: string;
    try {
      label = labelOf(url);
    } catch {
      label = 'other';
    }
    counts.set(label, (counts.get(label) ?? 0) + 1);
    try {
      return await send();
    } finally {
      counts.set(label, (counts.get(label) ?? 1) - 1);
    }
  }
  return {
    request: (req) => counted(req.url, () => inner.request(req)),
    stream: (req, consume) => counted(req.url, () => streamBody(inner, req, consume)),
    close: (options) => inner.close(options),
    inFlight: () => counts,
  };
}

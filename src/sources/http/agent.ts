/**
 * The undici dispatcher behind the HTTP client (docs/security.md, "A failing network"): one
 * EnvHttpProxyAgent for proxies and NO_PROXY, and every connection pool it creates — direct,
 * to a proxy (the CONNECT tunnel's own client), forwarded through a proxy, one per origin —
 * built here with the same explicit connect, headers and body timeouts. undici's own factories
 * give the proxy's clients its defaults (300 s for headers), so a proxy that accepts the
 * connection and never answers would outlast any run deadline.
 *
 * `untilAborted` settles a pending request at the run deadline even while it still waits for
 * a connection (undici defers the abort of a queued request until a connection exists).
 */
import type { Dispatcher } from 'undici';

export interface AgentTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export interface AgentOptions {
  timeouts: AgentTimeouts;
  /** TLS settings for every connection (to origins and to proxies). */
  tls: { rejectUnauthorized: boolean; ca?: string[] };
  proxy: { httpProxy: string; httpsProxy: string; noProxy: string };
  /** Connections kept to one origin at most. */
  connections: number;
}

type Undici = typeof import('undici');

/** The options every pool and client gets, whoever creates it. */
export function timeoutOptions(timeouts: AgentTimeouts): { connectTimeout: number; headersTimeout: number; bodyTimeout: number } {
  return { connectTimeout: timeouts.connectMs, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs };
}

/** The dispatcher: proxies from `proxy` (never from process.env behind our back), timeouts everywhere. */
export function createAgent(undici: Undici, options: AgentOptions): Dispatcher {
  const { EnvHttpProxyAgent, Pool, Client } = undici;
  const timing = timeoutOptions(options.timeouts);
  const connectTls = { timeout: options.timeouts.connectMs, ...options.tls };
  // undici's Agent, ProxyAgent and its HTTP/1 forwarding wrapper call these for every pool or
  // client they make, some with nothing but `{ connect }`: the timeouts are added here.
  const pool = (origin: string | URL, given: object): Dispatcher => {
    const merged = { ...given, ...timing } as ConstructorParameters<typeof Pool>[1] & { connections?: number | null };
    return merged.connections === 1 ? new Client(origin, merged) : new Pool(origin, merged);
  };
  return new EnvHttpProxyAgent({
    httpProxy: options.proxy.httpProxy,
    httpsProxy: options.proxy.httpsProxy,
    noProxy: options.proxy.noProxy,
    ...timing,
    connect: connectTls,
    requestTls: connectTls,
    proxyTls: connectTls,
    connections: options.connections,
    allowH2: true,
    factory: pool,
    clientFactory: pool,
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}

/** An error undici's abort would give: describeError reads it as the run deadline. */
function abortError(): Error {
  const error = new Error('the run deadline was reached');
  error.name = 'AbortError';
  return error;
}

/**
 * `pending`, or a rejection (AbortError) as soon as `signal` aborts, whichever comes first. A
 * response that arrives after the abort has its body destroyed (nobody will read it).
 */
export function untilAborted(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
  if (signal === undefined) return pending;
  if (signal.aborted) {
    void pending.then((late) => late.body.destroy(), () => undefined);
    return Promise.reject(abortError());
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      void pending.then((late) => late.body.destroy(), () => undefined);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) {
          response.body.destroy();
          reject(abortError());
        } else resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Fastify options that bound how long a connection is held (docs/serve.md, "Deadlines"). A
 * request not received whole within `ms` (headers and body: a body sent a byte at a time) is
 * ended, its connection closed. Fastify's own `requestTimeout` defaults to 0, which switches
 * Node's limit off; Node ends no request while its headers timeout (60 s by default) is longer
 * than the request timeout, and looks for such requests only every `connectionsCheckingInterval`
 * (30 s by default, which let a 30 s deadline run to 60 s) — here every tenth of the deadline, at
 * most a second. An idle keep-alive connection is closed after 5 s (Node's default; Fastify's is 72 s,
 * long enough for a client to hold many sockets open for nothing).
 */
export function receiveTimeout(ms: number): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: { connectionsCheckingInterval: number; headersTimeout: number };
} {
  return {
    requestTimeout: ms,
    keepAliveTimeout: KEEP_ALIVE_MS,
    http: { connectionsCheckingInterval: Math.round(Math.max(100, Math.min(1_000, ms / 10))), headersTimeout: Math.min(60_000, ms) },
  };
}

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_MS = 5_000;

/**
 * Fastify options that end a request not received whole within `ms` (headers and body: a body
 * sent a byte at a time), closing its connection (docs/serve.md, "Deadlines"). Fastify's own
 * `requestTimeout` defaults to 0, which switches Node's limit off; Node ends no request while its
 * headers timeout (60 s by default) is longer than the request timeout, and looks for such
 * requests every 30 s by default — here at least as often as the deadline.
 */
export function receiveTimeout(ms: number): { requestTimeout: number; http: { connectionsCheckingInterval: number; headersTimeout: number } } {
  return {
    requestTimeout: ms,
    http: { connectionsCheckingInterval: Math.max(100, Math.min(30_000, ms)), headersTimeout: Math.min(60_000, ms) },
  };
}

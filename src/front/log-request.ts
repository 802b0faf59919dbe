/**
 * What a log line says of a request (docs/serve.md, "Tokens"): the method, the path — never the
 * query string, where a client may put a credential (`?access_token=…`) — the host and the
 * client's address. Fastify's own serializer logs the whole URL.
 */
interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

export function requestLogValue(req: LoggedRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: req.url.split('?', 1)[0],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

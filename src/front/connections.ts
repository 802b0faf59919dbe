/**
 * The caps on a front door's connections (docs/serve.md, "Under load").
 *
 * - Open connections: past the cap, Node closes a new connection as soon as it is accepted,
 *   without an answer: a client holding hundreds of sockets open (idle keep-alives, requests sent
 *   a byte at a time) cannot take every file descriptor the server needs for its own outbound
 *   requests and store. The default leaves room under the common soft limit of 1,024 open files.
 * - Requests on one connection: Node parses every request a client pipelined into one read
 *   before any answer is written, and queues the answers of a client that never reads them —
 *   thousands of `/openapi.json` answers (69 KB each) held in memory for one socket. After
 *   `MAX_REQUESTS_PER_SOCKET` requests the answer says `Connection: close`: a client reconnects.
 *   Node writes that header but would keep the socket open until the idle timeout (5 s) — a
 *   client that waits for the close holds a connection for nothing — so that answer is marked
 *   as the connection's last: the socket is ended once it is written, and a request pipelined
 *   after it is never handled nor answered.
 *
 * Headers are bounded by Node's defaults, left as they are: at most 16 KiB of them
 * (`--max-http-header-size`; past it a 431, front/client-error.ts) and at most 2,000 header
 * lines read per request (`server.maxHeadersCount`; later lines are dropped, not refused).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Requests answered on one connection before it closes. */
export const MAX_REQUESTS_PER_SOCKET = 100;

/** Open connections at most, by default. */
export const DEFAULT_MAX_CONNECTIONS = 512;

/** Cap the open connections of `app`'s server at `max`. */
export function boundConnections(app: FastifyInstance, max: number = DEFAULT_MAX_CONNECTIONS): void {
  app.server.maxConnections = max;
  // Before Fastify's own listener, so before any answer is written (a hijacked one included).
  app.server.prependListener('request', (_request, response: ServerResponse & { maxRequestsOnConnectionReached?: boolean }) => {
    // Node sets this on the answer to the cap's last request; an answer that does not keep the
    // connection alive says `Connection: close` and ends the socket once written.
    if (response.maxRequestsOnConnectionReached === true) response.shouldKeepAlive = false;
  });
}

/**
 * Answers, in the front door's JSON shape, an `Expect` other than `100-continue`: Node would
 * answer it itself, a bare 417 with an empty body, before Fastify sees it. The connection is
 * closed after the answer. (CONNECT, which Node closes unanswered without a listener, is
 * front/connect-method.ts's.)
 */
export function answerExpectation(server: Server, body: string): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
}

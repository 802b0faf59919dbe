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
 *   `MAX_REQUESTS_PER_SOCKET` requests the answer says `Connection: close` and any request after
 *   it on that socket is a 503 (Node's, with the front door's JSON body: droppedRequestAnswer),
 *   never handled: a client reconnects.
 *
 * Headers are bounded by Node's defaults, left as they are: at most 16 KiB of them
 * (`--max-http-header-size`; past it a 431, front/client-error.ts) and at most 2,000 header
 * lines read per request (`server.maxHeadersCount`; later lines are dropped, not refused).
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Requests answered on one connection before it closes. */
export const MAX_REQUESTS_PER_SOCKET = 100;

/** Open connections at most, by default. */
export const DEFAULT_MAX_CONNECTIONS = 512;

/** Cap the open connections of `app`'s server at `max`. */
export function boundConnections(app: FastifyInstance, max: number = DEFAULT_MAX_CONNECTIONS): void {
  app.server.maxConnections = max;
}

/**
 * Server options that give the answer to a request past MAX_REQUESTS_PER_SOCKET the front door's
 * JSON body: Node answers it itself — the server's `dropRequest` event, then `writeHead(503)` and
 * `end()` on a fresh response, an empty body — and the request is never handled. The response
 * class here writes `body` (with its type, length and `Connection: close`) for a request that
 * event named, and behaves as Node's for every other. `watch` hooks the event on the server.
 */
export function droppedRequestAnswer(body: string): { ServerResponse: typeof ServerResponse; watch: (server: Server) => void } {
  const dropped = new WeakSet<IncomingMessage>();
  const { writeHead, end } = ServerResponse.prototype;
  class FrontResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    constructor(request: Request) {
      super(request);
      const response = this as ServerResponse<Request>;
      response.writeHead = ((...args: unknown[]) =>
        dropped.has(request)
          ? writeHead.call(response, 503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' })
          : Reflect.apply(writeHead, response, args)) as ServerResponse<Request>['writeHead'];
      response.end = ((...args: unknown[]) =>
        Reflect.apply(end, response, dropped.has(request) && args.length === 0 ? [body] : args)) as ServerResponse<Request>['end'];
    }
  }
  return {
    ServerResponse: FrontResponse,
    watch: (server) => {
      server.on('dropRequest', (request: IncomingMessage) => dropped.add(request));
    },
  };
}

/**
 * Answers, in the front door's JSON shape, the requests Node answers or drops before Fastify sees
 * them: an `Expect` other than `100-continue` (Node's bare 417 with an empty body) and `CONNECT`
 * (without a listener Node closes the connection unanswered; nerq is no proxy: 405). Each
 * connection is closed after its answer.
 */
export function answerUnrouted(server: Server, bodies: { expectation: string; connect: string }): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(bodies.expectation), connection: 'close' });
    response.end(bodies.expectation);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(bodies.connect)}\r\nConnection: close\r\n\r\n${bodies.connect}`);
  });
}

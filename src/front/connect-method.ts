/**
 * `CONNECT` asks a server to open a tunnel to another host: a front door proxies nothing
 * (docs/serve.md, "Safety"). Node hands such a request to the server's `connect` listeners and,
 * without one, closes the connection unanswered — a client cannot tell a refusal from a crash.
 * It is answered instead as any method no route takes: a 405 naming the methods the front door
 * does take, in its own error shape, and the connection closed once that is written.
 */
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Answer CONNECT on `app`'s server with a 405: `allow` names the methods it takes, `body` is its JSON error. */
export function refuseConnect(app: FastifyInstance, allow: string, body: unknown): void {
  const json = JSON.stringify(body);
  const answer =
    'HTTP/1.1 405 Method Not Allowed\r\n' +
    `allow: ${allow}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(json)}\r\n` +
    'connection: close\r\n\r\n' +
    json;
  app.server.on('connect', (_request, socket: Duplex) => {
    // A client that resets meanwhile is no error of the server's.
    socket.on('error', () => undefined);
    socket.end(answer, () => socket.destroy());
  });
}

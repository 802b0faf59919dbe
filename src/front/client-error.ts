/**
 * The answer to a request Node's HTTP parser refused before Fastify saw it (docs/serve.md,
 * "Routes"; docs/mcp.md, "Streamable HTTP"): headers over Node's 16 KiB limit (431), a request
 * not received whole in time (408), anything else it cannot parse — two or negative
 * `Content-Length`s, one shorter than the body, both it and chunked encoding (400). The body is
 * the front door's own error shape; the connection is closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** The status and one-line message of a parser error. */
function refusalOf(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'the request headers are over 16 KiB' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'the request was not received whole in time' };
  return { status: 400, message: 'the request is not HTTP nerq reads' };
}

/** A Fastify `clientErrorHandler` writing `bodyOf(status, message)` as JSON. */
export function clientErrorAnswer(bodyOf: (status: number, message: string) => string): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = refusalOf(error);
    const body = bodyOf(status, message);
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

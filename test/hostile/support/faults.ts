/**
 * Network faults, as fixture-server route handlers: what a source's server (or the network in
 * between) can do to a request. Each fault is installed on the routes of one source; the
 * others keep answering normally. Connection refused and DNS failure need no handler: the
 * source's endpoint is pointed at a closed port or at a `.invalid` host (RFC 6761: such a
 * name never resolves, so no resolver on the internet is asked).
 */
import { createServer } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { FixtureServer, RouteHandler } from '../../support/fixture-server.js';

export const MB = 1000 * 1000;

/** What a fault needs to know about the source it breaks. */
export interface FaultTarget {
  /** The healthy answer of the route (placeholders filled in), for truncation and redirects. */
  sample: Buffer;
  contentType: string;
  /** A well-formed body of the wrong shape for this source (JSON of another shape, or JSON for a tarball). */
  wrongShape: string;
  /** GET routes redirect with 302; POST routes with 307, which keeps the method and body. */
  method: 'GET' | 'POST';
}

export const FAULT_IDS = [
  'connection refused',
  'DNS failure',
  'timeout before headers',
  'stall mid-body',
  'reset mid-body',
  'truncated JSON',
  'invalid JSON',
  'valid JSON of the wrong shape',
  'HTML error page with 200',
  'HTTP 500',
  'HTTP 502',
  'HTTP 503',
  '429 with Retry-After',
  '429 without Retry-After',
  'redirect loop',
  'redirect to another origin',
  '100 MB body',
] as const;
export type FaultId = (typeof FAULT_IDS)[number];

/** Faults that move the source's endpoint instead of answering badly. */
export const ENDPOINT_FAULTS: readonly FaultId[] = ['connection refused', 'DNS failure'];

/** A host name that never resolves (RFC 6761 §6.4). */
export const UNRESOLVABLE_ORIGIN = 'http://nerq-hostile.invalid';

/** An origin on loopback where nothing listens: a port just freed by a server we closed. */
export async function refusingOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 9;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Resolve when the client goes away (or the fixture server closes its connections). */
function untilClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.socket === null || res.socket.destroyed) resolve();
    else res.socket.once('close', () => resolve());
  });
}

const HTML_ERROR_PAGE = '<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>We\'ll be right back</h1><p>The service is down for maintenance.</p></body></html>\n';

/** A 100 MB body, generated as it is sent (never held in memory); no Content-Length. */
function hugeBody(req: IncomingMessage, res: ServerResponse, contentType: string): Promise<void> {
  const block = Buffer.alloc(64 * 1024, 0x61);
  function* blocks(): Generator<Buffer> {
    yield Buffer.from('{"padding":"');
    for (let sent = 0; sent < 100 * MB; sent += block.length) yield block;
    yield Buffer.from('"}');
  }
  res.writeHead(200, { 'content-type': contentType });
  return new Promise((resolve) => {
    pipeline(Readable.from(blocks()), res, () => resolve());
    req.socket.once('close', () => resolve());
  });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  res.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

/**
 * The handler answering a route with `fault` (undefined for the endpoint faults, which have
 * none). `other` is a second server for the cross-origin redirect.
 */
export function faultHandler(fault: FaultId, target: FaultTarget, other?: FixtureServer): RouteHandler | undefined {
  const json = { 'content-type': 'application/json' };
  const half = (buf: Buffer): Buffer => buf.subarray(0, Math.max(1, Math.floor(buf.length / 2)));
  switch (fault) {
    case 'connection refused':
    case 'DNS failure':
      return undefined;
    case 'timeout before headers':
      return (_req, res) => untilClosed(res);
    case 'stall mid-body':
      return (_req, res) => {
        res.writeHead(200, { 'content-type': target.contentType, 'content-length': String(target.sample.length) });
        res.write(half(target.sample));
        return untilClosed(res);
      };
    case 'reset mid-body':
      return (_req, res) => {
        res.writeHead(200, { 'content-type': target.contentType, 'content-length': String(target.sample.length) });
        res.write(half(target.sample), () => res.socket?.resetAndDestroy());
      };
    case 'truncated JSON':
      // A complete HTTP answer whose document is cut in half (Content-Length agrees).
      return (_req, res) => send(res, 200, { 'content-type': target.contentType }, half(target.sample));
    case 'invalid JSON':
      return (_req, res) => send(res, 200, json, '{"name": "chalk", "versions": {"4.1.0": {,}} ]');
    case 'valid JSON of the wrong shape':
      return (_req, res) => send(res, 200, json, target.wrongShape);
    case 'HTML error page with 200':
      return (_req, res) => send(res, 200, { 'content-type': 'text/html; charset=utf-8' }, HTML_ERROR_PAGE);
    case 'HTTP 500':
    case 'HTTP 502':
    case 'HTTP 503': {
      const status = Number(fault.slice(5));
      return (_req, res) => send(res, status, json, JSON.stringify({ error: `HTTP ${status}` }));
    }
    case '429 with Retry-After':
      return (_req, res) => send(res, 429, { ...json, 'retry-after': '1' }, '{"error":"slow down"}');
    case '429 without Retry-After':
      return (_req, res) => send(res, 429, json, '{"error":"slow down"}');
    case 'redirect loop':
      return (req, res) => send(res, target.method === 'POST' ? 307 : 302, { location: req.url ?? '/' }, '');
    case 'redirect to another origin':
      return (req, res) => {
        if (other === undefined) throw new Error('the cross-origin redirect needs a second server');
        send(res, target.method === 'POST' ? 307 : 302, { location: `${other.origin}${req.url ?? '/'}` }, '');
      };
    case '100 MB body':
      return (req, res) => hugeBody(req, res, target.contentType);
  }
}

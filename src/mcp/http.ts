/**
 * `nerq mcp --http` (docs/mcp.md, "Streamable HTTP"): the same tools over the MCP streamable HTTP
 * transport, stateless (each POST /mcp is one exchange), on loopback only. Against DNS
 * rebinding, a request whose Host is neither a loopback name nor an `--allowed-host`, or whose
 * Origin (when sent) is not a loopback origin, is refused with 403 before it reaches the
 * protocol — here, not with the SDK transport's `allowedHosts`, which its 1.32 release deprecates
 * for middleware like this and which compares the whole header, port included; with tokens, a request
 * needs `Authorization: Bearer <token>` (docs/serve.md, "Tokens"). Every refusal — of the
 * transport (406, 415, a JSON-RPC message it cannot read), of HTTP (a body that is not JSON, too
 * large, another method or path) — is a JSON-RPC error object with `id: null`, never a 500 or a
 * stack (docs/mcp.md, "Streamable HTTP").
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Evaluator } from '../app/evaluator.js';
import type { Runtime } from '../app/runtime.js';
import { bearerChecker } from '../front/auth.js';
import { clientErrorAnswer } from '../front/client-error.js';
import { answerExpectation, boundConnections, MAX_REQUESTS_PER_SOCKET } from '../front/connections.js';
import { refuseConnect } from '../front/connect-method.js';
import { ENCODED_BODY_MESSAGE, namesBodyCoding } from '../front/content-encoding.js';
import { boundJsonDepth, JSON_KEY_TWICE, JSON_TOO_DEEP, MAX_JSON_DEPTH } from '../front/json-depth.js';
import { hostLines, hostRefusal, withHostOptions, type HostPolicy } from '../front/allowed-host.js';
import { isLoopbackOrigin } from '../front/loopback.js';
import { receiveTimeout } from '../front/receive-timeout.js';
import { requestLogValue } from '../front/log-request.js';
import { createMcpServer } from './server.js';

export interface McpHttpOptions {
  runtime: Runtime;
  evaluator: Evaluator;
  tokens?: readonly string[] | null;
  logLevel?: string;
  logStream?: NodeJS.WritableStream;
  /** A request not received whole (headers and body) within this many ms is ended (default 30 s). */
  requestTimeoutMs?: number;
  /** Open connections at most (default 512, front/connections.ts); a connection past it is closed unanswered. */
  maxConnections?: number;
  /** The Host headers answered (front/allowed-host.ts): loopback names by default, and any `--allowed-host`. */
  hosts?: HostPolicy;
}

/** The largest request body (a tools/call of audit_lockfile carries up to 5 MiB of content, JSON-escaped). */
const BODY_LIMIT = 12 * 1024 * 1024;

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** JSON-RPC 2.0's codes for a body that is not JSON, and for an error of the server's own. */
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;
/** The code the MCP SDK's transport gives its own HTTP-level refusals (406, 415, 405). */
const TRANSPORT_ERROR = -32000;
/** JSON-RPC 2.0's code for a message (or batch) that is not a valid request. */
const INVALID_REQUEST = -32600;

/** The most messages one JSON-RPC batch may hold (docs/mcp.md, "Batches"); each runs at once, under its own deadline. */
export const MAX_MCP_BATCH = 10;
/**
 * The one MCP revision with JSON-RPC batches: added in 2025-03-26, removed in 2025-06-18. It is
 * also the revision a server assumes when a request names none (no `MCP-Protocol-Version`).
 */
const BATCH_REVISION = '2025-03-26';

/** Why a JSON array body is refused, or null when it is a batch nerq answers (docs/mcp.md, "Batches"). */
export function batchRefusal(batch: readonly unknown[], protocolVersion: string | string[] | undefined): string | null {
  const revision = Array.isArray(protocolVersion) ? protocolVersion[0] : protocolVersion;
  if (revision !== undefined && revision !== BATCH_REVISION) return `Invalid Request: MCP ${revision.slice(0, 20)} has no JSON-RPC batches; send one message per POST`;
  if (batch.length === 0) return 'Invalid Request: an empty batch';
  if (batch.length > MAX_MCP_BATCH) return `Invalid Request: a batch holds at most ${MAX_MCP_BATCH} messages`;
  return null;
}

/** An error Fastify raised before the route ran (a body it could not read) as a JSON-RPC error: its status, one line. */
function httpRefusal(error: { statusCode?: number; code?: string }): { status: number; body: ReturnType<typeof rpcError> } {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 413) return { status, body: rpcError(TRANSPORT_ERROR, `Payload Too Large: at most ${BODY_LIMIT / 1024 / 1024} MiB`) };
  if (status === 415) return { status, body: rpcError(TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json') };
  if (status === 400 && error.code === JSON_KEY_TWICE) return { status, body: rpcError(PARSE_ERROR, 'Parse error: the body names one key twice in an object') };
  if (status === 400 && error.code === JSON_TOO_DEEP) return { status, body: rpcError(PARSE_ERROR, `Parse error: the body nests deeper than ${MAX_JSON_DEPTH} levels`) };
  if (status === 400 && (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')) {
    return { status, body: rpcError(PARSE_ERROR, 'Parse error: the body is not a JSON value nerq reads') };
  }
  if (status === 500) return { status, body: rpcError(INTERNAL_ERROR, 'Internal error') };
  return { status, body: rpcError(TRANSPORT_ERROR, 'Bad Request') };
}

export function buildMcpHttp(options: McpHttpOptions): FastifyInstance {
  const authorized = bearerChecker(options.tokens ?? null);
  const hosts: HostPolicy = options.hosts ?? { kind: 'loopback' };
  // A request pipelined past the connection's cap is answered by Node itself: as a JSON-RPC error too.
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    ...withHostOptions(receiveTimeout(options.requestTimeoutMs ?? 30_000)),
    logger: {
      level: options.logLevel ?? 'info',
      stream: options.logStream ?? process.stderr,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      // The path, not the query string: a credential put there is not logged either.
      serializers: { req: requestLogValue },
    },
    forceCloseConnections: 'idle',
    maxRequestsPerSocket: MAX_REQUESTS_PER_SOCKET,
    clientErrorHandler: clientErrorAnswer((_status, message) => JSON.stringify(rpcError(TRANSPORT_ERROR, message))),
  });

  boundJsonDepth(app);
  boundConnections(app, options.maxConnections);
  answerExpectation(app.server, JSON.stringify(rpcError(TRANSPORT_ERROR, 'Expectation Failed: the Expect header asks for what nerq does not do (it takes 100-continue only)')));
  refuseConnect(app, 'POST', rpcError(TRANSPORT_ERROR, 'method not allowed: CONNECT is not served, POST /mcp'));

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const refusal = hostRefusal(hosts, { host: request.headers.host, hostLines: hostLines(request.raw.rawHeaders), url: request.raw.url, httpVersion: request.raw.httpVersion });
    if (refusal === 'missing') return reply.code(400).send(rpcError(TRANSPORT_ERROR, 'Bad Request: an HTTP/1.1 request needs a Host header'));
    if (refusal === 'invalid') return reply.code(400).send(rpcError(TRANSPORT_ERROR, 'Bad Request: a request takes one Host header, a host name or address with an optional port'));
    if (refusal === 'forbidden' || (origin !== undefined && !isLoopbackOrigin(origin))) {
      return reply.code(403).send(rpcError(-32000, 'forbidden: Host or Origin is not loopback'));
    }
    if (!authorized(request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send(rpcError(-32001, 'a valid bearer token is required'));
    }
    // A compressed body is not decoded, so never read as if it were not encoded (a GET has no body to read).
    if (request.method === 'POST' && namesBodyCoding(request.headers['content-encoding'])) return reply.code(415).send(rpcError(TRANSPORT_ERROR, `Unsupported Media Type: ${ENCODED_BODY_MESSAGE}`));
    return undefined;
  });

  app.post('/mcp', async (request, reply) => {
    // Before the SDK, whose own cap is 100 messages under every revision: nerq takes batches only where MCP has them, and few.
    if (Array.isArray(request.body)) {
      const refusal = batchRefusal(request.body, request.headers['mcp-protocol-version']);
      if (refusal !== null) return reply.code(400).send(rpcError(INVALID_REQUEST, refusal));
    }
    // Stateless: a server and a transport for this exchange only, over the shared runtime and evaluator.
    const server = createMcpServer({ runtime: options.runtime, evaluator: options.evaluator });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const notAllowed = async (_request: unknown, reply: { code(n: number): { header(k: string, v: string): { send(b: unknown): unknown } } }) =>
    reply.code(405).header('allow', 'POST').send(rpcError(TRANSPORT_ERROR, 'method not allowed: this server is stateless, POST /mcp'));
  // GET (and so HEAD) and DELETE are the methods of sessions, which a stateless server has none of; the rest are not MCP's.
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'], url: '/mcp', handler: notAllowed });

  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send(rpcError(TRANSPORT_ERROR, 'Not Found: the MCP endpoint is POST /mcp'));
  });
  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    const { status, body } = httpRefusal(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.code(status).send(body);
  });
  return app;
}

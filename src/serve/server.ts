/**
 * `nerq serve`'s HTTP application (docs/serve.md) on Fastify: the routes, their zod contract,
 * bearer tokens, error answers. One runtime and one evaluator serve every request; each
 * request waits at most `requestTimeoutMs`. No route fetches anything a caller names but a
 * target the command line's parser accepts.
 */
import { createHash } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { auditContent, checkAuditContent } from '../app/audit-content.js';
import { AuditInputError } from '../app/audit.js';
import { refusedRequest, type TargetOutcome } from '../app/check.js';
import { DEFAULT_GATE, CallerDeadlineError, QueueFullError, type EvaluationChoice, type Evaluator } from '../app/evaluator.js';
import { INCLUDE_PACKAGE_NEEDS_REPOSITORY, includePackageApplies, includePackageFor, type IncludePackage } from '../app/include-package-choice.js';
import { historyKeyOf, historyPoints, readHistory, readHistoryPage, reportHistoryKey } from '../app/history.js';
import type { Runtime } from '../app/runtime.js';
import { parseTarget, parseTargetList, TargetError, type Target } from '../app/targets.js';
import { renderAuditJson } from '../render/audit-json.js';
import { renderJson } from '../render/json.js';
import { VERSION } from '../version.js';
import { bearerChecker } from '../front/auth.js';
import { clientErrorAnswer } from '../front/client-error.js';
import { answerExpectation, boundConnections, MAX_REQUESTS_PER_SOCKET } from '../front/connections.js';
import { refuseConnect } from '../front/connect-method.js';
import { ENCODED_BODY_MESSAGE, namesBodyCoding } from '../front/content-encoding.js';
import { echoSafe } from '../front/echo.js';
import { noneMatchHas } from '../front/if-none-match.js';
import { boundJsonDepth } from '../front/json-depth.js';
import { hostLines, hostRefusal, withHostOptions, type HostPolicy } from '../front/allowed-host.js';
import { isLoopbackOrigin } from '../front/loopback.js';
import { receiveTimeout } from '../front/receive-timeout.js';
import { requestLogValue } from '../front/log-request.js';
import { openApiDocument } from './openapi.js';
import { preflightAlternatives, preflightOf, unevaluatedPreflight, type PreflightInput } from './preflight.js';
import {
  AuditRequestSchema,
  BatchQuerySchema,
  BatchRequestSchema,
  includesOf,
  PREFLIGHT_PEERS,
  MAX_AUDIT_BYTES,
  ErrorSchema,
  HistoryQuerySchema,
  INCLUDE_PACKAGE_PARAMETER,
  includePackageOf,
  PreflightQuerySchema,
  TargetQuerySchema,
  ENTRY_ERROR_CODES,
  type EntryErrorCode,
  type ErrorCode,
  type Preflight,
} from './schemas.js';

const ENTRY_ERRORS: ReadonlySet<string> = new Set(ENTRY_ERROR_CODES);

export interface ServerOptions {
  runtime: Runtime;
  evaluator: Evaluator;
  /** Accepted bearer tokens; null: no token needed. */
  tokens?: readonly string[] | null;
  /** How long one request may wait for its evaluations (default 30 s). */
  requestTimeoutMs?: number;
  /** The deadline of one POST /v1/audit (default 120 s). */
  auditTimeoutMs?: number;
  /** The largest request body accepted, in bytes (default 64 KiB; POST /v1/audit: 10 MiB). */
  bodyLimit?: number;
  /** pino's level ('silent' for none; default 'info'), written to `logStream` (default stderr). */
  logLevel?: string;
  logStream?: NodeJS.WritableStream;
  /** Per-client rate limit: at most `max` requests per `windowMs` from one address (default none). */
  rateLimit?: { max: number; windowMs: number } | null;
  /** Browser origins allowed to read the answers (CORS), compared exactly; none by default (no CORS header at all). */
  corsOrigins?: readonly string[];
  /**
   * The Host headers answered (front/allowed-host.ts); default loopback names only (`localhost`,
   * `127.x.x.x`, `[::1]`) — a DNS-rebinding page sends its own (docs/serve.md, "Safety").
   */
  hosts?: HostPolicy;
  /** Open connections at most (default 512, front/connections.ts); a connection past it is closed unanswered. */
  maxConnections?: number;
  /** Milliseconds for response_time_ms (default Date.now). */
  nowMs?: () => number;
}

/** An answer with a code and status of the contract's error shape. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    // An option's value the target cannot take is the command line's usage error (`bad-option`).
    const code: ErrorCode = issue?.path[0] === INCLUDE_PACKAGE_PARAMETER ? 'bad-option' : 'bad-request';
    throw new HttpError(400, code, `${where}${issue?.message ?? 'invalid request'}`);
  }
  return parsed.data;
}

/** What `read` gives, a target that is bad input being HTTP 400 `bad-target`. */
function asTargetInput<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof TargetError) throw new HttpError(400, 'bad-target', error.message);
    throw error;
  }
}

/** The command line's parser: anything else is a 400 before any request goes out. */
const targetOf = (input: string): Target => asTargetInput(() => parseTarget(input));
/** The `caller=` parameter's target: a refused one is named as the caller's (`caller: the caller …`), not the target's. */
const callerOf = (input: string): Target =>
  asTargetInput(() => {
    try {
      return parseTarget(input);
    } catch (error) {
      if (error instanceof TargetError) throw new TargetError(`caller: ${error.message.replace(/^the target\b/, 'the caller')}`);
      throw error;
    }
  });
/** The history key of a target, or of a repository with its package folded in (`github:o/r+npm:name`). */
const historyKeyFor = (input: string): string => asTargetInput(() => historyKeyOf(input));

/** The include_package= choice for these targets: a 400 `bad-option` when none of them is a repository (nothing is evaluated). */
function includePackageChoiceOf(text: string | undefined, targets: readonly Target[]): IncludePackage | undefined {
  const choice = includePackageOf(text);
  if (choice !== undefined && !includePackageApplies(targets)) throw new HttpError(400, 'bad-option', `${INCLUDE_PACKAGE_PARAMETER}: ${INCLUDE_PACKAGE_NEEDS_REPOSITORY}`);
  return choice;
}

/**
 * An outcome the caller has to fix — an `mcp:` word naming several servers, a named package that
 * does not verify — is the command line's usage error: a 400 `bad-target` or `bad-option`, not an answer.
 */
function honoured(outcome: TargetOutcome): TargetOutcome {
  const refused = refusedRequest([outcome]);
  if (refused !== null) throw new HttpError(400, refused.code, refused.message);
  return outcome;
}

/** Errors of the evaluator as HTTP answers. */
function evaluationError(error: unknown): unknown {
  if (error instanceof QueueFullError) return new HttpError(429, 'queue-full', error.message, { 'retry-after': String(error.retryAfterS) });
  if (error instanceof CallerDeadlineError) return new HttpError(504, 'deadline', error.message);
  return error;
}

/** Send JSON with an ETag of its bytes and a freshness; 304 when the caller has it already. */
function sendCached(request: FastifyRequest, reply: FastifyReply, body: string, maxAgeS: number): FastifyReply {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', `private, max-age=${maxAgeS}`);
  if (noneMatchHas(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}


/** A request for /healthz, with or without a query (a probe's cache-buster): never limited, no token needed. */
const isHealthProbe = (request: FastifyRequest): boolean => request.url.split('?', 1)[0] === '/healthz';

/** The methods of each route (a GET route answers HEAD too), for a 405's `Allow`. */
const ROUTE_METHODS: ReadonlyMap<string, string> = new Map([
  ...['/healthz', '/openapi.json', '/v1/preflight', '/v1/report', '/v1/history'].map((path) => [path, 'GET, HEAD'] as const),
  ...['/v1/preflight/batch', '/v1/audit'].map((path) => [path, 'POST'] as const),
]);

/** The 415 answer's message: what a body must be. */
const UNSUPPORTED_MEDIA_TYPE = 'the request body must be JSON, sent with content-type: application/json';

export function buildServer(options: ServerOptions): FastifyInstance {
  const { runtime, evaluator } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const nowMs = options.nowMs ?? Date.now;
  const auditTimeoutMs = options.auditTimeoutMs ?? 120_000;
  const authorized = bearerChecker(options.tokens ?? null);
  const hosts: HostPolicy = options.hosts ?? { kind: 'loopback' };
  // A request pipelined past the connection's cap is answered by Node itself: in the contract's error shape too.
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    // A request not received whole within the deadline (a body sent a byte at a time) is ended.
    ...withHostOptions(receiveTimeout(requestTimeoutMs)),
    logger: {
      level: options.logLevel ?? 'info',
      stream: options.logStream ?? process.stderr,
      // Credentials never reach a log line.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: '[redacted]' },
      // The path, not the query string: a credential put there is not logged either.
      serializers: { req: requestLogValue },
    },
    return503OnClosing: true,
    maxRequestsPerSocket: MAX_REQUESTS_PER_SOCKET,
    forceCloseConnections: 'idle',
    // A request HTTP cannot parse (headers over Node's limit, a Content-Length that lies) gets the contract's error shape too.
    clientErrorHandler: clientErrorAnswer((_status, message) => JSON.stringify({ error: { code: 'bad-request', message } })),
  });

  // Every body is JSON (docs/serve.md): without Fastify's text/plain parser a body of any other
  // media type — or with none — is refused as 415 before it reaches a route.
  app.removeContentTypeParser('text/plain');
  answerExpectation(app.server, JSON.stringify({ error: { code: 'bad-request', message: 'the Expect header asks for what nerq does not do (it takes 100-continue only)' } }));
  boundJsonDepth(app);
  boundConnections(app, options.maxConnections);
  refuseConnect(app, 'GET, HEAD, POST', { error: { code: 'method-not-allowed', message: 'CONNECT is not served: nerq proxies nothing' } } satisfies z.infer<typeof ErrorSchema>);

  if (options.rateLimit) {
    // Before the token check: guessing tokens is limited too. /healthz is not (probes).
    void app.register(rateLimit, {
      max: options.rateLimit.max,
      timeWindow: options.rateLimit.windowMs,
      hook: 'onRequest',
      allowList: (request) => isHealthProbe(request),
      errorResponseBuilder: (_request, context) => new HttpError(429, 'rate-limited', `too many requests from this client; retry after ${Math.ceil(context.ttl / 1000)} s`),
    });
  }

  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
    // Answered before the token check: a browser's preflight (OPTIONS) carries no credentials.
    void app.register(cors, {
      origin: [...options.corsOrigins],
      methods: ['GET', 'POST'],
      allowedHeaders: ['authorization', 'content-type', 'if-none-match'],
      exposedHeaders: ['etag', 'retry-after'],
      maxAge: 600,
    });
  }

  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
  });

  app.addHook('onRequest', async (request) => {
    if (closing) throw new HttpError(503, 'shutting-down', 'the server is shutting down');
    // Before the rate limit and the token: a page that rebound its name to this loopback server gets nothing, /healthz included.
    const refusal = hostRefusal(hosts, { host: request.headers.host, hostLines: hostLines(request.raw.rawHeaders), url: request.raw.url, httpVersion: request.raw.httpVersion });
    if (refusal === 'missing') throw new HttpError(400, 'bad-request', 'an HTTP/1.1 request needs a Host header');
    if (refusal === 'invalid') throw new HttpError(400, 'bad-request', 'a request takes one Host header, a host name or address with an optional port');
    if (refusal === 'forbidden') {
      throw new HttpError(403, 'forbidden-host', 'the Host header is neither a loopback name (localhost, 127.x.x.x, [::1]) nor an --allowed-host');
    }
    // A page of another site (a browser sends its Origin) may not make this server fetch for it; a --cors-origin may.
    const origin = request.headers.origin;
    if (hosts.kind !== 'any' && origin !== undefined && !isLoopbackOrigin(origin) && !(options.corsOrigins ?? []).includes(origin)) {
      throw new HttpError(403, 'forbidden-origin', 'the Origin is neither a loopback page nor a --cors-origin');
    }
  });
  // After the rate limit (an onRequest hook of each route), before the body is read.
  app.addHook('preParsing', async (request) => {
    if (isHealthProbe(request)) return;
    if (!authorized(request.headers.authorization)) {
      throw new HttpError(401, 'unauthorized', 'a valid bearer token is required', { 'www-authenticate': 'Bearer' });
    }
    // A compressed body is not decoded, so never read as if it were not encoded (a GET has no body to read).
    if (request.method === 'POST' && namesBodyCoding(request.headers['content-encoding'])) throw new HttpError(415, 'unsupported-media-type', ENCODED_BODY_MESSAGE);
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    let failure: HttpError;
    if (error instanceof HttpError) failure = error;
    else {
      const fastifyError = error as { statusCode?: number; code?: string; message?: string };
      const status = fastifyError.statusCode ?? 500;
      const code: ErrorCode =
        status === 413 ? 'body-too-large' : status === 415 ? 'unsupported-media-type' : status === 503 ? 'shutting-down' : status >= 500 ? 'internal' : 'bad-request';
      const message =
        status >= 500 ? 'internal error' : status === 415 ? UNSUPPORTED_MEDIA_TYPE : (fastifyError.message ?? 'bad request').split('\n')[0]!;
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      failure = new HttpError(status, code, message);
    }
    // A message may quote the request (an unknown query key): one sanitised line.
    reply.code(failure.status).headers(failure.headers).send({ error: { code: failure.code, message: echoSafe(failure.message) } } satisfies z.infer<typeof ErrorSchema>);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A route asked with a method it does not take (HEAD or OPTIONS of a POST route, GET of one): 405 naming those it takes.
    const allow = ROUTE_METHODS.get(path);
    if (allow !== undefined) {
      reply.code(405).header('allow', allow).send({ error: { code: 'method-not-allowed', message: `${path} takes ${allow}` } });
      return;
    }
    reply.code(404).send({ error: { code: 'not-found', message: `no route ${request.method} ${path.slice(0, 200)}` } });
  });

  /**
   * A request's signal: its deadline (`ms`), or its client closing the connection before the
   * answer — either ends the waiting, and an audit's requests in flight.
   */
  const deadline = (reply: FastifyReply, ms = requestTimeoutMs): AbortSignal => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    return AbortSignal.any([AbortSignal.timeout(ms), gone.signal]);
  };
  /**
   * How long a client may keep an answer: what is left of the evaluator's reuse window for the
   * evaluations it was made from (the server answers the same until then; docs/serve.md, "Under load").
   */
  const maxAgeOf = (targets: ReadonlyArray<{ target: Target; choice?: EvaluationChoice }>): number =>
    Math.floor(Math.min(...targets.map((t) => evaluator.freshFor(t.target, t.choice))) / 1000);
  const evaluate = async (target: Target, signal: AbortSignal, choice: EvaluationChoice = {}) => {
    try {
      return honoured(await evaluator.evaluate(target, signal, choice));
    } catch (error) {
      throw evaluationError(error);
    }
  };

  /** The history the report belongs to: with a package folded in, that fold's own (report/previous.ts). */
  const historyOf = (report: TargetOutcome['report'], limit?: number) => {
    const store = runtime.session.store;
    return store === null ? [] : historyPoints(readHistory(store, reportHistoryKey(report), limit));
  };

  /** The alternatives of an evaluated target, or why there are none; never fails the answer for a full queue or the deadline. */
  const alternativesFor = async (target: Target, outcome: TargetOutcome, signal: AbortSignal, choice: EvaluationChoice): Promise<PreflightInput['alternatives']> => {
    try {
      const { result, peers } = await evaluator.compare(target, outcome, { peers: PREFLIGHT_PEERS, signal, ...choice });
      return preflightAlternatives(result, peers);
    } catch (error) {
      if (error instanceof QueueFullError) return { list: [], unavailable: { code: 'queue-full', reason: error.message } };
      if (error instanceof CallerDeadlineError) return { list: [], unavailable: { code: 'deadline', reason: error.message } };
      throw error;
    }
  };

  interface PreflightRequest {
    input: string;
    caller?: string | undefined;
    includes: ReadonlySet<string>;
    /** include_package= (for the target, not the caller); dropped for a target that is not a repository. */
    includePackage: IncludePackage | undefined;
    startedMs: number;
    signal: AbortSignal;
  }

  const preflight = async ({ input, caller, includes, includePackage, startedMs, signal }: PreflightRequest): Promise<Preflight> => {
    const target = targetOf(input);
    const callerTarget = caller === undefined ? undefined : targetOf(caller);
    const choice: EvaluationChoice = { includePackage: includePackageFor(target, includePackage) };
    const [outcome, callerOutcome] = await Promise.all([evaluate(target, signal, choice), callerTarget === undefined ? undefined : evaluate(callerTarget, signal)]);
    const answer = preflightOf({
      target: input,
      report: outcome.report,
      caller: callerOutcome === undefined ? undefined : { input: caller!, report: callerOutcome.report },
      history: includes.has('history') ? historyOf(outcome.report) : undefined,
      alternatives: includes.has('alternatives') ? await alternativesFor(target, outcome, signal, choice) : undefined,
      startedMs,
      nowMs: nowMs(),
    });
    if (choice.includePackage !== undefined) answer.included_package = outcome.report.includedPackage ?? null;
    return answer;
  };

  // The routes load after the rate limit, which attaches itself to the routes declared after it.
  void app.register(async (api) => {
    api.get('/healthz', async () => ({ status: 'ok' as const, version: VERSION, evaluations: evaluator.stats(), down: [...runtime.activity.down()] }));

    api.get('/openapi.json', async () => openApiDocument());

    api.get('/v1/preflight', async (request, reply) => {
      const startedMs = nowMs();
      const query = parseWith(PreflightQuerySchema, request.query);
      // Parse both before anything is evaluated: a bad caller sends nothing either.
      const target = targetOf(query.target);
      if (query.caller !== undefined) callerOf(query.caller);
      const includePackage = includePackageChoiceOf(query.include_package, [target]);
      const answer = await preflight({ input: query.target, caller: query.caller, includes: includesOf(query.include), includePackage, startedMs, signal: deadline(reply) });
      const { response_time_ms: _time, ...stable } = answer;
      // The ETag covers the answer without its timing, so an unchanged evaluation revalidates.
      const etag = `"${createHash('sha256').update(JSON.stringify(stable)).digest('base64url').slice(0, 27)}"`;
      const targets = [{ target, choice: { includePackage } }, ...(query.caller === undefined ? [] : [{ target: callerOf(query.caller) }])];
      reply.header('etag', etag).header('cache-control', `private, max-age=${maxAgeOf(targets)}`);
      if (noneMatchHas(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return answer;
    });

    api.post('/v1/preflight/batch', async (request, reply) => {
      const startedMs = nowMs();
      const query = parseWith(BatchQuerySchema, request.query);
      const includes = includesOf(query.include);
      const body = parseWith(BatchRequestSchema, request.body);
      // Like `nerq check a b --include-package`: it needs one repository among the targets, and applies to those.
      // Every target parses before anything is evaluated; a refused one is named by its place.
      const includePackage = includePackageChoiceOf(query.include_package, asTargetInput(() => parseTargetList(body.targets)));
      const signal = deadline(reply);
      // A target the queue refused, or still under way at the deadline, is an entry saying so; the others are answered.
      const settled = await Promise.allSettled(body.targets.map((input) => preflight({ input, includes, includePackage, startedMs, signal })));
      const failures = settled.map((s) => (s.status === 'rejected' ? s.reason : null));
      for (const failure of failures) if (failure !== null && !(failure instanceof HttpError && ENTRY_ERRORS.has(failure.code))) throw failure;
      if (failures.every((f) => f instanceof HttpError)) throw failures[0]!;
      const results = settled.map((s, i) => {
        if (s.status === 'fulfilled') return s.value;
        const failure = s.reason as HttpError;
        const retryAfter = failure.headers['retry-after'];
        return unevaluatedPreflight({
          target: body.targets[i]!,
          ecosystem: targetOf(body.targets[i]!).ecosystem,
          error: { code: failure.code as EntryErrorCode, message: failure.message, ...(retryAfter === undefined ? {} : { retry_after_s: Number(retryAfter) }) },
          startedMs,
          nowMs: nowMs(),
        });
      });
      return { results, count: results.length, response_time_ms: Math.max(0, Math.round(nowMs() - startedMs)) };
    });

    api.get('/v1/report', async (request, reply) => {
      const query = parseWith(TargetQuerySchema, request.query);
      const target = targetOf(query.target);
      const choice: EvaluationChoice = { includePackage: includePackageChoiceOf(query.include_package, [target]) };
      const outcome = await evaluate(target, deadline(reply), choice);
      // Byte for byte what `nerq check <target> --json [--include-package[ name]]` prints.
      return sendCached(request, reply, renderJson(outcome.report, { pretty: true }), maxAgeOf([{ target, choice }]));
    });

    // The body holds the file as a JSON string: room for the content and its escapes.
    api.post('/v1/audit', { bodyLimit: 2 * MAX_AUDIT_BYTES }, async (request, reply) => {
      const body = parseWith(AuditRequestSchema, request.body);
      try {
        const input = { ...body, maxBytes: MAX_AUDIT_BYTES };
        // Bad input is a 400 whether or not an audit runs; then one audit at a time, its packages within --concurrency (docs/serve.md, "Under load").
        checkAuditContent(input);
        const report = await evaluator.audit((concurrency) => auditContent(runtime, input, { gate: DEFAULT_GATE, signal: deadline(reply, auditTimeoutMs), concurrency }));
        // What `nerq audit --file <name> --json` prints.
        return reply.type('application/json; charset=utf-8').send(renderAuditJson(report));
      } catch (error) {
        if (error instanceof AuditInputError) throw new HttpError(400, 'bad-input', error.message);
        throw evaluationError(error);
      }
    });

    api.get('/v1/history', async (request) => {
      const query = parseWith(HistoryQuerySchema, request.query);
      const key = historyKeyFor(query.target);
      const limit = query.limit ?? 50;
      const store = runtime.session.store;
      const { rows, olderNotShown } = store === null ? { rows: [], olderNotShown: false } : readHistoryPage(store, key, limit);
      return { target: key, evaluations: historyPoints(rows), olderNotShown };
    });
  });

  return app;
}

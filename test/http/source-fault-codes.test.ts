/**
 * Every source whose failures used to fall through to `unclassified` gives the code of the
 * failure's kind (docs/scoring.md §11): against the fixture server's faults (a timeout, a reset
 * connection, HTTP 500, invalid JSON, JSON of the wrong shape), and when something it calls
 * throws (src/sources/http/thrown-code.ts) — only an unexpected error stays `unclassified`.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { thrownFailureCode } from '../../src/sources/http/thrown-code.js';
import type { SourceUnavailableCode } from '../../src/model/source-codes.js';
import { resolveDependencies } from '../../src/sources/npm/dependencies.js';
import { fetchAttestations } from '../../src/sources/npm/attestations.js';
import { fetchPypiDownloads, resolvePypiDependencies } from '../../src/sources/pypi/project.js';
import { fetchProvenance } from '../../src/sources/pypi/provenance.js';
import { fetchSimple } from '../../src/sources/pypi/simple.js';
import { fetchVulnerabilities } from '../../src/sources/osv/query.js';
import { thrownGithubResult } from '../../src/sources/github/source.js';
import { expectNoUnexpected, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';

/** A source asked once, its failure code (null when it answered). */
type Ask = (http: HttpClient, server: FixtureServer) => Promise<SourceUnavailableCode | null>;

const codeOf = (result: { status: string; code?: SourceUnavailableCode }): SourceUnavailableCode | null =>
  result.status === 'unavailable' ? (result.code ?? null) : null;

/** Each source, the route prefix it asks under, and whether a body it cannot read is an answer of its own. */
const SOURCES: ReadonlyArray<{ name: string; method: 'GET' | 'POST'; prefix: string; ask: Ask; readsBadBodies?: true }> = [
  {
    name: 'npm dependencies',
    method: 'GET',
    prefix: '/npm/',
    ask: async (http, server) => codeOf(await resolveDependencies(http, { registryFor: () => server.url('npm') }, { 'left-pad': '^1.0.0' })),
  },
  {
    name: 'npm attestations',
    method: 'GET',
    prefix: '/npm/',
    // A listed endpoint answering a body it cannot read is a hollow listing, not an unavailable source.
    readsBadBodies: true,
    ask: async (http, server) => codeOf(await fetchAttestations(http, server.url('npm'), 'left-pad', '1.3.0')),
  },
  {
    name: 'PyPI dependencies',
    method: 'GET',
    prefix: '/pypi/',
    ask: async (http, server) => codeOf(await resolvePypiDependencies(http, server.url('pypi'), [{ name: 'idna', specifier: '>=2', marker: null }])),
  },
  {
    name: 'PyPI provenance',
    method: 'GET',
    prefix: '/pypi/',
    ask: async (http, server) => codeOf(await fetchProvenance(http, server.url('pypi'), { project: 'x', version: '1.0', filename: 'x-1.0.tar.gz' })),
  },
  {
    name: 'pypistats',
    method: 'GET',
    prefix: '/pypistats/',
    ask: async (http, server) => codeOf(await fetchPypiDownloads(http, server.url('pypistats'), 'x')),
  },
  {
    name: 'PyPI Simple API',
    method: 'GET',
    prefix: '/pypi/',
    ask: async (http, server) => {
      const result = await fetchSimple(http, server.url('pypi'), 'x');
      return result.ok ? null : result.code;
    },
  },
  {
    name: 'OSV',
    method: 'POST',
    prefix: '/osv/',
    ask: async (http, server) =>
      codeOf(await fetchVulnerabilities(http, server.url('osv'), { ecosystem: 'npm', target: { name: 'left-pad', version: '1.3.0' }, dependencies: [{ name: 'a', version: '1.0.0' }] })),
  },
];

const FAULTS: ReadonlyArray<{ fault: string; response: FixtureResponse; code: SourceUnavailableCode; body?: true }> = [
  // Well past the 300 ms headers timeout, which undici checks on a coarse timer (up to a second late).
  { fault: 'a timeout', response: { delayMs: 5000 }, code: 'timeout' },
  { fault: 'a reset connection', response: { reset: true }, code: 'network-error' },
  { fault: 'HTTP 500', response: { status: 500 }, code: 'http-status' },
  { fault: 'invalid JSON', response: { malformed: true }, code: 'bad-answer', body: true },
  { fault: 'JSON of the wrong shape', response: { body: [{ unexpected: true }] }, code: 'bad-answer', body: true },
];

describe('a fixture server fault → the code of its kind', () => {
  let server: FixtureServer;
  let http: HttpClient;
  beforeEach(async () => {
    server = await startFixtureServer();
    http = createHttpClient({ timeouts: { connectMs: 2000, headersMs: 300, bodyMs: 300 }, retry: { baseDelayMs: 1 }, sleep: async () => {} });
  });
  afterEach(async () => {
    expectNoUnexpected(server);
    await http.close({ abandon: true });
    await server.close();
  });

  const cases = SOURCES.flatMap((source) =>
    FAULTS.filter((f) => !(f.body === true && source.readsBadBodies === true)).map((f) => ({ ...source, ...f, label: `${source.name}: ${f.fault}` })),
  );
  test.each(cases)('$label → $code', async ({ method, prefix, ask, response, code }) => {
    server.fallback(method, prefix, response);
    expect(await ask(http, server)).toBe(code);
  });
});

/** A client whose every request throws `error` (the HTTP layer's contract broken, or a bug below it). */
function throwing(error: unknown): HttpClient {
  return {
    request: () => Promise.reject(error),
    close: async () => {},
  };
}

const withCode = (code: string) => Object.assign(new Error('failed'), { code });

const THROWN: ReadonlyArray<{ kind: string; error: unknown; code: SourceUnavailableCode }> = [
  { kind: 'a reset connection', error: withCode('ECONNRESET'), code: 'network-error' },
  { kind: 'a refused connection', error: withCode('ECONNREFUSED'), code: 'network-error' },
  { kind: 'a DNS failure', error: withCode('ENOTFOUND'), code: 'network-error' },
  { kind: 'a TLS failure', error: withCode('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), code: 'network-error' },
  { kind: "undici's wrapper of a socket error", error: new TypeError('fetch failed', { cause: withCode('ECONNRESET') }), code: 'network-error' },
  { kind: 'a headers timeout', error: withCode('UND_ERR_HEADERS_TIMEOUT'), code: 'timeout' },
  { kind: 'an abort', error: new DOMException('aborted', 'AbortError'), code: 'timeout' },
  { kind: 'a deadline signal', error: new DOMException('timed out', 'TimeoutError'), code: 'timeout' },
  { kind: 'a decoded body over its cap', error: withCode('ERR_BUFFER_TOO_LARGE'), code: 'too-large' },
  { kind: 'a body that is not JSON', error: new SyntaxError('Unexpected token'), code: 'bad-answer' },
  { kind: 'an HTTP failure thrown on', error: { ok: false, kind: 'status', status: 429, reason: 'HTTP 429' }, code: 'rate-limited' },
  { kind: 'an error with an HTTP status', error: Object.assign(new Error('refused'), { status: 403 }), code: 'auth-required' },
  { kind: 'a URL that cannot be built', error: withCode('ERR_INVALID_URL'), code: 'not-asked' },
  { kind: 'an unexpected error', error: new RangeError('a bug'), code: 'unclassified' },
];

describe('a thrown error → the code of its kind', () => {
  const cases = SOURCES.flatMap((source) => THROWN.map((t) => ({ ...source, ...t, label: `${source.name}: ${t.kind}` })));
  test.each(cases)('$label → $code', async ({ ask, error, code }) => {
    const server = { url: (prefix?: string) => `http://127.0.0.1:9/${prefix ?? ''}` } as FixtureServer;
    expect(await ask(throwing(error), server)).toBe(code);
  });

  test.each(THROWN)('GitHub: $kind → $code', ({ error, code }) => {
    expect(thrownGithubResult(error, 'GitHub source: unexpected error')).toEqual({ status: 'unavailable', reason: 'GitHub source: unexpected error', code });
  });

  test('a body of the wrong shape (a schema failure) is a bad answer', () => {
    const zodError = z.object({ a: z.string() }).safeParse({}).error;
    expect(thrownFailureCode(zodError)).toBe('bad-answer');
  });

  test('a cycle of causes ends (unclassified)', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(thrownFailureCode(a)).toBe('unclassified');
  });

  test('values that are not errors are unclassified', () => {
    for (const value of [undefined, null, 'ECONNRESET', 42, { status: 200 }, { code: 'unclassified' }]) expect(thrownFailureCode(value)).toBe('unclassified');
  });
});

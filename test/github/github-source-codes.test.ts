/**
 * The GitHub source names why it is unavailable as a code (`sources[].code`, docs/scoring.md
 * §11), over REST (no token) and GraphQL (a token): each failure of the repository lookup
 * carries the HTTP layer's kind through to the source's result.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fetchGithubFacts, githubAuthFor } from '../../src/sources/github/source.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import { createHostHealth } from '../../src/sources/http/host-health.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import type { SourceUnavailableCode } from '../../src/model/source-codes.js';
import { startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { contextFor, endpointsFor, TOKEN } from './helpers.js';

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };
const REPO = '/github/repos/acme/widget';
const GRAPHQL = '/github/graphql';

let server: FixtureServer;
let http: HttpClient | undefined;

beforeEach(async () => {
  server = await startFixtureServer();
});

afterEach(async () => {
  await http?.close();
  http = undefined;
  await server.close();
});

/** A client with short timeouts, no real sleeps and a record of hosts found down. */
function client(token: boolean): HttpClient {
  http = createHttpClient({
    timeouts: { connectMs: 2000, headersMs: 150, bodyMs: 2000 },
    retry: { baseDelayMs: 1 },
    sleep: async () => {},
    health: createHostHealth(),
    ...(token ? { authFor: githubAuthFor(endpointsFor(server), TOKEN) } : {}),
  });
  return http;
}

async function codeOf(token: boolean, closedPort = false): Promise<SourceUnavailableCode | null> {
  const c = client(token);
  let endpoints = endpointsFor(server);
  if (closedPort) {
    // A port nothing listens on: the connection is refused (the host is down from then on).
    const closed = await startFixtureServer();
    const port = closed.port;
    await closed.close();
    endpoints = { ...endpoints, githubApi: `http://127.0.0.1:${port}/github`, githubGraphql: `http://127.0.0.1:${port}/github/graphql` };
  }
  const ctx = contextFor(server, c, token ? TOKEN : null, endpoints);
  const first = await fetchGithubFacts(ctx, WIDGET, { kind: 'target' });
  if (closedPort) {
    expect(first).toMatchObject({ status: 'unavailable', code: token ? 'host-down' : 'network-error' });
    // Asked again in the same run: the host is not asked, it is down.
    const again = await fetchGithubFacts(ctx, WIDGET, { kind: 'target' });
    return again.status === 'unavailable' ? again.code : null;
  }
  return first.status === 'unavailable' ? first.code : null;
}

const SLOW: FixtureResponse = { delayMs: 3000, body: {} };

describe('GitHub REST: the repository lookup failing', () => {
  test.each<[string, SourceUnavailableCode, FixtureResponse | 'closed']>([
    ['no answer in time', 'timeout', SLOW],
    ['a server error (500)', 'http-status', { status: 500 }],
    ['a bad gateway (502)', 'http-status', { status: 502 }],
    ['a rejected token (401)', 'auth-required', { status: 401, body: { message: 'Bad credentials' } }],
    ['a refusal that is not a rate limit (403)', 'auth-required', { status: 403, body: { message: 'Request forbidden by administrative rules.' } }],
    ['malformed JSON', 'bad-answer', { malformed: true }],
    ['a wrong shape', 'bad-answer', { body: { full_name: 'acme/widget', private: false } }],
    ['a host found down earlier in the run', 'host-down', 'closed'],
  ])('%s → %s', async (_label, code, response) => {
    if (response !== 'closed') server.expect('GET', REPO, response);
    expect(await codeOf(false, response === 'closed')).toBe(code);
  });
});

describe('GitHub GraphQL: the query failing', () => {
  test.each<[string, SourceUnavailableCode, FixtureResponse | 'closed', FixtureResponse | null]>([
    // GraphQL's timeout or 5xx shrinks the batch to REST; REST's failure is the code.
    ['no answer in time', 'timeout', SLOW, SLOW],
    ['a server error (502), REST too (500)', 'http-status', { status: 502 }, { status: 500 }],
    ['a rejected token (401)', 'auth-required', { status: 401, body: { message: 'Bad credentials' } }, null],
    ['a refusal that is not a rate limit (403), REST too', 'auth-required', { status: 403, body: { message: 'Forbidden' } }, { status: 403, body: { message: 'Forbidden' } }],
    ['malformed JSON', 'bad-answer', { malformed: true }, null],
    ['errors of the wrong shape', 'bad-answer', { body: { errors: 'boom' } }, null],
    ['a host found down earlier in the run', 'host-down', 'closed', null],
  ])('%s → %s', async (_label, code, graphql, rest) => {
    if (graphql !== 'closed') server.expect('POST', GRAPHQL, graphql);
    if (rest !== null) server.expect('GET', REPO, rest);
    expect(await codeOf(true, graphql === 'closed')).toBe(code);
  });
});

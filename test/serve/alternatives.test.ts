/**
 * `include=alternatives` on the preflight and the batch (docs/serve.md, "Alternatives"), in
 * process against the fixture server: peers found by npm's search (answers built from the
 * recorded one) and the curated replacement list, evaluated through the server's evaluator
 * (coalesced, reused, refused when the queue is full), bounded by the request's deadline; a
 * failing search or a full queue is a coded reason beside an empty list, never a made-up value.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BatchResponseSchema, ErrorSchema, PreflightSchema, PREFLIGHT_PEERS } from '../../src/serve/schemas.js';
import { expectPackage } from '../cli/helpers.js';
import { serveOsv } from '../cli/audit-helpers.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { searchAnswer, searchRequests, serveSearch } from '../support/npm-search.js';
import { CURATED, PEERS, servePeers } from '../support/peers.js';
import { testApp, type TestApp } from './support.js';
import { serveEntryWithSearchDown } from '../cli/mcp-helpers.js';

let server: FixtureServer;
const apps: TestApp[] = [];
const open = (options?: Parameters<typeof testApp>[1]) => {
  const made = testApp(server, options);
  apps.push(made);
  return made;
};

useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'request');
  expectPackage(server, 'chalk');
  servePeers(server);
  serveOsv(server, []);
  // A search that answers after 2 s, for the deadline.
  server.route('GET', '/slow-search/-/v1/search', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(searchAnswer(PEERS)));
    }, 2_000);
  });
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const packumentRequests = (name: string) => server.requests.filter((r) => r.method === 'GET' && r.path === `/npm/${name}`).length;

describe('include=alternatives', () => {
  it('names the higher-scoring peers (name, score, page), coded null when compared; shared by concurrent requests and reused', async () => {
    serveSearch(server, searchAnswer(PEERS));
    const { app, evaluator } = open();
    const searches = searchRequests(server).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: '/v1/preflight?target=request&include=alternatives' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    // One search and one evaluation per peer for all five requests.
    expect(searchRequests(server).slice(searches)).toEqual([{ text: 'keywords:http', size: '25' }]);
    expect(packumentRequests('nerq-peer-fetch')).toBe(1);

    const body = answers[0]!.json() as Record<string, unknown>;
    expect(Object.keys(body).at(-1)).toBe('alternatives_unavailable');
    const answer = PreflightSchema.strict().parse(body);
    expect(answer.recommendation).toBe('DENY');
    expect(answer.alternatives_unavailable).toBeNull();
    expect(answer.alternatives.length).toBeGreaterThan(0);
    expect(answer.alternatives.length).toBeLessThanOrEqual(3);
    for (const alternative of answer.alternatives) {
      expect(alternative.trust_score!).toBeGreaterThan(answer.target_trust!);
      // The package name, not name@version; a page about it: the synthetic peers declare no
      // repository, so a curated replacement has its dataset's page and the others none (null).
      expect(alternative.name).toMatch(/^(nerq-peer-fetch|ofetch|ky)$/);
      expect(alternative.url).toBe(CURATED.includes(alternative.name) ? 'https://e18e.dev/docs/replacements/fetch' : null);
    }
    expect(answer.alternatives.map((a) => a.name)).not.toContain('nerq-peer-old');
    expect(answer.alternatives.some((a) => CURATED.includes(a.name))).toBe(true);
    const scores = answer.alternatives.map((a) => a.trust_score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const other of answers.slice(1)) expect(PreflightSchema.parse(other.json()).alternatives).toEqual(answer.alternatives);

    // A later request is answered by the finished comparison: no search, no evaluation.
    const evaluations = evaluator.stats().evaluations;
    const again = PreflightSchema.parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=request&include=history,alternatives' })).json());
    expect(again.alternatives).toEqual(answer.alternatives);
    expect(again.history).toHaveLength(1);
    expect(searchRequests(server).length).toBe(searches + 1);
    expect(evaluator.stats().evaluations).toBe(evaluations);
    // At most PREFLIGHT_PEERS from the search, besides the curated ones.
    expect(evaluations).toBeLessThanOrEqual(1 + PREFLIGHT_PEERS + CURATED.length);
  });

  it('without the opt-in the answer stays as it was: no search, alternatives empty, no reason member', async () => {
    serveSearch(server, searchAnswer(PEERS));
    const { app } = open();
    const searches = searchRequests(server).length;
    const body = (await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-alt-target' })).json() as Record<string, unknown>;
    expect(body.alternatives).toEqual([]);
    expect('alternatives_unavailable' in body).toBe(false);
    expect(searchRequests(server).length).toBe(searches);
    for (const url of ['/v1/preflight?target=chalk&include=peers', '/v1/preflight?target=chalk&include=alternatives,', '/v1/preflight/batch?include=everything']) {
      const res = await app.inject({ method: url.includes('batch') ? 'POST' : 'GET', url, ...(url.includes('batch') ? { payload: { targets: ['chalk'] } } : {}) });
      expect(res.statusCode, url).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code).toBe('bad-request');
    }
  });

  it('search down: an empty list and search-unavailable; the curated replacements are still named', async () => {
    serveSearch(server, { status: 503 });
    const { app } = open();
    const plain = PreflightSchema.parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-alt-target&include=alternatives' })).json());
    expect(plain.alternatives).toEqual([]);
    expect(plain.alternatives_unavailable).toMatchObject({ code: 'search-unavailable', source_code: 'http-status', reason: expect.stringMatching(/503/) });
    expect(plain.target_trust).not.toBeNull();

    const deprecated = PreflightSchema.parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=request&include=alternatives' })).json());
    expect(deprecated.alternatives_unavailable?.code).toBe('search-unavailable');
    expect(deprecated.alternatives.map((a) => a.name).sort()).toEqual(['ky', 'ofetch']);
  });

  it('an MCP Registry entry: its peers are asked of the registry search (not npm\'s); the search down is search-unavailable', async () => {
    const name = serveEntryWithSearchDown(server);
    const searches = searchRequests(server).length;
    const { app } = open();
    const answer = PreflightSchema.parse((await app.inject({ method: 'GET', url: `/v1/preflight?target=mcp:${name}&include=alternatives` })).json());
    expect(answer.target_trust).not.toBeNull();
    expect(answer.alternatives).toEqual([]);
    expect(answer.alternatives_unavailable).toMatchObject({ code: 'search-unavailable', source_code: 'host-down', reason: expect.stringMatching(/^MCP Registry search: .*503/) });
    expect(server.requests.some((r) => r.path.startsWith('/mcp-registry/v0.1/servers?search=weather'))).toBe(true);
    expect(searchRequests(server).length).toBe(searches);
  });

  it("a full queue and the request's deadline are coded reasons beside the target's own answer", async () => {
    serveSearch(server, searchAnswer(PEERS));
    // The queue holds one evaluation: the target's own finishes, its peers are refused.
    const busy = open({ evaluator: { maxPending: 1, concurrency: 1 } });
    const refused = await busy.app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-alt-target&include=alternatives' });
    expect(refused.statusCode).toBe(200);
    const answer = PreflightSchema.parse(refused.json());
    expect(answer.target_trust).not.toBeNull();
    expect(answer.alternatives).toEqual([]);
    expect(answer.alternatives_unavailable?.code).toBe('queue-full');

    const slow = open({ env: { NERQ_NPM_SEARCH_URL: server.url('slow-search') }, server: { requestTimeoutMs: 1_000 } });
    const late = await slow.app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-alt-target&include=alternatives' });
    expect(late.statusCode).toBe(200);
    const lateAnswer = PreflightSchema.parse(late.json());
    expect(lateAnswer.target_trust).not.toBeNull();
    expect(lateAnswer.alternatives).toEqual([]);
    expect(lateAnswer.alternatives_unavailable?.code).toBe('deadline');
    await slow.evaluator.idle();
  });

  it('the batch takes include=alternatives for each of its targets', async () => {
    serveSearch(server, searchAnswer(PEERS));
    const { app } = open();
    const res = await app.inject({ method: 'POST', url: '/v1/preflight/batch?include=alternatives', payload: { targets: ['request', 'nerq-alt-target'] } });
    expect(res.statusCode).toBe(200);
    const batch = BatchResponseSchema.parse(res.json());
    expect(batch.results.map((r) => r.alternatives_unavailable)).toEqual([null, null]);
    expect(batch.results[0]!.alternatives.length).toBeGreaterThan(0);
    const plain = BatchResponseSchema.parse((await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['request'] } })).json());
    expect(plain.results[0]!.alternatives).toEqual([]);
    expect('alternatives_unavailable' in plain.results[0]!).toBe(false);
  });
});

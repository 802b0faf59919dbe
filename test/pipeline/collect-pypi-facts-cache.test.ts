/**
 * collectPypiTarget with the facts cache: a warm run asks PyPI nothing (project JSON, Simple API,
 * provenance) and produces exactly the cold run's evidence; errors and releases whose Simple API
 * page did not answer are not kept.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Collected } from '../../src/ecosystems/adapter.js';
import { collectPypiTarget } from '../../src/ecosystems/pypi/collect.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { memoryFactsCache, type FactsCache } from '../../src/sources/facts-cache.js';
import { pypiFactsKey } from '../../src/sources/pypi/facts-cache.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import type { Target } from '../../src/target/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { runContextFor, testHttpClient } from './helpers.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const FLASK_PROVENANCE = '/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance';

let server: FixtureServer;
let http: HttpClient;

beforeEach(async () => {
  server = await startFixtureServer();
  http = testHttpClient();
  server.fallback('GET', '/pypistats/', { status: 404, body: { message: 'not found' } });
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

/** As in an audit: dependencies not resolved, advisories and GitHub answered by the audit's shared lookups. */
function contextWith(facts: FactsCache): RunContext {
  return runContextFor(http, server, NOW, {
    facts,
    skipDependencies: true,
    prefetchedVulnerabilities: async () => ({ status: 'ok', facts: { advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } }),
    githubLookup: async () => ({ status: 'unavailable', reason: 'not asked in this test', code: 'not-asked' }),
  });
}

const target = (name: string, spec?: string): Target => ({ input: name, ecosystem: 'pypi', name, ...(spec === undefined ? {} : { spec }) });

function pypiRequests(from = 0): string[] {
  return server.requests.slice(from).map((r) => r.path).filter((p) => p.startsWith('/pypi/'));
}

function evidenceOf(collected: Collected) {
  if (collected.kind !== 'evidence') throw new Error(`expected evidence, got ${collected.code}: ${collected.message}`);
  return collected.evidence;
}

describe('a warm PyPI collection asks PyPI nothing', () => {
  test('project JSON, Simple API and provenance are read once; the warm evidence equals the cold one', async () => {
    server.expect('GET', '/pypi/pypi/flask/json', { times: 1 });
    server.expect('GET', '/pypi/simple/flask/', { times: 1 });
    server.expect('GET', FLASK_PROVENANCE, { times: 1 });
    const facts = memoryFactsCache(() => NOW.getTime());
    const cold = evidenceOf(await collectPypiTarget(target('flask'), contextWith(facts)));
    expect(cold.sources.attestations).toMatchObject({ status: 'ok', facts: { provenance: true } });
    expect(pypiRequests()).toHaveLength(3);
    expect([...facts.entries.keys()]).toEqual([pypiFactsKey(server.url('pypi'), 'flask', undefined)]);

    const seen = server.requests.length;
    const warm = evidenceOf(await collectPypiTarget(target('flask'), contextWith(facts)));
    expect(pypiRequests(seen)).toEqual([]);
    expect(warm).toEqual(cold);
    expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
    expectNoUnexpected(server);
  });

  test('a release whose Simple API page did not answer (provenance unknown) is asked again', async () => {
    server.expect('GET', '/pypi/pypi/flask/json');
    server.expect('GET', '/pypi/simple/flask/', { status: 404, body: { message: 'not found' } });
    const facts = memoryFactsCache(() => NOW.getTime());
    for (let run = 0; run < 2; run += 1) {
      const evidence = evidenceOf(await collectPypiTarget(target('flask'), contextWith(facts)));
      expect(evidence.sources.attestations.status).toBe('unavailable');
    }
    expect(pypiRequests()).toEqual(['/pypi/pypi/flask/json', '/pypi/simple/flask/', '/pypi/pypi/flask/json', '/pypi/simple/flask/']);
    expect(facts.entries.size).toBe(0);
  });

  test("facts kept before the files' sha256 were recorded are a miss: asked again, and the digests saved", async () => {
    server.expect('GET', '/pypi/pypi/flask/json', { times: 2 });
    server.expect('GET', '/pypi/simple/flask/', { times: 2 });
    server.expect('GET', FLASK_PROVENANCE, { times: 2 });
    const facts = memoryFactsCache(() => NOW.getTime());
    const cold = evidenceOf(await collectPypiTarget(target('flask'), contextWith(facts)));
    const digests = (e: typeof cold) => (e.sources.pypi.status === 'ok' ? e.sources.pypi.facts.files.map((f) => f.sha256) : []);
    expect(digests(cold)).toContain('0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb');
    // The entry as an earlier nerq wrote it: no `sha256` on its files.
    const key = pypiFactsKey(server.url('pypi'), 'flask', undefined)!;
    const stored = JSON.parse(facts.entries.get(key)!.json) as { facts: { files: Record<string, unknown>[] } };
    for (const file of stored.facts.files) delete file.sha256;
    facts.entries.set(key, { json: JSON.stringify(stored), at: NOW.getTime() });
    const seen = server.requests.length;
    const again = evidenceOf(await collectPypiTarget(target('flask'), contextWith(facts)));
    expect(pypiRequests(seen)).toHaveLength(3);
    expect(digests(again)).toEqual(digests(cold));
  });

  test('a project that is not there is asked again', async () => {
    server.expect('GET', '/pypi/pypi/nerq-nothing/json', { status: 404, body: { message: 'Not Found' } });
    const facts = memoryFactsCache(() => NOW.getTime());
    for (let run = 0; run < 2; run += 1) {
      expect(await collectPypiTarget(target('nerq-nothing'), contextWith(facts))).toMatchObject({ kind: 'error', code: 'not-found' });
    }
    expect(pypiRequests()).toHaveLength(2);
    expect(facts.entries.size).toBe(0);
  });
});

test('PyPI keys: the specifier separates entries, credentials never appear', () => {
  const base = 'https://pypi.example/';
  expect(pypiFactsKey(base, 'flask', undefined)).not.toBe(pypiFactsKey(base, 'flask', '==3.1.3'));
  const secret = pypiFactsKey('https://nerq-user:s3cret@pypi.example/?token=q-secret', 'flask', undefined);
  expect(secret).toBe(pypiFactsKey(base, 'flask', undefined));
  for (const word of ['nerq-user', 's3cret', 'q-secret']) expect(secret).not.toContain(word);
});

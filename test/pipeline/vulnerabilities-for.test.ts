/**
 * vulnerabilitiesFor: the target's OSV batch is sent at once, its dependencies' batch when they
 * resolve; the two merge into one `vulnerabilities` source, and dependencies that fail or never
 * resolve leave the target's own advisories known. An audit's prefetched answer is used as is.
 * The dependencies are a promise the test settles itself; the request log shows the order.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sources } from '../../src/evidence/schema.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { vulnerabilitiesFor } from '../../src/pipeline/vulnerabilities-for.js';
import type { VulnerabilitiesResult } from '../../src/sources/osv/query.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { dependencyFacts } from '../support/evidence-builder.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { runContextFor, testHttpClient } from './helpers.js';

const QUERYBATCH = '/osv/v1/querybatch';
const TARGET = { name: 'lodash', version: '4.17.20' };
/** lodash 4.17.20's two advisories (recorded under fixtures/http/osv/v1/vulns). */
const LODASH_IDS = ['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9'];
const MINIMIST_ID = 'GHSA-xvch-5gv4-984h';

let server: FixtureServer;
let http: HttpClient;

beforeEach(async () => {
  server = await startFixtureServer();
  http = testHttpClient();
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

function context(extra: Partial<RunContext> = {}): RunContext {
  return runContextFor(http, server, new Date('2026-11-30T00:00:00Z'), extra);
}

/** A promise of the dependencies source that the test settles. */
function deferred(): { promise: Promise<Sources['dependencies']>; settle(value: Sources['dependencies']): void } {
  let settle: (value: Sources['dependencies']) => void = () => {};
  const promise = new Promise<Sources['dependencies']>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

const resolvedDependencies: Sources['dependencies'] = {
  status: 'ok',
  facts: dependencyFacts({
    dependencies: [
      { name: 'minimist', range: '^1.2.0', version: '1.2.5', reason: null, securityHolding: false },
      { name: 'left-pad', range: '^9.0.0', version: null, reason: 'no version matches ^9.0.0', securityHolding: false },
    ],
  }),
};

/**
 * OSV: lodash's advisories for lodash, minimist's for minimist; a batch holding none of the
 * target's queries answers `dependencyBatch` instead (default: as for any batch).
 */
function osv(dependencyBatch?: { status: number }): void {
  server.route('POST', QUERYBATCH, (_req, res, { body }) => {
    const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { name: string } }[] }).queries;
    if (dependencyBatch !== undefined && !queries.some((q) => q.package.name === TARGET.name)) {
      res.writeHead(dependencyBatch.status, { 'content-type': 'application/json' });
      res.end('{"error":"unavailable"}');
      return;
    }
    const idsOf = (name: string) => (name === 'lodash' ? LODASH_IDS : name === 'minimist' ? [MINIMIST_ID] : []);
    const results = queries.map((q) => (idsOf(q.package.name).length === 0 ? {} : { vulns: idsOf(q.package.name).map((id) => ({ id, modified: '2024-01-01T00:00:00Z' })) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results }));
  });
  for (const id of [...LODASH_IDS, MINIMIST_ID]) server.expect('GET', `/osv/v1/vulns/${id}`);
}

/** Every OSV batch's queries, in order, as `name@version`. */
const batches = (): string[][] =>
  server.requests
    .filter((r) => r.path === QUERYBATCH)
    .map((r) => (JSON.parse(r.body) as { queries: { package: { name: string }; version: string }[] }).queries.map((q) => `${q.package.name}@${q.version}`));

/** Resolves once `count` batches have arrived (the request log says so). */
function batchesArrived(count: number): Promise<void> {
  return new Promise((resolve) => {
    const look = () => (batches().length >= count ? resolve() : setTimeout(look, 2));
    look();
  });
}

function facts(result: Sources['vulnerabilities']) {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}: ${result.reason}`);
  return result.facts;
}

describe('one check: the target at once, its dependencies apart', () => {
  test('the target is asked before its dependencies resolve; they get a batch of their own once they do', async () => {
    osv();
    const dependencies = deferred();
    const pending = vulnerabilitiesFor(context(), 'npm', TARGET, dependencies.promise);
    await batchesArrived(1);
    expect(batches()).toEqual([['lodash@4.17.20']]);
    dependencies.settle(resolvedDependencies);

    const result = facts(await pending);
    // Only the dependency that resolved is asked about.
    expect(batches()).toEqual([['lodash@4.17.20'], ['minimist@1.2.5']]);
    expect(result.advisories.map((a) => `${a.id} ${a.package}@${a.version}`).sort()).toEqual(LODASH_IDS.map((id) => `${id} lodash@4.17.20`).sort());
    expect(result.dependencyAdvisories?.map((a) => `${a.id} ${a.package}@${a.version}`)).toEqual([`${MINIMIST_ID} minimist@1.2.5`]);
    expect(result).toMatchObject({ dependenciesQueried: 1, dependencyAdvisoriesReason: null });
    // One GET per distinct advisory, for both batches together.
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.path).sort()).toEqual([...LODASH_IDS, MINIMIST_ID].map((id) => `/osv/v1/vulns/${id}`).sort());
    expectNoUnexpected(server);
  });

  test("dependencies that could not be resolved (a stall ended by the deadline): the target's advisories known, theirs null with the reason", async () => {
    osv();
    const dependencies = deferred();
    const pending = vulnerabilitiesFor(context(), 'npm', TARGET, dependencies.promise);
    await batchesArrived(1);
    dependencies.settle({ status: 'unavailable', reason: 'run deadline reached while waiting for 127.0.0.1' });

    const result = facts(await pending);
    expect(result.advisories).toHaveLength(2);
    expect(result).toMatchObject({
      dependencyAdvisories: null,
      dependenciesQueried: 0,
      dependencyAdvisoriesReason: 'the dependencies could not be resolved: run deadline reached while waiting for 127.0.0.1',
    });
    expect(batches()).toEqual([['lodash@4.17.20']]);
  });

  test("OSV failing for the dependencies' batch: the target's advisories known, theirs null with OSV's reason", async () => {
    osv({ status: 503 });
    const result = facts(await vulnerabilitiesFor(context(), 'npm', TARGET, Promise.resolve(resolvedDependencies)));
    expect(result.advisories).toHaveLength(2);
    expect(result.dependencyAdvisories).toBeNull();
    expect(result.dependencyAdvisoriesReason).toMatch(/^OSV querybatch: HTTP 503/);
  });

  test('OSV failing for the target: the source is unavailable, whatever the dependencies gave', async () => {
    server.expect('POST', QUERYBATCH, { status: 503 });
    const result = await vulnerabilitiesFor(context(), 'npm', TARGET, Promise.resolve(resolvedDependencies));
    expect(result).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'http-status' });
  });

  test('no dependency resolved: one batch, the target alone; nothing to find among the dependencies', async () => {
    osv();
    const none: Sources['dependencies'] = { status: 'ok', facts: dependencyFacts({ dependencies: [{ name: 'left-pad', range: '^9.0.0', version: null, reason: 'no version matches ^9.0.0', securityHolding: false }] }) };
    const result = facts(await vulnerabilitiesFor(context(), 'npm', TARGET, Promise.resolve(none)));
    expect(batches()).toEqual([['lodash@4.17.20']]);
    expect(result).toMatchObject({ dependencyAdvisories: [], dependenciesQueried: 0, dependencyAdvisoriesReason: null });
  });
});

describe('an audit', () => {
  test("the audit's prefetched answer is used as is: no request", async () => {
    const prefetched: VulnerabilitiesResult = { status: 'ok', facts: { advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } };
    const asked: string[] = [];
    const ctx = context({
      skipDependencies: true,
      prefetchedVulnerabilities: async (_ecosystem, name, version) => {
        asked.push(`${name}@${version}`);
        return prefetched;
      },
    });
    const notApplicable: Sources['dependencies'] = { status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' };
    expect(await vulnerabilitiesFor(ctx, 'npm', TARGET, Promise.resolve(notApplicable))).toBe(prefetched);
    expect(asked).toEqual(['lodash@4.17.20']);
    expect(server.requests).toEqual([]);
  });

  test('a package outside the prefetched batch asks OSV itself, the target alone', async () => {
    osv();
    const ctx = context({ skipDependencies: true, prefetchedVulnerabilities: () => undefined });
    const notApplicable: Sources['dependencies'] = { status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' };
    const result = facts(await vulnerabilitiesFor(ctx, 'npm', TARGET, Promise.resolve(notApplicable)));
    expect(batches()).toEqual([['lodash@4.17.20']]);
    expect(result.advisories).toHaveLength(2);
    expect(result.dependencyAdvisories).toBeNull();
  });
});

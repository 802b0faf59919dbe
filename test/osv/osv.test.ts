/**
 * The OSV source against the loopback fixture server: recorded advisory records under
 * fixtures/http/osv/v1/vulns/, batch answers in OSV's shape (a result without advisories has
 * no `vulns` key), and faults.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createHttpClient } from '../../src/sources/http/client.js';
import {
  FETCH_CONCURRENCY,
  MAX_PAGES,
  fetchDependencyAdvisories,
  fetchPackageRecords,
  fetchVulnerabilities,
  fetchVulnerabilitiesMany,
  osvRecordReader,
  packageKey,
  type OsvPackage,
  type VulnerabilitiesResult,
} from '../../src/sources/osv/query.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';

const QUERYBATCH = '/osv/v1/querybatch';
const vulnPath = (id: string) => `/osv/v1/vulns/${id}`;

interface BatchQuery {
  package: { name: string; ecosystem: string };
  version: string;
  page_token?: string;
}

let server: FixtureServer;
let http: HttpClient;
/** Parsed bodies of every querybatch request, in order. */
let batches: BatchQuery[][];

beforeEach(async () => {
  server = await startFixtureServer();
  http = createHttpClient({
    timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 },
    retry: { baseDelayMs: 1 },
    sleep: async () => {},
  });
  batches = [];
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

const base = () => server.url('osv');

/** A batch answer as OSV writes it: ids and modified dates; no `vulns` key when there are none. */
function result(ids: readonly string[], nextPageToken?: string): object {
  return {
    ...(ids.length === 0 ? {} : { vulns: ids.map((id) => ({ id, modified: '2024-01-01T00:00:00Z' })) }),
    ...(nextPageToken === undefined ? {} : { next_page_token: nextPageToken }),
  };
}

/** Answer every querybatch from `answer(queries)`, recording each request body. */
function batchRoute(answer: (queries: BatchQuery[]) => object): void {
  server.route('POST', QUERYBATCH, (req, res, { body }) => {
    const queries = (JSON.parse(body.toString('utf8')) as { queries: BatchQuery[] }).queries;
    batches.push(queries);
    const text = JSON.stringify(answer(queries));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });
}

/** Serve the recorded records for `ids`, each at most once. */
function records(...ids: string[]): void {
  for (const id of ids) server.expect('GET', vulnPath(id), { times: 1 });
}

const posts = () => server.requests.filter((r) => r.method === 'POST');
const gets = () => server.requests.filter((r) => r.method === 'GET').map((r) => r.path);

function ok(result: VulnerabilitiesResult) {
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts;
}

function unavailable(result: VulnerabilitiesResult): string {
  if (result.status !== 'unavailable') throw new Error('expected unavailable');
  expect(result.reason).not.toMatch(/\n/);
  return result.reason;
}

/** The code of an unavailable answer (model/source-codes.ts). */
function codeOf(result: VulnerabilitiesResult): string {
  if (result.status !== 'unavailable') throw new Error('expected unavailable');
  expect(result.reason).not.toMatch(/\n/);
  return result.code;
}

describe('npm: a target and its dependencies', () => {
  test('a high advisory with a fix on the target, a critical one on a dependency: one batch, one GET per advisory', async () => {
    server.expect('POST', QUERYBATCH, { fixture: 'osv/querybatch/lodash-4.17.20+minimist-1.2.5.json', times: 1 });
    records('GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9', 'GHSA-xvch-5gv4-984h');
    const facts = ok(
      await fetchVulnerabilities(http, base(), {
        ecosystem: 'npm',
        target: { name: 'lodash', version: '4.17.20' },
        dependencies: [{ name: 'minimist', version: '1.2.5' }],
      }),
    );
    expect(facts.advisories).toEqual([
      {
        id: 'GHSA-35jh-r3h4-6jhm',
        aliases: ['CVE-2021-23337'],
        summary: 'Command Injection in lodash',
        severity: 'high',
        severitySource: 'cvss',
        cvss: 7.2,
        cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H',
        package: 'lodash',
        ecosystem: 'npm',
        version: '4.17.20',
        affectsResolved: true,
        fixed: '4.17.21',
        published: '2021-05-06T16:05:51Z',
        malicious: false,
        url: 'https://osv.dev/vulnerability/GHSA-35jh-r3h4-6jhm',
      },
      expect.objectContaining({ id: 'GHSA-29mw-wpgm-hmr9', severity: 'moderate', cvss: 5.3, fixed: '4.17.21' }),
    ]);
    expect(facts.dependencyAdvisories).toEqual([
      expect.objectContaining({
        id: 'GHSA-xvch-5gv4-984h',
        severity: 'critical',
        cvss: 9.8,
        package: 'minimist',
        version: '1.2.5',
        fixed: '1.2.6',
        malicious: false,
      }),
    ]);
    expect(facts.dependenciesQueried).toBe(1);

    const [post] = posts();
    expect(posts()).toHaveLength(1);
    expect(post?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({
      queries: [
        { package: { name: 'lodash', ecosystem: 'npm' }, version: '4.17.20' },
        { package: { name: 'minimist', ecosystem: 'npm' }, version: '1.2.5' },
      ],
    });
    expect(gets().sort()).toEqual([vulnPath('GHSA-29mw-wpgm-hmr9'), vulnPath('GHSA-35jh-r3h4-6jhm'), vulnPath('GHSA-xvch-5gv4-984h')]);
    expectNoUnexpected(server);
  });

  test('target + 30 dependencies with 3 distinct advisories → exactly 1 querybatch and 3 GETs', async () => {
    const dependencies: OsvPackage[] = [
      { name: 'minimist', version: '1.2.5' },
      { name: 'lodash-es', version: '4.17.20' },
      ...Array.from({ length: 28 }, (_, i) => ({ name: `nerq-fixture-dep-${String(i + 1).padStart(2, '0')}`, version: '1.0.0' })),
    ];
    const answers: Record<string, string[]> = {
      lodash: ['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9'],
      'lodash-es': ['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9'],
      minimist: ['GHSA-xvch-5gv4-984h'],
    };
    batchRoute((queries) => ({ results: queries.map((q) => result(answers[q.package.name] ?? [])) }));
    records('GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9', 'GHSA-xvch-5gv4-984h');
    const facts = ok(
      await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'lodash', version: '4.17.20' }, dependencies }),
    );
    expect(posts()).toHaveLength(1);
    expect(batches[0]).toHaveLength(31);
    expect(gets()).toHaveLength(3);
    expect(facts.advisories.map((a) => a.id)).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9']);
    expect(facts.dependencyAdvisories?.map((a) => `${a.severity} ${a.id} ${a.package}@${a.version} fixed ${a.fixed}`)).toEqual([
      'critical GHSA-xvch-5gv4-984h minimist@1.2.5 fixed 1.2.6',
      'high GHSA-35jh-r3h4-6jhm lodash-es@4.17.20 fixed 4.17.21',
      'moderate GHSA-29mw-wpgm-hmr9 lodash-es@4.17.20 fixed 4.17.21',
    ]);
    expect(facts.dependenciesQueried).toBe(30);
    expectNoUnexpected(server);
  });

  test('no advisories anywhere: an ok answer with empty lists, and no GET', async () => {
    batchRoute((queries) => ({ results: queries.map(() => ({})) }));
    const facts = ok(
      await fetchVulnerabilities(http, base(), {
        ecosystem: 'npm',
        target: { name: 'chalk', version: '4.1.0' },
        dependencies: [{ name: 'ansi-styles', version: '4.3.0' }, { name: 'supports-color', version: '7.2.0' }],
      }),
    );
    expect(facts).toEqual({ advisories: [], dependencyAdvisories: [], dependenciesQueried: 2, dependencyAdvisoriesReason: null });
    expect(gets()).toEqual([]);
  });

  test('dependencies not resolved (null): only the target is queried; dependency advisories stay null', async () => {
    batchRoute((queries) => ({ results: queries.map(() => ({})) }));
    const facts = ok(await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'chalk', version: '4.1.0' }, dependencies: null }));
    expect(facts).toEqual({ advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null });
    expect(batches).toEqual([[{ package: { name: 'chalk', ecosystem: 'npm' }, version: '4.1.0' }]]);
  });

  test('the same package version is queried once, whatever lists it', async () => {
    batchRoute((queries) => ({ results: queries.map(() => ({})) }));
    ok(
      await fetchVulnerabilities(http, base(), {
        ecosystem: 'npm',
        target: { name: 'a', version: '1.0.0' },
        dependencies: [{ name: 'b', version: '2.0.0' }, { name: 'b', version: '2.0.0' }],
      }),
    );
    expect(batches[0]?.map((q) => q.package.name)).toEqual(['a', 'b']);
  });

  test('more than 1,000 queries are sent in chunks of 1,000', async () => {
    batchRoute((queries) => ({ results: queries.map((q) => result(q.package.name === 'minimist' ? ['GHSA-xvch-5gv4-984h'] : [])) }));
    records('GHSA-xvch-5gv4-984h');
    const dependencies = Array.from({ length: 1199 }, (_, i) => ({ name: `dep-${i}`, version: '1.0.0' }));
    dependencies.push({ name: 'minimist', version: '1.2.5' });
    const facts = ok(await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'a', version: '1.0.0' }, dependencies }));
    expect(batches.map((b) => b.length)).toEqual([1000, 201]);
    expect(facts.dependencyAdvisories?.map((a) => a.id)).toEqual(['GHSA-xvch-5gv4-984h']);
    expect(facts.dependenciesQueried).toBe(1200);
  });
});

describe('a target and its dependencies asked apart (as a check asks them)', () => {
  const target: OsvPackage = { name: 'lodash', version: '4.17.20' };
  const minimist: OsvPackage = { name: 'minimist', version: '1.2.5' };

  test("the dependencies' batch holds only the dependencies (each version once); their advisories sorted, the count queried", async () => {
    batchRoute((queries) => ({ results: queries.map((q) => result(q.package.name === 'minimist' ? ['GHSA-xvch-5gv4-984h'] : [])) }));
    records('GHSA-xvch-5gv4-984h');
    const answer = await fetchDependencyAdvisories(http, base(), 'npm', [minimist, { name: 'wrappy', version: '1.0.2' }, minimist]);
    expect(answer).toEqual({
      status: 'ok',
      advisories: [expect.objectContaining({ id: 'GHSA-xvch-5gv4-984h', severity: 'critical', package: 'minimist', version: '1.2.5' })],
      queried: 2,
    });
    expect(batches).toEqual([
      [
        { package: { name: 'minimist', ecosystem: 'npm' }, version: '1.2.5' },
        { package: { name: 'wrappy', ecosystem: 'npm' }, version: '1.0.2' },
      ],
    ]);
    expectNoUnexpected(server);
  });

  test('no dependency to ask: none found, without a request', async () => {
    expect(await fetchDependencyAdvisories(http, base(), 'PyPI', [])).toEqual({ status: 'ok', advisories: [], queried: 0 });
    expect(server.requests).toEqual([]);
  });

  test("the dependencies' batch failing is unavailable with OSV's reason, never none found", async () => {
    server.expect('POST', QUERYBATCH, { status: 503 });
    const answer = await fetchDependencyAdvisories(http, base(), 'npm', [minimist]);
    expect(answer).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'http-status' });
  });

  test('a dependency without a version is never sent', async () => {
    expect(await fetchDependencyAdvisories(http, base(), 'npm', [{ name: 'minimist', version: '' }])).toEqual({
      status: 'unavailable',
      reason: expect.any(String),
      code: 'not-asked',
    });
    expect(server.requests).toEqual([]);
  });

  test("a dependency's unreadable advisory (one record reader) leaves the target's own answer whole", async () => {
    batchRoute((queries) => ({ results: queries.map((q) => result(q.package.name === 'minimist' ? ['GHSA-xvch-5gv4-984h'] : ['GHSA-35jh-r3h4-6jhm'])) }));
    records('GHSA-35jh-r3h4-6jhm');
    server.expect('GET', vulnPath('GHSA-xvch-5gv4-984h'), { status: 500 });
    const read = osvRecordReader(http, base());
    const [own, theirs] = await Promise.all([
      fetchVulnerabilities(http, base(), { ecosystem: 'npm', target, dependencies: null }, read),
      fetchDependencyAdvisories(http, base(), 'npm', [minimist], read),
    ]);
    expect(ok(own).advisories.map((a) => `${a.id} ${a.package}`)).toEqual(['GHSA-35jh-r3h4-6jhm lodash']);
    expect(theirs).toEqual({ status: 'unavailable', reason: expect.stringContaining('GHSA-xvch-5gv4-984h'), code: 'http-status' });
  });

  test('an advisory named for both (one record reader) is read once between the two batches', async () => {
    // The same advisory listed for the target and for a dependency, the two asked at once.
    batchRoute((queries) => ({ results: queries.map(() => result(['GHSA-xvch-5gv4-984h'])) }));
    records('GHSA-xvch-5gv4-984h');
    const read = osvRecordReader(http, base());
    const [own, theirs] = await Promise.all([
      fetchVulnerabilities(http, base(), { ecosystem: 'npm', target, dependencies: null }, read),
      fetchDependencyAdvisories(http, base(), 'npm', [minimist], read),
    ]);
    expect(ok(own).advisories.map((a) => `${a.id} ${a.package}`)).toEqual(['GHSA-xvch-5gv4-984h lodash']);
    expect(theirs).toMatchObject({ status: 'ok', advisories: [expect.objectContaining({ id: 'GHSA-xvch-5gv4-984h', package: 'minimist' })] });
    expect(batches).toHaveLength(2);
    expect(gets()).toEqual([vulnPath('GHSA-xvch-5gv4-984h')]);
    expectNoUnexpected(server);
  });
});

describe('severity, twins, withdrawn and malicious records', () => {
  const single = async (ecosystem: 'npm' | 'PyPI', name: string, version: string, ids: string[]) => {
    batchRoute((queries) => ({ results: queries.map(() => result(ids)) }));
    return fetchVulnerabilities(http, base(), { ecosystem, target: { name, version }, dependencies: null });
  };

  test('only database_specific.severity (PyPI Zope2, name normalised for the fix)', async () => {
    records('GHSA-v7q8-wvvh-c97p');
    const facts = ok(await single('PyPI', 'zope2', '2.9.5', ['GHSA-v7q8-wvvh-c97p']));
    expect(facts.advisories).toEqual([
      expect.objectContaining({ id: 'GHSA-v7q8-wvvh-c97p', severity: 'moderate', severitySource: 'database', cvss: null, cvssVector: null, fixed: '2.9.12' }),
    ]);
    expect(gets()).toEqual([vulnPath('GHSA-v7q8-wvvh-c97p')]);
  });

  test('no severity of its own: the GHSA alias is fetched for one (and nothing more)', async () => {
    records('PYSEC-2023-62', 'GHSA-m2qf-hxjv-5gpq');
    const facts = ok(await single('PyPI', 'flask', '1.0.0', ['PYSEC-2023-62']));
    expect(facts.advisories).toHaveLength(1);
    expect(facts.advisories[0]).toMatchObject({
      id: 'PYSEC-2023-62',
      aliases: ['CVE-2023-30861', 'GHSA-m2qf-hxjv-5gpq'],
      severity: 'high',
      severitySource: 'alias',
      cvss: 7.5,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
      fixed: '2.2.5',
    });
    expect(facts.advisories[0]?.summary).toMatch(/^Flask is a lightweight WSGI web application framework\./);
    expect(gets()).toEqual([vulnPath('PYSEC-2023-62'), vulnPath('GHSA-m2qf-hxjv-5gpq')]);
    expectNoUnexpected(server);
  });

  test('no severity anywhere (the only alias is not in OSV) → unknown, and the advisory is kept', async () => {
    records('PYSEC-2024-69');
    server.expect('GET', vulnPath('CVE-2024-41991'), { status: 404, body: { code: 5, message: 'Bug not found.' }, times: 1 });
    const facts = ok(await single('PyPI', 'django', '4.2.10', ['PYSEC-2024-69']));
    expect(facts.advisories).toEqual([
      expect.objectContaining({ id: 'PYSEC-2024-69', severity: 'unknown', severitySource: 'none', cvss: null, fixed: '4.2.15', affectsResolved: true }),
    ]);
    expect(gets()).toEqual([vulnPath('PYSEC-2024-69'), vulnPath('CVE-2024-41991')]);
  });

  test('at most 2 alias records are fetched per advisory', async () => {
    const id = 'PYSEC-2021-66';
    server.expect('GET', vulnPath(id), {
      body: { id, summary: 'no severity here', aliases: ['CVE-2020-28493', 'SNYK-PYTHON-JINJA2-1012994', 'GHSA-g3rq-g295-4j3m'] },
      times: 1,
    });
    for (const alias of ['GHSA-g3rq-g295-4j3m', 'CVE-2020-28493']) {
      server.expect('GET', vulnPath(alias), { body: { id: alias, summary: 'no severity either' }, times: 1 });
    }
    const facts = ok(await single('PyPI', 'jinja2', '2.11.2', [id]));
    expect(facts.advisories[0]).toMatchObject({ severity: 'unknown', severitySource: 'none' });
    expect(gets()).toEqual([vulnPath(id), vulnPath('GHSA-g3rq-g295-4j3m'), vulnPath('CVE-2020-28493')]);
    expectNoUnexpected(server);
  });

  test('PYSEC / GHSA / CVE twins are one advisory: counted once, every id kept, no alias GET', async () => {
    records('PYSEC-2023-62', 'GHSA-m2qf-hxjv-5gpq');
    const facts = ok(await single('PyPI', 'flask', '1.0.0', ['PYSEC-2023-62', 'GHSA-m2qf-hxjv-5gpq']));
    expect(facts.advisories).toHaveLength(1);
    expect(facts.advisories[0]).toMatchObject({
      id: 'GHSA-m2qf-hxjv-5gpq',
      aliases: ['CVE-2023-30861', 'PYSEC-2023-62'],
      severity: 'high',
      severitySource: 'cvss',
      cvss: 7.5,
      fixed: '2.2.5',
      url: 'https://osv.dev/vulnerability/GHSA-m2qf-hxjv-5gpq',
    });
    expect(gets()).toHaveLength(2);
    expectNoUnexpected(server);
  });

  test('a withdrawn record is dropped (MAL-2024-2929, a retracted false positive on react)', async () => {
    records('MAL-2024-2929');
    const facts = ok(await single('npm', 'react', '1.0.0', ['MAL-2024-2929']));
    expect(facts.advisories).toEqual([]);
  });

  test('a MAL- record is malicious', async () => {
    records('MAL-2025-20690');
    const facts = ok(await single('npm', 'flatmap-stream', '0.1.1', ['MAL-2025-20690']));
    expect(facts.advisories).toEqual([
      expect.objectContaining({ id: 'MAL-2025-20690', malicious: true, severity: 'unknown', severitySource: 'none', fixed: null, summary: 'Malicious code in flatmap-stream (npm)' }),
    ]);
    expect(gets()).toEqual([vulnPath('MAL-2025-20690')]);
  });

  test('a record from the malicious-packages database (origins) is malicious whatever its id', async () => {
    records('NERQ-SYNTH-2025-191025');
    const facts = ok(await single('npm', '02-echo', '0.0.7', ['NERQ-SYNTH-2025-191025']));
    expect(facts.advisories).toEqual([expect.objectContaining({ id: 'NERQ-SYNTH-2025-191025', malicious: true })]);
  });

  test('a critical advisory on a dependency, none on the target', async () => {
    batchRoute((queries) => ({ results: queries.map((q) => result(q.package.name === 'minimist' ? ['GHSA-xvch-5gv4-984h'] : [])) }));
    records('GHSA-xvch-5gv4-984h');
    const facts = ok(
      await fetchVulnerabilities(http, base(), {
        ecosystem: 'npm',
        target: { name: 'nerq-fixture-app', version: '1.0.0' },
        dependencies: [{ name: 'minimist', version: '1.2.5' }],
      }),
    );
    expect(facts.advisories).toEqual([]);
    expect(facts.dependencyAdvisories).toEqual([expect.objectContaining({ id: 'GHSA-xvch-5gv4-984h', severity: 'critical', package: 'minimist' })]);
  });
});

describe('pagination', () => {
  test('a next_page_token is followed with page_token, for that query only', async () => {
    server.expect('POST', QUERYBATCH, { fixture: 'osv/querybatch/lodash-4.17.20.page-1.json', times: 1 });
    server.expect('POST', QUERYBATCH, { fixture: 'osv/querybatch/lodash-4.17.20.page-2.json', times: 1 });
    records('GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9');
    const facts = ok(await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'lodash', version: '4.17.20' }, dependencies: null }));
    expect(facts.advisories.map((a) => a.id)).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9']);
    expect(posts().map((p) => JSON.parse(p.body))).toEqual([
      { queries: [{ package: { name: 'lodash', ecosystem: 'npm' }, version: '4.17.20' }] },
      { queries: [{ package: { name: 'lodash', ecosystem: 'npm' }, version: '4.17.20', page_token: 'nerq-fixture-page-2' }] },
    ]);
    expect(server.pending()).toEqual([]);
    expectNoUnexpected(server);
  });

  test('only the queries with more pages are asked again', async () => {
    batchRoute((queries) => ({
      results: queries.map((q) =>
        q.page_token !== undefined ? result(['GHSA-xvch-5gv4-984h']) : q.package.name === 'minimist' ? result([], 'next') : result([]),
      ),
    }));
    records('GHSA-xvch-5gv4-984h');
    const facts = ok(
      await fetchVulnerabilities(http, base(), {
        ecosystem: 'npm',
        target: { name: 'a', version: '1.0.0' },
        dependencies: [{ name: 'minimist', version: '1.2.5' }, { name: 'b', version: '1.0.0' }],
      }),
    );
    expect(batches.map((b) => b.map((q) => `${q.package.name}${q.page_token === undefined ? '' : `#${q.page_token}`}`))).toEqual([
      ['a', 'minimist', 'b'],
      ['minimist#next'],
    ]);
    expect(facts.dependencyAdvisories?.map((a) => a.id)).toEqual(['GHSA-xvch-5gv4-984h']);
  });

  test(`more than ${MAX_PAGES} pages → unavailable, after exactly ${MAX_PAGES} requests`, async () => {
    let page = 0;
    batchRoute((queries) => ({ results: queries.map(() => result([], `page-${++page}`)) }));
    const reason = unavailable(await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'lodash', version: '4.17.20' }, dependencies: null }));
    expect(reason).toMatch(/more than 10 pages/);
    expect(reason).toMatch(/lodash@4\.17\.20/);
    expect(posts()).toHaveLength(MAX_PAGES);
    expect(gets()).toEqual([]);
  });
});

describe('failures are never "no vulnerabilities"', () => {
  const query = { ecosystem: 'npm' as const, target: { name: 'lodash', version: '4.17.20' }, dependencies: [{ name: 'minimist', version: '1.2.5' }] };

  test('querybatch 503 three times (retried) → unavailable', async () => {
    server.expect('POST', QUERYBATCH, { status: 503, times: 3 });
    expect(codeOf(await fetchVulnerabilities(http, base(), query))).toBe('http-status');
    expect(posts()).toHaveLength(3);
    expect(gets()).toEqual([]);
    expectNoUnexpected(server);
  });

  test('querybatch 503 twice then an answer → ok (POST is retried as idempotent)', async () => {
    server.expect('POST', QUERYBATCH, { status: 503, times: 2 });
    server.expect('POST', QUERYBATCH, { body: { results: [{}, {}] }, times: 1 });
    const facts = ok(await fetchVulnerabilities(http, base(), query));
    expect(facts.advisories).toEqual([]);
    expect(posts()).toHaveLength(3);
  });

  test('querybatch connection reset → unavailable', async () => {
    server.expect('POST', QUERYBATCH, { reset: true });
    expect(codeOf(await fetchVulnerabilities(http, base(), query))).toBe('network-error');
  });

  test('malformed JSON → unavailable', async () => {
    server.expect('POST', QUERYBATCH, { malformed: true, times: 1 });
    expect(codeOf(await fetchVulnerabilities(http, base(), query))).toBe('bad-answer');
  });

  test.each([
    ['an empty object', {}, /unexpected response shape/],
    ['results not an array', { results: 'none' }, /unexpected response shape/],
    ['vulns not an array', { results: [{ vulns: 'GHSA-1' }, {}] }, /unexpected response shape/],
    ['an id that is not a string', { results: [{ vulns: [{ id: 7 }] }, {}] }, /unexpected response shape/],
    ['fewer results than queries', { results: [{}] }, /1 results for 2 queries/],
    ['a path-like id', { results: [{ vulns: [{ id: '../../etc/passwd' }] }, {}] }, /malformed advisory id/],
    ['an empty id', { results: [{ vulns: [{ id: '' }] }, {}] }, /malformed advisory id/],
  ])('wrong shape: %s → unavailable', async (_label, body, reason) => {
    server.expect('POST', QUERYBATCH, { body, times: 1 });
    const answer = await fetchVulnerabilities(http, base(), query);
    expect(unavailable(answer)).toMatch(reason);
    expect(codeOf(answer)).toBe('bad-answer');
    expect(gets()).toEqual([]);
  });

  test("a dependency's /v1/vulns/{id} 500 → the dependency advisories unknown, naming the id; the target's own read stand", async () => {
    server.expect('POST', QUERYBATCH, { fixture: 'osv/querybatch/lodash-4.17.20+minimist-1.2.5.json', times: 1 });
    records('GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9');
    server.expect('GET', vulnPath('GHSA-xvch-5gv4-984h'), { status: 500 });
    const facts = ok(await fetchVulnerabilities(http, base(), query));
    expect(facts.advisories.map((a) => a.id)).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-29mw-wpgm-hmr9']);
    expect(facts.dependencyAdvisories).toBeNull();
    expect(facts.dependenciesQueried).toBe(0);
    expect(facts.dependencyAdvisoriesReason).toMatch(/^OSV: advisory GHSA-xvch-5gv4-984h could not be read: /);
    expect(facts.dependencyAdvisoriesReason).toMatch(/500/);
  });

  test("the target's own /v1/vulns/{id} 500 → unavailable, naming the id, whatever its dependencies' answers", async () => {
    server.expect('POST', QUERYBATCH, { fixture: 'osv/querybatch/lodash-4.17.20+minimist-1.2.5.json', times: 1 });
    records('GHSA-29mw-wpgm-hmr9', 'GHSA-xvch-5gv4-984h');
    server.expect('GET', vulnPath('GHSA-35jh-r3h4-6jhm'), { status: 500 });
    const answer = await fetchVulnerabilities(http, base(), query);
    expect(unavailable(answer)).toMatch(/GHSA-35jh-r3h4-6jhm/);
    expect(codeOf(answer)).toBe('http-status');
  });

  test("one dependency's unreadable advisory makes the dependencies' answer unavailable, naming it — never a partial list", async () => {
    batchRoute((queries) => ({ results: queries.map((q) => result(q.package.name === 'minimist' ? ['GHSA-xvch-5gv4-984h'] : ['GHSA-35jh-r3h4-6jhm'])) }));
    records('GHSA-35jh-r3h4-6jhm');
    server.expect('GET', vulnPath('GHSA-xvch-5gv4-984h'), { malformed: true });
    const answer = await fetchDependencyAdvisories(http, base(), 'npm', [{ name: 'lodash', version: '4.17.20' }, { name: 'minimist', version: '1.2.5' }]);
    expect(answer).toEqual({ status: 'unavailable', reason: expect.stringContaining('GHSA-xvch-5gv4-984h'), code: 'bad-answer' });
  });

  test.each([
    ['a 404', { status: 404 }, 'not-found'],
    ['malformed JSON', { malformed: true }, 'bad-answer'],
    ['not a record', { body: { error: 'nope' } }, 'bad-answer'],
  ])('a listed advisory answering %s → unavailable, naming the id', async (_label, response, code) => {
    batchRoute((queries) => ({ results: queries.map(() => result(['GHSA-35jh-r3h4-6jhm'])) }));
    server.expect('GET', vulnPath('GHSA-35jh-r3h4-6jhm'), response);
    const answer = await fetchVulnerabilities(http, base(), { ...query, dependencies: null });
    expect(unavailable(answer)).toMatch(/GHSA-35jh-r3h4-6jhm/);
    expect(codeOf(answer)).toBe(code);
  });

  test('an alias lookup failing only leaves the severity unknown', async () => {
    batchRoute((queries) => ({ results: queries.map(() => result(['PYSEC-2023-62'])) }));
    records('PYSEC-2023-62');
    server.expect('GET', vulnPath('GHSA-m2qf-hxjv-5gpq'), { status: 500 });
    server.expect('GET', vulnPath('CVE-2023-30861'), { status: 404 });
    const facts = ok(await fetchVulnerabilities(http, base(), { ecosystem: 'PyPI', target: { name: 'flask', version: '1.0.0' }, dependencies: null }));
    expect(facts.advisories).toEqual([expect.objectContaining({ id: 'PYSEC-2023-62', severity: 'unknown', severitySource: 'none' })]);
  });

  test('an invalid base URL → unavailable without a request', async () => {
    expect(codeOf(await fetchVulnerabilities(http, 'not a url', query))).toBe('not-asked');
    expect(codeOf(await fetchVulnerabilities(http, 'ftp://127.0.0.1/osv', query))).toBe('not-asked');
    expect(server.requests).toEqual([]);
  });

  test('a package without a version is never sent (OSV would answer every advisory of the package)', async () => {
    expect(codeOf(await fetchVulnerabilities(http, base(), { ...query, dependencies: [{ name: 'minimist', version: '' }] }))).toBe('not-asked');
    expect(server.requests).toEqual([]);
  });
});

describe('many packages at once (an audit): an advisory that cannot be read', () => {
  const P1: OsvPackage = { name: 'lodash', version: '4.17.20' };
  const P2: OsvPackage = { name: 'minimist', version: '1.2.5' };
  const P3: OsvPackage = { name: 'wrappy', version: '1.0.2' };
  const A = 'GHSA-35jh-r3h4-6jhm';
  const B = 'GHSA-xvch-5gv4-984h';
  const many = async (answers: Record<string, string[]>) => {
    batchRoute((queries) => ({ results: queries.map((q) => result(answers[q.package.name] ?? [])) }));
    const results = await fetchVulnerabilitiesMany(http, base(), 'npm', [P1, P2, P3]);
    const of = (p: OsvPackage) => results.get(packageKey(p.name, p.version)) as VulnerabilitiesResult;
    return { p1: of(P1), p2: of(P2), p3: of(P3), size: results.size };
  };

  test.each([
    ['a 500', { status: 500 }, /500/],
    ['malformed JSON', { malformed: true }, /: malformed JSON$/],
    ['not a record', { body: { error: 'nope' } }, /: not an OSV record$/],
  ])('B answering %s: only the package it was listed for is unavailable, naming it; the others keep their answers', async (_label, response, cause) => {
    records(A);
    server.expect('GET', vulnPath(B), response);
    const { p1, p2, p3, size } = await many({ lodash: [A], minimist: [B] });
    expect(size).toBe(3);
    expect(ok(p1).advisories.map((a) => `${a.id} ${a.package}`)).toEqual([`${A} lodash`]);
    const reason = unavailable(p2);
    expect(reason).toMatch(new RegExp(`^OSV: advisory ${B} could not be read: `));
    expect(reason).toMatch(cause);
    expect(ok(p3)).toEqual({ advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null });
    expect(posts()).toHaveLength(1);
    expectNoUnexpected(server);
  });

  test('a package listing a readable and an unreadable advisory is unavailable — never its readable part alone', async () => {
    records(A);
    server.expect('GET', vulnPath(B), { status: 500 });
    const { p1, p2, p3 } = await many({ lodash: [A], minimist: [A, B] });
    expect(ok(p1).advisories.map((a) => a.id)).toEqual([A]);
    expect(unavailable(p2)).toMatch(new RegExp(`^OSV: advisory ${B} could not be read: `));
    expect(ok(p3).advisories).toEqual([]);
  });

  test('one request of a large audit failing makes unavailable only the packages it asked about', async () => {
    const packages = Array.from({ length: 1201 }, (_, i) => ({ name: `dep-${i}`, version: '1.0.0' }));
    server.route('POST', QUERYBATCH, (req, res, { body }) => {
      const queries = (JSON.parse(body.toString('utf8')) as { queries: BatchQuery[] }).queries;
      batches.push(queries);
      // The second request of 1,000 (dep-1000 onwards) fails every time it is asked.
      if (queries[0]?.package.name === 'dep-1000') {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const text = JSON.stringify({ results: queries.map((q) => result(q.package.name === 'dep-7' ? [A] : [])) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    });
    records(A);
    const results = await fetchVulnerabilitiesMany(http, base(), 'npm', packages);
    const of = (i: number) => results.get(packageKey(`dep-${i}`, '1.0.0')) as VulnerabilitiesResult;
    expect(results.size).toBe(1201);
    expect(ok(of(7)).advisories.map((a) => a.id)).toEqual([A]);
    expect(ok(of(999)).advisories).toEqual([]);
    for (const i of [1000, 1100, 1200]) expect(unavailable(of(i))).toMatch(/^OSV querybatch: .*503/);
    expect(batches.filter((b) => b[0]?.package.name === 'dep-0')).toHaveLength(1);
  });

  test('the batch itself failing still makes every package unavailable, with its reason', async () => {
    server.expect('POST', QUERYBATCH, { status: 503 });
    const results = await fetchVulnerabilitiesMany(http, base(), 'npm', [P1, P2, P3]);
    expect(results.size).toBe(3);
    for (const r of results.values()) expect(unavailable(r)).toMatch(/^OSV querybatch: .*503/);
    expect(gets()).toEqual([]);
  });
});

test(`advisory records are fetched at most ${FETCH_CONCURRENCY} at a time`, async () => {
  const ids = Array.from({ length: 20 }, (_, i) => `GHSA-nerq-test-${String(i).padStart(4, '0')}`);
  batchRoute((queries) => ({ results: queries.map(() => result(ids)) }));
  let arrived = 0;
  let active = 0;
  let peak = 0;
  const held: (() => void)[] = [];
  // Hold answers until the limit is reached (or every request has come), then a little
  // longer, so a client sending more than the limit would show it in `peak`.
  const maybeRelease = () => {
    if (active < FETCH_CONCURRENCY && arrived < ids.length) return;
    setImmediate(() => setImmediate(() => held.splice(0).forEach((release) => release())));
  };
  for (const id of ids) {
    server.route('GET', vulnPath(id), async (_req, res) => {
      arrived++;
      active++;
      peak = Math.max(peak, active);
      await new Promise<void>((resolve) => {
        held.push(resolve);
        maybeRelease();
      });
      active--;
      const text = JSON.stringify({ id, summary: 'x', database_specific: { severity: 'LOW' } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    });
  }
  const facts = ok(await fetchVulnerabilities(http, base(), { ecosystem: 'npm', target: { name: 'a', version: '1.0.0' }, dependencies: null }));
  expect(facts.advisories).toHaveLength(20);
  expect(gets()).toHaveLength(20);
  expect(peak).toBe(FETCH_CONCURRENCY);
});

describe('fetchPackageRecords: a package asked about with no version (POST /v1/query)', () => {
  const QUERY = '/osv/v1/query';
  const AIOHTT = JSON.parse(readFileSync(new URL('../../fixtures/http/osv/v1/vulns/MAL-2023-1578.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const WITHDRAWN = JSON.parse(readFileSync(new URL('../../fixtures/http/osv/v1/vulns/MAL-2024-2929.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const bodies = () => server.requests.filter((r) => r.path === QUERY).map((r) => JSON.parse(r.body) as unknown);

  test('one request: the name and ecosystem, no version; whole records back, withdrawn and unreadable ones left out', async () => {
    server.expect('POST', QUERY, { body: { vulns: [AIOHTT, WITHDRAWN, { summary: 'no id' }] } });
    const answer = await fetchPackageRecords(http, base(), 'PyPI', 'aiohtt');
    expect(answer.status === 'ok' && answer.records.map((r) => r.id)).toEqual(['MAL-2023-1578']);
    expect(bodies()).toEqual([{ package: { name: 'aiohtt', ecosystem: 'PyPI' } }]);
    expect(gets()).toEqual([]);
  });

  test('no records: OSV answers {} → none', async () => {
    server.expect('POST', QUERY, { body: {} });
    expect(await fetchPackageRecords(http, base(), 'npm', 'gone')).toEqual({ status: 'ok', records: [] });
  });

  test(`more than ${MAX_PAGES} pages: unavailable, never a partial answer`, async () => {
    server.route('POST', QUERY, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ vulns: [], next_page_token: 'more' }));
    });
    const answer = await fetchPackageRecords(http, base(), 'npm', 'gone');
    expect(answer).toMatchObject({ status: 'unavailable', reason: expect.stringContaining(`more than ${MAX_PAGES} pages`) });
    expect(bodies()).toHaveLength(MAX_PAGES);
  });

  test.each([
    ['a 500 after retries', { status: 500, body: 'boom' }, 'http-status'],
    ['malformed JSON', { body: '{"vulns": [' }, 'bad-answer'],
    ['the wrong shape', { body: { vulns: 'MAL-1' } }, 'bad-answer'],
  ])('%s: unavailable with a one-line reason', async (_case, response, code) => {
    server.fallback('POST', '/osv/v1/', response);
    const answer = await fetchPackageRecords(http, base(), 'npm', 'gone');
    expect(answer).toMatchObject({ status: 'unavailable', code });
    expect(answer.status === 'unavailable' && answer.reason).toMatch(/^OSV query: [^\n]+$/);
  });

  test('an invalid base: unavailable, no request', async () => {
    expect(await fetchPackageRecords(http, 'not a url', 'npm', 'gone')).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'not-asked' });
    expect(server.requests).toEqual([]);
  });
});

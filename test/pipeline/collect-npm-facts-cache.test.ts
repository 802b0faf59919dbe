/**
 * collectNpm with the facts cache: a warm run reads no packument, tarball or attestations (it
 * asks the registry nothing) and produces exactly the cold run's evidence; only complete answers
 * are kept (a second tarball reading that was wanted and failed keeps nothing); each kind of fact
 * follows its own freshness; a cached value that does not fit is a miss.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Collected } from '../../src/ecosystems/adapter.js';
import { collectNpm } from '../../src/ecosystems/npm/collect.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { GithubRateLimiter } from '../../src/sources/github/source.js';
import { memoryFactsCache, type FactsCache } from '../../src/sources/facts-cache.js';
import { FRESHNESS_DEFAULTS } from '../../src/sources/http/freshness.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { NpmConfig } from '../../src/sources/npm/config.js';
import { registryFactsKey, tarballFactsKey } from '../../src/sources/npm/facts-cache.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import type { Target } from '../../src/target/types.js';
import { expectNoUnexpected, FIXTURES_ROOT, startFixtureServer, type FixtureServer, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { makeTarball } from '../support/tarball.js';
import { expectPackage, packumentPath, tarballPath } from '../cli/helpers.js';
import { endpointsFor } from '../github/helpers.js';
import { npmConfigAt } from './helpers.js';

const NOW = new Date('2026-06-01T12:00:00Z');

let server: FixtureServer;
let http: HttpClient;

beforeEach(async () => {
  server = await startFixtureServer();
  http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, retry: { baseDelayMs: 1 } });
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

function registry(): string {
  return `${server.url('npm')}/`;
}

function npmConfig(): NpmConfig {
  return npmConfigAt(registry());
}

function contextWith(facts: FactsCache | undefined, extra: Partial<RunContext> = {}): RunContext {
  return {
    http,
    npm: npmConfig(),
    endpoints: endpointsFor(server, { npmPublicRegistry: registry() }),
    githubToken: null,
    githubLimiter: new GithubRateLimiter(),
    now: NOW,
    category: null,
    gate: DEFAULT_GATE,
    ...(facts === undefined ? {} : { facts }),
    ...extra,
  };
}

const target = (name: string, spec?: string): Target => ({ input: spec === undefined ? name : `${name}@${spec}`, ecosystem: 'npm', name, ...(spec === undefined ? {} : { spec }) });

/**
 * Requests since `from` for what the facts cache covers: the packument, tarballs and attestations
 * of `name` (not its dependencies' packuments: that is the dependencies source).
 */
function registryRequests(from = 0, ...names: string[]): string[] {
  const own = (p: string) =>
    (names.length === 0 ? ['chalk'] : names).some(
      (name) => p === packumentPath(name) || p.startsWith(`/npm/${name}/-/`) || p.startsWith(`/npm/-/npm/v1/attestations/${name}@`),
    );
  return server.requests.slice(from).filter((r) => own(r.path)).map((r) => `${r.method} ${r.path}`);
}

function evidenceOf(collected: Collected) {
  if (collected.kind !== 'evidence') throw new Error(`expected evidence, got ${collected.code}: ${collected.message}`);
  return collected.evidence;
}

describe('a warm collection reads nothing from the registry and derives the same evidence', () => {
  test('packument and tarball: the warm evidence deep-equals the cold one', async () => {
    const pkg = expectPackage(server, 'chalk');
    const facts = memoryFactsCache(() => NOW.getTime());

    const cold = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    expect(registryRequests()).toEqual([`GET ${packumentPath('chalk')}`, `GET ${tarballPath(pkg)}`]);
    expect(cold.sources.registry.status).toBe('ok');
    expect(cold.sources.tarball.status).toBe('ok');
    expect([...facts.entries.keys()].filter((k) => k.startsWith('npm:'))).toEqual([
      registryFactsKey(registry(), 'chalk', undefined),
      tarballFactsKey(`${server.url('npm')}/chalk/-/${pkg.tarball}`, cold.sources.registry.status === 'ok' ? cold.sources.registry.facts.integrity : null),
    ]);

    const seen = server.requests.length;
    const warm = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    expect(registryRequests(seen)).toEqual([]);
    expect(warm).toEqual(cold);
    // Byte for byte too: reports print evidence in key order.
    expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
    // Everything else but GitHub (its own facts cache, its rate-limit memory) was asked as in the cold run.
    const covered = new Set(registryRequests(0));
    const others = (from: number, to?: number) =>
      server.requests
        .slice(from, to)
        .map((r) => `${r.method} ${r.path}`)
        .filter((r) => !covered.has(r) && !r.includes(' /github/'))
        .sort();
    expect(others(seen)).toContain('POST /osv/v1/querybatch');
    expect(others(seen)).toEqual(others(0, seen));
    expectNoUnexpected(server);
  });

  test('without a facts cache every run reads the packument and the tarball again', async () => {
    const pkg = expectPackage(server, 'chalk');
    const first = evidenceOf(await collectNpm(target('chalk'), contextWith(undefined)));
    const seen = server.requests.length;
    const second = evidenceOf(await collectNpm(target('chalk'), contextWith(undefined)));
    expect(registryRequests(seen)).toEqual([`GET ${packumentPath('chalk')}`, `GET ${tarballPath(pkg)}`]);
    expect(second).toEqual(first);
  });

  test('attestations: kept and read back, so a warm run does not ask for them', async () => {
    const name = 'nerq-fixture-provenance-dropped';
    const attestationsPath = `/npm/-/npm/v1/attestations/${name}@1.3.0`;
    server.expect('GET', packumentPath(name));
    server.expect('GET', `/npm/${name}/-/${name}-1.3.0.tgz`, { status: 404 });
    server.expect('GET', attestationsPath, { body: attestationsAnswer(name, '1.3.0'), times: 1 });
    server.fallback('GET', '/npm-api/', { status: 404, body: { error: 'not found' } });
    server.fallback('GET', '/github/', { status: 404, body: { message: 'Not Found' } });
    server.route('POST', '/osv/v1/querybatch', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{}] }));
    });
    const facts = memoryFactsCache(() => NOW.getTime());

    // As in an audit: the dependencies are not resolved, so every request is the target's own.
    const audit = { skipDependencies: true };
    const cold = evidenceOf(await collectNpm(target(name, '1.3.0'), contextWith(facts, audit)));
    expect(cold.sources.attestations).toMatchObject({ status: 'ok', facts: { provenance: true } });
    // The tarball could not be read: not kept, asked again.
    expect(cold.sources.tarball.status).toBe('unavailable');
    expect([...facts.entries.keys()].filter((k) => k.startsWith('npm:'))).toHaveLength(2);

    const seen = server.requests.length;
    const warm = evidenceOf(await collectNpm(target(name, '1.3.0'), contextWith(facts, audit)));
    expect(registryRequests(seen, name)).toEqual([`GET /npm/${name}/-/${name}-1.3.0.tgz`]);
    expect(warm).toEqual(cold);
    expectNoUnexpected(server);
  });
});

describe('only complete answers are kept', () => {
  test('a package that is not there, or not at that version, is asked again', async () => {
    server.expect('GET', packumentPath('nerq-nothing'), { status: 404, body: { error: 'Not found' } });
    server.expect('GET', packumentPath('chalk'));
    const facts = memoryFactsCache(() => NOW.getTime());
    for (let run = 0; run < 2; run += 1) {
      expect(await collectNpm(target('nerq-nothing'), contextWith(facts))).toMatchObject({ kind: 'error', code: 'not-found' });
      expect(await collectNpm(target('chalk', '99.0.0'), contextWith(facts))).toMatchObject({ kind: 'error', code: 'version-not-found' });
    }
    expect(registryRequests(0, 'nerq-nothing', 'chalk')).toEqual([
      `GET ${packumentPath('nerq-nothing')}`,
      `GET ${packumentPath('chalk')}`,
      `GET ${packumentPath('nerq-nothing')}`,
      `GET ${packumentPath('chalk')}`,
    ]);
    expect(facts.entries.size).toBe(0);
  });

  test('an unreadable packument is asked again', async () => {
    server.expect('GET', packumentPath('chalk'), { malformed: true });
    const facts = memoryFactsCache(() => NOW.getTime());
    for (let run = 0; run < 2; run += 1) {
      expect(await collectNpm(target('chalk'), contextWith(facts))).toMatchObject({ kind: 'error', code: 'registry-unavailable' });
    }
    expect(registryRequests()).toEqual([`GET ${packumentPath('chalk')}`, `GET ${packumentPath('chalk')}`]);
    expect(facts.entries.size).toBe(0);
  });
});

describe('a tarball read twice is kept only when the second reading answered', () => {
  const NAME = 'nerq-fixture-bare';
  // A file before the package.json, run by the binding.gyp after it (npm's implicit `node-gyp
  // rebuild`): the first reading names it too late (`reread`), a second one reads it.
  const gyp = JSON.stringify({ targets: [{ target_name: 'Setup', type: 'none', sources: ['<!(node aa.js > /dev/null 2>&1 && echo stub.c)'] }] });
  const tarball = makeTarball([
    { path: 'aa.js', content: 'payload()' },
    { path: 'package.json', content: JSON.stringify({ name: NAME, version: '1.0.0', main: 'index.js' }) },
    { path: 'binding.gyp', content: gyp },
    { path: 'index.js', content: 'module.exports = 1;' },
  ]);

  /** The bare fixture package republished with that tarball (integrity computed), served by `answer`. */
  function serve(answer: (request: number) => 'ok' | 'fail' | 'reset'): { requests: () => number } {
    const packument = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'npm', `${NAME}.json`), 'utf8')) as { versions: Record<string, { dist: Record<string, unknown> }> };
    const dist = packument.versions['1.0.0']!.dist;
    dist.integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
    delete dist.shasum;
    dist.fileCount = 4;
    let count = 0;
    expectPackage(server, NAME, {
      packument: { body: packument },
      tarballHandler: (req, res) => {
        count += 1;
        const what = answer(count);
        if (what === 'reset') req.socket.resetAndDestroy();
        else if (what === 'fail') {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":"internal"}');
        } else {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(tarball);
        }
      },
    });
    return { requests: () => count };
  }

  const installCodeOf = (collected: Collected) => {
    const tarballSource = evidenceOf(collected).sources.tarball;
    if (tarballSource.status !== 'ok') throw new Error(`tarball ${tarballSource.status}`);
    return tarballSource.facts.installCode;
  };
  const tarballKeys = (facts: ReturnType<typeof memoryFactsCache>) => [...facts.entries.keys()].filter((k) => k.startsWith('npm:tarball:'));

  test.each(['fail', 'reset'] as const)('a second reading answered with %s: this run has the file unread, nothing is kept, the next run reads it', async (fault) => {
    let healthy = false;
    const served = serve((n) => (healthy || n === 1 ? 'ok' : fault));
    const facts = memoryFactsCache(() => NOW.getTime());
    const audit = { skipDependencies: true };

    const degraded = installCodeOf(await collectNpm(target(NAME), contextWith(facts, audit)));
    expect(served.requests()).toBeGreaterThanOrEqual(2);
    expect(degraded?.unread).toEqual(['aa.js']);
    expect(degraded?.files.map((f) => f.path)).toEqual(['binding.gyp']);
    expect(tarballKeys(facts)).toEqual([]);

    healthy = true;
    const before = served.requests();
    const complete = installCodeOf(await collectNpm(target(NAME), contextWith(facts, audit)));
    // Read twice again (not served from the facts cache), and this time the file is read.
    expect(served.requests() - before).toBe(2);
    expect(complete?.files.map((f) => f.path)).toEqual(['binding.gyp', 'aa.js']);
    expect(complete?.unread).toEqual([]);
    expect(tarballKeys(facts)).toHaveLength(1);

    // Kept now: a third run asks nothing and has the complete facts.
    const seen = served.requests();
    expect(installCodeOf(await collectNpm(target(NAME), contextWith(facts, audit)))).toEqual(complete);
    expect(served.requests()).toBe(seen);
  });
});

describe('keys and freshness', () => {
  test('each spec is its own entry: another spec reads the packument again', async () => {
    expectPackage(server, 'chalk');
    const facts = memoryFactsCache(() => NOW.getTime());
    const latest = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    const seen = server.requests.length;
    const exact = evidenceOf(await collectNpm(target('chalk', '4.1.0'), contextWith(facts)));
    // The same version: the packument is read again for the new spec, the tarball comes from the cache.
    expect(registryRequests(seen)).toEqual([`GET ${packumentPath('chalk')}`]);
    expect(exact.sources).toEqual(latest.sources);
    expect(facts.entries.has(registryFactsKey(registry(), 'chalk', '4.1.0')!)).toBe(true);
    expect(facts.entries.has(registryFactsKey(registry(), 'chalk', undefined)!)).toBe(true);
  });

  test('registry facts go stale with the packument, tarball facts stay fresh for a week', async () => {
    const pkg = expectPackage(server, 'chalk');
    let now = NOW.getTime();
    const facts = memoryFactsCache(() => now);
    const cold = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    now += FRESHNESS_DEFAULTS.npmPackument + 1;
    const seen = server.requests.length;
    const later = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    expect(registryRequests(seen)).toEqual([`GET ${packumentPath('chalk')}`]);
    expect(later).toEqual(cold);
    now += FRESHNESS_DEFAULTS.npmTarball;
    const seen2 = server.requests.length;
    await collectNpm(target('chalk'), contextWith(facts));
    expect(registryRequests(seen2)).toEqual([`GET ${packumentPath('chalk')}`, `GET ${tarballPath(pkg)}`]);
  });

  test('a cached value that does not fit the facts (another shape) is a miss, and is replaced', async () => {
    const pkg = expectPackage(server, 'chalk');
    const facts = memoryFactsCache(() => NOW.getTime());
    const cold = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    const registryKey = registryFactsKey(registry(), 'chalk', undefined)!;
    const tarballKey = tarballFactsKey(`${server.url('npm')}/chalk/-/${pkg.tarball}`, cold.sources.registry.status === 'ok' ? cold.sources.registry.facts.integrity : null)!;
    expect(facts.entries.has(tarballKey)).toBe(true);
    facts.put(registryKey, { version: '4.1.0', facts: { name: 'chalk' } });
    facts.put(tarballKey, { readme: 42 });
    const seen = server.requests.length;
    const warm = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    expect(registryRequests(seen)).toEqual([`GET ${packumentPath('chalk')}`, `GET ${tarballPath(pkg)}`]);
    expect(warm).toEqual(cold);
    expect(JSON.parse(facts.entries.get(registryKey)!.json)).toMatchObject({ version: '4.1.0', facts: { name: 'chalk', version: '4.1.0' } });
  });

  test('facts whose version is not the one they are stored as are a miss', async () => {
    expectPackage(server, 'chalk');
    const facts = memoryFactsCache(() => NOW.getTime());
    const cold = evidenceOf(await collectNpm(target('chalk'), contextWith(facts)));
    const registryKey = registryFactsKey(registry(), 'chalk', undefined)!;
    const stored = JSON.parse(facts.entries.get(registryKey)!.json) as { version: string };
    facts.put(registryKey, { ...stored, version: '4.0.0' });
    const seen = server.requests.length;
    expect(evidenceOf(await collectNpm(target('chalk'), contextWith(facts)))).toEqual(cold);
    expect(registryRequests(seen)).toEqual([`GET ${packumentPath('chalk')}`]);
  });
});

/** An attestations answer with a SLSA v1 provenance statement for `name@version`. */
function attestationsAnswer(name: string, version: string): object {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: `pkg:npm/${name}@${version}`, digest: { sha512: 'ab'.repeat(64) } }],
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
        externalParameters: {
          workflow: { ref: `refs/tags/v${version}`, repository: `https://github.com/nerq-fixtures/${name}`, path: '.github/workflows/release.yml' },
        },
        resolvedDependencies: [{ uri: `git+https://github.com/nerq-fixtures/${name}@refs/tags/v${version}`, digest: { gitCommit: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c' } }],
      },
      runDetails: { builder: { id: 'https://github.com/actions/runner/github-hosted' } },
    },
  };
  const envelope = (predicateType: string, payload: unknown) => ({
    predicateType,
    bundle: { dsseEnvelope: { payloadType: 'application/vnd.in-toto+json', payload: Buffer.from(JSON.stringify(payload)).toString('base64') } },
  });
  return {
    attestations: [
      envelope('https://github.com/npm/attestation/tree/main/specs/publish/v0.1', { predicate: { name, version } }),
      envelope('https://slsa.dev/provenance/v1', statement),
    ],
  };
}

describe('a warm audit collection makes no request at all', () => {
  test('with the audit’s shared downloads, advisories and GitHub lookups, only the cold run asks the registry', async () => {
    const pkg = expectPackage(server, 'chalk');
    const facts = memoryFactsCache(() => NOW.getTime());
    // What an audit gathers for every package at once (evaluate.ts), answered here without a server.
    const audit: Partial<RunContext> = {
      skipDependencies: true,
      prefetchedDownloads: async () => ({ status: 'ok', facts: { lastWeek: 10, lastMonth: 40, lastYear: 500 } }),
      prefetchedVulnerabilities: async () => ({ status: 'ok', facts: { advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null } }),
      githubLookup: async () => ({ status: 'unavailable', reason: 'not asked in this test', code: 'not-asked' }),
    };
    const cold = evidenceOf(await collectNpm(target('chalk'), contextWith(facts, audit)));
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${packumentPath('chalk')}`, `GET ${tarballPath(pkg)}`]);
    const seen = server.requests.length;
    const warm = evidenceOf(await collectNpm(target('chalk'), contextWith(facts, audit)));
    expect(server.requests.length - seen).toBe(0);
    expect(warm).toEqual(cold);
  });
});

describe('facts-cache keys never hold a credential', () => {
  test('user information, query and fragment are dropped from registry and tarball URLs', () => {
    const secret = registryFactsKey('https://nerq-user:s3cret-token@registry.example/npm/?token=q-secret#frag', 'left-pad', '^1');
    expect(secret).toBe(registryFactsKey('https://registry.example/npm/', 'left-pad', '^1'));
    for (const word of ['nerq-user', 's3cret-token', 'q-secret', 'frag']) expect(secret).not.toContain(word);
    const tarball = tarballFactsKey('https://nerq-user:s3cret-token@registry.example/npm/left-pad/-/left-pad-1.0.0.tgz?sig=q-secret', 'sha512-abc');
    expect(tarball).toBe(tarballFactsKey('https://registry.example/npm/left-pad/-/left-pad-1.0.0.tgz', 'sha512-abc'));
    for (const word of ['nerq-user', 's3cret-token', 'q-secret']) expect(tarball).not.toContain(word);
  });

  test('every input the facts depend on separates keys; an unusable URL has no key', () => {
    const base = 'https://registry.example/npm/';
    const keys = [
      registryFactsKey(base, 'left-pad', undefined),
      registryFactsKey(base, 'left-pad', 'latest'),
      registryFactsKey(base, 'left-pad', '1.0.0'),
      registryFactsKey(base, 'right-pad', undefined),
      registryFactsKey('https://other.example/npm/', 'left-pad', undefined),
      tarballFactsKey(`${base}left-pad/-/left-pad-1.0.0.tgz`, 'sha512-abc'),
      tarballFactsKey(`${base}left-pad/-/left-pad-1.0.0.tgz`, 'sha512-def'),
      tarballFactsKey(`${base}left-pad/-/left-pad-1.0.0.tgz`, null),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(registryFactsKey('not a url', 'left-pad', undefined)).toBeUndefined();
    expect(tarballFactsKey('not a url', null)).toBeUndefined();
  });
});

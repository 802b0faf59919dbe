import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DependencyFactsSchema } from '../../src/evidence/schema.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import { planDependency } from '../../src/ecosystems/npm/dependency-plan.js';
import { resolveDependencies, resolveDependencyList, type DependenciesResult } from '../../src/sources/npm/dependencies.js';
import { ABBREVIATED_ACCEPT } from '../../src/sources/npm/registry.js';
import type { HttpClient, HttpRequest, HttpResult } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/** A tiny abbreviated packument holding `versions` (latest = the last one). */
function corgi(name: string, versions: string[], extra: Record<string, unknown> = {}): object {
  return {
    name,
    'dist-tags': { latest: versions.at(-1) },
    versions: Object.fromEntries(versions.map((v) => [v, { name, version: v, dist: { tarball: `{{REGISTRY}}/${name}/-/${name}-${v}.tgz` } }])),
    ...extra,
  };
}

function okFacts(result: DependenciesResult) {
  expect(result.status).toBe('ok');
  if (result.status !== 'ok') throw new Error(result.reason);
  expect(DependencyFactsSchema.safeParse(result.facts).success).toBe(true);
  return result.facts.dependencies;
}

describe('resolveDependencies against the fixture server', () => {
  let server: FixtureServer;
  let http: HttpClient;
  let npm: { registryFor(name: string): string };

  beforeEach(async () => {
    server = await startFixtureServer();
    http = createHttpClient({ retry: { retries: 0 }, env: {} });
    npm = { registryFor: () => `${server.url('npm')}/` };
  });
  afterEach(async () => {
    await http.close();
    await server.close();
  });

  test('ranges resolve as npm picks them: latest when it satisfies, else the highest match', async () => {
    server
      .expect('GET', '/npm/nerq-fixture-dep-ranges', { times: 1 })
      .expect('GET', '/npm/chalk', { times: 1 })
      .expect('GET', '/npm/debug', { times: 1 });
    const deps = okFacts(
      await resolveDependencies(http, npm, {
        'nerq-fixture-dep-ranges': '^1.0.0',
        'ranges-major-2': 'npm:nerq-fixture-dep-ranges@^2.0.0',
        'ranges-deprecated': 'npm:nerq-fixture-dep-ranges@1.1.0',
        'ranges-next': 'npm:nerq-fixture-dep-ranges@next',
        'ranges-any': 'npm:nerq-fixture-dep-ranges',
        chalk: '^2.0.0',
        debug: '^4.1.0',
      }),
    );
    expectNoUnexpected(server);
    expect(server.pending()).toEqual([]); // each package fetched once, aliases included
    expect(deps.map((d) => [d.name, d.range, d.version, d.reason])).toEqual([
      ['nerq-fixture-dep-ranges', '^1.0.0', '1.2.0', null],
      ['nerq-fixture-dep-ranges', 'npm:nerq-fixture-dep-ranges@^2.0.0', '2.0.0', null],
      ['nerq-fixture-dep-ranges', 'npm:nerq-fixture-dep-ranges@1.1.0', '1.1.0', null],
      ['nerq-fixture-dep-ranges', 'npm:nerq-fixture-dep-ranges@next', '2.1.0-beta.1', null],
      ['nerq-fixture-dep-ranges', 'npm:nerq-fixture-dep-ranges', '1.2.0', null],
      ['chalk', '^2.0.0', '2.4.2', null],
      ['debug', '^4.1.0', '4.2.0', null], // the latest tag (4.2.0) satisfies, so not 4.3.0
    ]);
    expect(deps.every((d) => !d.securityHolding)).toBe(true);
    for (const request of server.requests) expect(request.headers.accept).toBe(ABBREVIATED_ACCEPT);
  });

  test("each fetched packument's version count and last change are kept (release-anomalies tells a newcomer by them)", async () => {
    server
      .expect('GET', '/npm/chalk', { times: 1 })
      .expect('GET', '/npm/fresh', { times: 1, body: corgi('fresh', ['0.1.0'], { modified: '2018-09-05T10:00:00.000Z' }) })
      .expect('GET', '/npm/full-doc', { times: 1, body: corgi('full-doc', ['1.0.0', '1.1.0'], { time: { modified: '2020-01-02T03:04:05Z' } }) })
      .expect('GET', '/npm/odd-time', { times: 1, body: corgi('odd-time', ['1.0.0'], { modified: 'x'.repeat(100) }) });
    const deps = okFacts(await resolveDependencies(http, npm, { chalk: '^2.0.0', fresh: '^0.1.0', 'full-doc': '^1.0.0', 'odd-time': '1.0.0' }));
    expectNoUnexpected(server);
    expect(deps.map((d) => [d.name, d.versionCount, d.packumentModified])).toEqual([
      ['chalk', expect.any(Number), expect.stringMatching(/^\d{4}-\d\d-\d\dT/)],
      ['fresh', 1, '2018-09-05T10:00:00.000Z'],
      ['full-doc', 2, '2020-01-02T03:04:05.000Z'],
      ['odd-time', 1, null],
    ]);
    expect(deps[0]!.versionCount).toBeGreaterThan(20);
  });

  test('a scoped dependency goes to its scope registry, name escaped', async () => {
    npm = { registryFor: (name) => (name.startsWith('@nerq-fixture/') ? `${server.url('scoped')}/` : `${server.url('npm')}/`) };
    server.expect('GET', '/scoped/@nerq-fixture%2fdep-scoped', { fixture: 'npm/@nerq-fixture/dep-scoped.json' });
    const deps = okFacts(await resolveDependencies(http, npm, { '@nerq-fixture/dep-scoped': '~3.0.0' }));
    expectNoUnexpected(server);
    expect(server.requests.map((r) => r.path)).toEqual(['/scoped/@nerq-fixture%2fdep-scoped']);
    expect(deps).toMatchObject([{ name: '@nerq-fixture/dep-scoped', range: '~3.0.0', version: '3.0.1', reason: null, securityHolding: false }]);
  });

  test('a list may name one package with several ranges (a repository\'s manifests): each resolved in order, its packument fetched once', async () => {
    server.expect('GET', '/npm/two-ranges', { body: corgi('two-ranges', ['1.0.0', '1.5.0', '2.0.0', '2.3.0']) });
    const deps = okFacts(
      await resolveDependencyList(http, npm, [
        ['two-ranges', '^1.0.0'],
        ['two-ranges', '^2.0.0'],
      ]),
    );
    expectNoUnexpected(server);
    expect(server.requests.map((r) => r.path)).toEqual(['/npm/two-ranges']);
    expect(deps.map((d) => [d.range, d.version])).toEqual([
      ['^1.0.0', '1.5.0'],
      ['^2.0.0', '2.3.0'],
    ]);
  });

  test('the security-holding placeholder: by version pattern, by description, and for a range it cannot satisfy', async () => {
    server
      .expect('GET', '/npm/crossenv') // the recorded placeholder: only 0.0.2-security
      .expect('GET', '/npm/held-by-description', {
        body: corgi('held-by-description', ['1.0.0'], { description: 'security holding package' }),
      });
    const deps = okFacts(
      await resolveDependencies(http, npm, {
        crossenv: '*',
        'crossenv-as-published': 'npm:crossenv@^6.1.1', // what the malicious crossenv was published as
        'held-by-description': '^1.0.0',
      }),
    );
    expectNoUnexpected(server);
    expect(deps).toMatchObject([
      { name: 'crossenv', range: '*', version: '0.0.2-security', reason: null, securityHolding: true },
      { name: 'crossenv', range: 'npm:crossenv@^6.1.1', version: null, reason: 'no version matches "^6.1.1"', securityHolding: true },
      { name: 'held-by-description', range: '^1.0.0', version: '1.0.0', reason: null, securityHolding: true },
    ]);
  });

  test('a 404 dependency and a range nothing matches get version null with the reason; the source still answers', async () => {
    server
      .expect('GET', '/npm/gone', { status: 404 })
      .expect('GET', '/npm/nerq-fixture-dep-ranges');
    const deps = okFacts(await resolveDependencies(http, npm, { gone: '^1.0.0', 'nerq-fixture-dep-ranges': '^9.0.0' }));
    expectNoUnexpected(server);
    expect(deps).toMatchObject([
      { name: 'gone', range: '^1.0.0', version: null, reason: 'not found in the registry', securityHolding: false },
      { name: 'nerq-fixture-dep-ranges', range: '^9.0.0', version: null, reason: 'no version matches "^9.0.0"', securityHolding: false },
    ]);
  });

  test('an alias is resolved and recorded as the package it installs', async () => {
    server.expect('GET', '/npm/@nerq-fixture%2fdep-scoped');
    const deps = okFacts(await resolveDependencies(http, npm, { 'local-name': 'npm:@nerq-fixture/dep-scoped@3.0.0' }));
    expectNoUnexpected(server);
    expect(server.requests.map((r) => r.path)).toEqual(['/npm/@nerq-fixture%2fdep-scoped']);
    expect(deps).toMatchObject([
      { name: '@nerq-fixture/dep-scoped', range: 'npm:@nerq-fixture/dep-scoped@3.0.0', version: '3.0.0', reason: null, securityHolding: false },
    ]);
  });

  test('git, local, tarball-URL and workspace dependencies send no request', async () => {
    const deps = okFacts(
      await resolveDependencies(http, npm, {
        'from-github': 'github:owner/repo#v1.0.0',
        'from-git': 'git+https://git.example.test/owner/repo.git',
        shorthand: 'owner/repo',
        local: 'file:../local',
        tarball: 'https://example.test/pkg-1.0.0.tgz',
        sibling: 'workspace:*',
        linked: 'link:../linked',
      }),
    );
    expect(server.requests).toEqual([]);
    expect(deps.map((d) => [d.name, d.version, d.reason])).toEqual([
      ['from-github', null, 'not a registry dependency (git)'],
      ['from-git', null, 'not a registry dependency (git)'],
      ['shorthand', null, 'not a registry dependency (git)'],
      ['local', null, 'not a registry dependency (local path)'],
      ['tarball', null, 'not a registry dependency (tarball URL)'],
      ['sibling', null, 'not a registry dependency (workspace: specifier)'],
      ['linked', null, 'not a registry dependency (link: specifier)'],
    ]);
  });

  test('no dependencies → ok with an empty list, no request', async () => {
    expect(await resolveDependencies(http, npm, {})).toEqual({ status: 'ok', facts: { dependencies: [] } });
    expect(server.requests).toEqual([]);
  });

  test('concurrency is bounded: never more than `concurrency` packuments in flight', async () => {
    const total = 10;
    const limit = 3;
    let inFlight = 0;
    let maxInFlight = 0;
    let received = 0;
    let held: { res: ServerResponse; name: string }[] = [];
    let scheduled = false;
    // Answers are held until `limit` requests are in flight (or the last ones arrived), then
    // released a moment later: a client that respects the bound sends nothing more meanwhile
    // (so the count is exact whatever the timing), one that does not shows it.
    const release = (): void => {
      scheduled = false;
      for (const { res, name } of held) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(corgi(name, ['1.0.0'])));
      }
      inFlight -= held.length;
      held = [];
    };
    const ranges: Record<string, string> = {};
    for (let i = 0; i < total; i++) {
      const name = `dep-${i}`;
      ranges[name] = '^1.0.0';
      server.route('GET', `/npm/${name}`, (_req, res) => {
        received += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        held.push({ res, name });
        if ((inFlight >= limit || received === total) && !scheduled) {
          scheduled = true;
          setTimeout(release, 50);
        }
      });
    }
    const deps = okFacts(await resolveDependencies(http, npm, ranges, { concurrency: limit }));
    expectNoUnexpected(server);
    expect(received).toBe(total);
    expect(maxInFlight).toBe(limit);
    expect(deps.map((d) => d.version)).toEqual(Array(total).fill('1.0.0'));
  });

  test('more than half of the requested dependencies failing for network reasons → unavailable', async () => {
    server
      .expect('GET', '/npm/fails-a', { status: 500 })
      .expect('GET', '/npm/fails-b', { reset: true })
      .expect('GET', '/npm/works', { body: corgi('works', ['1.0.0']) });
    const result = await resolveDependencies(http, npm, {
      'fails-a': '^1.0.0',
      'fails-b': '^1.0.0',
      works: '^1.0.0',
      'from-git': 'github:o/r', // needs no request, so it does not dilute the failures
    });
    expectNoUnexpected(server);
    expect(result.status).toBe('unavailable');
    if (result.status === 'unavailable') {
      expect(result.reason).toMatch(/^the package metadata of 2 of 3 dependencies could not be fetched \(fails-a: package metadata: /);
      // User words: `--json` carries it as the dependencies source's reason.
      expect(result.reason).not.toMatch(/packument/i);
      expect(result.reason).not.toMatch(/\n/);
    }
  });

  test('half failing (not more) → ok, the failures carry their reason; 404s are not network failures', async () => {
    server
      .expect('GET', '/npm/fails', { status: 500 })
      .expect('GET', '/npm/malformed', { malformed: true })
      .expect('GET', '/npm/missing', { status: 404 })
      .expect('GET', '/npm/works', { body: corgi('works', ['1.0.0']) });
    const deps = okFacts(
      await resolveDependencies(http, npm, { fails: '1', malformed: '1', missing: '1', works: '1' }),
    );
    expectNoUnexpected(server);
    expect(deps.map((d) => [d.name, d.version, d.reason])).toEqual([
      ['fails', null, expect.stringMatching(/^package metadata: HTTP 500\b/)],
      ['malformed', null, 'package metadata: malformed JSON'],
      ['missing', null, 'not found in the registry'],
      ['works', '1.0.0', null],
    ]);
  });
});

describe('resolveDependencies with an in-process client', () => {
  /** A client whose answers the test releases by hand, to watch what is in flight. */
  function gatedHttp() {
    const pending: { req: HttpRequest; resolve: (result: HttpResult) => void }[] = [];
    const http: HttpClient = {
      request: (req) => new Promise((resolve) => pending.push({ req, resolve })),
      close: async () => {},
    };
    return { http, pending };
  }
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  const npm = { registryFor: () => 'http://127.0.0.1:9/npm/' };

  test('exactly `concurrency` requests in flight until answers arrive, default 8', async () => {
    for (const [concurrency, expected] of [[undefined, 8], [2, 2], [0, 1], [100, 12]] as const) {
      const { http, pending } = gatedHttp();
      const ranges = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, '1.0.0']));
      const done = resolveDependencies(http, npm, ranges, concurrency === undefined ? {} : { concurrency });
      await flush();
      expect(pending.length).toBe(expected);
      let answered = 0;
      while (answered < pending.length) {
        const next = pending[answered]!;
        const name = next.req.url.split('/').at(-1)!;
        next.resolve({ ok: true, status: 200, headers: {}, url: next.req.url, body: Buffer.from(JSON.stringify(corgi(name, ['1.0.0']))) });
        answered += 1;
        await flush();
        expect(pending.length - answered).toBeLessThanOrEqual(expected);
      }
      const deps = okFacts(await done);
      expect(deps).toHaveLength(12);
      expect(new Set(pending.map((p) => p.req.url)).size).toBe(12);
    }
  });

  test('a client that throws is a failure, not an exception', async () => {
    const http: HttpClient = {
      request: async () => {
        throw new Error('boom\nsecond line');
      },
      close: async () => {},
    };
    const result = await resolveDependencies(http, npm, { a: '1', b: '2' });
    expect(result).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^the package metadata of 2 of 2 dependencies could not be fetched/), code: 'unclassified' });
  });

  test('hostile ranges and names never throw and never reach the network', async () => {
    const { http, pending } = gatedHttp();
    const result = await resolveDependencies(http, npm, {
      '../etc/passwd': '1.0.0',
      'ok-name': 'x'.repeat(5000),
      alias: 'npm:../x',
      empty: 'npm:',
    });
    expect(pending).toHaveLength(0);
    const deps = okFacts(result);
    expect(deps.map((d) => d.version)).toEqual([null, null, null, null]);
    expect(deps.every((d) => typeof d.reason === 'string' && d.reason.length > 0)).toBe(true);
  });
});

describe('planDependency', () => {
  test.each([
    ['x', '^1.2.3', { kind: 'registry', name: 'x', spec: '^1.2.3' }],
    ['x', '', { kind: 'registry', name: 'x', spec: '' }],
    ['x', 'latest', { kind: 'registry', name: 'x', spec: 'latest' }],
    ['x', '1.x || >=2.5.0', { kind: 'registry', name: 'x', spec: '1.x || >=2.5.0' }],
    ['x', 'npm:y@^2', { kind: 'registry', name: 'y', spec: '^2' }],
    ['x', 'npm:@s/y', { kind: 'registry', name: '@s/y', spec: '*' }],
    ['x', 'github:o/r', { kind: 'skip', reason: 'not a registry dependency (git)' }],
    ['x', 'file:x.tgz', { kind: 'skip', reason: 'not a registry dependency (local path)' }],
    ['x', 'workspace:^', { kind: 'skip', reason: 'not a registry dependency (workspace: specifier)' }],
    ['x', 'catalog:', { kind: 'skip', reason: 'not a registry dependency (catalog: specifier)' }],
    ['x', 'npm:../y', { kind: 'skip', reason: 'not a valid npm: alias' }],
    ['../x', '1.0.0', { kind: 'skip', reason: 'not a valid package name or specifier' }],
  ])('%s@%s', (name, range, expected) => {
    expect(planDependency(name, range)).toMatchObject({ range, ...expected });
  });
});

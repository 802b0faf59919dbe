/**
 * Several versions of one package in an audit share its name-level answers (packument, download
 * counts): `shareByPackage` from src/audit/evaluate.ts over a counting client, then end to end
 * through the CLI with a lockfile that locks one package at two versions (and one of them twice,
 * at two install paths: folded into one evaluation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareByPackage } from '../../src/audit/evaluate.js';
import type { HttpClient, HttpRequest, HttpResult } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { bulkDownloadRequests, kindOf, parseAudit, repeated, serveOsv, serveSynthetic, syntheticTarballPath, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

/** A client answering every request with a fresh body naming its number, counting what it was asked. */
function countingClient(): HttpClient & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async request(req: HttpRequest): Promise<HttpResult> {
      asked.push(`${req.method ?? 'GET'} ${req.url}`);
      await new Promise((resolve) => setImmediate(resolve));
      if (req.url.endsWith('/missing')) return { ok: false, kind: 'status', status: 404, reason: 'HTTP 404' };
      return { ok: true, status: 200, headers: {}, body: Buffer.from(String(asked.length)), url: req.url };
    },
    close: async () => undefined,
  };
}

const get = (url: string, accept = 'application/json'): HttpRequest => ({ url, headers: { accept } });
const bodyOf = (result: HttpResult) => (result.ok ? result.body.toString() : result.reason);

describe('shareByPackage', () => {
  it('evaluations of one package send each GET once, concurrent or one after the other', async () => {
    const inner = countingClient();
    const sharing = shareByPackage(inner, ['npm:chalk', 'npm:chalk', 'npm:chalk']);
    const ask = () => sharing.run('npm:chalk', async () => bodyOf(await sharing.http.request(get('http://r.test/chalk'))));
    const concurrent = await Promise.all([ask(), ask()]);
    const later = await ask();
    expect(inner.asked).toEqual(['GET http://r.test/chalk']);
    expect([...concurrent, later]).toEqual(['1', '1', '1']);
  });

  it('a failure is shared too (the cache keeps no failures)', async () => {
    const inner = countingClient();
    const sharing = shareByPackage(inner, ['npm:gone', 'npm:gone']);
    const ask = () => sharing.run('npm:gone', async () => bodyOf(await sharing.http.request(get('http://r.test/missing'))));
    expect([await ask(), await ask()]).toEqual(['HTTP 404', 'HTTP 404']);
    expect(inner.asked).toHaveLength(1);
  });

  it('different requests, other packages, POSTs and packages evaluated once are not shared', async () => {
    const inner = countingClient();
    const sharing = shareByPackage(inner, ['npm:a', 'npm:a', 'npm:b', 'pypi:a']);
    await sharing.run('npm:a', async () => {
      await sharing.http.request(get('http://r.test/a'));
      await sharing.http.request(get('http://r.test/a', 'application/vnd.npm.install-v1+json'));
      await sharing.http.request({ url: 'http://osv.test/v1/querybatch', method: 'POST', body: '{}' });
      await sharing.http.request({ url: 'http://osv.test/v1/querybatch', method: 'POST', body: '{}' });
    });
    await sharing.run('npm:b', async () => {
      await sharing.http.request(get('http://r.test/a'));
      await sharing.http.request(get('http://r.test/b'));
      await sharing.http.request(get('http://r.test/b'));
    });
    await sharing.run('pypi:a', () => sharing.http.request(get('http://r.test/a')));
    await sharing.http.request(get('http://r.test/a')); // outside any evaluation
    expect(inner.asked).toEqual([
      'GET http://r.test/a',
      'GET http://r.test/a',
      'POST http://osv.test/v1/querybatch',
      'POST http://osv.test/v1/querybatch',
      'GET http://r.test/a',
      'GET http://r.test/b',
      'GET http://r.test/b',
      'GET http://r.test/a',
      'GET http://r.test/a',
    ]);
  });

  it("drops a package's answers when its last evaluation is done", async () => {
    const inner = countingClient();
    const sharing = shareByPackage(inner, ['npm:a', 'npm:a']);
    const ask = () => sharing.run('npm:a', () => sharing.http.request(get('http://r.test/a')));
    await ask();
    await ask();
    // A third evaluation was never announced: nothing is kept for it, so it asks again.
    await ask();
    expect(inner.asked).toEqual(['GET http://r.test/a', 'GET http://r.test/a']);
  });
});

describe('an audit locking one package at two versions', () => {
  const MULTI_NEW = { name: 'nerq-audit-multi', version: '2.0.0' };
  const MULTI_OLD = { name: 'nerq-audit-multi', version: '1.0.0' };
  const DEPENDENT = { name: 'nerq-audit-dependent', version: '1.0.0' };
  const OTHER = { name: 'nerq-audit-other', version: '3.0.0' };
  const dirs = new TempDirs();
  let server: FixtureServer;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startFixtureServer();
    // One packument publishing both versions of nerq-audit-multi.
    serveSynthetic(server, { ...MULTI_NEW, also: [MULTI_OLD.version] });
    serveSynthetic(server, DEPENDENT);
    serveSynthetic(server, OTHER);
    serveOsv(server, []);
  });

  afterAll(async () => {
    await server?.close();
    dirs.cleanUp();
  });

  it('one packument and one pair of download counts for the package, a tarball per version, duplicates folded', async () => {
    const registry = server.url('npm');
    const entry = (p: { name: string; version: string }, extra: object = {}) => ({
      version: p.version,
      resolved: `${registry}${syntheticTarballPath(p).slice('/npm'.length)}`,
      license: 'MIT',
      ...extra,
    });
    const lock = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { 'nerq-audit-multi': '^2.0.0', 'nerq-audit-dependent': '^1.0.0', 'nerq-audit-other': '^3.0.0' } },
        'node_modules/nerq-audit-dependent': entry(DEPENDENT, { dependencies: { 'nerq-audit-multi': '^1.0.0' } }),
        'node_modules/nerq-audit-dependent/node_modules/nerq-audit-multi': entry(MULTI_OLD),
        'node_modules/nerq-audit-multi': entry(MULTI_NEW),
        'node_modules/nerq-audit-other': entry(OTHER, { dependencies: { 'nerq-audit-multi': '^1.0.0' } }),
        'node_modules/nerq-audit-other/node_modules/nerq-audit-multi': entry(MULTI_OLD),
      },
    };
    const dir = dirs.project({ 'package-lock.json': `${JSON.stringify(lock, null, 2)}\n` });
    const result = await runCli(['audit', dir, '--json'], { server });
    expectNoUnexpected(server);
    expect([0, 1], result.stderr).toContain(result.code);
    const report = parseAudit(result.stdout);
    // nerq-audit-multi@1.0.0 is locked twice: one evaluation, declared in both places.
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`).sort()).toEqual([
      'nerq-audit-dependent@1.0.0',
      'nerq-audit-multi@1.0.0',
      'nerq-audit-multi@2.0.0',
      'nerq-audit-other@3.0.0',
    ]);
    expect(report.entries.find((e) => e.subject.version === '1.0.0' && e.subject.name === MULTI_OLD.name)?.subject.declaredIn).toHaveLength(2);
    expect(repeated(server.requests)).toEqual([]);
    const paths = (kind: string) => server.requests.filter((r) => kindOf(r) === kind).map((r) => r.path).sort();
    expect(paths('packument-full')).toEqual(['/npm/nerq-audit-dependent', '/npm/nerq-audit-multi', '/npm/nerq-audit-other']);
    expect(paths('tarball')).toEqual([syntheticTarballPath(DEPENDENT), syntheticTarballPath(MULTI_OLD), syntheticTarballPath(MULTI_NEW), syntheticTarballPath(OTHER)].sort());
    // Download counts do not depend on the version: one bulk query per period for the three names.
    expect(paths('downloads')).toHaveLength(2);
    expect(bulkDownloadRequests(server.requests)).toHaveLength(2);
  });
});

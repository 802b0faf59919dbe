import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAffected } from '../../bench/generate/model.js';
import { generateWorld, type World } from '../../bench/generate/world.js';
import { startBenchServer, type BenchServer } from '../../bench/server.js';

let server: BenchServer;
let world: World;

beforeAll(async () => {
  server = await startBenchServer({ latencyMs: 0, connectLatencyMs: 0 });
  world = await generateWorld({ seed: 9, count: 120, now: new Date('2026-11-30T00:00:00Z'), registry: server.url('npm'), bigIndexes: [] });
  server.setWorld(world);
});
afterAll(async () => server.close());

describe('the bench server', () => {
  it('serves full and abbreviated packuments, gzipped when asked, and tarballs matching their integrity', async () => {
    const spec = world.model.packages.find((p) => p.name.startsWith('@'))!;
    server.resetLog();
    const url = `${server.url('npm')}/${spec.name.replace('/', '%2f')}`;
    const full = await fetch(url, { headers: { accept: 'application/json' } });
    expect(full.headers.get('content-type')).toBe('application/json');
    const doc = (await full.json()) as { versions: Record<string, { dist: { tarball: string; integrity: string } }>; time: object };
    expect(doc.time).toBeDefined();
    const abbreviated = await fetch(url, { headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*' } });
    expect(abbreviated.headers.get('content-type')).toBe('application/vnd.npm.install-v1+json');
    expect(((await abbreviated.json()) as { time?: object }).time).toBeUndefined();
    const dist = doc.versions[spec.locked]!.dist;
    const tarball = Buffer.from(await (await fetch(dist.tarball)).arrayBuffer());
    expect(`sha512-${createHash('sha512').update(tarball).digest('base64')}`).toBe(dist.integrity);
    // A revalidation with the ETag is a 304.
    const etag = full.headers.get('etag')!;
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(server.log.map((r) => [r.method, r.service, r.status, r.known])).toEqual([
      ['GET', 'npm', 200, true],
      ['GET', 'npm', 200, true],
      ['GET', 'npm', 200, true],
      ['GET', 'npm', 304, true],
    ]);
    for (const r of server.log) expect(r.end).toBeGreaterThanOrEqual(r.start);
  });

  it('answers downloads (scoped names literal), OSV batches and records, and attestations', async () => {
    const scoped = world.model.packages.find((p) => p.name.startsWith('@'))!;
    const point = (await (await fetch(`${server.url('npm-api')}/downloads/point/last-week/${scoped.name}`)).json()) as { downloads: number; package: string };
    expect(point).toMatchObject({ package: scoped.name, downloads: expect.any(Number) });
    const range = (await (await fetch(`${server.url('npm-api')}/downloads/range/last-month/${scoped.name}`)).json()) as { downloads: unknown[] };
    expect(range.downloads).toHaveLength(30);

    const vulnerable = world.model.packages.find((p) => p.advisories.length > 0)!;
    const advisory = vulnerable.advisories[0]!;
    const affected = vulnerable.versions.map((v) => v.version).find((v) => isAffected(v, advisory))!;
    const batch = await fetch(`${server.url('osv')}/v1/querybatch`, { method: 'POST', body: JSON.stringify({ queries: [{ package: { name: vulnerable.name, ecosystem: 'npm' }, version: affected }] }) });
    expect(((await batch.json()) as { results: Array<{ vulns?: Array<{ id: string }> }> }).results[0]?.vulns?.map((v) => v.id)).toContain(advisory.id);
    const record = (await (await fetch(`${server.url('osv')}/v1/vulns/${advisory.id}`)).json()) as { id: string };
    expect(record.id).toBe(advisory.id);
    expect((await fetch(`${server.url('osv')}/v1/vulns/GHSA-none-none-none`)).status).toBe(404);

    const attested = world.model.packages.find((p) => p.attested.size > 0);
    if (attested !== undefined) {
      const version = [...attested.attested][0]!;
      const body = (await (await fetch(`${server.url('npm')}/-/npm/v1/attestations/${attested.name.replace('/', '%2f')}@${version}`)).json()) as { attestations: Array<{ predicateType: string }> };
      expect(body.attestations.map((a) => a.predicateType)).toContain('https://slsa.dev/provenance/v1');
    }
  });

  it('answers routes it does not implement with 404 JSON and logs them as unknown', async () => {
    server.resetLog();
    const res = await fetch(`${server.url('pypi')}/pypi/requests/json`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
    const github = await fetch(`${server.url('github')}/repos/a/b/some/new/endpoint`);
    expect(github.status).toBe(404);
    expect(github.headers.get('x-ratelimit-remaining')).toBe('4999');
    // A missing repository on a known route is a real answer.
    expect((await fetch(`${server.url('github')}/repos/a/b`)).status).toBe(404);
    expect(server.log.map((r) => [r.service, r.known])).toEqual([
      ['pypi', false],
      ['github', false],
      ['github', true],
    ]);
  });
});

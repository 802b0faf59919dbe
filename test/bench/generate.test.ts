import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import semver from 'semver';
import { Parser, type ReadEntry } from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../bench/generate/lockfile.js';
import { buildModel, isAffected, materialisedVersions } from '../../bench/generate/model.js';
import { buildSlice, generateWorld, type World } from '../../bench/generate/world.js';
import { answerQueryBatch, osvRecord } from '../../bench/generate/osv.js';
import { createRandom, streamFor } from '../../bench/random.js';

const NOW = new Date('2026-11-30T00:00:00Z');
const REGISTRY = 'http://127.0.0.1:1/npm';
// No big projects here: they take seconds to build and prove nothing more about determinism.
const small = (count: number, seed = 9) => buildModel({ seed, count, now: NOW, bigIndexes: [] });

async function tarEntries(gz: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry: (entry: ReadEntry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => files.set(entry.path, Buffer.concat(chunks).toString('utf8')));
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(gz);
  });
  return files;
}

describe('random streams', () => {
  it('repeat for the same seed and key, and differ across keys', () => {
    const a = streamFor(9, 'package', 1);
    const b = streamFor(9, 'package', 1);
    const c = streamFor(9, 'package', 2);
    const draws = (r: ReturnType<typeof createRandom>) => Array.from({ length: 5 }, () => r.next());
    expect(draws(a)).toEqual(draws(b));
    expect(draws(streamFor(9, 'package', 1))).not.toEqual(draws(c));
    const r = createRandom(1);
    for (let i = 0; i < 200; i++) {
      const n = r.int(3, 7);
      expect(n >= 3 && n <= 7).toBe(true);
    }
    expect(r.hex(13)).toMatch(/^[0-9a-f]{13}$/);
  });
});

describe('the model', () => {
  it('is deterministic from the seed and changes with it', () => {
    const strip = (m: ReturnType<typeof small>) => m.packages.map((p) => [p.name, p.locked, p.versions.length, p.dependencies]);
    expect(strip(small(60))).toEqual(strip(small(60)));
    expect(strip(small(60, 10))).not.toEqual(strip(small(60)));
  });

  it('is prefix-stable: the first N packages of a bigger world are the world of N', () => {
    const a = small(40);
    const b = small(120);
    expect(b.packages.slice(0, 40).map((p) => [p.name, p.locked, p.dependencies])).toEqual(a.packages.map((p) => [p.name, p.locked, p.dependencies]));
  });

  it('has unique names, dependencies on earlier packages only, and valid pinned versions', () => {
    const model = small(300);
    expect(new Set(model.packages.map((p) => p.name)).size).toBe(300);
    for (const p of model.packages) {
      expect(p.versions.map((v) => v.version)).toContain(p.locked);
      expect(p.versions.map((v) => v.version)).toContain(p.latest);
      for (const [dep, range] of Object.entries(p.dependencies)) {
        const target = model.byName.get(dep);
        expect(target && target.index < p.index).toBe(true);
        expect(semver.satisfies(target!.locked, range)).toBe(true);
      }
    }
    // Most packages have a GitHub repository; some advisories exist; a check target is picked.
    const github = model.packages.filter((p) => p.repository?.kind === 'github').length;
    expect(github / 300).toBeGreaterThan(0.7);
    expect(model.advisories.size).toBeGreaterThan(0);
    expect(Object.keys(model.checkTarget.dependencies).length).toBeGreaterThanOrEqual(4);
  });

  it('makes a big project thousands of versions long', () => {
    const model = buildModel({ seed: 9, count: 3, now: NOW, bigIndexes: [2] });
    expect(model.packages[2]!.big).toBe(true);
    expect(model.packages[2]!.versions.length).toBeGreaterThan(2000);
  });
});

describe('npm bodies', () => {
  let world: World;
  beforeAll(async () => {
    world = await generateWorld({ seed: 9, count: 25, now: NOW, registry: REGISTRY, bigIndexes: [] });
  });

  it('builds the same bytes twice, and slices equal the whole', async () => {
    const again = await generateWorld({ seed: 9, count: 25, now: NOW, registry: REGISTRY, bigIndexes: [] });
    for (const [name, p] of world.packuments) expect(gunzipSync(again.packuments.get(name)!.full.gzip).equals(gunzipSync(p.full.gzip))).toBe(true);
    // Built lazily in two steps: the same bytes again.
    const lazy = await generateWorld({ seed: 9, count: 25, bodies: 10, now: NOW, registry: REGISTRY, bigIndexes: [] });
    expect(lazy.generated).toBe(10);
    expect(lazy.packuments.has(world.model.packages[12]!.name)).toBe(false);
    await lazy.extend(25);
    expect(lazy.generated).toBe(25);
    for (const [name, p] of world.packuments) expect(gunzipSync(lazy.packuments.get(name)!.full.gzip).equals(gunzipSync(p.full.gzip))).toBe(true);
    expect([...lazy.tarballs.keys()].sort()).toEqual([...world.tarballs.keys()].sort());
    const slice = buildSlice(world.model, REGISTRY, 10, 12);
    expect(slice.packuments.map(([name]) => name)).toEqual(world.model.packages.slice(10, 12).map((p) => p.name));
    for (const [name, p] of slice.packuments) expect(gunzipSync(p.full.gzip).equals(gunzipSync(world.packuments.get(name)!.full.gzip))).toBe(true);
  });

  it('serves packuments whose tarball integrity is the sha512 of the tarball bytes', async () => {
    for (const spec of world.model.packages) {
      const full = JSON.parse(gunzipSync(world.packuments.get(spec.name)!.full.gzip).toString('utf8'));
      const abbreviated = JSON.parse(gunzipSync(world.packuments.get(spec.name)!.abbreviated.gzip).toString('utf8'));
      expect(full.name).toBe(spec.name);
      expect(full['dist-tags'].latest).toBe(spec.latest);
      expect(Object.keys(full.versions)).toHaveLength(spec.versions.length);
      expect(full.time[spec.latest]).toBeDefined();
      expect(Array.isArray(full.maintainers)).toBe(true);
      // The abbreviated form carries no times or publishers.
      expect(abbreviated.time).toBeUndefined();
      expect(abbreviated.versions[spec.latest]._npmUser).toBeUndefined();
      for (const version of materialisedVersions(spec)) {
        const dist = full.versions[version].dist;
        expect(dist.tarball.startsWith(`${REGISTRY}/${spec.name}/-/`)).toBe(true);
        const bytes = world.tarballs.get(dist.tarball.slice(REGISTRY.length))!;
        expect(dist.integrity).toBe(`sha512-${createHash('sha512').update(bytes).digest('base64')}`);
        expect(abbreviated.versions[version].dist.integrity).toBe(dist.integrity);
        expect(world.integrityOf(spec, version)).toBe(dist.integrity);
      }
    }
  });

  it('packs a real gzip tar with package.json, README, LICENSE and code', async () => {
    const spec = world.model.packages.find((p) => p.hasReadme && p.hasLicenseFile)!;
    const files = await tarEntries(world.tarballs.get(`/${spec.name}/-/${spec.name.split('/').at(-1)}-${spec.locked}.tgz`)!);
    expect(JSON.parse(files.get('package/package.json')!)).toMatchObject({ name: spec.name, version: spec.locked });
    expect(files.get('package/README.md')).toContain(`# ${spec.name}`);
    expect(files.get('package/LICENSE')).toMatch(/License/);
    expect(files.has('package/index.js')).toBe(true);
  });
});

describe('OSV answers', () => {
  it('list an advisory only for the versions it affects', () => {
    const model = small(400);
    const spec = model.packages.find((p) => p.advisories.some((a) => a.fixed !== null))!;
    const advisory = spec.advisories.find((a) => a.fixed !== null)!;
    const affected = spec.versions.map((v) => v.version).find((v) => isAffected(v, advisory))!;
    const answer = answerQueryBatch(model, [
      { package: { name: spec.name, ecosystem: 'npm' }, version: affected },
      { package: { name: spec.name, ecosystem: 'npm' }, version: advisory.fixed! },
      { package: { name: 'no-such-package', ecosystem: 'npm' }, version: '1.0.0' },
      { package: { name: spec.name, ecosystem: 'PyPI' }, version: affected },
      { package: { name: spec.name, ecosystem: 'npm' }, version: 'not-a-version' },
    ]);
    expect(answer.results[0]!.vulns?.map((v) => v.id)).toContain(advisory.id);
    expect(answer.results[1]!.vulns?.map((v) => v.id) ?? []).not.toContain(advisory.id);
    expect(answer.results.slice(2)).toEqual([{}, {}, {}]);
    const record = osvRecord(advisory);
    expect(record).toMatchObject({ id: advisory.id, aliases: advisory.aliases, severity: [{ type: 'CVSS_V3', score: advisory.cvssVector }] });
  });
});

describe('the project', () => {
  it('pins every package once, reachable from the root, with matching integrity', async () => {
    const world = await generateWorld({ seed: 9, count: 30, now: NOW, registry: REGISTRY, bigIndexes: [] });
    const project = buildProject(world.model, 20, REGISTRY, (s, v) => world.integrityOf(s, v));
    const lock = JSON.parse(project.packageLock);
    expect(lock.lockfileVersion).toBe(3);
    const entries = Object.keys(lock.packages).filter((k) => k !== '');
    expect(entries).toHaveLength(20);
    expect(project.count).toBe(20);
    // Reachability: walk from the root's dependencies.
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const dep of Object.keys(lock.packages[`node_modules/${name}`].dependencies ?? {})) visit(dep);
    };
    for (const dep of Object.keys(lock.packages[''].dependencies)) visit(dep);
    expect(seen.size).toBe(20);
    const first = world.model.packages[0]!;
    expect(lock.packages[`node_modules/${first.name}`]).toMatchObject({ version: first.locked, integrity: world.integrityOf(first, first.locked) });
    expect(JSON.parse(project.packageJson).dependencies).toEqual(lock.packages[''].dependencies);
  });
});

/**
 * The generated world, in memory: the model plus every npm body the registry serves
 * (packuments kept gzipped, as the registry sends them to clients that accept gzip; tarballs;
 * attestations) and the OSV records. Generated once per bench run, deterministic from the seed.
 */
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { buildModel, type PackageSpec, type WorldModel } from './model.js';
import { buildNpmBodies, tarballPath } from './npm.js';
import { osvRecord } from './osv.js';

export interface StoredBody {
  /** The body gzipped (level 1: quick to make; the client inflates any level at the same speed). */
  gzip: Buffer;
  /** Uncompressed size in bytes. */
  size: number;
  etag: string;
}

export interface World {
  model: WorldModel;
  /** The registry base the bodies point at (`http://127.0.0.1:PORT/npm`). */
  registry: string;
  packuments: Map<string, { full: StoredBody; abbreviated: StoredBody }>;
  /** Tarball path below the registry → bytes. */
  tarballs: Map<string, Buffer>;
  /** `name@version` → attestations body. */
  attestations: Map<string, Buffer>;
  osvRecords: Map<string, Buffer>;
  /** Packages whose bodies exist (the first `generated` of the model; the rest 404 until extended). */
  readonly generated: number;
  /** Build the bodies of packages up to `count` (a no-op when they exist); resolves with the ms it took. */
  extend(count: number): Promise<number>;
  /** Integrity of a version's tarball as the packument lists it. */
  integrityOf(spec: PackageSpec, version: string): string;
  stats: { generateMs: number; packumentBytes: number; tarballBytes: number; biggestPackuments: Array<{ name: string; versions: number; bytes: number }> };
}

export interface WorldOptions {
  seed: number;
  /** Packages in the model. */
  count: number;
  /** Packages whose bodies are built now (default: all). */
  bodies?: number;
  now: Date;
  registry: string;
  bigIndexes?: readonly number[];
  binaryIndexes?: readonly number[];
}

function store(body: Buffer): StoredBody {
  return { gzip: gzipSync(body, { level: 1 }), size: body.length, etag: `"${createHash('sha1').update(body).digest('hex')}"` };
}

/** The bodies of the packages with index in [from, to): what a generator worker sends back. */
export interface BodiesSlice {
  packuments: Array<[string, { full: StoredBody; abbreviated: StoredBody }]>;
  tarballs: Array<[string, Buffer]>;
  attestations: Array<[string, Buffer]>;
  integrity: Array<[string, string]>;
  sizes: Array<{ name: string; versions: number; bytes: number }>;
  packumentBytes: number;
}

export function buildSlice(model: WorldModel, registry: string, from: number, to: number): BodiesSlice {
  const slice: BodiesSlice = { packuments: [], tarballs: [], attestations: [], integrity: [], sizes: [], packumentBytes: 0 };
  for (const spec of model.packages.slice(from, to)) {
    const bodies = buildNpmBodies(spec, registry, model.seed);
    slice.packuments.push([spec.name, { full: store(bodies.full), abbreviated: store(bodies.abbreviated) }]);
    slice.packumentBytes += bodies.full.length + bodies.abbreviated.length;
    slice.sizes.push({ name: spec.name, versions: spec.versions.length, bytes: bodies.full.length });
    slice.tarballs.push(...bodies.tarballs);
    for (const [version, body] of bodies.attestations) slice.attestations.push([`${spec.name}@${version}`, body]);
    for (const [version, value] of bodies.integrity) slice.integrity.push([`${spec.name}@${version}`, value]);
  }
  return slice;
}

/** Build the slices on `workers` threads (the model is rebuilt in each: it is cheap and deterministic). */
async function buildSlices(options: WorldOptions, model: WorldModel, workers: number, first: number, last: number): Promise<BodiesSlice[]> {
  if (last <= first) return [];
  if (workers <= 1) return [buildSlice(model, options.registry, first, last)];
  // Interleaved chunks spread the big packages over the workers.
  const chunk = 250;
  const ranges: Array<[number, number]> = [];
  for (let from = first; from < last; from += chunk) ranges.push([from, Math.min(last, from + chunk)]);
  const perWorker = Array.from({ length: workers }, (_, w) => ranges.filter((_, i) => i % workers === w));
  const results = await Promise.all(
    perWorker.map(
      (list) =>
        new Promise<BodiesSlice[]>((resolve, reject) => {
          const worker = new Worker(new URL('./worker.ts', import.meta.url), {
            workerData: { seed: options.seed, count: options.count, registry: options.registry, bigIndexes: options.bigIndexes, binaryIndexes: options.binaryIndexes, now: options.now.toISOString(), ranges: list },
          });
          worker.once('message', (slices: BodiesSlice[]) => resolve(slices.map(reviveSlice)));
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`generator worker exited with code ${code}`));
          });
        }),
    ),
  );
  return results.flat();
}

/** Buffers arrive from a worker as Uint8Arrays. */
function reviveSlice(slice: BodiesSlice): BodiesSlice {
  const buf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const body = (b: StoredBody): StoredBody => ({ ...b, gzip: buf(b.gzip) });
  return {
    ...slice,
    packuments: slice.packuments.map(([name, p]) => [name, { full: body(p.full), abbreviated: body(p.abbreviated) }]),
    tarballs: slice.tarballs.map(([path, b]) => [path, buf(b)]),
    attestations: slice.attestations.map(([key, b]) => [key, buf(b)]),
  };
}

/**
 * Generate the world: the whole model, and the bodies of the first `options.bodies` packages
 * (more on `extend`). With `workers` > 1 the bodies are built on that many threads (the same
 * bytes: every package draws from its own seeded stream).
 */
export async function generateWorld(options: WorldOptions, workers = 1): Promise<World> {
  const started = performance.now();
  const model = buildModel({
    seed: options.seed,
    count: options.count,
    now: options.now,
    ...(options.bigIndexes === undefined ? {} : { bigIndexes: options.bigIndexes }),
    ...(options.binaryIndexes === undefined ? {} : { binaryIndexes: options.binaryIndexes }),
  });
  const packuments = new Map<string, { full: StoredBody; abbreviated: StoredBody }>();
  const tarballs = new Map<string, Buffer>();
  const attestations = new Map<string, Buffer>();
  const integrity = new Map<string, string>();
  const sizes: Array<{ name: string; versions: number; bytes: number }> = [];
  const osvRecords = new Map<string, Buffer>();
  for (const [id, advisory] of model.advisories) osvRecords.set(id, Buffer.from(JSON.stringify(osvRecord(advisory))));
  let generated = 0;

  const world: World = {
    model,
    registry: options.registry,
    packuments,
    tarballs,
    attestations,
    osvRecords,
    get generated() {
      return generated;
    },
    async extend(count) {
      const t0 = performance.now();
      const upTo = Math.min(count, model.packages.length);
      for (const slice of await buildSlices(options, model, workers, generated, upTo)) {
        for (const [name, p] of slice.packuments) packuments.set(name, p);
        for (const [path, bytes] of slice.tarballs) {
          tarballs.set(path, bytes);
          world.stats.tarballBytes += bytes.length;
        }
        for (const [key, body] of slice.attestations) attestations.set(key, body);
        for (const [key, value] of slice.integrity) integrity.set(key, value);
        sizes.push(...slice.sizes);
        world.stats.packumentBytes += slice.packumentBytes;
      }
      generated = Math.max(generated, upTo);
      world.stats.biggestPackuments = [...sizes].sort((a, b) => b.bytes - a.bytes).slice(0, 4);
      const ms = performance.now() - t0;
      world.stats.generateMs += ms;
      return ms;
    },
    integrityOf(spec, version) {
      const value = integrity.get(`${spec.name}@${version}`);
      if (value === undefined) throw new Error(`no tarball was generated for ${spec.name}@${version}`);
      return value;
    },
    stats: { generateMs: 0, packumentBytes: 0, tarballBytes: 0, biggestPackuments: [] },
  };
  await world.extend(options.bodies ?? options.count);
  world.stats.generateMs = performance.now() - started;
  return world;
}

export { tarballPath };

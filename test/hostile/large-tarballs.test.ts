/**
 * Hostile world: memory on real projects. Platform-binary packages (`@next/swc-*`) publish
 * tarballs of 30–45 MB; an audit that holds each one whole, several at once, ran past a
 * gigabyte. A tarball must be read as it streams in (its facts and its integrity hash derived
 * as the bytes pass) and only a few large bodies may stream at once (large-bodies.ts).
 *
 * The tarballs here are generated on the fly (random bytes, deterministic, stored uncompressed
 * inside a valid .tgz with a package.json: what the client holds is what came over the wire)
 * and never held whole by the test either: the fixture server generates them again for every
 * request.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/sources/http/client.js';
import { createLargeBodyGate } from '../../src/sources/http/large-bodies.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { fetchTarballFacts } from '../../src/sources/npm/tarball.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { tarHeader } from '../npm-source/make-tgz.js';
import { noteCases } from './support/metrics.js';

const MiB = 1024 * 1024;
const CHUNK = 256 * 1024;

interface Spec {
  name: string;
  version: string;
  /** Bytes of the incompressible binary inside. */
  binaryBytes: number;
  seed: number;
}

/** The .tgz of `spec`, chunk by chunk: package.json, README.md, then the binary. */
async function* tgz(spec: Spec): AsyncGenerator<Buffer> {
  // Level 0: stored blocks, as large on the wire as inflated (and cheap to make).
  const gzip = createGzip({ level: 0 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const write = async (data: Buffer): Promise<void> => {
    if (!gzip.write(data)) await new Promise((resolve) => gzip.once('drain', resolve));
  };
  const file = async (path: string, size: number, body: AsyncIterable<Buffer> | Buffer): Promise<void> => {
    await write(tarHeader({ path: `package/${path}` }, size));
    for await (const piece of Buffer.isBuffer(body) ? [body] : body) await write(piece);
    const pad = (512 - (size % 512)) % 512;
    if (pad > 0) await write(Buffer.alloc(pad));
  };
  const manifest = Buffer.from(JSON.stringify({ name: spec.name, version: spec.version, license: 'MIT', os: ['linux'], cpu: ['x64'], main: 'next-swc.node' }));
  const readme = Buffer.from(`# ${spec.name}\n\nThe platform binary of a compiler.\n`);
  const producer = (async () => {
    await file('package.json', manifest.length, manifest);
    await file('README.md', readme.length, readme);
    await file('next-swc.node', spec.binaryBytes, random(spec.seed, spec.binaryBytes));
    await write(Buffer.alloc(1024));
    gzip.end();
  })();
  // Hand over what gzip produced so far, between writes.
  const ended = new Promise<void>((resolve) => gzip.once('end', resolve));
  let done = false;
  void ended.then(() => (done = true));
  while (!done || out.length > 0) {
    if (out.length === 0) await Promise.race([new Promise((resolve) => setImmediate(resolve)), ended]);
    while (out.length > 0) yield out.shift()!;
  }
  await producer;
}

/** `bytes` deterministic bytes in CHUNK pieces: one block of hash output per seed, each piece numbered. */
async function* random(seed: number, bytes: number): AsyncGenerator<Buffer> {
  const block = Buffer.alloc(CHUNK);
  for (let at = 0; at < CHUNK; at += 64) createHash('sha512').update(`${seed} ${at}`).digest().copy(block, at);
  for (let left = bytes, n = 0; left > 0; left -= CHUNK, n += 1) {
    const piece = Buffer.from(block.subarray(0, Math.min(CHUNK, left)));
    piece.writeUInt32BE(n, 0);
    yield piece;
  }
}

/** The .tgz's size and sha512 SRI, from one pass that keeps nothing. */
async function measure(spec: Spec): Promise<{ bytes: number; integrity: string }> {
  const hash = createHash('sha512');
  let bytes = 0;
  for await (const chunk of tgz(spec)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, integrity: `sha512-${hash.digest('base64')}` };
}

/** Write the .tgz to `res`, waiting for the socket; `beforeChunk` may hold the next chunk back. */
async function serve(res: ServerResponse, spec: Spec, bytes: number, beforeChunk?: (sent: number) => Promise<boolean>): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
  let sent = 0;
  for await (const chunk of tgz(spec)) {
    if (res.destroyed) return;
    if (beforeChunk !== undefined && !(await beforeChunk(sent))) {
      res.destroy();
      return;
    }
    sent += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
  }
  res.end();
}

let server: FixtureServer | undefined;
let http: HttpClient | undefined;
afterEach(async () => {
  await http?.close();
  await server?.close();
  http = server = undefined;
});

const SWC: Spec = { name: '@next/swc-linux-x64-gnu', version: '15.5.4', binaryBytes: 40 * MiB, seed: 1 };

describe('a platform binary of 40 MiB', () => {
  it('is read as it streams: the consumer has most of it before the server sends the rest, and the facts and integrity are right', { timeout: 120_000 }, async ({ task }) => {
    noteCases(task);
    const { bytes, integrity } = await measure(SWC);
    expect(bytes).toBeGreaterThan(40 * MiB);
    // The server sends all but the last 4 MiB, then waits until the client's consumer has
    // received them: a client that held the body until its end would never get there.
    const stallAt = bytes - 4 * MiB;
    let received = 0;
    let reached: () => void = () => undefined;
    const clientReached = new Promise<void>((resolve) => (reached = resolve));
    let stalled = false;
    server = await startFixtureServer();
    server.route('GET', '/npm/swc.tgz', async (_req, res) => {
      await serve(res, SWC, bytes, async (sent) => {
        if (sent < stallAt || stalled) return true;
        stalled = true;
        const waited = await Promise.race([clientReached.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))]);
        return waited;
      });
    });
    const inner = createHttpClient({ retry: { retries: 0 } });
    http = {
      request: (req) => inner.request(req),
      stream: (req, consume) =>
        inner.stream!(req, (body) =>
          consume(
            (async function* tap() {
              for await (const chunk of body) {
                received += chunk.length;
                if (received >= stallAt) reached();
                yield chunk;
              }
            })(),
          ),
        ),
      close: () => inner.close(),
    };
    const result = await fetchTarballFacts(http, `${server.url('npm')}/swc.tgz`, { integrity });
    expect(stalled).toBe(true);
    expect(result.status, JSON.stringify(result)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.facts.manifest).toMatchObject({ name: SWC.name, version: SWC.version });
    expect(result.facts.readme?.path).toBe('README.md');
    expect(result.facts.fileCount).toBe(3);
    expect(result.facts.nativeFiles).toBe(1);
    expect(result.facts.unpackedSize).toBeGreaterThan(40 * MiB);
    expect(received).toBe(bytes);
  });

  it('whose bytes are not the registry\'s gives no facts (the hash is taken over the whole stream)', { timeout: 120_000 }, async ({ task }) => {
    noteCases(task);
    const { bytes } = await measure(SWC);
    const other = { integrity: `sha512-${createHash('sha512').update('another tarball').digest('base64')}` };
    server = await startFixtureServer();
    server.route('GET', '/npm/swc.tgz', (_req, res) => serve(res, SWC, bytes));
    http = createHttpClient({ retry: { retries: 0 } });
    const result = await fetchTarballFacts(http, `${server.url('npm')}/swc.tgz`, { integrity: other.integrity });
    expect(result).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/integrity/) });
  });
});

describe('large bodies in flight', () => {
  it('never more than the gate allows stream at once, and every tarball is still read', { timeout: 120_000 }, async ({ task }) => {
    const specs: Spec[] = Array.from({ length: 6 }, (_, i) => ({ name: `@next/swc-${i}`, version: '1.0.0', binaryBytes: 8 * MiB, seed: 10 + i }));
    noteCases(task, specs.length);
    const measured = await Promise.all(specs.map(measure));
    // Counted on the server side: a body is in flight from its 2 MiB-th byte until it ends or is
    // dropped (a response abandoned after its headers, while the client waits for a permit,
    // never gets that far).
    let inFlight = 0;
    let most = 0;
    server = await startFixtureServer();
    specs.forEach((spec, i) => {
      server!.route('GET', `/npm/t${i}.tgz`, async (_req, res) => {
        let counted = false;
        const done = (): void => {
          if (counted) inFlight -= 1;
          counted = false;
        };
        res.once('close', done);
        await serve(res, spec, measured[i]!.bytes, async (sent) => {
          if (!counted && sent >= 2 * MiB) {
            counted = true;
            inFlight += 1;
            most = Math.max(most, inFlight);
          }
          // Let the other responses interleave.
          await new Promise((resolve) => setImmediate(resolve));
          return true;
        });
        done();
      });
    });
    http = createHttpClient({ retry: { retries: 0 }, largeBodies: createLargeBodyGate(2, 1 * MiB) });
    const results = await Promise.all(
      specs.map((_, i) => fetchTarballFacts(http!, `${server!.url('npm')}/t${i}.tgz`, { integrity: measured[i]!.integrity })),
    );
    expect(results.map((r) => r.status)).toEqual(specs.map(() => 'ok'));
    expect(results.map((r) => (r.status === 'ok' ? r.facts.manifest?.name : null))).toEqual(specs.map((s) => s.name));
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('a small body never waits for a permit', { timeout: 60_000 }, async ({ task }) => {
    noteCases(task);
    const gate = createLargeBodyGate(1, 1 * MiB);
    // Every permit is held (by a large body elsewhere in the run).
    expect(gate.tryAcquire()).toBe(true);
    const small: Spec = { name: 'tiny', version: '1.0.0', binaryBytes: 64 * 1024, seed: 3 };
    const { bytes, integrity } = await measure(small);
    server = await startFixtureServer();
    server.route('GET', '/npm/tiny.tgz', (_req, res) => serve(res, small, bytes));
    http = createHttpClient({ retry: { retries: 0 }, largeBodies: gate });
    const result = await fetchTarballFacts(http, `${server.url('npm')}/tiny.tgz`, { integrity });
    expect(result.status).toBe('ok');
  });

  it('a large body waiting for a permit ends at the deadline, holding no connection', { timeout: 60_000 }, async ({ task }) => {
    noteCases(task);
    const gate = createLargeBodyGate(1, 1 * MiB);
    expect(gate.tryAcquire()).toBe(true);
    const big: Spec = { name: 'big', version: '1.0.0', binaryBytes: 2 * MiB, seed: 4 };
    const { bytes, integrity } = await measure(big);
    let requests = 0;
    server = await startFixtureServer();
    server.route('GET', '/npm/big.tgz', (_req, res) => {
      requests += 1;
      return serve(res, big, bytes);
    });
    const controller = new AbortController();
    http = createHttpClient({ retry: { retries: 0 }, largeBodies: gate, signal: controller.signal });
    const pending = fetchTarballFacts(http, `${server.url('npm')}/big.tgz`, { integrity });
    // The headers came, the body found no permit: it was dropped and the client waits.
    await expect.poll(() => requests).toBe(1);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/deadline/) });
    expect(requests).toBe(1);
  });
});

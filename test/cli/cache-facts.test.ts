/**
 * In process (the built CLI is shared and may lag the sources): the run's facts cache
 * comes from the store with the run's mode, history and facts are written by close, and
 * `nerq cache stats` / `nerq cache clear` cover the facts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCacheClear, runCacheStats } from '../../src/cli/run-cache.js';
import { createRuntime } from '../../src/app/runtime.js';
import { StoreSession, type StoreOptions } from '../../src/app/store-session.js';
import { openStore } from '../../src/store/open-store.js';
import { versionedKey } from '../../src/store/stored-facts-cache.js';
import { VERSION } from '../../src/version.js';

const MINUTE = 60_000;
let dir: string;
let savedEnv: string | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nerq-cache-facts-'));
  savedEnv = process.env.NERQ_CACHE_DIR;
  process.env.NERQ_CACHE_DIR = dir;
});

afterEach(() => {
  vi.restoreAllMocks();
  if (savedEnv === undefined) delete process.env.NERQ_CACHE_DIR;
  else process.env.NERQ_CACHE_DIR = savedEnv;
  fs.rmSync(dir, { recursive: true, force: true });
});

const NORMAL: StoreOptions = { offline: false, cache: true, history: true };

function session(options: Partial<StoreOptions> = {}): StoreSession {
  return new StoreSession({ ...NORMAL, ...options }, { NERQ_CACHE_DIR: dir }, (m) => expect.fail(m));
}

/** stdout of `fn`, captured. */
async function stdoutOf(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const code = await fn();
  vi.restoreAllMocks();
  return { code, out };
}

describe('the facts cache of a run', () => {
  it('the runtime puts the store-backed facts cache in every call context; close writes it', async () => {
    const runtime = createRuntime({ env: { NERQ_CACHE_DIR: dir }, cwd: dir });
    const ctx = runtime.callContext({ gate: { threshold: 50, minCoverage: 0.5 } });
    expect(ctx.facts).toBeDefined();
    ctx.facts!.put('registry|demo|latest', { version: '1.0.0' });
    expect(ctx.facts!.get('registry|demo|latest', MINUTE)).toEqual({ version: '1.0.0' });
    // A second call sees the same cache.
    expect(runtime.callContext({ gate: { threshold: 50, minCoverage: 0.5 } }).facts!.get('registry|demo|latest', MINUTE)).toEqual({ version: '1.0.0' });
    await runtime.close();

    const store = openStore({ dir, warn: (m) => expect.fail(m) })!;
    expect(store.facts.get(versionedKey(VERSION, 'registry|demo|latest'))?.value).toBe('{"version":"1.0.0"}');
    store.close();
    // The next run reads it back.
    const next = session();
    expect(next.facts().get('registry|demo|latest', MINUTE)).toEqual({ version: '1.0.0' });
    next.close();
  });

  it('follows the run mode: --no-cache writes without reading, --offline reads stale facts, --max-age', () => {
    const first = session();
    first.facts().put('k', { n: 1 });
    first.close();

    const noCache = session({ cache: false });
    expect(noCache.facts().get('k', MINUTE)).toBeUndefined();
    noCache.facts().put('k', { n: 2 });
    noCache.close();

    const maxAgeZero = session({ maxAgeS: 0 });
    expect(maxAgeZero.facts().get('k', MINUTE)).toBeUndefined();
    maxAgeZero.close();

    const offline = session({ offline: true, maxAgeS: 0 });
    expect(offline.facts().get('k', MINUTE)).toEqual({ n: 2 });
    offline.close();

    const normal = session();
    expect(normal.facts().get('k', MINUTE)).toEqual({ n: 2 });
    normal.close();
  });

  it('without a usable store the facts cache is empty and never throws', () => {
    const file = path.join(dir, 'not-a-dir');
    fs.writeFileSync(file, '');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const warnings: string[] = [];
    const s = new StoreSession(NORMAL, { NERQ_CACHE_DIR: path.join(file, 'sub') }, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(s.store).toBeNull();
    s.facts().put('k', 1);
    expect(s.facts().get('k', MINUTE)).toBeUndefined();
    s.close();
  });
});

describe('nerq cache stats / clear with facts', () => {
  function seed(): void {
    const store = openStore({ dir, warn: (m) => expect.fail(m) })!;
    store.cache.put({ key: 'k', url: 'https://example.test/k', status: 200, headers: {}, body: Buffer.alloc(2048), etag: null, lastModified: null, fetchedAt: 1 });
    store.facts.put(versionedKey(VERSION, 'a'), '{"x":1}', 1);
    store.facts.put(versionedKey(VERSION, 'b'), '[1,2,3]', 1);
    store.history.record({
      target: 'npm:x', ecosystem: 'npm', name: 'x', version: '1.0.0', score: 1, grade: 'F', verdict: 'NO',
      coverage: 1, dimensions: {}, checks: {}, evidenceHash: 'h', evaluatedAt: '2024-01-01T00:00:00.000Z', toolVersion: 't',
    });
    store.close();
  }

  it('stats --json keeps its fields and adds the facts', async () => {
    seed();
    const { code, out } = await stdoutOf(() => runCacheStats({ json: true }));
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['file', 'entries', 'bytes', 'lastRun', 'hitRate', 'facts', 'capBytes', 'evicted']);
    expect(json).toMatchObject({ entries: 1, bytes: 2048, lastRun: null, hitRate: null, facts: { entries: 2, bytes: 14 }, evicted: { entries: 0, bytes: 0 } });
  });

  it('stats counts what pruning dropped until the cache is cleared', async () => {
    seed();
    const store = openStore({ dir, warn: (m) => expect.fail(m) })!;
    store.cache.put({ key: 'k2', url: 'https://example.test/k2', status: 200, headers: {}, body: Buffer.alloc(4096), etag: null, lastModified: null, fetchedAt: 2 });
    store.prune(4096); // k2 stays; k (2048 bytes) and the two facts (14 bytes) go
    store.close();
    const first = JSON.parse((await stdoutOf(() => runCacheStats({ json: true }))).out) as { evicted: unknown };
    expect(first.evicted).toEqual({ entries: 3, bytes: 2062 });
    expect((await stdoutOf(() => runCacheStats({}))).out).toMatch(/^evicted {3}3 entries, 0\.0 MiB /m);
    await stdoutOf(() => runCacheClear());
    const after = JSON.parse((await stdoutOf(() => runCacheStats({ json: true }))).out) as { evicted: unknown };
    expect(after.evicted).toEqual({ entries: 0, bytes: 0 });
  });

  it('stats in text has a facts line', async () => {
    seed();
    const { out } = await stdoutOf(() => runCacheStats({}));
    expect(out).toMatch(/^entries {3}1$/m);
    expect(out).toMatch(/^facts {5}2 entries, 0\.0 MiB$/m);
  });

  it('clear empties answers and facts, keeps history', async () => {
    seed();
    const { code, out } = await stdoutOf(() => runCacheClear());
    expect(code).toBe(0);
    expect(out).toMatch(/^cleared 1 cached responses \(0\.0 MiB\) and 2 cached facts; history kept; the store file is now \d+\.\d MiB\n$/);
    const store = openStore({ dir, warn: (m) => expect.fail(m) })!;
    expect(store.cache.stats().entries).toBe(0);
    expect(store.facts.stats()).toEqual({ entries: 0, bytes: 0 });
    expect(store.history.list('npm:x')).toHaveLength(1);
    store.close();
  });
});

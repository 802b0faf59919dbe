import { describe, expect, it } from 'vitest';
import { bucketOfModule, locatorFor, markersOf, summariseProfile, type CpuProfile } from '../../bench/profile.js';

const BUNDLE = [
  "import { createRequire } from 'node:module';", // 0: bundler banner, before any marker
  '// node_modules/semver/index.js', // 1
  'function valid() {}', // 2
  '// src/sources/npm/tarball.ts', // 3
  'function readTarball() {}', // 4
  '  // src/not-a-marker.ts (indented: a comment inside code)', // 5
  '// src/render/table.ts', // 6
  'function renderTable() {}', // 7
  '// src/checks/typosquat.ts', // 8
  'function distance() {}', // 9
].join('\n');

describe('bundle module markers', () => {
  it('finds the module markers esbuild writes at column 0', () => {
    expect(markersOf(BUNDLE)).toEqual([
      [1, 'node_modules/semver/index.js'],
      [3, 'src/sources/npm/tarball.ts'],
      [6, 'src/render/table.ts'],
      [8, 'src/checks/typosquat.ts'],
    ]);
  });

  it('locates a line in the nearest module above it', () => {
    const locate = locatorFor(new Map([['file:///x/dist/cli.js', BUNDLE]]));
    expect(locate('file:///x/dist/cli.js', 0)).toBeNull();
    expect(locate('file:///x/dist/cli.js', 5)).toBe('src/sources/npm/tarball.ts');
    expect(locate('file:///x/dist/cli.js', 9)).toBe('src/checks/typosquat.ts');
    expect(locate('file:///elsewhere.js', 9)).toBeNull();
  });

  it('buckets modules coarsely', () => {
    expect(bucketOfModule('src/sources/npm/tarball.ts')).toBe('tarball inspection');
    expect(bucketOfModule('node_modules/tar/dist/esm/parse.js')).toBe('tarball inspection');
    expect(bucketOfModule('src/sources/npm/facts.ts')).toBe('parsing & validation');
    expect(bucketOfModule('node_modules/zod/v4/core/schemas.js')).toBe('parsing & validation');
    expect(bucketOfModule('src/checks/readme.ts')).toBe('scoring');
    expect(bucketOfModule('src/render/text.ts')).toBe('rendering');
    expect(bucketOfModule('src/sources/http/client.ts')).toBe('HTTP client');
    expect(bucketOfModule('src/store/db.ts')).toBe('store (cache, history)');
    expect(bucketOfModule('src/cli/main.ts')).toBe('CLI & orchestration');
    expect(bucketOfModule('node_modules/left-pad/index.js')).toBe('other (V8, Node internals)');
  });
});

describe('summariseProfile', () => {
  const url = 'file:///x/dist/cli.js';
  const frame = (functionName: string, u: string, lineNumber: number) => ({ functionName, url: u, lineNumber });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2, 3, 4, 6, 8, 9] },
      { id: 2, callFrame: frame('(idle)', '', -1) },
      { id: 3, callFrame: frame('readTarball', url, 4), children: [5] },
      { id: 4, callFrame: frame('(garbage collector)', '', -1) },
      // JSON.parse (a builtin, no URL) called from the tarball reader: credited to the reader.
      { id: 5, callFrame: frame('parse', '', -1) },
      { id: 6, callFrame: frame('renderTable', url, 7) },
      // A Node internal with no caller of ours.
      { id: 7, callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues', 90) },
      { id: 8, callFrame: frame('compileSourceTextModule', 'node:internal/modules/esm/utils', 300), children: [7] },
      // Bundle code above the first marker (esbuild's helpers).
      { id: 9, callFrame: frame('__require', url, 0) },
    ],
    samples: [2, 2, 3, 5, 5, 4, 6, 8, 7, 9],
    timeDeltas: [1000, 1000, 2000, 1000, 1000, 500, 1500, 1000, 1000, 1000],
    startTime: 0,
    endTime: 11_000,
  };

  it('credits builtins to their caller and sums time per bucket', () => {
    const summary = summariseProfile(profile, locatorFor(new Map([[url, BUNDLE]])));
    expect(summary.totalMs).toBe(11);
    const bucket = (name: string) => summary.buckets.find((b) => b.bucket === name)?.ms;
    expect(bucket('waiting (idle)')).toBe(2);
    expect(bucket('tarball inspection')).toBe(4);
    expect(bucket('garbage collection')).toBe(0.5);
    expect(bucket('rendering')).toBe(1.5);
    expect(bucket('start-up & module loading')).toBe(2);
    expect(summary.modules[0]).toEqual({ module: 'src/sources/npm/tarball.ts', ms: 4 });
    expect(summary.modules.find((m) => m.module === 'cli.js (bundler helpers)')?.ms).toBe(1);
    expect(summary.buckets.reduce((sum, b) => sum + b.share, 0)).toBeCloseTo(1);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticalPath } from '../../bench/critical-path.js';

const req = (start: number, end: number, name = `${start}-${end}`) => ({ start, end, name });

describe('criticalPath', () => {
  it('is empty for no requests', () => {
    expect(criticalPath([])).toEqual({ rounds: 0, waitingMs: 0, chain: [] });
  });

  it('counts parallel requests as one round', () => {
    const path = criticalPath([req(0, 40), req(1, 41), req(2, 45)]);
    expect(path.rounds).toBe(1);
    // Of equally long chains, the one that waited longest.
    expect(path.chain.map((r) => r.name)).toEqual(['2-45']);
    expect(path.waitingMs).toBe(43);
  });

  it('follows requests that started after another ended', () => {
    // packument → (tarball ∥ dependency packument) → OSV batch → advisory record
    const requests = [req(10, 50, 'packument'), req(60, 100, 'tarball'), req(61, 103, 'dep'), req(110, 150, 'osv'), req(151, 190, 'record'), req(20, 55, 'downloads')];
    const path = criticalPath(requests);
    expect(path.rounds).toBe(4);
    expect(path.chain.map((r) => r.name)).toEqual(['packument', 'dep', 'osv', 'record']);
    expect(path.waitingMs).toBe(40 + 42 + 40 + 39);
  });

  it('treats a request starting exactly at another end as dependent, and an overlapping one as not', () => {
    expect(criticalPath([req(0, 10), req(10, 20)]).rounds).toBe(2);
    expect(criticalPath([req(0, 10), req(9.999, 20)]).rounds).toBe(1);
  });

  it('ignores requests with invalid times', () => {
    expect(criticalPath([req(0, 10), { start: 5, end: Number.NaN, name: 'x' }, req(20, 10)]).rounds).toBe(1);
  });

  it('agrees with a brute-force longest chain on random logs', () => {
    const interval = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 60 })).map(([s, d]) => req(s, s + d));
    fc.assert(
      fc.property(fc.array(interval, { maxLength: 25 }), (requests) => {
        const path = criticalPath(requests);
        // Brute force: the longest chain ending at each request, requests taken by start time.
        const byStart = [...requests].sort((a, b) => a.start - b.start);
        const best: number[] = [];
        byStart.forEach((r, i) => {
          best[i] = 1 + Math.max(0, ...byStart.slice(0, i).flatMap((q, j) => (q.end <= r.start ? [best[j]!] : [])));
        });
        const longest = Math.max(0, ...best);
        expect(path.rounds).toBe(longest);
        // The chain it returns is a valid chain of that length.
        expect(path.chain).toHaveLength(longest);
        for (let k = 1; k < path.chain.length; k++) expect(path.chain[k]!.start).toBeGreaterThanOrEqual(path.chain[k - 1]!.end);
        expect(path.waitingMs).toBeCloseTo(path.chain.reduce((sum, r) => sum + (r.end - r.start), 0));
      }),
    );
  });
});

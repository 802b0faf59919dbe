import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/util/map-limit.js';

describe('mapLimit', () => {
  it('keeps the input order and never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n, index) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight -= 1;
      return `${index}:${n * 10}`;
    });
    expect(out).toEqual(['0:50', '1:10', '2:40', '3:20', '4:30', '5:0']);
    expect(most).toBe(2);
  });

  it('treats a limit below one as one, and an empty list as nothing to do', async () => {
    let calls = 0;
    expect(await mapLimit([], 4, async () => ++calls)).toEqual([]);
    expect(await mapLimit([1, 2], 0, async (n) => n * 2)).toEqual([2, 4]);
  });
});

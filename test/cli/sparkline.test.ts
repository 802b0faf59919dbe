import { describe, expect, it } from 'vitest';
import { sparkline } from '../../src/cli/run-history.js';

describe('sparkline', () => {
  it('is scaled from the lowest score shown to the highest, so a small move shows', () => {
    // On a 0–100 scale 84.0 and 88.0 were the same block.
    expect(sparkline([84, 86, 88])).toBe('▁▅█');
    expect(sparkline([10, 90])).toBe('▁█');
  });

  it('all equal: the middle block; unknown: a space', () => {
    expect(sparkline([75.9, 75.9])).toBe('▄▄');
    expect(sparkline([80, null, 90])).toBe('▁ █');
  });
});

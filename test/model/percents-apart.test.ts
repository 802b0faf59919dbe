import { describe, expect, it } from 'vitest';
import { percentsApart } from '../../src/model/percents-apart.js';

describe('percentsApart', () => {
  it.each([
    [0.654, 0.7, ['65', '70']],
    [0.4987, 0.5, ['49.9', '50']],
    [0.4999, 0.5, ['49.99', '50']],
    [0.29, 0.3, ['29', '30']],
    [0.5, 0.5, ['50', '50']],
    [0.81, 0.505, ['81', '50.5']],
    [0.654, 0.655, ['65.4', '65.5']],
    [0.4999999, 0.5, ['49.99', '50']],
  ] as const)('%s against %s reads %j', (value, minimum, expected) => {
    expect(percentsApart(value, minimum)).toEqual(expected);
  });

  it('never writes a value below a minimum of whole hundredths as the same number', () => {
    for (let i = 0; i < 1000; i++) {
      const minimum = Math.round(Math.random() * 100) / 100;
      const value = minimum - Math.random() * 0.02;
      if (value < 0 || value >= minimum) continue;
      const [shown, floor] = percentsApart(value, minimum);
      expect(Number(shown)).toBeLessThan(Number(floor));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { historyRows, sparkline } from '../../src/cli/run-history.js';

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

describe('historyRows', () => {
  const rows = [
    { evaluatedAt: '2026-10-01T00:00:00.000Z', version: '2.0.0', score: 91.1, grade: 'A+', verdict: 'YES' },
    { evaluatedAt: '2026-11-10T00:00:00.000Z', version: '2.0.0', score: 49.9, grade: 'D', verdict: 'NO — USE WITH CAUTION' },
  ];
  const width = (line: string) => [...line].length;

  it('a change of grade that would pass the width goes on its own line under the verdict', () => {
    const lines = historyRows(rows, 80);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(80);
    expect(lines[1]!.endsWith('NO — USE WITH CAUTION')).toBe(true);
    expect(lines[2]!.trimStart()).toBe('(grade A+ → D)');
    expect(width(lines[2]!) - width(lines[2]!.trimStart())).toBe(width(lines[1]!) - width('NO — USE WITH CAUTION'));
  });

  it('on a wider terminal it stays on the row', () => {
    const lines = historyRows(rows, 120);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('NO — USE WITH CAUTION  (grade A+ → D)')).toBe(true);
  });
});

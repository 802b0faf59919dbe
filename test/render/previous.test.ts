import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { comparePrevious, historyRowOf } from '../../src/report/previous.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { previousLines } from '../../src/render/labels.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderTable } from '../../src/render/table.js';

const sample = (): Report => ReportSchema.parse(JSON.parse(readFileSync(new URL('../../fixtures/reports/chalk-5.3.0.json', import.meta.url), 'utf8')));

describe('the change since the previous evaluation', () => {
  it('explains a drop of 5 or more by the dimensions and checks that moved', () => {
    const before = sample();
    const after = sample();
    after.score = (before.score as number) - 12.4;
    after.dimensions[0]!.score = (before.dimensions[0]!.score as number) - 30;
    after.checks[0]!.score = 40;
    const row = { ...historyRowOf(before, 'hash'), evaluatedAt: '2026-10-02T00:00:00.000Z' };
    const previous = comparePrevious(after, row);
    expect(previous.change).toBe(-12.4);
    expect(previous.movers[0]).toMatchObject({ kind: 'dimension', id: before.dimensions[0]!.id });
    expect(previous.movers.some((m) => m.kind === 'check' && m.id === before.checks[0]!.id && m.to === 40)).toBe(true);
    const lines = previousLines({ ...after, previous });
    expect(lines[0]).toMatch(/^▼ −12\.4 since 2026-10-02 \(was \d+\.\d [A-F+]+, /);
    // By title, as the report shows them, never by id.
    expect(lines[1]).toContain(`moved by: ${before.dimensions[0]!.title} `);
    expect(lines[1]).toContain(`${before.checks[0]!.title} `);
    expect(lines[1]).not.toContain(`${before.checks[0]!.id} `);
    const report = { ...after, previous };
    expect(renderTable(report, { color: false, width: 80 })).toContain('▼ −12.4 since 2026-10-02');
    expect(renderMarkdown(report)).toContain('since 2026-10-02');
  });

  it('a small move is not explained; no previous prints nothing', () => {
    const before = sample();
    const after = { ...sample(), score: (before.score as number) + 1.2 };
    const previous = comparePrevious(after, historyRowOf(before, 'hash'));
    expect(previous.change).toBe(1.2);
    expect(previous.movers).toEqual([]);
    expect(previousLines({ ...after, previous })[0]).toMatch(/^▲ \+1\.2 since/);
    expect(previousLines(before)).toEqual([]);
  });

  it('the same score says unchanged, never ±0.0', () => {
    const before = sample();
    const previous = comparePrevious(sample(), { ...historyRowOf(before, 'hash'), evaluatedAt: '2026-10-02T00:00:00.000Z' });
    expect(previous.change).toBe(0);
    const lines = previousLines({ ...sample(), previous });
    expect(lines).toEqual([`◆ unchanged since 2026-10-02 (${(before.score as number).toFixed(1)} ${before.grade}, ${before.target.version})`]);
    expect(previousLines({ ...sample(), previous }, true)[0]).toMatch(/^= unchanged since/);
  });

  it('the same score for another version says the score is unchanged, and which version it was for', () => {
    const before = sample();
    before.target.version = '5.2.0';
    const previous = comparePrevious(sample(), { ...historyRowOf(before, 'hash'), evaluatedAt: '2026-10-02T00:00:00.000Z' });
    expect(previous.change).toBe(0);
    expect(previousLines({ ...sample(), previous })).toEqual([`◆ score unchanged since 2026-10-02 (was ${(before.score as number).toFixed(1)} ${before.grade}, 5.2.0)`]);
  });
});

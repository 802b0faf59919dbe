import { describe, expect, it } from 'vitest';
import { isProvisional } from '../../src/render/alerts.js';
import { renderCompareMarkdown, renderCompareTable } from '../../src/render/compare.js';
import { sideBySide } from '../../src/report/side-by-side.js';
import { loadReport } from './reports.js';

/** chalk as it stands, and a copy scoring higher on too little evidence (a provisional score). */
function pair() {
  const solid = loadReport('chalk-5.3.0.json');
  const thin = loadReport('chalk-5.3.0.json');
  thin.target.name = 'thin';
  thin.score = (solid.score ?? 0) + 5;
  thin.provisional = true;
  thin.gate = { ...thin.gate, passed: null };
  return [solid, thin];
}

const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) ?? '';

describe('nerq compare: a provisional score says so', () => {
  it('in the Score row, against the target it is and only it', () => {
    const reports = pair();
    expect(reports.map(isProvisional)).toEqual([false, true]);
    const out = renderCompareTable(reports, sideBySide(reports), { width: 120 });
    const score = out.split('\n').find((l) => l.startsWith('Score')) ?? '';
    expect(score.split('(provisional)')).toHaveLength(2);
    expect(score.trimEnd().endsWith('(provisional)')).toBe(true);
  });

  it('the highest score, when provisional, is not given as a plain winner (terminal and Markdown)', () => {
    const reports = pair();
    const view = sideBySide(reports);
    expect(view.highest).toMatch(/^thin@/);
    const narrow = renderCompareTable(reports, view, { width: 60 });
    expect(narrow.slice(narrow.indexOf('\n\nHighest')).trim()).toContain('provisional');
    for (const line of narrow.slice(narrow.indexOf('\n\nHighest')).split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(lastLine(renderCompareMarkdown(reports, view))).toContain('provisional');
    const md = renderCompareMarkdown(reports, view);
    const row = md.split('\n').find((l) => l.startsWith('| Score')) ?? '';
    expect(row).toContain('(provisional)');
    expect(row).not.toContain('\\(');
  });

  it('a complete highest score stays one plain line', () => {
    const [solid] = pair();
    const other = loadReport('chalk-5.3.0.json');
    other.target.name = 'other';
    other.score = (solid!.score ?? 0) - 5;
    const reports = [solid!, other];
    const out = renderCompareTable(reports, sideBySide(reports), { width: 120 });
    expect(out).not.toContain('provisional');
  });
});

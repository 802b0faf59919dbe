import { describe, expect, it } from 'vitest';
import { isProvisional } from '../../src/render/alerts.js';
import { renderCompareMarkdown, renderCompareTable } from '../../src/render/compare.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderTable } from '../../src/render/table.js';
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

describe('nerq compare: the table fits the terminal without cutting a name', () => {
  const scoped = () => {
    const a = loadReport('chalk-5.3.0.json');
    const b = loadReport('chalk-5.3.0.json');
    a.target.name = '@modelcontextprotocol/server-sequential-thinking';
    b.target.name = '@modelcontextprotocol/server-filesystem';
    return [a, b];
  };

  it('at 80 columns, long names head their columns as [1], [2] with the full names in a key above', () => {
    const reports = scoped();
    const view = sideBySide(reports);
    const lines = renderCompareTable(reports, view, { width: 80 }).split('\n');
    expect(lines[0]).toBe(`[1] ${view.targets[0]}`);
    expect(lines[1]).toBe(`[2] ${view.targets[1]}`);
    const header = lines.find((l) => /^\s+\[1\]\s+\[2\]$/.test(l)) ?? '';
    expect(header.trim().split(/\s+/)).toEqual(['[1]', '[2]']);
    const table = lines.slice(lines.indexOf(header), lines.indexOf('Where they differ most') === -1 ? undefined : lines.indexOf('Where they differ most'));
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('when the names fit, they head the columns themselves and no key is printed', () => {
    const reports = scoped();
    const view = sideBySide(reports);
    const out = renderCompareTable(reports, view, { width: 200 });
    expect(out).not.toContain('[1]');
    expect(out.split('\n')[0]).toContain(view.targets[0]!);
  });
});

describe('check --compare: where the peers came from, in words', () => {
  it('the sample names its sources as a reader knows them, not by their ids (terminal and Markdown)', () => {
    const report = loadReport('chalk-5.3.0.json');
    const sample = { sources: ['npm-search', 'module-replacements'], query: 'keywords:color', candidates: 9, skipped: 2, excluded: 0, evaluatedAt: '2026-11-30T00:00:00Z', notes: [] };
    report.comparison = { category: 'library', peers: 4, rank: 2, percentile: 75, median: 80, p25: 70, p75: 90, members: [], sample };
    for (const out of [renderTable(report, { color: false, width: 200 }), renderMarkdown(report)]) {
      expect(out).toContain('sample: npm registry search, the module-replacements list (keywords:color)');
      expect(out).not.toContain('npm-search');
    }
  });
});

describe('nerq compare: a dimension scored on too few of its checks says so', () => {
  it('Security on 40.5 % of its checks (OSV down) is marked, with the note under the table; a complete one stays plain (terminal and Markdown)', () => {
    const solid = loadReport('chalk-5.3.0.json');
    const thin = loadReport('chalk-5.3.0.json');
    thin.target.name = 'thin';
    thin.dimensions = thin.dimensions.map((d) => (d.id === 'security' ? { ...d, score: 100, coverage: 0.405 } : d));
    const full = solid.dimensions.find((d) => d.id === 'security')!;
    expect(full.coverage).toBeGreaterThanOrEqual(0.5);
    const reports = [solid, thin];
    const view = sideBySide(reports);
    const table = renderCompareTable(reports, view, { width: 120 });
    const row = table.split('\n').find((l) => l.startsWith('Security')) ?? '';
    expect(row.trimEnd().endsWith('100.0*')).toBe(true);
    expect(row.split('*')).toHaveLength(2);
    expect(table).toMatch(/^\* scored on less than half/m);
    const markdown = renderCompareMarkdown(reports, view);
    const md = markdown.split('\n').find((l) => l.startsWith('| Security')) ?? '';
    expect(md).toMatch(/\| 100\.0\\\* \|$/);
    expect(markdown).toMatch(/^\\\* scored on less than half/m);
    // Nothing thin, no mark and no note.
    const plain = renderCompareTable([solid, loadReport('chalk-5.3.0.json')].map((r, i) => (i === 1 ? { ...r, target: { ...r.target, name: 'other' } } : r)), sideBySide([solid, { ...loadReport('chalk-5.3.0.json'), target: { ...solid.target, name: 'other' } }]), { width: 120 });
    expect(plain).not.toContain('scored on less than half');
  });
});

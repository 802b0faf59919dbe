import { describe, expect, it } from 'vitest';
import { renderTable, renderTableMany } from '../../src/render/table.js';
import { HOSTILE, hostileReport, loadReport, SAMPLE_FILES } from './reports.js';

/** Columns per the brief: code points (box drawing, blocks and marks are one column each). */
const columns = (line: string) => [...line].length;
const ANSI = /\u001b\[[0-9;]*m/;
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('renderTable', () => {
  it.each(SAMPLE_FILES)('%s matches its snapshot (no colour)', (file) => {
    expect(renderTable(loadReport(file), { color: false })).toMatchSnapshot();
  });

  it('ASCII fallback: marks, bars and borders', () => {
    const out = renderTable(loadReport('chalk-5.3.0.json'), { color: false, ascii: true });
    expect(out).toMatchSnapshot();
    expect(out).not.toMatch(/[✔▲✖█░─│┌—]/);
    expect(out).toMatch(/^ {2}\+ 100\.0 {2}Install scripts$/m);
    expect(out).toMatch(/^ {2}! {2}50\.0 {2}Build provenance$/m);
    expect(out).toMatch(/^ {2}x {3}0\.0 {2}Security policy$/m);
    expect(out).toMatch(/^ {2}\? {5}- {2}Weekly downloads$/m);
    expect(out).toMatch(/\| #########- \|/);
  });

  it('ASCII is ignored when colour is on', () => {
    const out = stripAnsi(renderTable(loadReport('chalk-5.3.0.json'), { color: true, ascii: true }));
    expect(out).toContain('✔');
    expect(out).toContain('█');
  });

  it.each(SAMPLE_FILES.flatMap((file) => [60, 80, 100].map((width) => [file, width] as const)))(
    '%s fits %i columns, has no trailing spaces and ends with one newline',
    (file, width) => {
      const out = renderTable(loadReport(file), { color: false, width, evidence: true });
      expect(out.endsWith('\n')).toBe(true);
      expect(out.endsWith('\n\n')).toBe(false);
      for (const line of out.slice(0, -1).split('\n')) {
        expect(columns(line), line).toBeLessThanOrEqual(width);
        expect(line).toBe(line.trimEnd());
      }
    },
  );

  it('wraps long messages and hostile text within 80 columns', () => {
    const report = hostileReport();
    report.checks[0]!.message = `${'word '.repeat(40)}${'x'.repeat(150)}`;
    const out = renderTable(report, { color: false, width: 80, evidence: true });
    for (const line of out.split('\n')) expect(columns(line), line).toBeLessThanOrEqual(80);
    expect(out).toContain('x'.repeat(69));
  });

  it('clamps the width to 60–120', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.checks[0]!.message = 'word '.repeat(100);
    const narrow = renderTable(report, { color: false, width: 10 });
    const wide = renderTable(report, { color: false, width: 1000 });
    expect(Math.max(...narrow.split('\n').map(columns))).toBe(60);
    expect(Math.max(...wide.split('\n').map(columns))).toBeLessThanOrEqual(120);
    expect(Math.max(...wide.split('\n').map(columns))).toBeGreaterThan(100);
  });

  it('has no ANSI escape without colour and some with colour', () => {
    for (const file of SAMPLE_FILES) {
      expect(renderTable(loadReport(file), { color: false })).not.toMatch(/\u001b/);
      expect(renderTable(loadReport(file), { color: true })).toMatch(ANSI);
    }
  });

  it('colour changes nothing but the escapes', () => {
    for (const file of SAMPLE_FILES) {
      const report = loadReport(file);
      expect(stripAnsi(renderTable(report, { color: true }))).toBe(renderTable(report, { color: false }));
    }
  });

  it.each([
    ['chalk-5.3.0.json', 'grade B', '\u001b[92m'],
    ['request-deprecated.json', 'verdict NO — USE WITH CAUTION', '\u001b[93m'],
    ['crossenv-placeholder.json', 'grade F', '\u001b[31m'],
  ] as const)('%s colours "%s"', (file, text, escape) => {
    const header = renderTable(loadReport(file), { color: true }).split('\n')[0] ?? '';
    expect(header).toContain(`${escape}\u001b[1m${text}`);
  });

  it('neutralises hostile strings, with and without colour', () => {
    for (const color of [false, true]) {
      const out = renderTable(hostileReport(), { color, evidence: true });
      const visible = stripAnsi(out);
      expect(visible).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(visible).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
      expect(out).not.toContain('\u001b]');
      expect(out).not.toContain('http://evil');
      expect(visible).toContain('Evil link');
      expect(visible).toContain('gnp.exe OK');
    }
    expect(HOSTILE).toContain('\u202e');
  });

  it('prints only a header and the error for a report that could not be evaluated', () => {
    const out = renderTable(loadReport('not-found.json'), { color: false });
    expect(out).toBe(
      'nerq-no-such-package  not evaluated\n' +
        'error not-found: npm package "nerq-no-such-package" was not found in the\n' +
        '  registry\n',
    );
  });

  it('lists caps, unavailable sources, advisories and a failed gate', () => {
    const out = renderTable(loadReport('request-deprecated.json'), { color: false });
    expect(out).toMatch(/^Caps\n {2}deprecated ≤ 49\.9: version is deprecated/m);
    expect(out).toMatch(/^Advisories\n {2}GHSA-p8p7-x288-28g6 {2}moderate {2}CVSS 6\.1 {2}affects this version$/m);
    expect(out).toContain('    fixed in: no fix');
    expect(out).toMatch(/^Gate {2}failed {2}min score 50 · min coverage 50%\n {2}· capped at 49\.9/m);
    expect(out).not.toContain('Unavailable sources');
  });

  it.each([
    [true, 'passed'],
    [false, 'failed'],
    [null, 'could not be evaluated'],
  ] as const)('gate %s reads "%s"', (passed, word) => {
    const report = loadReport('chalk-5.3.0.json');
    report.gate = { ...report.gate, passed, reasons: passed === true ? [] : ['coverage 40% is below the minimum 50%'] };
    const out = renderTable(report, { color: false });
    expect(out).toMatch(new RegExp(`^Gate {2}${word} {2}min score 50`, 'm'));
    if (passed !== true) expect(out).toContain('  · coverage 40% is below the minimum 50%');
  });

  it('shows "unknown" for a dimension without a score, and each check once', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.dimensions[4] = { ...report.dimensions[4]!, score: null, coverage: 0 };
    const out = renderTable(report, { color: false });
    expect(out).toMatch(/│ Community {5}│ unknown {4}│ {5}— │/);
    const checkLines = out.split('\n').filter((line) => /^ {2}[✔▲✖?] +(?:\d+\.\d|—) {2}\S/.test(line));
    expect(checkLines.map((line) => line.slice(11))).toEqual(report.checks.map((c) => c.title));
  });

  it('prints evidence only when asked', () => {
    const report = loadReport('chalk-5.3.0.json');
    expect(renderTable(report, { color: false })).not.toContain('lastRelease:');
    const out = renderTable(report, { color: false, evidence: true });
    expect(out).toContain('           lastRelease: 2023-06-29T15:11:12.000Z');
    expect(out).toContain('           hooks: (none)');
  });

  it('renders several reports one after another', () => {
    const reports = [loadReport('chalk-5.3.0.json'), loadReport('not-found.json')];
    const out = renderTableMany(reports, { color: false });
    expect(out).toBe(`${renderTable(reports[0]!, { color: false })}\n${renderTable(reports[1]!, { color: false })}`);
  });
});

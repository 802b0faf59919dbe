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
    // An unknown check is one line naming the source it lacked ("Not checked" says why, once).
    expect(out).toMatch(/^ {2}\? {5}- {2}Weekly downloads \(download counts unavailable\)$/m);
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

  it('an MCP bundle URL longer than the line stays whole on a line of its own (copyable); the rest still fits', () => {
    const report = loadReport('chalk-5.3.0.json');
    const url = `https://github.com/example-org/example-mcp-server/releases/download/v1.2.3/example-mcp-server-1.2.3-darwin-arm64.mcpb`;
    report.checks[0]!.message = `The bundle ${url} is not a GitHub or GitLab release asset of the repository the entry names`;
    const out = renderTable(report, { color: false, width: 80 });
    const lines = out.split('\n');
    const at = lines.filter((l) => l.includes('https://'));
    expect(at.map((l) => l.trim())).toEqual([url]);
    for (const line of lines.filter((l) => !l.includes('https://'))) expect(columns(line), line).toBeLessThanOrEqual(80);
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
      'nerq-no-such-package  NOT EVALUATED\n' +
        'error not-found: npm package "nerq-no-such-package" was not found in the\n' +
        '  registry\n',
    );
  });

  it('a category with two labels (an MCP server that executes code) names both, and the rule that decided, at 80 and at 60 columns', () => {
    const report = loadReport('chalk-5.3.0.json');
    const reason = 'MCP server whose package npm:@acme/run-mcp@1.0.0 executes code';
    report.category = { id: 'code-execution', reason, matches: [{ id: 'code-execution', reason }, { id: 'mcp-server', reason: 'an MCP Registry entry' }] };
    for (const width of [80, 60]) {
      const lines = renderTable(report, { color: false, width }).split('\n');
      const start = lines.findIndex((l) => l.includes('category code-execution'));
      expect(start).toBeGreaterThan(-1);
      expect(lines.slice(start, start + 3).join(' ')).toMatch(/npm:@acme\/run-mcp@1\.0\.0 executes code; also\s+mcp-server\)/);
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(width);
    }
  });

  it('a ceiling (an MCP server held to its weakest package) is a warning, not a finding; a cap beside it stays one', () => {
    const base = loadReport('request-deprecated.json');
    const ceiling = { id: 'mcp-package-weakest', limit: 49.9, reason: 'an MCP server scores no higher than its weakest package (npm:x@1.0.0: 49.9)', args: {}, dimension: null, ceiling: true as const };
    const out = renderTable({ ...base, caps: [...base.caps, ceiling] }, { color: false });
    expect(out).toMatch(/^ {2}▲ Score capped at 49\.9: an MCP server scores no higher than its weakest/m);
    expect(out).toMatch(/^ {2}✖ Score capped at 49\.9: version is deprecated/m);
  });

  it('states the outcome first, then the alerts (cap, advisory with its fix), the advisories and a failed gate', () => {
    const out = renderTable(loadReport('request-deprecated.json'), { color: false });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^request@2\.88\.2 {2}FAIL {2}verdict NO — USE WITH CAUTION {2}score 49\.9\/100/);
    expect(lines.slice(2, 4)).toEqual(['', 'Alerts']);
    expect(lines[4]).toMatch(/^ {2}✖ Score capped at 49\.9: version is deprecated/);
    expect(out).toMatch(/^ {2}▲ Moderate advisory GHSA-p8p7-x288-28g6 \(CVSS 6\.1\)/m);
    expect(out).toMatch(/^ {4}no fixed version yet$/m);
    expect(out).toMatch(/^Advisories\n {2}GHSA-p8p7-x288-28g6 {2}moderate {2}CVSS 6\.1 {2}affects this version$/m);
    expect(out).toMatch(/^Gate {2}FAIL {2}min score 50 · min coverage 50%\n {2}· capped at 49\.9/m);
    expect(out).not.toContain('Not checked');
  });

  it('a reason several unknown checks share is said once under Not checked, each check on one line', () => {
    const report = loadReport('chalk-5.3.0.json');
    const shared = 'Unknown: repository link not verified (package.json at main names "x")';
    const [a, b] = report.checks.filter((c) => c.status === 'pass');
    for (const check of [a!, b!]) Object.assign(check, { score: null, status: 'unknown', messageId: 'unverified', message: shared });
    const out = renderTable(report, { color: false, width: 120 });
    expect(out.match(/names "x"/g)).toHaveLength(1);
    expect(out).toContain(`Not checked\n  Repository link not verified (package.json at main names "x")\n    2 checks unknown: ${a!.title}, ${b!.title}`);
    expect(out).toContain(`${a!.title} (repository link not verified)`);
    // With --evidence each check keeps its whole message.
    expect(renderTable(report, { color: false, width: 120, evidence: true }).match(/names "x"/g)?.length).toBeGreaterThan(1);
  });

  it('--quiet: the outcome, the alerts and the gate only', () => {
    const out = renderTable(loadReport('request-deprecated.json'), { color: false, quiet: true });
    expect(out).toMatch(/^request@2\.88\.2 {2}FAIL/);
    expect(out).toContain('Alerts');
    expect(out).toMatch(/^Gate {2}FAIL/m);
    expect(out).not.toContain('│ Dimension');
    expect(out).not.toContain('Advisories');
    expect(out.split('\n').length).toBeLessThan(renderTable(loadReport('request-deprecated.json'), { color: false }).split('\n').length / 3);
  });

  it.each([
    [true, 'PASS'],
    [false, 'FAIL'],
    [null, 'INCOMPLETE'],
  ] as const)('gate %s reads "%s", on the first line and at the gate', (passed, word) => {
    const report = loadReport('chalk-5.3.0.json');
    report.gate = { ...report.gate, passed, reasons: passed === true ? [] : ['coverage 40% is below the minimum 50%'] };
    const out = renderTable(report, { color: false });
    expect(out.split('\n')[0]).toMatch(new RegExp(`^chalk@5\\.3\\.0 {2}${word} `));
    expect(out).toMatch(new RegExp(`^Gate {2}${word} {2}min score 50`, 'm'));
    // A score the gate could not stand on says it is provisional.
    expect(out.split('\n')[0]?.includes('(provisional)')).toBe(passed === null);
    if (passed !== true) expect(out).toContain('  · coverage 40% is below the minimum 50%');
  });

  it('shows "unknown" for a dimension without a score, and each check once', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.dimensions[4] = { ...report.dimensions[4]!, score: null, coverage: 0 };
    const out = renderTable(report, { color: false });
    expect(out).toMatch(/│ Community {5}│ unknown {4}│ {5}— │/);
    const checkLines = out.split('\n').filter((line) => /^ {2}[✔▲✖?] +(?:\d+\.\d|—) {2}\S/.test(line));
    expect(checkLines.map((line) => line.slice(11).replace(/ \([^()]+ unavailable\)$/, ''))).toEqual(report.checks.map((c) => c.title));
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

import { describe, expect, it } from 'vitest';
import { renderJson, renderNdjson } from '../../src/render/json.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { loadReport, SAMPLE_FILES } from './reports.js';

/** The same report with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]));
  }
  return value;
}

describe('renderJson', () => {
  it.each(SAMPLE_FILES)('%s matches its snapshot and round-trips', (file) => {
    const report = loadReport(file);
    const json = renderJson(report, { pretty: true });
    expect(json).toMatchSnapshot();
    expect(JSON.parse(json)).toEqual(report);
    expect(ReportSchema.parse(JSON.parse(json))).toEqual(report);
  });

  it.each(SAMPLE_FILES)('%s pretty output is the 2-space form plus a newline, and a fixed point', (file) => {
    const out = renderJson(loadReport(file), { pretty: true });
    expect(out).toBe(`${JSON.stringify(JSON.parse(out), null, 2)}\n`);
    expect(renderJson(JSON.parse(out) as Report, { pretty: true })).toBe(out);
  });

  it('sorts evidence keys (the one free-form record)', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.checks[0]!.evidence = { zeta: 1, alpha: 'a', Mid: true };
    const out = JSON.parse(renderJson(report, { pretty: false }));
    expect(Object.keys(out.checks[0].evidence)).toEqual(['Mid', 'alpha', 'zeta']);
  });

  it('is byte-identical for equal reports, whatever their key order', () => {
    for (const file of SAMPLE_FILES) {
      const a = loadReport(file);
      const b = reversedKeys(loadReport(file)) as Report;
      expect(Object.keys(b)[0]).toBe('error');
      for (const pretty of [true, false]) {
        expect(renderJson(b, { pretty })).toBe(renderJson(a, { pretty }));
        expect(renderJson(a, { pretty })).toBe(renderJson(a, { pretty }));
      }
    }
  });

  it('emits keys in the schema order', () => {
    const out = JSON.parse(renderJson(reversedKeys(loadReport('chalk-5.3.0.json')) as Report, { pretty: false }));
    // The comparison members (--compare only), a repository's distribution (github: targets only) and the MCP entry's section (mcp: targets only) are optional and absent here.
    expect(Object.keys(out)).toEqual(
      Object.keys(ReportSchema.shape).filter((k) => !['comparison', 'comparisonUnavailable', 'alternatives', 'aiAct', 'distribution', 'includedPackage', 'mcp'].includes(k)),
    );
    expect(Object.keys(out.target)).toEqual(['input', 'ecosystem', 'name', 'version', 'purl', 'repository']);
  });

  it('compact output is one line (NDJSON) and round-trips', () => {
    const report = loadReport('request-deprecated.json');
    report.checks[0]!.message = 'line one\nline two\r\u2028';
    const line = renderJson(report, { pretty: false });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(JSON.parse(line)).toEqual(report);
  });

  it('renders several reports as NDJSON, one object per line', () => {
    const reports = SAMPLE_FILES.map(loadReport);
    const out = renderNdjson(reports);
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(reports.length);
    lines.forEach((line, i) => expect(JSON.parse(line)).toEqual(reports[i]));
  });

  it('does not re-round numbers', () => {
    const report = loadReport('chalk-5.3.0.json');
    report.coverage = 0.925;
    report.dimensions[0]!.coverage = 0.667;
    const out = JSON.parse(renderJson(report, { pretty: false }));
    expect(out.coverage).toBe(0.925);
    expect(out.dimensions[0].coverage).toBe(0.667);
    expect(out.score).toBe(75.9);
  });

  it('drops keys outside the contract, at every level', () => {
    const extra = { ...loadReport('chalk-5.3.0.json'), internal: 'secret' } as Report;
    extra.checks[0] = { ...extra.checks[0]!, hidden: 'secret' } as Report['checks'][number];
    extra.gate = { ...extra.gate, hidden: 'secret' } as Report['gate'];
    expect(renderJson(extra, { pretty: false })).not.toContain('secret');
    expect(renderJson(extra, { pretty: true })).toBe(renderJson(loadReport('chalk-5.3.0.json'), { pretty: true }));
  });

  it.each(SAMPLE_FILES)('%s: the output is valid against ReportSchema and equal to the parsed report', (file) => {
    const out = JSON.parse(renderJson(loadReport(file), { pretty: true })) as unknown;
    expect(ReportSchema.safeParse(out).success).toBe(true);
    expect(ReportSchema.parse(out)).toEqual(out);
  });
});

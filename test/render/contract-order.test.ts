/**
 * The JSON renderers no longer parse their input through zod: they project it onto the
 * schema (contract-order.ts). For every report the schema accepts, the text must be the one
 * the parse-based renderer wrote, byte for byte; these tests keep that renderer as the reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuditReportSchema } from '../../src/audit/report-schema.js';
import type { AuditReport } from '../../src/audit/types.js';
import { renderAuditJson } from '../../src/render/audit-json.js';
import { projectorOf, sortedKeys } from '../../src/render/contract-order.js';
import { renderJson } from '../../src/render/json.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { sampleAudit } from './audit/sample.js';
import { hostileReport, loadReport, SAMPLE_FILES } from './reports.js';

/** The free-form records of a parsed report with sorted keys: check evidence, reason and cap args. */
function sortedRecords(parsed: Report): Report {
  const sortArgs = <T extends { args: Record<string, unknown> }>(x: T): T => ({ ...x, args: sortedKeys(x.args) });
  return {
    ...parsed,
    verdictReasonDetails: parsed.verdictReasonDetails.map(sortArgs),
    checks: parsed.checks.map((c) => ({ ...c, evidence: sortedKeys(c.evidence) })),
    caps: parsed.caps.map(sortArgs),
    gate: { ...parsed.gate, reasonDetails: parsed.gate.reasonDetails.map(sortArgs) },
  };
}

/** The renderers as they were: zod parse (schema order, unknown keys dropped), then sorted records. */
function referenceJson(report: Report, pretty: boolean): string {
  const ordered = sortedRecords(ReportSchema.parse(report));
  return `${pretty ? JSON.stringify(ordered, null, 2) : JSON.stringify(ordered)}\n`;
}

function referenceAuditJson(report: AuditReport, pretty: boolean): string {
  const parsed = AuditReportSchema.parse(report);
  const ordered = {
    ...parsed,
    entries: parsed.entries.map((entry) => ({
      ...entry,
      report: sortedRecords(entry.report),
    })),
  };
  return `${pretty ? JSON.stringify(ordered, null, 2) : JSON.stringify(ordered)}\n`;
}

/** A copy with the keys of every object shuffled (by `seed`) and `extra` keys added to some. */
function scramble(value: unknown, seed: number, extra: boolean): unknown {
  let state = seed >>> 0 || 1;
  const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v).map(([k, x]) => [k, walk(x)] as [string, unknown]);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    if (extra && next() % 3 === 0) entries.splice(next() % (entries.length + 1), 0, [`zz${next() % 100}`, 'not in the contract']);
    return Object.fromEntries(entries);
  };
  return walk(value);
}

describe('the JSON renderers write what the parse-based ones wrote', () => {
  const reports: [string, Report][] = [...SAMPLE_FILES.map((f) => [f, loadReport(f)] as [string, Report]), ['hostile', hostileReport()]];

  it.each(reports)('%s, pretty and compact', (_name, report) => {
    for (const pretty of [true, false]) expect(renderJson(report, { pretty })).toBe(referenceJson(report, pretty));
  });

  it('for reports built with keys in any order, with keys outside the contract anywhere', () => {
    fc.assert(
      fc.property(fc.constantFrom(...reports), fc.nat(), fc.boolean(), fc.boolean(), ([, report], seed, extra, pretty) => {
        const scrambled = scramble(report, seed, extra) as Report;
        // Evidence records accept any key, so an added key there is part of the contract.
        expect(renderJson(scrambled, { pretty })).toBe(referenceJson(scrambled, pretty));
      }),
      { numRuns: 300 },
    );
  });

  it('for audit reports, in any key order, with keys outside the contract anywhere', () => {
    const audit = sampleAudit();
    expect(renderAuditJson(audit)).toBe(referenceAuditJson(audit, true));
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), fc.boolean(), (seed, extra, pretty) => {
        const scrambled = scramble(audit, seed, extra) as AuditReport;
        expect(renderAuditJson(scrambled, { pretty })).toBe(referenceAuditJson(scrambled, pretty));
      }),
      { numRuns: 100 },
    );
  });

  it('the audit output is valid against AuditReportSchema', () => {
    const out = JSON.parse(renderAuditJson(sampleAudit())) as unknown;
    expect(AuditReportSchema.parse(out)).toEqual(out);
  });
});

/** The report's optional members (added in 1.6.0: written with --compare, and for mcp: targets; 1.7.0: a repository target's distribution). */
const OPTIONAL = ['comparison', 'comparisonUnavailable', 'alternatives', 'aiAct', 'distribution', 'includedPackage', 'mcp'];

describe('projectorOf', () => {
  it('is compiled once per schema', () => {
    expect(projectorOf(ReportSchema)).toBe(projectorOf(ReportSchema));
  });

  it('keeps null and absent optional values as they are', () => {
    const report = loadReport('not-found.json');
    expect(report.previous).toBeNull();
    const projected = projectorOf(ReportSchema)(report) as Report;
    expect(projected.previous).toBeNull();
    // The comparison members (--compare) are optional: absent, they stay absent.
    expect(Object.keys(projected)).toEqual(Object.keys(ReportSchema.shape).filter((k) => !OPTIONAL.includes(k)));
  });
});

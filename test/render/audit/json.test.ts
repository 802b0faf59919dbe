import { describe, expect, expectTypeOf, it } from 'vitest';
import { AuditReportSchema, type AuditReportJson } from '../../../src/audit/report-schema.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { renderAuditJson } from '../../../src/render/audit-json.js';
import { sampleAudit } from './sample.js';

/** The same object with every object's keys inserted in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]));
}

describe('renderAuditJson', () => {
  const report = sampleAudit();
  const text = renderAuditJson(report);

  it('is the AuditReport, valid against AuditReportSchema', () => {
    const parsed: unknown = JSON.parse(text);
    expect(AuditReportSchema.parse(parsed)).toEqual(parsed);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(report)));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "summary": {\n    "total": 7,\n    "passed": 3,\n    "failed": 2,\n    "ignored": 1,\n    "errors": 1,\n    "incomplete": 0\n  },');
    expect(AuditReportSchema.parse(parsed).outcome).toEqual({ result: 'fail', exitCode: 1, allowIncomplete: false });
  });

  it('keeps a stable key order, whatever order the objects were built in', () => {
    expect(renderAuditJson(reversedKeys(report) as AuditReport)).toBe(text);
    const keys = Object.keys(JSON.parse(text) as object);
    expect(keys).toEqual(['auditSchemaVersion', 'tool', 'evaluatedAt', 'inputs', 'policySource', 'summary', 'outcome', 'entries', 'warnings']);
    const entry = (JSON.parse(text) as { entries: Record<string, unknown>[] }).entries[0] ?? {};
    expect(Object.keys(entry)).toEqual(['subject', 'report', 'policy']);
  });

  it('writes check evidence with sorted keys', () => {
    const parsed = JSON.parse(text) as AuditReport;
    for (const entry of parsed.entries) {
      for (const check of entry.report.checks) {
        const keys = Object.keys(check.evidence);
        expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }
    }
  });

  it('compact on request: one line', () => {
    const compact = renderAuditJson(report, { pretty: false });
    expect(compact.split('\n')).toHaveLength(2);
    expect(JSON.parse(compact)).toEqual(JSON.parse(text));
  });

  it('drops keys outside the contract, at every level', () => {
    const extra = { ...report, secret: 'not in the contract' } as AuditReport;
    expect(renderAuditJson(extra)).toBe(text);
    const entry = report.entries[0]!;
    const deep = {
      ...report,
      entries: [{ ...entry, secret: 1, subject: { ...entry.subject, secret: 2 }, report: { ...entry.report, secret: 3 } }, ...report.entries.slice(1)],
    } as AuditReport;
    expect(renderAuditJson(deep)).toBe(text);
  });

  it('the zod schema and the TypeScript contract agree', () => {
    expectTypeOf<AuditReportJson>().toEqualTypeOf<AuditReport>();
  });
});

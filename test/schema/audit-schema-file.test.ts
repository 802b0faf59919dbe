import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_SCHEMA_ID, auditJsonSchema, auditJsonSchemaText } from '../../src/audit/json-schema.js';
import { AUDIT_SCHEMA_VERSION } from '../../src/audit/report.js';
import { AuditReportSchema } from '../../src/audit/report-schema.js';
import { renderAuditJson } from '../../src/render/audit-json.js';
import { sampleAudit } from '../render/audit/sample.js';
import { validate } from './structural-validator.js';

const FILE = new URL('../../schema/audit.schema.json', import.meta.url);

describe('schema/audit.schema.json', () => {
  it('is the schema generated from AuditReportSchema (UPDATE_GENERATED=1 rewrites it)', () => {
    const expected = auditJsonSchemaText();
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(FILE, expected);
    const actual = readFileSync(FILE, 'utf8');
    expect(actual, 'schema/audit.schema.json is stale: run npm run generate').toBe(expected);
  });

  it('names itself, its draft and the audit schema version first', () => {
    const schema = auditJsonSchema();
    expect(Object.keys(schema).slice(0, 3)).toEqual(['$schema', '$id', 'title']);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(AUDIT_SCHEMA_ID);
    expect(AUDIT_SCHEMA_ID).toContain(AUDIT_SCHEMA_VERSION);
  });

  it('requires every top-level key of the contract but the optional ones, lists them all in order, and nothing else', () => {
    const schema = auditJsonSchema();
    const required = Object.entries(AuditReportSchema.shape).filter(([, member]) => !member.isOptional()).map(([key]) => key);
    expect(schema.required).toEqual(required);
    // `unvouched` (2.6.0) is optional: absent when no input has such an entry.
    expect(required).not.toContain('unvouched');
    expect(Object.keys(schema.properties as object)).toEqual(Object.keys(AuditReportSchema.shape));
    expect(schema.additionalProperties).toBe(false);
  });

  it('an audit report as the CLI writes it validates against the shipped file; a broken one does not', () => {
    const schema = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    const report = JSON.parse(renderAuditJson(sampleAudit())) as Record<string, unknown>;
    expect(validate(schema, report)).toEqual([]);
    expect(validate(schema, { ...report, outcome: { result: 'maybe', exitCode: 2, allowIncomplete: false } })).not.toEqual([]);
    expect(validate(schema, { ...report, warnings: ['a plain string, as before 2.0.0'] })).not.toEqual([]);
  });
});

/**
 * The JSON Schema of `nerq audit --json`, generated from the zod contract (`AuditReportSchema`)
 * as the report's is (src/report/json-schema.ts). `schema/audit.schema.json` is this object
 * written as 2-space JSON plus a newline; test/schema/audit-schema-file.test.ts fails when the
 * file is stale and rewrites it with UPDATE_GENERATED=1 (`npm run generate`).
 */
import { jsonSchemaDocument, jsonSchemaText } from '../report/json-schema.js';
import { AUDIT_SCHEMA_VERSION } from './report.js';
import { AuditReportSchema } from './report-schema.js';

export const AUDIT_SCHEMA_ID = `urn:nerq:schema:audit:${AUDIT_SCHEMA_VERSION}`;
export const AUDIT_SCHEMA_TITLE = 'nerq audit report';

/** The audit report's JSON Schema (draft 2020-12): `$schema`, `$id` and `title` first. */
export function auditJsonSchema(): Record<string, unknown> {
  return jsonSchemaDocument(AuditReportSchema, AUDIT_SCHEMA_ID, AUDIT_SCHEMA_TITLE);
}

/** The schema file's exact text. */
export function auditJsonSchemaText(): string {
  return jsonSchemaText(auditJsonSchema());
}

/**
 * The JSON Schema of the report, generated from the zod contract (`ReportSchema`) with
 * zod 4's `z.toJSONSchema`. `schema/report.schema.json` is this object written as 2-space
 * JSON plus a newline; test/schema/schema-file.test.ts fails when the file is stale and
 * rewrites it when run with UPDATE_GENERATED=1.
 */
import { z } from 'zod';
import { REPORT_SCHEMA_VERSION, ReportSchema } from './schema.js';

export const REPORT_SCHEMA_ID = `urn:nerq:schema:report:${REPORT_SCHEMA_VERSION}`;
export const REPORT_SCHEMA_TITLE = 'nerq report';

/** The report's JSON Schema (draft 2020-12): `$schema`, `$id` and `title` first. */
export function reportJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(ReportSchema, { target: 'draft-2020-12' });
  return { $schema, $id: REPORT_SCHEMA_ID, title: REPORT_SCHEMA_TITLE, ...rest };
}

/** The schema file's exact text. */
export function reportJsonSchemaText(): string {
  return `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
}

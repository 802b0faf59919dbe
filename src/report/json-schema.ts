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

/** A zod schema as a JSON Schema document (draft 2020-12): `$schema`, `$id` and `title` first. */
export function jsonSchemaDocument(schema: z.ZodType, id: string, title: string): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' });
  return { $schema, $id: id, title, ...rest };
}

/** A schema file's exact text. */
export function jsonSchemaText(document: Record<string, unknown>): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The report's JSON Schema. */
export function reportJsonSchema(): Record<string, unknown> {
  return jsonSchemaDocument(ReportSchema, REPORT_SCHEMA_ID, REPORT_SCHEMA_TITLE);
}

/** The schema file's exact text. */
export function reportJsonSchemaText(): string {
  return jsonSchemaText(reportJsonSchema());
}

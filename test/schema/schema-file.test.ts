import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_ID, reportJsonSchema, reportJsonSchemaText } from '../../src/report/json-schema.js';
import { ReportSchema } from '../../src/report/schema.js';

const FILE = new URL('../../schema/report.schema.json', import.meta.url);

describe('schema/report.schema.json', () => {
  it('is the schema generated from ReportSchema (UPDATE_GENERATED=1 rewrites it)', () => {
    const expected = reportJsonSchemaText();
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(FILE, expected);
    const actual = readFileSync(FILE, 'utf8');
    expect(actual, 'schema/report.schema.json is stale: run UPDATE_GENERATED=1 npx vitest run test/schema').toBe(expected);
  });

  it('is 2-space JSON with a final newline, generated the same way every time', () => {
    const text = reportJsonSchemaText();
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(reportJsonSchemaText()).toBe(text);
  });

  it('names itself and its draft first', () => {
    const schema = reportJsonSchema();
    expect(Object.keys(schema).slice(0, 3)).toEqual(['$schema', '$id', 'title']);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(REPORT_SCHEMA_ID);
    expect(schema.title).toBe('nerq report');
  });

  it('requires every top-level key of the contract but the optional ones, in the schema order', () => {
    const schema = reportJsonSchema();
    const shape = ReportSchema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
    const optional = Object.keys(shape).filter((key) => shape[key]?.safeParse(undefined).success === true);
    expect(optional).toEqual(['comparison', 'comparisonUnavailable', 'alternatives', 'aiAct', 'distribution', 'includedPackage', 'mcp']);
    expect(schema.required).toEqual(Object.keys(shape).filter((key) => !optional.includes(key)));
    expect(Object.keys(schema.properties as object)).toEqual(Object.keys(ReportSchema.shape));
    expect(schema.additionalProperties).toBe(false);
  });
});

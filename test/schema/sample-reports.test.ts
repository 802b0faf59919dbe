import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/render/json.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { requiredLists, validate } from './structural-validator.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const dir = new URL('../../fixtures/reports/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

const load = (file: string): unknown => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));

describe('sample reports against the shipped JSON schema', () => {
  it('there are sample reports to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('%s parses with ReportSchema and validates against the schema file', (file) => {
    const sample = load(file);
    expect(() => ReportSchema.parse(sample)).not.toThrow();
    expect(validate(schema, sample)).toEqual([]);
  });

  it.each(files)('%s rendered as JSON still validates', (file) => {
    const out = JSON.parse(renderJson(ReportSchema.parse(load(file)), { pretty: false }));
    expect(validate(schema, out)).toEqual([]);
  });

  it('the schema has required lists at the top and in nested objects', () => {
    const lists = requiredLists(schema);
    expect(lists.map((l) => l.path)).toEqual(
      expect.arrayContaining(['#', '#/properties/target', '#/properties/gate', '#/properties/checks/items']),
    );
    expect(lists.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files)('%s has every key of every required list that applies to it', (file) => {
    const sample = load(file) as Report;
    // Pair each required list with the sample objects at its place; anyOf branches apply to non-null values.
    const objectsAt = (path: string): unknown[] => {
      const steps = path.split('/').slice(1);
      let current: unknown[] = [sample];
      for (let i = 0; i < steps.length; i += 1) {
        const step = steps[i] as string;
        if (step === 'properties') continue;
        if (step === 'items') current = current.flatMap((v) => (Array.isArray(v) ? v : []));
        else if (step === 'anyOf' || step === 'oneOf') i += 1;
        else if (step === '$defs') return [];
        else current = current.map((v) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[step] : undefined));
      }
      return current.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
    };
    let checked = 0;
    for (const { path, required } of requiredLists(schema)) {
      for (const object of objectsAt(path)) {
        for (const key of required) expect(object, `${file} ${path} ${key}`).toHaveProperty([key]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it.each([
    ['a missing required key', (r: Record<string, unknown>) => delete r.gate, 'missing required key "gate"'],
    ['a missing nested key', (r: Record<string, any>) => delete r.target.purl, '$.target: missing required key "purl"'],
    ['a wrong type', (r: Record<string, any>) => (r.coverage = '93%'), '$.coverage: expected number'],
    ['a value outside an enum', (r: Record<string, any>) => (r.checks[0].status = 'ok'), '$.checks[0].status'],
    ['an unexpected key', (r: Record<string, any>) => (r.extra = 1), 'unexpected key "extra"'],
    ['a bad nullable object', (r: Record<string, any>) => (r.error = { code: 1 }), '$.error'],
    ['a bad evidence value', (r: Record<string, any>) => (r.checks[0].evidence = { x: { y: 1 } }), '$.checks[0].evidence.x'],
  ])('the validator catches %s', (_name, mutate, message) => {
    const sample = load('chalk-5.3.0.json') as Record<string, unknown>;
    mutate(sample);
    const errors = validate(schema, sample);
    expect(errors.join('\n')).toContain(message);
  });
});

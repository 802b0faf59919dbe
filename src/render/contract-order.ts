/**
 * Puts a value in the shape of its zod schema without validating it: object keys in the
 * schema's order, keys the schema does not define dropped, free-form records (check
 * evidence, reason and cap args) with their keys sorted. For a value the schema accepts, the JSON of
 * the result is byte-identical to the JSON of `schema.parse(value)` with sorted records, at a
 * fraction of the cost: the JSON renderers used to validate their own output on every run
 * (0.9 s of a 1,000-package audit). The schema stays the contract: the renderers' tests
 * validate their output against it.
 */
import type { z } from 'zod';

type Project = (value: unknown) => unknown;

/** The parts of zod 4's schema definition this walk reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
}

const identity: Project = (value) => value;
const built = new WeakMap<z.ZodType, Project>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A record with its keys in code-unit order, so equal records give equal JSON. */
export function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, record[k] as T]));
}

function compile(schema: z.ZodType): Project {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'object': {
      const fields = Object.entries(def.shape ?? {}).map(([key, field]) => [key, projectorOf(field)] as const);
      return (value) => {
        if (!isRecord(value)) return value;
        const out: Record<string, unknown> = {};
        for (const [key, project] of fields) {
          if (key in value) out[key] = project(value[key]);
        }
        return out;
      };
    }
    case 'array': {
      const element = projectorOf(def.element!);
      return element === identity ? identity : (value) => (Array.isArray(value) ? value.map(element) : value);
    }
    case 'nullable':
    case 'optional': {
      const inner = projectorOf(def.innerType!);
      return inner === identity ? identity : (value) => (value === null || value === undefined ? value : inner(value));
    }
    case 'record':
      return (value) => (isRecord(value) ? sortedKeys(value) : value);
    default:
      // Strings, numbers, enums, literals, unions of those: written as they are.
      return identity;
  }
}

/** The projection for a schema, compiled once per schema. */
export function projectorOf(schema: z.ZodType): Project {
  let project = built.get(schema);
  if (project === undefined) {
    project = compile(schema);
    built.set(schema, project);
  }
  return project;
}

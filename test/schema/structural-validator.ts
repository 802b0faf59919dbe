/**
 * A small structural JSON Schema checker for the tests (no new dependency): it follows the
 * subset `z.toJSONSchema` emits for the report — `$ref` into `$defs`, `type` (one or a list),
 * `const`, `enum`, `properties` + `required`, `additionalProperties` (false or a schema),
 * `propertyNames`, `items`, `anyOf` / `oneOf`, `minimum` / `maximum` — and lists every violation with its path.
 * A keyword it does not know fails loudly, so a schema change cannot silently skip checks.
 */
type Schema = Record<string, unknown>;

const KNOWN = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  '$defs',
  '$ref',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
  'oneOf',
  'minimum',
  'maximum',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

export function validate(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const resolve = (ref: string): Schema => {
    const match = /^#\/\$defs\/(.+)$/.exec(ref);
    const defs = (root.$defs ?? {}) as Record<string, Schema>;
    const target = match ? defs[match[1] as string] : undefined;
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return target;
  };

  const check = (schema: Schema, v: unknown, path: string): void => {
    for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`unsupported keyword ${key} at ${path}`);
    if (typeof schema.$ref === 'string') check(resolve(schema.$ref), v, path);
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      if (!types.some((t) => matchesType(v, t))) {
        errors.push(`${path}: expected ${types.join(' | ')}, got ${typeOf(v)}`);
        return;
      }
    }
    if ('const' in schema && v !== schema.const) errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
    if (typeof v === 'number' && typeof schema.minimum === 'number' && v < schema.minimum) errors.push(`${path}: ${v} is below ${schema.minimum}`);
    if (typeof v === 'number' && typeof schema.maximum === 'number' && v > schema.maximum) errors.push(`${path}: ${v} is above ${schema.maximum}`);
    if (Array.isArray(schema.enum) && !schema.enum.includes(v)) errors.push(`${path}: ${JSON.stringify(v)} not in enum`);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key] as Schema[] | undefined;
      if (options === undefined) continue;
      const passing = options.filter((option) => validate({ ...root, ...option, $defs: root.$defs }, v).length === 0);
      if (passing.length === 0 || (key === 'oneOf' && passing.length > 1)) {
        errors.push(`${path}: ${passing.length} of the ${key} options match`);
      }
    }
    if (typeOf(v) === 'object') {
      const object = v as Record<string, unknown>;
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const key of (schema.required ?? []) as string[]) {
        if (!(key in object)) errors.push(`${path}: missing required key "${key}"`);
      }
      for (const [key, item] of Object.entries(object)) {
        const child = `${path}.${key}`;
        if (schema.propertyNames !== undefined) check(schema.propertyNames as Schema, key, `${child} (name)`);
        const sub = properties[key];
        if (sub !== undefined) check(sub, item, child);
        else if (schema.additionalProperties === false) errors.push(`${path}: unexpected key "${key}"`);
        else if (typeof schema.additionalProperties === 'object') check(schema.additionalProperties as Schema, item, child);
      }
    }
    if (Array.isArray(v) && schema.items !== undefined) {
      v.forEach((item, i) => check(schema.items as Schema, item, `${path}[${i}]`));
    }
  };

  check(root, value, '$');
  return errors;
}

/** Every `required` list in the schema, with the JSON-pointer-ish path where it sits. */
export function requiredLists(schema: unknown, path = '#'): { path: string; required: string[] }[] {
  if (schema === null || typeof schema !== 'object') return [];
  const found: { path: string; required: string[] }[] = [];
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.required)) found.push({ path, required: node.required as string[] });
  for (const [key, child] of Object.entries(node)) {
    if (Array.isArray(child)) child.forEach((c, i) => found.push(...requiredLists(c, `${path}/${key}/${i}`)));
    else if (typeof child === 'object') found.push(...requiredLists(child, `${path}/${key}`));
  }
  return found;
}

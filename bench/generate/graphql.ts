/**
 * A small GraphQL executor for the bench's fake GitHub: parses a query document (operations,
 * variables with defaults, aliases, arguments, fragments, inline fragments, @skip/@include)
 * and evaluates its selection sets against plain resolver objects. It does not validate
 * against a schema: the bench answers whatever shape nerq asks for, from the same synthetic
 * repositories the REST answers describe.
 */

export type Value =
  | { kind: 'var'; name: string }
  | { kind: 'const'; value: unknown }
  | { kind: 'list'; items: Value[] }
  | { kind: 'object'; fields: Record<string, Value> };

export interface FieldNode {
  kind: 'field';
  alias: string | null;
  name: string;
  args: Record<string, Value>;
  directives: DirectiveNode[];
  selections: Selection[] | null;
}
export interface InlineFragmentNode {
  kind: 'inline';
  typeCondition: string | null;
  directives: DirectiveNode[];
  selections: Selection[];
}
export interface SpreadNode {
  kind: 'spread';
  name: string;
  directives: DirectiveNode[];
}
export interface DirectiveNode {
  name: string;
  args: Record<string, Value>;
}
export type Selection = FieldNode | InlineFragmentNode | SpreadNode;

export interface OperationNode {
  name: string | null;
  variables: Record<string, Value | undefined>;
  selections: Selection[];
}

export interface DocumentNode {
  operations: OperationNode[];
  fragments: Map<string, { typeCondition: string; selections: Selection[] }>;
}

export class GraphqlSyntaxError extends Error {
  override name = 'GraphqlSyntaxError';
}

type Token = { kind: 'punct' | 'name' | 'number' | 'string'; text: string; value?: unknown };

const PUNCT = new Set(['!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '|', '}']);

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',' || c === '\ufeff') {
      i++;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('...', i)) {
      tokens.push({ kind: 'punct', text: '...' });
      i += 3;
    } else if (PUNCT.has(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (/[_A-Za-z]/.test(c)) {
      const m = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(i, i + 256))!;
      tokens.push({ kind: 'name', text: m[0] });
      i += m[0].length;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i, i + 64));
      if (m === null) throw new GraphqlSyntaxError(`unexpected character at ${i}`);
      tokens.push({ kind: 'number', text: m[0], value: Number(m[0]) });
      i += m[0].length;
    } else if (source.startsWith('"""', i)) {
      const end = source.indexOf('"""', i + 3);
      if (end === -1) throw new GraphqlSyntaxError('unterminated block string');
      tokens.push({ kind: 'string', text: '"""', value: source.slice(i + 3, end).trim() });
      i = end + 3;
    } else if (c === '"') {
      let j = i + 1;
      let raw = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\\') {
          raw += source.slice(j, j + 2);
          j += 2;
        } else {
          raw += source[j];
          j++;
        }
      }
      if (j >= source.length) throw new GraphqlSyntaxError('unterminated string');
      tokens.push({ kind: 'string', text: '"', value: JSON.parse(`"${raw}"`) as string });
      i = j + 1;
    } else {
      throw new GraphqlSyntaxError(`unexpected character ${JSON.stringify(c)} at ${i}`);
    }
  }
  return tokens;
}

export function parseDocument(source: string): DocumentNode {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isPunct = (text: string): boolean => peek()?.kind === 'punct' && peek()?.text === text;
  const expectPunct = (text: string): void => {
    if (!isPunct(text)) throw new GraphqlSyntaxError(`expected ${text} at token ${pos}`);
    pos++;
  };
  const name = (): string => {
    const t = peek();
    if (t?.kind !== 'name') throw new GraphqlSyntaxError(`expected a name at token ${pos}`);
    pos++;
    return t.text;
  };

  const value = (): Value => {
    const t = peek();
    if (t === undefined) throw new GraphqlSyntaxError('unexpected end of query');
    if (t.kind === 'punct' && t.text === '$') {
      pos++;
      return { kind: 'var', name: name() };
    }
    if (t.kind === 'punct' && t.text === '[') {
      pos++;
      const items: Value[] = [];
      while (!isPunct(']')) items.push(value());
      pos++;
      return { kind: 'list', items };
    }
    if (t.kind === 'punct' && t.text === '{') {
      pos++;
      const fields: Record<string, Value> = {};
      while (!isPunct('}')) {
        const key = name();
        expectPunct(':');
        fields[key] = value();
      }
      pos++;
      return { kind: 'object', fields };
    }
    pos++;
    if (t.kind === 'number' || t.kind === 'string') return { kind: 'const', value: t.value };
    if (t.kind === 'name') {
      if (t.text === 'true') return { kind: 'const', value: true };
      if (t.text === 'false') return { kind: 'const', value: false };
      if (t.text === 'null') return { kind: 'const', value: null };
      return { kind: 'const', value: t.text }; // an enum value
    }
    throw new GraphqlSyntaxError(`unexpected ${t.text} at token ${pos - 1}`);
  };

  const args = (): Record<string, Value> => {
    const out: Record<string, Value> = {};
    if (!isPunct('(')) return out;
    pos++;
    while (!isPunct(')')) {
      const key = name();
      expectPunct(':');
      out[key] = value();
    }
    pos++;
    return out;
  };

  const directives = (): DirectiveNode[] => {
    const out: DirectiveNode[] = [];
    while (isPunct('@')) {
      pos++;
      out.push({ name: name(), args: args() });
    }
    return out;
  };

  const typeRef = (): void => {
    if (isPunct('[')) {
      pos++;
      typeRef();
      expectPunct(']');
    } else {
      name();
    }
    if (isPunct('!')) pos++;
  };

  const selectionSet = (): Selection[] => {
    expectPunct('{');
    const out: Selection[] = [];
    while (!isPunct('}')) {
      if (isPunct('...')) {
        pos++;
        if (peek()?.kind === 'name' && peek()?.text === 'on') {
          pos++;
          const typeCondition = name();
          out.push({ kind: 'inline', typeCondition, directives: directives(), selections: selectionSet() });
        } else if (isPunct('{') || isPunct('@')) {
          const dirs = directives();
          out.push({ kind: 'inline', typeCondition: null, directives: dirs, selections: selectionSet() });
        } else {
          out.push({ kind: 'spread', name: name(), directives: directives() });
        }
        continue;
      }
      let alias: string | null = null;
      let fieldName = name();
      if (isPunct(':')) {
        pos++;
        alias = fieldName;
        fieldName = name();
      }
      const fieldArgs = args();
      const dirs = directives();
      out.push({ kind: 'field', alias, name: fieldName, args: fieldArgs, directives: dirs, selections: isPunct('{') ? selectionSet() : null });
    }
    pos++;
    return out;
  };

  const doc: DocumentNode = { operations: [], fragments: new Map() };
  while (pos < tokens.length) {
    if (isPunct('{')) {
      doc.operations.push({ name: null, variables: {}, selections: selectionSet() });
      continue;
    }
    const keyword = name();
    if (keyword === 'fragment') {
      const fragmentName = name();
      if (name() !== 'on') throw new GraphqlSyntaxError('expected "on" in a fragment definition');
      const typeCondition = name();
      directives();
      doc.fragments.set(fragmentName, { typeCondition, selections: selectionSet() });
      continue;
    }
    if (keyword !== 'query' && keyword !== 'mutation' && keyword !== 'subscription') {
      throw new GraphqlSyntaxError(`unexpected ${keyword}`);
    }
    const opName = peek()?.kind === 'name' ? name() : null;
    const variables: Record<string, Value | undefined> = {};
    if (isPunct('(')) {
      pos++;
      while (!isPunct(')')) {
        expectPunct('$');
        const varName = name();
        expectPunct(':');
        typeRef();
        let fallback: Value | undefined;
        if (isPunct('=')) {
          pos++;
          fallback = value();
        }
        directives();
        variables[varName] = fallback;
      }
      pos++;
    }
    directives();
    doc.operations.push({ name: opName, variables, selections: selectionSet() });
  }
  return doc;
}

/** A value's runtime form, with variables substituted. */
export function evaluate(v: Value, vars: Record<string, unknown>): unknown {
  switch (v.kind) {
    case 'var':
      return vars[v.name] ?? null;
    case 'const':
      return v.value;
    case 'list':
      return v.items.map((item) => evaluate(item, vars));
    case 'object':
      return Object.fromEntries(Object.entries(v.fields).map(([k, item]) => [k, evaluate(item, vars)]));
  }
}

/** What a resolver returns: a scalar, an object to select from, a list of either, or null. */
export type Resolved = null | string | number | boolean | GqlObject | Resolved[] | { [key: string]: unknown };

export interface GqlObject {
  readonly __gql: true;
  typename: string;
  /** Interfaces and unions it belongs to (inline fragments on these apply). */
  implements?: readonly string[];
  resolve(field: string, args: Record<string, unknown>, path: ReadonlyArray<string | number>): Resolved;
}

export interface ExecutionError {
  message: string;
  type?: string;
  path: Array<string | number>;
}

export interface ExecutionContext {
  vars: Record<string, unknown>;
  fragments: DocumentNode['fragments'];
  errors: ExecutionError[];
}

function isGqlObject(value: unknown): value is GqlObject {
  return typeof value === 'object' && value !== null && (value as { __gql?: unknown }).__gql === true;
}

function included(directives: readonly DirectiveNode[], vars: Record<string, unknown>): boolean {
  for (const d of directives) {
    const condition = d.args.if === undefined ? undefined : evaluate(d.args.if, vars);
    if (d.name === 'skip' && condition === true) return false;
    if (d.name === 'include' && condition === false) return false;
  }
  return true;
}

function applies(object: GqlObject, typeCondition: string | null): boolean {
  return typeCondition === null || typeCondition === object.typename || (object.implements ?? []).includes(typeCondition);
}

/** The fields of `selections` on `object`, in query order. */
export function executeSelections(object: GqlObject, selections: readonly Selection[], ctx: ExecutionContext, path: Array<string | number>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (list: readonly Selection[]): void => {
    for (const selection of list) {
      if (!included(selection.directives, ctx.vars)) continue;
      if (selection.kind === 'inline') {
        if (applies(object, selection.typeCondition)) visit(selection.selections);
        continue;
      }
      if (selection.kind === 'spread') {
        const fragment = ctx.fragments.get(selection.name);
        if (fragment !== undefined && applies(object, fragment.typeCondition)) visit(fragment.selections);
        continue;
      }
      const key = selection.alias ?? selection.name;
      const fieldPath = [...path, key];
      if (selection.name === '__typename') {
        out[key] = object.typename;
        continue;
      }
      const args = Object.fromEntries(Object.entries(selection.args).map(([k, v]) => [k, evaluate(v, ctx.vars)]));
      const resolved = object.resolve(selection.name, args, fieldPath);
      out[key] = complete(resolved, selection.selections, ctx, fieldPath);
    }
  };
  visit(selections);
  return out;
}

function complete(value: Resolved | undefined, selections: readonly Selection[] | null, ctx: ExecutionContext, path: Array<string | number>): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item, i) => complete(item, selections, ctx, [...path, i]));
  if (isGqlObject(value)) return selections === null ? null : executeSelections(value, selections, ctx, path);
  return value;
}

/**
 * Run a GraphQL request; `{ data, errors? }` as a GraphQL server answers. `rootFor` builds the
 * root object with the list its resolvers append field errors to (NOT_FOUND…).
 */
export function executeRequest(rootFor: (errors: ExecutionError[]) => GqlObject, query: string, variables: Record<string, unknown>, operationName?: string | null): { data: unknown; errors?: ExecutionError[] } {
  let doc: DocumentNode;
  try {
    doc = parseDocument(query);
  } catch (error) {
    return { data: null, errors: [{ message: error instanceof Error ? error.message : String(error), type: 'PARSE_ERROR', path: [] }] };
  }
  const operation = doc.operations.find((op) => operationName == null || op.name === operationName) ?? doc.operations[0];
  if (operation === undefined) return { data: null, errors: [{ message: 'no operation in the document', path: [] }] };
  const vars: Record<string, unknown> = {};
  for (const [name, fallback] of Object.entries(operation.variables)) {
    vars[name] = variables[name] !== undefined ? variables[name] : fallback === undefined ? null : evaluate(fallback, {});
  }
  for (const [name, v] of Object.entries(variables)) if (!(name in vars)) vars[name] = v;
  const ctx: ExecutionContext = { vars, fragments: doc.fragments, errors: [] };
  const data = executeSelections(rootFor(ctx.errors), operation.selections, ctx, []);
  return ctx.errors.length === 0 ? { data } : { data, errors: ctx.errors };
}

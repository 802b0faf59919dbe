/**
 * `JSON.stringify` of a large object in pieces: the object's own members one by one, and the
 * elements of its array members one by one. The pieces joined are byte-identical to
 * `JSON.stringify(value)` (compact) or `JSON.stringify(value, null, 2)` (pretty).
 *
 * Why: V8 stringifies a 20 MB pretty report several times slower in one call than in a
 * thousand small ones, and one call holds the whole text in memory at once; the pieces can be
 * written as they come. `mapElement` lets the caller shape each element only when its turn
 * comes (the audit's contract projection), so no second copy of the whole report is built.
 */

const PRETTY_INDENT = '  ';

/**
 * Text of `value` at nesting `depth` (pretty: its lines after the first indented to that depth).
 * Pretty and nested, the value is written inside `depth` one-element arrays, which indent it
 * just so, and cut out of them: no second pass over its text to indent it.
 */
function nested(value: unknown, pretty: boolean, depth: number): string {
  if (!pretty) return JSON.stringify(value);
  if (depth === 0) return JSON.stringify(value, null, 2);
  let wrapped: unknown = value;
  let head = 0;
  let tail = 0;
  for (let level = 1; level <= depth; level++) {
    wrapped = [wrapped];
    head += 2 + PRETTY_INDENT.length * level; // "[\n" and the indent of the level below
    tail += 2 + PRETTY_INDENT.length * (level - 1); // "\n", the indent of this level and "]"
  }
  const text = JSON.stringify(wrapped, null, 2);
  return text.slice(head, text.length - tail);
}

/** What JSON.stringify writes for a member (undefined: the member is left out) or an element (null). */
function writable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/**
 * The pieces of `value`'s JSON text. `value` must be a plain object (no `toJSON`); its members'
 * values may be anything JSON.stringify accepts. Each element of an array member passes
 * through `mapElement` (with the member's key) before it is written.
 */
export function* jsonChunks(
  value: Record<string, unknown>,
  options: { pretty: boolean; mapElement?: (element: unknown, key: string) => unknown },
): Generator<string> {
  const { pretty } = options;
  const map = options.mapElement ?? ((element: unknown) => element);
  const members = Object.entries(value).filter(([, member]) => writable(member));
  if (members.length === 0) {
    yield '{}';
    return;
  }
  const open = pretty ? '{\n' : '{';
  const between = pretty ? ',\n' : ',';
  const indent = pretty ? PRETTY_INDENT : '';
  const colon = pretty ? ': ' : ':';
  yield open;
  for (let m = 0; m < members.length; m++) {
    const [key, member] = members[m]!;
    const label = `${indent}${JSON.stringify(key)}${colon}`;
    if (Array.isArray(member) && member.length > 0) {
      yield `${label}[${pretty ? '\n' : ''}`;
      for (let i = 0; i < member.length; i++) {
        const element = map(member[i], key);
        // An element JSON cannot write (undefined, a function) is written as null, as JSON.stringify does.
        const text = writable(element) ? nested(element, pretty, 2) : 'null';
        yield `${indent}${indent}${text}${i + 1 < member.length ? between : pretty ? '\n' : ''}`;
      }
      yield `${indent}]`;
    } else {
      yield `${label}${nested(member, pretty, 1)}`;
    }
    yield m + 1 < members.length ? between : pretty ? '\n}' : '}';
  }
}

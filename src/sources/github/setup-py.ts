/**
 * The project name a setup.py passes to `setup(name=…)`, read without running it. setup.py is
 * code a stranger wrote: a name in a comment, in a docstring, in another call or in a string
 * that only looks like a keyword argument must not count (it could make any repository "name"
 * any package). One linear pass tokenises the source — comments and strings (every quote style
 * and prefix) skipped as Python's tokenizer skips them — and the name is the string literal
 * passed as the `name=` keyword of a call to `setup` (or `<module>.setup`) directly in its
 * parentheses, the same in every such call of the file. A name built at run time (a variable,
 * an f-string, a concatenation) is no literal: null.
 */

type Token = { kind: 'name'; text: string } | { kind: 'string'; value: string | null } | { kind: 'op'; text: string };

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;
/** A PEP 508 project name. */
const PROJECT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** String prefixes (any case): r, u, b, f, and their pairs. */
const PREFIX = /^(?:[rRuUbBfF]|[rR][bBfF]|[bBfF][rR])$/;

/** Python tokens, enough to find a call's keyword arguments (linear in the text). */
function* tokens(text: string): Generator<Token> {
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\\') {
      i += 1;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < text.length && NAME_PART.test(text[j] as string)) j += 1;
      const word = text.slice(i, j);
      const quote = text[j];
      if ((quote === '"' || quote === "'") && PREFIX.test(word)) {
        const end = stringEnd(text, j);
        // A formatted string is computed at run time: no literal value.
        yield { kind: 'string', value: /[fF]/.test(word) ? null : literal(text, j, end, /[rR]/.test(word)) };
        i = end;
        continue;
      }
      yield { kind: 'name', text: word };
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      yield { kind: 'string', value: literal(text, i, end, false) };
      i = end;
      continue;
    }
    yield { kind: 'op', text: c };
    i += 1;
  }
}

/** Where the string starting with a quote at `start` ends (past its closing quote, or the text's end). */
function stringEnd(text: string, start: number): number {
  const quote = text[start] as string;
  const triple = text.startsWith(quote.repeat(3), start);
  const closing = triple ? quote.repeat(3) : quote;
  let i = start + closing.length;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (!triple && c === '\n') return i; // an unterminated one-line string ends at the line
    if (text.startsWith(closing, i)) return i + closing.length;
    i += 1;
  }
  return text.length;
}

/** A string's value when it is plain (no escapes to interpret), else null. */
function literal(text: string, start: number, end: number, raw: boolean): string | null {
  const quote = text[start] as string;
  const width = text.startsWith(quote.repeat(3), start) ? 3 : 1;
  if (end - start < 2 * width || !text.startsWith(quote.repeat(width), end - width)) return null;
  const value = text.slice(start + width, end - width);
  return !raw && value.includes('\\') ? null : value;
}

const isName = (token: Token | undefined, text: string): boolean => token?.kind === 'name' && token.text === text;
const isOp = (token: Token | undefined, text: string): boolean => token?.kind === 'op' && token.text === text;

/**
 * The literal `name=` of the `setup(…)` calls, or null. A file may call `setup` more than once
 * (a fallback build, a branch per Python version); every call must then pass the same literal
 * name: one that passes another, a computed one or none at all (`setup(**options)`) makes the
 * name ambiguous — a call under `if False:` before the real one would otherwise name any
 * project — and ambiguous is null.
 */
export function setupPyName(text: string): string | null {
  const list = [...tokens(text)];
  /** Each call's name: the literal, or null (none, computed, or two different ones). */
  const names: Array<string | null> = [];
  let depth = 0;
  let call: { depth: number; name: string | null | undefined } | null = null;
  for (let i = 0; i < list.length; i += 1) {
    const t = list[i] as Token;
    if (t.kind === 'op' && (t.text === '(' || t.text === '[' || t.text === '{')) {
      depth += 1;
      if (call === null && t.text === '(' && isName(list[i - 1], 'setup') && !isName(list[i - 2], 'def')) call = { depth, name: undefined };
    } else if (t.kind === 'op' && (t.text === ')' || t.text === ']' || t.text === '}')) {
      if (call !== null && depth === call.depth) {
        names.push(call.name ?? null);
        call = null;
      }
      depth = Math.max(0, depth - 1);
    } else if (call !== null && depth === call.depth && isName(t, 'name') && isOp(list[i + 1], '=')) {
      const value = list[i + 2];
      const after = list[i + 3];
      let name: string | null = null;
      // `name="a" + suffix` is built at run time.
      const computed = after !== undefined && after.kind === 'op' && after.text !== ',' && after.text !== ')';
      if (value?.kind === 'string' && value.value !== null && !computed) {
        const trimmed = value.value.trim();
        name = PROJECT_NAME.test(trimmed) ? trimmed : null;
      }
      call.name = call.name === undefined || call.name === name ? name : null;
      // Past `=` and a name or string value; a bracket is read as usual (its pair closes it).
      i += value?.kind === 'op' ? 1 : 2;
    }
  }
  if (call !== null) names.push(call.name ?? null); // a file cut short inside its call
  const first = names[0] ?? null;
  return first !== null && names.every((name) => name === first) ? first : null;
}

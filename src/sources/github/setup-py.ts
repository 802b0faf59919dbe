/**
 * The project name a setup.py passes to `setup(name=…)`, read without running it. setup.py is
 * code a stranger wrote: a name in a comment, in a docstring, in another call or in a string
 * that only looks like a keyword argument must not count (it could make any repository "name"
 * any package). One linear pass tokenises the source — comments and strings (every quote style
 * and prefix) skipped as Python's tokenizer skips them — and the name is the first string
 * literal passed as the `name=` keyword of a call to `setup` (or `<module>.setup`) directly in
 * its parentheses. A name built at run time (a variable, an f-string, a concatenation) is no
 * literal: null.
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

/** The literal `name=` of the first `setup(…)` call, or null. */
export function setupPyName(text: string): string | null {
  let previous: Token | null = null;
  let before: Token | null = null;
  let depth = 0;
  let inSetup = false;
  let setupDepth = 0;
  const stream = tokens(text);
  for (let token = stream.next(); !token.done; token = stream.next()) {
    const t = token.value;
    if (t.kind === 'op' && (t.text === '(' || t.text === '[' || t.text === '{')) {
      depth += 1;
      if (!inSetup && t.text === '(' && previous?.kind === 'name' && previous.text === 'setup' && !(before?.kind === 'name' && before.text === 'def')) {
        inSetup = true;
        setupDepth = depth;
      }
    } else if (t.kind === 'op' && (t.text === ')' || t.text === ']' || t.text === '}')) {
      if (inSetup && depth === setupDepth) inSetup = false;
      depth = Math.max(0, depth - 1);
    } else if (inSetup && depth === setupDepth && t.kind === 'name' && t.text === 'name') {
      const equals = stream.next();
      if (equals.done || equals.value.kind !== 'op' || equals.value.text !== '=') continue;
      const value = stream.next();
      if (value.done || value.value.kind !== 'string' || value.value.value === null) return null;
      const after = stream.next();
      // `name="a" + suffix` is built at run time.
      if (!after.done && after.value.kind === 'op' && after.value.text !== ',' && after.value.text !== ')') return null;
      const name = value.value.value.trim();
      return PROJECT_NAME.test(name) ? name : null;
    }
    before = previous;
    previous = t;
  }
  return null;
}

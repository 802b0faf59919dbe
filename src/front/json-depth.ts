/**
 * A JSON body's nesting, bounded before it is parsed (docs/security.md). V8 parses a deeply nested
 * value slowly (`[` × 4 million takes seconds, holding every request on the event loop) and
 * `JSON.stringify` of one overflows the stack; no request of either front door nests anywhere
 * near `MAX_JSON_DEPTH` (a lockfile or SBOM travels as a JSON string, which does not nest).
 * An object naming one key twice is refused too, as a repeated query parameter is: `JSON.parse`
 * keeps the last, other readers (a proxy or gateway in front) the first, so the two could judge
 * different requests (docs/security.md).
 */
import type { FastifyInstance } from 'fastify';
import { visit } from 'jsonc-parser';

/** The deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 64;

/** The code of the error a body nested deeper than `MAX_JSON_DEPTH` fails with (status 400). */
export const JSON_TOO_DEEP = 'NERQ_JSON_TOO_DEEP';

/** The code of the error a body naming one key twice in an object fails with (status 400). */
export const JSON_KEY_TWICE = 'NERQ_JSON_KEY_TWICE';

/** Whether an object of `text` names one key twice (escapes decoded: `"a"` and `"\u0061"` are one key); one pass of jsonc-parser's scanner. */
export function namesAKeyTwice(text: string): boolean {
  const open: Set<string>[] = [];
  let twice = false;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (name) => {
      const keys = open[open.length - 1];
      if (keys === undefined) return;
      if (keys.has(name)) twice = true;
      keys.add(name);
    },
  });
  return twice;
}

/**
 * Whether an object of `text` has a key Fastify's JSON parser refuses (secure-json-parse): `__proto__`,
 * or `constructor` holding an object with a `prototype` key (escapes decoded); one pass of jsonc-parser's scanner.
 */
export function namesAPrototypeKey(text: string): boolean {
  /** Per open object: the key its value is under (null inside an array or at the top). */
  const under: Array<string | null> = [];
  let key: string | null = null;
  let found = false;
  visit(text, {
    onObjectBegin: () => {
      under.push(key);
      key = null;
    },
    onObjectEnd: () => {
      under.pop();
      key = null;
    },
    onArrayBegin: () => {
      under.push(null);
      key = null;
    },
    onArrayEnd: () => {
      under.pop();
      key = null;
    },
    onObjectProperty: (name) => {
      if (name === '__proto__' || (name === 'prototype' && under[under.length - 1] === 'constructor')) found = true;
      key = name;
    },
  });
  return found;
}

/** Whether `text` opens more than `max` objects or arrays at once (strings skipped); one linear pass. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Replace Fastify's JSON parser by one that first refuses a body nested deeper than MAX_JSON_DEPTH, then parses as Fastify does (`__proto__` and `constructor` keys refused), and refuses a body that names a key twice in one object. */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(Object.assign(new Error(`the body nests deeper than ${MAX_JSON_DEPTH} levels`), { statusCode: 400, code: JSON_TOO_DEEP }), undefined);
      return;
    }
    parse(request, text, (error, value) => {
      if (error === null && namesAKeyTwice(text)) {
        done(Object.assign(new Error('the body names one key twice in an object'), { statusCode: 400, code: JSON_KEY_TWICE }), undefined);
        return;
      }
      done(error, value);
    });
  });
}
